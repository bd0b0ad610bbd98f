/*
 * Smart list filters compiled to SQL (repo_sl_filter.h, docs/behaviour.md
 * §25): sl_filter_build and sl_filter_clear, pure code (no database), so
 * the unit tests and the fuzzer run it alone; repo_sl_filter.c runs what
 * it writes.
 *
 * Choices:
 *   - each filter rule becomes one parenthesised expression; the match
 *     type joins them with AND or OR, custom logic is the canonical form
 *     sl_logic_parse writes with each rule number replaced by its rule's
 *     expression (SQL's NOT, AND, OR bind as the logic's words do), so a
 *     number used twice repeats its expression and its bound values;
 *   - the text comes from the tables below and the lead schema's column
 *     names (quoted by repo_lead_sql_ident, which refuses a name that
 *     could leave its quotes), values
 *     are always bound, and a value-dependent choice only picks among
 *     fixed texts;
 *   - string comparisons ignore letter case (utf8mb4_general_ci), as the
 *     service's operators do; "contains" and "starts with" are LIKE with
 *     the value's own % _ ! escaped (ESCAPE '!');
 *   - activity filters are EXISTS (or, with Min. Number of Times, a
 *     COUNT) over activity by lead_id and type, which the activity_lead
 *     index serves; list and program membership are EXISTS over
 *     list_member and program_member by lead;
 *   - an asset value (list, program, form) is a name, or an id when it
 *     is a number: both are tried, against the asset's current row.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "model/leadfield.h"
#include "model/smartlist.h"
#include "repo/repo_lead_sql.h"
#include "repo/repo_sl_filter.h"
#include "util/buf.h"
#include "util/num.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

#define CI		" COLLATE utf8mb4_general_ci"
#define WHY_BYTES	160
#define MS_HOUR		INT64_C(3600000)
#define MS_DAY		(24 * MS_HOUR)

/* The rule types of mauto's own filters (db/migrations/0014). */
enum {
	RT_MEMBER_OF_LIST = 100001,
	RT_PROGRAM_STATUS = 100002,
	RT_MEMBER_OF_PROGRAM = 100003,
	RT_CAMPAIGN_REQUESTED = 100004
};

/* Built-in constraints of activity rules. */
enum {
	CON_DATE = -101,
	CON_TIMES = -102
};

/* What an activity constraint compares. */
enum ac_kind {
	AC_FORM,	/* primary_value_id: a form */
	AC_LIST,	/* primary_value_id: a static list */
	AC_PROGRAM,	/* primary_value_id: a program */
	AC_FIELD,	/* primary_value_id: a lead field's attr_id */
	AC_JSON		/* an attribute of the activity's JSON */
};

/*
 * The activity rule types mauto records (the writers of activity: Submit
 * Form, Sync Leads, list and program changes, Push Lead), with their
 * constraints beyond Date of Activity and Min. Number of Times.  The JSON
 * paths are the attribute names those writers store.
 */
static const struct act_con {
	int32_t		 type;
	int32_t		 con;
	enum ac_kind	 kind;
	const char	*path;		/* AC_JSON: a JSON path literal */
} act_cons[] = {
	{ 2, 1, AC_FORM, NULL },
	{ 2, 2, AC_JSON, "'$.\"Web Page\"'" },
	{ 12, 1, AC_JSON, "'$.\"Source Type\"'" },
	{ 13, 1, AC_FIELD, NULL },
	{ 13, 2, AC_JSON, "'$.\"New Value\"'" },
	{ 13, 3, AC_JSON, "'$.\"Old Value\"'" },
	{ 24, 1, AC_LIST, NULL },
	{ 25, 1, AC_LIST, NULL },
	{ 104, 1, AC_PROGRAM, NULL },
	{ 104, 2, AC_JSON, "'$.\"New Status\"'" },
	{ 104, 3, AC_JSON, "'$.\"Old Status\"'" },
	{ 145, 1, AC_PROGRAM, NULL },
};

static const int32_t act_types[] = { 2, 12, 13, 24, 25, 104, 145 };

/* The filter rule types mauto has no data for, and why. */
static const struct {
	int32_t		 type;
	const char	*why;
} no_data[] = {
	{ 1, "mauto records no web page visits" },
	{ 6, "mauto records no email sends" },
	{ 7, "mauto records no email deliveries" },
	{ 10, "mauto records no email opens" },
	{ 11, "mauto records no email link clicks" },
	{ RT_CAMPAIGN_REQUESTED, "it is a trigger, not a filter" },
};

/* An expression being written, with its bound values. */
struct gen {
	struct buf	 sql;
	struct slf_bind	*binds;
	size_t		 nbinds;
	size_t		 cap;
	bool		 over;		/* more values than SLF_MAX_BINDS */
};

/* The string values of a condition. */
struct vals {
	struct json_object	*root;
	const char		*v[SLF_MAX_VALUES];
	size_t			 len[SLF_MAX_VALUES];
	size_t			 n;
};

static void
gen_init(struct gen *g)
{
	memset(g, 0, sizeof(*g));
	buf_init(&g->sql, SLF_MAX_SQL_BYTES);
}

static void
binds_free(struct slf_bind *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free((char *)(uintptr_t)b[i].s);
	free(b);
}

static void
gen_clear(struct gen *g)
{
	buf_clear(&g->sql);
	binds_free(g->binds, g->nbinds);
	memset(g, 0, sizeof(*g));
}

/* A new bound value slot, or NULL past SLF_MAX_BINDS. */
static struct slf_bind *
gen_bind(struct gen *g, enum slf_kind k)
{
	struct slf_bind *b;

	if (g->nbinds >= SLF_MAX_BINDS) {
		g->over = true;
		return NULL;
	}
	if (g->nbinds == g->cap) {
		g->cap = g->cap == 0 ? 16 : g->cap * 2;
		g->binds = xrealloc(g->binds, g->cap * sizeof(*g->binds));
	}
	b = &g->binds[g->nbinds++];
	memset(b, 0, sizeof(*b));
	b->kind = k;
	return b;
}

