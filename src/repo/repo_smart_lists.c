/*
 * Smart lists (repo_smart_lists.h).  A list's place is a folder or a
 * program (one of folder_id and program_id); its rules are rows by
 * position, their conditions rows by constraint.  A rule change locks
 * the list row (FOR UPDATE), reads the rule ids by position, changes
 * them and rewrites the custom logic through model/smartlist.c so that
 * its rule numbers follow, in one transaction re-run whole on deadlock.
 * The rules are named from the catalogue (repo_sl_catalogue.c).
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
#include "model/folder.h"
#include "model/smartlist.h"
#include "repo/repo.h"
#include "repo/repo_kept.h"
#include "repo/repo_sl_catalogue.h"
#include "repo/repo_smart_lists.h"
#include "util/arena.h"
#include "util/text.h"

enum sl_stmt {
	SL_STMT_GET,
	SL_STMT_GET_BY_NAME,
	SL_STMT_IN_PROGRAM,
	SL_STMT_GET_RULES,
	SL_STMT_GET_BY_NAME_RULES,
	SL_STMT_GET_KEPT,
	SL_STMT_GET_KEPT_BY_NAME,
	SL_STMT_KEEP,
	SL_STMT_BROWSE,
	SL_STMT_COUNTS,
	SL_STMT_INSERT,
	SL_STMT_COPY_RULES,
	SL_STMT_COPY_CONDS,
	SL_STMT_DELETE,
	SL_STMT_COUNT_FOLDER,
	SL_STMT_LOCK,
	SL_STMT_SHARE,
	SL_STMT_RULE_IDS,
	SL_STMT_SHIFT_UP,
	SL_STMT_SHIFT_DOWN,
	SL_STMT_RULE_INSERT,
	SL_STMT_COND_PUT,
	SL_STMT_RULE_DELETE,
	SL_STMT_RULES_DELETE,
	SL_STMT_NEGATE,
	SL_STMT_MOVE,
	SL_STMT_LOGIC,
	SL_STMT_COND_DELETE,
	SL_STMT_COND_GET,
	SL_STMT_CONSTRAINT,
	SL_STMT_DELETE_OWNED,
	SL_STMT_RENAME_OWNED,
	SL_STMT_CO_SHARE,
	SL_STMT_CO_CONSTRAINT,
	SL_STMT_CO_USES,
	SL_STMT_CO_USES_LOCK,
	SL_STMT_DELETE_IN_PROGRAM,
	SL_STMT_NAMED_IN_PROGRAM,
	SL_STMT_REMAP,
	SL_STMT_NAMES_PROGRAM,
	SL_STMT__MAX
};

/* The columns of one list with its place's workspace, from SL_FROM. */
#define SL_COLS \
	"s.id, s.name, s.description, s.folder_id, s.program_id, w.name, " \
	"s.filter_match_type, s.custom_rule_logic, s.created_at, " \
	"s.updated_at, s.campaign_id"
#define SL_NCOLS	11
#define SL_FROM \
	" FROM smart_list s JOIN workspace w ON w.id = s.workspace_id "

/*
 * A list's rules, each with its conditions (a row with NULL condition
 * columns when it has none; one row of NULLs when the list has no
 * rule), after SL_COLS: the names come from the catalogue the
 * connection keeps (sl_catalogue) and the lead fields, not from joins,
 * and the rows are sorted after the fetch (db_text_sort), as an ORDER
 * BY over two tables selecting a TEXT column would sort on disk.
 */
#define SL_RULE_COLS \
	", r.id, r.position, r.kind, r.rule_type_id, r.is_trigger, " \
	"r.is_negative, c.attribute_id, c.operator, c.vals"
#define SL_RULE_NCOLS	9
#define SL_RULES_FROM \
	"LEFT JOIN smart_list_rule r ON r.smart_list_id = s.id " \
	"LEFT JOIN smart_list_condition c ON c.rule_id = r.id "

/* The order of the rule rows: rule position, attribute id. */
static const size_t rules_order[] = { SL_NCOLS + 1, SL_NCOLS + 6 };

/*
 * What the smart list's rules make of its campaign (migration 0018):
 * the numbers of triggers and filters, and whether a trigger is
 * Campaign is Requested from the source Web Service API.
 */
#define SL_COUNTS \
	"trigger_count = (SELECT COUNT(*) FROM smart_list_rule r WHERE " \
	"r.smart_list_id = l.id AND r.is_trigger = 1), filter_count = " \
	"(SELECT COUNT(*) FROM smart_list_rule r WHERE r.smart_list_id = " \
	"l.id AND r.is_trigger = 0), api_requested = EXISTS (SELECT 1 FROM " \
	"smart_list_rule r JOIN smart_list_condition k ON k.rule_id = r.id " \
	"WHERE r.smart_list_id = l.id AND r.is_trigger = 1 AND r.kind = " \
	"'activity' AND r.rule_type_id = 100004 AND k.attribute_id = 1 AND " \
	"k.vals LIKE '%\"Web Service API\"%')"

