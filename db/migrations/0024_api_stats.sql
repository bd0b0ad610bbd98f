-- The usage and error statistics (Get Daily Usage, Get Daily Errors and
-- their seven-day forms; src/repo/repo_stats.c).  Each host adds what it
-- counted since its last flush to its own rows only, every
-- limits_sync_ms, so two Galera nodes never write one row; a read sums
-- the hosts' rows.  day_key is the US Central date as yyyymmdd (the daily
-- quota's day).  kind 1: calls, item = auth_client.id; kind 2: errors,
-- item = the error code.
CREATE TABLE api_stats_host (
	day_key INT NOT NULL,
	kind TINYINT NOT NULL,
	item BIGINT NOT NULL,
	host VARCHAR(64) NOT NULL,
	n BIGINT NOT NULL,
	PRIMARY KEY (day_key, kind, item, host),
	KEY api_stats_host_day (host, day_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