static void
put(struct gen *g, const char *s)
{
	buf_adds(&g->sql, s);
}

/* "?" bound to the n bytes at s. */
static void
put_str(struct gen *g, const char *s, size_t n)
{
	struct slf_bind *b;

	put(g, "?");
	if ((b = gen_bind(g, SLF_STR)) != NULL)
		b->s = xstrndup(s, n);
}

/* "?" bound to the number i (SLF_I64, SLF_TIME) or d (SLF_DBL). */
static void
put_num(struct gen *g, enum slf_kind k, int64_t i, double d)
{
	struct slf_bind *b;

	put(g, "?");
	if ((b = gen_bind(g, k)) != NULL) {
		b->i = i;
		b->d = d;
	}
}

/* Appends src's text and a copy of its values. */
static void
put_gen(struct gen *g, const struct gen *src)
{
	struct slf_bind *b;
	size_t i;

	buf_add(&g->sql, src->sql.data, src->sql.len);
	for (i = 0; i < src->nbinds; i++)
		if ((b = gen_bind(g, src->binds[i].kind)) != NULL) {
			*b = src->binds[i];
			if (b->s != NULL)
				b->s = xstrdup(b->s);
		}
}

/* "?,?,?" bound to every value of vs. */
static void
put_str_list(struct gen *g, const struct vals *vs)
{
	size_t i;

	for (i = 0; i < vs->n; i++) {
		if (i > 0)
			put(g, ",");
		put_str(g, vs->v[i], vs->len[i]);
	}
}

/* A LIKE pattern: pre, the value with % _ ! escaped by !, then "%". */
static void
put_like(struct gen *g, bool pre, const char *s, size_t n)
{
	struct slf_bind *b;
	char *p;
	size_t i, k = 0;

	put(g, "?");
	if ((b = gen_bind(g, SLF_STR)) == NULL)
		return;
	p = xmalloc(2 * n + 3);
	if (pre)
		p[k++] = '%';
	for (i = 0; i < n; i++) {
		if (s[i] == '%' || s[i] == '_' || s[i] == '!')
			p[k++] = '!';
		p[k++] = s[i];
	}
	p[k++] = '%';
	p[k] = '\0';
	b->s = p;
}

static void
vals_clear(struct vals *vs)
{
	json_object_put(vs->root);
	memset(vs, 0, sizeof(*vs));
}

/*
 * Reads a condition's values (a JSON array of strings).  On -1 nothing is
 * left to clear.
 */
static int
vals_read(const struct smartlist_cond *cd, struct vals *vs, char *why)
{
	struct json_object *v;
	size_t i, n;

	memset(vs, 0, sizeof(*vs));
	if (cd->values_json == NULL || cd->values_json[0] == '\0')
		return 0;
	vs->root = json_tokener_parse(cd->values_json);
	if (vs->root == NULL || !json_object_is_type(vs->root,
	    json_type_array)) {
		(void)snprintf(why, WHY_BYTES, "its values are not a list");
		vals_clear(vs);
		return -1;
	}
	if ((n = json_object_array_length(vs->root)) > SLF_MAX_VALUES) {
		(void)snprintf(why, WHY_BYTES, "a condition has more than %d "
		    "values", SLF_MAX_VALUES);
		vals_clear(vs);
		return -1;
	}
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(vs->root, i);
		if (!json_object_is_type(v, json_type_string)) {
			(void)snprintf(why, WHY_BYTES, "a value is not a "
			    "string");
			vals_clear(vs);
			return -1;
		}
		vs->v[i] = json_object_get_string(v);
		vs->len[i] = (size_t)json_object_get_string_len(v);
	}
	vs->n = n;
	return 0;
}

static bool
op_is(const char *op, const char *word)
{
	return op != NULL && strcasecmp(op, word) == 0;
}

/* The operator as a message shows it. */
static const char *
op_text(const char *op)
{
	return op != NULL ? op : "";
}

/* why: op is not one mauto evaluates here; -1. */
static int
bad_op(char *why, const char *op)
{
	(void)snprintf(why, WHY_BYTES, "operator '%s' is not evaluated",
	    op_text(op));
	return -1;
}

static int
want_values(const struct vals *vs, size_t min, size_t max, const char *op,
    char *why)
{
	if (vs->n >= min && vs->n <= max)
		return 0;
	if (vs->n == 0)
		(void)snprintf(why, WHY_BYTES, "'%s' has no value",
		    op_text(op));
	else
		(void)snprintf(why, WHY_BYTES, "'%s' takes %zu value%s",
		    op_text(op), max, max == 1 ? "" : "s");
	return -1;
}

/* ---- Strings ---------------------------------------------------------- */

/* col (an expression text) compared by op with the values vs. */
static int
str_cond(struct gen *g, const char *col, const char *op,
    const struct vals *vs, char *why)
{
	size_t i;
	bool pre, neg;

	if (op_is(op, "is empty") || op_is(op, "is not empty")) {
		neg = op_is(op, "is not empty");
		put(g, "(");
		put(g, col);
		put(g, neg ? " IS NOT NULL AND " : " IS NULL OR ");
		put(g, col);
		put(g, neg ? " <> '')" : " = '')");
		return 0;
	}
	if (want_values(vs, 1, SLF_MAX_VALUES, op, why) != 0)
		return -1;
	if (op_is(op, "is") || op_is(op, "is not")) {
		neg = op_is(op, "is not");
		put(g, "(");
		if (neg) {
			put(g, col);
			put(g, " IS NULL OR ");
		}
		put(g, col);
		put(g, neg ? CI " NOT IN (" : CI " IN (");
		put_str_list(g, vs);
		put(g, "))");
		return 0;
	}
	if (op_is(op, "contains") || op_is(op, "not contains") ||
	    op_is(op, "starts with")) {
		neg = op_is(op, "not contains");
		pre = !op_is(op, "starts with");
		put(g, "(");
		if (neg) {
			put(g, col);
			put(g, " IS NULL OR NOT (");
		}
		for (i = 0; i < vs->n; i++) {
			if (i > 0)
				put(g, " OR ");
			put(g, col);
			put(g, CI " LIKE ");
			put_like(g, pre, vs->v[i], vs->len[i]);
			put(g, " ESCAPE '!'");
		}
		put(g, neg ? "))" : ")");
		return 0;
	}
	return bad_op(why, op);
}