static const char *const sql[SL_STMT__MAX] = {
	[SL_STMT_GET] = "SELECT " SL_COLS SL_FROM "WHERE s.id = ?",
	/* name_key: the name of a list no campaign owns. */
	[SL_STMT_GET_BY_NAME] = "SELECT " SL_COLS SL_FROM
	    "WHERE s.name_key = ?",
	[SL_STMT_IN_PROGRAM] = "SELECT id FROM smart_list WHERE program_id = ? "
	    "AND campaign_id IS NULL ORDER BY id LIMIT 1",
	[SL_STMT_GET_RULES] = "SELECT " SL_COLS SL_RULE_COLS SL_FROM
	    SL_RULES_FROM "WHERE s.id = ?",
	[SL_STMT_GET_BY_NAME_RULES] = "SELECT " SL_COLS SL_RULE_COLS SL_FROM
	    SL_RULES_FROM "WHERE s.name_key = ?",
	/* The list with its kept rules text (repo_kept.h). */
	[SL_STMT_GET_KEPT] = "SELECT " SL_COLS REPO_KEPT_COLS("s.rules")
	    SL_FROM REPO_KEPT_FROM "WHERE s.id = ?",
	[SL_STMT_GET_KEPT_BY_NAME] = "SELECT " SL_COLS
	    REPO_KEPT_COLS("s.rules") SL_FROM REPO_KEPT_FROM
	    "WHERE s.name_key = ?",
	[SL_STMT_KEEP] = REPO_KEPT_UPDATE("smart_list", "rules"),
	/* Written with every change of the list's rules, which also drops
	 * the kept text. */
	[SL_STMT_COUNTS] = "UPDATE smart_list l SET " SL_COUNTS ", "
	    REPO_KEPT_MOVED("l.rules") " WHERE l.id = ?",
	/* Parameters: folder id twice, program id twice, earliest twice,
	 * latest twice, limit, offset; NULL matches any. */
	[SL_STMT_BROWSE] =
	    "SELECT " SL_COLS SL_FROM
	    "WHERE s.campaign_id IS NULL AND "
	    "(? IS NULL OR s.folder_id = ?) AND "
	    "(? IS NULL OR s.program_id = ?) AND "
	    "(? IS NULL OR s.updated_at >= ?) AND "
	    "(? IS NULL OR s.updated_at <= ?) ORDER BY s.id LIMIT ? OFFSET ?",
	/* Parameters: name, description, folder, program, owning campaign,
	 * clone source (match type and logic from it, or the defaults). */
	[SL_STMT_INSERT] =
	    "INSERT INTO smart_list (name, description, folder_id, "
	    "program_id, campaign_id, filter_match_type, custom_rule_logic, "
	    "created_at, updated_at) SELECT ?, ?, ?, ?, ?, "
	    "COALESCE(MAX(o.filter_match_type), "
	    "'all'), MAX(o.custom_rule_logic), UTC_TIMESTAMP(), "
	    "UTC_TIMESTAMP() FROM (SELECT 1) one LEFT JOIN smart_list o ON "
	    "o.id = ?",
	/* Parameters: new list, source list. */
	[SL_STMT_COPY_RULES] =
	    "INSERT INTO smart_list_rule (smart_list_id, position, kind, "
	    "rule_type_id, is_trigger, is_negative) SELECT ?, position, kind, "
	    "rule_type_id, is_trigger, is_negative FROM smart_list_rule "
	    "WHERE smart_list_id = ?",
	/* Parameters: new list, source list. */
	[SL_STMT_COPY_CONDS] =
	    "INSERT INTO smart_list_condition (rule_id, attribute_id, "
	    "operator, vals) SELECT n.id, c.attribute_id, c.operator, c.vals "
	    "FROM smart_list_condition c JOIN smart_list_rule o ON "
	    "o.id = c.rule_id JOIN smart_list_rule n ON n.smart_list_id = ? "
	    "AND n.position = o.position WHERE o.smart_list_id = ?",
	/* A campaign's list goes with its campaign only. */
	[SL_STMT_DELETE] =
	    "DELETE FROM smart_list WHERE id = ? AND campaign_id IS NULL",
	[SL_STMT_COUNT_FOLDER] =
	    "SELECT COUNT(*) FROM smart_list WHERE folder_id = ?",
	[SL_STMT_LOCK] =
	    "SELECT filter_match_type, COALESCE(custom_rule_logic, '') FROM "
	    "smart_list WHERE id = ? FOR UPDATE",
	/* A clone's source, kept while it is copied. */
	[SL_STMT_SHARE] =
	    "SELECT filter_match_type FROM smart_list WHERE id = ? "
	    "LOCK IN SHARE MODE",
	[SL_STMT_RULE_IDS] =
	    "SELECT id, kind, rule_type_id FROM smart_list_rule WHERE "
	    "smart_list_id = ? ORDER BY position",
	[SL_STMT_SHIFT_UP] =
	    "UPDATE smart_list_rule SET position = position + 1 WHERE "
	    "smart_list_id = ? AND position >= ? ORDER BY position DESC",
	[SL_STMT_SHIFT_DOWN] =
	    "UPDATE smart_list_rule SET position = position - 1 WHERE "
	    "smart_list_id = ? AND position > ? ORDER BY position",
	[SL_STMT_RULE_INSERT] =
	    "INSERT INTO smart_list_rule (smart_list_id, position, kind, "
	    "rule_type_id, is_trigger, is_negative) VALUES (?, ?, ?, ?, ?, ?)",
	[SL_STMT_COND_PUT] =
	    "INSERT INTO smart_list_condition (rule_id, attribute_id, "
	    "operator, vals) VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE "
	    "operator = VALUES(operator), vals = VALUES(vals)",
	[SL_STMT_RULE_DELETE] = "DELETE FROM smart_list_rule WHERE id = ?",
	[SL_STMT_RULES_DELETE] =
	    "DELETE FROM smart_list_rule WHERE smart_list_id = ?",
	/* Parameters: list: every position negative before the moves. */
	[SL_STMT_NEGATE] =
	    "UPDATE smart_list_rule SET position = -position WHERE "
	    "smart_list_id = ?",
	[SL_STMT_MOVE] =
	    "UPDATE smart_list_rule SET position = ? WHERE id = ?",
	[SL_STMT_LOGIC] =
	    "UPDATE smart_list SET filter_match_type = ?, custom_rule_logic "
	    "= ?, updated_at = UTC_TIMESTAMP() WHERE id = ?",
	[SL_STMT_COND_DELETE] =
	    "DELETE FROM smart_list_condition WHERE rule_id = ? AND "
	    "attribute_id = ?",
	[SL_STMT_COND_GET] =
	    "SELECT operator FROM smart_list_condition WHERE rule_id = ? AND "
	    "attribute_id = ?",
	/* Parameters: rule type, constraint id. */
	[SL_STMT_CONSTRAINT] =
	    "SELECT operators, is_primary FROM sl_constraint WHERE "
	    "rule_type_id = ? AND id = ?",
	[SL_STMT_DELETE_OWNED] =
	    "DELETE FROM smart_list WHERE campaign_id = ?",
	[SL_STMT_RENAME_OWNED] =
	    "UPDATE smart_list SET name = ? WHERE campaign_id = ?",
	/* A rule change naming a type holds it (Delete Custom Object Type
	 * and approve lock it FOR UPDATE before they read its uses). */
	[SL_STMT_CO_SHARE] =
	    "SELECT id FROM co_type WHERE id = ? AND has_approved = 1 "
	    "LOCK IN SHARE MODE",
	/* Parameters: type id, constraint id. */
	[SL_STMT_CO_CONSTRAINT] =
	    "SELECT " REPO_SL_ATTR_OPS ", r.is_primary FROM co_field_ref r "
	    "JOIN co_field f ON f.type_id = r.type_id AND f.is_draft = 0 AND "
	    "f.name = r.name WHERE r.type_id = ? AND r.id = ?",
	/* The lists whose rules name type ? (twice: condition fields, rule
	 * type), with the field each condition reads. */
	[SL_STMT_CO_USES] =
	    "SELECT s.id, COALESCE(s.campaign_id, 0), s.name, p.name, "
	    "cr.name FROM smart_list_rule r JOIN smart_list s ON "
	    "s.id = r.smart_list_id LEFT JOIN program p ON "
	    "p.id = s.program_id LEFT JOIN smart_list_condition c ON "
	    "c.rule_id = r.id LEFT JOIN co_field_ref cr ON "
	    "cr.id = c.attribute_id AND cr.type_id = ? WHERE "
	    "r.kind = 'activity' AND r.rule_type_id = ? + " REPO_SL_CO_BASE
	    " ORDER BY s.id, cr.name",
	/* The same, locked, in the transaction of a type change. */
	[SL_STMT_CO_USES_LOCK] =
	    "SELECT r.smart_list_id, 0, '', NULL, cr.name FROM "
	    "smart_list_rule r LEFT JOIN smart_list_condition c ON "
	    "c.rule_id = r.id LEFT JOIN co_field_ref cr ON "
	    "cr.id = c.attribute_id AND cr.type_id = ? WHERE "
	    "r.kind = 'activity' AND r.rule_type_id = ? + " REPO_SL_CO_BASE
	    " LOCK IN SHARE MODE",
	/* The lists standing in program ? (a campaign's own goes with it). */
	[SL_STMT_DELETE_IN_PROGRAM] =
	    "DELETE FROM smart_list WHERE program_id = ? AND "
	    "campaign_id IS NULL",
	/*
	 * The first smart list (not a campaign's) outside program ? (?)
	 * whose conditions (Member of Program, Program Status) name that
	 * program, by name or id.
	 */
	[SL_STMT_NAMES_PROGRAM] =
	    "SELECT MIN(s.id) FROM smart_list s JOIN program p ON p.id = ? "
	    "JOIN smart_list_rule r ON r.smart_list_id = s.id "
	    "JOIN smart_list_condition c ON c.rule_id = r.id "
	    "JOIN sl_constraint k ON k.rule_type_id = r.rule_type_id "
	    "AND k.id = c.attribute_id WHERE s.campaign_id IS NULL AND "
	    "NOT (s.program_id <=> ?) AND k.data_type = 'program' AND "
	    "(JSON_CONTAINS(c.vals, JSON_QUOTE(p.name)) OR "
	    "JSON_CONTAINS(c.vals, JSON_QUOTE(CAST(p.id AS CHAR))))",
	[SL_STMT_NAMED_IN_PROGRAM] =
	    "SELECT id, name, description FROM smart_list "
	    "WHERE program_id = ? AND campaign_id IS NULL ORDER BY id",
	/*
	 * A condition of data type ? (list, form, program) of program ?'s
	 * lists (its campaigns' too) that names ? (an asset's name or id)
	 * names ? instead.  Parameters: pattern, value, program, data type,
	 * pattern.
	 */
	[SL_STMT_REMAP] =
	    "UPDATE smart_list_condition c JOIN smart_list_rule r "
	    "ON r.id = c.rule_id JOIN sl_constraint k "
	    "ON k.rule_type_id = r.rule_type_id AND k.id = c.attribute_id "
	    "JOIN smart_list s ON s.id = r.smart_list_id "
	    "SET c.vals = JSON_REPLACE(c.vals, "
	    "JSON_UNQUOTE(JSON_SEARCH(c.vals, 'one', ?)), ?) "
	    "WHERE s.program_id = ? AND k.data_type = ? "
	    "AND JSON_SEARCH(c.vals, 'one', ?) IS NOT NULL",
};

