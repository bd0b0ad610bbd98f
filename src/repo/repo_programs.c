/*
 * Programs, their statuses and members, smart campaign members, and the
 * membership reads of one lead (repo_programs.h).
 *
 * Galera (docs/galera.md): every write is one db_run_tx transaction, re-run
 * as a whole on 1213; rows are locked with SELECT ... FOR UPDATE before
 * they are read and changed, which is a lock on one node and a
 * certification conflict (1213, retried) across nodes.  Memberships are
 * moved by INSERT IGNORE ... SELECT and DELETE, never by id arithmetic.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <mysql.h>

#include "db/bind.h"
#include "db/params.h"
#include "db/pool.h"
#include "db/query.h"
#include "bounds.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_lead_lock.h"
#include "repo/repo_programs.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/xmalloc.h"

enum programs_stmt {
	PROGRAMS_STMT_GET_BY_ID,
	PROGRAMS_STMT_GET_BY_NAME,
	PROGRAMS_STMT_LOCK,
	PROGRAMS_STMT_LIST,
	PROGRAMS_STMT_STATUS_LIST_BY_PROGRAM,
	PROGRAMS_STMT_STATUS_LIST,
	PROGRAMS_STMT_INSERT,
	PROGRAMS_STMT_STATUS_INSERT,
	PROGRAMS_STMT_MEMBER_UPSERT,
	PROGRAMS_STMT_MEMBER_LOCK,
	PROGRAMS_STMT_MEMBER_UPDATE_STATUS,
	PROGRAMS_STMT_CAMPAIGN_MEMBER_INSERT,
	PROGRAMS_STMT_LIST_MEMBERSHIP,
	PROGRAMS_STMT_PROGRAM_MEMBERSHIP,
	PROGRAMS_STMT_CAMPAIGN_MEMBERSHIP,
	PROGRAMS_STMT_PROGRAM_MEMBER_MOVE,
	PROGRAMS_STMT_PROGRAM_MEMBER_DELETE_BY_LEAD,
	PROGRAMS_STMT_CAMPAIGN_MEMBER_MOVE,
	PROGRAMS_STMT_CAMPAIGN_MEMBER_DELETE_BY_LEAD,
	PROGRAMS_STMT_CAMPAIGN_MEMBERS_DELETE,
	PROGRAMS_STMT_COUNT_FOLDER,
	PROGRAMS_STMT__MAX
};

/* Datetimes as the Lead DB API writes them (docs/behaviour.md §2.4). */
#define ISO(col)	"DATE_FORMAT(" col ", '%Y-%m-%dT%H:%i:%sZ')"

/* The longest text of a batch of members (MAX_BATCH_RECORDS rows). */
#define MEMBERS_SQL_MAX_BYTES	(64 * 1024)

/* The columns of program_member a merge carries over. */
#define MEMBER_COLS \
	"status_step, acquired_by, reached_success, is_exhausted, stream, " \
	"nurture_cadence, membership_date, updated_at"

