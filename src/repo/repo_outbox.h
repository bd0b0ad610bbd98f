/*
 * The outbox (db/migrations/0012_outbox.sql): every message the service
 * sends, kept as built, and what the relay did with it.  The only reader
 * and writer of the outbox table; src/mail/outbox.c drives it.
 */
#ifndef MAUTO_REPO_REPO_OUTBOX_H
#define MAUTO_REPO_REPO_OUTBOX_H

#include <stddef.h>
#include <stdint.h>

struct arena;
struct db;

/* The status words of outbox.status. */
#define OUTBOX_QUEUED	"queued"	/* built, being sent */
#define OUTBOX_SENT	"sent"		/* the relay accepted it */
#define OUTBOX_FAILED	"failed"	/* refused, or no relay reached */
#define OUTBOX_KEPT	"kept"		/* no relay configured */

/* Most rows mautoctl outbox list shows. */
#define OUTBOX_LIST_MAX	1000

/* A row; strings NUL-ended, owned by the arena of the read. */
struct repo_outbox_row {
	int64_t		 id;
	const char	*created_at;	/* "YYYY-MM-DD hh:mm:ss.fff" UTC */
	const char	*kind;		/* "sample" */
	int32_t		 email_id;	/* 0: none */
	int32_t		 lead_id;	/* 0: none */
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
 * Records a built message: kind, email_id and lead_id (0: none),
 * mail_from, rcpt_to, subject (cut by the caller to fit), message and
 * status (OUTBOX_QUEUED, or OUTBOX_KEPT with reply, finished at once).
 * Sets *id.  0 or a negative repo_err.
 */
int	repo_outbox_insert(struct db *db, const struct repo_outbox_row *r,
	    int64_t *id);

/* Sets the final status, the relay's code (0: none) and reply of id. */
int	repo_outbox_finish(struct db *db, int64_t id, const char *status,
	    int32_t code, const char *reply);

/* The newest max rows, newest first, without their messages. */
int	repo_outbox_list(struct db *db, struct arena *a, size_t max,
	    struct repo_outbox_row **rows, size_t *n);

/* Row id with its message; -REPO_ERR_NOT_FOUND when there is none. */
int	repo_outbox_get(struct db *db, struct arena *a, int64_t id,
	    struct repo_outbox_row *out);

#endif
