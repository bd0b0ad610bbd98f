/*
 * The campaign engine's work in the database (repo_engine.h).
 *
 * Times.  due_at and run_at are on the engine's clock (real time plus
 * engine_clock.offset_ms): the caller passes the engine's now in
 * milliseconds and statements turn it into a DATETIME(3) with
 * FROM_UNIXTIME (the session's time zone is UTC).  Leases are on real
 * time (UTC_TIMESTAMP), so moving the clock never takes work from a
 * living runner.
 *
 * Claims.  A runner marks the rows it takes with a random token and a
 * lease in one UPDATE ... ORDER BY ... LIMIT, then reads them back by
 * the token.  Two runners on one server wait for each other's claim; on
 * Galera the second to commit fails certification and claims again.
 * Every step re-checks the claim under the row's lock, so work whose
 * lease ran out and was taken over is never run by both.
 *
 * Batch pages.  A batch run's page of leads is entered a chunk of
 * MAX_BATCH_RECORDS at a time in a few statements built for the chunk
 * (the BATCH_* texts below, bound values only): the qualifications
 * (under the rule once one INSERT IGNORE ... RETURNING that records and
 * answers who qualifies; else a locking read and a multi-row upsert),
 * then multi-row inserts of the skipped leads, the leads entered (where
 * the entry hook's steps left them) and the campaign members, where
 * entering one lead at a time took four statements a lead (the engine
 * suite of tests/bench measured them).  Triggers and requests, a lead or
 * a few at a time, keep the statements of one lead.
 *
 * What ran is read back in repo_engine_read.c.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "bounds.h"
#include "db/bind.h"
#include "db/params.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_engine.h"
#include "repo/repo_engine_steps.h"
#include "repo/repo_smart_campaigns.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/xmalloc.h"

enum engine_stmt {
	ENGINE_STMT_CLOCK,
	ENGINE_STMT_CLOCK_ADVANCE,
	ENGINE_STMT_RUN_INSERT,
	ENGINE_STMT_CLONES_ON,
	ENGINE_STMT_QUAL_READ,
	ENGINE_STMT_QUAL_WRITE,
	ENGINE_STMT_LEAD_INSERT,
	ENGINE_STMT_LEAD_SKIP,
	ENGINE_STMT_MEMBER,
	ENGINE_STMT_RUN_COUNT,
	ENGINE_STMT_BATCH_CLAIM,
	ENGINE_STMT_BATCH_CLAIMED,
	ENGINE_STMT_BATCH_LOCK,
	ENGINE_STMT_BATCH_MOVE,
	ENGINE_STMT_RUNS_FINISH,
	ENGINE_STMT_CLAIM,
	ENGINE_STMT_CLAIMED,
	ENGINE_STMT_LOCK,
	ENGINE_STMT_MOVE,
	ENGINE_STMT_REMOVE,
	ENGINE_STMT_RELEASE,
	ENGINE_STMT_RUN_GET,
	ENGINE_STMT_OFFER_CLAIM,
	ENGINE_STMT_OFFER_CLAIMED,
	ENGINE_STMT_OFFER_DONE,
	ENGINE_STMT_LISTENERS,
	ENGINE_STMT_CANCEL,
	ENGINE_STMT__MAX
};

/* An engine time in ms as a DATETIME(3). */
#define AT	"FROM_UNIXTIME(? / 1000)"