static const char *const sql[PROGRAMS_STMT__MAX] = {
	[PROGRAMS_STMT_COUNT_FOLDER] =
	    "SELECT COUNT(*) FROM program WHERE folder_id = ?",
	[PROGRAMS_STMT_GET_BY_ID] =
	    "SELECT id, name, type, channel FROM program WHERE id = ?",
	[PROGRAMS_STMT_GET_BY_NAME] =
	    "SELECT id FROM program WHERE name = ?",
	[PROGRAMS_STMT_LOCK] =
	    "SELECT id FROM program WHERE id = ? LOCK IN SHARE MODE",
	[PROGRAMS_STMT_LIST] =
	    "SELECT id, name, type, channel FROM program ORDER BY id",
	[PROGRAMS_STMT_STATUS_LIST_BY_PROGRAM] =
	    "SELECT program_id, step, name, success FROM program_status "
	    "WHERE program_id = ? ORDER BY step",
	[PROGRAMS_STMT_STATUS_LIST] =
	    "SELECT program_id, step, name, success FROM program_status "
	    "ORDER BY program_id, step",
	[PROGRAMS_STMT_INSERT] =
	    "INSERT INTO program (name, type, channel, created_at, updated_at) "
	    "VALUES (?, ?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	[PROGRAMS_STMT_STATUS_INSERT] =
	    "INSERT INTO program_status (program_id, step, name, success) "
	    "VALUES (?, ?, ?, ?)",
	[PROGRAMS_STMT_MEMBER_UPSERT] =
	    "INSERT INTO program_member (program_id, lead_id, status_step, "
	    "reached_success, membership_date, updated_at) "
	    "VALUES (?, ?, ?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP()) "
	    "ON DUPLICATE KEY UPDATE status_step = VALUES(status_step), "
	    "reached_success = reached_success OR VALUES(reached_success), "
	    "updated_at = VALUES(updated_at)",
	[PROGRAMS_STMT_MEMBER_LOCK] =
	    "SELECT status_step, acquired_by FROM program_member "
	    "WHERE program_id = ? AND lead_id = ? FOR UPDATE",
	[PROGRAMS_STMT_MEMBER_UPDATE_STATUS] =
	    "UPDATE program_member SET status_step = ?, "
	    "reached_success = reached_success OR ?, "
	    "updated_at = UTC_TIMESTAMP() WHERE program_id = ? AND lead_id = ?",
	[PROGRAMS_STMT_CAMPAIGN_MEMBER_INSERT] =
	    "INSERT IGNORE INTO campaign_member (campaign_id, lead_id, "
	    "created_at, updated_at) "
	    "VALUES (?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	[PROGRAMS_STMT_LIST_MEMBERSHIP] =
	    "SELECT list_id, " ISO("created_at") ", " ISO("updated_at") " "
	    "FROM list_member WHERE lead_id = ? AND list_id > ? "
	    "ORDER BY list_id LIMIT ?",
	[PROGRAMS_STMT_PROGRAM_MEMBERSHIP] =
	    "SELECT m.program_id, " ISO("m.membership_date") ", "
	    ISO("m.updated_at") ", COALESCE(s.name, ''), m.acquired_by, "
	    "m.reached_success, m.is_exhausted, m.stream, m.nurture_cadence "
	    "FROM program_member m LEFT JOIN program_status s "
	    "ON s.program_id = m.program_id AND s.step = m.status_step "
	    "WHERE m.lead_id = ? AND m.program_id > ? "
	    "AND (? IS NULL OR FIND_IN_SET(m.program_id, ?) > 0) "
	    "AND (? IS NULL OR m.updated_at >= CAST(? AS DATETIME)) "
	    "AND (? IS NULL OR m.updated_at <= CAST(? AS DATETIME)) "
	    "ORDER BY m.program_id LIMIT ?",
	[PROGRAMS_STMT_CAMPAIGN_MEMBERSHIP] =
	    "SELECT campaign_id, " ISO("created_at") ", " ISO("updated_at") " "
	    "FROM campaign_member WHERE lead_id = ? AND campaign_id > ? "
	    "AND (? IS NULL OR updated_at >= CAST(? AS DATETIME)) "
	    "AND (? IS NULL OR updated_at <= CAST(? AS DATETIME)) "
	    "ORDER BY campaign_id LIMIT ?",
	[PROGRAMS_STMT_PROGRAM_MEMBER_MOVE] =
	    "INSERT IGNORE INTO program_member (program_id, lead_id, "
	    MEMBER_COLS ") SELECT program_id, ?, " MEMBER_COLS " "
	    "FROM program_member WHERE lead_id = ?",
	[PROGRAMS_STMT_PROGRAM_MEMBER_DELETE_BY_LEAD] =
	    "DELETE FROM program_member WHERE lead_id = ?",
	[PROGRAMS_STMT_CAMPAIGN_MEMBER_MOVE] =
	    "INSERT IGNORE INTO campaign_member (campaign_id, lead_id, "
	    "created_at, updated_at) SELECT campaign_id, ?, created_at, "
	    "updated_at FROM campaign_member WHERE lead_id = ?",
	[PROGRAMS_STMT_CAMPAIGN_MEMBER_DELETE_BY_LEAD] =
	    "DELETE FROM campaign_member WHERE lead_id = ?",
	[PROGRAMS_STMT_CAMPAIGN_MEMBERS_DELETE] =
	    "DELETE FROM campaign_member WHERE campaign_id = ?",
};

const struct db_stmt_set repo_programs_sql = {
	.name = "programs",
	.sql = sql,
	.n = PROGRAMS_STMT__MAX,
};

/* Column buffers: a VARCHAR(255) utf8mb4 value is at most 1020 bytes. */
#define NAME_BUF	(MAX_OBJECT_NAME_BYTES * 4 + 1)

static MYSQL_STMT *
stmt(struct db *db, enum programs_stmt s)
{
	return db_stmt(db, REPO_PROGRAMS, (int)s);
}

static int
run(struct db *db, enum programs_stmt s, MYSQL_BIND *in, const char *where)
{
	return db_exec(db, stmt(db, s), in, where);
}

/* Runs a query of one integer column; -REPO_ERR_NOT_FOUND for no row. */
static int
get_i64(struct db *db, enum programs_stmt s, MYSQL_BIND *in, int64_t *out,
    const char *where)
{
	return db_query_i64(db, stmt(db, s), in, out, where);
}