const struct db_stmt_set repo_smart_lists_sql = {
	.name = "smart_lists",
	.sql = sql,
	.n = SL_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum sl_stmt s)
{
	return db_stmt(db, REPO_SMART_LISTS, (int)s);
}

/* Row i of t (SL_COLS) into *out. */
static void
fill(const struct db_text_rows *t, size_t i, struct repo_sl *out)
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
	out->match_type = db_text_str(t, i, 6) != NULL ?
	    db_text_str(t, i, 6) : "all";
	out->custom_logic = db_text_str(t, i, 7);
	db_copy_text(out->created_at, sizeof(out->created_at),
	    db_text_str(t, i, 8), SIZE_MAX);
	db_copy_text(out->updated_at, sizeof(out->updated_at),
	    db_text_str(t, i, 9), SIZE_MAX);
	out->campaign_id = (int32_t)db_text_i64(t, i, 10);
}

/* ---- Reads ------------------------------------------------------------ */

/* The rules of list out from the rows of t (SL_COLS, SL_RULE_COLS). */
static int
rules_of(struct db *db, struct arena *a, struct db_text_rows *t,
    struct repo_sl *out)
{
	const size_t o = SL_NCOLS;
	struct smartlist_rule *rules, *ru = NULL;
	struct smartlist_cond *conds, *cd;
	size_t k, n = 0, m = 0;
	int r;

