-- Emails v1 (docs/assets.md, "Emails"): an email's metadata and at most
-- two versions (draft and approved) of what it says.  An email lives in
-- an email folder or in a program: (place_type, place_id) names the
-- place, 'Folder' or 'Program' as the API spells them, because folder
-- and program ids are separate numberings (so no foreign key: the
-- repository checks the place when the email is made or moved).
CREATE TABLE email (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	description VARCHAR(2000) NULL,
	place_type VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	place_id INT NOT NULL,
	workspace_id INT NOT NULL DEFAULT 1,
	template_id INT NULL,
	operational TINYINT(1) NOT NULL DEFAULT 0,
	text_only TINYINT(1) NOT NULL DEFAULT 0,
	publish_to_msi TINYINT(1) NOT NULL DEFAULT 0,
	web_view TINYINT(1) NOT NULL DEFAULT 0,
	auto_copy_to_text TINYINT(1) NOT NULL DEFAULT 0,
	pre_header VARCHAR(4096) NULL,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY email_place_name (place_type, place_id, name),
	KEY email_name (name),
	KEY email_updated (updated_at, id),
	KEY email_template (template_id),
	CONSTRAINT email_ws FOREIGN KEY (workspace_id)
		REFERENCES workspace (id),
	CONSTRAINT email_template_fk FOREIGN KEY (template_id)
		REFERENCES email_template (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One version of an email.  Each header is a kind ('Text' or
-- 'DynamicContent', whose value is a segmentation id) and a value, NULL
-- when not set.  content is the version's sections, modules, variables
-- and dynamic content as a JSON document; '' means the template's
-- defaults, untouched (what a new email has).
CREATE TABLE email_version (
	email_id INT NOT NULL,
	status VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	subject_type VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'Text',
	subject VARCHAR(4096) NULL,
	from_name_type VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'Text',
	from_name VARCHAR(1024) NULL,
	from_email_type VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'Text',
	from_email VARCHAR(1024) NULL,
	reply_email_type VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'Text',
	reply_email VARCHAR(1024) NULL,
	open_tracking_disabled TINYINT(1) NOT NULL DEFAULT 0,
	content MEDIUMTEXT NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (email_id, status),
	CONSTRAINT email_version_fk FOREIGN KEY (email_id)
		REFERENCES email (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