/* Inserts an id-returning row; *id is the new row's id. */
static int
insert_id(struct db *db, enum programs_stmt s, MYSQL_BIND *in, int32_t *id,
    const char *where)
{
	int r;

	*id = 0;
	if ((r = run(db, s, in, where)) == 0)
		*id = (int32_t)mysql_stmt_insert_id(stmt(db, s));
	return r;
}

/* ---- Programs ------------------------------------------------------ */

/* See repo_programs.h. */
void
repo_programs_program_clear(struct repo_program *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nstatuses; i++)
		free(p->statuses[i].name);
	free(p->statuses);
	free(p->name);
	free(p->type);
	free(p->channel);
	memset(p, 0, sizeof(*p));
}

/* A fetched program_status row. */
struct status_row {
	int32_t		program_id, step, success;
	char		name[NAME_BUF];
	unsigned long	len;
	my_bool		nul[4];
};

/*
 * Reads the rows of a status statement (already executed) and appends
 * each to the program of progs (sorted by id) it belongs to.
 */
static int
fetch_statuses(struct db *db, MYSQL_STMT *st, struct repo_program *progs,
    size_t nprogs)
{
	struct status_row *row;
	struct repo_program *p;
	MYSQL_BIND res[4];
	size_t k = 0;
	int e, r = 0;

	row = xcalloc(1, sizeof(*row));
	bind_out_i32(&res[0], &row->program_id, &row->nul[0]);
	bind_out_i32(&res[1], &row->step, &row->nul[1]);
	bind_out_str(&res[2], row->name, sizeof(row->name), &row->len,
	    &row->nul[2]);
	bind_out_i32(&res[3], &row->success, &row->nul[3]);
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, "fetch_statuses");
		goto out;
	}
	while ((e = mysql_stmt_fetch(st)) == 0) {
		while (k < nprogs && progs[k].id < row->program_id)
			k++;
		if (k == nprogs || progs[k].id != row->program_id)
			continue;
		p = &progs[k];
		p->statuses = xrealloc(p->statuses, (p->nstatuses + 1) *
		    sizeof(*p->statuses));
		p->statuses[p->nstatuses].step = row->step;
		p->statuses[p->nstatuses].name = xstrndup(row->name, row->len);
		p->statuses[p->nstatuses].success = row->success != 0;
		p->nstatuses++;
	}
	if (e != MYSQL_NO_DATA)
		r = db_error(db, st, "fetch_statuses");
out:
	free(row);
	return r;
}

/* A fetched program row. */
struct program_row {
	int32_t		id;
	char		name[NAME_BUF];
	char		type[32 * 4 + 1];
	char		channel[NAME_BUF];
	unsigned long	len[3];
	my_bool		nul[4];
};

static int
bind_program_row(struct db *db, MYSQL_STMT *st, struct program_row *row)
{
	MYSQL_BIND res[4];

	bind_out_i32(&res[0], &row->id, &row->nul[0]);
	bind_out_str(&res[1], row->name, sizeof(row->name), &row->len[0],
	    &row->nul[1]);
	bind_out_str(&res[2], row->type, sizeof(row->type), &row->len[1],
	    &row->nul[2]);
	bind_out_str(&res[3], row->channel, sizeof(row->channel),
	    &row->len[2], &row->nul[3]);
	if (mysql_stmt_bind_result(st, res) != 0)
		return db_error(db, st, "bind_program_row");
	return 0;
}

static void
fill_program(const struct program_row *row, struct repo_program *p)
{
	memset(p, 0, sizeof(*p));
	p->id = row->id;
	p->name = xstrndup(row->name, row->len[0]);
	p->type = xstrndup(row->type, row->len[1]);
	p->channel = xstrndup(row->channel, row->len[2]);
}

/* See repo_programs.h. */
int
repo_programs_get_by_id(struct db *db, int32_t id, struct repo_program *out)
{
	struct program_row *row;
	MYSQL_STMT *st;
	MYSQL_BIND in[1];
	int e, r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		return r;
	row = xcalloc(1, sizeof(*row));
	st = stmt(db, PROGRAMS_STMT_GET_BY_ID);
	bind_i32(&in[0], &id);
	if ((r = db_exec(db, st, in, "repo_programs_get_by_id")) != 0)
		goto out;
	if ((r = bind_program_row(db, st, row)) != 0)
		goto out_free;
	if ((e = mysql_stmt_fetch(st)) == MYSQL_NO_DATA) {
		r = -REPO_ERR_NOT_FOUND;
		goto out_free;
	}
	if (e != 0) {
		r = db_error(db, st, "repo_programs_get_by_id");
		goto out_free;
	}
	fill_program(row, out);
	mysql_stmt_free_result(st);
	st = stmt(db, PROGRAMS_STMT_STATUS_LIST_BY_PROGRAM);
	if ((r = db_exec(db, st, in, "repo_programs_get_by_id")) != 0)
		goto out;
	r = fetch_statuses(db, st, out, 1);
out_free:
	mysql_stmt_free_result(st);
out:
	free(row);
	if (r != 0)
		repo_programs_program_clear(out);
	return r;
}

