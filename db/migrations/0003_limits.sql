-- The instance-wide limits across hosts (src/auth/ratelimit.c,
-- src/repo/repo_limits.c): one row per host, written only by that host
-- every limits_sync_ms, so Galera never sees two nodes write one row.
CREATE TABLE limits_host (
	host VARCHAR(64) NOT NULL,
	window_count BIGINT NOT NULL,
	inflight BIGINT NOT NULL,
	day_key INT NOT NULL,
	day_count BIGINT NOT NULL,
	updated_at DATETIME(6) NOT NULL,
	PRIMARY KEY (host)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
