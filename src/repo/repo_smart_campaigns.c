/*
 * Smart campaigns (repo_smart_campaigns.h).  A campaign's place is a
 * folder or a program (one of folder_id and program_id); its smart list
 * is a smart_list row it owns (repo_smart_lists.c); its flow is rows of
 * steps by position, their choices by position (the default last) and
 * the choices' attribute values.  Type and status follow from the
 * counts of its list's triggers and filters, read with it.  The flow's
 * reply text is kept on the campaign's row (repo_kept.h): every flow
 * change drops it and moves the revision on in its transaction, and a
 * read that had to render it keeps it unless the revision moved.
 * Activation is repo_sc_activation.c's; what Clone Program and Delete
 * Program do with a program's campaigns, repo_sc_program.c's.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "model/campaign.h"
#include "model/flowstep.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_kept.h"
#include "repo/repo_programs.h"
#include "repo/repo_sl_catalogue.h"
#include "repo/repo_smart_campaigns.h"
#include "repo/repo_smart_lists.h"
#include "repo/repo_usage.h"
#include "util/arena.h"
#include "util/num.h"

enum sc_stmt {
	SC_STMT_GET,
	SC_STMT_GET_BY_NAME,
	SC_STMT_GET_KEPT,
	SC_STMT_GET_BY_NAME_KEPT,
	SC_STMT_KEEP,
	SC_STMT_BROWSE,
	SC_STMT_FIND,
	SC_STMT_USED_BY,
	SC_STMT_INSERT,
	SC_STMT_SET_LIST,
	SC_STMT_SOURCE,
	SC_STMT_COPY_STEPS,
	SC_STMT_COPY_CHOICES,
	SC_STMT_COPY_ATTRS,
	SC_STMT_UPDATE,
	SC_STMT_LOCK,
	SC_STMT_DELETE,
	SC_STMT_TOUCH,
	SC_STMT_EMAILS,
	SC_STMT_FLOW,
	SC_STMT_TYPES,
	SC_STMT_TYPE,
	SC_STMT_ATTRIBS,
	SC_STMT_ATTRIBS_OF,
	SC_STMT_STEP_COUNT,
	SC_STMT_STEP_POS,
	SC_STMT_STEP_SHIFT_UP,
	SC_STMT_STEP_SHIFT_DOWN,
	SC_STMT_STEP_INSERT,
	SC_STMT_STEP_DELETE,
	SC_STMT_CHOICE_INSERT,
	SC_STMT_CHOICE_IDS,
	SC_STMT_CHOICE_DEFAULT_DOWN,
	SC_STMT_CHOICE_SHIFT_DOWN,
	SC_STMT_CHOICE_DELETE,
	SC_STMT_CHOICE_NEGATE,
	SC_STMT_CHOICE_MOVE,
	SC_STMT_CHOICE_COND,
	SC_STMT_ATTR_PUT,
	SC_STMT_ATTR_DELETE,
	SC_STMT_RESOLVE_EMAIL,
	SC_STMT_RESOLVE_LIST,
	SC_STMT_RESOLVE_PROGRAM,
	SC_STMT_RESOLVE_CAMPAIGN,
	SC_STMT_COUNT_FOLDER,
	SC_STMT_SET_SYSTEM,
	SC_STMT__MAX
};

/*
 * A campaign's update time: its own, or its smart list's when a rule
 * changed later (every rule change sets the list's).
 */
#define SC_UPDATED \
	"GREATEST(c.updated_at, COALESCE(l.updated_at, c.updated_at))"

/*
 * Where a campaign's batch runs stand (enum campaign_runs): 1 while one
 * is not done, 2 when all are, 0 with none.  A trigger campaign has no
 * batch run and reads none (its runs may be many).
 */
#define SC_BATCH_RUNS \
	"CASE WHEN COALESCE(l.trigger_count, 0) > 0 THEN 0 WHEN EXISTS " \
	"(SELECT 1 FROM campaign_run r WHERE r.campaign_id = c.id AND " \
	"r.kind = 'batch' AND r.status <> 'done') THEN 1 WHEN EXISTS " \
	"(SELECT 1 FROM campaign_run r WHERE r.campaign_id = c.id AND " \
	"r.kind = 'batch') THEN 2 ELSE 0 END"

/* The columns of one campaign, from SC_FROM. */
#define SC_COLS \
	"c.id, c.name, c.description, c.folder_id, c.program_id, w.name, " \
	"c.workspace_id, c.smart_list_id, c.is_active, c.is_system, " \
	"c.communication_limit, c.qualification_rule_type, " \
	"c.qualification_rule_interval, c.qualification_rule_unit, " \
	"c.max_members, c.created_at, " SC_UPDATED ", " \
	"COALESCE(l.trigger_count, 0), COALESCE(l.filter_count, 0), " \
	"COALESCE(l.api_requested, 0), p.name, " SC_BATCH_RUNS
#define SC_NCOLS	22
#define SC_FROM \
	" FROM smart_campaign c JOIN workspace w ON w.id = c.workspace_id " \
	"LEFT JOIN smart_list l ON l.id = c.smart_list_id " \
	"LEFT JOIN program p ON p.id = c.program_id "

/*
 * A flow: the steps, each with its choices, each with the values it
 * gives the step type's attributes (NULL columns for a step without
 * choices and a choice without values).  The names and attributes of
 * the step types come from the catalogue the connection keeps
 * (sc_catalogue), not from joins; the rows are sorted after the fetch
 * (db_text_sort), as an ORDER BY over two tables selecting a TEXT
 * column would sort on disk.
 */
#define SC_FLOW_COLS \
	"s.id, s.position, s.flow_type_id, ch.id, ch.position, " \
	"ch.is_default, ch.cond_kind, ch.cond_type_id, ch.cond_operator, " \
	"ch.cond_vals, a.attrib_id, a.value"
#define SC_FLOW_NCOLS	12
#define SC_FLOW_JOINS \
	"LEFT JOIN sc_step_choice ch ON ch.step_id = s.id " \
	"LEFT JOIN sc_choice_attr a ON a.choice_id = ch.id "
/* The most rows of one flow: a row per value, or per bare choice. */
#define SC_FLOW_MAX_ROWS	(SC_MAX_STEPS * SC_MAX_CHOICES * 16)

/* An asset by id (the value's digits, else -1) or else by exact name. */
#define SC_RESOLVE(table) \
	"SELECT id FROM " table " WHERE id = ? OR name = ? " \
	"ORDER BY id = ? DESC, id LIMIT 1"

