/*
 * The campaign engine's Send Email flow step (docs/behaviour.md §26): an
 * email's approved version rendered for a lead (mail/compose.h) and
 * queued in the outbox keyed by run, lead and step inside the run's
 * transaction, with activity 6 Send Email; then, outside any
 * transaction, delivery passes that hand the queued messages to the
 * relay at most once each and write 7 Email Delivered or 8 Email Bounced.
 * The runner processes beside this file call it; nothing here knows of
 * HTTP.
 */
#ifndef MAUTO_ENGINE_MAIL_H
#define MAUTO_ENGINE_MAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;
struct config;
struct db;
struct folder_ref;
struct lead_schema;

/* One Send Email step for one lead of one run.  Everything is borrowed. */
struct engine_mail_req {
	int64_t			 run_id;	/* Campaign Run ID, > 0 */
	int64_t			 lead_id;
	int32_t			 step_id;	/* Step ID, > 0 */
	int32_t			 campaign_id;
	int			 choice;	/* Choice Number (0: default) */
	int			 depth;		/* Send Email's cascade depth */
	int32_t			 email_id;
	/* The campaign's program or folder, for My Tokens; NULL: none. */
	const struct folder_ref	*place;
	/* The run's token overrides, names as "{{my.x}}". */
	const char *const	*tok_names;
	const char *const	*tok_values;
	size_t			 ntok;
	/*
	 * The lead field catalogue (repo_lead_fields_load, which runs a
	 * transaction of its own: the runner loads it before it opens the
	 * step's); required.
	 */
	const struct lead_schema *schema;
};

/*
 * Inside the caller's open transaction: renders email_id's approved
 * version for the lead (lead tokens, then the run's tokens over the My
 * Tokens in effect at req->place; the body, the subject and the From
 * name), queues it in the outbox keyed (run, lead, step) with status
 * queued, and writes activity 6 Send Email (campaignId, primary
 * attribute the email and "<program>.<email name>", Campaign Run ID,
 * Step ID, Choice Number, Has Predictive, Test Variant).  Strings read
 * go into the arena a.  When the key is there already (a replay)
 * nothing is written and *dup is true.  A lead that cannot be mailed (no
 * valid email address, Email Invalid, or Unsubscribed for a
 * non-operational email) is skipped: 0 and nothing written.  Returns 0,
 * -REPO_ERR_NOT_FOUND when the email has no approved version or the
 * lead does not exist, -REPO_ERR_INVALID when the message cannot be
 * built (its From address) or req->schema is NULL, or another negative
 * repo_err.
 */
int	engine_mail_queue(struct db *db, struct arena *a,
	    const struct config *cfg, const struct engine_mail_req *req,
	    bool *dup);

/* The reason a message left sending past its lease is failed with. */
#define ENGINE_MAIL_LOST	"not delivered: the delivery pass that " \
	"claimed it stopped before it recorded the outcome"

/*
 * One delivery pass, outside any transaction: first fails the messages
 * still sending whose lease ended before now_ms (ENGINE_MAIL_LOST; never
 * handed to the relay again, no activity), then, at most max times,
 * claims the oldest queued campaign message for itself alone
 * (repo_outbox_claim with a word of its own and a lease of smtp_timeout
 * and a minute more, so a pass that dies leaves only the message it was
 * handing over in doubt), hands it to the relay of cfg and records it
 * sent or failed, writing in the same transaction 7 Email Delivered when
 * the relay accepted it or 8 Email Bounced when it refused it (a relay
 * that cannot be reached fails the message with no activity).  With no relay configured (smtp_url unset)
 * the claimed messages are kept, as Send Sample keeps them, and no
 * activity is written.  *sent counts the messages handed to the relay.
 * Returns 0 or a negative repo_err (-REPO_ERR_DEADLOCK: a pass on
 * another node claimed at the same moment; call again).
 */
int	engine_mail_deliver(struct db *db, const struct config *cfg,
	    int64_t now_ms, size_t max, size_t *sent);

#endif
