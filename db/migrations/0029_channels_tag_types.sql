-- Channels and tag types (docs/behaviour.md §22): the catalogue Get
-- Channels, Get Channel by Name, Get Tag Types and Get Tag Type by Name
-- read (src/repo/repo_program_catalogue.c).  A channel's progression
-- statuses are the statuses a program of that channel has
-- (program_status, which Change Lead Program Status reads).
--
-- The channels a new instance has, each with its statuses in order of
-- step (0, 10, 20, ... as the documentation's examples number them);
-- program_type is the kind of program the channel is for: program,
-- event, webinar, nurture or email_batch.  The Webinar statuses are the
-- ones mautoctl program create gives a program by default.
--
-- Tag types are made by an administrator: a new instance has none.
-- program_types is the documented text of the reply, a bracketed list
-- ("[program,event]"); a tag type's allowed values are kept in order.
CREATE TABLE channel (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	program_type VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY channel_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE channel_status (
	channel_id INT NOT NULL,
	step INT NOT NULL,
	name VARCHAR(255) NOT NULL,
	description VARCHAR(2000) NULL,
	hidden TINYINT(1) NOT NULL DEFAULT 0,
	success TINYINT(1) NOT NULL DEFAULT 0,
	PRIMARY KEY (channel_id, step),
	UNIQUE KEY channel_status_name (channel_id, name),
	CONSTRAINT channel_status_channel FOREIGN KEY (channel_id)
		REFERENCES channel (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE tag_type (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	program_types VARCHAR(255) NOT NULL,
	required TINYINT(1) NOT NULL DEFAULT 0,
	PRIMARY KEY (id),
	UNIQUE KEY tag_type_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE tag_value (
	tag_type_id INT NOT NULL,
	position INT NOT NULL,
	value VARCHAR(255) NOT NULL,
	PRIMARY KEY (tag_type_id, position),
	UNIQUE KEY tag_value_value (tag_type_id, value),
	CONSTRAINT tag_value_type FOREIGN KEY (tag_type_id)
		REFERENCES tag_type (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO channel (id, name, program_type, created_at, updated_at) VALUES
	(1, 'Content', 'program', UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	(2, 'Email Blast', 'program', UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	(3, 'Email Send', 'email_batch', UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	(4, 'Online Advertising', 'program', UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	(5, 'Live Event', 'event', UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	(6, 'Tradeshow', 'event', UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	(7, 'Webinar', 'webinar', UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	(8, 'Nurture', 'nurture', UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	(9, 'Operational', 'program', UTC_TIMESTAMP(), UTC_TIMESTAMP());

INSERT INTO channel_status (channel_id, step, name, success) VALUES
	(1, 0, 'Not in Program', 0), (1, 10, 'Engaged', 1),
	(2, 0, 'Not in Program', 0), (2, 10, 'Sent', 0),
	(2, 20, 'Clicked Link', 1),
	(3, 0, 'Not in Program', 0), (3, 10, 'Member', 0),
	(3, 20, 'Success', 1),
	(4, 0, 'Not in Program', 0), (4, 10, 'Clicked', 1),
	(5, 0, 'Not in Program', 0), (5, 10, 'Invited', 0),
	(5, 20, 'Registered', 0), (5, 30, 'No Show', 0),
	(5, 40, 'Attended', 1),
	(6, 0, 'Not in Program', 0), (6, 10, 'Invited', 0),
	(6, 20, 'Visited Booth', 1),
	(7, 0, 'Not in Program', 0), (7, 10, 'Invited', 0),
	(7, 20, 'Registered', 0), (7, 30, 'Attended', 1),
	(7, 40, 'No Show', 0),
	(8, 0, 'Not in Program', 0), (8, 10, 'Member', 0),
	(8, 20, 'Engaged', 1),
	(9, 0, 'Not in Program', 0), (9, 10, 'Member', 0);
