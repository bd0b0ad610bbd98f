-- Email programs (docs/behaviour.md §22): an Email program's schedule
-- (start_date, when its email goes out, and end_date, shown only), both
-- UTC, and its approval.  Approve Program locks the program (locked 1)
-- and makes its send: a system smart campaign standing in the program
-- (send_campaign_id) whose smart list is a copy of the program's and
-- whose flow is one Send Email step of the program's email, and a batch
-- run of it scheduled at start_date on the engine's clock (send_run_id,
-- campaign_run); Unapprove Program deletes both while the run is still
-- scheduled (src/repo/repo_program_send.c).
ALTER TABLE program
	ADD COLUMN start_date DATETIME NULL,
	ADD COLUMN end_date DATETIME NULL,
	ADD COLUMN locked TINYINT(1) NOT NULL DEFAULT 0,
	ADD COLUMN send_campaign_id INT NULL,
	ADD COLUMN send_run_id BIGINT NULL;