	if ((r = db_text_sort(t, a, rules_order, 2)) != 0)
		return r;
	/* A rule's rows are adjacent: they share its position. */
	for (k = 0; k < t->count; k++) {
		if (db_text_str(t, k, o) == NULL)
			continue;
		if (k == 0 || db_text_i64(t, k, o) != db_text_i64(t, k - 1, o))
			n++;
		if (db_text_str(t, k, o + 6) != NULL)
			m++;
	}
	if (n == 0)
		return 0;
	rules = arena_zalloc(a, n * sizeof(*rules));
	conds = arena_zalloc(a, (m + 1) * sizeof(*conds));
	if (rules == NULL || conds == NULL)
		return -REPO_ERR_INTERNAL;
	for (k = 0, n = 0; k < t->count; k++) {
		if (db_text_str(t, k, o) == NULL)
			continue;
		if (k == 0 ||
		    db_text_i64(t, k, o) != db_text_i64(t, k - 1, o)) {
			ru = &rules[n++];
			ru->id = (int32_t)db_text_i64(t, k, o);
			ru->position = (int)db_text_i64(t, k, o + 1);
			ru->activity = db_text_str(t, k, o + 2) != NULL &&
			    strcmp(db_text_str(t, k, o + 2), "activity") == 0;
			ru->type_id = (int32_t)db_text_i64(t, k, o + 3);
			ru->trigger = db_text_i64(t, k, o + 4) != 0;
			ru->negative = db_text_i64(t, k, o + 5) != 0;
		}
		if (db_text_str(t, k, o + 6) == NULL)
			continue;
		cd = conds++;
		if (ru->conds == NULL)
			ru->conds = cd;
		ru->nconds++;
		cd->attribute_id = (int32_t)db_text_i64(t, k, o + 6);
		cd->op = db_text_str(t, k, o + 7);
		cd->values_json = db_text_str(t, k, o + 8);
	}
	for (k = 0; k < n; k++)
		if ((r = repo_sl_name_rule(db, a, &rules[k])) != 0)
			return r;
	out->rules = rules;
	out->nrules = n;
	return 0;
}

/* The list s finds with in, with its rules when with_rules: one read. */
static int
get_one(struct db *db, struct arena *a, enum sl_stmt s, MYSQL_BIND *in,
    bool with_rules, struct repo_sl *out)
{
	struct db_text_rows t;
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, s), in, a, with_rules ?
	    SL_NCOLS + SL_RULE_NCOLS : SL_NCOLS, with_rules ?
	    SL_MAX_RULES * 17 : 1, "repo_sl_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	fill(&t, 0, out);
	return with_rules ? rules_of(db, a, &t, out) : 0;
}

/* See repo_smart_lists.h. */
int
repo_sl_in_program(struct db *db, int32_t program_id, int32_t *id)
{
	MYSQL_BIND in[1];
	int64_t v = 0;
	int r;

	*id = 0;
	bind_i32(&in[0], &program_id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_query_i64(db, stmt(db, SL_STMT_IN_PROGRAM), in, &v,
	    "repo_sl_in_program")) != 0)
		return r;
	*id = (int32_t)v;
	return 0;
}

/* See repo_smart_lists.h. */
int
repo_sl_get(struct db *db, struct arena *a, int32_t id, bool with_rules,
    struct repo_sl *out)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &id);
	return get_one(db, a, with_rules ? SL_STMT_GET_RULES : SL_STMT_GET, in,
	    with_rules, out);
}

/* See repo_smart_lists.h. */
int
repo_sl_get_by_name(struct db *db, struct arena *a, const char *name,
    bool with_rules, struct repo_sl *out)
{
	MYSQL_BIND in[1];
	unsigned long len = strlen(name);

	bind_str(&in[0], name, &len);
	return get_one(db, a, with_rules ? SL_STMT_GET_BY_NAME_RULES :
	    SL_STMT_GET_BY_NAME, in, with_rules, out);
}

/*
 * The list s (SL_STMT_GET_KEPT or _BY_NAME) finds with in, with its kept
 * rules text when current, else its rules read by id and the key they
 * were read under.  The versions are read before the rules and the
 * names, which are then at least as new as the key says.
 */
static int
get_reply(struct db *db, struct arena *a, enum sl_stmt s, MYSQL_BIND *in,
    struct repo_sl *out)
{
	struct repo_kept kept;
	struct db_text_rows t;
	MYSQL_BIND by_id[1];
	int32_t id;
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, s), in, a, SL_NCOLS +
	    REPO_KEPT_NCOLS, 1, "repo_sl_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	fill(&t, 0, out);
	repo_kept_fill(&t, 0, SL_NCOLS, &kept);
	if (kept.json == NULL) {
		id = out->id;
		bind_i32(&by_id[0], &id);
		if ((r = get_one(db, a, SL_STMT_GET_RULES, by_id, true,
		    out)) != 0)
			return r;
	}
	out->kept = kept;
	return 0;
}

/* See repo_smart_lists.h. */
int
repo_sl_get_reply(struct db *db, struct arena *a, int32_t id,
    bool with_rules, struct repo_sl *out)
{
	MYSQL_BIND in[1];

	if (!with_rules)
		return repo_sl_get(db, a, id, false, out);
	bind_i32(&in[0], &id);
	return get_reply(db, a, SL_STMT_GET_KEPT, in, out);
}

/* See repo_smart_lists.h. */
int
repo_sl_get_reply_by_name(struct db *db, struct arena *a, const char *name,
    bool with_rules, struct repo_sl *out)
{
	MYSQL_BIND in[1];
	unsigned long len = strlen(name);

	if (!with_rules)
		return repo_sl_get_by_name(db, a, name, false, out);
	bind_str(&in[0], name, &len);
	return get_reply(db, a, SL_STMT_GET_KEPT_BY_NAME, in, out);
}

/* See repo_smart_lists.h. */
int
repo_sl_keep_rules(struct db *db, int32_t id, const struct repo_kept *k,
    const char *json, size_t len)
{
	return repo_kept_store(db, stmt(db, SL_STMT_KEEP), id, k, json, len,
	    "repo_sl_keep_rules");
}