static const char *const sql[ENGINE_STMT__MAX] = {
	[ENGINE_STMT_CLOCK] =
	    "SELECT offset_ms FROM engine_clock WHERE id = 1",
	[ENGINE_STMT_CLOCK_ADVANCE] =
	    "UPDATE engine_clock SET offset_ms = offset_ms + ? WHERE id = 1",
	[ENGINE_STMT_RUN_INSERT] =
	    "INSERT INTO campaign_run (campaign_id, kind, status, run_at, "
	    "tokens, depth, cloned_from, clone_day, created_at) VALUES "
	    "(?, ?, ?, " AT ", ?, ?, NULLIF(?, 0), NULLIF(?, 0), "
	    "COALESCE(FROM_UNIXTIME(NULLIF(?, 0) / 1000), UTC_TIMESTAMP(3)))",
	[ENGINE_STMT_CLONES_ON] =
	    "SELECT COUNT(*) FROM campaign_run WHERE clone_day = ?",
	[ENGINE_STMT_QUAL_READ] =
	    "SELECT CAST(UNIX_TIMESTAMP(last_at) * 1000 AS SIGNED) FROM "
	    "campaign_qualification WHERE campaign_id = ? AND lead_id = ? "
	    "FOR UPDATE",
	[ENGINE_STMT_QUAL_WRITE] =
	    "INSERT INTO campaign_qualification (campaign_id, lead_id, "
	    "last_at, times) VALUES (?, ?, " AT ", 1) ON DUPLICATE KEY "
	    "UPDATE last_at = VALUES(last_at), times = times + 1",
	[ENGINE_STMT_LEAD_INSERT] =
	    "INSERT IGNORE INTO campaign_run_lead (run_id, lead_id, "
	    "campaign_id, step_pos, state, due_at, updated_at) VALUES "
	    "(?, ?, ?, 0, 'ready', " AT ", UTC_TIMESTAMP(3))",
	[ENGINE_STMT_LEAD_SKIP] =
	    "INSERT IGNORE INTO campaign_run_lead (run_id, lead_id, "
	    "campaign_id, step_pos, state, due_at, note, updated_at) VALUES "
	    "(?, ?, ?, 0, 'skipped', " AT ", ?, UTC_TIMESTAMP(3))",
	[ENGINE_STMT_MEMBER] =
	    "INSERT INTO campaign_member (campaign_id, lead_id, created_at, "
	    "updated_at) VALUES (?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP()) "
	    "ON DUPLICATE KEY UPDATE updated_at = VALUES(updated_at)",
	[ENGINE_STMT_RUN_COUNT] =
	    "UPDATE campaign_run SET nleads = nleads + ? WHERE id = ?",
	[ENGINE_STMT_BATCH_CLAIM] =
	    "UPDATE campaign_run SET claim = ?, lease_until = "
	    "UTC_TIMESTAMP(3) + INTERVAL ? SECOND, status = 'expanding' "
	    "WHERE kind = 'batch' AND status IN ('scheduled', 'expanding') "
	    "AND run_at <= " AT " AND (claim IS NULL OR lease_until < "
	    "UTC_TIMESTAMP(3)) ORDER BY run_at, id LIMIT 1",
	[ENGINE_STMT_BATCH_CLAIMED] =
	    "SELECT id, campaign_id, expanded_to, depth FROM campaign_run "
	    "WHERE claim = ? AND status = 'expanding' ORDER BY id LIMIT 1",
	[ENGINE_STMT_BATCH_LOCK] =
	    "SELECT expanded_to FROM campaign_run WHERE id = ? AND "
	    "claim = ? AND status = 'expanding' FOR UPDATE",
	[ENGINE_STMT_BATCH_MOVE] =
	    "UPDATE campaign_run SET expanded_to = ?, status = ?, "
	    "claim = IF(? = 'running', NULL, claim), lease_until = "
	    "IF(? = 'running', NULL, UTC_TIMESTAMP(3) + INTERVAL 60 SECOND) "
	    "WHERE id = ?",
	[ENGINE_STMT_RUNS_FINISH] =
	    "UPDATE campaign_run r SET status = 'done' WHERE "
	    "r.status = 'running' AND NOT EXISTS (SELECT 1 FROM "
	    "campaign_run_lead l WHERE l.run_id = r.id AND "
	    "l.state = 'ready')",
	[ENGINE_STMT_CLAIM] =
	    "UPDATE campaign_run_lead SET claim = ?, lease_until = "
	    "UTC_TIMESTAMP(3) + INTERVAL ? SECOND WHERE state = 'ready' AND "
	    "due_at <= " AT " AND (claim IS NULL OR lease_until < "
	    "UTC_TIMESTAMP(3)) ORDER BY due_at LIMIT ?",
	[ENGINE_STMT_CLAIMED] =
	    "SELECT run_id, lead_id, campaign_id, step_pos FROM "
	    "campaign_run_lead WHERE claim = ? AND state = 'ready' "
	    "ORDER BY run_id, lead_id",
	[ENGINE_STMT_LOCK] =
	    "SELECT step_pos FROM campaign_run_lead WHERE run_id = ? AND "
	    "lead_id = ? AND claim = ? AND state = 'ready' FOR UPDATE",
	[ENGINE_STMT_MOVE] =
	    "UPDATE campaign_run_lead SET step_pos = ?, state = ?, "
	    "due_at = " AT ", claim = ?, lease_until = IF(? IS NULL, NULL, "
	    "lease_until), note = COALESCE(?, note), updated_at = "
	    "UTC_TIMESTAMP(3) WHERE run_id = ? AND lead_id = ?",
	[ENGINE_STMT_REMOVE] =
	    "UPDATE campaign_run_lead SET state = 'removed', claim = NULL, "
	    "lease_until = NULL, note = 'Remove from Flow', updated_at = "
	    "UTC_TIMESTAMP(3) WHERE lead_id = ? AND state = 'ready' AND "
	    "run_id <> ? AND (? = 0 OR campaign_id = ?)",
	[ENGINE_STMT_RELEASE] =
	    "UPDATE campaign_run_lead SET claim = NULL, lease_until = NULL, "
	    "due_at = " AT " WHERE claim = ? AND run_id = ? AND "
	    "state = 'ready'",
	[ENGINE_STMT_RUN_GET] =
	    "SELECT campaign_id, kind, depth, tokens, "
	    "CAST(UNIX_TIMESTAMP(created_at) * 1000 AS SIGNED) FROM "
	    "campaign_run WHERE id = ?",
	[ENGINE_STMT_OFFER_CLAIM] =
	    "UPDATE activity_offer SET claim = ?, lease_until = "
	    "UTC_TIMESTAMP(3) + INTERVAL ? SECOND WHERE claim IS NULL OR "
	    "lease_until < UTC_TIMESTAMP(3) ORDER BY id LIMIT ?",
	[ENGINE_STMT_OFFER_CLAIMED] =
	    "SELECT id, lead_id, activity_type_id, "
	    "COALESCE(primary_value_id, 0), COALESCE(primary_value, ''), "
	    "attributes, COALESCE(campaign_id, 0), depth, "
	    "CAST(UNIX_TIMESTAMP(created_at) * 1000 AS SIGNED) FROM "
	    "activity_offer WHERE claim = ? ORDER BY id",
	[ENGINE_STMT_OFFER_DONE] =
	    "DELETE FROM activity_offer WHERE id = ? AND claim = ?",
	[ENGINE_STMT_LISTENERS] =
	    "SELECT DISTINCT c.id FROM smart_campaign c JOIN smart_list_rule "
	    "r ON r.smart_list_id = c.smart_list_id WHERE c.is_active = 1 "
	    "AND r.is_trigger = 1 AND r.kind = 'activity' AND "
	    "r.rule_type_id = ? ORDER BY c.id",
	/* A batch run no runner has begun (Unapprove Program). */
	[ENGINE_STMT_CANCEL] =
	    "DELETE FROM campaign_run WHERE id = ? AND kind = 'batch' AND "
	    "status = 'scheduled'",
};

/*
 * A batch page's chunk (see the head comment): the texts are completed
 * with a padded IN list or one row per lead.
 */
#define BATCH_QUAL_READ \
	"SELECT lead_id, CAST(UNIX_TIMESTAMP(last_at) * 1000 AS SIGNED) " \
	"FROM campaign_qualification WHERE campaign_id = ? AND lead_id IN ("
#define BATCH_QUAL_READ_END	") FOR UPDATE"
#define BATCH_QUAL_WRITE \
	"INSERT INTO campaign_qualification (campaign_id, lead_id, " \
	"last_at, times) VALUES "
#define BATCH_QUAL_ROW		"(?, ?, " AT ", 1)"
#define BATCH_QUAL_WRITE_END \
	" ON DUPLICATE KEY UPDATE last_at = VALUES(last_at), " \
	"times = times + 1"
#define BATCH_LEAD_INSERT \
	"INSERT IGNORE INTO campaign_run_lead (run_id, lead_id, " \
	"campaign_id, step_pos, state, due_at, note, updated_at) VALUES "
#define BATCH_LEAD_ROW		"(?, ?, ?, ?, ?, " AT ", ?, " \
	"UTC_TIMESTAMP(3))"
#define BATCH_MEMBER \
	"INSERT INTO campaign_member (campaign_id, lead_id, created_at, " \
	"updated_at) VALUES "
#define BATCH_MEMBER_ROW	"(?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP())"
#define BATCH_MEMBER_END \
	" ON DUPLICATE KEY UPDATE updated_at = VALUES(updated_at)"
