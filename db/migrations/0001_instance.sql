-- The instance itself: one row describing this mauto installation.
-- (schema_migrations is created by `mautoctl migrate` before any file runs.)
CREATE TABLE instance (
	id TINYINT UNSIGNED NOT NULL PRIMARY KEY,
	munchkin_id VARCHAR(32) NOT NULL,
	created_at DATETIME NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO instance (id, munchkin_id, created_at)
	VALUES (1, '000-MAU-000', UTC_TIMESTAMP());
