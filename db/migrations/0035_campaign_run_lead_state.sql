-- A run's leads by state: the engine marks a running run done once none
-- of its leads is ready (src/repo/repo_engine.c, after every pass).
-- Without this index the check read the run's leads in key order up to
-- the first ready one, so over a batch run it read the done ones again
-- on every pass (a pass reads a page of leads: quadratic in the run's
-- size).
ALTER TABLE campaign_run_lead
	ADD KEY campaign_run_lead_run_state (run_id, state);