/* The longest chunk text: MAX_BATCH_RECORDS rows of about 80 bytes. */
#define BATCH_SQL_BYTES		65536

const struct db_stmt_set repo_engine_sql = {
	.name = "engine",
	.sql = sql,
	.n = ENGINE_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum engine_stmt s)
{
	return db_stmt(db, REPO_ENGINE, (int)s);
}

/* ---- The clock --------------------------------------------------------- */

/* See repo_engine.h. */
int
repo_engine_clock(struct db *db, int64_t *offset_ms)
{
	int r;

	*offset_ms = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	r = db_query_i64(db, stmt(db, ENGINE_STMT_CLOCK), NULL, offset_ms,
	    "repo_engine_clock");
	return r == -REPO_ERR_NOT_FOUND ? 0 : r;
}

/* See repo_engine.h. */
int
repo_engine_clock_advance(struct db *db, int64_t delta_ms, int64_t *offset_ms)
{
	MYSQL_BIND in[1];
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i64(&in[0], &delta_ms);
	if ((r = db_exec(db, stmt(db, ENGINE_STMT_CLOCK_ADVANCE), in,
	    "repo_engine_clock_advance")) != 0)
		return r;
	return repo_engine_clock(db, offset_ms);
}

/* ---- Starting runs ----------------------------------------------------- */

/* See repo_engine.h. */
struct engine_qual
repo_engine_qual(const struct repo_sc *sc)
{
	struct engine_qual q;
	int64_t unit = 3600000LL;

	q.type = sc->qual_type;
	if (sc->qual_unit != NULL) {
		if (strcmp(sc->qual_unit, "day") == 0)
			unit = 86400000LL;
		else if (strcmp(sc->qual_unit, "week") == 0)
			unit = 7 * 86400000LL;
		else if (strcmp(sc->qual_unit, "month") == 0)
			unit = 30 * 86400000LL;
	}
	q.interval_ms = sc->qual_interval * unit;
	return q;
}

static int
run_insert(struct db *db, const struct engine_start *s, const char *status,
    int64_t *run_id)
{
	MYSQL_STMT *st = stmt(db, ENGINE_STMT_RUN_INSERT);
	MYSQL_BIND in[9];
	unsigned long klen = strlen(s->kind), slen = strlen(status), tlen;
	int64_t at = s->run_at_ms != 0 ? s->run_at_ms : s->now_ms;
	int64_t depth = s->depth;
	int r;

	memset(in, 0, sizeof(in));
	bind_i32(&in[0], &s->campaign_id);
	bind_str(&in[1], s->kind, &klen);
	bind_str(&in[2], status, &slen);
	bind_i64(&in[3], &at);
	if (s->tokens != NULL) {
		tlen = strlen(s->tokens);
		bind_str(&in[4], s->tokens, &tlen);
	} else
		bind_null(&in[4]);
	bind_i64(&in[5], &depth);
	bind_i32(&in[6], &s->cloned_from);
	bind_i32(&in[7], &s->clone_day);
	bind_i64(&in[8], &s->origin_ms);
	if ((r = db_exec(db, st, in, "repo_engine_run")) != 0)
		return r;
	*run_id = (int64_t)mysql_stmt_insert_id(st);
	return 0;
}

/*
 * Whether a lead qualifies under q at now_ms: had tells whether it has
 * run the campaign before, last when.
 */
static bool
qualifies(const struct engine_qual *q, bool had, int64_t last, int64_t now_ms)
{
	if (!had)
		return true;
	if (q->type != NULL && strcmp(q->type, "any") == 0)
		return true;
	if (q->type != NULL && strcmp(q->type, "interval") == 0)
		return now_ms - last >= q->interval_ms;
	/* once: never again */
	return false;
}

/* Why a lead that does not qualify under q is skipped. */
static const char *
unqualified_note(const struct engine_qual *q)
{
	return q->type != NULL && strcmp(q->type, "interval") == 0 ?
	    "did not qualify: the qualification interval has not passed" :
	    "did not qualify: the qualification rule lets a person run "
	    "through the flow once";
}

/*
 * Inside the transaction: whether lead qualifies for campaign under q
 * at now_ms (locking its qualification row), recording it when it does.
 */
static int
qualify(struct db *db, int32_t campaign, int64_t lead,
    const struct engine_qual *q, int64_t now_ms, bool *ok)
{
	MYSQL_BIND in[3];
	int64_t last = 0;
	int r;

	*ok = false;
	bind_i32(&in[0], &campaign);
	bind_i64(&in[1], &lead);
	r = db_query_i64(db, stmt(db, ENGINE_STMT_QUAL_READ), in, &last,
	    "repo_engine_qualify");
	if (r != 0 && r != -REPO_ERR_NOT_FOUND)
		return r;
	*ok = qualifies(q, r == 0, last, now_ms);
	if (!*ok)
		return 0;
	bind_i32(&in[0], &campaign);
	bind_i64(&in[1], &lead);
	bind_i64(&in[2], &now_ms);
	return db_exec(db, stmt(db, ENGINE_STMT_QUAL_WRITE), in,
	    "repo_engine_qualify");
}

/* See repo_engine.h. */
int
repo_engine_skip(struct db *db, int64_t run_id, int64_t lead_id, int32_t campaign,
    int64_t now_ms, const char *why)
{
	MYSQL_BIND in[5];
	unsigned long wlen = strlen(why);

	bind_i64(&in[0], &run_id);
	bind_i64(&in[1], &lead_id);
	bind_i32(&in[2], &campaign);
	bind_i64(&in[3], &now_ms);
	bind_str(&in[4], why, &wlen);
	return db_exec(db, stmt(db, ENGINE_STMT_LEAD_SKIP), in,
	    "repo_engine_skip");
}