static const char *const sql[SC_STMT__MAX] = {
	[SC_STMT_GET] = "SELECT " SC_COLS SC_FROM "WHERE c.id = ?",
	[SC_STMT_GET_BY_NAME] = "SELECT " SC_COLS SC_FROM "WHERE c.name = ?",
	/* The campaign with its kept flow text (repo_kept.h). */
	[SC_STMT_GET_KEPT] =
	    "SELECT " SC_COLS REPO_KEPT_COLS("c.flow") SC_FROM
	    REPO_KEPT_FROM "WHERE c.id = ?",
	[SC_STMT_GET_BY_NAME_KEPT] =
	    "SELECT " SC_COLS REPO_KEPT_COLS("c.flow") SC_FROM
	    REPO_KEPT_FROM "WHERE c.name = ?",
	[SC_STMT_KEEP] = REPO_KEPT_UPDATE("smart_campaign", "flow"),
	/* Parameters: folder id twice, program id twice, earliest twice,
	 * latest twice, active only, limit, offset; NULL matches any. */
	[SC_STMT_BROWSE] =
	    "SELECT " SC_COLS SC_FROM
	    "WHERE (? IS NULL OR c.folder_id = ?) AND "
	    "(? IS NULL OR c.program_id = ?) AND "
	    "(? IS NULL OR " SC_UPDATED " >= ?) AND "
	    "(? IS NULL OR " SC_UPDATED " <= ?) AND "
	    "(? = 0 OR c.is_active = 1) ORDER BY c.id LIMIT ? OFFSET ?",
	/*
	 * Parameters: after this id; ids, names, program names, workspace
	 * names (each a JSON array, or NULL for any, twice); triggerable
	 * only (active with a Web Service API request trigger); limit.
	 */
	[SC_STMT_FIND] =
	    "SELECT " SC_COLS SC_FROM
	    "WHERE c.id > ? "
	    "AND (? IS NULL OR JSON_CONTAINS(?, CAST(c.id AS CHAR))) "
	    "AND (? IS NULL OR JSON_CONTAINS(?, JSON_QUOTE(c.name))) "
	    "AND (? IS NULL OR JSON_CONTAINS(?, JSON_QUOTE(p.name))) "
	    "AND (? IS NULL OR JSON_CONTAINS(?, JSON_QUOTE(w.name))) "
	    "AND (? = 0 OR (c.is_active = 1 AND l.api_requested = 1)) "
	    "ORDER BY c.id LIMIT ?",
	/* Parameter: the requested campaign's id as text. */
	[SC_STMT_USED_BY] =
	    "SELECT " SC_COLS SC_FROM "WHERE c.id IN (SELECT s.campaign_id "
	    SC_VALUES_OF "WHERE t.data_type = 'campaign' AND a.value = ?) "
	    "ORDER BY c.id LIMIT 10000",
	/* Parameters: name, description, folder, program. */
	[SC_STMT_INSERT] =
	    "INSERT INTO smart_campaign (name, description, folder_id, "
	    "program_id, created_at, updated_at) VALUES (?, ?, ?, ?, "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	[SC_STMT_SET_LIST] =
	    "UPDATE smart_campaign SET smart_list_id = ? WHERE id = ?",
	[SC_STMT_SET_SYSTEM] =
	    "UPDATE smart_campaign SET is_system = 1 WHERE id = ?",
	/* A clone's source, kept while it is copied. */
	[SC_STMT_SOURCE] =
	    "SELECT smart_list_id FROM smart_campaign WHERE id = ? "
	    "LOCK IN SHARE MODE",
	/* Parameters: new campaign, source campaign (all three). */
	[SC_STMT_COPY_STEPS] =
	    "INSERT INTO sc_flow_step (campaign_id, position, flow_type_id) "
	    "SELECT ?, position, flow_type_id FROM sc_flow_step WHERE "
	    "campaign_id = ?",
	[SC_STMT_COPY_CHOICES] =
	    "INSERT INTO sc_step_choice (step_id, position, is_default, "
	    "cond_kind, cond_type_id, cond_operator, cond_vals) SELECT n.id, "
	    "c.position, c.is_default, c.cond_kind, c.cond_type_id, "
	    "c.cond_operator, c.cond_vals FROM sc_step_choice c JOIN "
	    "sc_flow_step o ON o.id = c.step_id JOIN sc_flow_step n ON "
	    "n.campaign_id = ? AND n.position = o.position WHERE "
	    "o.campaign_id = ?",
	[SC_STMT_COPY_ATTRS] =
	    "INSERT INTO sc_choice_attr (choice_id, attrib_id, value) SELECT "
	    "nc.id, a.attrib_id, a.value FROM sc_choice_attr a JOIN "
	    "sc_step_choice oc ON oc.id = a.choice_id JOIN sc_flow_step os "
	    "ON os.id = oc.step_id JOIN sc_flow_step ns ON ns.campaign_id = ? "
	    "AND ns.position = os.position JOIN sc_step_choice nc ON "
	    "nc.step_id = ns.id AND nc.position = oc.position WHERE "
	    "os.campaign_id = ?",
	/* Parameters: name (NULL: kept), description (NULL: kept), id. */
	[SC_STMT_UPDATE] =
	    "UPDATE smart_campaign SET name = COALESCE(?, name), description "
	    "= COALESCE(?, description), updated_at = UTC_TIMESTAMP() "
	    "WHERE id = ?",
	[SC_STMT_LOCK] =
	    "SELECT is_active FROM smart_campaign WHERE id = ? FOR UPDATE",
	[SC_STMT_DELETE] = "DELETE FROM smart_campaign WHERE id = ?",
	/* A flow change: its time, and the kept text is dropped. */
	[SC_STMT_TOUCH] =
	    "UPDATE smart_campaign SET updated_at = UTC_TIMESTAMP(), "
	    REPO_KEPT_MOVED("flow") " WHERE id = ?",
	/* The emails the flow of campaign ? sends. */
	[SC_STMT_EMAILS] =
	    "SELECT DISTINCT e.id " SC_VALUES_OF "JOIN email e ON "
	    "e.id = a.value WHERE s.campaign_id = ? AND t.data_type = 'email'",
	/* The flow of campaign ?. */
	[SC_STMT_FLOW] =
	    "SELECT " SC_FLOW_COLS " FROM sc_flow_step s " SC_FLOW_JOINS
	    "WHERE s.campaign_id = ?",
	[SC_STMT_TYPES] = "SELECT id, name FROM sc_flow_type ORDER BY id",
	[SC_STMT_TYPE] = "SELECT id, name FROM sc_flow_type WHERE id = ?",
	[SC_STMT_ATTRIBS] =
	    "SELECT flow_type_id, id, name, data_type, is_primary, "
	    "is_required, choices FROM sc_flow_attrib ORDER BY flow_type_id, "
	    "position",
	[SC_STMT_ATTRIBS_OF] =
	    "SELECT flow_type_id, id, name, data_type, is_primary, "
	    "is_required, choices FROM sc_flow_attrib WHERE flow_type_id = ? "
	    "ORDER BY position",
	[SC_STMT_STEP_COUNT] =
	    "SELECT COUNT(*) FROM sc_flow_step WHERE campaign_id = ?",
	/* Parameters: step, campaign; -1 when it is not the campaign's. */
	[SC_STMT_STEP_POS] =
	    "SELECT COALESCE(MAX(position), -1) FROM sc_flow_step WHERE "
	    "id = ? AND campaign_id = ?",
	[SC_STMT_STEP_SHIFT_UP] =
	    "UPDATE sc_flow_step SET position = position + 1 WHERE "
	    "campaign_id = ? AND position >= ? ORDER BY position DESC",
	[SC_STMT_STEP_SHIFT_DOWN] =
	    "UPDATE sc_flow_step SET position = position - 1 WHERE "
	    "campaign_id = ? AND position > ? ORDER BY position",
	[SC_STMT_STEP_INSERT] =
	    "INSERT INTO sc_flow_step (campaign_id, position, flow_type_id) "
	    "VALUES (?, ?, ?)",
	[SC_STMT_STEP_DELETE] = "DELETE FROM sc_flow_step WHERE id = ?",
	/* Parameters: step, position, default. */
	[SC_STMT_CHOICE_INSERT] =
	    "INSERT INTO sc_step_choice (step_id, position, is_default) "
	    "VALUES (?, ?, ?)",
	[SC_STMT_CHOICE_IDS] =
	    "SELECT id, is_default FROM sc_step_choice WHERE step_id = ? "
	    "ORDER BY position",
	[SC_STMT_CHOICE_DEFAULT_DOWN] =
	    "UPDATE sc_step_choice SET position = position + 1 WHERE "
	    "step_id = ? AND is_default = 1",
	[SC_STMT_CHOICE_SHIFT_DOWN] =
	    "UPDATE sc_step_choice SET position = position - 1 WHERE "
	    "step_id = ? AND position > ? ORDER BY position",
	[SC_STMT_CHOICE_DELETE] = "DELETE FROM sc_step_choice WHERE id = ?",
	[SC_STMT_CHOICE_NEGATE] =
	    "UPDATE sc_step_choice SET position = -1 - position WHERE "
	    "step_id = ?",
	[SC_STMT_CHOICE_MOVE] =
	    "UPDATE sc_step_choice SET position = ? WHERE id = ?",
	[SC_STMT_CHOICE_COND] =
	    "UPDATE sc_step_choice SET cond_kind = ?, cond_type_id = ?, "
	    "cond_operator = ?, cond_vals = ? WHERE id = ?",
	[SC_STMT_ATTR_PUT] =
	    "INSERT INTO sc_choice_attr (choice_id, attrib_id, value) VALUES "
	    "(?, ?, ?) ON DUPLICATE KEY UPDATE value = VALUES(value)",
	[SC_STMT_ATTR_DELETE] =
	    "DELETE FROM sc_choice_attr WHERE choice_id = ? AND attrib_id = ?",
	[SC_STMT_RESOLVE_EMAIL] = SC_RESOLVE("email"),
	[SC_STMT_RESOLVE_LIST] = SC_RESOLVE("static_list"),
	[SC_STMT_RESOLVE_PROGRAM] = SC_RESOLVE("program"),
	[SC_STMT_RESOLVE_CAMPAIGN] = SC_RESOLVE("smart_campaign"),
	[SC_STMT_COUNT_FOLDER] =
	    "SELECT COUNT(*) FROM smart_campaign WHERE folder_id = ?",
};

