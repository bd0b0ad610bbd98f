/* The outbox (repo_outbox.h). */
#include <stdint.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_outbox.h"
#include "util/arena.h"

enum outbox_stmt {
	OUTBOX_STMT_INSERT,
	OUTBOX_STMT_FINISH,
	OUTBOX_STMT_LIST,
	OUTBOX_STMT_GET,
	OUTBOX_STMT_FIND_STEP,
	OUTBOX_STMT_CLAIM,
	OUTBOX_STMT_CLAIMED,
	OUTBOX_STMT_FINISH_CLAIMED,
	OUTBOX_STMT_EXPIRE,
	OUTBOX_STMT_SELECT,
	OUTBOX_STMT__MAX
};

/* The columns of a row, in the order of fill(). */
#define OUTBOX_COLS \
	"id, DATE_FORMAT(created_at, '%Y-%m-%d %H:%i:%s.%f'), kind, " \
	"email_id, lead_id, mail_from, rcpt_to, subject, status, smtp_code, " \
	"smtp_reply, DATE_FORMAT(finished_at, '%Y-%m-%d %H:%i:%s.%f'), " \
	"campaign_id, run_id, step_id, choice_num, asset_name"
#define OUTBOX_NCOLS	17

static const char *const sql[OUTBOX_STMT__MAX] = {
	[OUTBOX_STMT_INSERT] =
	    "INSERT INTO outbox (created_at, kind, email_id, lead_id, "
	    "mail_from, rcpt_to, subject, message, status, smtp_reply, "
	    "finished_at, campaign_id, run_id, step_id, choice_num, "
	    "asset_name) VALUES (UTC_TIMESTAMP(3), ?, NULLIF(?, 0), "
	    "NULLIF(?, 0), ?, ?, ?, ?, ?, ?, "
	    "IF(? = 'queued', NULL, UTC_TIMESTAMP(3)), NULLIF(?, 0), "
	    "NULLIF(?, 0), NULLIF(?, 0), IF(? = 0, NULL, ?), ?)",
	[OUTBOX_STMT_FINISH] =
	    "UPDATE outbox SET status = ?, smtp_code = NULLIF(?, 0), "
	    "smtp_reply = ?, finished_at = UTC_TIMESTAMP(3) WHERE id = ?",
	[OUTBOX_STMT_LIST] =
	    "SELECT " OUTBOX_COLS " FROM outbox ORDER BY id DESC LIMIT ?",
	[OUTBOX_STMT_GET] =
	    "SELECT " OUTBOX_COLS ", message FROM outbox WHERE id = ?",
	[OUTBOX_STMT_FIND_STEP] =
	    "SELECT id FROM outbox WHERE run_id = ? AND lead_id = ? "
	    "AND step_id = ?",
	/* One statement, so the claim is whole or nothing on every node. */
	[OUTBOX_STMT_CLAIM] =
	    "UPDATE outbox SET status = 'sending', lease_owner = ?, "
	    "lease_until = ? WHERE status = 'queued' AND kind = 'campaign' "
	    "ORDER BY id LIMIT ?",
	[OUTBOX_STMT_CLAIMED] =
	    "SELECT " OUTBOX_COLS " FROM outbox "
	    "WHERE status = 'sending' AND lease_owner = ? ORDER BY id LIMIT ?",
	[OUTBOX_STMT_FINISH_CLAIMED] =
	    "UPDATE outbox SET status = ?, smtp_code = NULLIF(?, 0), "
	    "smtp_reply = ?, finished_at = UTC_TIMESTAMP(3), "
	    "lease_owner = NULL, lease_until = NULL "
	    "WHERE id = ? AND status = 'sending' AND lease_owner = ?",
	[OUTBOX_STMT_EXPIRE] =
	    "UPDATE outbox SET status = 'failed', smtp_reply = ?, "
	    "finished_at = UTC_TIMESTAMP(3), lease_owner = NULL, "
	    "lease_until = NULL WHERE status = 'sending' AND lease_until < ?",
	[OUTBOX_STMT_SELECT] =
	    "SELECT " OUTBOX_COLS " FROM outbox WHERE id > ? "
	    "AND (? = 0 OR campaign_id = ?) AND (? = 0 OR run_id = ?) "
	    "AND (? = 0 OR lead_id = ?) ORDER BY id LIMIT ?",
};

const struct db_stmt_set repo_outbox_sql = {
	.name = "outbox",
	.sql = sql,
	.n = OUTBOX_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum outbox_stmt s)
{
	return db_stmt(db, REPO_OUTBOX, (int)s);
}