/* Inside the transaction: enters the qualifying leads into run run_id. */
static int
enter_leads(struct db *db, int64_t run_id, int32_t campaign,
    const struct engine_qual *q, int64_t now_ms, const int64_t *leads,
    size_t n, const bool *pass, bool *entered)
{
	MYSQL_BIND in[4];
	uint64_t added;
	int64_t count = 0;
	size_t i;
	bool ok;
	int r;

	for (i = 0; i < n; i++) {
		if (entered != NULL)
			entered[i] = false;
		if (pass != NULL && !pass[i]) {
			if ((r = repo_engine_skip(db, run_id, leads[i],
			    campaign, now_ms, "did not pass the smart list's "
			    "filters")) != 0)
				return r;
			continue;
		}
		if ((r = qualify(db, campaign, leads[i], q, now_ms, &ok)) != 0)
			return r;
		if (!ok) {
			/* Kept for mautoctl campaign trace. */
			if ((r = repo_engine_skip(db, run_id, leads[i],
			    campaign, now_ms, unqualified_note(q))) != 0)
				return r;
			continue;
		}
		bind_i64(&in[0], &run_id);
		bind_i64(&in[1], &leads[i]);
		bind_i32(&in[2], &campaign);
		bind_i64(&in[3], &now_ms);
		if ((r = db_exec_n(db, stmt(db, ENGINE_STMT_LEAD_INSERT), in,
		    &added, "repo_engine_enter")) != 0)
			return r;
		if (added == 0)
			continue;
		bind_i32(&in[0], &campaign);
		bind_i64(&in[1], &leads[i]);
		if ((r = db_exec(db, stmt(db, ENGINE_STMT_MEMBER), in,
		    "repo_engine_enter")) != 0)
			return r;
		if (entered != NULL)
			entered[i] = true;
		count++;
	}
	if (count == 0)
		return 0;
	bind_i64(&in[0], &count);
	bind_i64(&in[1], &run_id);
	return db_exec(db, stmt(db, ENGINE_STMT_RUN_COUNT), in,
	    "repo_engine_enter");
}

/* A batch chunk's leads (ascending) and what the chunk learns of each. */
struct chunk {
	const int64_t	*leads;
	size_t		 n;
	bool		*had;		/* ran the campaign before */
	int64_t		*last;		/* when, engine ms */
};

static int
chunk_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* One qualification row of the chunk's read. */
static int
chunk_qual_row(void *arg, char **v, const unsigned long *lens)
{
	struct chunk *c = arg;
	int64_t lead = db_col_i64(v[0]);
	const int64_t *at;

	(void)lens;
	at = bsearch(&lead, c->leads, c->n, sizeof(*c->leads), chunk_cmp);
	if (at != NULL) {
		c->had[at - c->leads] = true;
		c->last[at - c->leads] = v[1] != NULL ? db_col_i64(v[1]) : 0;
	}
	return 0;
}

/* How a chunk's lead enters (enter_chunk). */
enum chunk_cls {
	CHUNK_SKIPPED,		/* does not qualify */
	CHUNK_READY,		/* qualifies: at the first step */
	CHUNK_RAN,		/* qualifies, and the entry ran its flow */
	CHUNK__N
};

/* What the statements of one chunk bind. */
struct chunk_vals {
	int64_t			 run_id;
	int64_t			 campaign;
	int64_t			 now_ms;
	const unsigned char	*cls;		/* enum chunk_cls a lead */
	struct engine_stop	 at[CHUNK__N];	/* where each class enters */
};

/*
 * One multi-row statement over the chunk's leads of class want (or, for
 * CHUNK__N, every lead that qualifies): head, then row once a lead, then
 * tail (may be ""); cols names each row's values in order (r run, l
 * lead, c campaign, n now, and the class's p step, s state, d due, t
 * note).  *changed (may be NULL) gets the rows it changed.
 */
