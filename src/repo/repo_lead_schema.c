/*
 * Lead field schema changes (repo_lead_schema.h): Create Lead Fields adds
 * a typed column to lead and its lead_field row; Update Lead Field
 * changes a lead_field row.  Both bump lead_schema.version.
 *
 * DDL cannot take bound identifiers, so the ALTER TABLE text is built
 * here and sent with mysql_real_query: the only variable parts are the
 * column name, which must first pass repo_lead_schema_name_check (ASCII
 * letters, digits and '_', a letter first, at most 50 characters, no
 * reserved word), and a column type from the static table below; the
 * name is back-quoted as well.  No value is ever pasted.
 *
 * Order of the steps (docs/galera.md: DDL commits implicitly, runs in total
 * order on a cluster, and cannot be inside a transaction):
 *   1. refuse a name or display name the catalogue has (no case);
 *   2. ALTER TABLE lead ADD COLUMN (+ its index), one statement;
 *   3. INSERT the lead_field row and bump the version, one transaction.
 * A crash between 2 and 3 leaves a column without a row, which no reader
 * uses (readers name only catalogued columns).  When step 2 finds the
 * column already there (1060) and no row names it, the column is adopted
 * if its type is the one asked for, so retrying the request completes
 * the field; when two creates of one name race, both reach step 3 and
 * the primary key of lead_field lets exactly one row in.  A column is
 * never dropped: a concurrent create may be adopting it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mysql.h>
#include <mysqld_error.h>

#include "db/bind.h"
#include "db/pool.h"
#include "bounds.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_lead_schema.h"
#include "util/log.h"
#include "util/text.h"

enum lead_schema_stmt {
	LEAD_SCHEMA_STMT_COUNT_CONFLICTS,
	LEAD_SCHEMA_STMT_COUNT_INDEXES,
	LEAD_SCHEMA_STMT_GET_COLUMN,
	LEAD_SCHEMA_STMT_INSERT,
	LEAD_SCHEMA_STMT_UPDATE,
	LEAD_SCHEMA_STMT_UPDATE_VERSION,
	LEAD_SCHEMA_STMT__MAX
};

/*
 * name and display_name compare without case: both columns are
 * utf8mb4_general_ci (migration 0004), and a column's collation wins
 * over a parameter's.
 */
static const char *const sql[LEAD_SCHEMA_STMT__MAX] = {
	[LEAD_SCHEMA_STMT_COUNT_CONFLICTS] =
	    "SELECT COUNT(CASE WHEN name = ? THEN 1 END), "
	    "COUNT(CASE WHEN display_name = ? THEN 1 END) FROM lead_field "
	    "WHERE name = ? OR display_name = ?",
	[LEAD_SCHEMA_STMT_COUNT_INDEXES] =
	    "SELECT COUNT(DISTINCT INDEX_NAME) FROM "
	    "information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() "
	    "AND TABLE_NAME = 'lead'",
	[LEAD_SCHEMA_STMT_GET_COLUMN] =
	    "SELECT c.DATA_TYPE, (SELECT COUNT(*) FROM "
	    "information_schema.STATISTICS s WHERE "
	    "s.TABLE_SCHEMA = c.TABLE_SCHEMA AND s.TABLE_NAME = c.TABLE_NAME "
	    "AND s.COLUMN_NAME = c.COLUMN_NAME) "
	    "FROM information_schema.COLUMNS c WHERE "
	    "c.TABLE_SCHEMA = DATABASE() AND c.TABLE_NAME = 'lead' AND "
	    "c.COLUMN_NAME = ?",
	[LEAD_SCHEMA_STMT_INSERT] =
	    "INSERT INTO lead_field (name, display_name, data_type, length, "
	    "description, soap_name, read_only, searchable, indexed, "
	    "is_custom, is_api_created, is_hidden, is_html_encoding, "
	    "is_sensitive, crm_managed, created_at, updated_at) "
	    "VALUES (?, ?, ?, ?, ?, NULL, 0, ?, ?, 1, 1, ?, ?, ?, 0, "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	[LEAD_SCHEMA_STMT_UPDATE] =
	    "UPDATE lead_field SET "
	    "display_name = IF(? <> 0, ?, display_name), "
	    "description = IF(? <> 0, ?, description), "
	    "is_hidden = IF(? <> 0, ?, is_hidden), "
	    "is_html_encoding = IF(? <> 0, ?, is_html_encoding), "
	    "is_sensitive = IF(? <> 0, ?, is_sensitive), "
	    "updated_at = UTC_TIMESTAMP() WHERE name = ?",
	[LEAD_SCHEMA_STMT_UPDATE_VERSION] =
	    "UPDATE lead_schema SET version = version + 1 WHERE id = 1",
};