/* See repo_smart_lists.h. */
int
repo_sl_browse(struct db *db, struct arena *a, const struct repo_sl_query *q,
    struct repo_sl **out, size_t *n)
{
	struct db_text_rows t;
	struct repo_sl *items;
	MYSQL_BIND in[10];
	int32_t pid = (int32_t)q->place.id, limit = q->limit;
	int64_t offset = q->offset;
	unsigned long el = 0, ll = 0;
	bool any = q->place.id == 0;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	bind_i32_twice(&in[0], !any && q->place.type == FOLDER_T_FOLDER, &pid);
	bind_i32_twice(&in[2], !any && q->place.type == FOLDER_T_PROGRAM,
	    &pid);
	bind_str_twice(&in[4], q->earliest, &el);
	bind_str_twice(&in[6], q->latest, &ll);
	bind_i32(&in[8], &limit);
	bind_i64(&in[9], &offset);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, SL_STMT_BROWSE), in, a, SL_NCOLS,
	    (size_t)limit, "repo_sl_browse", &t)) != 0)
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

struct sl_insert {
	const struct repo_sl_new	*t;
	int32_t				 id;
};

static int	sl_insert_tx(struct db *, void *);

/* See repo_smart_lists.h. */
int
repo_sl_insert_in_tx(struct db *db, const struct repo_sl_new *t, int32_t *id)
{
	struct sl_insert x = { .t = t, .id = 0 };
	int r;

	*id = 0;
	if ((r = sl_insert_tx(db, &x)) == 0)
		*id = x.id;
	return r;
}

/*
 * Writes what the rules of list id make of its campaign (SL_COUNTS), in
 * the transaction of every change of its rules.
 */
static int
write_counts(struct db *db, int32_t id)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &id);
	return db_exec(db, stmt(db, SL_STMT_COUNTS), in, "repo_sl_counts");
}

static int
sl_insert_tx(struct db *db, void *arg)
{
	struct sl_insert *x = arg;
	const struct repo_sl_new *t = x->t;
	MYSQL_BIND in[6];
	unsigned long nlen = strlen(t->name), dlen = 0;
	int32_t place = (int32_t)t->place.id, src = t->clone_of;
	int32_t owner = t->campaign_id;
	char type[16];
	int r;

	if (src != 0) {
		bind_i32(&in[0], &src);
		if ((r = db_query_str(db, stmt(db, SL_STMT_SHARE), in, type,
		    sizeof(type), "repo_sl_insert")) != 0)
			return r;
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
	if (owner != 0)
		bind_i32(&in[4], &owner);
	else
		bind_null(&in[4]);
	bind_i32(&in[5], &src);
	if ((r = db_exec(db, stmt(db, SL_STMT_INSERT), in,
	    "repo_sl_insert")) != 0)
		return r;
	x->id = (int32_t)mysql_stmt_insert_id(stmt(db, SL_STMT_INSERT));
	if (src == 0)
		return 0;
	bind_i32(&in[0], &x->id);
	bind_i32(&in[1], &src);
	if ((r = db_exec(db, stmt(db, SL_STMT_COPY_RULES), in,
	    "repo_sl_insert")) != 0 ||
	    (r = db_exec(db, stmt(db, SL_STMT_COPY_CONDS), in,
	    "repo_sl_insert")) != 0)
		return r;
	return write_counts(db, x->id);
}

/* See repo_smart_lists.h. */
int
repo_sl_insert(struct db *db, const struct repo_sl_new *t, int32_t *id)
{
	struct sl_insert x = { .t = t, .id = 0 };
	int r;

	*id = 0;
	if ((r = db_run_tx(db, sl_insert_tx, &x, false)) == 0)
		*id = x.id;
	return r;
}

/* See repo_smart_lists.h. */
int
repo_sl_delete(struct db *db, int32_t id)
{
	MYSQL_BIND in[1];
	uint64_t rows;
	int r;

	bind_i32(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec_n(db, stmt(db, SL_STMT_DELETE), in, &rows,
	    "repo_sl_delete")) != 0)
		return r;
	return rows == 0 ? -REPO_ERR_NOT_FOUND : 0;
}

/* See repo_smart_lists.h. */
int
repo_sl_delete_owned(struct db *db, int32_t campaign_id)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &campaign_id);
	return db_exec(db, stmt(db, SL_STMT_DELETE_OWNED), in,
	    "repo_sl_delete_owned");
}

/* See repo_smart_lists.h. */
int
repo_sl_names_program(struct db *db, int32_t program, int32_t *id)
{
	return repo_program_first_id(db, stmt(db, SL_STMT_NAMES_PROGRAM),
	    program, 2, id, "repo_sl_names_program");
}

/* See repo_smart_lists.h. */
int
repo_sl_delete_in_program(struct db *db, int32_t program)
{
	return repo_program_exec(db, stmt(db, SL_STMT_DELETE_IN_PROGRAM),
	    program, "repo_sl_delete_in_program");
}

/* See repo_smart_lists.h. */
int
repo_sl_named_in_program(struct db *db, struct arena *a, int32_t program,
    struct repo_named **out, size_t *n)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &program);
	return repo_named_select(db, stmt(db, SL_STMT_NAMED_IN_PROGRAM), in,
	    a, 100000, out, n, "repo_sl_named_in_program");
}

/* See repo_smart_lists.h. */
int
repo_sl_remap(struct db *db, int32_t program, const char *data_type,
    const char *from, const char *to)
{
	MYSQL_BIND in[5];
	unsigned long dlen = strlen(data_type);
	char pat[2 * 1024 + 1];
	unsigned long plen, tlen = strlen(to);
	size_t i, k = 0;

	/* JSON_SEARCH matches as LIKE does: %, _ and the backslash escaped. */
	for (i = 0; from[i] != '\0'; i++) {
		if (k + 3 > sizeof(pat))
			return -REPO_ERR_INVALID;
		if (from[i] == '%' || from[i] == '_' || from[i] == '\\')
			pat[k++] = '\\';
		pat[k++] = from[i];
	}
	pat[k] = '\0';
	plen = k;
	bind_str(&in[0], pat, &plen);
	bind_str(&in[1], to, &tlen);
	bind_i32(&in[2], &program);
	bind_str(&in[3], data_type, &dlen);
	bind_str(&in[4], pat, &plen);
	return db_exec(db, stmt(db, SL_STMT_REMAP), in, "repo_sl_remap");
}

/* See repo_smart_lists.h. */
int
repo_sl_rename_owned(struct db *db, int32_t campaign_id, const char *name)
{
	MYSQL_BIND in[2];
	unsigned long len = strlen(name);

	bind_str(&in[0], name, &len);
	bind_i32(&in[1], &campaign_id);
	return db_exec(db, stmt(db, SL_STMT_RENAME_OWNED), in,
	    "repo_sl_rename_owned");
}

