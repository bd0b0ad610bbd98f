/*
 * Smart list filters compiled to SQL (repo/repo_sl_filter.c): the text and
 * the bound values of each filter family and operator, the match types and
 * custom logic, and the rules refused with the message 709 carries.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/leadfield.h"
#include "model/smartlist.h"
#include "repo/repo_sl_filter.h"
#include "sl_filter_fixture.h"

/* 2026-03-31 12:00:00 UTC. */
#define NOW_MS	INT64_C(1774958400000)
#define DAY_MS	INT64_C(86400000)

static struct sl_filter f;
static char msg[SL_MSG_BYTES];

static struct smartlist_cond
cond(int32_t id, const char *op, const char *vals)
{
	struct smartlist_cond c = { .attribute_id = id, .op = op,
	    .values_json = vals };

	return c;
}

static struct smartlist_rule
attr(int32_t field, struct smartlist_cond *c)
{
	struct smartlist_rule r = { .type_id = field, .name = "Field",
	    .conds = c, .nconds = 1 };

	return r;
}

static struct smartlist_rule
act(int32_t type, const char *name, struct smartlist_cond *c, size_t n)
{
	struct smartlist_rule r = { .activity = true, .type_id = type,
	    .name = name, .conds = c, .nconds = n };

	return r;
}

/* Compiles rules under match; 0 or -1 (msg). */
static int
build(const struct smartlist_rule *rules, size_t n, const char *match,
    const char *logic)
{
	sl_filter_clear(&f);
	return sl_filter_build(&schema, rules, n, match, logic, NOW_MS, &f,
	    msg, sizeof(msg));
}

static void
assert_str_bind(size_t i, const char *s)
{
	assert_true(i < f.nbinds);
	assert_int_equal(f.binds[i].kind, SLF_STR);
	assert_string_equal(f.binds[i].s, s);
}

static void
assert_i64_bind(size_t i, enum slf_kind k, int64_t v)
{
	assert_true(i < f.nbinds);
	assert_int_equal(f.binds[i].kind, k);
	assert_int_equal(f.binds[i].i, v);
}

static void
assert_dbl_bind(size_t i, double d)
{
	assert_true(i < f.nbinds);
	assert_int_equal(f.binds[i].kind, SLF_DBL);
	assert_true(f.binds[i].d == d);
}

/* One attribute condition compiled alone: its text. */
static const char *
one_attr(int32_t field, const char *op, const char *vals)
{
	struct smartlist_cond c = cond(field, op, vals);
	struct smartlist_rule r = attr(field, &c);

	if (build(&r, 1, "all", NULL) != 0)
		return msg;
	return f.where;
}

static void
test_no_filter_selects_every_lead(void **state)
{
	struct smartlist_cond c = cond(1, "is", "[\"x\"]");
	struct smartlist_rule r = act(100004, "Trigger", &c, 1);

	(void)state;
	assert_int_equal(build(NULL, 0, "all", NULL), 0);
	assert_string_equal(f.where, "1");
	assert_int_equal(f.nbinds, 0);
	/* A trigger is the engine's: it is no filter. */
	r.trigger = true;
	assert_int_equal(build(&r, 1, "any", NULL), 0);
	assert_string_equal(f.where, "1");
}

static void
test_strings(void **state)
{
	(void)state;
	assert_string_equal(one_attr(4, "is", "[\"Acme\",\"Initech\"]"),
	    "((l.`company` COLLATE utf8mb4_general_ci IN (?,?)))");
	assert_int_equal(f.nbinds, 2);
	assert_str_bind(0, "Acme");
	assert_str_bind(1, "Initech");
	assert_string_equal(one_attr(4, "is not", "[\"Acme\"]"),
	    "((l.`company` IS NULL OR l.`company` COLLATE utf8mb4_general_ci "
	    "NOT IN (?)))");
	assert_string_equal(one_attr(4, "contains", "[\"5%_!\",\"b\"]"),
	    "((l.`company` COLLATE utf8mb4_general_ci LIKE ? ESCAPE '!' OR "
	    "l.`company` COLLATE utf8mb4_general_ci LIKE ? ESCAPE '!'))");
	assert_str_bind(0, "%5!%!_!!%");
	assert_str_bind(1, "%b%");
	assert_string_equal(one_attr(48, "not contains", "[\"x\"]"),
	    "((l.`email` IS NULL OR NOT (l.`email` COLLATE utf8mb4_general_ci"
	    " LIKE ? ESCAPE '!')))");
	assert_string_equal(one_attr(48, "starts with", "[\"ann\"]"),
	    "((l.`email` COLLATE utf8mb4_general_ci LIKE ? ESCAPE '!'))");
	assert_str_bind(0, "ann%");
	assert_string_equal(one_attr(4, "is empty", "[]"),
	    "((l.`company` IS NULL OR l.`company` = ''))");
	assert_int_equal(f.nbinds, 0);
	assert_string_equal(one_attr(4, "is not empty", "[]"),
	    "((l.`company` IS NOT NULL AND l.`company` <> ''))");
	assert_string_equal(one_attr(4, "is", "[]"), "Filter 1 'Field' cannot "
	    "be evaluated: 'is' has no value");
	assert_string_equal(one_attr(4, "sounds like", "[\"a\"]"),
	    "Filter 1 'Field' cannot be evaluated: operator 'sounds like' is "
	    "not evaluated");
}