/* ---- Numbers and booleans --------------------------------------------- */

static int
num_values(const struct vals *vs, double *d, char *why)
{
	size_t i;

	for (i = 0; i < vs->n; i++)
		if (num_parse_double(vs->v[i], vs->len[i], &d[i]) != 0) {
			(void)snprintf(why, WHY_BYTES, "value '%.*s' is not a "
			    "number", (int)(vs->len[i] > 60 ? 60 : vs->len[i]),
			    vs->v[i]);
			return -1;
		}
	return 0;
}

static int
num_cond(struct gen *g, const char *col, const char *op,
    const struct vals *vs, char *why)
{
	static const struct {
		const char	*op;
		const char	*sql;
	} cmp[] = {
		{ "greater than", " > " },
		{ "less than", " < " },
		{ "at least", " >= " },
		{ "at most", " <= " },
	};
	double d[SLF_MAX_VALUES], t;
	size_t i;

	if (op_is(op, "is empty") || op_is(op, "is not empty")) {
		put(g, "(");
		put(g, col);
		put(g, op_is(op, "is empty") ? " IS NULL)" : " IS NOT NULL)");
		return 0;
	}
	if (want_values(vs, 1, SLF_MAX_VALUES, op, why) != 0 ||
	    num_values(vs, d, why) != 0)
		return -1;
	if (op_is(op, "is") || op_is(op, "is not")) {
		put(g, "(");
		if (op_is(op, "is not")) {
			put(g, col);
			put(g, " IS NULL OR ");
		}
		put(g, col);
		put(g, op_is(op, "is not") ? " NOT IN (" : " IN (");
		for (i = 0; i < vs->n; i++) {
			if (i > 0)
				put(g, ",");
			put_num(g, SLF_DBL, 0, d[i]);
		}
		put(g, "))");
		return 0;
	}
	if (op_is(op, "between")) {
		if (want_values(vs, 2, 2, op, why) != 0)
			return -1;
		if (d[0] > d[1]) {
			t = d[0];
			d[0] = d[1];
			d[1] = t;
		}
		put(g, "(");
		put(g, col);
		put(g, " BETWEEN ");
		put_num(g, SLF_DBL, 0, d[0]);
		put(g, " AND ");
		put_num(g, SLF_DBL, 0, d[1]);
		put(g, ")");
		return 0;
	}
	for (i = 0; i < sizeof(cmp) / sizeof(cmp[0]); i++)
		if (op_is(op, cmp[i].op)) {
			if (want_values(vs, 1, 1, op, why) != 0)
				return -1;
			put(g, "(");
			put(g, col);
			put(g, cmp[i].sql);
			put_num(g, SLF_DBL, 0, d[0]);
			put(g, ")");
			return 0;
		}
	return bad_op(why, op);
}

static int
bool_cond(struct gen *g, const char *col, const char *op,
    const struct vals *vs, char *why)
{
	static const char *const yes[] = { "true", "yes", "1" };
	static const char *const no[] = { "false", "no", "0" };
	int v = -1;
	size_t i;

	if (!op_is(op, "is")) {
		return bad_op(why, op);
	}
	if (want_values(vs, 1, 1, op, why) != 0)
		return -1;
	for (i = 0; i < 3; i++) {
		if (strcasecmp(vs->v[0], yes[i]) == 0)
			v = 1;
		if (strcasecmp(vs->v[0], no[i]) == 0)
			v = 0;
	}
	if (v < 0) {
		(void)snprintf(why, WHY_BYTES, "value '%.*s' is not true or "
		    "false", (int)(vs->len[0] > 60 ? 60 : vs->len[0]),
		    vs->v[0]);
		return -1;
	}
	put(g, "(COALESCE(");
	put(g, col);
	put(g, ", 0) = ");
	put_num(g, SLF_I64, v, 0);
	put(g, ")");
	return 0;
}

/* ---- Dates ------------------------------------------------------------ */

/* now_ms less n calendar months (the day kept, or the month's last). */
static int64_t
months_back(int64_t now_ms, int64_t n)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };
	int64_t day = now_ms / MS_DAY, rest = now_ms % MS_DAY, y, m0;
	int m, d, last;

	if (rest < 0) {
		rest += MS_DAY;
		day--;
	}
	time_civil_from_days(day, &y, &m, &d);
	m0 = y * 12 + (m - 1) - n;
	y = m0 >= 0 ? m0 / 12 : -((-m0 + 11) / 12);
	m = (int)(m0 - y * 12) + 1;
	last = mdays[m - 1];
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		last = 29;
	if (d > last)
		d = last;
	return time_days_from_civil(y, m, d) * MS_DAY + rest;
}

/*
 * The start of "in past" value s ("7 days", "1 hour", "3 weeks",
 * "14 months", "1 year"), before now_ms.
 */