const struct db_stmt_set repo_smart_campaigns_sql = {
	.name = "smart_campaigns",
	.sql = sql,
	.n = SC_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum sc_stmt s)
{
	return db_stmt(db, REPO_SMART_CAMPAIGNS, (int)s);
}

/* Row i of t (SC_COLS) into *out. */
static void
fill(const struct db_text_rows *t, size_t i, struct repo_sc *out)
{
	memset(out, 0, sizeof(*out));
	out->id = (int32_t)db_text_i64(t, i, 0);
	out->name = db_text_str(t, i, 1);
	out->description = db_text_str(t, i, 2);
	if (db_text_str(t, i, 3) != NULL) {
		out->place.type = FOLDER_T_FOLDER;
		out->place.id = db_text_i64(t, i, 3);
	} else {
		out->place.type = FOLDER_T_PROGRAM;
		out->place.id = db_text_i64(t, i, 4);
	}
	out->workspace = db_text_str(t, i, 5) != NULL ?
	    db_text_str(t, i, 5) : "Default";
	out->workspace_id = (int32_t)db_text_i64(t, i, 6);
	out->smart_list_id = (int32_t)db_text_i64(t, i, 7);
	out->active = db_text_i64(t, i, 8) != 0;
	out->system = db_text_i64(t, i, 9) != 0;
	out->comm_limit = db_text_i64(t, i, 10) != 0;
	out->qual_type = db_text_str(t, i, 11) != NULL ?
	    db_text_str(t, i, 11) : "once";
	out->qual_interval = db_text_i64(t, i, 12);
	out->qual_unit = db_text_str(t, i, 13);
	out->max_members = db_text_i64(t, i, 14);
	db_copy_text(out->created_at, sizeof(out->created_at),
	    db_text_str(t, i, 15), SIZE_MAX);
	db_copy_text(out->updated_at, sizeof(out->updated_at),
	    db_text_str(t, i, 16), SIZE_MAX);
	out->ntriggers = db_text_i64(t, i, 17);
	out->nfilters = db_text_i64(t, i, 18);
	out->requested_by_api = db_text_i64(t, i, 19) != 0;
	out->program_name = db_text_str(t, i, 20);
	switch (db_text_i64(t, i, 21)) {
	case 1:
		out->batch_runs = CAMPAIGN_RUNS_OPEN;
		break;
	case 2:
		out->batch_runs = CAMPAIGN_RUNS_DONE;
		break;
	default:
		out->batch_runs = CAMPAIGN_RUNS_NONE;
		break;
	}
}

/* The rows of s with in (at most max) as campaigns. */
static int
select_many(struct db *db, struct arena *a, enum sc_stmt s, MYSQL_BIND *in,
    size_t max, struct repo_sc **out, size_t *n)
{
	struct db_text_rows t;
	struct repo_sc *items;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, s), in, a, SC_NCOLS, max,
	    "repo_sc_select", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((items = arena_zalloc(a, t.count * sizeof(*items))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++)
		fill(&t, i, &items[i]);
	*out = items;
	*n = t.count;
	return 0;
}

static int
get_one(struct db *db, struct arena *a, enum sc_stmt s, MYSQL_BIND *in,
    struct repo_sc *out)
{
	struct repo_sc *items;
	size_t n;
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = select_many(db, a, s, in, 1, &items, &n)) != 0)
		return r;
	if (n == 0)
		return -REPO_ERR_NOT_FOUND;
	*out = items[0];
	return 0;
}

/* See repo_smart_campaigns.h. */
int
repo_sc_get(struct db *db, struct arena *a, int32_t id, struct repo_sc *out)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &id);
	return get_one(db, a, SC_STMT_GET, in, out);
}

/* See repo_smart_campaigns.h. */
int
repo_sc_get_by_name(struct db *db, struct arena *a, const char *name,
    struct repo_sc *out)
{
	MYSQL_BIND in[1];
	unsigned long len = strlen(name);

	bind_str(&in[0], name, &len);
	return get_one(db, a, SC_STMT_GET_BY_NAME, in, out);
}

/* See repo_smart_campaigns.h. */
int
repo_sc_browse(struct db *db, struct arena *a, const struct repo_sc_query *q,
    struct repo_sc **out, size_t *n)
{
	MYSQL_BIND in[11];
	int32_t pid = (int32_t)q->place.id, limit = q->limit;
	int32_t active = q->active_only;
	int64_t offset = q->offset;
	unsigned long el = 0, ll = 0;
	bool any = q->place.id == 0;