const struct db_stmt_set repo_lead_schema_sql = {
	.name = "lead_schema",
	.sql = sql,
	.n = LEAD_SCHEMA_STMT__MAX,
};

/*
 * The column of each type a custom field may have, as the standard
 * fields of migration 0004 map them; strings are TEXT (lengths are the
 * service's to check) and searchable ones get an index on a prefix.
 * Email compares without case, like the standard email column.  ddl NULL:
 * Create Lead Fields does not make this type.
 */
static const struct col_type {
	const char	*ddl;		/* column definition */
	const char	*data_type;	/* information_schema DATA_TYPE */
	const char	*prefix;	/* index prefix, "" for none */
	int32_t		 length;	/* lead_field.length, 0 = NULL */
} col_types[LF_TYPE__MAX] = {
	[LF_STRING] = { "TEXT NULL", "text", "(191)", 255 },
	[LF_EMAIL] = { "TEXT CHARACTER SET utf8mb4 "
	    "COLLATE utf8mb4_general_ci NULL", "text", "(191)", 255 },
	[LF_PHONE] = { "TEXT NULL", "text", "(191)", 255 },
	[LF_URL] = { "TEXT NULL", "text", "(191)", 255 },
	[LF_INTEGER] = { "INT NULL", "int", "", 0 },
	[LF_SCORE] = { "INT NULL", "int", "", 0 },
	[LF_FLOAT] = { "DOUBLE NULL", "double", "", 0 },
	[LF_CURRENCY] = { "DOUBLE NULL", "double", "", 0 },
	[LF_PERCENT] = { "DOUBLE NULL", "double", "", 0 },
	[LF_BOOLEAN] = { "TINYINT(1) NOT NULL DEFAULT 0", "tinyint", "", 0 },
	[LF_DATE] = { "DATE NULL", "date", "", 0 },
	[LF_DATETIME] = { "DATETIME NULL", "datetime", "", 0 },
};

/*
 * MariaDB 10.11's reserved words (those a column cannot be named without
 * quotes), lower case, in strcasecmp order for bsearch.  Refused as field
 * names although back-quoting would make them work: every tool that
 * reads the lead table would otherwise have to quote them.
 */