/* See repo_smart_lists.h. */
int
repo_sl_count_in_folder(struct db *db, int32_t folder_id, int64_t *n)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &folder_id);
	return db_query_i64(db, stmt(db, SL_STMT_COUNT_FOLDER), in, n,
	    "repo_sl_count_in_folder");
}

/* ---- Rule changes ----------------------------------------------------- */

struct sl_rules {
	int32_t		 ids[SL_MAX_RULES];
	bool		 activity[SL_MAX_RULES];
	int32_t		 type_ids[SL_MAX_RULES];
	int		 n;
	char		 match[16];
	char		 logic[SL_LOGIC_MAX_BYTES + 1];
};

struct sl_change_tx {
	int32_t			 id;
	struct repo_sl_change	*c;
	struct arena		*a;
	struct sl_rules		 now;
};

static int	refuse(struct repo_sl_change *c, int e, const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));

/* Writes the reason of a refusal to c->msg; returns e. */
static int
refuse(struct repo_sl_change *c, int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
	va_end(ap);
	return e;
}

/* Locks list x->id and reads its logic and rules into x->now. */
static int
lock_list(struct db *db, struct sl_change_tx *x)
{
	MYSQL_BIND in[1], res[2];
	struct db_text_rows t;
	unsigned long l0 = 0, l1 = 0;
	my_bool n0 = 0, n1 = 0;
	size_t i;
	int r;

	bind_i32(&in[0], &x->id);
	bind_out_str(&res[0], x->now.match, sizeof(x->now.match), &l0, &n0);
	bind_out_str(&res[1], x->now.logic, sizeof(x->now.logic), &l1, &n1);
	if ((r = db_exec(db, stmt(db, SL_STMT_LOCK), in,
	    "repo_sl_change")) != 0 ||
	    (r = db_fetch_one(db, stmt(db, SL_STMT_LOCK), res,
	    "repo_sl_change")) != 0)
		return r;
	x->now.match[l0 < sizeof(x->now.match) ? l0 :
	    sizeof(x->now.match) - 1] = '\0';
	x->now.logic[l1 < sizeof(x->now.logic) ? l1 :
	    sizeof(x->now.logic) - 1] = '\0';
	if ((r = db_select_text(db, stmt(db, SL_STMT_RULE_IDS), in, x->a, 3,
	    SL_MAX_RULES, "repo_sl_change", &t)) != 0)
		return r;
	for (i = 0; i < t.count; i++) {
		x->now.ids[i] = (int32_t)db_text_i64(&t, i, 0);
		x->now.activity[i] = db_text_str(&t, i, 1) != NULL &&
		    strcmp(db_text_str(&t, i, 1), "activity") == 0;
		x->now.type_ids[i] = (int32_t)db_text_i64(&t, i, 2);
	}
	x->now.n = (int)t.count;
	return 0;
}

/* The position (from 1) of rule id in x->now, or 0. */
static int
position_of(const struct sl_change_tx *x, int32_t id)
{
	int i;

	for (i = 0; i < x->now.n; i++)
		if (x->now.ids[i] == id)
			return i + 1;
	return 0;
}

/*
 * Holds custom object type co_id (SL_STMT_CO_SHARE) for the rest of the
 * transaction: a rule change naming a custom object filter runs after
 * the type's deletion or approval, or before it, never across.
 * -REPO_ERR_INVALID with msg when the type is gone.
 */
static int
hold_co_type(struct db *db, struct repo_sl_change *c, int32_t co_id)
{
	MYSQL_BIND in[1];
	int64_t got;
	int r;

	bind_i32(&in[0], &co_id);
	r = db_query_i64(db, stmt(db, SL_STMT_CO_SHARE), in, &got,
	    "repo_sl_change");
	if (r == -REPO_ERR_NOT_FOUND)
		return refuse(c, -REPO_ERR_INVALID, "Rule type %ld (activity) "
		    "not found", (long)co_id + SL_CO_RULE_BASE);
	return r;
}

/* Writes match type m and logic (NULL: none) of the list. */
static int
put_logic(struct db *db, int32_t id, const char *m, const char *logic)
{
	MYSQL_BIND in[3];
	unsigned long ml = strlen(m), ll = 0;

	bind_str(&in[0], m, &ml);
	if (logic != NULL && logic[0] != '\0') {
		ll = strlen(logic);
		bind_str(&in[1], logic, &ll);
	} else
		bind_null(&in[1]);
	bind_i32(&in[2], &id);
	return db_exec(db, stmt(db, SL_STMT_LOGIC), in, "repo_sl_change");
}

/*
 * The custom logic after the rules moved as map says (nold rules before):
 * written with the match type, which falls back to "all" when no rule of
 * the logic is left.  Other match types are written unchanged.
 */
static int
follow(struct db *db, struct sl_change_tx *x, const int *map, int nold)
{
	char out[SL_LOGIC_MAX_BYTES + 1];

	if (strcmp(x->now.match, "custom") != 0 || x->now.logic[0] == '\0')
		return put_logic(db, x->id, x->now.match, NULL);
	if (sl_logic_renumber(x->now.logic, map, nold, out) != 0)
		out[0] = '\0';
	return put_logic(db, x->id, out[0] != '\0' ? "custom" : "all", out);
}