	bind_i32_twice(&in[0], !any && q->place.type == FOLDER_T_FOLDER, &pid);
	bind_i32_twice(&in[2], !any && q->place.type == FOLDER_T_PROGRAM,
	    &pid);
	bind_str_twice(&in[4], q->earliest, &el);
	bind_str_twice(&in[6], q->latest, &ll);
	bind_i32(&in[8], &active);
	bind_i32(&in[9], &limit);
	bind_i64(&in[10], &offset);
	return select_many(db, a, SC_STMT_BROWSE, in, (size_t)limit, out, n);
}

/* See repo_smart_campaigns.h. */
int
repo_sc_find(struct db *db, struct arena *a, const struct repo_filter *f,
    bool triggerable, int64_t after, int limit, struct repo_sc **out,
    size_t *n)
{
	MYSQL_BIND in[11];
	unsigned long len[4];
	int32_t trig = triggerable, lim = limit;
	int r;

	*out = NULL;
	*n = 0;
	if (limit < 1)
		return -REPO_ERR_INVALID;
	bind_i64(&in[0], &after);
	if ((r = repo_filter_bind(&in[1], a, f, len)) != 0)
		return r;
	bind_i32(&in[9], &trig);
	bind_i32(&in[10], &lim);
	return select_many(db, a, SC_STMT_FIND, in, (size_t)limit, out, n);
}

/* See repo_smart_campaigns.h. */
int
repo_sc_used_by(struct db *db, struct arena *a, int32_t id,
    struct repo_sc **out, size_t *n)
{
	MYSQL_BIND in[1];
	char text[16];
	unsigned long len;

	(void)snprintf(text, sizeof(text), "%ld", (long)id);
	len = strlen(text);
	bind_str(&in[0], text, &len);
	return select_many(db, a, SC_STMT_USED_BY, in, 10000, out, n);
}

/* See repo_smart_campaigns.h. */
int
repo_sc_usage_refresh(struct db *db, int32_t id, bool active)
{
	MYSQL_BIND in[1];
	struct db_text_rows t;
	struct arena a;
	size_t i;
	int r;

	if ((r = repo_usage_forget_user(db, USAGE_SMART_CAMPAIGN, id,
	    USAGE_EMAIL)) != 0 || !active)
		return r;
	arena_init(&a);
	bind_i32(&in[0], &id);
	r = db_select_text(db, stmt(db, SC_STMT_EMAILS), in, &a, 1, 100000,
	    "repo_sc_usage", &t);
	for (i = 0; r == 0 && i < t.count; i++)
		r = repo_usage_add(db, USAGE_EMAIL,
		    (int32_t)db_text_i64(&t, i, 0), USAGE_SMART_CAMPAIGN, id);
	arena_clear(&a);
	return r;
}

struct sc_insert {
	const struct repo_sc_new	*t;
	int32_t				 id;
};

static int
sc_insert_tx(struct db *db, void *arg)
{
	struct sc_insert *x = arg;
	const struct repo_sc_new *t = x->t;
	struct repo_sl_new sl;
	MYSQL_BIND in[4];
	unsigned long nlen = strlen(t->name), dlen = 0;
	int32_t place = (int32_t)t->place.id, src = t->clone_of;
	int32_t src_list = 0, list;
	int64_t v = 0;
	int r;

	if (src != 0) {
		bind_i32(&in[0], &src);
		if ((r = db_query_i64(db, stmt(db, SC_STMT_SOURCE), in, &v,
		    "repo_sc_insert")) != 0)
			return r;
		src_list = (int32_t)v;
	}
	bind_str(&in[0], t->name, &nlen);
	if (t->description != NULL) {
		dlen = strlen(t->description);
		bind_str(&in[1], t->description, &dlen);
	} else
		bind_null(&in[1]);
	if (t->place.type == FOLDER_T_FOLDER) {
		bind_i32(&in[2], &place);
		bind_null(&in[3]);
	} else {
		bind_null(&in[2]);
		bind_i32(&in[3], &place);
	}
	if ((r = db_exec(db, stmt(db, SC_STMT_INSERT), in,
	    "repo_sc_insert")) != 0)
		return r;
	x->id = (int32_t)mysql_stmt_insert_id(stmt(db, SC_STMT_INSERT));
	memset(&sl, 0, sizeof(sl));
	sl.name = t->name;
	sl.place = t->place;
	sl.campaign_id = x->id;
	sl.clone_of = src != 0 ? src_list : t->list_of;
	if ((r = repo_sl_insert_in_tx(db, &sl, &list)) != 0)
		return r;
	bind_i32(&in[0], &list);
	bind_i32(&in[1], &x->id);
	if ((r = db_exec(db, stmt(db, SC_STMT_SET_LIST), in,
	    "repo_sc_insert")) != 0 || src == 0)
		return r;
	bind_i32(&in[1], &src);
	bind_i32(&in[0], &x->id);
	if ((r = db_exec(db, stmt(db, SC_STMT_COPY_STEPS), in,
	    "repo_sc_insert")) != 0 ||
	    (r = db_exec(db, stmt(db, SC_STMT_COPY_CHOICES), in,
	    "repo_sc_insert")) != 0)
		return r;
	return db_exec(db, stmt(db, SC_STMT_COPY_ATTRS), in, "repo_sc_insert");
}

/* See repo_smart_campaigns.h. */
int
repo_sc_insert(struct db *db, const struct repo_sc_new *t, int32_t *id)
{
	struct sc_insert x = { .t = t, .id = 0 };
	int r;

	*id = 0;
	if ((r = db_run_tx(db, sc_insert_tx, &x, false)) == 0)
		*id = x.id;
	return r;
}

/* See repo_smart_campaigns.h. */
int
repo_sc_insert_in_tx(struct db *db, const struct repo_sc_new *t, int32_t *id)
{
	struct sc_insert x = { .t = t, .id = 0 };
	int r;

	*id = 0;
	if ((r = sc_insert_tx(db, &x)) == 0)
		*id = x.id;
	return r;
}

/* See repo_smart_campaigns.h. */
int
repo_sc_lock(struct db *db, int32_t id, bool *active)
{
	MYSQL_BIND in[1];
	int64_t v = 0;
	int r;

	bind_i32(&in[0], &id);
	r = db_query_i64(db, stmt(db, SC_STMT_LOCK), in, &v,
	    "repo_sc_lock");
	*active = v != 0;
	return r;
}

struct sc_update {
	int32_t		 id;
	const char	*name;
	const char	*description;
};

static int
sc_update_tx(struct db *db, void *arg)
{
	struct sc_update *x = arg;
	MYSQL_BIND in[3];
	unsigned long nl = 0, dl = 0;
	bool active;
	int r;

	if ((r = repo_sc_lock(db, x->id, &active)) != 0)
		return r;
	if (x->name != NULL) {
		nl = strlen(x->name);
		bind_str(&in[0], x->name, &nl);
	} else
		bind_null(&in[0]);
	if (x->description != NULL) {
		dl = strlen(x->description);
		bind_str(&in[1], x->description, &dl);
	} else
		bind_null(&in[1]);
	bind_i32(&in[2], &x->id);
	if ((r = db_exec(db, stmt(db, SC_STMT_UPDATE), in,
	    "repo_sc_update")) != 0)
		return r;
	return x->name != NULL ? repo_sl_rename_owned(db, x->id, x->name) : 0;
}