static int
past_start(const char *s, size_t n, int64_t now_ms, int64_t *from)
{
	static const struct {
		const char	*unit;
		int64_t		 ms;	/* 0: calendar months */
		int		 months;
	} units[] = {
		{ "hour", MS_HOUR, 0 },
		{ "day", MS_DAY, 0 },
		{ "week", 7 * MS_DAY, 0 },
		{ "month", 0, 1 },
		{ "year", 0, 12 },
	};
	size_t i = 0, k, ul;
	int64_t amount;

	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	if (i == 0 || num_parse_i64n(s, i, 1, SLF_MAX_PAST, &amount) != 0)
		return -1;
	while (i < n && s[i] == ' ')
		i++;
	for (k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
		ul = strlen(units[k].unit);
		if (n - i < ul || strncasecmp(s + i, units[k].unit, ul) != 0)
			continue;
		if (n - i != ul && !(n - i == ul + 1 &&
		    (s[n - 1] == 's' || s[n - 1] == 'S')))
			continue;
		if (units[k].ms != 0)
			*from = now_ms - amount * units[k].ms;
		else if (amount * units[k].months > SLF_MAX_PAST)
			return -1;
		else
			*from = months_back(now_ms, amount * units[k].months);
		return 0;
	}
	return -1;
}

/* A date value: its start in UTC ms, and whether it names a whole day. */
static int
date_value(const char *s, size_t n, int64_t *ms, bool *whole_day,
    char *why)
{
	int64_t secs, day;
	bool has_time;

	if (!time_parse_iso(s, n, &secs, &has_time, &day)) {
		(void)snprintf(why, WHY_BYTES, "value '%.*s' is not a date",
		    (int)(n > 60 ? 60 : n), s);
		return -1;
	}
	*whole_day = !has_time;
	*ms = has_time ? secs * 1000 : day * MS_DAY;
	return 0;
}

/*
 * col, a date or datetime column (date_only: a DATE), by op.  A date
 * value names its whole day (UTC); a date-time value its instant.
 */
static int
time_cond(struct gen *g, const char *col, bool date_only, const char *op,
    const struct vals *vs, int64_t now_ms, char *why)
{
	int64_t a, b;
	bool wa, wb;

	if (op_is(op, "is empty") || op_is(op, "is not empty")) {
		put(g, "(");
		put(g, col);
		put(g, op_is(op, "is empty") ? " IS NULL)" : " IS NOT NULL)");
		return 0;
	}
	if (op_is(op, "in past")) {
		if (want_values(vs, 1, 1, op, why) != 0)
			return -1;
		if (past_start(vs->v[0], vs->len[0], now_ms, &a) != 0) {
			(void)snprintf(why, WHY_BYTES, "'in past' value '%.*s' "
			    "is not a number of hours, days, weeks, months or "
			    "years", (int)(vs->len[0] > 60 ? 60 : vs->len[0]),
			    vs->v[0]);
			return -1;
		}
		/* A date column's day counts whole: from its start. */
		if (date_only)
			a -= ((a % MS_DAY) + MS_DAY) % MS_DAY;
		put(g, "(");
		put(g, col);
		put(g, " >= ");
		put_num(g, SLF_TIME, a, 0);
		put(g, " AND ");
		put(g, col);
		put(g, " <= ");
		put_num(g, SLF_TIME, now_ms, 0);
		put(g, ")");
		return 0;
	}
	if (op_is(op, "after") || op_is(op, "before")) {
		if (want_values(vs, 1, 1, op, why) != 0 ||
		    date_value(vs->v[0], vs->len[0], &a, &wa, why) != 0)
			return -1;
		put(g, "(");
		put(g, col);
		if (op_is(op, "before"))
			put(g, " < ");
		else if (wa) {
			a += MS_DAY;
			put(g, " >= ");
		} else
			put(g, " > ");
		put_num(g, SLF_TIME, a, 0);
		put(g, ")");
		return 0;
	}
	if (op_is(op, "between")) {
		if (want_values(vs, 2, 2, op, why) != 0 ||
		    date_value(vs->v[0], vs->len[0], &a, &wa, why) != 0 ||
		    date_value(vs->v[1], vs->len[1], &b, &wb, why) != 0)
			return -1;
		if (wb)
			b += MS_DAY;
		put(g, "(");
		put(g, col);
		put(g, " >= ");
		put_num(g, SLF_TIME, a, 0);
		put(g, " AND ");
		put(g, col);
		put(g, wb ? " < " : " <= ");
		put_num(g, SLF_TIME, b, 0);
		put(g, ")");
		return 0;
	}
	if (op_is(op, "in time frame"))
		(void)snprintf(why, WHY_BYTES, "'in time frame' is not "
		    "evaluated (its presets are not published)");
	else
		(void)bad_op(why, op);
	return -1;
}

/* ---- Lead attributes -------------------------------------------------- */

static int
by_attr(const void *key, const void *elem)
{
	int32_t k = *(const int32_t *)key;
	const struct lead_field *f = elem;

	return (k > f->attr_id) - (k < f->attr_id);
}

static const struct lead_field *
field_by_attr(const struct lead_schema *s, int32_t id)
{
	if (s == NULL || s->count == 0)
		return NULL;
	return bsearch(&id, s->fields, s->count, sizeof(*s->fields),
	    by_attr);
}

/* One condition of an attribute rule. */
static int
attr_cond(struct gen *g, const struct lead_schema *schema,
    const struct smartlist_cond *cd, int64_t now_ms, char *why)
{
	const struct lead_field *f;
	struct vals vs;
	struct buf cb;
	const char *col;
	int r = -1;

	memset(&vs, 0, sizeof(vs));
	buf_init(&cb, LF_NAME_BYTES + 16);
	if ((f = field_by_attr(schema, cd->attribute_id)) == NULL) {
		(void)snprintf(why, WHY_BYTES, "lead field %ld does not exist",
		    (long)cd->attribute_id);
		goto out;
	}
	if (!repo_lead_sql_ident(&cb, "l.", f->name) || !buf_ok(&cb)) {
		(void)snprintf(why, WHY_BYTES, "lead field %ld has a name "
		    "mauto does not quote", (long)cd->attribute_id);
		goto out;
	}
	col = cb.data;
	if (vals_read(cd, &vs, why) != 0)
		goto out;
	switch (f->type) {
	case LF_STRING:
	case LF_TEXT:
	case LF_EMAIL:
	case LF_PHONE:
	case LF_URL:
	case LF_FORMULA:
		r = str_cond(g, col, cd->op, &vs, why);
		break;
	case LF_INTEGER:
	case LF_SCORE:
	case LF_FLOAT:
	case LF_CURRENCY:
	case LF_PERCENT:
	case LF_REFERENCE:
		r = num_cond(g, col, cd->op, &vs, why);
		break;
	case LF_BOOLEAN:
		r = bool_cond(g, col, cd->op, &vs, why);
		break;
	case LF_DATE:
	case LF_DATETIME:
		r = time_cond(g, col, f->type == LF_DATE, cd->op, &vs, now_ms,
		    why);
		break;
	case LF_TYPE__MAX:
		(void)snprintf(why, WHY_BYTES, "its data type is unknown");
		break;
	}
out:
	vals_clear(&vs);
	buf_clear(&cb);
	return r;
}