/* Row i of t into *o. */
static void
fill(const struct db_text_rows *t, size_t i, struct repo_outbox_row *o)
{
	memset(o, 0, sizeof(*o));
	o->id = db_text_i64(t, i, 0);
	o->created_at = db_text_str(t, i, 1);
	o->kind = db_text_str(t, i, 2);
	o->email_id = (int32_t)db_text_i64(t, i, 3);
	o->lead_id = (int32_t)db_text_i64(t, i, 4);
	o->mail_from = db_text_str(t, i, 5);
	o->rcpt_to = db_text_str(t, i, 6);
	o->subject = db_text_str(t, i, 7);
	o->status = db_text_str(t, i, 8);
	o->smtp_code = (int32_t)db_text_i64(t, i, 9);
	o->smtp_reply = db_text_str(t, i, 10);
	o->finished_at = db_text_str(t, i, 11);
	o->campaign_id = (int32_t)db_text_i64(t, i, 12);
	o->run_id = db_text_i64(t, i, 13);
	o->step_id = (int32_t)db_text_i64(t, i, 14);
	o->choice = (int32_t)db_text_i64(t, i, 15);
	o->asset_name = db_text_str(t, i, 16);
	if (t->ncol > OUTBOX_NCOLS) {
		o->message = db_text_str(t, i, OUTBOX_NCOLS);
		o->message_len = t->len[i * t->ncol + OUTBOX_NCOLS];
	}
}

/* See repo_outbox.h. */
int
repo_outbox_insert(struct db *db, const struct repo_outbox_row *r,
    int64_t *id)
{
	MYSQL_BIND in[16];
	unsigned long lens[8];
	int32_t email = r->email_id, lead = r->lead_id;
	int32_t campaign = r->campaign_id, step = r->step_id;
	int32_t choice = r->choice;
	int64_t run = r->run_id;
	int rc;

	*id = 0;
	lens[0] = strlen(r->kind);
	lens[1] = strlen(r->mail_from);
	lens[2] = strlen(r->rcpt_to);
	lens[3] = strlen(r->subject);
	lens[4] = (unsigned long)r->message_len;
	lens[5] = strlen(r->status);
	lens[6] = r->smtp_reply != NULL ? strlen(r->smtp_reply) : 0;
	bind_str(&in[0], r->kind, &lens[0]);
	bind_i32(&in[1], &email);
	bind_i32(&in[2], &lead);
	bind_str(&in[3], r->mail_from, &lens[1]);
	bind_str(&in[4], r->rcpt_to, &lens[2]);
	bind_str(&in[5], r->subject, &lens[3]);
	bind_str(&in[6], r->message, &lens[4]);
	bind_str(&in[7], r->status, &lens[5]);
	if (r->smtp_reply != NULL)
		bind_str(&in[8], r->smtp_reply, &lens[6]);
	else
		bind_null(&in[8]);
	bind_str(&in[9], r->status, &lens[5]);
	bind_i32(&in[10], &campaign);
	bind_i64(&in[11], &run);
	bind_i32(&in[12], &step);
	bind_i64(&in[13], &run);
	bind_i32(&in[14], &choice);
	lens[7] = r->asset_name != NULL ? strlen(r->asset_name) : 0;
	if (r->asset_name != NULL)
		bind_str(&in[15], r->asset_name, &lens[7]);
	else
		bind_null(&in[15]);
	if ((rc = db_ensure(db)) != 0 ||
	    (rc = db_exec(db, stmt(db, OUTBOX_STMT_INSERT), in,
	    "repo_outbox_insert")) != 0)
		return rc;
	*id = (int64_t)mysql_stmt_insert_id(stmt(db, OUTBOX_STMT_INSERT));
	return 0;
}

/* See repo_outbox.h. */
int
repo_outbox_finish(struct db *db, int64_t id, const char *status,
    int32_t code, const char *reply)
{
	MYSQL_BIND in[4];
	unsigned long slen = strlen(status), rlen = strlen(reply);

	bind_str(&in[0], status, &slen);
	bind_i32(&in[1], &code);
	bind_str(&in[2], reply, &rlen);
	bind_i64(&in[3], &id);
	return db_exec(db, stmt(db, OUTBOX_STMT_FINISH), in,
	    "repo_outbox_finish");
}

/* See repo_outbox.h. */
int
repo_outbox_find_step(struct db *db, int64_t run, int64_t lead,
    int32_t step, int64_t *id)
{
	MYSQL_BIND in[3];
	int r;

	*id = 0;
	bind_i64(&in[0], &run);
	bind_i64(&in[1], &lead);
	bind_i32(&in[2], &step);
	r = db_query_i64(db, stmt(db, OUTBOX_STMT_FIND_STEP), in, id,
	    "repo_outbox_find_step");
	return r == -REPO_ERR_NOT_FOUND ? 0 : r;
}

/* See repo_outbox.h. */
int
repo_outbox_claim(struct db *db, const char *owner, int64_t lease_until,
    size_t max, size_t *n)
{
	MYSQL_BIND in[3];
	unsigned long olen = strlen(owner);
	int64_t lim = (int64_t)max;
	uint64_t got = 0;
	int r;

	*n = 0;
	bind_str(&in[0], owner, &olen);
	bind_i64(&in[1], &lease_until);
	bind_i64(&in[2], &lim);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec_n(db, stmt(db, OUTBOX_STMT_CLAIM), in, &got,
	    "repo_outbox_claim")) != 0)
		return r;
	*n = (size_t)got;
	return 0;
}