static void
test_numbers_and_booleans(void **state)
{
	(void)state;
	assert_string_equal(one_attr(20, "is", "[\"10\",\"2.5\"]"),
	    "((l.`numberOfEmployees` IN (?,?)))");
	assert_dbl_bind(0, 10);
	assert_dbl_bind(1, 2.5);
	assert_string_equal(one_attr(20, "is not", "[\"10\"]"),
	    "((l.`numberOfEmployees` IS NULL OR l.`numberOfEmployees` NOT IN "
	    "(?)))");
	assert_string_equal(one_attr(20, "greater than", "[\"10\"]"),
	    "((l.`numberOfEmployees` > ?))");
	assert_string_equal(one_attr(20, "less than", "[\"10\"]"),
	    "((l.`numberOfEmployees` < ?))");
	assert_string_equal(one_attr(20, "at least", "[\"10\"]"),
	    "((l.`numberOfEmployees` >= ?))");
	assert_string_equal(one_attr(20, "at most", "[\"10\"]"),
	    "((l.`numberOfEmployees` <= ?))");
	assert_string_equal(one_attr(20, "between", "[\"50\",\"5\"]"),
	    "((l.`numberOfEmployees` BETWEEN ? AND ?))");
	assert_dbl_bind(0, 5);
	assert_dbl_bind(1, 50);
	assert_string_equal(one_attr(20, "is empty", "[]"),
	    "((l.`numberOfEmployees` IS NULL))");
	assert_string_equal(one_attr(20, "is not empty", "[]"),
	    "((l.`numberOfEmployees` IS NOT NULL))");
	assert_string_equal(one_attr(20, "at least", "[\"ten\"]"),
	    "Filter 1 'Field' cannot be evaluated: value 'ten' is not a "
	    "number");
	assert_string_equal(one_attr(20, "between", "[\"1\"]"),
	    "Filter 1 'Field' cannot be evaluated: 'between' takes 2 values");
	assert_string_equal(one_attr(30, "is", "[\"True\"]"),
	    "((COALESCE(l.`mktoIsPartner`, 0) = ?))");
	assert_i64_bind(0, SLF_I64, 1);
	assert_string_equal(one_attr(30, "is", "[\"no\"]"),
	    "((COALESCE(l.`mktoIsPartner`, 0) = ?))");
	assert_i64_bind(0, SLF_I64, 0);
	assert_string_equal(one_attr(30, "is", "[\"maybe\"]"),
	    "Filter 1 'Field' cannot be evaluated: value 'maybe' is not true "
	    "or false");
}