/* See repo_programs.h. */
int
repo_programs_get_id_by_name(struct db *db, const char *name, int32_t *id)
{
	return db_query_id(db, stmt(db, PROGRAMS_STMT_GET_BY_NAME), name, id,
	    "repo_programs_get_id_by_name");
}

/* See repo_programs.h. */
int
repo_programs_get_by_name(struct db *db, const char *name,
    struct repo_program *out)
{
	int32_t id;
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = repo_programs_get_id_by_name(db, name, &id)) != 0)
		return r;
	return repo_programs_get_by_id(db, id, out);
}

/* See repo_programs.h. */
int
repo_programs_lock(struct db *db, int32_t id)
{
	MYSQL_BIND in[1];
	int64_t v;

	bind_i32(&in[0], &id);
	return get_i64(db, PROGRAMS_STMT_LOCK, in, &v, "repo_programs_lock");
}

/* See repo_programs.h. */
int
repo_programs_members_move(struct db *db, int64_t to, int64_t from)
{
	static const enum programs_stmt moves[][2] = {
		{ PROGRAMS_STMT_PROGRAM_MEMBER_MOVE,
		  PROGRAMS_STMT_PROGRAM_MEMBER_DELETE_BY_LEAD },
		{ PROGRAMS_STMT_CAMPAIGN_MEMBER_MOVE,
		  PROGRAMS_STMT_CAMPAIGN_MEMBER_DELETE_BY_LEAD },
	};
	MYSQL_BIND in[2];
	size_t i;
	int r;

	for (i = 0; i < sizeof(moves) / sizeof(moves[0]); i++) {
		bind_i64(&in[0], &to);
		bind_i64(&in[1], &from);
		if ((r = run(db, moves[i][0], in,
		    "repo_programs_members_move")) != 0 ||
		    (r = run(db, moves[i][1], &in[1],
		    "repo_programs_members_move")) != 0)
			return r;
	}
	return 0;
}

/* See repo_programs.h. */
int
repo_programs_list(struct db *db, struct repo_program_list *out)
{
	struct program_row *row;
	MYSQL_STMT *st;
	size_t cap = 0;
	int e, r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		return r;
	row = xcalloc(1, sizeof(*row));
	st = stmt(db, PROGRAMS_STMT_LIST);
	if ((r = db_exec(db, st, NULL, "repo_programs_list")) != 0)
		goto out;
	if ((r = bind_program_row(db, st, row)) != 0)
		goto out_free;
	while ((e = mysql_stmt_fetch(st)) == 0) {
		if (out->count == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			out->items = xrealloc(out->items,
			    cap * sizeof(*out->items));
		}
		fill_program(row, &out->items[out->count++]);
	}
	if (e != MYSQL_NO_DATA) {
		r = db_error(db, st, "repo_programs_list");
		goto out_free;
	}
	mysql_stmt_free_result(st);
	st = stmt(db, PROGRAMS_STMT_STATUS_LIST);
	if ((r = db_exec(db, st, NULL, "repo_programs_list")) != 0)
		goto out;
	r = fetch_statuses(db, st, out->items, out->count);
out_free:
	mysql_stmt_free_result(st);
out:
	free(row);
	if (r != 0)
		repo_programs_list_free(out);
	return r;
}

/* See repo_programs.h. */
void
repo_programs_list_free(struct repo_program_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->count; i++)
		repo_programs_program_clear(&l->items[i]);
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

struct program_insert {
	const struct repo_program_new	*p;
	int32_t				 id;
};