static const char *const reserved[] = {
	"accessible", "add", "all", "alter", "analyze", "and", "as", "asc",
	"asensitive", "before", "between", "bigint", "binary", "blob", "both",
	"by", "call", "cascade", "case", "change", "char", "character",
	"check", "collate", "column", "condition", "constraint", "continue",
	"convert", "create", "cross", "current_date", "current_role",
	"current_time", "current_timestamp", "current_user", "cursor",
	"databases", "day_hour", "day_microsecond", "day_minute", "day_second",
	"dec", "decimal", "declare", "default", "delayed", "delete",
	"delete_domain_id", "desc", "describe", "deterministic", "distinct",
	"distinctrow", "div", "do_domain_ids", "double", "drop", "dual",
	"each", "else", "elseif", "enclosed", "escaped", "except", "exists",
	"exit", "explain", "false", "fetch", "float", "float4", "float8",
	"for", "force", "foreign", "from", "fulltext", "grant", "group",
	"having", "high_priority", "hour_microsecond", "hour_minute",
	"hour_second", "if", "ignore", "ignore_domain_ids", "in", "index",
	"infile", "inner", "inout", "insensitive", "insert", "int", "int1",
	"int2", "int3", "int4", "int8", "integer", "intersect", "interval",
	"into", "is", "iterate", "join", "key", "keys", "kill", "leading",
	"leave", "left", "like", "limit", "linear", "lines", "load",
	"localtime", "localtimestamp", "lock", "long", "longblob", "longtext",
	"loop", "low_priority", "master_demote_to_replica",
	"master_demote_to_slave", "master_ssl_verify_server_cert", "match",
	"maxvalue", "mediumblob", "mediumint", "mediumtext", "middleint",
	"minute_microsecond", "minute_second", "mod", "modifies", "natural",
	"no_write_to_binlog", "not", "null", "numeric", "offset", "on",
	"optimize", "optionally", "or", "order", "out", "outer", "outfile",
	"over", "page_checksum", "parse_vcol_expr", "partition", "portion",
	"precision", "primary", "procedure", "purge", "range", "read",
	"read_write", "reads", "real", "recursive", "ref_system_id",
	"references", "regexp", "release", "rename", "repeat", "replace",
	"require", "resignal", "restrict", "return", "returning", "revoke",
	"right", "rlike", "row_number", "rows", "schemas",
	"second_microsecond", "select", "sensitive", "separator", "set",
	"show", "signal", "smallint", "spatial", "specific", "sql",
	"sql_big_result", "sql_calc_found_rows", "sql_small_result",
	"sqlexception", "sqlstate", "sqlwarning", "ssl", "starting",
	"stats_auto_recalc", "stats_persistent", "stats_sample_pages",
	"straight_join", "table", "terminated", "then", "tinyblob", "tinyint",
	"tinytext", "to", "trailing", "trigger", "true", "undo", "union",
	"unique", "unlock", "unsigned", "update", "usage", "use", "using",
	"utc_date", "utc_time", "utc_timestamp", "values", "varbinary",
	"varchar", "varcharacter", "varying", "when", "where", "while", "with",
	"write", "xor", "year_month", "zerofill"
};

#define XSTR(x)	STR(x)
#define STR(x)	#x

static const char *const name_reasons[LF_NAME_ERR__MAX] = {
	[LF_NAME_OK] = "valid",
	[LF_NAME_EMPTY] = "must not be empty",
	[LF_NAME_TOO_LONG] = "must be at most " XSTR(MAX_FIELD_NAME_CHARS)
	    " characters",
	[LF_NAME_FIRST] = "must start with a letter",
	[LF_NAME_CHARS] = "may contain only letters, digits and underscores",
	[LF_NAME_RESERVED] = "is a reserved word",
};

static MYSQL_STMT *
stmt(struct db *db, enum lead_schema_stmt s)
{
	return db_stmt(db, REPO_LEAD_SCHEMA, (int)s);
}

static int
cmp_reserved(const void *key, const void *elem)
{
	return strcasecmp(key, *(const char *const *)elem);
}

static bool
is_letter(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* See repo_lead_schema.h. */
enum lf_name_err
repo_lead_schema_name_check(const char *name, size_t len)
{
	char copy[MAX_FIELD_NAME_CHARS + 1];
	unsigned char c;
	size_t i;

	if (name == NULL || len == 0)
		return LF_NAME_EMPTY;
	if (!is_letter((unsigned char)name[0]))
		return LF_NAME_FIRST;
	for (i = 1; i < len; i++) {
		c = (unsigned char)name[i];
		if (!is_letter(c) && !(c >= '0' && c <= '9') && c != '_')
			return LF_NAME_CHARS;
	}
	if (len > MAX_FIELD_NAME_CHARS)
		return LF_NAME_TOO_LONG;
	memcpy(copy, name, len);
	copy[len] = '\0';
	if (bsearch(copy, reserved, sizeof(reserved) / sizeof(reserved[0]),
	    sizeof(reserved[0]), cmp_reserved) != NULL)
		return LF_NAME_RESERVED;
	return LF_NAME_OK;
}

/* See repo_lead_schema.h. */
const char *
repo_lead_schema_name_reason(enum lf_name_err e)
{
	if ((unsigned)e >= LF_NAME_ERR__MAX)
		return "is not valid";
	return name_reasons[e];
}

/* See repo_lead_schema.h. */
const char *
repo_lead_schema_display_check(const char *s, size_t len)
{
	size_t i;
	bool blank = true;
	unsigned char c;

	if (s == NULL || len == 0)
		return "must not be empty";
	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		/* C0 controls, DEL, and C1 controls (U+0080..U+009F). */
		if (c < 0x20 || c == 0x7f || (c == 0xc2 && i + 1 < len &&
		    (unsigned char)s[i + 1] <= 0x9f))
			return "must not contain control characters";
		if (strchr("<>\"'`\\;", c) != NULL)
			return "must not contain any of < > \" ' ` \\ ;";
		if (c != ' ')
			blank = false;
	}
	if (blank)
		return "must not be blank";
	if (text_chars(s, len) > LF_DISPLAY_BYTES)
		return "must be at most " XSTR(LF_DISPLAY_BYTES) " characters";
	return NULL;
}

