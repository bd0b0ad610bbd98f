-- Smart campaigns (docs/behaviour.md §10, docs/assets.md): the catalogue
-- of flow step types as data, the campaigns, their smart lists (rows of
-- smart_list owned by a campaign) and their flows (ordered steps, each
-- with its choices top-down, the default choice last, and the values
-- of the step type's attributes per choice).
--
-- Flow step types carry the hosted service's activity type ids where
-- that id is published (6 Send Email, 13 Change Data Value, 22 Change
-- Score, 24 Add to List, 25 Remove from List, 37 Delete Person, 46
-- Interesting Moment, 47 Request Campaign, 104 Change Program Status);
-- the flow actions that record no activity (Wait, Remove from Flow)
-- have ids of 100000 and up, mauto's own, as the rule types of 0014 do.

CREATE TABLE sc_flow_type (
	id INT NOT NULL,
	name VARCHAR(255) NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY sc_flow_type_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The attributes of a flow step type.  data_type says what a value
-- names: email, list, program, status (of the program), campaign, field
-- (a lead field), or plain text (string, integer, duration); choices,
-- when set, is the comma-separated list of the values it takes.
CREATE TABLE sc_flow_attrib (
	flow_type_id INT NOT NULL,
	id INT NOT NULL,
	name VARCHAR(255) NOT NULL,
	data_type VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	is_primary TINYINT(1) NOT NULL DEFAULT 0,
	is_required TINYINT(1) NOT NULL DEFAULT 1,
	choices VARCHAR(1024) NULL,
	position INT NOT NULL,
	PRIMARY KEY (flow_type_id, id),
	CONSTRAINT sc_flow_attrib_type FOREIGN KEY (flow_type_id)
		REFERENCES sc_flow_type (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO sc_flow_type (id, name) VALUES
	(6, 'Send Email'),
	(13, 'Change Data Value'),
	(22, 'Change Score'),
	(24, 'Add to List'),
	(25, 'Remove from List'),
	(37, 'Delete Person'),
	(46, 'Interesting Moment'),
	(47, 'Request Campaign'),
	(104, 'Change Program Status'),
	(100001, 'Wait'),
	(100002, 'Remove from Flow');

INSERT INTO sc_flow_attrib (flow_type_id, id, name, data_type, is_primary,
    is_required, choices, position) VALUES
	(6, 1, 'Email', 'email', 1, 1, NULL, 1),
	(13, 1, 'Attribute', 'field', 1, 1, NULL, 1),
	(13, 2, 'New Value', 'string', 0, 0, NULL, 2),
	(22, 1, 'Score Name', 'field', 1, 1, NULL, 1),
	(22, 2, 'Change', 'string', 0, 1, NULL, 2),
	(24, 1, 'List', 'list', 1, 1, NULL, 1),
	(25, 1, 'List', 'list', 1, 1, NULL, 1),
	(46, 1, 'Type', 'string', 1, 1, 'Web,Email,Milestone', 1),
	(46, 2, 'Description', 'string', 0, 1, NULL, 2),
	(47, 1, 'Campaign', 'campaign', 1, 1, NULL, 1),
	(104, 1, 'Program', 'program', 1, 1, NULL, 1),
	(104, 2, 'New Status', 'status', 0, 1, NULL, 2),
	(100001, 101, 'Wait Duration', 'duration', 1, 1, NULL, 1),
	(100002, 1, 'Campaigns', 'string', 1, 1, 'Current Campaign,All Campaigns', 1);

-- A smart campaign stands in a program or a marketing folder (exactly
-- one of folder_id and program_id).  Names are unique in the instance.
-- Its ids are the campaign ids of campaign_member (migration 0004) and
-- of activity.campaign_id: one numbering, starting where the public
-- documentation's examples do.  flowId is the campaign's id.
CREATE TABLE smart_campaign (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	description VARCHAR(2000) NULL,
	folder_id INT NULL,
	program_id INT NULL,
	workspace_id INT NOT NULL DEFAULT 1,
	smart_list_id INT NULL,
	is_active TINYINT(1) NOT NULL DEFAULT 0,
	is_system TINYINT(1) NOT NULL DEFAULT 0,
	communication_limit TINYINT(1) NOT NULL DEFAULT 1,
	qualification_rule_type VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'once',
	qualification_rule_interval INT NULL,
	qualification_rule_unit VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NULL,
	max_members INT NULL,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY smart_campaign_name (name),
	KEY smart_campaign_folder (folder_id, id),
	KEY smart_campaign_program (program_id, id),
	KEY smart_campaign_active (is_active, id),
	KEY smart_campaign_updated (updated_at, id),
	CONSTRAINT smart_campaign_folder_fk FOREIGN KEY (folder_id) REFERENCES folder (id),
	CONSTRAINT smart_campaign_program_fk FOREIGN KEY (program_id) REFERENCES program (id),
	CONSTRAINT smart_campaign_ws FOREIGN KEY (workspace_id) REFERENCES workspace (id),
	CONSTRAINT smart_campaign_list FOREIGN KEY (smart_list_id) REFERENCES smart_list (id)
) ENGINE=InnoDB AUTO_INCREMENT=1001 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- A campaign's smart list is a smart_list row with campaign_id set: it
-- takes the campaign's name and place, may hold triggers, and is not a
-- smart list of its own (browse and by-name skip it).  Names are unique
-- among the other smart lists only (name_key is NULL for a campaign's).
ALTER TABLE smart_list ADD COLUMN campaign_id INT NULL,
	ADD COLUMN name_key VARCHAR(255) AS (IF(campaign_id IS NULL, name, NULL)) PERSISTENT,
	DROP INDEX smart_list_name,
	ADD UNIQUE KEY smart_list_name (name_key),
	ADD KEY smart_list_campaign (campaign_id);

-- The steps of a campaign's flow in order (position from 0).
CREATE TABLE sc_flow_step (
	id INT NOT NULL AUTO_INCREMENT,
	campaign_id INT NOT NULL,
	position INT NOT NULL,
	flow_type_id INT NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY sc_flow_step_pos (campaign_id, position),
	CONSTRAINT sc_flow_step_campaign FOREIGN KEY (campaign_id)
		REFERENCES smart_campaign (id) ON DELETE CASCADE,
	CONSTRAINT sc_flow_step_type FOREIGN KEY (flow_type_id)
		REFERENCES sc_flow_type (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The choices of a step, evaluated top-down (position from 0); the
-- default choice (no condition) is always the last.  A condition is a
-- rule type ({kind, id}, as smart list rules name them), an operator
-- and values (a JSON array of strings).
CREATE TABLE sc_step_choice (
	id INT NOT NULL AUTO_INCREMENT,
	step_id INT NOT NULL,
	position INT NOT NULL,
	is_default TINYINT(1) NOT NULL DEFAULT 0,
	cond_kind VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NULL,
	cond_type_id INT NULL,
	cond_operator VARCHAR(32) NULL,
	cond_vals TEXT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY sc_step_choice_pos (step_id, position),
	CONSTRAINT sc_step_choice_step FOREIGN KEY (step_id)
		REFERENCES sc_flow_step (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The values a choice gives the step type's attributes.  A value that
-- names an asset (email, list, program, campaign) is kept as its id
-- when it named one that existed, else as written.
CREATE TABLE sc_choice_attr (
	choice_id INT NOT NULL,
	attrib_id INT NOT NULL,
	value VARCHAR(2000) NOT NULL,
	PRIMARY KEY (choice_id, attrib_id),
	CONSTRAINT sc_choice_attr_choice FOREIGN KEY (choice_id)
		REFERENCES sc_step_choice (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