static int
add_rule(struct db *db, struct sl_change_tx *x)
{
	struct repo_sl_change *c = x->c;
	MYSQL_BIND in[6];
	int map[SL_MAX_RULES];
	const char *kind = c->activity ? "activity" : "attribute";
	unsigned long kl = strlen(kind);
	int32_t pos = c->index, neg = c->negative, trig = c->trigger, rid;
	int i, r;

	if (x->now.n >= SL_MAX_RULES)
		return refuse(c, -REPO_ERR_INVALID, "A smart list has at most "
		    "%d rules", SL_MAX_RULES);
	if (c->index < 1 || c->index > x->now.n + 1)
		return refuse(c, -REPO_ERR_INVALID, "Index must be from 1 to "
		    "%ld", (long)x->now.n + 1);
	if (c->activity && c->type_id > SL_CO_RULE_BASE &&
	    (r = hold_co_type(db, c, c->type_id - SL_CO_RULE_BASE)) != 0)
		return r;
	bind_i32(&in[0], &x->id);
	bind_i32(&in[1], &pos);
	if ((r = db_exec(db, stmt(db, SL_STMT_SHIFT_UP), in,
	    "repo_sl_change")) != 0)
		return r;
	bind_str(&in[2], kind, &kl);
	bind_i32(&in[3], &c->type_id);
	bind_i32(&in[4], &trig);
	bind_i32(&in[5], &neg);
	if ((r = db_exec(db, stmt(db, SL_STMT_RULE_INSERT), in,
	    "repo_sl_change")) != 0)
		return r;
	rid = (int32_t)mysql_stmt_insert_id(stmt(db, SL_STMT_RULE_INSERT));
	c->rule_id = rid;
	if (c->primary_id != 0) {
		unsigned long ol = strlen(c->default_op), vl = 2;

		bind_i32(&in[0], &rid);
		bind_i32(&in[1], &c->primary_id);
		bind_str(&in[2], c->default_op, &ol);
		bind_str(&in[3], "[]", &vl);
		if ((r = db_exec(db, stmt(db, SL_STMT_COND_PUT), in,
		    "repo_sl_change")) != 0)
			return r;
	}
	for (i = 0; i < x->now.n; i++)
		map[i] = i + 1 < c->index ? i + 1 : i + 2;
	return follow(db, x, map, x->now.n);
}

static int
delete_rule(struct db *db, struct sl_change_tx *x)
{
	MYSQL_BIND in[2];
	int map[SL_MAX_RULES];
	int32_t pos = position_of(x, x->c->rule_id);
	int i, r;

	if (pos == 0)
		return refuse(x->c, -REPO_ERR_NOT_FOUND, "Rule %ld not found",
		    (long)x->c->rule_id);
	bind_i32(&in[0], &x->c->rule_id);
	if ((r = db_exec(db, stmt(db, SL_STMT_RULE_DELETE), in,
	    "repo_sl_change")) != 0)
		return r;
	bind_i32(&in[0], &x->id);
	bind_i32(&in[1], &pos);
	if ((r = db_exec(db, stmt(db, SL_STMT_SHIFT_DOWN), in,
	    "repo_sl_change")) != 0)
		return r;
	for (i = 0; i < x->now.n; i++)
		map[i] = i + 1 < pos ? i + 1 : i + 1 == pos ? 0 : i;
	return follow(db, x, map, x->now.n);
}

static int
reorder(struct db *db, struct sl_change_tx *x)
{
	MYSQL_BIND in[2];
	int map[SL_MAX_RULES];
	int32_t pos;
	int i, r;

	if (sl_reorder(x->now.ids, x->now.n, x->c->move_ids,
	    x->c->move_index, x->c->nmoves, map, x->c->msg) != 0)
		return -REPO_ERR_INVALID;
	bind_i32(&in[0], &x->id);
	if ((r = db_exec(db, stmt(db, SL_STMT_NEGATE), in,
	    "repo_sl_change")) != 0)
		return r;
	for (i = 0; i < x->now.n; i++) {
		pos = map[i];
		bind_i32(&in[0], &pos);
		bind_i32(&in[1], &x->now.ids[i]);
		if ((r = db_exec(db, stmt(db, SL_STMT_MOVE), in,
		    "repo_sl_change")) != 0)
			return r;
	}
	return follow(db, x, map, x->now.n);
}

static int
set_logic(struct db *db, struct sl_change_tx *x)
{
	char out[SL_LOGIC_MAX_BYTES + 1];

	if (strcmp(x->c->match_type, "custom") != 0)
		return put_logic(db, x->id, x->c->match_type, NULL);
	if (sl_logic_parse(x->c->logic, x->now.n, out, x->c->msg) != 0)
		return -REPO_ERR_INVALID;
	return put_logic(db, x->id, "custom", out);
}

/*
 * The operators of constraint attribute_id of the rule at pos: from the
 * catalogue; -REPO_ERR_NOT_FOUND with msg when the rule type has none.
 */
static int
constraint_ops(struct db *db, struct sl_change_tx *x, int pos, char *ops,
    size_t size, bool *primary)
{
	MYSQL_BIND in[2], res[2];
	struct repo_sl_rule_type rt;
	unsigned long ol = 0;
	int64_t prim = 0;
	my_bool n0 = 0, n1 = 0;
	int32_t aid = x->c->attribute_id, tid;
	enum sl_stmt s = SL_STMT_CONSTRAINT;
	int r;

	if (!x->now.activity[pos - 1]) {
		if (aid != x->now.type_ids[pos - 1])
			return refuse(x->c, -REPO_ERR_NOT_FOUND, "Constraint "
			    "%ld not found in the rule type", (long)aid);
		if ((r = repo_sl_rule_type(db, x->a, false, aid, &rt)) != 0)
			return r == -REPO_ERR_NOT_FOUND ? refuse(x->c, r,
			    "Constraint %ld not found in the rule type",
			    (long)aid) : r;
		(void)snprintf(ops, size, "%s", rt.cons[0].operators != NULL ?
		    rt.cons[0].operators : "is");
		*primary = true;
		return 0;
	}
	tid = x->now.type_ids[pos - 1];
	if (tid > SL_CO_RULE_BASE) {
		tid -= SL_CO_RULE_BASE;
		s = SL_STMT_CO_CONSTRAINT;
		if ((r = hold_co_type(db, x->c, tid)) != 0)
			return r;
	}
	bind_i32(&in[0], &tid);
	bind_i32(&in[1], &aid);
	bind_out_str(&res[0], ops, size, &ol, &n0);
	bind_out_i64(&res[1], &prim, &n1);
	if ((r = db_exec(db, stmt(db, s), in, "repo_sl_change")) != 0)
		return r;
	r = db_fetch_one(db, stmt(db, s), res, "repo_sl_change");
	if (r == -REPO_ERR_NOT_FOUND)
		return refuse(x->c, r, "Constraint %ld not found in the rule "
		    "type", (long)aid);
	if (r != 0)
		return r;
	ops[ol < size ? ol : size - 1] = '\0';
	*primary = prim != 0;
	return 0;
}