static int
attr_rule(struct gen *g, const struct lead_schema *schema,
    const struct smartlist_rule *rule, int64_t now_ms, char *why)
{
	size_t i;

	if (rule->nconds == 0) {
		(void)snprintf(why, WHY_BYTES, "it has no condition");
		return -1;
	}
	for (i = 0; i < rule->nconds; i++) {
		if (i > 0)
			put(g, " AND ");
		if (attr_cond(g, schema, &rule->conds[i], now_ms, why) != 0)
			return -1;
	}
	return 0;
}

/* ---- Lists, programs -------------------------------------------------- */

/*
 * "(SELECT x.id FROM table x WHERE x.name IN (...) OR x.id IN (...))":
 * the assets vs names, by name or (a number) by id.
 */
static void
put_asset_set(struct gen *g, const char *table, const struct vals *vs)
{
	int64_t id;
	size_t i;
	bool first = true;

	put(g, "(SELECT x.id FROM ");
	put(g, table);
	put(g, " x WHERE x.name IN (");
	put_str_list(g, vs);
	put(g, ")");
	for (i = 0; i < vs->n; i++) {
		if (num_parse_i64n(vs->v[i], vs->len[i], 1, INT32_MAX,
		    &id) != 0)
			continue;
		put(g, first ? " OR x.id IN (" : ",");
		put_num(g, SLF_I64, id, 0);
		first = false;
	}
	put(g, first ? ")" : "))");
}

static const struct smartlist_cond *
cond_of(const struct smartlist_rule *rule, int32_t id)
{
	size_t i;

	for (i = 0; i < rule->nconds; i++)
		if (rule->conds[i].attribute_id == id)
			return &rule->conds[i];
	return NULL;
}

/* Member of List and Member of Program: in / not in. */
static int
member_rule(struct gen *g, const struct smartlist_rule *rule, char *why)
{
	const struct smartlist_cond *cd;
	bool list = rule->type_id == RT_MEMBER_OF_LIST;
	struct vals vs;
	int r = -1;

	memset(&vs, 0, sizeof(vs));
	if (rule->nconds != 1 || (cd = cond_of(rule, 1)) == NULL) {
		(void)snprintf(why, WHY_BYTES, "it takes exactly its %s "
		    "condition", list ? "List" : "Program");
		return -1;
	}
	if (vals_read(cd, &vs, why) != 0 ||
	    want_values(&vs, 1, SLF_MAX_VALUES, cd->op, why) != 0)
		goto out;
	if (!op_is(cd->op, "in") && !op_is(cd->op, "not in")) {
		(void)bad_op(why, cd->op);
		goto out;
	}
	put(g, op_is(cd->op, "in") ? "EXISTS (" : "NOT EXISTS (");
	put(g, list ? "SELECT 1 FROM list_member m WHERE m.lead_id = l.id "
	    "AND m.list_id IN " : "SELECT 1 FROM program_member m WHERE "
	    "m.lead_id = l.id AND m.program_id IN ");
	put_asset_set(g, list ? "static_list" : "program", &vs);
	put(g, ")");
	r = 0;
out:
	vals_clear(&vs);
	return r;
}

/*
 * Program Status: a member of the program with (or without) one of the
 * statuses; "Not in Program" among "is" values also takes the leads that
 * are not members.
 */
static int
status_rule(struct gen *g, const struct smartlist_rule *rule, char *why)
{
	const struct smartlist_cond *pc, *sc;
	struct vals pv, sv;
	bool neg, nip = false;
	size_t i;
	int r = -1;

	memset(&pv, 0, sizeof(pv));
	memset(&sv, 0, sizeof(sv));
	pc = cond_of(rule, 1);
	sc = cond_of(rule, 2);
	if (pc == NULL || rule->nconds != (sc != NULL ? 2u : 1u)) {
		(void)snprintf(why, WHY_BYTES, "it takes its Program and "
		    "Status conditions only");
		return -1;
	}
	if (vals_read(pc, &pv, why) != 0 ||
	    want_values(&pv, 1, SLF_MAX_VALUES, pc->op, why) != 0)
		goto out;
	if (!op_is(pc->op, "is")) {
		(void)bad_op(why, pc->op);
		goto out;
	}
	if (sc == NULL) {
		put(g, "EXISTS (SELECT 1 FROM program_member m WHERE "
		    "m.lead_id = l.id AND m.program_id IN ");
		put_asset_set(g, "program", &pv);
		put(g, ")");
		r = 0;
		goto out;
	}
	if (vals_read(sc, &sv, why) != 0 ||
	    want_values(&sv, 1, SLF_MAX_VALUES, sc->op, why) != 0)
		goto out;
	if (!op_is(sc->op, "is") && !op_is(sc->op, "is not")) {
		(void)bad_op(why, sc->op);
		goto out;
	}
	neg = op_is(sc->op, "is not");
	for (i = 0; i < sv.n; i++)
		if (strcasecmp(sv.v[i], "Not in Program") == 0)
			nip = true;
	put(g, neg ? "(NOT EXISTS (" : "(EXISTS (");
	put(g, "SELECT 1 FROM program_member m JOIN program_status s ON "
	    "s.program_id = m.program_id AND s.step = m.status_step WHERE "
	    "m.lead_id = l.id AND m.program_id IN ");
	put_asset_set(g, "program", &pv);
	put(g, " AND s.name" CI " IN (");
	put_str_list(g, &sv);
	put(g, "))");
	if (nip) {
		put(g, neg ? " AND EXISTS (" : " OR NOT EXISTS (");
		put(g, "SELECT 1 FROM program_member m WHERE m.lead_id = l.id "
		    "AND m.program_id IN ");
		put_asset_set(g, "program", &pv);
		put(g, ")");
	}
	put(g, ")");
	r = 0;
out:
	vals_clear(&pv);
	vals_clear(&sv);
	return r;
}