/* See repo_smart_campaigns.h. */
int
repo_sc_update(struct db *db, int32_t id, const char *name,
    const char *description)
{
	struct sc_update x = { id, name, description };

	return db_run_tx(db, sc_update_tx, &x, true);
}

static int
sc_delete_tx(struct db *db, void *arg)
{
	int32_t *id = arg;
	MYSQL_BIND in[1];
	bool active;
	int r;

	if ((r = repo_sc_lock(db, *id, &active)) != 0)
		return r;
	if (active)
		return -REPO_ERR_INVALID;
	bind_i32(&in[0], id);
	if ((r = repo_usage_forget(db, USAGE_SMART_CAMPAIGN, *id)) != 0 ||
	    (r = repo_programs_campaign_members_delete(db, *id)) != 0 ||
	    (r = db_exec(db, stmt(db, SC_STMT_DELETE), in,
	    "repo_sc_delete")) != 0)
		return r;
	return repo_sl_delete_owned(db, *id);
}

/* See repo_smart_campaigns.h. */
int
repo_sc_delete(struct db *db, int32_t id)
{
	return db_run_tx(db, sc_delete_tx, &id, false);
}

/* See repo_smart_campaigns.h. */
int
repo_sc_delete_in_tx(struct db *db, int32_t id)
{
	return sc_delete_tx(db, &id);
}

/* See repo_smart_campaigns.h. */
int
repo_sc_send_insert_in_tx(struct db *db, const struct repo_sc_new *t,
    int32_t email_id, int32_t *id)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[3];
	char value[16];
	unsigned long vlen;
	int32_t pos = 0, step, choice, one = 1, type = FLOW_SEND_EMAIL;
	int r;

	if ((r = repo_sc_insert_in_tx(db, t, id)) != 0)
		return r;
	bind_i32(&in[0], id);
	if ((r = db_exec(db, stmt(db, SC_STMT_SET_SYSTEM), in,
	    "repo_sc_send_insert")) != 0)
		return r;
	st = stmt(db, SC_STMT_STEP_INSERT);
	bind_i32(&in[1], &pos);
	bind_i32(&in[2], &type);
	if ((r = db_exec(db, st, in, "repo_sc_send_insert")) != 0)
		return r;
	step = (int32_t)mysql_stmt_insert_id(st);
	st = stmt(db, SC_STMT_CHOICE_INSERT);
	bind_i32(&in[0], &step);
	bind_i32(&in[1], &pos);
	bind_i32(&in[2], &one);
	if ((r = db_exec(db, st, in, "repo_sc_send_insert")) != 0)
		return r;
	choice = (int32_t)mysql_stmt_insert_id(st);
	/* Send Email's one attribute, Email (1), names the email by id. */
	vlen = (unsigned long)snprintf(value, sizeof(value), "%d",
	    (int)email_id);
	bind_i32(&in[0], &choice);
	bind_i32(&in[1], &one);
	bind_str(&in[2], value, &vlen);
	if ((r = db_exec(db, stmt(db, SC_STMT_ATTR_PUT), in,
	    "repo_sc_send_insert")) != 0)
		return r;
	/* The email is in use while the send exists, as an active
	 * campaign's are: it cannot be unapproved or deleted under it. */
	return repo_sc_usage_refresh(db, *id, true);
}



/* ---- Flows ------------------------------------------------------------ */

/* Row i of t (id, name, data type, primary, required, choices, from
 * column col) into *out. */
static void
attrib_fill(const struct db_text_rows *t, size_t i, size_t col,
    struct campaign_attr *out)
{
	memset(out, 0, sizeof(*out));
	out->id = (int32_t)db_text_i64(t, i, col);
	out->name = db_text_str(t, i, col + 1);
	out->data_type = db_text_str(t, i, col + 2);
	out->primary = db_text_i64(t, i, col + 3) != 0;
	out->required = db_text_i64(t, i, col + 4) != 0;
	out->choices = db_text_str(t, i, col + 5);
}

/*
 * The flow step types and their attributes as rows of sc_flow_type and
 * sc_flow_attrib hold them: data of the migrations, which a running
 * service does not change, so a connection reads them once (and again
 * when a step names a type it does not know; the catalogue read before
 * is kept, as answers being built may point into it).
 */
struct sc_catalogue {
	struct arena			 a;
	struct repo_sc_flow_type	*types;
	size_t				 n;
	struct sc_catalogue		*older;
};

static void
sc_catalogue_free(void *p)
{
	struct sc_catalogue *k = p, *next;

	for (; k != NULL; k = next) {
		next = k->older;
		arena_clear(&k->a);
		free(k);
	}
}

/* Flow step type id in the catalogue k, or NULL. */
static const struct repo_sc_flow_type *
sc_catalogue_find(const struct sc_catalogue *k, int32_t id)
{
	size_t i;

	for (i = 0; k != NULL && i < k->n; i++)
		if (k->types[i].id == id)
			return &k->types[i];
	return NULL;
}

/* Flow step type id from the connection's catalogue (NULL: none). */
static int
sc_catalogue_type(struct db *db, int32_t id,
    const struct repo_sc_flow_type **out)
{
	struct sc_catalogue *k = db_cache(db, REPO_CACHE_SC_CATALOGUE), *old;
	int r;

	if ((*out = sc_catalogue_find(k, id)) != NULL)
		return 0;
	if (k == NULL) {
		if ((k = calloc(1, sizeof(*k))) == NULL)
			return -REPO_ERR_INTERNAL;
		arena_init(&k->a);
		db_cache_set(db, REPO_CACHE_SC_CATALOGUE, k, sc_catalogue_free);
	}
	/* What k held moves to old, which k keeps. */
	if ((old = calloc(1, sizeof(*old))) == NULL)
		return -REPO_ERR_INTERNAL;
	*old = *k;
	arena_init(&k->a);
	k->types = NULL;
	k->n = 0;
	k->older = old;
	if ((r = repo_sc_flow_types(db, &k->a, &k->types, &k->n)) != 0)
		return r;
	*out = sc_catalogue_find(k, id);
	return 0;
}

/* Whether row k of t starts a new value of column col (an id). */
static bool
starts(const struct db_text_rows *t, size_t k, size_t col)
{
	return k == 0 || db_text_i64(t, k, col) != db_text_i64(t, k - 1, col);
}

/*
 * The attributes of choice ch of a step of type ft: every attribute of
 * the type in its order, each with the value of rows lo..hi-1 of t (the
 * choice's, SC_FLOW_COLS from column o) that names it.
 */
static int
choice_attrs(struct arena *a, const struct db_text_rows *t, size_t o,
    size_t lo, size_t hi, const struct repo_sc_flow_type *ft,
    struct campaign_choice *ch)
{
	size_t i, k;