/* See repo_lead_schema.h. */
const char *
repo_lead_schema_description_check(const char *s, size_t len)
{
	if (s == NULL)
		return NULL;
	if (memchr(s, '\0', len) != NULL)
		return "must not contain NUL characters";
	if (text_chars(s, len) > LF_DESCRIPTION_BYTES)
		return "must be at most " XSTR(LF_DESCRIPTION_BYTES)
		    " characters";
	return NULL;
}

/* See repo_lead_schema.h. */
bool
repo_lead_schema_is_searchable(enum lf_type t)
{
	return t == LF_STRING || t == LF_EMAIL || t == LF_INTEGER;
}

/* See repo_lead_schema.h. */
bool
repo_lead_schema_type_creatable(enum lf_type t)
{
	return (unsigned)t < LF_TYPE__MAX && col_types[t].ddl != NULL;
}

/* Every check of a new field, again; -REPO_ERR_INVALID when one fails. */
static int
check_new(const struct lead_field_new *f)
{
	if (f->name == NULL || f->display_name == NULL ||
	    repo_lead_schema_name_check(f->name, strlen(f->name)) !=
	    LF_NAME_OK ||
	    repo_lead_schema_display_check(f->display_name,
	    strlen(f->display_name)) != NULL ||
	    !repo_lead_schema_type_creatable(f->type) ||
	    (f->description != NULL && repo_lead_schema_description_check(
	    f->description, strlen(f->description)) != NULL))
		return -REPO_ERR_INVALID;
	return 0;
}

/* Fetches the one row of a statement with two integer columns. */
static int
fetch_two(struct db *db, MYSQL_STMT *st, int64_t *a, int64_t *b,
    const char *where)
{
	MYSQL_BIND res[2];
	my_bool nul[2];
	int e, r = 0;

	*a = *b = 0;
	bind_out_i64(&res[0], a, &nul[0]);
	bind_out_i64(&res[1], b, &nul[1]);
	if (mysql_stmt_bind_result(st, res) != 0)
		r = db_error(db, st, where);
	else if ((e = mysql_stmt_fetch(st)) == MYSQL_NO_DATA)
		r = -REPO_ERR_NOT_FOUND;
	else if (e != 0)
		r = db_error(db, st, where);
	mysql_stmt_free_result(st);
	return r;
}

/*
 * Whether the catalogue has a field named name or displayed as display
 * (both without case): *out LF_CONFLICT_NAME, _DISPLAY or _NONE.
 */
static int
find_conflict(struct db *db, const char *name, const char *display,
    enum lf_conflict *out)
{
	MYSQL_STMT *st = stmt(db, LEAD_SCHEMA_STMT_COUNT_CONFLICTS);
	MYSQL_BIND in[4];
	unsigned long nlen = strlen(name), dlen = strlen(display);
	int64_t by_name, by_display;
	int r;

	*out = LF_CONFLICT_NONE;
	bind_str(&in[0], name, &nlen);
	bind_str(&in[1], display, &dlen);
	bind_str(&in[2], name, &nlen);
	bind_str(&in[3], display, &dlen);
	if ((r = db_exec(db, st, in, "repo_lead_schema_insert")) != 0 ||
	    (r = fetch_two(db, st, &by_name, &by_display,
	    "repo_lead_schema_insert")) != 0)
		return r;
	if (by_name > 0)
		*out = LF_CONFLICT_NAME;
	else if (by_display > 0)
		*out = LF_CONFLICT_DISPLAY;
	return 0;
}