/* Executes statement s with in and fills *rows from its ncol columns. */
static int
select_rows(struct db *db, struct arena *a, enum outbox_stmt s,
    MYSQL_BIND *in, size_t ncol, size_t max, struct repo_outbox_row **rows,
    size_t *n, const char *where)
{
	struct db_text_rows t;
	size_t i;
	int r;

	*rows = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, s), in, a, ncol, max, where,
	    &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((*rows = arena_zalloc(a, t.count * sizeof(**rows))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++)
		fill(&t, i, &(*rows)[i]);
	*n = t.count;
	return 0;
}

/* See repo_outbox.h. */
int
repo_outbox_claimed(struct db *db, struct arena *a, const char *owner,
    size_t max, struct repo_outbox_row **rows, size_t *n)
{
	MYSQL_BIND in[2];
	unsigned long olen = strlen(owner);
	int64_t lim = (int64_t)max;

	bind_str(&in[0], owner, &olen);
	bind_i64(&in[1], &lim);
	return select_rows(db, a, OUTBOX_STMT_CLAIMED, in, OUTBOX_NCOLS,
	    max, rows, n, "repo_outbox_claimed");
}

/* See repo_outbox.h. */
int
repo_outbox_finish_claimed(struct db *db, int64_t id, const char *owner,
    const char *status, int32_t code, const char *reply, bool *done)
{
	MYSQL_BIND in[5];
	unsigned long slen = strlen(status), rlen = strlen(reply);
	unsigned long olen = strlen(owner);
	uint64_t got = 0;
	int r;

	*done = false;
	bind_str(&in[0], status, &slen);
	bind_i32(&in[1], &code);
	bind_str(&in[2], reply, &rlen);
	bind_i64(&in[3], &id);
	bind_str(&in[4], owner, &olen);
	if ((r = db_exec_n(db, stmt(db, OUTBOX_STMT_FINISH_CLAIMED), in, &got,
	    "repo_outbox_finish_claimed")) != 0)
		return r;
	*done = got > 0;
	return 0;
}

/* See repo_outbox.h. */
int
repo_outbox_expire(struct db *db, int64_t now_ms, const char *reply,
    size_t *n)
{
	MYSQL_BIND in[2];
	unsigned long rlen = strlen(reply);
	uint64_t got = 0;
	int r;

	*n = 0;
	bind_str(&in[0], reply, &rlen);
	bind_i64(&in[1], &now_ms);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec_n(db, stmt(db, OUTBOX_STMT_EXPIRE), in, &got,
	    "repo_outbox_expire")) != 0)
		return r;
	*n = (size_t)got;
	return 0;
}

/* See repo_outbox.h. */
int
repo_outbox_select(struct db *db, struct arena *a,
    const struct repo_outbox_filter *f, size_t max,
    struct repo_outbox_row **rows, size_t *n)
{
	MYSQL_BIND in[8];
	int64_t since = f->since_id, run = f->run_id;
	int64_t campaign = f->campaign_id, lead = f->lead_id;
	int64_t lim;

	if (max > OUTBOX_LIST_MAX)
		max = OUTBOX_LIST_MAX;
	lim = (int64_t)max;
	bind_i64(&in[0], &since);
	bind_i64(&in[1], &campaign);
	bind_i64(&in[2], &campaign);
	bind_i64(&in[3], &run);
	bind_i64(&in[4], &run);
	bind_i64(&in[5], &lead);
	bind_i64(&in[6], &lead);
	bind_i64(&in[7], &lim);
	return select_rows(db, a, OUTBOX_STMT_SELECT, in, OUTBOX_NCOLS, max,
	    rows, n, "repo_outbox_select");
}

/* See repo_outbox.h. */
int
repo_outbox_list(struct db *db, struct arena *a, size_t max,
    struct repo_outbox_row **rows, size_t *n)
{
	MYSQL_BIND in[1];
	int64_t lim = (int64_t)max;

	bind_i64(&in[0], &lim);
	return select_rows(db, a, OUTBOX_STMT_LIST, in, OUTBOX_NCOLS, max,
	    rows, n, "repo_outbox_list");
}

/* See repo_outbox.h. */
int
repo_outbox_get(struct db *db, struct arena *a, int64_t id,
    struct repo_outbox_row *out)
{
	struct db_text_rows t;
	MYSQL_BIND in[1];
	int r;

	memset(out, 0, sizeof(*out));
	bind_i64(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec(db, stmt(db, OUTBOX_STMT_GET), in,
	    "repo_outbox_get")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, OUTBOX_STMT_GET), a,
	    OUTBOX_NCOLS + 1, 1, "repo_outbox_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	fill(&t, 0, out);
	return 0;
}