	if (ft == NULL || ft->nattrs == 0)
		return 0;
	if ((ch->attrs = arena_alloc(a, ft->nattrs *
	    sizeof(*ch->attrs))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < ft->nattrs; i++) {
		ch->attrs[i] = ft->attrs[i];
		ch->attrs[i].value = NULL;
		for (k = lo; k < hi; k++)
			if (db_text_str(t, k, o + 10) != NULL &&
			    db_text_i64(t, k, o + 10) == ft->attrs[i].id)
				ch->attrs[i].value = db_text_str(t, k, o + 11);
	}
	ch->nattrs = ft->nattrs;
	return 0;
}

/*
 * The flow in the rows of t (SC_FLOW_COLS from column o; rows whose
 * step is NULL are skipped) into *out and *n.
 */
static int
flow_of(struct db *db, struct arena *a, struct db_text_rows *t, size_t o,
    struct campaign_step **out, size_t *n)
{
	const size_t order[] = { o + 1, o + 4 };
	const struct repo_sc_flow_type *ft = NULL;
	struct campaign_step *steps, *st = NULL;
	struct campaign_choice *choices, *ch;
	size_t k, lo, ns = 0, nc = 0;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = db_text_sort(t, a, order, 2)) != 0)
		return r;
	/* A step's rows are adjacent, and so are a choice's. */
	for (k = 0; k < t->count; k++) {
		if (db_text_str(t, k, o) == NULL)
			continue;
		ns += starts(t, k, o);
		nc += db_text_str(t, k, o + 3) != NULL && starts(t, k, o + 3);
	}
	if (ns == 0)
		return 0;
	steps = arena_zalloc(a, ns * sizeof(*steps));
	choices = arena_zalloc(a, (nc + 1) * sizeof(*choices));
	if (steps == NULL || choices == NULL)
		return -REPO_ERR_INTERNAL;
	for (k = 0, ns = 0; k < t->count; k = lo) {
		lo = k + 1;
		if (db_text_str(t, k, o) == NULL)
			continue;
		if (starts(t, k, o)) {
			st = &steps[ns++];
			st->id = (int32_t)db_text_i64(t, k, o);
			st->position = (int)db_text_i64(t, k, o + 1);
			st->type_id = (int32_t)db_text_i64(t, k, o + 2);
			if ((r = sc_catalogue_type(db, st->type_id, &ft)) != 0)
				return r;
			st->type_name = ft != NULL ? ft->name : "";
		}
		if (db_text_str(t, k, o + 3) == NULL)
			continue;
		/* The choice's rows: k..lo-1. */
		while (lo < t->count && db_text_str(t, lo, o) != NULL &&
		    !starts(t, lo, o) && !starts(t, lo, o + 3))
			lo++;
		ch = choices++;
		if (st->choices == NULL)
			st->choices = ch;
		st->nchoices++;
		ch->id = (int32_t)db_text_i64(t, k, o + 3);
		ch->position = (int)db_text_i64(t, k, o + 4);
		ch->is_default = db_text_i64(t, k, o + 5) != 0;
		ch->cond_kind = db_text_str(t, k, o + 6);
		ch->cond_type_id = (int32_t)db_text_i64(t, k, o + 7);
		ch->cond_op = db_text_str(t, k, o + 8);
		ch->cond_vals = db_text_str(t, k, o + 9);
		if (ch->cond_kind != NULL && ((r = repo_sl_rule_name(db, a,
		    strcmp(ch->cond_kind, "activity") == 0, ch->cond_type_id,
		    &ch->cond_name)) != 0))
			return r;
		if (ch->cond_name != NULL && ch->cond_name[0] == '\0')
			ch->cond_name = NULL;
		if ((r = choice_attrs(a, t, o, k, lo, ft, ch)) != 0)
			return r;
	}
	*out = steps;
	*n = ns;
	return 0;
}

/* See repo_smart_campaigns.h. */
int
repo_sc_flow(struct db *db, struct arena *a, int32_t id,
    struct campaign_step **out, size_t *n)
{
	MYSQL_BIND in[1];
	struct db_text_rows t;
	int r;

	*out = NULL;
	*n = 0;
	bind_i32(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, SC_STMT_FLOW), in, a,
	    SC_FLOW_NCOLS, SC_FLOW_MAX_ROWS, "repo_sc_flow", &t)) != 0)
		return r;
	return flow_of(db, a, &t, 0, out, n);
}

/* See repo_smart_campaigns.h. */
int
repo_sc_get_with_flow(struct db *db, struct arena *a, int32_t id,
    const char *name, struct repo_sc *out, struct campaign_step **steps,
    size_t *n, struct repo_kept *kept)
{
	MYSQL_BIND in[1];
	struct db_text_rows t;
	unsigned long len = name != NULL ? strlen(name) : 0;
	int r;

	memset(out, 0, sizeof(*out));
	memset(kept, 0, sizeof(*kept));
	*steps = NULL;
	*n = 0;
	if (name != NULL)
		bind_str(&in[0], name, &len);
	else
		bind_i32(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, name != NULL ?
	    SC_STMT_GET_BY_NAME_KEPT : SC_STMT_GET_KEPT), in, a,
	    SC_NCOLS + REPO_KEPT_NCOLS, 1, "repo_sc_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	fill(&t, 0, out);
	repo_kept_fill(&t, 0, SC_NCOLS, kept);
	if (kept->json != NULL)
		return 0;
	/* Read after the versions: names at least as new as they are. */
	return repo_sc_flow(db, a, out->id, steps, n);
}

/* See repo_smart_campaigns.h. */
int
repo_sc_keep_flow(struct db *db, int32_t id, const struct repo_kept *k,
    const char *json, size_t len)
{
	return repo_kept_store(db, stmt(db, SC_STMT_KEEP), id, k, json, len,
	    "repo_sc_keep_flow");
}

/* The attributes of the types (n, by id) from the rows of k. */
static int
attach_attribs(struct arena *a, const struct db_text_rows *k,
    struct repo_sc_flow_type *types, size_t n)
{
	size_t i, j, m;

	for (i = 0; i < n; i++) {
		for (j = 0, m = 0; j < k->count; j++)
			if (db_text_i64(k, j, 0) == types[i].id)
				m++;
		if (m == 0)
			continue;
		if ((types[i].attrs = arena_zalloc(a, m *
		    sizeof(*types[i].attrs))) == NULL)
			return -REPO_ERR_INTERNAL;
		for (j = 0; j < k->count; j++)
			if (db_text_i64(k, j, 0) == types[i].id)
				attrib_fill(k, j, 1,
				    &types[i].attrs[types[i].nattrs++]);
	}
	return 0;
}

