-- What emails are made from (docs/assets.md, "Email templates,
-- segmentations, snippets"): email templates, segmentations with their
-- segments, and snippets.  No API operation in scope creates them;
-- mautoctl template|segmentation|snippet create does.

-- An email template: HTML in the email template syntax, checked by
-- src/model/template.c when it is stored, approved from the start.
CREATE TABLE email_template (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	description VARCHAR(2000) NULL,
	folder_id INT NOT NULL,
	workspace_id INT NOT NULL DEFAULT 1,
	content MEDIUMTEXT NOT NULL,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY email_template_name (name),
	KEY email_template_folder (folder_id, id),
	CONSTRAINT email_template_folder_fk FOREIGN KEY (folder_id)
		REFERENCES folder (id),
	CONSTRAINT email_template_ws FOREIGN KEY (workspace_id)
		REFERENCES workspace (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- A segmentation and its segments, in order.  Every segmentation has a
-- segment named "Default" (position 0), as in the hosted service.
CREATE TABLE segmentation (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	description VARCHAR(2000) NULL,
	workspace_id INT NOT NULL DEFAULT 1,
	status VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL
		DEFAULT 'approved',
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY segmentation_name (name),
	CONSTRAINT segmentation_ws FOREIGN KEY (workspace_id)
		REFERENCES workspace (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE segment (
	id INT NOT NULL AUTO_INCREMENT,
	segmentation_id INT NOT NULL,
	name VARCHAR(255) NOT NULL,
	position INT NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY segment_name (segmentation_id, name),
	UNIQUE KEY segment_position (segmentation_id, position),
	CONSTRAINT segment_segmentation FOREIGN KEY (segmentation_id)
		REFERENCES segmentation (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The rich text sections of a template that an email made from it
-- starts with as dynamic content by a segmentation (mautoctl template
-- create --dynamic SECTION=SEGMENTATION): the email template syntax has
-- no mark for it, so it is data beside the template.
CREATE TABLE email_template_dynamic (
	template_id INT NOT NULL,
	html_id VARCHAR(255) NOT NULL,
	segmentation_id INT NOT NULL,
	PRIMARY KEY (template_id, html_id),
	KEY email_template_dynamic_seg (segmentation_id),
	CONSTRAINT email_template_dynamic_tpl FOREIGN KEY (template_id)
		REFERENCES email_template (id) ON DELETE CASCADE,
	CONSTRAINT email_template_dynamic_segfk FOREIGN KEY (segmentation_id)
		REFERENCES segmentation (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- A snippet: HTML and its text version, approved or a draft.
CREATE TABLE snippet (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	description VARCHAR(2000) NULL,
	workspace_id INT NOT NULL DEFAULT 1,
	status VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL
		DEFAULT 'approved',
	content MEDIUMTEXT NOT NULL,
	text_content MEDIUMTEXT NOT NULL,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY snippet_name (name),
	CONSTRAINT snippet_ws FOREIGN KEY (workspace_id)
		REFERENCES workspace (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
