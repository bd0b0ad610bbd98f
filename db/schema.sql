-- The schema that db/migrations produce, less schema_migrations (the
-- runner's own table).  Regenerate with scripts/dump-schema.sh after adding
-- a migration; tests/integration/test_migrate.sh compares the two.
CREATE TABLE `auth_client` (
  `id` bigint(20) NOT NULL AUTO_INCREMENT,
  `client_id` char(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `name` varchar(255) NOT NULL,
  `role_id` bigint(20) NOT NULL,
  `scope` varchar(255) NOT NULL,
  `secret_hash` varchar(127) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `created_at` bigint(20) NOT NULL,
  `revoked_at` bigint(20) DEFAULT NULL,
  `token_issues` bigint(20) NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  UNIQUE KEY `auth_client_client_id` (`client_id`),
  KEY `auth_client_role` (`role_id`),
  CONSTRAINT `auth_client_role_fk` FOREIGN KEY (`role_id`) REFERENCES `auth_role` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `auth_epoch` (
  `id` tinyint(3) unsigned NOT NULL,
  `value` bigint(20) unsigned NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `auth_role` (
  `id` bigint(20) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `created_at` bigint(20) NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `auth_role_name` (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `auth_role_perm` (
  `role_id` bigint(20) NOT NULL,
  `perm` varchar(64) NOT NULL,
  PRIMARY KEY (`role_id`,`perm`),
  CONSTRAINT `auth_role_perm_role` FOREIGN KEY (`role_id`) REFERENCES `auth_role` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `auth_token` (
  `token_hash` binary(32) NOT NULL,
  `client_ref` bigint(20) NOT NULL,
  `token` varchar(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `issued_at` bigint(20) NOT NULL,
  `expires_at` bigint(20) NOT NULL,
  PRIMARY KEY (`token_hash`),
  KEY `auth_token_client` (`client_ref`,`expires_at`),
  KEY `auth_token_expires` (`expires_at`),
  CONSTRAINT `auth_token_client_fk` FOREIGN KEY (`client_ref`) REFERENCES `auth_client` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `instance` (
  `id` tinyint(3) unsigned NOT NULL,
  `munchkin_id` varchar(32) NOT NULL,
  `created_at` datetime NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `limits_host` (
  `host` varchar(64) NOT NULL,
  `window_count` bigint(20) NOT NULL,
  `inflight` bigint(20) NOT NULL,
  `day_key` int(11) NOT NULL,
  `day_count` bigint(20) NOT NULL,
  `updated_at` datetime(6) NOT NULL,
  PRIMARY KEY (`host`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
