/*
 * The outbox (db/migrations/0012_outbox.sql, 0033_outbox_campaign.sql):
 * every message the service sends, kept as built, and what the relay did
 * with it.  The only reader and writer of the outbox table; src/mail/
 * outbox.c drives it for samples and tests, src/engine/mail.c for the
 * email a campaign sends (queued in the run's transaction, claimed and
 * delivered by a later pass under a lease).
 */
#ifndef MAUTO_REPO_REPO_OUTBOX_H
#define MAUTO_REPO_REPO_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;
struct db;

/* The status words of outbox.status. */
#define OUTBOX_QUEUED	"queued"	/* built, being sent (a campaign's:
					   waiting for a delivery pass) */
#define OUTBOX_SENDING	"sending"	/* claimed by a pass, at the relay */
#define OUTBOX_SENT	"sent"		/* the relay accepted it */
#define OUTBOX_FAILED	"failed"	/* refused, or no relay reached */
#define OUTBOX_KEPT	"kept"		/* no relay configured */

/* Most rows mautoctl outbox list and the read over HTTP show. */
#define OUTBOX_LIST_MAX	1000

/* The kind of the email a campaign's Send Email step sends. */
#define OUTBOX_KIND_CAMPAIGN	"campaign"
/* The bytes of a lease owner's word (lease_owner CHAR(24)). */
#define OUTBOX_OWNER_BYTES	24

/* A row; strings NUL-ended, owned by the arena of the read. */
struct repo_outbox_row {
	int64_t		 id;
	const char	*created_at;	/* "YYYY-MM-DD hh:mm:ss.fff" UTC */
	const char	*kind;		/* "sample", "test", "campaign" */
	int32_t		 email_id;	/* 0: none */
	int32_t		 lead_id;	/* 0: none */
	/* A campaign's send (0 and NULL: none). */
	int32_t		 campaign_id;
	int64_t		 run_id;
	int32_t		 step_id;
	int32_t		 choice;
	const char	*asset_name;	/* "<program>.<email name>" */
	const char	*mail_from;
	const char	*rcpt_to;
	const char	*subject;
	const char	*status;	/* OUTBOX_* */
	int32_t		 smtp_code;	/* 0: none */
	const char	*smtp_reply;	/* NULL: none */
	const char	*finished_at;	/* NULL: not finished */
	const char	*message;	/* NULL in lists */
	size_t		 message_len;
};

/*
 * Records a built message: kind, email_id and lead_id (0: none), the
 * campaign's members (0 and NULL: none), mail_from, rcpt_to, subject
 * (cut by the caller to fit), message and status (OUTBOX_QUEUED, or
 * OUTBOX_KEPT with reply, finished at once).  Sets *id.  0,
 * -REPO_ERR_CONFLICT when a row of the same (run_id, lead_id, step_id)
 * is there already, or another negative repo_err.
 */
int	repo_outbox_insert(struct db *db, const struct repo_outbox_row *r,
	    int64_t *id);

/* Sets the final status, the relay's code (0: none) and reply of id. */
int	repo_outbox_finish(struct db *db, int64_t id, const char *status,
	    int32_t code, const char *reply);

/*
 * The id of the campaign send keyed (run, lead, step) into *id (0: there
 * is none).  0 or a negative repo_err.
 */
int	repo_outbox_find_step(struct db *db, int64_t run, int64_t lead,
	    int32_t step, int64_t *id);

/*
 * Claims for the pass owner (a word of OUTBOX_OWNER_BYTES characters,
 * unique to the pass) at most max queued campaign messages, oldest
 * first: they become OUTBOX_SENDING until lease_until (milliseconds since
 * the epoch), in one statement that commits at once, so no other pass
 * (another process or cluster node) claims them too.  *n says how many.
 * 0 or a negative repo_err (-REPO_ERR_DEADLOCK: a pass elsewhere
 * claimed at the same moment; nothing was claimed).
 */
int	repo_outbox_claim(struct db *db, const char *owner, int64_t
	    lease_until, size_t max, size_t *n);

/*
 * The messages owner claimed and has not finished, oldest first, without
 * their messages (repo_outbox_get reads one), into the arena a.
 */
int	repo_outbox_claimed(struct db *db, struct arena *a, const char *owner,
	    size_t max, struct repo_outbox_row **rows, size_t *n);

/*
 * Finishes claimed message id as repo_outbox_finish does, unless owner's
 * claim of it is gone (its lease ran out and another pass failed it):
 * *done says whether the row was still owner's.
 */
int	repo_outbox_finish_claimed(struct db *db, int64_t id,
	    const char *owner, const char *status, int32_t code,
	    const char *reply, bool *done);

/*
 * Fails every message still sending whose lease ended before now_ms,
 * with reply as the reason; *n says how many.  0 or a negative repo_err.
 */
int	repo_outbox_expire(struct db *db, int64_t now_ms, const char *reply,
	    size_t *n);

/* What the read over HTTP filters on (0: any). */
struct repo_outbox_filter {
	int32_t		 campaign_id;
	int64_t		 run_id;
	int32_t		 lead_id;
	int64_t		 since_id;	/* rows after this id */
};

/*
 * The rows after f->since_id that f selects, oldest first, at most max
 * (at most OUTBOX_LIST_MAX), without their messages, into the arena a.
 */
int	repo_outbox_select(struct db *db, struct arena *a,
	    const struct repo_outbox_filter *f, size_t max,
	    struct repo_outbox_row **rows, size_t *n);

/* The newest max rows, newest first, without their messages. */
int	repo_outbox_list(struct db *db, struct arena *a, size_t max,
	    struct repo_outbox_row **rows, size_t *n);

/* Row id with its message; -REPO_ERR_NOT_FOUND when there is none. */
int	repo_outbox_get(struct db *db, struct arena *a, int64_t id,
	    struct repo_outbox_row *out);

#endif
