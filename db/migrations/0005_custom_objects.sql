-- Custom objects (src/repo/repo_custom_objects.c, api-behaviour.md §6):
-- types with a draft and an approved version, their fields, and the
-- catalogue version every type change bumps.  The records of an approved
-- type live in a table of their own, co_rec_<type id>, created by the
-- service when the type is first approved (its columns are the approved
-- fields, named by their API names), so they are not made here.

-- One row per type.  state is derived from has_approved/has_draft and
-- kept for reading.  draft_rev counts draft changes, so an approval can
-- tell that the draft it built the table for is still the draft.
-- approving holds a lease while an approval runs its DDL (a row, never
-- GET_LOCK: galera.md).  table_ready says co_rec_<id> exists.
CREATE TABLE co_type (
	id INT NOT NULL AUTO_INCREMENT,
	api_name VARCHAR(50) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
	state VARCHAR(20) CHARACTER SET ascii NOT NULL,
	has_approved TINYINT(1) NOT NULL DEFAULT 0,
	has_draft TINYINT(1) NOT NULL DEFAULT 1,
	table_ready TINYINT(1) NOT NULL DEFAULT 0,
	draft_rev BIGINT NOT NULL DEFAULT 1,
	approving_owner CHAR(36) CHARACTER SET ascii NULL,
	approving_until DATETIME NULL,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	approved_at DATETIME NULL,
	PRIMARY KEY (id),
	UNIQUE KEY co_type_api_name (api_name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- A version of a type: is_draft 1 for the draft, 0 for the approved.
CREATE TABLE co_type_version (
	type_id INT NOT NULL,
	is_draft TINYINT(1) NOT NULL,
	display_name VARCHAR(255) NOT NULL,
	plural_name VARCHAR(255) NULL,
	description VARCHAR(2000) NULL,
	show_in_lead_detail TINYINT(1) NOT NULL DEFAULT 0,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (type_id, is_draft),
	CONSTRAINT co_type_version_type FOREIGN KEY (type_id)
		REFERENCES co_type (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The fields of a version.  name is unique without regard to case in a
-- version (MariaDB column names are).  For a link, related_object is
-- "lead" or a type's API name and related_field the linked key;
-- key_type the data type of that key (the record column's type).
CREATE TABLE co_field (
	type_id INT NOT NULL,
	is_draft TINYINT(1) NOT NULL,
	name VARCHAR(50) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
	pos INT NOT NULL,
	display_name VARCHAR(255) NOT NULL,
	data_type VARCHAR(16) CHARACTER SET ascii NOT NULL,
	length INT NULL,
	description VARCHAR(2000) NULL,
	is_dedupe TINYINT(1) NOT NULL DEFAULT 0,
	related_object VARCHAR(50) CHARACTER SET ascii COLLATE ascii_general_ci NULL,
	related_field VARCHAR(64) CHARACTER SET ascii COLLATE ascii_general_ci NULL,
	key_type VARCHAR(16) CHARACTER SET ascii NULL,
	PRIMARY KEY (type_id, is_draft, name),
	CONSTRAINT co_field_version FOREIGN KEY (type_id, is_draft)
		REFERENCES co_type_version (type_id, is_draft) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The catalogue version: every type change updates this row in its
-- transaction, so workers caching types reload, and concurrent type
-- changes (the 10-type limit) conflict on it instead of racing.
CREATE TABLE co_schema (
	id TINYINT UNSIGNED NOT NULL,
	version BIGINT NOT NULL,
	PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO co_schema (id, version) VALUES (1, 1);