/* ---- Activities ------------------------------------------------------- */

static const struct act_con *
act_con(int32_t type, int32_t con)
{
	size_t i;

	for (i = 0; i < sizeof(act_cons) / sizeof(act_cons[0]); i++)
		if (act_cons[i].type == type && act_cons[i].con == con)
			return &act_cons[i];
	return NULL;
}

/* The attr_ids of the lead fields vs names (REST name, display name, id). */
static int
put_field_ids(struct gen *g, const struct lead_schema *schema,
    const struct vals *vs, char *why)
{
	const struct lead_field *f;
	int64_t id;
	size_t i, k;

	for (i = 0; i < vs->n; i++) {
		f = NULL;
		if (num_parse_i64n(vs->v[i], vs->len[i], 1, INT32_MAX,
		    &id) == 0)
			f = field_by_attr(schema, (int32_t)id);
		for (k = 0; f == NULL && schema != NULL && k < schema->count;
		    k++)
			if (strcasecmp(schema->fields[k].name, vs->v[i]) == 0 ||
			    strcasecmp(schema->fields[k].display_name,
			    vs->v[i]) == 0)
				f = &schema->fields[k];
		if (f == NULL) {
			(void)snprintf(why, WHY_BYTES, "lead field '%.*s' does "
			    "not exist", (int)(vs->len[i] > 60 ? 60 :
			    vs->len[i]), vs->v[i]);
			return -1;
		}
		if (i > 0)
			put(g, ",");
		put_num(g, SLF_I64, f->attr_id, 0);
	}
	return 0;
}

/* One constraint of an activity rule, inside its subquery. */
static int
act_cond(struct gen *g, const struct lead_schema *schema,
    const struct smartlist_rule *rule, const struct smartlist_cond *cd,
    int64_t now_ms, char *why)
{
	static const char *const tables[] = {
		[AC_FORM] = "form",
		[AC_LIST] = "static_list",
		[AC_PROGRAM] = "program",
	};
	const struct act_con *k;
	struct vals vs;
	bool neg;
	int r = -1;

	if (vals_read(cd, &vs, why) != 0)
		goto out;
	if (cd->attribute_id == CON_DATE) {
		put(g, " AND ");
		r = time_cond(g, "a.activity_date", false, cd->op, &vs, now_ms,
		    why);
		goto out;
	}
	if ((k = act_con(rule->type_id, cd->attribute_id)) == NULL) {
		(void)snprintf(why, WHY_BYTES, "constraint %ld is not "
		    "evaluated", (long)cd->attribute_id);
		goto out;
	}
	put(g, " AND ");
	if (k->kind == AC_JSON) {
		char col[64];

		(void)snprintf(col, sizeof(col), "JSON_VALUE(a.attributes, %s)",
		    k->path);
		r = str_cond(g, col, cd->op, &vs, why);
		goto out;
	}
	if (!op_is(cd->op, "is") && !op_is(cd->op, "is not")) {
		(void)bad_op(why, cd->op);
		goto out;
	}
	if (want_values(&vs, 1, SLF_MAX_VALUES, cd->op, why) != 0)
		goto out;
	neg = op_is(cd->op, "is not");
	put(g, neg ? "(a.primary_value_id IS NULL OR a.primary_value_id NOT "
	    "IN " : "(a.primary_value_id IN ");
	if (k->kind == AC_FIELD) {
		put(g, "(");
		if (put_field_ids(g, schema, &vs, why) != 0)
			goto out;
		put(g, ")");
	} else
		put_asset_set(g, tables[k->kind], &vs);
	put(g, ")");
	r = 0;
out:
	vals_clear(&vs);
	return r;
}

static bool
act_recorded(int32_t type)
{
	size_t i;

	for (i = 0; i < sizeof(act_types) / sizeof(act_types[0]); i++)
		if (act_types[i] == type)
			return true;
	return false;
}

static int
act_rule(struct gen *g, const struct lead_schema *schema,
    const struct smartlist_rule *rule, int64_t now_ms, char *why)
{
	const struct smartlist_cond *times = NULL;
	struct vals vs;
	int64_t n = 0;
	size_t i;

	for (i = 0; i < rule->nconds; i++)
		if (rule->conds[i].attribute_id == CON_TIMES)
			times = &rule->conds[i];
	if (times != NULL) {
		if (vals_read(times, &vs, why) != 0)
			return -1;
		if (!op_is(times->op, "at least") || vs.n != 1 ||
		    num_parse_i64n(vs.v[0], vs.len[0], 1, INT32_MAX,
		    &n) != 0) {
			(void)snprintf(why, WHY_BYTES, "Min. Number of Times "
			    "is not 'at least' a number");
			vals_clear(&vs);
			return -1;
		}
		vals_clear(&vs);
		put(g, "((SELECT COUNT(*)");
	} else
		put(g, "EXISTS (SELECT 1");
	put(g, " FROM activity a WHERE a.lead_id = l.id AND "
	    "a.activity_type_id = ");
	put_num(g, SLF_I64, rule->type_id, 0);
	for (i = 0; i < rule->nconds; i++)
		if (&rule->conds[i] != times && act_cond(g, schema, rule,
		    &rule->conds[i], now_ms, why) != 0)
			return -1;
	put(g, ")");
	if (times != NULL) {
		put(g, " >= ");
		put_num(g, SLF_I64, n, 0);
		put(g, ")");
	}
	return 0;
}

