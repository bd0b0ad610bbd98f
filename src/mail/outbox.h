/*
 * Sending a message the way every send of the service goes: built whole
 * first, recorded in the outbox, then handed to the relay, and the
 * outcome recorded on its row.  What the Send Sample Email handler and
 * `mautoctl outbox send-test` call; a campaign's message is built and
 * recorded the same way (outbox_queue) and handed to the relay later by
 * the delivery pass (src/engine/mail.c).
 */
#ifndef MAUTO_MAIL_OUTBOX_H
#define MAUTO_MAIL_OUTBOX_H

#include <stdint.h>

#include "mail/message.h"
#include "mail/smtp.h"

struct config;
struct db;

struct outbox_send {
	const char		*kind;	/* "sample", "test", "campaign" */
	int32_t			 email_id;	/* 0: none */
	int32_t			 lead_id;	/* 0: none */
	/* A campaign's send (outbox_queue; 0 and NULL: none). */
	int32_t			 campaign_id;
	int64_t			 run_id;
	int32_t			 step_id;
	int32_t			 choice;
	const char		*asset_name;
	/*
	 * The message; from NULL takes smtp_from.  token and date are
	 * set by outbox_send (a random token, the time of the send).
	 */
	struct mail_message	 msg;
};

struct outbox_result {
	int64_t			 id;		/* the outbox row */
	/* SMTP_NO_RELAY: kept; SMTP_SENT: sent; the others: failed. */
	struct smtp_result	 smtp;
};

/*
 * Builds s->msg, records it, sends it over the relay of cfg (envelope
 * sender smtp_from) unless there is none, and records the outcome.
 * Returns 0 when the message is in the outbox, whatever the relay did
 * (out->smtp says; a refusal or a timeout leaves the row failed with
 * the reason); -REPO_ERR_INVALID with *why from mail_message_build when
 * the message cannot be built, or the repo_err of the outbox: nothing
 * was sent then.
 */
int	outbox_send(struct db *db, const struct config *cfg,
	    const struct outbox_send *s, struct outbox_result *out,
	    const char **why);

/*
 * Builds s->msg as outbox_send does and records it queued, for a later
 * delivery pass; nothing is sent.  Sets *id.  0, -REPO_ERR_INVALID with
 * *why when the message cannot be built, -REPO_ERR_CONFLICT when s's
 * (run, lead, step) is recorded already, or another repo_err.
 */
int	outbox_queue(struct db *db, const struct config *cfg,
	    const struct outbox_send *s, int64_t *id, const char **why);

/* The outbox status word of a send's result (OUTBOX_*). */
const char	*outbox_status(enum smtp_status s);

#endif
