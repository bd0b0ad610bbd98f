-- Smart lists (docs/behaviour.md §11, docs/assets.md): the catalogue of
-- rule types as data, and the smart lists with their ordered rules and
-- conditions.
--
-- Rule types are of two kinds, numbered separately as the API's
-- {"id":N,"type":"activity"|"attribute"} says.  Activity rule types are
-- rows of sl_rule_type with the hosted service's activity type ids where
-- that id is published (2 Fill Out Form, 12 New Lead, 13 Change Data
-- Value, 24 Add to List, 104 Change Status in Progression, ...); the
-- filters that are not activities (Member of List, Program Status,
-- Campaign is Requested) have ids of 100000 and up, mauto's own.
-- Attribute rule types are not stored: there is one for every row of
-- lead_field, with the field's attr_id as its id, made when read, so a
-- custom field is a filter as soon as it exists.  Their one constraint
-- takes its operators from sl_operator by the field's data type.

CREATE TABLE sl_rule_type (
	id INT NOT NULL,
	name VARCHAR(255) NOT NULL,
	kind VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	is_filter TINYINT(1) NOT NULL,
	is_trigger TINYINT(1) NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY sl_rule_type_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The constraints of an activity rule type: built-in ones have negative
-- ids; operators is a comma-separated list, the default first.
CREATE TABLE sl_constraint (
	rule_type_id INT NOT NULL,
	id INT NOT NULL,
	name VARCHAR(255) NOT NULL,
	data_type VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	is_primary TINYINT(1) NOT NULL DEFAULT 0,
	operators VARCHAR(255) NOT NULL,
	position INT NOT NULL,
	PRIMARY KEY (rule_type_id, id),
	CONSTRAINT sl_constraint_type FOREIGN KEY (rule_type_id)
		REFERENCES sl_rule_type (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The operators of an attribute rule by the lead field's data type.
CREATE TABLE sl_operator (
	data_type VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	operators VARCHAR(255) NOT NULL,
	PRIMARY KEY (data_type)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO sl_rule_type (id, name, kind, is_filter, is_trigger) VALUES
	(1, 'Visited Web Page', 'activity', 1, 1),
	(2, 'Filled Out Form', 'activity', 1, 1),
	(6, 'Was Sent Email', 'activity', 1, 1),
	(7, 'Was Delivered Email', 'activity', 1, 1),
	(10, 'Opened Email', 'activity', 1, 1),
	(11, 'Clicked Link in Email', 'activity', 1, 1),
	(12, 'Person is Created', 'activity', 1, 1),
	(13, 'Data Value Changed', 'activity', 1, 1),
	(24, 'Added to List', 'activity', 1, 1),
	(25, 'Removed from List', 'activity', 1, 1),
	(104, 'Program Status is Changed', 'activity', 1, 1),
	(145, 'Person was Pushed to Marketo', 'activity', 1, 1),
	(100001, 'Member of List', 'activity', 1, 0),
	(100002, 'Program Status', 'activity', 1, 0),
	(100003, 'Member of Program', 'activity', 1, 0),
	(100004, 'Campaign is Requested', 'activity', 0, 1);

INSERT INTO sl_constraint (rule_type_id, id, name, data_type, is_primary,
    operators, position) VALUES
	(1, 1, 'Web Page', 'string', 1, 'is,is not,contains,starts with', 1),
	(1, -101, 'Date of Activity', 'date', 0, 'in past,in time frame,after,before,between', 2),
	(1, -102, 'Min. Number of Times', 'integer', 0, 'at least', 3),
	(2, 1, 'Form Name', 'form', 1, 'is,is not', 1),
	(2, 2, 'Web Page', 'string', 0, 'is,is not,contains', 2),
	(2, -101, 'Date of Activity', 'date', 0, 'in past,in time frame,after,before,between', 3),
	(2, -102, 'Min. Number of Times', 'integer', 0, 'at least', 4),
	(6, 1, 'Email', 'email', 1, 'is,is not', 1),
	(6, -101, 'Date of Activity', 'date', 0, 'in past,in time frame,after,before,between', 2),
	(7, 1, 'Email', 'email', 1, 'is,is not', 1),
	(7, -101, 'Date of Activity', 'date', 0, 'in past,in time frame,after,before,between', 2),
	(10, 1, 'Email', 'email', 1, 'is,is not', 1),
	(10, -101, 'Date of Activity', 'date', 0, 'in past,in time frame,after,before,between', 2),
	(10, -102, 'Min. Number of Times', 'integer', 0, 'at least', 3),
	(11, 1, 'Email', 'email', 1, 'is,is not', 1),
	(11, 2, 'Link', 'string', 0, 'is,is not,contains', 2),
	(11, -101, 'Date of Activity', 'date', 0, 'in past,in time frame,after,before,between', 3),
	(12, 1, 'Source Type', 'string', 1, 'is,is not', 1),
	(12, -101, 'Date of Activity', 'date', 0, 'in past,in time frame,after,before,between', 2),
	(13, 1, 'Attribute', 'field', 1, 'is', 1),
	(13, 2, 'New Value', 'string', 0, 'is,is not,contains,is empty', 2),
	(13, 3, 'Previous Value', 'string', 0, 'is,is not,contains,is empty', 3),
	(13, -101, 'Date of Activity', 'date', 0, 'in past,in time frame,after,before,between', 4),
	(24, 1, 'List', 'list', 1, 'is,is not', 1),
	(24, -101, 'Date of Activity', 'date', 0, 'in past,in time frame,after,before,between', 2),
	(25, 1, 'List', 'list', 1, 'is,is not', 1),
	(25, -101, 'Date of Activity', 'date', 0, 'in past,in time frame,after,before,between', 2),
	(104, 1, 'Program', 'program', 1, 'is,is not', 1),
	(104, 2, 'New Status', 'string', 0, 'is,is not', 2),
	(104, 3, 'Previous Status', 'string', 0, 'is,is not', 3),
	(104, -101, 'Date of Activity', 'date', 0, 'in past,in time frame,after,before,between', 4),
	(145, 1, 'Program', 'program', 1, 'is,is not', 1),
	(145, -101, 'Date of Activity', 'date', 0, 'in past,in time frame,after,before,between', 2),
	(100001, 1, 'List', 'list', 1, 'in,not in', 1),
	(100002, 1, 'Program', 'program', 1, 'is', 1),
	(100002, 2, 'Status', 'string', 0, 'is,is not', 2),
	(100003, 1, 'Program', 'program', 1, 'in,not in', 1),
	(100004, 1, 'Source', 'string', 1, 'is', 1),
	(100004, 2, 'Campaign', 'string', 0, 'is,is not', 2);

INSERT INTO sl_operator (data_type, operators) VALUES
	('string', 'is,is not,contains,not contains,starts with,is empty,is not empty'),
	('text', 'is,is not,contains,not contains,starts with,is empty,is not empty'),
	('email', 'is,is not,contains,not contains,starts with,is empty,is not empty'),
	('phone', 'is,is not,contains,not contains,starts with,is empty,is not empty'),
	('url', 'is,is not,contains,not contains,starts with,is empty,is not empty'),
	('integer', 'is,is not,greater than,less than,at least,at most,between,is empty,is not empty'),
	('float', 'is,is not,greater than,less than,at least,at most,between,is empty,is not empty'),
	('currency', 'is,is not,greater than,less than,at least,at most,between,is empty,is not empty'),
	('score', 'is,is not,greater than,less than,at least,at most,between,is empty,is not empty'),
	('percent', 'is,is not,greater than,less than,at least,at most,between,is empty,is not empty'),
	('boolean', 'is'),
	('date', 'in past,in time frame,after,before,between,is empty,is not empty'),
	('datetime', 'in past,in time frame,after,before,between,is empty,is not empty'),
	('reference', 'is,is not,is empty,is not empty'),
	('formula', 'is,is not,contains,is empty,is not empty');

-- A smart list stands in a smartList folder or in a program (exactly one
-- of folder_id and program_id).  Names are unique in the instance.
CREATE TABLE smart_list (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	description VARCHAR(2000) NULL,
	folder_id INT NULL,
	program_id INT NULL,
	workspace_id INT NOT NULL DEFAULT 1,
	filter_match_type VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'all',
	custom_rule_logic VARCHAR(2000) NULL,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY smart_list_name (name),
	KEY smart_list_folder (folder_id, id),
	KEY smart_list_program (program_id, id),
	CONSTRAINT smart_list_folder_fk FOREIGN KEY (folder_id) REFERENCES folder (id),
	CONSTRAINT smart_list_program_fk FOREIGN KEY (program_id) REFERENCES program (id),
	CONSTRAINT smart_list_ws FOREIGN KEY (workspace_id) REFERENCES workspace (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The rules of a smart list in order (position from 1; rule numbers in
-- custom logic are positions).  kind and rule_type_id name the rule
-- type: an sl_rule_type row, or a lead_field attr_id for attributes.
CREATE TABLE smart_list_rule (
	id INT NOT NULL AUTO_INCREMENT,
	smart_list_id INT NOT NULL,
	position INT NOT NULL,
	kind VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	rule_type_id INT NOT NULL,
	is_trigger TINYINT(1) NOT NULL DEFAULT 0,
	is_negative TINYINT(1) NOT NULL DEFAULT 0,
	PRIMARY KEY (id),
	UNIQUE KEY smart_list_rule_pos (smart_list_id, position),
	CONSTRAINT smart_list_rule_list FOREIGN KEY (smart_list_id)
		REFERENCES smart_list (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- A rule's conditions: one per constraint set, values a JSON array.
CREATE TABLE smart_list_condition (
	rule_id INT NOT NULL,
	attribute_id INT NOT NULL,
	operator VARCHAR(32) NOT NULL,
	vals TEXT NOT NULL,
	PRIMARY KEY (rule_id, attribute_id),
	CONSTRAINT smart_list_condition_rule FOREIGN KEY (rule_id)
		REFERENCES smart_list_rule (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
