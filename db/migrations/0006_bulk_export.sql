-- Bulk export of custom object records (api-behaviour.md §7;
-- src/repo/repo_bulk_export.c, src/export/runner.c).
--
-- One row per export job.  status is the state machine's text (Created,
-- Queued, Processing, Completed, Failed, Cancelled).  The selection is
-- kept as the handler checked it: the field and header lists as JSON
-- arrays, and one filter (updatedAt range, or a static list resolved to
-- its id at create time, joined through link_field, the records' link to
-- leads).  Times come from the database's clock, so hosts need not
-- agree.  day_key is the US Central date (yyyymmdd) the job completed
-- on: the daily export quota sums file_size by it.  attempts counts
-- claims by a runner; a job whose runner died is queued again until
-- EXPORT_MAX_ATTEMPTS, then fails.  file_expired is set once the runner
-- removed the file (7 days after completion).
CREATE TABLE export_job (
	id BIGINT NOT NULL AUTO_INCREMENT,
	export_id CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	client_ref BIGINT NOT NULL,
	object_name VARCHAR(50) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
	format CHAR(3) CHARACTER SET ascii NOT NULL,
	status VARCHAR(12) CHARACTER SET ascii NOT NULL,
	fields LONGTEXT NOT NULL,
	headers LONGTEXT NOT NULL,
	filter_type VARCHAR(16) CHARACTER SET ascii NOT NULL,
	filter_start DATETIME NULL,
	filter_end DATETIME NULL,
	list_id INT NULL,
	link_field VARCHAR(50) CHARACTER SET ascii COLLATE ascii_general_ci NULL,
	created_at DATETIME(6) NOT NULL,
	queued_at DATETIME(6) NULL,
	started_at DATETIME(6) NULL,
	finished_at DATETIME(6) NULL,
	number_of_records BIGINT NULL,
	file_size BIGINT NULL,
	file_checksum VARCHAR(71) CHARACTER SET ascii NULL,
	error_msg VARCHAR(255) NULL,
	day_key INT NULL,
	attempts INT NOT NULL DEFAULT 0,
	file_expired TINYINT(1) NOT NULL DEFAULT 0,
	PRIMARY KEY (id),
	UNIQUE KEY export_job_export_id (export_id),
	KEY export_job_client (client_ref, object_name, created_at),
	KEY export_job_status (status, queued_at),
	KEY export_job_day (day_key),
	KEY export_job_created (created_at),
	CONSTRAINT export_job_client_fk FOREIGN KEY (client_ref)
		REFERENCES auth_client (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The processing slots: at most one job per row, so at most as many jobs
-- process at once as there are rows (2, api-behaviour.md §4), whatever
-- the number of runners and hosts.  A runner takes a free or expired
-- slot with a conditional UPDATE and renews lease_until while it works
-- (its heartbeat); on Galera two runners taking one slot conflict and
-- the loser gets 1213 (galera.md: a row, never GET_LOCK).  owner names
-- the runner: "<host_id>:<pid>:<nonce>".
CREATE TABLE export_slot (
	slot TINYINT UNSIGNED NOT NULL,
	owner VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NULL,
	job_id BIGINT NULL,
	lease_until DATETIME(6) NULL,
	PRIMARY KEY (slot)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO export_slot (slot) VALUES (1), (2);

-- Serialises enqueues: each one updates this row before it counts the
-- queue, so two enqueues cannot both take the tenth place (on one server
-- the second waits; on Galera the loser gets 1213 and counts again).
CREATE TABLE export_gate (
	id TINYINT UNSIGNED NOT NULL,
	version BIGINT NOT NULL,
	PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO export_gate (id, version) VALUES (1, 0);