static int
program_insert_tx(struct db *db, void *arg)
{
	struct program_insert *a = arg;
	const struct repo_program_new *p = a->p;
	MYSQL_BIND in[4];
	unsigned long len[3];
	int32_t step, success;
	size_t i;
	int r;

	len[0] = strlen(p->name);
	len[1] = strlen(p->type);
	len[2] = strlen(p->channel);
	bind_str(&in[0], p->name, &len[0]);
	bind_str(&in[1], p->type, &len[1]);
	bind_str(&in[2], p->channel, &len[2]);
	if ((r = insert_id(db, PROGRAMS_STMT_INSERT, in, &a->id,
	    "repo_programs_insert")) != 0)
		return r;
	for (i = 0; i < p->nstatuses; i++) {
		step = (int32_t)i + 1;
		success = p->success[i] ? 1 : 0;
		len[0] = strlen(p->statuses[i]);
		bind_i32(&in[0], &a->id);
		bind_i32(&in[1], &step);
		bind_str(&in[2], p->statuses[i], &len[0]);
		bind_i32(&in[3], &success);
		if ((r = run(db, PROGRAMS_STMT_STATUS_INSERT, in,
		    "repo_programs_insert")) != 0)
			return r;
	}
	return 0;
}

/* See repo_programs.h. */
int
repo_programs_insert(struct db *db, const struct repo_program_new *p,
    int32_t *id)
{
	struct program_insert a = { p, 0 };
	int r;

	*id = 0;
	if (p->nstatuses == 0 || p->nstatuses > MAX_PROGRAM_STATUSES)
		return -REPO_ERR_INVALID;
	if ((r = db_run_tx(db, program_insert_tx, &a, false)) == 0)
		*id = a.id;
	return r;
}

struct member_add {
	int32_t			 program_id;
	int64_t			 lead_id;
	int32_t			 step;
	int32_t			 success;
	struct repo_missing	*miss;
};

static int
member_add_tx(struct db *db, void *arg)
{
	struct member_add *a = arg;
	MYSQL_BIND in[4];
	int r;

	if ((r = repo_lead_lock(db, a->lead_id, NULL)) != 0) {
		if (r == -REPO_ERR_NOT_FOUND) {
			a->miss->what = REPO_WHAT_LEAD;
			a->miss->id = a->lead_id;
		}
		return r;
	}
	bind_i32(&in[0], &a->program_id);
	bind_i64(&in[1], &a->lead_id);
	bind_i32(&in[2], &a->step);
	bind_i32(&in[3], &a->success);
	return run(db, PROGRAMS_STMT_MEMBER_UPSERT, in,
	    "repo_programs_member_add");
}

/* See repo_programs.h. */
int
repo_programs_member_add(struct db *db, int32_t program_id, int64_t lead_id,
    const char *status, struct repo_missing *miss)
{
	struct repo_program p;
	struct member_add a;
	size_t i;
	int r;

	memset(miss, 0, sizeof(*miss));
	if ((r = repo_programs_get_by_id(db, program_id, &p)) != 0) {
		if (r == -REPO_ERR_NOT_FOUND) {
			miss->what = REPO_WHAT_PROGRAM;
			miss->id = program_id;
		}
		return r;
	}
	for (i = 0; i < p.nstatuses; i++)
		if (status == NULL || strcmp(p.statuses[i].name, status) == 0)
			break;
	if (i == p.nstatuses) {
		miss->what = REPO_WHAT_STATUS;
		miss->id = program_id;
		r = -REPO_ERR_NOT_FOUND;
		goto out;
	}
	memset(&a, 0, sizeof(a));
	a.program_id = program_id;
	a.lead_id = lead_id;
	a.step = p.statuses[i].step;
	a.success = p.statuses[i].success ? 1 : 0;
	a.miss = miss;
	r = db_run_tx(db, member_add_tx, &a, true);
out:
	repo_programs_program_clear(&p);
	return r;
}

struct status_tx {
	const struct repo_program	*p;
	size_t				 st;
	struct repo_status_change	*recs;
	size_t				 n;
};

/* The name of step in p, or "" when it has none. */
static const char *
step_name(const struct repo_program *p, int64_t step)
{
	size_t i;

	for (i = 0; i < p->nstatuses; i++)
		if (p->statuses[i].step == step)
			return p->statuses[i].name;
	return "";
}

/* Records a status change of one member (activity 104). */
static int
status_activity(struct db *db, const struct repo_program *p, int64_t lead,
    int64_t from, bool acquired_by, const struct repo_program_status *to)
{
	struct activity a;
	struct json_object *o;
	int r;

	o = json_object_new_object();
	json_object_object_add(o, "Old Status ID", json_object_new_int64(from));
	json_object_object_add(o, "Old Status",
	    json_object_new_string(step_name(p, from)));
	json_object_object_add(o, "New Status ID",
	    json_object_new_int64(to->step));
	json_object_object_add(o, "New Status",
	    json_object_new_string(to->name));
	json_object_object_add(o, "Success",
	    json_object_new_boolean(to->success));
	json_object_object_add(o, "Acquired By",
	    json_object_new_boolean(acquired_by));
	json_object_object_add(o, "Program ID", json_object_new_int64(p->id));
	memset(&a, 0, sizeof(a));
	a.lead_id = lead;
	a.type = ACT_CHANGE_PROGRAM_STATUS;
	a.primary_id = p->id;
	a.primary_value = p->name;
	a.attributes = repo_activity_attrs(o);
	r = repo_activity_insert(db, &a);
	free((char *)(uintptr_t)a.attributes);
	return r;
}