/* See repo_smart_campaigns.h. */
int
repo_sc_flow_types(struct db *db, struct arena *a,
    struct repo_sc_flow_type **out, size_t *n)
{
	struct db_text_rows t, k;
	struct repo_sc_flow_type *types;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, SC_STMT_TYPES), NULL, a, 2, 10000,
	    "repo_sc_flow_types", &t)) != 0 ||
	    (r = db_select_text(db, stmt(db, SC_STMT_ATTRIBS), NULL, a, 7,
	    100000, "repo_sc_flow_types", &k)) != 0)
		return r;
	if ((types = arena_zalloc(a, (t.count + 1) * sizeof(*types))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		types[i].id = (int32_t)db_text_i64(&t, i, 0);
		types[i].name = db_text_str(&t, i, 1);
	}
	if ((r = attach_attribs(a, &k, types, t.count)) != 0)
		return r;
	*out = types;
	*n = t.count;
	return 0;
}

/* See repo_smart_campaigns.h. */
int
repo_sc_flow_type(struct db *db, struct arena *a, int32_t id,
    struct repo_sc_flow_type *out)
{
	MYSQL_BIND in[1];
	struct db_text_rows t, k;
	int r;

	memset(out, 0, sizeof(*out));
	bind_i32(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, SC_STMT_TYPE), in, a, 2, 1,
	    "repo_sc_flow_type", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	out->id = (int32_t)db_text_i64(&t, 0, 0);
	out->name = db_text_str(&t, 0, 1);
	if ((r = db_select_text(db, stmt(db, SC_STMT_ATTRIBS_OF), in, a, 7,
	    1000, "repo_sc_flow_type", &k)) != 0)
		return r;
	return attach_attribs(a, &k, out, 1);
}

/* ---- Flow changes ----------------------------------------------------- */

static int	refuse(struct repo_sc_change *c, int e, const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));

/* Writes the reason of a refusal to c->msg; returns e. */
static int
refuse(struct repo_sc_change *c, int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
	va_end(ap);
	return e;
}

struct sc_change_tx {
	int32_t			 id;
	struct repo_sc_change	*c;
	int			 step_pos;
	int32_t			 choices[SC_MAX_CHOICES];
	bool			 defaults[SC_MAX_CHOICES];
	int			 nchoices;
	int			 choice_pos;	/* of c->choice_id, or -1 */
};

/* Finds step c->step_id of the campaign and reads its choices. */
static int
find_step(struct db *db, struct sc_change_tx *x)
{
	struct repo_sc_change *c = x->c;
	MYSQL_BIND in[2];
	struct db_text_rows t;
	struct arena a;
	int64_t pos = -1;
	size_t i;
	int r;

	bind_i32(&in[0], &c->step_id);
	bind_i32(&in[1], &x->id);
	if ((r = db_query_i64(db, stmt(db, SC_STMT_STEP_POS), in, &pos,
	    "repo_sc_change")) != 0)
		return r;
	if (pos < 0)
		return refuse(c, -REPO_ERR_NOT_FOUND, "%ld Flow step not found",
		    (long)c->step_id);
	x->step_pos = (int)pos;
	arena_init(&a);
	r = db_select_text(db, stmt(db, SC_STMT_CHOICE_IDS), in, &a, 2,
	    SC_MAX_CHOICES, "repo_sc_change", &t);
	x->nchoices = 0;
	x->choice_pos = -1;
	for (i = 0; r == 0 && i < t.count; i++) {
		x->choices[i] = (int32_t)db_text_i64(&t, i, 0);
		x->defaults[i] = db_text_i64(&t, i, 1) != 0;
		if (x->choices[i] == c->choice_id)
			x->choice_pos = (int)i;
		x->nchoices++;
	}
	arena_clear(&a);
	return r;
}

/* Finds step and choice; the choice must be there. */
static int
find_choice(struct db *db, struct sc_change_tx *x)
{
	int r;

	if ((r = find_step(db, x)) != 0)
		return r;
	if (x->choice_pos < 0)
		return refuse(x->c, -REPO_ERR_NOT_FOUND, "%ld Flow step choice "
		    "not found", (long)x->c->choice_id);
	return 0;
}

static int
add_step(struct db *db, struct sc_change_tx *x)
{
	struct repo_sc_change *c = x->c;
	MYSQL_BIND in[3];
	int64_t n = 0;
	int32_t pos = c->index, step, zero = 0, one = 1;
	int r;

	bind_i32(&in[0], &x->id);
	if ((r = db_query_i64(db, stmt(db, SC_STMT_STEP_COUNT), in, &n,
	    "repo_sc_change")) != 0)
		return r;
	if (n >= SC_MAX_STEPS)
		return refuse(c, -REPO_ERR_INVALID, "A flow has at most %d "
		    "steps", SC_MAX_STEPS);
	if (c->index < 0 || c->index > n)
		return refuse(c, -REPO_ERR_INVALID, "Index must be from 0 to "
		    "%ld", (long)n);
	bind_i32(&in[1], &pos);
	if ((r = db_exec(db, stmt(db, SC_STMT_STEP_SHIFT_UP), in,
	    "repo_sc_change")) != 0)
		return r;
	bind_i32(&in[2], &c->type_id);
	if ((r = db_exec(db, stmt(db, SC_STMT_STEP_INSERT), in,
	    "repo_sc_change")) != 0)
		return r;
	step = (int32_t)mysql_stmt_insert_id(stmt(db, SC_STMT_STEP_INSERT));
	c->step_id = step;
	bind_i32(&in[0], &step);
	bind_i32(&in[1], &zero);
	bind_i32(&in[2], &one);
	return db_exec(db, stmt(db, SC_STMT_CHOICE_INSERT), in,
	    "repo_sc_change");
}

static int
remove_step(struct db *db, struct sc_change_tx *x)
{
	MYSQL_BIND in[2];
	int32_t pos;
	int r;

	if ((r = find_step(db, x)) != 0)
		return r;
	pos = x->step_pos;
	bind_i32(&in[0], &x->c->step_id);
	if ((r = db_exec(db, stmt(db, SC_STMT_STEP_DELETE), in,
	    "repo_sc_change")) != 0)
		return r;
	bind_i32(&in[0], &x->id);
	bind_i32(&in[1], &pos);
	return db_exec(db, stmt(db, SC_STMT_STEP_SHIFT_DOWN), in,
	    "repo_sc_change");
}

static int
add_choice(struct db *db, struct sc_change_tx *x)
{
	MYSQL_BIND in[3];
	int32_t pos, zero = 0;
	int r;

	if ((r = find_step(db, x)) != 0)
		return r;
	if (x->nchoices >= SC_MAX_CHOICES)
		return refuse(x->c, -REPO_ERR_INVALID, "A flow step has at "
		    "most %d choices", SC_MAX_CHOICES);
	/* The new choice goes just above the default one. */
	pos = x->nchoices > 0 ? x->nchoices - 1 : 0;
	bind_i32(&in[0], &x->c->step_id);
	if ((r = db_exec(db, stmt(db, SC_STMT_CHOICE_DEFAULT_DOWN), in,
	    "repo_sc_change")) != 0)
		return r;
	bind_i32(&in[1], &pos);
	bind_i32(&in[2], &zero);
	if ((r = db_exec(db, stmt(db, SC_STMT_CHOICE_INSERT), in,
	    "repo_sc_change")) != 0)
		return r;
	x->c->choice_id = (int32_t)mysql_stmt_insert_id(stmt(db,
	    SC_STMT_CHOICE_INSERT));
	return 0;
}