static int
chunk_rows(struct db *db, const struct chunk *c, const struct chunk_vals *v,
    int want, const char *head, const char *row, const char *cols,
    const char *tail, uint64_t *changed)
{
	const struct engine_stop *at;
	struct params p;
	struct buf b;
	MYSQL_STMT *st;
	const char *k;
	size_t i, rows = 0;
	int r;

	buf_init(&b, BATCH_SQL_BYTES);
	params_init(&p, strlen(cols) * c->n);
	buf_adds(&b, head);
	for (i = 0; i < c->n; i++) {
		if (want == CHUNK__N ? v->cls[i] == CHUNK_SKIPPED :
		    v->cls[i] != want)
			continue;
		at = &v->at[v->cls[i]];
		if (rows++ > 0)
			buf_addc(&b, ',');
		buf_adds(&b, row);
		for (k = cols; *k != '\0'; k++) {
			if (*k == 'r')
				params_i64(&p, v->run_id);
			else if (*k == 'l')
				params_i64(&p, c->leads[i]);
			else if (*k == 'c')
				params_i64(&p, v->campaign);
			else if (*k == 'n')
				params_i64(&p, v->now_ms);
			else if (*k == 'p')
				params_i64(&p, at->step_pos);
			else if (*k == 's')
				params_str(&p, at->state);
			else if (*k == 'd')
				params_i64(&p, at->due_ms);
			else
				params_str(&p, at->note);
		}
	}
	buf_adds(&b, tail);
	r = 0;
	if (rows > 0) {
		st = params_stmt(db, &b, "repo_engine_batch_enter");
		r = params_exec(db, st, &p, "repo_engine_batch_enter");
		if (r == 0 && changed != NULL)
			*changed = (uint64_t)mysql_stmt_affected_rows(st);
	}
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* Whether q is the rule once (the default). */
static bool
qual_once(const struct engine_qual *q)
{
	return q->type == NULL || strcmp(q->type, "once") == 0;
}

/*
 * Under the rule once, in one statement: records the qualification of
 * each of the chunk's leads that has none (it runs the flow for the first
 * time) and answers those, which qualify; the others are CHUNK_SKIPPED.
 * An existing row is left as it is, and locked.
 */
static int
chunk_once(struct db *db, const struct chunk *c, struct chunk_vals *v,
    unsigned char *cls)
{
	const char *const where = "repo_engine_batch_enter";
	struct db_text_rows t;
	struct arena a;
	struct params p;
	struct buf b;
	const int64_t *at;
	size_t i;
	int r;

	arena_init(&a);
	buf_init(&b, BATCH_SQL_BYTES);
	params_init(&p, 3 * c->n);
	buf_adds(&b, "INSERT IGNORE INTO campaign_qualification (campaign_id, "
	    "lead_id, last_at, times) VALUES ");
	for (i = 0; i < c->n; i++) {
		if (i > 0)
			buf_addc(&b, ',');
		buf_adds(&b, BATCH_QUAL_ROW);
		params_i64(&p, v->campaign);
		params_i64(&p, c->leads[i]);
		params_i64(&p, v->now_ms);
		cls[i] = CHUNK_SKIPPED;
	}
	buf_adds(&b, " RETURNING lead_id");
	r = params_query(db, params_stmt(db, &b, where), &p, &a, 1, c->n,
	    where, &t);
	for (i = 0; r == 0 && i < t.count; i++) {
		int64_t lead = db_text_i64(&t, i, 0);

		at = bsearch(&lead, c->leads, c->n, sizeof(*c->leads),
		    chunk_cmp);
		if (at != NULL)
			cls[at - c->leads] = CHUNK_READY;
	}
	params_clear(&p);
	buf_clear(&b);
	arena_clear(&a);
	return r;
}

/*
 * Under the rules any and interval: reads the chunk's qualifications
 * (locked), classes its leads, and records the qualification of those
 * that qualify.
 */
static int
chunk_qual(struct db *db, const struct engine_qual *q, struct chunk *c,
    struct chunk_vals *v, unsigned char *cls)
{
	struct params p;
	struct buf b;
	MYSQL_STMT *st;
	size_t i, np = params_padded(c->n);
	int r;

	buf_init(&b, BATCH_SQL_BYTES);
	params_init(&p, 1 + np);
	buf_adds(&b, BATCH_QUAL_READ);
	params_add_marks(&b, np);
	buf_adds(&b, BATCH_QUAL_READ_END);
	params_i64(&p, v->campaign);
	params_ids(&p, c->leads, c->n, np);
	st = params_stmt(db, &b, "repo_engine_batch_enter");
	if ((r = params_exec(db, st, &p, "repo_engine_batch_enter")) == 0 &&
	    (r = db_fetch_rows(db, st, 2, chunk_qual_row, c,
	    "repo_engine_batch_enter")) == 0) {
		for (i = 0; i < c->n; i++)
			cls[i] = qualifies(q, c->had[i], c->last[i],
			    v->now_ms) ? CHUNK_READY : CHUNK_SKIPPED;
		r = chunk_rows(db, c, v, CHUNK__N, BATCH_QUAL_WRITE,
		    BATCH_QUAL_ROW, "cln", BATCH_QUAL_WRITE_END, NULL);
	}
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/*
 * The entry's run over the chunk's leads that qualify: those it ran
 * become CHUNK_RAN, entering where it stopped.
 */
static int
chunk_entry(struct db *db, const struct engine_entry *entry,
    const struct chunk *c, struct chunk_vals *v, unsigned char *cls)
{
	int64_t *ids;
	bool *ran;
	size_t i, k;
	int r;

	ids = xcalloc(c->n, sizeof(*ids));
	ran = xcalloc(c->n, sizeof(*ran));
	for (i = k = 0; i < c->n; i++)
		if (cls[i] == CHUNK_READY)
			ids[k++] = c->leads[i];
	r = k > 0 ? entry->run(entry->arg, db, ids, k, ran,
	    &v->at[CHUNK_RAN]) : 0;
	for (i = k = 0; r == 0 && i < c->n; i++)
		if (cls[i] == CHUNK_READY && ran[k++])
			cls[i] = CHUNK_RAN;
	free(ids);
	free(ran);
	return r;
}

/*
 * Inside the transaction: enters the leads of c (at most
 * MAX_BATCH_RECORDS) that qualify into run run_id as enter_leads does,
 * in a few multi-row statements, entry (may be NULL) run for them first;
 * *added grows by the leads entered.  A batch page never holds a lead
 * already in its run (pages follow expanded_to under the run's lock), so
 * every lead that qualifies is a member to record.
 */
static int
enter_chunk(struct db *db, int64_t run_id, int32_t campaign,
    const struct engine_qual *q, const struct engine_entry *entry,
    int64_t now_ms, struct chunk *c, int64_t *added)
{
	struct chunk_vals v;
	uint64_t n = 0, n2 = 0;
	unsigned char *cls;
	int r;

	memset(&v, 0, sizeof(v));
	v.run_id = run_id;
	v.campaign = campaign;
	v.now_ms = now_ms;
	v.at[CHUNK_SKIPPED] = (struct engine_stop){ 0, RUN_LEAD_SKIPPED,
	    now_ms, unqualified_note(q) };
	v.at[CHUNK_READY] = (struct engine_stop){ 0, RUN_LEAD_READY, now_ms,
	    NULL };
	cls = xcalloc(c->n, sizeof(*cls));
	v.cls = cls;
	if ((r = qual_once(q) ? chunk_once(db, c, &v, cls) :
	    chunk_qual(db, q, c, &v, cls)) != 0)
		goto out;
	/* The skipped are kept for mautoctl campaign trace. */
	if ((r = chunk_rows(db, c, &v, CHUNK_SKIPPED, BATCH_LEAD_INSERT,
	    BATCH_LEAD_ROW, "rlcpsdt", "", NULL)) != 0 ||
	    (entry != NULL && (r = chunk_entry(db, entry, c, &v,
	    cls)) != 0) ||
	    (r = chunk_rows(db, c, &v, CHUNK_READY, BATCH_LEAD_INSERT,
	    BATCH_LEAD_ROW, "rlcpsdt", "", &n)) != 0 ||
	    (r = chunk_rows(db, c, &v, CHUNK_RAN, BATCH_LEAD_INSERT,
	    BATCH_LEAD_ROW, "rlcpsdt", "", &n2)) != 0 ||
	    (r = chunk_rows(db, c, &v, CHUNK__N, BATCH_MEMBER,
	    BATCH_MEMBER_ROW, "cl", BATCH_MEMBER_END, NULL)) != 0)
		goto out;
	*added += (int64_t)(n + n2);
	r = 0;
out:
	free(cls);
	return r;
}

/*
 * Inside the transaction: enters the leads[0..n) of a batch page
 * (ascending) that qualify into run run_id, a chunk at a time.
 */
static int
enter_page(struct db *db, int64_t run_id, int32_t campaign,
    const struct engine_qual *q, const struct engine_entry *entry,
    int64_t now_ms, const int64_t *leads, size_t n)
{
	MYSQL_BIND in[2];
	struct chunk c;
	int64_t count = 0;
	size_t start;
	int r = 0;

	c.had = xcalloc(MAX_BATCH_RECORDS, sizeof(*c.had));
	c.last = xcalloc(MAX_BATCH_RECORDS, sizeof(*c.last));
	for (start = 0; start < n && r == 0; start += c.n) {
		c.leads = leads + start;
		c.n = n - start < MAX_BATCH_RECORDS ? n - start :
		    MAX_BATCH_RECORDS;
		memset(c.had, 0, MAX_BATCH_RECORDS * sizeof(*c.had));
		memset(c.last, 0, MAX_BATCH_RECORDS * sizeof(*c.last));
		r = enter_chunk(db, run_id, campaign, q, entry, now_ms, &c,
		    &count);
	}
	free(c.had);
	free(c.last);
	if (r != 0 || count == 0)
		return r;
	bind_i64(&in[0], &count);
	bind_i64(&in[1], &run_id);
	return db_exec(db, stmt(db, ENGINE_STMT_RUN_COUNT), in,
	    "repo_engine_batch_enter");
}

/* See repo_engine.h. */
int
repo_engine_start_tx(struct db *db, const struct engine_start *s,
    const int64_t *leads, size_t n, int64_t *run_id, bool *entered)
{
	int r;

	if ((r = run_insert(db, s, strcmp(s->kind, RUN_BATCH) == 0 ?
	    "scheduled" : "running", run_id)) != 0)
		return r;
	return enter_leads(db, *run_id, s->campaign_id, &s->qual, s->now_ms,
	    leads, n, s->pass, entered);
}

struct request_args {
	const struct engine_start	*s;
	const struct activity		*acts;
	size_t				 nacts;
	const int64_t			*leads;
	size_t				 n;
	int64_t				*run_id;
};

static int
request_tx(struct db *db, void *arg)
{
	struct request_args *x = arg;
	int r;

	if ((r = repo_activity_insert_batch(db, x->acts, x->nacts)) != 0)
		return r;
	return repo_engine_start_tx(db, x->s, x->leads, x->n, x->run_id,
	    NULL);
}

/* See repo_engine.h. */
int
repo_engine_request(struct db *db, const struct engine_start *s,
    const struct activity *acts, size_t nacts, const int64_t *leads,
    size_t n, int64_t *run_id)
{
	struct request_args x = { s, acts, nacts, leads, n, run_id };
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	return db_run_tx(db, request_tx, &x, false);
}

/* See repo_engine.h. */
int
repo_engine_clones_on(struct db *db, int32_t day, int64_t *n)
{
	MYSQL_BIND in[1];
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i32(&in[0], &day);
	return db_query_i64(db, stmt(db, ENGINE_STMT_CLONES_ON), in, n,
	    "repo_engine_clones_on");
}

/* See repo_engine.h. */
int
repo_engine_schedule(struct db *db, const struct engine_start *s,
    int64_t *run_id)
{
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	return run_insert(db, s, "scheduled", run_id);
}

/* See repo_engine.h. */
int
repo_engine_cancel_tx(struct db *db, int64_t run_id, bool *cancelled)
{
	MYSQL_BIND in[1];
	uint64_t n = 0;
	int r;

	*cancelled = false;
	bind_i64(&in[0], &run_id);
	if ((r = db_exec_n(db, stmt(db, ENGINE_STMT_CANCEL), in, &n,
	    "repo_engine_cancel_tx")) != 0)
		return r;
	*cancelled = n > 0;
	return 0;
}

/* ---- Batch runs -------------------------------------------------------- */

/* See repo_engine.h. */
int
repo_engine_batch_claim(struct db *db, const char *claim, int64_t now_ms,
    int lease_secs, struct engine_batch *out, bool *found)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[3], res[4];
	unsigned long clen = strlen(claim);
	int64_t lease = lease_secs, run = 0, exp = 0, depth = 0;
	int32_t campaign = 0;
	my_bool nul[4];
	int r;

	*found = false;
	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_str(&in[0], claim, &clen);
	bind_i64(&in[1], &lease);
	bind_i64(&in[2], &now_ms);
	if ((r = db_exec(db, stmt(db, ENGINE_STMT_BATCH_CLAIM), in,
	    "repo_engine_batch_claim")) != 0)
		return r;
	st = stmt(db, ENGINE_STMT_BATCH_CLAIMED);
	bind_str(&in[0], claim, &clen);
	if ((r = db_exec(db, st, in, "repo_engine_batch_claim")) != 0)
		return r;
	bind_out_i64(&res[0], &run, &nul[0]);
	bind_out_i32(&res[1], &campaign, &nul[1]);
	bind_out_i64(&res[2], &exp, &nul[2]);
	bind_out_i64(&res[3], &depth, &nul[3]);
	r = db_fetch_one(db, st, res, "repo_engine_batch_claim");
	if (r == -REPO_ERR_NOT_FOUND)
		return 0;
	if (r != 0)
		return r;
	out->run_id = run;
	out->campaign_id = campaign;
	out->expanded_to = exp;
	out->depth = (int)depth;
	*found = true;
	return 0;
}

struct batch_args {
	const char			*claim;
	const struct engine_batch	*b;
	const struct engine_qual	*q;
	const struct engine_entry	*entry;
	int64_t				 now_ms;
	const int64_t			*leads;
	size_t				 n;
	bool				 last;
};

static int
batch_tx(struct db *db, void *arg)
{
	struct batch_args *x = arg;
	MYSQL_BIND in[5];
	unsigned long clen = strlen(x->claim), slen;
	const char *status = x->last ? "running" : "expanding";
	int64_t exp = 0, to;
	int r;

	bind_i64(&in[0], &x->b->run_id);
	bind_str(&in[1], x->claim, &clen);
	r = db_query_i64(db, stmt(db, ENGINE_STMT_BATCH_LOCK), in, &exp,
	    "repo_engine_batch_enter");
	if (r == -REPO_ERR_NOT_FOUND)
		return -REPO_ERR_GONE;
	if (r != 0)
		return r;
	if (x->entry != NULL)
		x->entry->begin(x->entry->arg);
	if (x->n > 0 && (r = enter_page(db, x->b->run_id, x->b->campaign_id,
	    x->q, x->entry, x->now_ms, x->leads, x->n)) != 0)
		return r;
	to = x->n > 0 ? x->leads[x->n - 1] : exp;
	slen = strlen(status);
	bind_i64(&in[0], &to);
	bind_str(&in[1], status, &slen);
	bind_str(&in[2], status, &slen);
	bind_str(&in[3], status, &slen);
	bind_i64(&in[4], &x->b->run_id);
	return db_exec(db, stmt(db, ENGINE_STMT_BATCH_MOVE), in,
	    "repo_engine_batch_enter");
}

/* See repo_engine.h. */
int
repo_engine_batch_enter(struct db *db, const char *claim,
    const struct engine_batch *b, const struct engine_qual *q,
    const struct engine_entry *entry, int64_t now_ms, const int64_t *leads,
    size_t n, bool last)
{
	struct batch_args x = { claim, b, q, entry, now_ms, leads, n, last };
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	return db_run_tx(db, batch_tx, &x, false);
}

/* See repo_engine.h. */
int
repo_engine_runs_finish(struct db *db)
{
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	return db_exec(db, stmt(db, ENGINE_STMT_RUNS_FINISH), NULL,
	    "repo_engine_runs_finish");
}

/* ---- Leads in runs ----------------------------------------------------- */

struct items_acc {
	struct engine_item	*items;
	size_t			 max;
	size_t			 n;
};

static int
item_row(void *arg, char **v, const unsigned long *lens)
{
	struct items_acc *x = arg;
	struct engine_item *it;

	(void)lens;
	if (x->n == x->max)
		return 0;
	it = &x->items[x->n++];
	it->run_id = db_col_i64(v[0]);
	it->lead_id = db_col_i64(v[1]);
	it->campaign_id = (int32_t)db_col_i64(v[2]);
	it->step_pos = (int)db_col_i64(v[3]);
	return 0;
}

/* See repo_engine.h. */
int
repo_engine_claim(struct db *db, const char *claim, int64_t now_ms,
    int lease_secs, struct engine_item *items, size_t max, size_t *n)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[4];
	unsigned long clen = strlen(claim);
	int64_t lease = lease_secs, lim = (int64_t)max;
	struct items_acc x = { items, max, 0 };
	int r;

	*n = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_str(&in[0], claim, &clen);
	bind_i64(&in[1], &lease);
	bind_i64(&in[2], &now_ms);
	bind_i64(&in[3], &lim);
	if ((r = db_exec(db, stmt(db, ENGINE_STMT_CLAIM), in,
	    "repo_engine_claim")) != 0)
		return r;
	st = stmt(db, ENGINE_STMT_CLAIMED);
	bind_str(&in[0], claim, &clen);
	if ((r = db_exec(db, st, in, "repo_engine_claim")) != 0 ||
	    (r = db_fetch_rows(db, st, 4, item_row, &x,
	    "repo_engine_claim")) != 0)
		return r;
	*n = x.n;
	return 0;
}