static void
test_dates(void **state)
{
	(void)state;
	assert_string_equal(one_attr(61, "in past", "[\"7 days\"]"),
	    "((l.`lastSeen` >= ? AND l.`lastSeen` <= ?))");
	assert_i64_bind(0, SLF_TIME, NOW_MS - 7 * DAY_MS);
	assert_i64_bind(1, SLF_TIME, NOW_MS);
	(void)one_attr(61, "in past", "[\"2 Hours\"]");
	assert_i64_bind(0, SLF_TIME, NOW_MS - 2 * 3600000);
	(void)one_attr(61, "in past", "[\"1 week\"]");
	assert_i64_bind(0, SLF_TIME, NOW_MS - 7 * DAY_MS);
	/* A month back from March 31 is February's last day. */
	(void)one_attr(61, "in past", "[\"1 month\"]");
	assert_i64_bind(0, SLF_TIME, INT64_C(1772280000000));
	(void)one_attr(61, "in past", "[\"1 year\"]");
	assert_i64_bind(0, SLF_TIME, NOW_MS - 365 * DAY_MS);
	/* A date column counts the first day whole. */
	(void)one_attr(60, "in past", "[\"1 day\"]");
	assert_i64_bind(0, SLF_TIME, NOW_MS - DAY_MS - 12 * 3600000);
	assert_string_equal(one_attr(61, "in past", "[\"7 fortnights\"]"),
	    "Filter 1 'Field' cannot be evaluated: 'in past' value '7 "
	    "fortnights' is not a number of hours, days, weeks, months or "
	    "years");
	/* A date names its whole day; a date-time its instant. */
	assert_string_equal(one_attr(61, "after", "[\"2026-01-10\"]"),
	    "((l.`lastSeen` >= ?))");
	assert_i64_bind(0, SLF_TIME, INT64_C(1768089600000));
	assert_string_equal(one_attr(61, "after", "[\"2026-01-10T08:00:00Z\"]"),
	    "((l.`lastSeen` > ?))");
	assert_i64_bind(0, SLF_TIME, INT64_C(1768032000000));
	assert_string_equal(one_attr(61, "before", "[\"2026-01-10\"]"),
	    "((l.`lastSeen` < ?))");
	assert_i64_bind(0, SLF_TIME, INT64_C(1768003200000));
	assert_string_equal(one_attr(60, "between",
	    "[\"2026-01-10\",\"2026-01-11\"]"),
	    "((l.`dateOfBirth` >= ? AND l.`dateOfBirth` < ?))");
	assert_i64_bind(0, SLF_TIME, INT64_C(1768003200000));
	assert_i64_bind(1, SLF_TIME, INT64_C(1768176000000));
	assert_string_equal(one_attr(60, "is empty", "[]"),
	    "((l.`dateOfBirth` IS NULL))");
	assert_string_equal(one_attr(61, "in time frame", "[\"yesterday\"]"),
	    "Filter 1 'Field' cannot be evaluated: 'in time frame' is not "
	    "evaluated (its presets are not published)");
	assert_string_equal(one_attr(61, "after", "[\"soon\"]"),
	    "Filter 1 'Field' cannot be evaluated: value 'soon' is not a "
	    "date");
}

static void
test_membership(void **state)
{
	struct smartlist_cond c = cond(1, "in", "[\"Customers\",\"12\"]");
	struct smartlist_cond s[2] = { cond(1, "is", "[\"Webinar\"]"),
	    cond(2, "is", "[\"Attended\",\"Not in Program\"]") };
	struct smartlist_rule r = act(100001, "Member of List", &c, 1);

	(void)state;
	assert_int_equal(build(&r, 1, "all", NULL), 0);
	assert_string_equal(f.where, "(EXISTS (SELECT 1 FROM list_member m "
	    "WHERE m.lead_id = l.id AND m.list_id IN (SELECT x.id FROM "
	    "static_list x WHERE x.name IN (?,?) OR x.id IN (?))))");
	assert_str_bind(0, "Customers");
	assert_str_bind(1, "12");
	assert_i64_bind(2, SLF_I64, 12);
	c.op = "not in";
	r.type_id = 100003;
	assert_int_equal(build(&r, 1, "all", NULL), 0);
	assert_string_equal(f.where, "(NOT EXISTS (SELECT 1 FROM "
	    "program_member m WHERE m.lead_id = l.id AND m.program_id IN "
	    "(SELECT x.id FROM program x WHERE x.name IN (?,?) OR x.id IN "
	    "(?))))");
	r = act(100002, "Program Status", s, 2);
	assert_int_equal(build(&r, 1, "all", NULL), 0);
	assert_string_equal(f.where, "((EXISTS (SELECT 1 FROM program_member "
	    "m JOIN program_status s ON s.program_id = m.program_id AND "
	    "s.step = m.status_step WHERE m.lead_id = l.id AND m.program_id "
	    "IN (SELECT x.id FROM program x WHERE x.name IN (?)) AND s.name "
	    "COLLATE utf8mb4_general_ci IN (?,?)) OR NOT EXISTS (SELECT 1 "
	    "FROM program_member m WHERE m.lead_id = l.id AND m.program_id "
	    "IN (SELECT x.id FROM program x WHERE x.name IN (?)))))");
	assert_int_equal(f.nbinds, 4);
	assert_str_bind(3, "Webinar");
	s[1] = cond(2, "is not", "[\"Attended\"]");
	assert_int_equal(build(&r, 1, "all", NULL), 0);
	assert_string_equal(f.where, "((NOT EXISTS (SELECT 1 FROM "
	    "program_member m JOIN program_status s ON s.program_id = "
	    "m.program_id AND s.step = m.status_step WHERE m.lead_id = l.id "
	    "AND m.program_id IN (SELECT x.id FROM program x WHERE x.name IN "
	    "(?)) AND s.name COLLATE utf8mb4_general_ci IN (?))))");
	c.op = "is";
	r = act(100001, "Member of List", &c, 1);
	assert_int_equal(build(&r, 1, "all", NULL), -1);
	assert_string_equal(msg, "Filter 1 'Member of List' cannot be "
	    "evaluated: operator 'is' is not evaluated");
}