/* ---- Custom objects --------------------------------------------------- */

/*
 * One condition of a custom object filter on the record column of field
 * k (alias r).
 */
static int
co_cond(struct gen *g, const struct slf_co_field *k,
    const struct smartlist_cond *cd, int64_t now_ms, char *why)
{
	static const char *const strs[] = { "string", "text", "email",
	    "phone", "link" };
	static const char *const nums[] = { "integer", "float", "currency" };
	struct vals vs;
	struct buf cb;
	size_t i;
	int r = -1;

	memset(&vs, 0, sizeof(vs));
	buf_init(&cb, LF_NAME_BYTES + 16);
	if (!repo_lead_sql_ident(&cb, "r.", k->name) || !buf_ok(&cb)) {
		(void)snprintf(why, WHY_BYTES, "field '%.50s' has a name mauto "
		    "does not quote", k->name);
		goto out;
	}
	if (vals_read(cd, &vs, why) != 0)
		goto out;
	(void)snprintf(why, WHY_BYTES, "field '%.50s' is of type '%.16s'",
	    k->name, k->data_type);
	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (strcmp(k->data_type, strs[i]) == 0)
			r = str_cond(g, cb.data, cd->op, &vs, why);
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (strcmp(k->data_type, nums[i]) == 0)
			r = num_cond(g, cb.data, cd->op, &vs, why);
	if (strcmp(k->data_type, "boolean") == 0)
		r = bool_cond(g, cb.data, cd->op, &vs, why);
	if (strcmp(k->data_type, "date") == 0 ||
	    strcmp(k->data_type, "datetime") == 0)
		r = time_cond(g, cb.data, k->data_type[4] == '\0', cd->op, &vs,
		    now_ms, why);
out:
	vals_clear(&vs);
	buf_clear(&cb);
	return r;
}

/*
 * "Has <type>": a record of the type whose link field holds the lead's
 * key (id or email), meeting every condition.
 */
static int
co_rule(struct gen *g, const struct slf_co *co,
    const struct smartlist_rule *rule, int64_t now_ms, char *why)
{
	const struct slf_co_field *link = NULL, *k;
	int64_t type = (int64_t)rule->type_id - SL_CO_RULE_BASE;
	struct buf cb;
	char table[32];
	size_t i, j, nf = 0;
	int r = -1;

	buf_init(&cb, LF_NAME_BYTES + 16);
	if (co == NULL) {
		(void)snprintf(why, WHY_BYTES, "mauto does not evaluate "
		    "custom object filters without their catalogue");
		goto out;
	}
	for (i = 0; i < co->n; i++) {
		k = &co->fields[i];
		if (k->type_id != type)
			continue;
		nf++;
		if (strcmp(k->data_type, "link") == 0 && link == NULL &&
		    k->related_object != NULL &&
		    strcasecmp(k->related_object, "lead") == 0)
			link = k;
	}
	if (nf == 0) {
		(void)snprintf(why, WHY_BYTES, "custom object type %ld has no "
		    "approved record table", (long)type);
		goto out;
	}
	if (link == NULL || link->related_field == NULL ||
	    (strcasecmp(link->related_field, "id") != 0 &&
	    strcasecmp(link->related_field, "email") != 0)) {
		(void)snprintf(why, WHY_BYTES, "custom object type %ld has no "
		    "link to leads by id or email", (long)type);
		goto out;
	}
	if (!repo_lead_sql_ident(&cb, "r.", link->name) || !buf_ok(&cb)) {
		(void)snprintf(why, WHY_BYTES, "field '%.50s' has a name mauto "
		    "does not quote", link->name);
		goto out;
	}
	(void)snprintf(table, sizeof(table), "co_rec_%ld", (long)type);
	put(g, "EXISTS (SELECT 1 FROM ");
	put(g, table);
	put(g, " r WHERE ");
	put(g, cb.data);
	put(g, strcasecmp(link->related_field, "id") == 0 ? " = l.id" :
	    " = l.email");
	for (i = 0; i < rule->nconds; i++) {
		for (j = 0, k = NULL; k == NULL && j < co->n; j++)
			if (co->fields[j].type_id == type &&
			    co->fields[j].ref_id != 0 &&
			    co->fields[j].ref_id == rule->conds[i].attribute_id)
				k = &co->fields[j];
		if (k == NULL) {
			(void)snprintf(why, WHY_BYTES, "constraint %ld is not "
			    "an approved field",
			    (long)rule->conds[i].attribute_id);
			goto out;
		}
		put(g, " AND ");
		if (co_cond(g, k, &rule->conds[i], now_ms, why) != 0)
			goto out;
	}
	put(g, ")");
	r = 0;
out:
	buf_clear(&cb);
	return r;
}

/* ---- Rules and logic -------------------------------------------------- */