/* Whether op is one of the comma-separated ops. */
static bool
op_allowed(const char *ops, const char *op)
{
	size_t n = strlen(op);
	const char *p = ops;

	while (*p != '\0') {
		size_t m = strcspn(p, ",");

		if (m == n && strncmp(p, op, n) == 0)
			return true;
		p += m;
		if (*p == ',')
			p++;
	}
	return false;
}

static int
set_cond(struct db *db, struct sl_change_tx *x, bool remove)
{
	struct repo_sl_change *c = x->c;
	MYSQL_BIND in[4];
	char ops[256], kept[64];
	const char *op = kept;
	unsigned long ol, vl;
	bool primary = false;
	int pos = position_of(x, c->rule_id);
	int r;

	if (pos == 0)
		return refuse(c, -REPO_ERR_NOT_FOUND, "Rule %ld not found",
		    (long)c->rule_id);
	if ((r = constraint_ops(db, x, pos, ops, sizeof(ops), &primary)) != 0)
		return r;
	bind_i32(&in[0], &c->rule_id);
	bind_i32(&in[1], &c->attribute_id);
	if (remove) {
		uint64_t rows;

		if (primary)
			return refuse(c, -REPO_ERR_INVALID, "Constraint %ld is "
			    "the rule's primary constraint and cannot be "
			    "removed", (long)c->attribute_id);
		if ((r = db_exec_n(db, stmt(db, SL_STMT_COND_DELETE), in,
		    &rows, "repo_sl_change")) != 0)
			return r;
		if (rows == 0)
			return refuse(c, -REPO_ERR_NOT_FOUND, "Constraint %ld "
			    "is not set on the rule", (long)c->attribute_id);
		return put_logic(db, x->id, x->now.match, x->now.logic);
	}
	if (c->cond_op != NULL)
		op = c->cond_op;
	else {
		r = db_query_str(db, stmt(db, SL_STMT_COND_GET), in, kept,
		    sizeof(kept), "repo_sl_change");
		if (r == -REPO_ERR_NOT_FOUND)
			(void)snprintf(kept, sizeof(kept), "%.*s",
			    (int)strcspn(ops, ","), ops);
		else if (r != 0)
			return r;
	}
	/* The client's operator is quoted by the one echo policy. */
	if (!op_allowed(ops, op))
		return refuse(c, -REPO_ERR_INVALID, "Operator '%s' is not "
		    "one of the constraint's: %.60s", text_echo(x->a, op),
		    ops);
	ol = strlen(op);
	vl = strlen(c->values_json);
	bind_str(&in[2], op, &ol);
	bind_str(&in[3], c->values_json, &vl);
	if ((r = db_exec(db, stmt(db, SL_STMT_COND_PUT), in,
	    "repo_sl_change")) != 0)
		return r;
	return put_logic(db, x->id, x->now.match, x->now.logic);
}

static int
delete_all(struct db *db, struct sl_change_tx *x)
{
	MYSQL_BIND in[1];
	int r;

	bind_i32(&in[0], &x->id);
	if ((r = db_exec(db, stmt(db, SL_STMT_RULES_DELETE), in,
	    "repo_sl_change")) != 0)
		return r;
	return put_logic(db, x->id, strcmp(x->now.match, "custom") == 0 ?
	    "all" : x->now.match, NULL);
}

static int
sl_change_tx(struct db *db, void *arg)
{
	struct sl_change_tx *x = arg;
	int r;

	x->c->msg[0] = '\0';
	if ((r = lock_list(db, x)) != 0)
		return r;
	switch (x->c->op) {
	case SL_OP_ADD:
		r = add_rule(db, x);
		break;
	case SL_OP_DELETE:
		r = delete_rule(db, x);
		break;
	case SL_OP_DELETE_ALL:
		r = delete_all(db, x);
		break;
	case SL_OP_REORDER:
		r = reorder(db, x);
		break;
	case SL_OP_LOGIC:
		r = set_logic(db, x);
		break;
	case SL_OP_SET_COND:
		r = set_cond(db, x, false);
		break;
	case SL_OP_REMOVE_COND:
		r = set_cond(db, x, true);
		break;
	default:
		r = -REPO_ERR_INTERNAL;
		break;
	}
	return r != 0 ? r : write_counts(db, x->id);
}

/* See repo_smart_lists.h. */
int
repo_sl_change(struct db *db, int32_t id, struct repo_sl_change *c)
{
	struct arena a;
	struct sl_change_tx *x;
	int r;

	c->msg[0] = '\0';
	if ((x = calloc(1, sizeof(*x))) == NULL)
		return -REPO_ERR_INTERNAL;
	x->id = id;
	x->c = c;
	x->a = &a;
	arena_init(&a);
	r = db_run_tx(db, sl_change_tx, x, false);
	arena_clear(&a);
	free(x);
	return r;
}

/* ---- Uses of custom object types -------------------------------------- */

/* See repo_smart_lists.h. */
int
repo_sl_co_uses(struct db *db, struct arena *a, int32_t co_type_id,
    bool lock, struct repo_sl_co_use **out, size_t *n)
{
	struct db_text_rows t;
	struct repo_sl_co_use *items;
	MYSQL_BIND in[2];
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	bind_i32(&in[0], &co_type_id);
	bind_i32(&in[1], &co_type_id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, lock ? SL_STMT_CO_USES_LOCK :
	    SL_STMT_CO_USES), in, a, 5, REPO_SL_CO_USES_MAX,
	    "repo_sl_co_uses", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((items = arena_zalloc(a, t.count * sizeof(*items))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		items[i].list_id = (int32_t)db_text_i64(&t, i, 0);
		items[i].campaign_id = (int32_t)db_text_i64(&t, i, 1);
		items[i].name = db_text_str(&t, i, 2);
		items[i].program = db_text_str(&t, i, 3);
		items[i].field = db_text_str(&t, i, 4);
	}
	*out = items;
	*n = t.count;
	return 0;
}
