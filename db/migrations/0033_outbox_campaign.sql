-- The outbox carries the email a campaign sends (src/engine/mail.c): kind
-- campaign, the campaign, run, step and choice that sent it, and the
-- email's "<program>.<email name>" its activities name.  A campaign send is
-- keyed by (run_id, lead_id, step_id), so a step run again for a lead in a
-- run (a replay) finds the row and mails nothing; samples and tests leave
-- run_id NULL, and NULLs never collide in a UNIQUE key.
-- status gains sending: claimed by one delivery pass (lease_owner, a word
-- of that pass) and being handed to the relay until lease_until
-- (milliseconds since the epoch); a row still sending after its lease is
-- failed, never handed over again (at most once).  outbox_delivery serves
-- the pass's claim (status queued, oldest first); outbox_campaign the
-- outbox read over HTTP by campaign.
ALTER TABLE outbox
	ADD COLUMN campaign_id INT NULL AFTER lead_id,
	ADD COLUMN run_id BIGINT NULL AFTER campaign_id,
	ADD COLUMN step_id INT NULL AFTER run_id,
	ADD COLUMN choice_num INT NULL AFTER step_id,
	ADD COLUMN asset_name VARCHAR(255) NULL AFTER choice_num,
	ADD COLUMN lease_owner CHAR(24) CHARACTER SET ascii COLLATE ascii_bin
	    NULL,
	ADD COLUMN lease_until BIGINT NULL,
	ADD UNIQUE KEY outbox_step (run_id, lead_id, step_id),
	ADD KEY outbox_delivery (status, id),
	ADD KEY outbox_campaign (campaign_id, id);