/* The number of indexes of the lead table. */
static int
count_indexes(struct db *db, int64_t *n)
{
	MYSQL_STMT *st = stmt(db, LEAD_SCHEMA_STMT_COUNT_INDEXES);
	MYSQL_BIND res[1];
	my_bool nul;
	int e, r;

	*n = 0;
	if ((r = db_exec(db, st, NULL, "repo_lead_schema_insert")) != 0)
		return r;
	bind_out_i64(&res[0], n, &nul);
	if (mysql_stmt_bind_result(st, res) != 0)
		r = db_error(db, st, "repo_lead_schema_insert");
	else if ((e = mysql_stmt_fetch(st)) != 0 && e != MYSQL_NO_DATA)
		r = db_error(db, st, "repo_lead_schema_insert");
	mysql_stmt_free_result(st);
	return r;
}

/*
 * The lead column named name: its DATA_TYPE into type (size bytes) and
 * whether an index covers it.  -REPO_ERR_NOT_FOUND when there is none.
 */
static int
get_column(struct db *db, const char *name, char *type, size_t size,
    bool *indexed)
{
	MYSQL_STMT *st = stmt(db, LEAD_SCHEMA_STMT_GET_COLUMN);
	MYSQL_BIND in[1], res[2];
	unsigned long nlen = strlen(name), tlen = 0;
	int64_t nidx = 0;
	my_bool nul[2];
	int e, r;

	type[0] = '\0';
	*indexed = false;
	bind_str(&in[0], name, &nlen);
	if ((r = db_exec(db, st, in, "repo_lead_schema_insert")) != 0)
		return r;
	bind_out_str(&res[0], type, size - 1, &tlen, &nul[0]);
	bind_out_i64(&res[1], &nidx, &nul[1]);
	if (mysql_stmt_bind_result(st, res) != 0)
		r = db_error(db, st, "repo_lead_schema_insert");
	else if ((e = mysql_stmt_fetch(st)) == MYSQL_NO_DATA)
		r = -REPO_ERR_NOT_FOUND;
	else if (e != 0 && e != MYSQL_DATA_TRUNCATED)
		r = db_error(db, st, "repo_lead_schema_insert");
	else {
		type[tlen < size - 1 ? tlen : size - 1] = '\0';
		*indexed = nidx > 0;
	}
	mysql_stmt_free_result(st);
	return r;
}

/*
 * The column of f was there already (1060).  Adopts it when no catalogue
 * row names it and its type is f's; *indexed tells whether it has an
 * index.  Otherwise -REPO_ERR_CONFLICT (LF_CONFLICT_NAME).
 */
static int
adopt_column(struct db *db, const struct lead_field_new *f, bool *indexed,
    enum lf_conflict *conflict)
{
	char type[32];
	int r;

	if ((r = find_conflict(db, f->name, f->display_name, conflict)) != 0)
		return r;
	if (*conflict != LF_CONFLICT_NONE)
		return -REPO_ERR_CONFLICT;
	if ((r = get_column(db, f->name, type, sizeof(type), indexed)) != 0)
		return r == -REPO_ERR_NOT_FOUND ? -REPO_ERR_INTERNAL : r;
	if (strcasecmp(type, col_types[f->type].data_type) != 0) {
		log_info("repo_lead_schema_insert: column %s is %s, not %s; "
		    "refused", f->name, type, col_types[f->type].data_type);
		*conflict = LF_CONFLICT_NAME;
		return -REPO_ERR_CONFLICT;
	}
	log_info("repo_lead_schema_insert: adopting column %s, which had no "
	    "catalogue row", f->name);
	return 0;
}

/*
 * Step 2: ALTER TABLE lead ADD COLUMN, with an index when *indexed.
 * Falls back to no index when the table has too many (1069, a
 * concurrent create took the last ones) and to the default algorithm
 * when INSTANT is refused.  XXX: an index build on a very large lead
 * table can outlast db_read_timeout; the client then sees a lost
 * connection (outcome unknown) while the server completes the ALTER,
 * and a retry of the request adopts the column.
 */