static void
test_activities(void **state)
{
	struct smartlist_cond list[2] = { cond(1, "is", "[\"Customers\"]"),
	    cond(-101, "in past", "[\"30 days\"]") };
	struct smartlist_cond change[3] = { cond(1, "is",
	    "[\"Company Name\",\"email\"]"), cond(2, "contains", "[\"ac\"]"),
	    cond(3, "is empty", "[]") };
	struct smartlist_cond form[2] = { cond(1, "is not", "[\"7\"]"),
	    cond(-102, "at least", "[\"3\"]") };
	struct smartlist_rule r = act(24, "Added to List", list, 2);

	(void)state;
	assert_int_equal(build(&r, 1, "all", NULL), 0);
	assert_string_equal(f.where, "(EXISTS (SELECT 1 FROM activity a WHERE "
	    "a.lead_id = l.id AND a.activity_type_id = ? AND "
	    "(a.primary_value_id IN (SELECT x.id FROM static_list x WHERE "
	    "x.name IN (?))) AND (a.activity_date >= ? AND a.activity_date <= "
	    "?)))");
	assert_i64_bind(0, SLF_I64, 24);
	assert_str_bind(1, "Customers");
	assert_i64_bind(2, SLF_TIME, NOW_MS - 30 * DAY_MS);
	/* Not Added to List. */
	r.negative = true;
	assert_int_equal(build(&r, 1, "all", NULL), 0);
	assert_true(strncmp(f.where, "NOT (EXISTS (SELECT 1 FROM activity a ",
	    38) == 0);
	r = act(13, "Data Value Changed", change, 3);
	assert_int_equal(build(&r, 1, "all", NULL), 0);
	assert_string_equal(f.where, "(EXISTS (SELECT 1 FROM activity a WHERE "
	    "a.lead_id = l.id AND a.activity_type_id = ? AND "
	    "(a.primary_value_id IN (?,?)) AND (JSON_VALUE(a.attributes, "
	    "'$.\"New Value\"') COLLATE utf8mb4_general_ci LIKE ? ESCAPE '!') "
	    "AND (JSON_VALUE(a.attributes, '$.\"Old Value\"') IS NULL OR "
	    "JSON_VALUE(a.attributes, '$.\"Old Value\"') = '')))");
	assert_i64_bind(1, SLF_I64, 4);
	assert_i64_bind(2, SLF_I64, 48);
	r = act(2, "Filled Out Form", form, 2);
	assert_int_equal(build(&r, 1, "all", NULL), 0);
	assert_string_equal(f.where, "(((SELECT COUNT(*) FROM activity a WHERE "
	    "a.lead_id = l.id AND a.activity_type_id = ? AND "
	    "(a.primary_value_id IS NULL OR a.primary_value_id NOT IN (SELECT "
	    "x.id FROM form x WHERE x.name IN (?) OR x.id IN (?)))) >= ?))");
	assert_i64_bind(3, SLF_I64, 3);
	/* Occurs, with no constraint. */
	r = act(12, "Person is Created", NULL, 0);
	assert_int_equal(build(&r, 1, "all", NULL), 0);
	assert_string_equal(f.where, "(EXISTS (SELECT 1 FROM activity a WHERE "
	    "a.lead_id = l.id AND a.activity_type_id = ?))");
	change[0] = cond(1, "is", "[\"noSuchField\"]");
	r = act(13, "Data Value Changed", change, 1);
	assert_int_equal(build(&r, 1, "all", NULL), -1);
	assert_string_equal(msg, "Filter 1 'Data Value Changed' cannot be "
	    "evaluated: lead field 'noSuchField' does not exist");
}