static int
set_choice(struct db *db, struct sc_change_tx *x)
{
	struct repo_sc_change *c = x->c;
	MYSQL_BIND in[5];
	unsigned long kl = 0, ol = 0, vl = 0, al;
	size_t i;
	int r;

	if ((r = find_choice(db, x)) != 0)
		return r;
	if (c->set_cond && x->defaults[x->choice_pos])
		return refuse(c, -REPO_ERR_INVALID, "The default choice has no "
		    "condition");
	if (c->set_cond) {
		kl = strlen(c->cond_kind);
		ol = strlen(c->cond_op);
		vl = strlen(c->cond_vals);
		bind_str(&in[0], c->cond_kind, &kl);
		bind_i32(&in[1], &c->cond_type_id);
		bind_str(&in[2], c->cond_op, &ol);
		bind_str(&in[3], c->cond_vals, &vl);
		bind_i32(&in[4], &c->choice_id);
		if ((r = db_exec(db, stmt(db, SC_STMT_CHOICE_COND), in,
		    "repo_sc_change")) != 0)
			return r;
	}
	for (i = 0; i < c->nvalues; i++) {
		const struct repo_sc_value *v = &c->values[i];

		bind_i32(&in[0], &c->choice_id);
		bind_i32(&in[1], &v->id);
		if (v->value[0] == '\0') {
			r = db_exec(db, stmt(db, SC_STMT_ATTR_DELETE), in,
			    "repo_sc_change");
		} else {
			al = strlen(v->value);
			bind_str(&in[2], v->value, &al);
			r = db_exec(db, stmt(db, SC_STMT_ATTR_PUT), in,
			    "repo_sc_change");
		}
		if (r != 0)
			return r;
	}
	return 0;
}

static int
remove_choice(struct db *db, struct sc_change_tx *x)
{
	MYSQL_BIND in[2];
	int32_t pos;
	int r;

	if ((r = find_choice(db, x)) != 0)
		return r;
	if (x->defaults[x->choice_pos])
		return refuse(x->c, -REPO_ERR_INVALID, "The default choice "
		    "cannot be removed");
	pos = x->choice_pos;
	bind_i32(&in[0], &x->c->choice_id);
	if ((r = db_exec(db, stmt(db, SC_STMT_CHOICE_DELETE), in,
	    "repo_sc_change")) != 0)
		return r;
	bind_i32(&in[0], &x->c->step_id);
	bind_i32(&in[1], &pos);
	return db_exec(db, stmt(db, SC_STMT_CHOICE_SHIFT_DOWN), in,
	    "repo_sc_change");
}

static int
move_choice(struct db *db, struct sc_change_tx *x)
{
	struct repo_sc_change *c = x->c;
	MYSQL_BIND in[2];
	int32_t order[SC_MAX_CHOICES], pos;
	int i, k, r;

	if ((r = find_choice(db, x)) != 0)
		return r;
	if (campaign_move(x->choices, x->defaults, (size_t)x->nchoices,
	    c->choice_id, c->index, order, c->msg, sizeof(c->msg)) != 0)
		return -REPO_ERR_INVALID;
	k = x->nchoices;
	bind_i32(&in[0], &c->step_id);
	if ((r = db_exec(db, stmt(db, SC_STMT_CHOICE_NEGATE), in,
	    "repo_sc_change")) != 0)
		return r;
	for (i = 0; i < k; i++) {
		pos = i;
		bind_i32(&in[0], &pos);
		bind_i32(&in[1], &order[i]);
		if ((r = db_exec(db, stmt(db, SC_STMT_CHOICE_MOVE), in,
		    "repo_sc_change")) != 0)
			return r;
	}
	return 0;
}

static int
sc_change_tx(struct db *db, void *arg)
{
	struct sc_change_tx *x = arg;
	MYSQL_BIND in[1];
	bool active;
	int r;

	x->c->msg[0] = '\0';
	if ((r = repo_sc_lock(db, x->id, &active)) != 0)
		return r;
	switch (x->c->op) {
	case SC_OP_ADD_STEP:
		r = add_step(db, x);
		break;
	case SC_OP_REMOVE_STEP:
		r = remove_step(db, x);
		break;
	case SC_OP_ADD_CHOICE:
		r = add_choice(db, x);
		break;
	case SC_OP_SET_CHOICE:
		r = set_choice(db, x);
		break;
	case SC_OP_REMOVE_CHOICE:
		r = remove_choice(db, x);
		break;
	case SC_OP_MOVE_CHOICE:
		r = move_choice(db, x);
		break;
	default:
		r = -REPO_ERR_INTERNAL;
		break;
	}
	if (r != 0 || (r = repo_sc_usage_refresh(db, x->id, active)) != 0)
		return r;
	bind_i32(&in[0], &x->id);
	return db_exec(db, stmt(db, SC_STMT_TOUCH), in, "repo_sc_change");
}

/* See repo_smart_campaigns.h. */
int
repo_sc_change(struct db *db, int32_t id, struct repo_sc_change *c)
{
	struct sc_change_tx *x;
	int r;

	c->msg[0] = '\0';
	if ((x = calloc(1, sizeof(*x))) == NULL)
		return -REPO_ERR_INTERNAL;
	x->id = id;
	x->c = c;
	r = db_run_tx(db, sc_change_tx, x, false);
	free(x);
	return r;
}

/* ---- References ------------------------------------------------------- */

/* See repo_smart_campaigns.h. */
int
repo_sc_resolve(struct db *db, const char *data_type, const char *value,
    int32_t *id)
{
	MYSQL_BIND in[3];
	enum sc_stmt s;
	unsigned long len = strlen(value);
	int64_t v = 0, digits;
	int32_t num = -1;
	int r;

	*id = 0;
	if (strcmp(data_type, "email") == 0)
		s = SC_STMT_RESOLVE_EMAIL;
	else if (strcmp(data_type, "list") == 0)
		s = SC_STMT_RESOLVE_LIST;
	else if (strcmp(data_type, "program") == 0)
		s = SC_STMT_RESOLVE_PROGRAM;
	else if (strcmp(data_type, "campaign") == 0)
		s = SC_STMT_RESOLVE_CAMPAIGN;
	else
		return -REPO_ERR_NOT_FOUND;
	if (value[0] >= '0' && value[0] <= '9' &&
	    num_parse_i64(value, 1, INT32_MAX, &digits) == 0)
		num = (int32_t)digits;
	bind_i32(&in[0], &num);
	bind_str(&in[1], value, &len);
	bind_i32(&in[2], &num);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_query_i64(db, stmt(db, s), in, &v,
	    "repo_sc_resolve")) != 0)
		return r;
	if (v <= 0)
		return -REPO_ERR_NOT_FOUND;
	*id = (int32_t)v;
	return 0;
}

/* See repo_smart_campaigns.h. */
int
repo_sc_count_in_folder(struct db *db, int32_t folder_id, int64_t *n)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &folder_id);
	return db_query_i64(db, stmt(db, SC_STMT_COUNT_FOLDER), in, n,
	    "repo_sc_count_in_folder");
}