static int
status_tx(struct db *db, void *arg)
{
	struct status_tx *t = arg;
	const struct repo_program_status *to = &t->p->statuses[t->st];
	struct repo_status_change *c;
	MYSQL_BIND in[4], res[2];
	my_bool nul[2];
	int32_t pid = t->p->id, step = to->step, success = to->success;
	int64_t old, acquired;
	size_t i;
	int r;

	for (i = 0; i < t->n; i++) {
		c = &t->recs[i];
		if (c->skip)
			continue;
		bind_i32(&in[0], &pid);
		bind_i64(&in[1], &c->lead_id);
		bind_out_i64(&res[0], &old, &nul[0]);
		bind_out_i64(&res[1], &acquired, &nul[1]);
		if ((r = db_exec(db, stmt(db, PROGRAMS_STMT_MEMBER_LOCK), in,
		    "repo_programs_member_status_update")) == 0)
			r = db_fetch_one(db, stmt(db, PROGRAMS_STMT_MEMBER_LOCK),
			    res, "repo_programs_member_status_update");
		if (r == -REPO_ERR_NOT_FOUND) {
			r = repo_lead_lock(db, c->lead_id, NULL);
			if (r != 0 && r != -REPO_ERR_NOT_FOUND)
				return r;
			c->result = r == 0 ? REPO_REC_NOT_MEMBER :
			    REPO_REC_NO_LEAD;
			continue;
		}
		if (r != 0)
			return r;
		if (old >= step) {
			c->result = REPO_REC_NOT_FORWARD;
			continue;
		}
		bind_i32(&in[0], &step);
		bind_i32(&in[1], &success);
		bind_i32(&in[2], &pid);
		bind_i64(&in[3], &c->lead_id);
		if ((r = run(db, PROGRAMS_STMT_MEMBER_UPDATE_STATUS, in,
		    "repo_programs_member_status_update")) != 0 ||
		    (r = status_activity(db, t->p, c->lead_id, old,
		    acquired != 0, to)) != 0)
			return r;
		c->result = REPO_REC_UPDATED;
	}
	return 0;
}

/* See repo_programs.h. */
int
repo_programs_member_status_update(struct db *db,
    const struct repo_program *p, size_t st,
    struct repo_status_change *recs, size_t n)
{
	struct status_tx t = { p, st, recs, n };

	if (st >= p->nstatuses)
		return -REPO_ERR_INVALID;
	return db_run_tx(db, status_tx, &t, false);
}

/* ---- Smart campaign members ---------------------------------------- */

struct member_batch {
	int32_t			 id;		/* the campaign */
	const int64_t		*leads;
	size_t			 n;
	struct repo_missing	*miss;
};

static int
campaign_member_tx(struct db *db, void *arg)
{
	struct member_batch *b = arg;
	MYSQL_BIND in[2];
	size_t i;
	int r;

	memset(b->miss, 0, sizeof(*b->miss));
	if ((r = repo_lead_lock_all(db, b->leads, b->n, b->miss)) != 0)
		return r;
	for (i = 0; i < b->n; i++) {
		bind_i32(&in[0], &b->id);
		bind_i64(&in[1], &b->leads[i]);
		if ((r = run(db, PROGRAMS_STMT_CAMPAIGN_MEMBER_INSERT, in,
		    "repo_programs_campaign_member_add")) != 0)
			return r;
	}
	return 0;
}