static void
test_logic(void **state)
{
	struct smartlist_cond c[3] = { cond(4, "is", "[\"a\"]"),
	    cond(20, "is", "[\"1\"]"), cond(48, "is", "[\"e\"]") };
	struct smartlist_rule r[4] = { attr(4, &c[0]), attr(20, &c[1]),
	    attr(48, &c[2]), act(12, "Trigger", NULL, 0) };
	const char *a = "((l.`company` COLLATE utf8mb4_general_ci IN (?)))",
	    *b = "((l.`numberOfEmployees` IN (?)))",
	    *e = "((l.`email` COLLATE utf8mb4_general_ci IN (?)))";
	char want[1024];

	(void)state;
	r[3].trigger = true;
	assert_int_equal(build(r, 4, "all", NULL), 0);
	(void)snprintf(want, sizeof(want), "%s AND %s AND %s", a, b, e);
	assert_string_equal(f.where, want);
	assert_int_equal(build(r, 4, "any", NULL), 0);
	(void)snprintf(want, sizeof(want), "%s OR %s OR %s", a, b, e);
	assert_string_equal(f.where, want);
	assert_int_equal(build(r, 4, "custom", "1 AND (2 or NOT 3)"), 0);
	(void)snprintf(want, sizeof(want), "%s AND (%s OR NOT %s)", a, b, e);
	assert_string_equal(f.where, want);
	/* A number twice repeats its values; a trigger's stands for true. */
	assert_int_equal(build(r, 4, "custom", "(1 or 2) and (1 or 4)"), 0);
	(void)snprintf(want, sizeof(want), "(%s OR %s) AND (%s OR 1)", a, b,
	    a);
	assert_string_equal(f.where, want);
	assert_int_equal(f.nbinds, 3);
	assert_str_bind(0, "a");
	assert_dbl_bind(1, 1);
	assert_str_bind(2, "a");
	assert_int_equal(build(r, 4, "custom", "1 and 9"), -1);
	assert_true(strncmp(msg, "Filter logic cannot be evaluated: ", 34)
	    == 0);
	assert_int_equal(build(r, 4, "custom", NULL), -1);
	assert_int_equal(build(r, 4, "most", NULL), -1);
	assert_null(f.where);
}

static void
test_refusals(void **state)
{
	static const struct {
		int32_t		 type;
		const char	*msg;
	} cases[] = {
		{ 1, "Filter 1 'R' cannot be evaluated: mauto records no web "
		  "page visits" },
		{ 6, "Filter 1 'R' cannot be evaluated: mauto records no "
		  "email sends" },
		{ 10, "Filter 1 'R' cannot be evaluated: mauto records no "
		  "email opens" },
		{ 11, "Filter 1 'R' cannot be evaluated: mauto records no "
		  "email link clicks" },
		{ 100004, "Filter 1 'R' cannot be evaluated: it is a trigger, "
		  "not a filter" },
		{ SL_CO_RULE_BASE + 3, "Filter 1 'R' cannot be evaluated: "
		  "mauto does not evaluate custom object filters without "
		  "their catalogue" },
		{ 77, "Filter 1 'R' cannot be evaluated: rule type 77 is not "
		  "evaluated" },
	};
	struct smartlist_cond c = cond(4, "is", "[\"a\"]"), many;
	struct smartlist_rule r[2] = { attr(4, &c), act(1, "R", NULL, 0) };
	char vals[SLF_MAX_VALUES * 4 + 8], logic[256];
	size_t i, k = 0;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r[0].activity = true;
		r[0].type_id = cases[i].type;
		r[0].name = "R";
		assert_int_equal(build(r, 1, "all", NULL), -1);
		assert_string_equal(msg, cases[i].msg);
		assert_null(f.where);
	}
	/* The first rule refused is named, by its number. */
	r[0] = attr(4, &c);
	assert_int_equal(build(r, 2, "all", NULL), -1);
	assert_string_equal(msg, "Filter 2 'R' cannot be evaluated: mauto "
	    "records no web page visits");
	/* Whether or not the logic uses it. */
	assert_int_equal(build(r, 2, "custom", "1"), -1);
	assert_string_equal(one_attr(5, "is", "[\"a\"]"), "Filter 1 'Field' "
	    "cannot be evaluated: lead field 5 does not exist");
	assert_string_equal(one_attr(99, "is", "[\"a\"]"), "Filter 1 'Field' "
	    "cannot be evaluated: lead field 99 has a name mauto does not "
	    "quote");
	assert_string_equal(one_attr(4, "is", "{\"a\":1}"), "Filter 1 'Field' "
	    "cannot be evaluated: its values are not a list");
	vals[k++] = '[';
	for (i = 0; i <= SLF_MAX_VALUES; i++)
		k += (size_t)snprintf(vals + k, sizeof(vals) - k, "%s\"v\"",
		    i > 0 ? "," : "");
	vals[k++] = ']';
	vals[k] = '\0';
	many = cond(4, "is", vals);
	r[0] = attr(4, &many);
	assert_int_equal(build(r, 1, "all", NULL), -1);
	assert_string_equal(msg, "Filter 1 'Field' cannot be evaluated: a "
	    "condition has more than 100 values");
	/* 100 values, 41 times over in the logic: past SLF_MAX_BINDS. */
	vals[k - 1 - 4] = ']';
	vals[k - 4] = '\0';
	assert_int_equal(build(r, 1, "all", NULL), 0);
	assert_int_equal(f.nbinds, SLF_MAX_VALUES);
	for (i = 0, k = 0; i < 41; i++)
		k += (size_t)snprintf(logic + k, sizeof(logic) - k, "%s1",
		    i > 0 ? " or " : "");
	assert_int_equal(build(r, 1, "custom", logic), -1);
	assert_string_equal(msg, "Smart list cannot be evaluated: its filters "
	    "have more than 4000 values or 262144 bytes");
}

