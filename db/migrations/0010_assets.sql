-- The asset wing's foundation (docs/assets.md): workspaces, the folder
-- tree that programs and assets live in, where an asset is used, and
-- the first versioned asset type, landing page templates.  Folder ids
-- and program ids are separate namespaces: a place is {id, Folder} or
-- {id, Program} (src/model/folder.h).

-- "Default" (id 1) always exists.
CREATE TABLE workspace (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY workspace_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
INSERT INTO workspace (id, name) VALUES (1, 'Default');

-- kind decides what a folder may hold (model/folder.c, folder_may_hold):
-- marketing (programs and folders), email, emailTemplate,
-- landingPageTemplate, smartList.  parent_id NULL is a root; system
-- folders (the roots a new instance has) cannot be deleted.
CREATE TABLE folder (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	description VARCHAR(2000) NULL,
	kind VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	parent_id INT NULL,
	workspace_id INT NOT NULL DEFAULT 1,
	is_system TINYINT(1) NOT NULL DEFAULT 0,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY folder_sibling_name (parent_id, name),
	KEY folder_workspace (workspace_id),
	CONSTRAINT folder_parent FOREIGN KEY (parent_id) REFERENCES folder (id),
	CONSTRAINT folder_ws FOREIGN KEY (workspace_id) REFERENCES workspace (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The roots of a new instance, one per kind, ids 1 to 5.
INSERT INTO folder (id, name, description, kind, parent_id, workspace_id,
    is_system, created_at, updated_at) VALUES
 (1, 'Marketing Activities', NULL, 'marketing', NULL, 1, 1, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
 (2, 'Emails', NULL, 'email', NULL, 1, 1, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
 (3, 'Email Templates', NULL, 'emailTemplate', NULL, 1, 1, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
 (4, 'Landing Page Templates', NULL, 'landingPageTemplate', NULL, 1, 1, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
 (5, 'Smart Lists', NULL, 'smartList', NULL, 1, 1, UTC_TIMESTAMP(), UTC_TIMESTAMP());

-- Programs live in marketing folders; the ones made before stand in the
-- Marketing Activities root.
ALTER TABLE program ADD COLUMN folder_id INT NOT NULL DEFAULT 1,
	ADD KEY program_folder (folder_id),
	ADD CONSTRAINT program_folder_fk FOREIGN KEY (folder_id) REFERENCES folder (id);

-- What uses an asset ("used by"): filled by the groups whose assets
-- refer to others (a landing page to its template, a flow step to an
-- email).  Unapprove and delete read it.
CREATE TABLE asset_usage (
	asset_type VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	asset_id INT NOT NULL,
	user_type VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	user_id INT NOT NULL,
	PRIMARY KEY (asset_type, asset_id, user_type, user_id),
	KEY asset_usage_user (user_type, user_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Landing page templates: the asset's metadata, and at most two versions
-- (draft and approved) of its content.
CREATE TABLE lp_template (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	description VARCHAR(2000) NULL,
	folder_id INT NOT NULL,
	workspace_id INT NOT NULL DEFAULT 1,
	template_type VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	enable_munchkin TINYINT(1) NOT NULL DEFAULT 0,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY lp_template_name (name),
	KEY lp_template_folder (folder_id, id),
	CONSTRAINT lp_template_folder_fk FOREIGN KEY (folder_id) REFERENCES folder (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE lp_template_version (
	template_id INT NOT NULL,
	status VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	content MEDIUMTEXT NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (template_id, status),
	CONSTRAINT lp_template_version_fk FOREIGN KEY (template_id)
		REFERENCES lp_template (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