static int
add_column(struct db *db, const struct lead_field_new *f, bool *indexed,
    enum lf_conflict *conflict, bool *full)
{
	const struct col_type *ct = &col_types[f->type];
	MYSQL *conn = db_conn(db);
	bool instant = true;
	char ddl[512];
	unsigned int e;
	int attempt, n;

	for (attempt = 0; attempt < 3; attempt++) {
		if (*indexed)
			n = snprintf(ddl, sizeof(ddl), "ALTER TABLE lead WAIT "
			    XSTR(LEAD_DDL_WAIT_SECS) " ADD COLUMN `%s` %s, "
			    "ADD INDEX `lf_%s` (`%s`%s)", f->name, ct->ddl,
			    f->name, f->name, ct->prefix);
		else
			n = snprintf(ddl, sizeof(ddl), "ALTER TABLE lead WAIT "
			    XSTR(LEAD_DDL_WAIT_SECS) " ADD COLUMN `%s` %s%s",
			    f->name, ct->ddl,
			    instant ? ", ALGORITHM=INSTANT" : "");
		if (n < 0 || (size_t)n >= sizeof(ddl))
			return -REPO_ERR_INTERNAL;
		if (mysql_real_query(conn, ddl, (unsigned long)n) == 0)
			return 0;
		e = mysql_errno(conn);
		if (e == ER_DUP_FIELDNAME)
			return adopt_column(db, f, indexed, conflict);
		if (e == ER_TOO_MANY_KEYS && *indexed) {
			*indexed = false;
			continue;
		}
		if ((e == ER_ALTER_OPERATION_NOT_SUPPORTED ||
		    e == ER_ALTER_OPERATION_NOT_SUPPORTED_REASON) && instant &&
		    !*indexed) {
			instant = false;
			continue;
		}
		if (e == ER_TOO_MANY_FIELDS || e == ER_TOO_BIG_ROWSIZE) {
			log_err("repo_lead_schema_insert: %s: %u %s", f->name,
			    e, mysql_error(conn));
			*full = true;
			return -REPO_ERR_INVALID;
		}
		return db_error(db, NULL, "repo_lead_schema_insert");
	}
	return -REPO_ERR_INTERNAL;
}

/* Step 3's transaction. */
struct insert_tx {
	const struct lead_field_new	*f;
	bool				 indexed;
	enum lf_conflict		*conflict;
};

static int
insert_tx(struct db *db, void *arg)
{
	struct insert_tx *a = arg;
	const struct lead_field_new *f = a->f;
	const char *type = lf_type_name(f->type);
	MYSQL_BIND in[10];
	unsigned long nlen, dlen, tlen, desclen = 0;
	int32_t length = col_types[f->type].length;
	int32_t searchable, indexed, hidden, html, sensitive;
	int r;

	*a->conflict = LF_CONFLICT_NONE;
	nlen = strlen(f->name);
	dlen = strlen(f->display_name);
	tlen = strlen(type);
	searchable = repo_lead_schema_is_searchable(f->type);
	indexed = a->indexed;
	hidden = f->is_hidden;
	html = f->is_html_encoding;
	sensitive = f->is_sensitive;
	bind_str(&in[0], f->name, &nlen);
	bind_str(&in[1], f->display_name, &dlen);
	bind_str(&in[2], type, &tlen);
	if (length > 0)
		bind_i32(&in[3], &length);
	else
		bind_null(&in[3]);
	if (f->description != NULL) {
		desclen = strlen(f->description);
		bind_str(&in[4], f->description, &desclen);
	} else
		bind_null(&in[4]);
	bind_i32(&in[5], &searchable);
	bind_i32(&in[6], &indexed);
	bind_i32(&in[7], &hidden);
	bind_i32(&in[8], &html);
	bind_i32(&in[9], &sensitive);
	r = db_exec(db, stmt(db, LEAD_SCHEMA_STMT_INSERT), in,
	    "repo_lead_schema_insert");
	if (r == -REPO_ERR_CONFLICT) {
		/* Which key: a racing create of the name, or the display. */
		if (find_conflict(db, f->name, f->display_name,
		    a->conflict) != 0 || *a->conflict == LF_CONFLICT_NONE)
			*a->conflict = LF_CONFLICT_NAME;
		return r;
	}
	if (r != 0)
		return r;
	return db_exec(db, stmt(db, LEAD_SCHEMA_STMT_UPDATE_VERSION), NULL,
	    "repo_lead_schema_insert");
}