/* See repo_engine.h. */
int
repo_engine_lock(struct db *db, const char *claim,
    const struct engine_item *it)
{
	MYSQL_BIND in[3];
	unsigned long clen = strlen(claim);
	int64_t pos = 0;
	int r;

	bind_i64(&in[0], &it->run_id);
	bind_i64(&in[1], &it->lead_id);
	bind_str(&in[2], claim, &clen);
	r = db_query_i64(db, stmt(db, ENGINE_STMT_LOCK), in, &pos,
	    "repo_engine_lock");
	if (r == -REPO_ERR_NOT_FOUND || (r == 0 && pos != it->step_pos))
		return -REPO_ERR_GONE;
	return r;
}

/* See repo_engine.h. */
int
repo_engine_move(struct db *db, const struct engine_item *it, int step_pos,
    const char *state, int64_t due_ms, const char *claim, bool keep,
    const char *note)
{
	MYSQL_BIND in[8];
	unsigned long slen = strlen(state), clen = strlen(claim), nlen = 0;
	int64_t pos = step_pos;

	memset(in, 0, sizeof(in));
	bind_i64(&in[0], &pos);
	bind_str(&in[1], state, &slen);
	bind_i64(&in[2], &due_ms);
	if (keep) {
		bind_str(&in[3], claim, &clen);
		bind_str(&in[4], claim, &clen);
	} else {
		bind_null(&in[3]);
		bind_null(&in[4]);
	}
	if (note != NULL) {
		nlen = strlen(note);
		if (nlen > ENGINE_NOTE_BYTES - 1)
			nlen = ENGINE_NOTE_BYTES - 1;
		bind_str(&in[5], note, &nlen);
	} else
		bind_null(&in[5]);
	bind_i64(&in[6], &it->run_id);
	bind_i64(&in[7], &it->lead_id);
	return db_exec(db, stmt(db, ENGINE_STMT_MOVE), in, "repo_engine_move");
}

