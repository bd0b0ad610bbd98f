/*
 * Lead columns and values in built statements (repo/repo_lead_sql.c):
 * identifiers are quoted or refused, and values bind as their columns
 * want them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <mysql.h>

#include "db/params.h"
#include "model/leadfield.h"
#include "repo/repo_lead_sql.h"
#include "util/buf.h"

static void
test_idents_quoted_or_refused(void **state)
{
	char email[] = "email", first[] = "firstName";
	struct lead_field a, c;
	const struct lead_field *cols[2] = { &a, &c };
	struct buf b;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&c, 0, sizeof(c));
	a.name = email;
	c.name = first;
	buf_init(&b, 256);
	assert_true(repo_lead_sql_cols(&b, "l.", cols, 2));
	assert_string_equal(b.data, ", l.`email`, l.`firstName`");
	buf_reset(&b);
	assert_false(repo_lead_sql_ident(&b, "", "a`b"));
	assert_false(repo_lead_sql_ident(&b, "", ""));
	assert_false(repo_lead_sql_ident(&b, "", NULL));
	buf_clear(&b);
}

static void
test_values_bind_as_their_columns(void **state)
{
	struct lead_field flag, text;
	struct lead_value v[4];
	struct params p;

	(void)state;
	memset(&flag, 0, sizeof(flag));
	memset(&text, 0, sizeof(text));
	flag.type = LF_BOOLEAN;
	text.type = LF_STRING;
	memset(v, 0, sizeof(v));
	v[0].kind = LV_STR;
	v[0].s = "Ann";
	v[0].len = 3;
	v[1].kind = LV_NULL;
	v[2].kind = LV_NULL;
	v[3].kind = LV_DBL;
	v[3].d = 1.5;
	params_init(&p, 4);
	repo_lead_sql_value(&p, &text, &v[0]);
	repo_lead_sql_value(&p, &text, &v[1]);
	repo_lead_sql_value(&p, &flag, &v[2]);
	repo_lead_sql_value(&p, NULL, &v[3]);
	assert_int_equal(p.b[0].buffer_type, MYSQL_TYPE_STRING);
	assert_int_equal(*p.b[0].length, 3);
	assert_int_equal(p.b[1].buffer_type, MYSQL_TYPE_NULL);
	/* A null boolean is false: the column is NOT NULL. */
	assert_int_equal(p.b[2].buffer_type, MYSQL_TYPE_LONGLONG);
	assert_int_equal(*(const int64_t *)p.b[2].buffer, 0);
	assert_int_equal(p.b[3].buffer_type, MYSQL_TYPE_DOUBLE);
	params_clear(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idents_quoted_or_refused),
		cmocka_unit_test(test_values_bind_as_their_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
