-- The outbox (README.md, Mail): every message the service sends, as it
-- was built, before it goes to the relay; then what became of it
-- (src/mail/outbox.c, src/repo/repo_outbox.c).  A log, so no foreign
-- keys: a row outlives the email and the lead it was made from.
-- kind: sample (Send Sample Email) or test (mautoctl outbox send-test).
-- status: queued (built, being sent), sent (the relay took it), failed
-- (refused, or the relay could not be reached; smtp_reply says why),
-- kept (no relay configured).  Numbered 0012: 0011 is the email
-- templates' (a gap is fine: migrations apply in order of number).
CREATE TABLE outbox (
	id BIGINT NOT NULL AUTO_INCREMENT,
	created_at DATETIME(3) NOT NULL,
	kind VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	email_id INT NULL,
	lead_id INT NULL,
	mail_from VARCHAR(254) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	rcpt_to VARCHAR(254) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	subject VARCHAR(1000) NOT NULL,
	message MEDIUMTEXT NOT NULL,
	status VARCHAR(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	smtp_code SMALLINT NULL,
	smtp_reply VARCHAR(1000) NULL,
	finished_at DATETIME(3) NULL,
	PRIMARY KEY (id),
	KEY outbox_email (email_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