/* See repo_programs.h. */
int
repo_programs_members_upsert(struct db *db, int32_t program_id,
    const struct program_member_new *m, size_t n, int64_t step,
    bool success, bool forward)
{
	const char *const where = "repo_programs_members_upsert";
	struct buf b;
	struct params p;
	size_t i;
	int r;

	if (n == 0)
		return 0;
	if (n > MAX_BATCH_RECORDS)
		return -REPO_ERR_INVALID;
	buf_init(&b, MEMBERS_SQL_MAX_BYTES);
	params_init(&p, 5 * n);
	buf_adds(&b, "INSERT INTO program_member (program_id, lead_id, "
	    "status_step, acquired_by, reached_success, is_exhausted, "
	    "membership_date, updated_at) VALUES ");
	for (i = 0; i < n; i++) {
		buf_adds(&b, i == 0 ? "(?, ?, ?, ?, ?, 0, UTC_TIMESTAMP(), "
		    "UTC_TIMESTAMP())" : ",(?, ?, ?, ?, ?, 0, UTC_TIMESTAMP(), "
		    "UTC_TIMESTAMP())");
		params_i64(&p, program_id);
		params_i64(&p, m[i].lead_id);
		params_i64(&p, step);
		params_i64(&p, m[i].acquired_by ? 1 : 0);
		params_i64(&p, success ? 1 : 0);
	}
	/* Assignments run left to right: status_step goes last. */
	if (forward)
		buf_adds(&b, " ON DUPLICATE KEY UPDATE reached_success = "
		    "reached_success OR (VALUES(status_step) > status_step AND "
		    "VALUES(reached_success)), updated_at = "
		    "IF(VALUES(status_step) > status_step, VALUES(updated_at), "
		    "updated_at), status_step = GREATEST(status_step, "
		    "VALUES(status_step))");
	else
		buf_adds(&b, " ON DUPLICATE KEY UPDATE program_id = "
		    "program_id");
	r = params_exec(db, params_stmt(db, &b, where), &p, where);
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* See repo_programs.h. */
void
repo_programs_membership_fill(const struct db_text_rows *t, size_t row,
    size_t c, struct lead_membership *m)
{
	memset(m, 0, sizeof(*m));
	m->status = db_text_str(t, row, c);
	m->acquired_by = db_text_i64(t, row, c + 1) != 0;
	m->reached_success = db_text_i64(t, row, c + 2) != 0;
	m->is_exhausted = db_text_i64(t, row, c + 3) != 0;
	m->stream = db_text_str(t, row, c + 4);
	m->cadence = db_text_str(t, row, c + 5);
	db_copy_text(m->membership_date, LEAD_TIME_BYTES,
	    db_text_str(t, row, c + 6), SIZE_MAX);
	db_copy_text(m->updated_at, LEAD_TIME_BYTES,
	    db_text_str(t, row, c + 7), SIZE_MAX);
	m->program_id = db_text_i64(t, row, c + 8);
}

/* See repo_programs.h. */
int
repo_programs_campaign_member_add(struct db *db, int32_t campaign_id,
    const int64_t *leads, size_t n, struct repo_missing *miss)
{
	struct member_batch b = { campaign_id, leads, n, miss };

	memset(miss, 0, sizeof(*miss));
	return db_run_tx(db, campaign_member_tx, &b, true);
}


/* See repo_programs.h. */
int
repo_programs_campaign_members_delete(struct db *db, int32_t campaign_id)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &campaign_id);
	return db_exec(db, stmt(db, PROGRAMS_STMT_CAMPAIGN_MEMBERS_DELETE), in,
	    "repo_programs_campaign_members_delete");
}

/* ---- Membership reads ---------------------------------------------- */

enum member_kind {
	MEMBER_LIST,
	MEMBER_PROGRAM,
	MEMBER_CAMPAIGN
};

/* A fetched membership row (every kind). */
struct member_fetch {
	int32_t		id, acquired, reached, exhausted;
	char		created[32], updated[32];
	char		status[NAME_BUF], stream[NAME_BUF], cadence[16 * 4 + 1];
	unsigned long	len[5];
	my_bool		nul[9];
};