/* See repo_engine.h. */
int
repo_engine_group_lock(struct db *db, const char *claim, int64_t run_id,
    int pos, const int64_t *leads, size_t n, bool *held)
{
	const char *const where = "repo_engine_group_lock";
	struct db_text_rows t;
	struct arena a;
	struct params p;
	struct buf b;
	size_t i, k;
	int64_t id;
	int r;

	memset(held, 0, n * sizeof(*held));
	if (n == 0)
		return 0;
	arena_init(&a);
	buf_init(&b, 4096);
	memset(&p, 0, sizeof(p));
	params_init(&p, 3 + (params_padded(n) > 0 ? params_padded(n) : 1));
	buf_adds(&b, "SELECT lead_id FROM campaign_run_lead WHERE run_id = ? "
	    "AND claim = ? AND state = 'ready' AND step_pos = ? AND lead_id");
	params_i64(&p, run_id);
	params_str(&p, claim);
	params_i64(&p, pos);
	if ((r = params_in_ids(&b, &p, leads, n)) == 0) {
		buf_adds(&b, " FOR UPDATE");
		r = params_query(db, params_stmt(db, &b, where), &p, &a, 1, n,
		    where, &t);
	}
	for (i = 0; r == 0 && i < t.count; i++) {
		id = db_text_i64(&t, i, 0);
		for (k = 0; k < n; k++)
			if (leads[k] == id)
				held[k] = true;
	}
	params_clear(&p);
	buf_clear(&b);
	arena_clear(&a);
	return r;
}

