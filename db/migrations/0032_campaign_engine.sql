-- The campaign engine's work (docs/behaviour.md §24, src/engine/).
--
-- A run is one start of a campaign's flow: a Request Campaign call (kind
-- request), a trigger campaign firing for one activity (trigger), a
-- batch campaign run by Schedule Campaign (batch), or the flow step
-- Request Campaign (flow).  tokens are the run's My Tokens overrides, a
-- JSON array of {name, value}; depth counts the campaigns a chain of
-- triggers went through before this run (the cascade bound).  A batch
-- run waits as scheduled until run_at (the engine's clock), is then
-- expanded (claim and lease_until mark the runner doing it; expanded_to
-- is the last lead id it reached) and is running until every lead is
-- done.  A batch run Schedule Campaign made with cloneToProgramName
-- keeps the campaign it was cloned from and the US Central day of the
-- call (its daily limit).
CREATE TABLE campaign_run (
	id BIGINT NOT NULL AUTO_INCREMENT,
	campaign_id INT NOT NULL,
	kind VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	status VARCHAR(10) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	run_at DATETIME(3) NOT NULL,
	tokens LONGTEXT NULL,
	depth INT NOT NULL DEFAULT 0,
	claim VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NULL,
	lease_until DATETIME(3) NULL,
	expanded_to BIGINT NOT NULL DEFAULT 0,
	nleads INT NOT NULL DEFAULT 0,
	cloned_from INT NULL,
	clone_day INT NULL,
	created_at DATETIME(3) NOT NULL,
	PRIMARY KEY (id),
	KEY campaign_run_due (status, run_at),
	KEY campaign_run_campaign (campaign_id, id),
	KEY campaign_run_clone_day (clone_day)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One lead in a run: the position of the next flow step it runs (from
-- 0), when (due_at, the engine's clock: a Wait moves it), and its state:
-- ready (steps to run), done (past the last step), removed (Remove from
-- Flow, or the lead was deleted) or failed (a step could not run: note
-- says why).  A runner claims ready rows (claim, lease_until) and runs a
-- step and moves step_pos in one transaction, so a step runs once.
CREATE TABLE campaign_run_lead (
	run_id BIGINT NOT NULL,
	lead_id INT NOT NULL,
	campaign_id INT NOT NULL,
	step_pos INT NOT NULL DEFAULT 0,
	state VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	due_at DATETIME(3) NOT NULL,
	claim VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NULL,
	lease_until DATETIME(3) NULL,
	note VARCHAR(255) NULL,
	updated_at DATETIME(3) NOT NULL,
	PRIMARY KEY (run_id, lead_id),
	KEY campaign_run_lead_due (state, due_at),
	KEY campaign_run_lead_claim (claim),
	KEY campaign_run_lead_lead (lead_id, campaign_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- When a lead last qualified for a campaign's flow, and how often: the
-- qualification rules (once, every time, once per interval).
CREATE TABLE campaign_qualification (
	campaign_id INT NOT NULL,
	lead_id INT NOT NULL,
	last_at DATETIME(3) NOT NULL,
	times INT NOT NULL DEFAULT 1,
	PRIMARY KEY (campaign_id, lead_id),
	KEY campaign_qualification_lead (lead_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- An activity offered to the trigger campaigns: a copy of what trigger
-- constraints read, written with the activity in its transaction when
-- an active trigger campaign listens for its type (trigger_listen); the
-- engine claims it, starts the runs it fires and deletes it in one
-- transaction.  depth is the cascade depth of the run whose step wrote
-- the activity plus one (0: written by the API).
CREATE TABLE activity_offer (
	id BIGINT NOT NULL AUTO_INCREMENT,
	lead_id INT NOT NULL,
	activity_type_id INT NOT NULL,
	primary_value_id INT NULL,
	primary_value VARCHAR(255) NULL,
	attributes LONGTEXT NOT NULL,
	campaign_id INT NULL,
	depth INT NOT NULL DEFAULT 0,
	created_at DATETIME(3) NOT NULL,
	claim VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NULL,
	lease_until DATETIME(3) NULL,
	PRIMARY KEY (id),
	KEY activity_offer_claim (claim)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The activity types the active trigger campaigns listen for, rewritten
-- by every activation and deactivation in its transaction.
CREATE TABLE trigger_listen (
	activity_type_id INT NOT NULL,
	PRIMARY KEY (activity_type_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The engine's clock: real time plus offset_ms, moved only by mautoctl
-- clock when engine_clock_control is on (development and CI).
CREATE TABLE engine_clock (
	id TINYINT NOT NULL,
	offset_ms BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO engine_clock (id, offset_ms) VALUES (1, 0);