/* Rule rule with the custom object catalogue; 0 or -1 (msg). */
static int
build_co(const struct smartlist_rule *rule)
{
	sl_filter_clear(&f);
	return sl_filter_build_co(&schema, &co, rule, 1, "all", NULL, NOW_MS,
	    &f, msg, sizeof(msg));
}

static void
test_custom_objects(void **state)
{
	struct smartlist_cond c[3] = { cond(11, "is", "[\"X1\"]"),
	    cond(12, "greater than", "[\"100\"]"),
	    cond(14, "before", "[\"2026-01-10\"]") };
	struct smartlist_rule r = act(SL_CO_RULE_BASE + 3, "Has Car", c, 3);

	(void)state;
	assert_int_equal(build_co(&r), 0);
	assert_string_equal(f.where, "(EXISTS (SELECT 1 FROM co_rec_3 r WHERE "
	    "r.`owner` = l.email AND (r.`vin` COLLATE utf8mb4_general_ci IN "
	    "(?)) AND (r.`price` > ?) AND (r.`sold` < ?)))");
	assert_str_bind(0, "X1");
	assert_dbl_bind(1, 100);
	assert_i64_bind(2, SLF_TIME, INT64_C(1768003200000));
	/* Not Has Car, with no condition: no record at all. */
	r.nconds = 0;
	r.negative = true;
	assert_int_equal(build_co(&r), 0);
	assert_string_equal(f.where, "NOT (EXISTS (SELECT 1 FROM co_rec_3 r "
	    "WHERE r.`owner` = l.email))");
	r.negative = false;
	r.nconds = 1;
	c[0] = cond(99, "is", "[\"a\"]");
	assert_int_equal(build_co(&r), -1);
	assert_string_equal(msg, "Filter 1 'Has Car' cannot be evaluated: "
	    "constraint 99 is not an approved field");
	r.type_id = SL_CO_RULE_BASE + 5;
	assert_int_equal(build_co(&r), -1);
	assert_string_equal(msg, "Filter 1 'Has Car' cannot be evaluated: "
	    "custom object type 5 has no link to leads by id or email");
	r.type_id = SL_CO_RULE_BASE + 7;
	assert_int_equal(build_co(&r), -1);
	assert_string_equal(msg, "Filter 1 'Has Car' cannot be evaluated: "
	    "custom object type 7 has no approved record table");
}

static int
teardown(void **state)
{
	(void)state;
	sl_filter_clear(&f);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_no_filter_selects_every_lead,
		    teardown),
		cmocka_unit_test_teardown(test_strings, teardown),
		cmocka_unit_test_teardown(test_numbers_and_booleans, teardown),
		cmocka_unit_test_teardown(test_dates, teardown),
		cmocka_unit_test_teardown(test_membership, teardown),
		cmocka_unit_test_teardown(test_activities, teardown),
		cmocka_unit_test_teardown(test_logic, teardown),
		cmocka_unit_test_teardown(test_refusals, teardown),
		cmocka_unit_test_teardown(test_custom_objects, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