/* See repo_engine.h. */
int
repo_engine_group_move(struct db *db, int64_t run_id, const int64_t *leads,
    size_t n, int step_pos, const char *state, int64_t due_ms,
    const char *claim, bool keep, const char *note)
{
	const char *const where = "repo_engine_group_move";
	struct params p;
	struct buf b;
	int r;

	if (n == 0)
		return 0;
	buf_init(&b, 4096);
	memset(&p, 0, sizeof(p));
	params_init(&p, 7 + (params_padded(n) > 0 ? params_padded(n) : 1));
	buf_adds(&b, "UPDATE campaign_run_lead SET step_pos = ?, state = ?, "
	    "due_at = " AT ", claim = ?, lease_until = IF(? IS NULL, NULL, "
	    "lease_until), note = COALESCE(?, note), updated_at = "
	    "UTC_TIMESTAMP(3) WHERE run_id = ? AND lead_id");
	params_i64(&p, step_pos);
	params_str(&p, state);
	params_i64(&p, due_ms);
	params_str(&p, keep ? claim : NULL);
	params_str(&p, keep ? claim : NULL);
	params_str(&p, note);
	params_i64(&p, run_id);
	if ((r = params_in_ids(&b, &p, leads, n)) == 0)
		r = params_exec(db, params_stmt(db, &b, where), &p, where);
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* See repo_engine.h. */
int
repo_engine_release(struct db *db, const char *claim, int64_t run_id,
    int64_t due_ms)
{
	MYSQL_BIND in[3];
	unsigned long clen = strlen(claim);
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i64(&in[0], &due_ms);
	bind_str(&in[1], claim, &clen);
	bind_i64(&in[2], &run_id);
	return db_exec(db, stmt(db, ENGINE_STMT_RELEASE), in,
	    "repo_engine_release");
}

/* See repo_engine.h. */
int
repo_engine_remove_lead(struct db *db, int64_t lead_id, int32_t campaign_id,
    int64_t except_run)
{
	MYSQL_BIND in[4];

	bind_i64(&in[0], &lead_id);
	bind_i64(&in[1], &except_run);
	bind_i32(&in[2], &campaign_id);
	bind_i32(&in[3], &campaign_id);
	return db_exec(db, stmt(db, ENGINE_STMT_REMOVE), in,
	    "repo_engine_remove_lead");
}

static int
run_row(void *arg, char **v, const unsigned long *lens)
{
	struct engine_run *x = arg;

	(void)lens;
	x->campaign_id = (int32_t)db_col_i64(v[0]);
	db_copy_text(x->kind, sizeof(x->kind), v[1], SIZE_MAX);
	x->depth = (int)db_col_i64(v[2]);
	free(x->tokens);
	x->tokens = db_col_dup(v[3]);
	x->created_ms = db_col_i64(v[4]);
	x->id = -x->id;		/* found */
	return 0;
}

/* See repo_engine.h. */
int
repo_engine_run_get(struct db *db, int64_t id, struct engine_run *out)
{
	MYSQL_STMT *st = stmt(db, ENGINE_STMT_RUN_GET);
	MYSQL_BIND in[1];
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i64(&in[0], &id);
	out->id = -id;
	if ((r = db_exec(db, st, in, "repo_engine_run_get")) != 0 ||
	    (r = db_fetch_rows(db, st, 5, run_row, out,
	    "repo_engine_run_get")) != 0) {
		free(out->tokens);
		out->tokens = NULL;
		return r;
	}
	if (out->id != id)
		return -REPO_ERR_NOT_FOUND;
	return 0;
}

/* ---- Offers to trigger campaigns --------------------------------------- */

struct offers_acc {
	struct engine_offer	*o;
	size_t			 max;
	size_t			 n;
};

static int
offer_row(void *arg, char **v, const unsigned long *lens)
{
	struct offers_acc *x = arg;
	struct engine_offer *o;

	(void)lens;
	if (x->n == x->max)
		return 0;
	o = &x->o[x->n++];
	memset(o, 0, sizeof(*o));
	o->id = db_col_i64(v[0]);
	o->lead_id = db_col_i64(v[1]);
	o->type = (int32_t)db_col_i64(v[2]);
	o->primary_id = db_col_i64(v[3]);
	db_copy_text(o->primary_value, sizeof(o->primary_value), v[4],
	    SIZE_MAX);
	o->attributes = xstrdup(v[5] != NULL ? v[5] : "{}");
	o->campaign_id = (int32_t)db_col_i64(v[6]);
	o->depth = (int)db_col_i64(v[7]);
	o->created_ms = db_col_i64(v[8]);
	return 0;
}

/* See repo_engine.h. */
int
repo_engine_offers_claim(struct db *db, const char *claim, int lease_secs,
    struct engine_offer *out, size_t max, size_t *n)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[3];
	unsigned long clen = strlen(claim);
	int64_t lease = lease_secs, lim = (int64_t)max;
	struct offers_acc x = { out, max, 0 };
	int r;

	*n = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_str(&in[0], claim, &clen);
	bind_i64(&in[1], &lease);
	bind_i64(&in[2], &lim);
	if ((r = db_exec(db, stmt(db, ENGINE_STMT_OFFER_CLAIM), in,
	    "repo_engine_offers_claim")) != 0)
		return r;
	st = stmt(db, ENGINE_STMT_OFFER_CLAIMED);
	bind_str(&in[0], claim, &clen);
	if ((r = db_exec(db, st, in, "repo_engine_offers_claim")) == 0)
		r = db_fetch_rows(db, st, 9, offer_row, &x,
		    "repo_engine_offers_claim");
	*n = x.n;
	if (r != 0) {
		repo_engine_offers_free(out, x.n);
		*n = 0;
	}
	return r;
}

/* See repo_engine.h. */
void
repo_engine_offers_free(struct engine_offer *o, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(o[i].attributes);
		o[i].attributes = NULL;
	}
}

/* See repo_engine.h. */
int
repo_engine_offer_done(struct db *db, const char *claim, int64_t id)
{
	MYSQL_BIND in[2];
	unsigned long clen = strlen(claim);
	uint64_t n;
	int r;

	bind_i64(&in[0], &id);
	bind_str(&in[1], claim, &clen);
	if ((r = db_exec_n(db, stmt(db, ENGINE_STMT_OFFER_DONE), in, &n,
	    "repo_engine_offer_done")) != 0)
		return r;
	return n == 1 ? 0 : -REPO_ERR_GONE;
}

struct ids_acc {
	int32_t	*ids;
	size_t	 max;
	size_t	 n;
};

static int
id_row(void *arg, char **v, const unsigned long *lens)
{
	struct ids_acc *x = arg;

	(void)lens;
	if (x->n < x->max)
		x->ids[x->n++] = (int32_t)db_col_i64(v[0]);
	return 0;
}

/* See repo_engine.h. */
int
repo_engine_listeners(struct db *db, int32_t type, int32_t *ids, size_t max,
    size_t *n)
{
	MYSQL_STMT *st = stmt(db, ENGINE_STMT_LISTENERS);
	MYSQL_BIND in[1];
	struct ids_acc x = { ids, max, 0 };
	int r;

	*n = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i32(&in[0], &type);
	if ((r = db_exec(db, st, in, "repo_engine_listeners")) == 0 &&
	    (r = db_fetch_rows(db, st, 1, id_row, &x,
	    "repo_engine_listeners")) == 0)
		*n = x.n;
	return r;
}