/* One filter rule into g (negative: under NOT); -1 with why. */
static int
rule_gen(struct gen *g, const struct lead_schema *schema,
    const struct slf_co *co, const struct smartlist_rule *rule,
    int64_t now_ms, char *why)
{
	size_t i;
	int r;

	put(g, rule->negative ? "NOT (" : "(");
	if (!rule->activity)
		r = attr_rule(g, schema, rule, now_ms, why);
	else if (rule->type_id > SL_CO_RULE_BASE)
		r = co_rule(g, co, rule, now_ms, why);
	else if (rule->type_id == RT_MEMBER_OF_LIST ||
	    rule->type_id == RT_MEMBER_OF_PROGRAM)
		r = member_rule(g, rule, why);
	else if (rule->type_id == RT_PROGRAM_STATUS)
		r = status_rule(g, rule, why);
	else if (act_recorded(rule->type_id))
		r = act_rule(g, schema, rule, now_ms, why);
	else {
		(void)snprintf(why, WHY_BYTES, "rule type %ld is not "
		    "evaluated", (long)rule->type_id);
		for (i = 0; i < sizeof(no_data) / sizeof(no_data[0]); i++)
			if (no_data[i].type == rule->type_id)
				(void)snprintf(why, WHY_BYTES, "%s",
				    no_data[i].why);
		r = -1;
	}
	put(g, ")");
	return r;
}

/*
 * The canonical logic expr (sl_logic_parse's form) with each number
 * replaced by its rule's expression, into g.
 */
static int
logic_gen(struct gen *g, const char *expr, const struct gen *parts,
    size_t n)
{
	int64_t k;
	size_t len;

	while (*expr != '\0') {
		if (*expr == '(' || *expr == ')' || *expr == ' ') {
			buf_addc(&g->sql, *expr++);
		} else if (strncmp(expr, "and", 3) == 0) {
			put(g, "AND");
			expr += 3;
		} else if (strncmp(expr, "or", 2) == 0) {
			put(g, "OR");
			expr += 2;
		} else if (strncmp(expr, "not", 3) == 0) {
			put(g, "NOT");
			expr += 3;
		} else {
			len = strspn(expr, "0123456789");
			if (len == 0 || num_parse_i64n(expr, len, 1,
			    (int64_t)n, &k) != 0)
				return -1;
			put_gen(g, &parts[k - 1]);
			expr += len;
		}
	}
	return 0;
}

/* See repo_sl_filter.h. */
int
sl_filter_build(const struct lead_schema *schema,
    const struct smartlist_rule *rules, size_t n, const char *match_type,
    const char *logic, int64_t now_ms, struct sl_filter *out, char *msg,
    size_t msg_size)
{
	return sl_filter_build_co(schema, NULL, rules, n, match_type, logic,
	    now_ms, out, msg, msg_size);
}

/* See repo_sl_filter.h. */
int
sl_filter_build_co(const struct lead_schema *schema, const struct slf_co *co,
    const struct smartlist_rule *rules, size_t n, const char *match_type,
    const char *logic, int64_t now_ms, struct sl_filter *out, char *msg,
    size_t msg_size)
{
	char canon[SL_LOGIC_MAX_BYTES + 1];
	struct gen *parts = NULL, g;
	char why[WHY_BYTES], lmsg[SL_MSG_BYTES];
	size_t i, nf = 0;
	bool custom = false, any = false;
	int r = -1;

	memset(out, 0, sizeof(*out));
	gen_init(&g);
	if (msg_size > 0)
		msg[0] = '\0';
	why[0] = '\0';
	if (n > SL_MAX_RULES) {
		(void)snprintf(msg, msg_size, "Smart list cannot be "
		    "evaluated: more than %d rules", SL_MAX_RULES);
		goto out;
	}
	if (match_type == NULL || strcmp(match_type, "all") == 0)
		;
	else if (strcmp(match_type, "any") == 0)
		any = true;
	else if (strcmp(match_type, "custom") == 0 && logic != NULL &&
	    logic[0] != '\0')
		custom = true;
	else {
		(void)snprintf(msg, msg_size, "Filter logic cannot be "
		    "evaluated: match type '%.16s' without logic",
		    match_type);
		goto out;
	}
	parts = xcalloc(n > 0 ? n : 1, sizeof(*parts));
	for (i = 0; i < n; i++) {
		gen_init(&parts[i]);
		if (rules[i].trigger) {
			put(&parts[i], "1");
			continue;
		}
		nf++;
		if (rule_gen(&parts[i], schema, co, &rules[i], now_ms,
		    why) == 0) {
			if (!parts[i].over && buf_ok(&parts[i].sql))
				continue;
			(void)snprintf(why, sizeof(why), "it passes the "
			    "bounds of a filter");
		}
		(void)snprintf(msg, msg_size, "Filter %d '%.80s' cannot be "
		    "evaluated: %s", (int)i + 1, rules[i].name != NULL ?
		    rules[i].name : "", why);
		goto out;
	}
	if (nf == 0)
		put(&g, "1");
	else if (custom) {
		if (sl_logic_parse(logic, (int)n, canon, lmsg) != 0 ||
		    logic_gen(&g, canon, parts, n) != 0) {
			(void)snprintf(msg, msg_size, "Filter logic cannot be "
			    "evaluated: %s", lmsg);
			goto out;
		}
	} else
		for (i = 0; i < n; i++) {
			if (rules[i].trigger)
				continue;
			if (g.sql.len > 0)
				put(&g, any ? " OR " : " AND ");
			put_gen(&g, &parts[i]);
		}
	if (g.over || !buf_ok(&g.sql)) {
		(void)snprintf(msg, msg_size, "Smart list cannot be "
		    "evaluated: its filters have more than %d values or %d "
		    "bytes", SLF_MAX_BINDS, SLF_MAX_SQL_BYTES);
		goto out;
	}
	out->where = xstrndup(g.sql.data, g.sql.len);
	out->binds = g.binds;
	out->nbinds = g.nbinds;
	out->cap = g.cap;
	g.binds = NULL;
	g.nbinds = 0;
	r = 0;
out:
	for (i = 0; parts != NULL && i < n; i++)
		gen_clear(&parts[i]);
	free(parts);
	gen_clear(&g);
	return r;
}

/* See repo_sl_filter.h. */
void
sl_filter_clear(struct sl_filter *f)
{
	if (f == NULL)
		return;
	free(f->where);
	binds_free(f->binds, f->nbinds);
	memset(f, 0, sizeof(*f));
}
