-- API clients, roles, access tokens and the auth epoch (src/repo/repo_auth.c).
-- Times are Unix seconds (BIGINT).  Every table is InnoDB with a primary key
-- (galera.md).

CREATE TABLE auth_role (
	id BIGINT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	created_at BIGINT NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY auth_role_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One row per permission granted, by its canonical name (src/auth/perm.c),
-- so the stored set does not depend on the order of enum perm.
CREATE TABLE auth_role_perm (
	role_id BIGINT NOT NULL,
	perm VARCHAR(64) NOT NULL,
	PRIMARY KEY (role_id, perm),
	CONSTRAINT auth_role_perm_role FOREIGN KEY (role_id)
		REFERENCES auth_role (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- secret_hash is a crypto_pwhash_str (Argon2id) string; the secret itself
-- is never stored.  token_issues is written by every token issue so that
-- concurrent issuers on different Galera nodes conflict (1213) and the
-- loser re-reads the winner's token.
CREATE TABLE auth_client (
	id BIGINT NOT NULL AUTO_INCREMENT,
	client_id CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	name VARCHAR(255) NOT NULL,
	role_id BIGINT NOT NULL,
	scope VARCHAR(255) NOT NULL,
	secret_hash VARCHAR(127) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	created_at BIGINT NOT NULL,
	revoked_at BIGINT NULL,
	token_issues BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (id),
	UNIQUE KEY auth_client_client_id (client_id),
	KEY auth_client_role (role_id),
	CONSTRAINT auth_client_role_fk FOREIGN KEY (role_id)
		REFERENCES auth_role (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Keyed by the BLAKE2b-256 hash of the token text; the text is kept so the
-- identity endpoint can return the same token until it expires.  Expired
-- rows stay for a while (601 vs 602) and are purged when tokens are issued.
CREATE TABLE auth_token (
	token_hash BINARY(32) NOT NULL,
	client_ref BIGINT NOT NULL,
	token VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	issued_at BIGINT NOT NULL,
	expires_at BIGINT NOT NULL,
	PRIMARY KEY (token_hash),
	KEY auth_token_client (client_ref, expires_at),
	KEY auth_token_expires (expires_at),
	CONSTRAINT auth_token_client_fk FOREIGN KEY (client_ref)
		REFERENCES auth_client (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One row: bumped by every revoke and role change; workers drop their
-- token caches when the value they read moves.
CREATE TABLE auth_epoch (
	id TINYINT UNSIGNED NOT NULL,
	value BIGINT UNSIGNED NOT NULL,
	PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO auth_epoch (id, value) VALUES (1, 0);

INSERT INTO auth_role (name, created_at)
	VALUES ('admin', UNIX_TIMESTAMP()), ('readonly', UNIX_TIMESTAMP());

INSERT INTO auth_role_perm (role_id, perm)
	SELECT r.id, p.perm FROM auth_role r JOIN (
		SELECT 'Read-Only Lead' AS perm
		UNION ALL SELECT 'Read-Write Lead'
		UNION ALL SELECT 'Read-Only Assets'
		UNION ALL SELECT 'Read-Write Assets'
		UNION ALL SELECT 'Approve Assets'
		UNION ALL SELECT 'Activate Campaign'
		UNION ALL SELECT 'Deactivate Campaign'
		UNION ALL SELECT 'Access Design Studio'
		UNION ALL SELECT 'Access Email'
		UNION ALL SELECT 'Edit Email'
		UNION ALL SELECT 'Delete Email'
		UNION ALL SELECT 'Approve Email'
		UNION ALL SELECT 'Read-Only Custom Object'
		UNION ALL SELECT 'Read-Write Custom Object'
		UNION ALL SELECT 'Read-Only Custom Object Type'
		UNION ALL SELECT 'Read-Write Custom Object Type'
		UNION ALL SELECT 'Read-Write Schema Standard Field'
		UNION ALL SELECT 'Read-Write Schema Custom Field'
	) p WHERE r.name = 'admin';

INSERT INTO auth_role_perm (role_id, perm)
	SELECT r.id, p.perm FROM auth_role r JOIN (
		SELECT 'Read-Only Lead' AS perm
		UNION ALL SELECT 'Read-Only Assets'
		UNION ALL SELECT 'Read-Only Custom Object'
		UNION ALL SELECT 'Read-Only Custom Object Type'
		UNION ALL SELECT 'Access Design Studio'
		UNION ALL SELECT 'Access Email'
	) p WHERE r.name = 'readonly';