/* See repo_lead_schema.h. */
int
repo_lead_schema_insert(struct db *db, const struct lead_field_new *f,
    enum lf_conflict *conflict, bool *full)
{
	struct insert_tx tx;
	int64_t nindex = 0;
	bool indexed = false;
	int r;

	*conflict = LF_CONFLICT_NONE;
	*full = false;
	if ((r = check_new(f)) != 0 || (r = db_ensure(db)) != 0)
		goto out;
	if ((r = find_conflict(db, f->name, f->display_name, conflict)) != 0)
		goto out;
	if (*conflict != LF_CONFLICT_NONE) {
		r = -REPO_ERR_CONFLICT;
		goto out;
	}
	if (repo_lead_schema_is_searchable(f->type)) {
		if ((r = count_indexes(db, &nindex)) != 0)
			goto out;
		indexed = nindex < MAX_LEAD_INDEXES;
	}
	if ((r = add_column(db, f, &indexed, conflict, full)) != 0)
		goto out;
	tx.f = f;
	tx.indexed = indexed;
	tx.conflict = conflict;
	r = db_run_tx(db, insert_tx, &tx, false);
out:
	return r;
}

/* Update Lead Field's transaction. */
struct update_tx {
	const char			*name;
	const struct lead_field_change	*ch;
};

static int
update_tx(struct db *db, void *arg)
{
	struct update_tx *a = arg;
	const struct lead_field_change *ch = a->ch;
	MYSQL_STMT *st = stmt(db, LEAD_SCHEMA_STMT_UPDATE);
	MYSQL_BIND in[11];
	unsigned long dlen = 0, desclen = 0, nlen = strlen(a->name);
	int32_t v[8];
	int r;

	v[0] = ch->set_display_name;
	v[1] = ch->set_description;
	v[2] = ch->set_hidden;
	v[3] = ch->is_hidden;
	v[4] = ch->set_html_encoding;
	v[5] = ch->is_html_encoding;
	v[6] = ch->set_sensitive;
	v[7] = ch->is_sensitive;
	bind_i32(&in[0], &v[0]);
	if (ch->set_display_name && ch->display_name != NULL) {
		dlen = strlen(ch->display_name);
		bind_str(&in[1], ch->display_name, &dlen);
	} else
		bind_null(&in[1]);
	bind_i32(&in[2], &v[1]);
	if (ch->set_description && ch->description != NULL) {
		desclen = strlen(ch->description);
		bind_str(&in[3], ch->description, &desclen);
	} else
		bind_null(&in[3]);
	bind_i32(&in[4], &v[2]);
	bind_i32(&in[5], &v[3]);
	bind_i32(&in[6], &v[4]);
	bind_i32(&in[7], &v[5]);
	bind_i32(&in[8], &v[6]);
	bind_i32(&in[9], &v[7]);
	bind_str(&in[10], a->name, &nlen);
	if ((r = db_exec(db, st, in, "repo_lead_schema_update")) != 0)
		return r;
	/* CLIENT_FOUND_ROWS: rows matched, changed or not. */
	if (mysql_stmt_affected_rows(st) == 0)
		return -REPO_ERR_NOT_FOUND;
	return db_exec(db, stmt(db, LEAD_SCHEMA_STMT_UPDATE_VERSION), NULL,
	    "repo_lead_schema_update");
}

/* See repo_lead_schema.h. */
int
repo_lead_schema_update(struct db *db, const char *name,
    const struct lead_field_change *ch)
{
	struct update_tx tx = { .name = name, .ch = ch };

	if (name == NULL || (ch->set_display_name && (ch->display_name ==
	    NULL || repo_lead_schema_display_check(ch->display_name,
	    strlen(ch->display_name)) != NULL)) ||
	    (ch->set_description && repo_lead_schema_description_check(
	    ch->description, ch->description != NULL ?
	    strlen(ch->description) : 0) != NULL))
		return -REPO_ERR_INVALID;
	/* The same values again give the same row: safe to re-run. */
	return db_run_tx(db, update_tx, &tx, true);
}