static int
membership(struct db *db, enum member_kind kind,
    const struct repo_member_query *q, struct repo_member_list *out)
{
	static const enum programs_stmt which[] = {
		[MEMBER_LIST] = PROGRAMS_STMT_LIST_MEMBERSHIP,
		[MEMBER_PROGRAM] = PROGRAMS_STMT_PROGRAM_MEMBERSHIP,
		[MEMBER_CAMPAIGN] = PROGRAMS_STMT_CAMPAIGN_MEMBERSHIP,
	};
	struct member_fetch *f = NULL;
	struct repo_member_row *row;
	MYSQL_STMT *st;
	MYSQL_BIND in[11], res[9];
	unsigned long elen = 0, llen = 0, plen = 0;
	int64_t lead = q->lead_id, limit = q->limit;
	int32_t after = q->after;
	size_t k = 0;
	int e, r;

	memset(out, 0, sizeof(*out));
	if (q->limit <= 0)
		return -REPO_ERR_INVALID;
	if ((r = db_ensure(db)) != 0)
		return r;
	st = stmt(db, which[kind]);
	memset(in, 0, sizeof(in));
	bind_i64(&in[k++], &lead);
	bind_i32(&in[k++], &after);
	if (kind == MEMBER_PROGRAM) {
		if (q->program_ids != NULL) {
			plen = strlen(q->program_ids);
			bind_str(&in[k++], q->program_ids, &plen);
			bind_str(&in[k++], q->program_ids, &plen);
		} else {
			bind_null(&in[k++]);
			bind_null(&in[k++]);
		}
	}
	if (kind != MEMBER_LIST) {
		if (q->earliest != NULL) {
			elen = strlen(q->earliest);
			bind_str(&in[k++], q->earliest, &elen);
			bind_str(&in[k++], q->earliest, &elen);
		} else {
			bind_null(&in[k++]);
			bind_null(&in[k++]);
		}
		if (q->latest != NULL) {
			llen = strlen(q->latest);
			bind_str(&in[k++], q->latest, &llen);
			bind_str(&in[k++], q->latest, &llen);
		} else {
			bind_null(&in[k++]);
			bind_null(&in[k++]);
		}
	}
	bind_i64(&in[k++], &limit);
	if ((r = db_exec(db, st, in, "repo_programs_membership")) != 0)
		return r;
	f = xcalloc(1, sizeof(*f));
	bind_out_i32(&res[0], &f->id, &f->nul[0]);
	bind_out_str(&res[1], f->created, sizeof(f->created), &f->len[0],
	    &f->nul[1]);
	bind_out_str(&res[2], f->updated, sizeof(f->updated), &f->len[1],
	    &f->nul[2]);
	if (kind == MEMBER_PROGRAM) {
		bind_out_str(&res[3], f->status, sizeof(f->status), &f->len[2],
		    &f->nul[3]);
		bind_out_i32(&res[4], &f->acquired, &f->nul[4]);
		bind_out_i32(&res[5], &f->reached, &f->nul[5]);
		bind_out_i32(&res[6], &f->exhausted, &f->nul[6]);
		bind_out_str(&res[7], f->stream, sizeof(f->stream), &f->len[3],
		    &f->nul[7]);
		bind_out_str(&res[8], f->cadence, sizeof(f->cadence),
		    &f->len[4], &f->nul[8]);
	}
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, "repo_programs_membership");
		goto out;
	}
	out->items = xcalloc((size_t)q->limit, sizeof(*out->items));
	while ((e = mysql_stmt_fetch(st)) == 0) {
		if (out->count == (size_t)q->limit)
			continue;
		row = &out->items[out->count++];
		row->id = f->id;
		db_copy_text(row->created_at, REPO_TIME_BYTES, f->nul[1] ? NULL :
		    f->created, f->len[0]);
		db_copy_text(row->updated_at, REPO_TIME_BYTES, f->nul[2] ? NULL :
		    f->updated, f->len[1]);
		if (kind != MEMBER_PROGRAM)
			continue;
		row->status = xstrndup(f->status, f->nul[3] ? 0 : f->len[2]);
		row->acquired_by = f->acquired != 0;
		row->reached_success = f->reached != 0;
		row->is_exhausted = f->exhausted != 0;
		row->stream = f->nul[7] ? NULL : xstrndup(f->stream, f->len[3]);
		row->cadence = f->nul[8] ? NULL : xstrndup(f->cadence,
		    f->len[4]);
	}
	if (e != MYSQL_NO_DATA) {
		r = db_error(db, st, "repo_programs_membership");
		goto out;
	}
	r = 0;
out:
	mysql_stmt_free_result(st);
	free(f);
	if (r != 0)
		repo_programs_member_list_free(out);
	return r;
}

/* See repo_programs.h. */
int
repo_programs_list_membership(struct db *db,
    const struct repo_member_query *q, struct repo_member_list *out)
{
	return membership(db, MEMBER_LIST, q, out);
}

/* See repo_programs.h. */
int
repo_programs_program_membership(struct db *db,
    const struct repo_member_query *q, struct repo_member_list *out)
{
	return membership(db, MEMBER_PROGRAM, q, out);
}

/* See repo_programs.h. */
int
repo_programs_campaign_membership(struct db *db,
    const struct repo_member_query *q, struct repo_member_list *out)
{
	return membership(db, MEMBER_CAMPAIGN, q, out);
}

/* See repo_programs.h. */
void
repo_programs_member_list_free(struct repo_member_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->count; i++) {
		free(l->items[i].status);
		free(l->items[i].stream);
		free(l->items[i].cadence);
	}
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

/* See repo_programs.h. */
int
repo_programs_count_in_folder(struct db *db, int32_t folder_id, int64_t *n)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &folder_id);
	return db_query_i64(db, stmt(db, PROGRAMS_STMT_COUNT_FOLDER), in, n,
	    "repo_programs_count_in_folder");
}
