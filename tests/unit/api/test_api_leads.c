/*
 * The handlers of api_leads.c without a database: the repository calls
 * are swapped for mocks at link time (-Wl,--wrap, see Makefile.am).  The
 * lead field catalogue is the real one (api_leads_catalog.c) loaded from
 * a mocked repo_lead_fields_load, so `fields`, filterType and lookupField
 * resolve as they do in the service.  The mocks check what the handler
 * asks for (check_expected) and answer canned rows or errors
 * (will_return); the tests assert the result records, request-level
 * errors and their messages, per-record skip reasons and paging.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "api/api.h"
#include "api/api_common.h"
#include "api/api_leads_catalog.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_forms.h"
#include "repo/repo_lead_fields.h"
#include "repo/repo_leads.h"
#include "repo/repo_partitions.h"
#include "repo/repo_programs.h"
#include "util/arena.h"
#include "util/xmalloc.h"

#include "apitest.h"

/* ---- mocks ---- */

int	__wrap_repo_leads_get_by_id(struct db *, struct arena *,
	    const struct lead_field *const *, size_t, int64_t,
	    struct lead_rows *);
int	__wrap_repo_leads_list_by_filter(struct db *, struct arena *,
	    const struct lead_field *const *, size_t,
	    const struct lead_filter *, int64_t, int, struct lead_rows *);
int	__wrap_repo_leads_count_by_filter(struct db *,
	    const struct lead_filter *, int64_t, int64_t *);
int	__wrap_repo_leads_list_by_program(struct db *, struct arena *,
	    const struct lead_field *const *, size_t, int64_t, int64_t, int,
	    struct lead_rows *);
int	__wrap_repo_leads_sync(struct db *, struct lead_sync *);
int	__wrap_repo_leads_delete(struct db *, struct lead_del *, size_t);
int	__wrap_repo_partitions_get_id_by_name(struct db *, const char *,
	    int32_t *);
int	__wrap_repo_programs_get_by_name(struct db *, const char *,
	    struct repo_program *);
int	__wrap_repo_programs_get_by_id(struct db *, int32_t,
	    struct repo_program *);
int	__wrap_repo_forms_get_by_id(struct db *, struct arena *, int64_t,
	    struct repo_form *);

/* What the mocks saw, and what the sync and delete mocks answer. */
static struct {
	/* reads */
	char			 cols[16][LF_NAME_BYTES];
	size_t			 ncols;
	struct lead_filter	 flt;
	char			 fname[LF_NAME_BYTES];
	struct lead_value	 vals[4];
	char			 vtext[4][64];
	int64_t			 after;
	int			 limit;
	int			 counts;
	/* sync */
	int			 syncs;
	enum lead_action	 action;
	char			 lookup[LF_NAME_BYTES];
	int32_t			 partition;
	char			 new_attrs[256];
	bool			 is_push, is_form;
	int			 push_status;
	bool			 status_given;
	char			 attrs[512];
	char			 cookie[300];
	size_t			 n;
	struct lead_rec		 recs[8];	/* as handed over */
	char			 keytext[8][64];
	enum lead_status	 answer[8];	/* for records not skipped */
	bool			 with_m;	/* push: fill membership */
	/* delete */
	struct lead_del		 del[8];
	bool			 deleted[8];
} mock;

/* A column value of a canned lead, as MariaDB writes it. */
static const char *
col_text(const char *name)
{
	if (strcmp(name, "email") == 0)
		return "ann@example.com";
	if (strcmp(name, "firstName") == 0)
		return "Ann";
	if (strcmp(name, "leadScore") == 0)
		return "42";
	if (strcmp(name, "createdAt") == 0 || strcmp(name, "updatedAt") == 0)
		return "2024-01-02 03:04:05";
	return NULL;
}

/* Records the columns asked for and answers nrows leads from id first. */
static void
rows_out(struct arena *a, const struct lead_field *const *cols, size_t ncols,
    size_t nrows, int64_t first, struct lead_rows *out)
{
	size_t i, j;

	mock.ncols = ncols;
	for (i = 0; i < ncols && i < 16; i++)
		snprintf(mock.cols[i], sizeof(mock.cols[i]), "%s",
		    cols[i]->name);
	out->count = nrows;
	out->rows = arena_zalloc(a, (nrows + 1) * sizeof(*out->rows));
	for (i = 0; i < nrows; i++) {
		out->rows[i].id = first + (int64_t)i;
		out->rows[i].vals = arena_zalloc(a, (ncols + 1) *
		    sizeof(*out->rows[i].vals));
		out->rows[i].lens = arena_zalloc(a, (ncols + 1) *
		    sizeof(*out->rows[i].lens));
		for (j = 0; j < ncols; j++) {
			out->rows[i].vals[j] = col_text(cols[j]->name);
			if (out->rows[i].vals[j] != NULL)
				out->rows[i].lens[j] =
				    strlen(out->rows[i].vals[j]);
		}
	}
}

int
__wrap_repo_leads_get_by_id(struct db *db, struct arena *a,
    const struct lead_field *const *cols, size_t ncols, int64_t id,
    struct lead_rows *out)
{
	int nrows;

	(void)db;
	check_expected(id);
	memset(out, 0, sizeof(*out));
	if ((nrows = mock_type(int)) < 0)
		return nrows;
	rows_out(a, cols, ncols, (size_t)nrows, id, out);
	return 0;
}

/* Keeps a copy of the filter (its values die with the request). */
static void
keep_filter(const struct lead_filter *f)
{
	size_t i;

	mock.flt = *f;
	snprintf(mock.fname, sizeof(mock.fname), "%s", f->field->name);
	for (i = 0; i < f->nvalues && i < 4; i++) {
		mock.vals[i] = f->values[i];
		if (f->values[i].kind == LV_STR)
			snprintf(mock.vtext[i], sizeof(mock.vtext[i]), "%s",
			    f->values[i].s);
	}
}

/* A page read: records after and limit, answers nrows rows (<0: error). */
static int
page_out(struct arena *a, const struct lead_field *const *cols, size_t ncols,
    int64_t after, int limit, int nrows, struct lead_rows *out)
{
	mock.after = after;
	mock.limit = limit;
	memset(out, 0, sizeof(*out));
	if (nrows < 0)
		return nrows;
	rows_out(a, cols, ncols, (size_t)nrows, after + 1, out);
	return 0;
}

int
__wrap_repo_leads_list_by_filter(struct db *db, struct arena *a,
    const struct lead_field *const *cols, size_t ncols,
    const struct lead_filter *f, int64_t after, int limit,
    struct lead_rows *out)
{
	(void)db;
	keep_filter(f);
	return page_out(a, cols, ncols, after, limit, mock_type(int), out);
}

int
__wrap_repo_leads_count_by_filter(struct db *db, const struct lead_filter *f,
    int64_t cap, int64_t *count)
{
	(void)db;
	(void)f;
	mock.counts++;
	check_expected(cap);
	*count = mock_type(int64_t);
	return 0;
}

int
__wrap_repo_leads_list_by_program(struct db *db, struct arena *a,
    const struct lead_field *const *cols, size_t ncols, int64_t program_id,
    int64_t after, int limit, struct lead_rows *out)
{
	struct lead_membership *m;
	size_t i;
	int e;

	(void)db;
	check_expected(program_id);
	if ((e = page_out(a, cols, ncols, after, limit, mock_type(int),
	    out)) != 0)
		return e;
	for (i = 0; i < out->count; i++) {
		m = arena_zalloc(a, sizeof(*m));
		m->program_id = program_id;
		m->status = "Registered";
		m->acquired_by = i == 0;
		m->reached_success = false;
		m->stream = i == 0 ? "Main" : NULL;
		snprintf(m->membership_date, sizeof(m->membership_date), "%s",
		    "2024-03-04 05:06:07");
		snprintf(m->updated_at, sizeof(m->updated_at), "%s",
		    "2024-03-05 05:06:07");
		out->rows[i].m = m;
	}
	return 0;
}

int
__wrap_repo_leads_sync(struct db *db, struct lead_sync *s)
{
	struct lead_rec *rec;
	size_t i;

	(void)db;
	mock.syncs++;
	mock.action = s->action;
	snprintf(mock.lookup, sizeof(mock.lookup), "%s", s->lookup->name);
	mock.partition = s->partition;
	snprintf(mock.new_attrs, sizeof(mock.new_attrs), "%s",
	    s->new_lead_attrs);
	mock.is_push = s->push != NULL;
	mock.is_form = s->form != NULL;
	if (s->push != NULL) {
		mock.push_status = s->push->status;
		mock.status_given = s->push->status_given;
		snprintf(mock.attrs, sizeof(mock.attrs), "%s", s->push->attrs);
	}
	if (s->form != NULL) {
		snprintf(mock.attrs, sizeof(mock.attrs), "%s",
		    s->form->attrs != NULL ? s->form->attrs : "(null)");
		snprintf(mock.cookie, sizeof(mock.cookie), "%s",
		    s->form->cookie != NULL ? s->form->cookie : "(null)");
	}
	mock.n = s->n;
	for (i = 0; i < s->n && i < 8; i++) {
		rec = &s->recs[i];
		mock.recs[i] = *rec;
		if (rec->key != NULL && rec->key->kind == LV_STR)
			snprintf(mock.keytext[i], sizeof(mock.keytext[i]),
			    "%s", rec->key->s);
		if (rec->skip)
			continue;
		rec->status = mock.answer[i];
		rec->id = 100 + (int64_t)i;
		if (rec->status == LEAD_SKIPPED) {
			rec->code = 1004;
			rec->msg = "Lead not found";
		}
		if (mock.with_m) {
			rec->has_m = true;
			rec->m.program_id = 9;
			rec->m.status = "Registered";
			rec->m.acquired_by = true;
			snprintf(rec->m.membership_date,
			    sizeof(rec->m.membership_date), "%s",
			    "2024-03-04 05:06:07");
		}
	}
	return mock_type(int);
}

int
__wrap_repo_leads_delete(struct db *db, struct lead_del *recs, size_t n)
{
	size_t i;

	(void)db;
	check_expected(n);
	for (i = 0; i < n && i < 8; i++) {
		mock.del[i] = recs[i];
		if (!recs[i].skip)
			recs[i].deleted = mock.deleted[i];
	}
	return mock_type(int);
}

int
__wrap_repo_partitions_get_id_by_name(struct db *db, const char *name,
    int32_t *id)
{
	(void)db;
	check_expected(name);
	*id = 4;
	return mock_type(int);
}

/* Webinar: Not in Program, Invited, Registered, Attended. */
static void
program_out(int32_t id, struct repo_program *out)
{
	static const char *const names[] = { PROGRAM_NOT_MEMBER, "Invited",
	    "Registered", "Attended" };
	size_t i;

	memset(out, 0, sizeof(*out));
	out->id = id;
	out->name = xstrdup("Webinar");
	out->type = xstrdup("program");
	out->channel = xstrdup("Webinar");
	out->statuses = xcalloc(4, sizeof(*out->statuses));
	out->nstatuses = 4;
	for (i = 0; i < 4; i++) {
		out->statuses[i].step = (int32_t)i;
		out->statuses[i].name = xstrdup(names[i]);
		out->statuses[i].success = i == 3;
	}
}

int
__wrap_repo_programs_get_by_name(struct db *db, const char *name,
    struct repo_program *out)
{
	int e;

	(void)db;
	check_expected(name);
	memset(out, 0, sizeof(*out));
	if ((e = mock_type(int)) == 0)
		program_out(9, out);
	return e;
}

int
__wrap_repo_programs_get_by_id(struct db *db, int32_t id,
    struct repo_program *out)
{
	int e;

	(void)db;
	check_expected(id);
	memset(out, 0, sizeof(*out));
	if ((e = mock_type(int)) == 0)
		program_out(id, out);
	return e;
}

int
__wrap_repo_forms_get_by_id(struct db *db, struct arena *a, int64_t id,
    struct repo_form *out)
{
	static const char *fields[] = { "firstName", "lastName" };

	(void)db;
	(void)a;
	check_expected(id);
	memset(out, 0, sizeof(*out));
	out->id = (int32_t)id;
	out->name = "Signup";
	out->program_id = 8;
	out->fields = fields;
	out->nfields = 2;
	return mock_type(int);
}

/* ---- the request ---- */

static struct req *const req = &apitest_req;
static struct resp *const resp = &apitest_resp;

static int
setup(void **state)
{
	memset(&mock, 0, sizeof(mock));
	return apitest_setup(state);
}

/* ---- Get Lead by Id ---- */

static void
test_get_default_fields(void **state)
{
	(void)state;
	req->path_ints[0] = 5;
	expect_value(__wrap_repo_leads_get_by_id, id, 5);
	will_return(__wrap_repo_leads_get_by_id, 1);
	assert_int_equal(apitest_run(api_leads_get), 0);
	assert_int_equal(apitest_catalog.loads, 1);
	assert_int_equal(mock.ncols, LEAD_DEFAULT_FIELDS);
	assert_string_equal(mock.cols[0], "id");
	assert_string_equal(mock.cols[3], "email");
	assert_string_equal(apitest_result(), "[{\"id\":5,\"firstName\":"
	    "\"Ann\","
	    "\"lastName\":null,\"email\":\"ann@example.com\",\"updatedAt\":"
	    "\"2024-01-02T03:04:05Z\",\"createdAt\":"
	    "\"2024-01-02T03:04:05Z\"}]");
}

static void
test_get_fields(void **state)
{
	(void)state;
	req->path_ints[0] = 6;
	/* Repeated and differently cased names ask for one column. */
	apitest_param("fields", "email,EMAIL,leadScore");
	apitest_param("fields", "company");
	expect_value(__wrap_repo_leads_get_by_id, id, 6);
	will_return(__wrap_repo_leads_get_by_id, 1);
	assert_int_equal(apitest_run(api_leads_get), 0);
	assert_int_equal(mock.ncols, 3);
	assert_string_equal(mock.cols[0], "email");
	assert_string_equal(mock.cols[1], "leadScore");
	assert_string_equal(mock.cols[2], "company");
	assert_string_equal(apitest_result(), "[{\"id\":6,\"email\":"
	    "\"ann@example.com\",\"leadScore\":42,\"company\":null}]");
}

static void
test_get_none_and_errors(void **state)
{
	(void)state;
	req->path_ints[0] = 7;
	expect_value(__wrap_repo_leads_get_by_id, id, 7);
	will_return(__wrap_repo_leads_get_by_id, 0);
	assert_int_equal(apitest_run(api_leads_get), 0);
	assert_null(resp->result);
	apitest_again();
	apitest_param("fields", "email,shoeSize");
	assert_int_equal(apitest_run(api_leads_get), -API_ERR_FIELD_NOT_FOUND);
	assert_string_equal(resp->err_msg, "Field 'shoeSize' not found");
	apitest_again();
	expect_value(__wrap_repo_leads_get_by_id, id, 7);
	will_return(__wrap_repo_leads_get_by_id, -REPO_ERR_CONN);
	assert_int_equal(apitest_run(api_leads_get), -API_ERR_UNAVAILABLE);
	assert_null(resp->result);
}

/* ---- Get Leads by Filter Type ---- */

/* A new call filtering on email = value, with batchSize (NULL: none). */
static void
by_email(const char *value, const char *batch)
{
	apitest_again();
	apitest_param("filterType", "email");
	apitest_param("filterValues", value);
	if (batch != NULL)
		apitest_param("batchSize", batch);
}

static void
test_list_request_errors(void **state)
{
	static const struct {
		const char	*type, *values;
		int		 err;
		const char	*msg;
	} bad[] = {
		{ NULL, "a@b.io", -API_ERR_INVALID_REQUEST,
		  "filterType not specified" },
		{ "", "a@b.io", -API_ERR_INVALID_REQUEST,
		  "filterType not specified" },
		{ "email", NULL, -API_ERR_INVALID_REQUEST,
		  "filterValues not specified" },
		{ "email", ",,", -API_ERR_INVALID_REQUEST,
		  "filterValues not specified" },
		{ "firstName", "Ann", -API_ERR_FIELD_NOT_SUPPORTED,
		  "Lookup field 'firstName' not supported" },
		{ "shoeSize", "9", -API_ERR_FIELD_NOT_FOUND,
		  "Lookup field 'shoeSize' not found" },
		{ "id", "12,x", -API_ERR_INVALID_VALUE,
		  "Invalid value 'x'. Required of type 'Integer'" },
		{ "cookies", "abc", -API_ERR_INVALID_COOKIE,
		  "Invalid cookie value 'abc'" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		apitest_again();
		if (bad[i].type != NULL)
			apitest_param("filterType", bad[i].type);
		if (bad[i].values != NULL)
			apitest_param("filterValues", bad[i].values);
		assert_int_equal(apitest_run(api_leads_list), bad[i].err);
		assert_string_equal(resp->err_msg, bad[i].msg);
	}
}

static void
test_list_too_many_values(void **state)
{
	static char v[MAX_FILTER_VALUES + 1][8];
	size_t i;

	(void)state;
	apitest_param("filterType", "id");
	for (i = 0; i < MAX_FILTER_VALUES + 1; i++) {
		snprintf(v[i], sizeof(v[i]), "%zu", i + 1);
		apitest_param("filterValues", v[i]);
	}
	assert_int_equal(apitest_run(api_leads_list),
	    -API_ERR_INVALID_REQUEST);
	assert_string_equal(resp->err_msg, "Too many filterValues: at most "
	    "300");
	/* 300 is allowed. */
	apitest_again();
	apitest_param("filterType", "id");
	for (i = 0; i < MAX_FILTER_VALUES; i++)
		apitest_param("filterValues", v[i]);
	will_return(__wrap_repo_leads_list_by_filter, 0);
	assert_int_equal(apitest_run(api_leads_list), 0);
	assert_int_equal(mock.flt.nvalues, MAX_FILTER_VALUES);
	assert_int_equal(mock.vals[2].kind, LV_INT);
	assert_int_equal(mock.vals[2].i, 3);
}

static void
test_list_ok(void **state)
{
	(void)state;
	apitest_param("filterType", "EMAIL");
	apitest_param("filterValues", "ann@example.com,bo@example.com");
	apitest_param("fields", "firstName");
	will_return(__wrap_repo_leads_list_by_filter, 2);
	assert_int_equal(apitest_run(api_leads_list), 0);
	assert_string_equal(mock.fname, "email");
	assert_false(mock.flt.cookies);
	assert_int_equal(mock.flt.nvalues, 2);
	assert_int_equal(mock.vals[0].kind, LV_STR);
	assert_string_equal(mock.vtext[1], "bo@example.com");
	assert_int_equal(mock.after, 0);
	/* The default page and one more row, to learn of a next page. */
	assert_int_equal(mock.limit, MAX_BATCH_SIZE + 1);
	assert_int_equal(mock.counts, 0);
	assert_int_equal(resp->more_result, -1);
	assert_null(resp->next_page_token);
	assert_string_equal(apitest_result(), "[{\"id\":1,\"firstName\":"
	    "\"Ann\"},"
	    "{\"id\":2,\"firstName\":\"Ann\"}]");
}

static void
test_list_cookies(void **state)
{
	(void)state;
	apitest_param("filterType", "cookies");
	apitest_param("filterValues", "id:287-GTJ-838&token:_mch-marketo.com-"
	    "1396310362214-46169");
	will_return(__wrap_repo_leads_list_by_filter, 0);
	assert_int_equal(apitest_run(api_leads_list), 0);
	assert_true(mock.flt.cookies);
	assert_string_equal(mock.vtext[0], "id:287-GTJ-838&token:_mch-"
	    "marketo.com-1396310362214-46169");
	assert_null(resp->result);
}

static void
test_list_paging(void **state)
{
	char token[64];

	(void)state;
	by_email("ann@example.com", "2");
	apitest_param("fields", "id");
	will_return(__wrap_repo_leads_list_by_filter, 3);
	/* A full first page counts the matches, up to one past the cap. */
	expect_value(__wrap_repo_leads_count_by_filter, cap,
	    MAX_FILTER_MATCHES + 1);
	will_return(__wrap_repo_leads_count_by_filter, 3);
	assert_int_equal(apitest_run(api_leads_list), 0);
	assert_int_equal(mock.limit, 3);
	assert_string_equal(apitest_result(), "[{\"id\":1},{\"id\":2}]");
	assert_int_equal(resp->more_result, 1);
	assert_non_null(resp->next_page_token);
	snprintf(token, sizeof(token), "%s", resp->next_page_token);

	/*
	 * The next page starts after the last id shown; no count.  A page
	 * of exactly batchSize rows is the last one.
	 */
	by_email("ann@example.com", "2");
	apitest_param("fields", "id");
	apitest_param("nextPageToken", token);
	will_return(__wrap_repo_leads_list_by_filter, 2);
	assert_int_equal(apitest_run(api_leads_list), 0);
	assert_int_equal(mock.after, 2);
	assert_int_equal(mock.counts, 1);
	assert_string_equal(apitest_result(), "[{\"id\":3},{\"id\":4}]");
	assert_int_equal(resp->more_result, -1);
	assert_null(resp->next_page_token);

	/* The token belongs to those filter values. */
	by_email("bo@example.com", NULL);
	apitest_param("nextPageToken", token);
	assert_int_equal(apitest_run(api_leads_list),
	    -API_ERR_INVALID_REQUEST);
	assert_string_equal(resp->err_msg, "Invalid nextPageToken");

	/* Nor does a program read take it. */
	apitest_again();
	req->path_ints[0] = 9;
	apitest_param("nextPageToken", token);
	assert_int_equal(apitest_run(api_leads_list_by_program),
	    -API_ERR_INVALID_REQUEST);
}

static void
test_list_too_many_matches(void **state)
{
	(void)state;
	by_email("ann@example.com", "1");
	will_return(__wrap_repo_leads_list_by_filter, 2);
	expect_value(__wrap_repo_leads_count_by_filter, cap,
	    MAX_FILTER_MATCHES + 1);
	will_return(__wrap_repo_leads_count_by_filter,
	    MAX_FILTER_MATCHES + 1);
	assert_int_equal(apitest_run(api_leads_list),
	    -API_ERR_INVALID_REQUEST);
	assert_string_equal(resp->err_msg, "Too many results match the filter");
	assert_null(resp->result);
}

static void
test_list_batch_size(void **state)
{
	static const char *const bad[] = { "0", "-1", "x", "2.5" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		by_email("ann@example.com", bad[i]);
		assert_int_equal(apitest_run(api_leads_list),
		    -API_ERR_INVALID_REQUEST);
		assert_non_null(strstr(resp->err_msg, "Invalid batchSize"));
	}
	/* Larger than the most is the most. */
	by_email("ann@example.com", "5000");
	will_return(__wrap_repo_leads_list_by_filter, 0);
	assert_int_equal(apitest_run(api_leads_list), 0);
	assert_int_equal(mock.limit, MAX_BATCH_SIZE + 1);
	/* A repository error answers its api_err. */
	by_email("ann@example.com", NULL);
	will_return(__wrap_repo_leads_list_by_filter, -REPO_ERR_DEADLOCK);
	assert_int_equal(apitest_run(api_leads_list), -API_ERR_TIMEOUT);
}

/* ---- Get Leads by Program Id ---- */

static void
test_list_by_program(void **state)
{
	char token[64];

	(void)state;
	req->path_ints[0] = 9;
	apitest_param("fields", "email");
	apitest_param("batchSize", "1");
	expect_value(__wrap_repo_leads_list_by_program, program_id, 9);
	will_return(__wrap_repo_leads_list_by_program, 2);
	assert_int_equal(apitest_run(api_leads_list_by_program), 0);
	assert_int_equal(mock.limit, 2);
	assert_int_equal(mock.after, 0);
	assert_string_equal(apitest_result(), "[{\"id\":1,\"email\":"
	    "\"ann@example.com\",\"membership\":{\"id\":9,"
	    "\"progressionStatus\":"
	    "\"Registered\",\"progressionStatusType\":\"Registered\","
	    "\"isExhausted\":false,\"acquiredBy\":true,\"reachedSuccess\":"
	    "false,"
	    "\"membershipDate\":\"2024-03-04T05:06:07Z\",\"updatedAt\":"
	    "\"2024-03-05T05:06:07Z\",\"stream\":\"Main\"}}]");
	assert_int_equal(resp->more_result, 1);
	snprintf(token, sizeof(token), "%s", resp->next_page_token);
	apitest_again();
	apitest_param("nextPageToken", token);
	expect_value(__wrap_repo_leads_list_by_program, program_id, 9);
	will_return(__wrap_repo_leads_list_by_program, 0);
	assert_int_equal(apitest_run(api_leads_list_by_program), 0);
	assert_int_equal(mock.after, 1);
	assert_int_equal(mock.limit, MAX_BATCH_SIZE + 1);
	/* The token is for program 9 only. */
	apitest_again();
	req->path_ints[0] = 10;
	apitest_param("nextPageToken", token);
	assert_int_equal(apitest_run(api_leads_list_by_program),
	    -API_ERR_INVALID_REQUEST);
	apitest_again();
	apitest_param("fields", "nope");
	assert_int_equal(apitest_run(api_leads_list_by_program),
	    -API_ERR_FIELD_NOT_FOUND);
}

/* ---- Sync Leads ---- */

static void
test_sync_ok(void **state)
{
	(void)state;
	apitest_body("{\"input\":[{\"email\":\"ann@example.com\",\"firstName\":"
	    "\"Ann\"},"
	    "{\"Email\":\"bo@example.com\",\"leadScore\":7}]}");
	mock.answer[0] = LEAD_CREATED;
	mock.answer[1] = LEAD_UPDATED;
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_sync), 0);
	assert_int_equal(mock.action, LEAD_CREATE_OR_UPDATE);
	assert_string_equal(mock.lookup, "email");
	assert_int_equal(mock.partition, 0);
	assert_false(mock.is_push);
	assert_false(mock.is_form);
	assert_string_equal(mock.new_attrs, "{\"Source Type\":\"Web service "
	    "API\",\"API Method Name\":\"syncLead\",\"Modifying User\":null,"
	    "\"Request Id\":\"1a2b#3c4d5e6f7a8\"}");
	assert_int_equal(mock.n, 2);
	assert_int_equal(mock.recs[0].ncols, 2);
	assert_string_equal(mock.keytext[0], "ann@example.com");
	assert_string_equal(mock.keytext[1], "bo@example.com");
	assert_string_equal(apitest_result(), "[{\"id\":100,\"status\":"
	    "\"created\"},{\"id\":101,\"status\":\"updated\"}]");
}

static void
test_sync_actions(void **state)
{
	static const struct {
		const char		*name;
		enum lead_action	 act;
	} acts[] = {
		{ "createOnly", LEAD_CREATE_ONLY },
		{ "updateOnly", LEAD_UPDATE_ONLY },
		{ "createOrUpdate", LEAD_CREATE_OR_UPDATE },
		{ "createDuplicate", LEAD_CREATE_DUPLICATE },
	};
	char json[160];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		apitest_again();
		snprintf(json, sizeof(json), "{\"action\":\"%s\",\"input\":"
		    "[{\"email\":\"a@b.io\"}]}", acts[i].name);
		apitest_body(json);
		will_return(__wrap_repo_leads_sync, 0);
		assert_int_equal(apitest_run(api_leads_sync), 0);
		assert_int_equal(mock.action, acts[i].act);
	}
	/* createDuplicate needs no lookup value. */
	apitest_again();
	apitest_body("{\"action\":\"createDuplicate\",\"input\":"
	    "[{\"firstName\":"
	    "\"X\"}]}");
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_sync), 0);
	assert_false(mock.recs[0].skip);
	assert_null(mock.recs[0].key);
}

static void
test_sync_update_by_id(void **state)
{
	(void)state;
	apitest_body("{\"action\":\"updateOnly\",\"lookupField\":\"id\","
	    "\"input\":"
	    "[{\"id\":7,\"firstName\":\"Ann\"}]}");
	mock.answer[0] = LEAD_UPDATED;
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_sync), 0);
	assert_string_equal(mock.lookup, "id");
	/* The id is the key, not a column to write. */
	assert_int_equal(mock.recs[0].ncols, 1);
	assert_string_equal(mock.recs[0].cols[0].f->name, "firstName");
	assert_non_null(mock.recs[0].key);
	assert_int_equal(mock.recs[0].key->kind, LV_INT);
	assert_int_equal(mock.recs[0].key->i, 7);
	assert_string_equal(apitest_result(), "[{\"id\":100,\"status\":"
	    "\"updated\"}]");
}

static void
test_sync_record_skips(void **state)
{
	(void)state;
	apitest_body("{\"input\":["
	    "{\"email\":\"a@b.io\",\"shoeSize\":9},"
	    "{\"email\":\"a@b.io\",\"createdAt\":\"2024-01-01\"},"
	    "{\"email\":\"a@b.io\",\"leadPartitionId\":2},"
	    "{\"email\":\"not an address\"},"
	    "{\"firstName\":\"NoKey\"},"
	    "[1],"
	    "{\"email\":\"a@b.io\",\"id\":3},"
	    "{\"email\":\"ok@b.io\"}]}");
	mock.answer[7] = LEAD_SKIPPED;		/* the repository's own */
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_sync), 0);
	assert_int_equal(mock.n, 8);
	assert_true(mock.recs[0].skip);
	assert_true(mock.recs[6].skip);
	assert_false(mock.recs[7].skip);
	assert_string_equal(apitest_result(), "["
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1006\","
	    "\"message\":\"Field 'shoeSize' not found\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1003\","
	    "\"message\":\"Field 'createdAt' is read-only\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1003\","
	    "\"message\":\"Field 'leadPartitionId' cannot be set: use "
	    "partitionName\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1003\","
	    "\"message\":\"Invalid value for field 'email' and value 'not an "
	    "address'\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1002\","
	    "\"message\":\"Missing value for the required parameter "
	    "'email'\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1003\","
	    "\"message\":\"Invalid lead record: a JSON object is required\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1003\","
	    "\"message\":\"Field 'id' can only be given as the lookupField of "
	    "action updateOnly\"}]},"
	    "{\"id\":107,\"status\":\"skipped\",\"reasons\":[{\"code\":"
	    "\"1004\","
	    "\"message\":\"Lead not found\"}]}]");
}

static void
test_sync_request_errors(void **state)
{
	static const struct {
		const char	*json;
		int		 err;
		const char	*msg;
	} bad[] = {
		{ "{}", -API_ERR_INVALID_REQUEST, "Leads not specified" },
		{ "[]", -API_ERR_INVALID_REQUEST, "Leads not specified" },
		{ "{\"input\":[]}", -API_ERR_INVALID_REQUEST,
		  "Leads not specified" },
		{ "{\"input\":{\"email\":\"a@b.io\"}}",
		  -API_ERR_INVALID_REQUEST, "Leads not specified" },
		{ "{\"action\":\"upsert\",\"input\":[{}]}",
		  -API_ERR_INVALID_REQUEST, "Invalid action 'upsert'" },
		{ "{\"action\":5,\"input\":[{}]}", -API_ERR_INVALID_REQUEST,
		  "Invalid value for 'action': a string is required" },
		{ "{\"lookupField\":\"firstName\",\"input\":[{}]}",
		  -API_ERR_FIELD_NOT_SUPPORTED,
		  "Field 'firstName' not supported" },
		{ "{\"lookupField\":\"id\",\"input\":[{\"id\":1}]}",
		  -API_ERR_FIELD_NOT_SUPPORTED, "Field 'id' not supported as "
		  "lookupField of action createOrUpdate" },
		{ "{\"partitionName\":[],\"input\":[{}]}",
		  -API_ERR_INVALID_REQUEST,
		  "Invalid value for 'partitionName': a string is required" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		apitest_fails(api_leads_sync, bad[i].json, bad[i].err,
		    bad[i].msg);
	assert_int_equal(mock.syncs, 0);
	/* No body at all. */
	apitest_no_body();
	apitest_fails(api_leads_sync, NULL, -API_ERR_INVALID_REQUEST,
	    "Leads not specified");
	/* The repository failing fails the request: no partial results. */
	will_return(__wrap_repo_leads_sync, -REPO_ERR_DEADLOCK);
	apitest_fails(api_leads_sync, "{\"input\":[{\"email\":\"a@b.io\"}]}",
	    -API_ERR_TIMEOUT, NULL);
}

static void
test_sync_batch_limit(void **state)
{
	struct json_object *in;

	(void)state;
	in = apitest_body_input(MAX_BATCH_RECORDS + 1,
	    "{\"email\":\"a@b.io\"}");
	assert_int_equal(apitest_run(api_leads_sync),
	    -API_ERR_INVALID_REQUEST);
	assert_string_equal(resp->err_msg, "Too many leads: at most 300 per "
	    "request");
	/* Exactly 300 goes through. */
	apitest_again();
	json_object_array_del_idx(in, 0, 1);
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_sync), 0);
	assert_int_equal(json_object_array_length(resp->result),
	    MAX_BATCH_RECORDS);
}

static void
test_sync_partition(void **state)
{
	(void)state;
	apitest_body("{\"partitionName\":\"Mexico\",\"input\":[{\"email\":"
	    "\"a@b.io\"}]}");
	expect_string(__wrap_repo_partitions_get_id_by_name, name, "Mexico");
	will_return(__wrap_repo_partitions_get_id_by_name, 0);
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_sync), 0);
	assert_int_equal(mock.partition, 4);
	assert_false(mock.recs[0].skip);

	/* An unknown partition skips the records that are otherwise fine. */
	apitest_again();
	apitest_body("{\"partitionName\":\"Nowhere\",\"input\":[{\"email\":"
	    "\"a@b.io\"},{\"shoeSize\":1}]}");
	expect_string(__wrap_repo_partitions_get_id_by_name, name, "Nowhere");
	will_return(__wrap_repo_partitions_get_id_by_name, -REPO_ERR_NOT_FOUND);
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_sync), 0);
	assert_true(mock.recs[0].skip);
	assert_string_equal(apitest_result(), "["
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1008\","
	    "\"message\":\"Access denied to partition 'Nowhere'\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1006\","
	    "\"message\":\"Field 'shoeSize' not found\"}]}]");

	/* An empty one, without asking the repository. */
	apitest_again();
	apitest_body("{\"partitionName\":\"\",\"input\":[{\"email\":"
	    "\"a@b.io\"}]}");
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_sync), 0);
	assert_string_equal(apitest_result(), "[{\"status\":\"skipped\","
	    "\"reasons\":[{\"code\":\"1009\",\"message\":\"Partition name must "
	    "be specified\"}]}]");

	/* A failing lookup fails the request. */
	apitest_again();
	apitest_body("{\"partitionName\":\"Mexico\",\"input\":[{\"email\":"
	    "\"a@b.io\"}]}");
	expect_string(__wrap_repo_partitions_get_id_by_name, name, "Mexico");
	will_return(__wrap_repo_partitions_get_id_by_name,
	    -REPO_ERR_UNAVAILABLE);
	assert_int_equal(apitest_run(api_leads_sync), -API_ERR_UNAVAILABLE);
}

static void
test_sync_new_field_elsewhere(void **state)
{
	const struct lead_schema *s;

	(void)state;
	/* A catalogue loaded by an earlier request of this worker. */
	assert_int_equal(api_leads_catalog_get(&apitest_call, false, &s), 0);
	assert_int_equal(apitest_catalog.loads, 1);
	apitest_app.served = 1;
	/* favColor was created since, on another worker. */
	apitest_catalog.version = 2;
	apitest_catalog.extra = true;
	apitest_body("{\"input\":[{\"email\":\"a@b.io\",\"favColor\":"
	    "\"red\"}]}");
	mock.answer[0] = LEAD_CREATED;
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_sync), 0);
	assert_int_equal(apitest_catalog.loads, 2);
	assert_false(mock.recs[0].skip);
	assert_int_equal(mock.recs[0].ncols, 2);
	assert_string_equal(apitest_result(), "[{\"id\":100,\"status\":"
	    "\"created\"}]");
}

/* ---- Push Lead ---- */

static void
test_push_ok(void **state)
{
	(void)state;
	apitest_body("{\"programName\":\"Webinar\",\"programStatus\":"
	    "\"Registered\","
	    "\"source\":\"Web\",\"reason\":\"Signed up\",\"input\":"
	    "[{\"email\":\"a@b.io\"}]}");
	expect_string(__wrap_repo_programs_get_by_name, name, "Webinar");
	will_return(__wrap_repo_programs_get_by_name, 0);
	mock.answer[0] = LEAD_CREATED;
	mock.with_m = true;
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_push), 0);
	assert_true(mock.is_push);
	assert_int_equal(mock.action, LEAD_CREATE_OR_UPDATE);
	assert_int_equal(mock.push_status, 2);
	assert_true(mock.status_given);
	assert_string_equal(mock.attrs, "{\"Program Name\":\"Webinar\","
	    "\"Program Status\":\"Registered\",\"Source\":\"Web\",\"Reason\":"
	    "\"Signed up\"}");
	assert_string_equal(apitest_result(), "[{\"id\":100,\"status\":"
	    "\"created\",\"membership\":{\"progressionStatus\":\"Registered\","
	    "\"acquiredBy\":true,\"reachedSuccess\":false,\"membershipDate\":"
	    "\"2024-03-04T05:06:07Z\",\"isExhausted\":false,\"stream\":null,"
	    "\"nurtureCadence\":null}}]");
}

static void
test_push_default_status(void **state)
{
	(void)state;
	apitest_body("{\"programName\":\"Webinar\",\"lookupField\":"
	    "\"leadScore\","
	    "\"input\":[{\"leadScore\":5},{\"email\":\"a@b.io\"}]}");
	expect_string(__wrap_repo_programs_get_by_name, name, "Webinar");
	will_return(__wrap_repo_programs_get_by_name, 0);
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_push), 0);
	/* The first status that makes a member, not "Not in Program". */
	assert_int_equal(mock.push_status, 1);
	assert_false(mock.status_given);
	assert_string_equal(mock.lookup, "leadScore");
	assert_string_equal(mock.attrs, "{\"Program Name\":\"Webinar\","
	    "\"Program Status\":\"Invited\",\"Source\":null,\"Reason\":null}");
	assert_false(mock.recs[0].skip);
	assert_true(mock.recs[1].skip);
	assert_int_equal(mock.recs[1].code, 1002);
}

static void
test_push_errors(void **state)
{
	(void)state;
	apitest_fails(api_leads_push, "{\"input\":[{\"email\":\"a@b.io\"}]}",
	    -API_ERR_INVALID_REQUEST, "programName not specified");
	apitest_fails(api_leads_push, "{\"programName\":7,\"input\":[{}]}",
	    -API_ERR_INVALID_REQUEST,
	    "Invalid value for 'programName': a string is required");
	apitest_fails(api_leads_push, "{\"programName\":\"Webinar\"}",
	    -API_ERR_INVALID_REQUEST, "Leads not specified");
	expect_string(__wrap_repo_programs_get_by_name, name, "Gone");
	will_return(__wrap_repo_programs_get_by_name, -REPO_ERR_NOT_FOUND);
	apitest_fails(api_leads_push, "{\"programName\":\"Gone\",\"input\":"
	    "[{\"email\":\"a@b.io\"}]}", -API_ERR_OBJECT_NOT_FOUND,
	    "Program 'Gone' not found");
	/* Status names are matched exactly. */
	expect_string(__wrap_repo_programs_get_by_name, name, "Webinar");
	will_return(__wrap_repo_programs_get_by_name, 0);
	apitest_fails(api_leads_push, "{\"programName\":\"Webinar\","
	    "\"programStatus\":\"registered\",\"input\":[{\"email\":"
	    "\"a@b.io\"}]}", -API_ERR_STATUS_NOT_FOUND,
	    "Program status 'registered' not found");
	expect_string(__wrap_repo_programs_get_by_name, name, "Webinar");
	will_return(__wrap_repo_programs_get_by_name, -REPO_ERR_CONN);
	apitest_fails(api_leads_push, "{\"programName\":\"Webinar\",\"input\":"
	    "[{\"email\":\"a@b.io\"}]}", -API_ERR_UNAVAILABLE, NULL);
	assert_int_equal(mock.syncs, 0);
}

/* ---- Submit Form ---- */

#define COOKIE	"id:063-GJP-217&token:_mch-marketo.com-1594662481190-60776"

static void
test_submit_form_ok(void **state)
{
	(void)state;
	apitest_body("{\"formId\":3,\"input\":[{\"leadFormFields\":{\"email\":"
	    "\"a@b.io\",\"firstName\":\"Ann\"},\"visitorData\":{\"pageURL\":"
	    "\"https://x.io/p\",\"userAgentString\":\"UA\"},\"cookie\":\""
	    COOKIE "\"}]}");
	expect_value(__wrap_repo_forms_get_by_id, id, 3);
	will_return(__wrap_repo_forms_get_by_id, 0);
	mock.answer[0] = LEAD_CREATED;
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_submit_form), 0);
	assert_true(mock.is_form);
	assert_false(mock.is_push);
	assert_string_equal(mock.lookup, "email");
	assert_string_equal(mock.cookie, COOKIE);
	assert_string_equal(mock.new_attrs, "{\"Source Type\":\"Web form "
	    "fillout\",\"API Method Name\":\"submitForm\",\"Modifying User\":"
	    "null,\"Request Id\":\"1a2b#3c4d5e6f7a8\"}");
	/* Without programId, the form's program. */
	assert_string_equal(mock.attrs, "{\"Webform ID\":3,\"Webform Name\":"
	    "\"Signup\",\"Form Fields\":{\"email\":\"a@b.io\",\"firstName\":"
	    "\"Ann\"},\"Web Page\":\"https://x.io/p\",\"Query Parameters\":"
	    "null,"
	    "\"Client IP Address\":null,\"User Agent\":\"UA\",\"Program ID\":"
	    "8}");
	assert_string_equal(apitest_result(), "[{\"id\":100,\"status\":"
	    "\"created\"}]");
}

static void
test_submit_form_program(void **state)
{
	(void)state;
	apitest_body("{\"formId\":\"3\",\"programId\":12,\"input\":"
	    "[{\"leadFormFields\":"
	    "{\"email\":\"a@b.io\"}}]}");
	expect_value(__wrap_repo_forms_get_by_id, id, 3);
	will_return(__wrap_repo_forms_get_by_id, 0);
	expect_value(__wrap_repo_programs_get_by_id, id, 12);
	will_return(__wrap_repo_programs_get_by_id, 0);
	will_return(__wrap_repo_leads_sync, 0);
	assert_int_equal(apitest_run(api_leads_submit_form), 0);
	assert_non_null(strstr(mock.attrs, "\"Program ID\":12}"));
	assert_string_equal(mock.cookie, "(null)");
	apitest_again();
	apitest_body("{\"formId\":3,\"programId\":404,\"input\":"
	    "[{\"leadFormFields\":"
	    "{\"email\":\"a@b.io\"}}]}");
	expect_value(__wrap_repo_forms_get_by_id, id, 3);
	will_return(__wrap_repo_forms_get_by_id, 0);
	expect_value(__wrap_repo_programs_get_by_id, id, 404);
	will_return(__wrap_repo_programs_get_by_id, -REPO_ERR_NOT_FOUND);
	assert_int_equal(apitest_run(api_leads_submit_form),
	    -API_ERR_OBJECT_NOT_FOUND);
	assert_string_equal(resp->err_msg, "Program '404' not found");
	/* An id out of range is not looked up. */
	apitest_again();
	apitest_body("{\"formId\":3,\"programId\":0,\"input\":"
	    "[{\"leadFormFields\":"
	    "{\"email\":\"a@b.io\"}}]}");
	expect_value(__wrap_repo_forms_get_by_id, id, 3);
	will_return(__wrap_repo_forms_get_by_id, 0);
	assert_int_equal(apitest_run(api_leads_submit_form),
	    -API_ERR_OBJECT_NOT_FOUND);
	assert_string_equal(resp->err_msg, "Program '0' not found");
	assert_int_equal(mock.syncs, 1);
}

static void
test_submit_form_skips(void **state)
{
	static const struct {
		const char	*item;
		int		 code;
		const char	*msg;
	} bad[] = {
		{ "{\"leadFormFields\":{\"email\":\"a@b.io\",\"company\":"
		    "\"X\"}}",
		  1006, "Field 'company' not found on form 'Signup'" },
		{ "{\"leadFormFields\":{\"email\":\"a@b.io\"},\"cookie\":"
		    "\"abc\"}",
		  1012, "Invalid cookie value 'abc'" },
		{ "{\"leadFormFields\":{\"email\":\"a@b.io\"},\"visitorData\":"
		  "\"x\"}", 1003, "Invalid visitorData: an object of strings "
		  "is "
		  "required" },
		{ "{\"leadFormFields\":{\"email\":\"a@b.io\"},\"visitorData\":"
		  "{\"pageURL\":5}}", 1003, "Invalid visitorData: an object of "
		  "strings is required" },
		{ "{\"visitorData\":{}}", 1003, "leadFormFields not "
		    "specified" },
		{ "{\"leadFormFields\":{\"firstName\":\"A\"}}", 1002,
		  "Missing value for the required parameter 'email'" },
	};
	char json[300];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		apitest_again();
		snprintf(json, sizeof(json), "{\"formId\":3,\"input\":[%s]}",
		    bad[i].item);
		apitest_body(json);
		expect_value(__wrap_repo_forms_get_by_id, id, 3);
		will_return(__wrap_repo_forms_get_by_id, 0);
		will_return(__wrap_repo_leads_sync, 0);
		assert_int_equal(apitest_run(api_leads_submit_form), 0);
		assert_true(mock.recs[0].skip);
		assert_int_equal(mock.recs[0].code, bad[i].code);
		assert_string_equal(mock.recs[0].msg, bad[i].msg);
		assert_non_null(strstr(apitest_result(), "\"status\":"
		    "\"skipped\""));
	}
}

static void
test_submit_form_errors(void **state)
{
	(void)state;
	apitest_fails(api_leads_submit_form, "{\"input\":[{}]}",
	    -API_ERR_INVALID_REQUEST, "formId not specified");
	apitest_fails(api_leads_submit_form, "{\"formId\":\"x3\",\"input\":"
	    "[{}]}", -API_ERR_INVALID_VALUE,
	    "Invalid value 'x3'. Required of type 'Integer'");
	apitest_fails(api_leads_submit_form, "{\"formId\":3,\"input\":[{},{}]}",
	    -API_ERR_INVALID_REQUEST,
	    "Submit Form takes exactly one input record, not 2");
	expect_value(__wrap_repo_forms_get_by_id, id, 99);
	will_return(__wrap_repo_forms_get_by_id, -REPO_ERR_NOT_FOUND);
	apitest_fails(api_leads_submit_form, "{\"formId\":99,\"input\":[{}]}",
	    -API_ERR_OBJECT_NOT_FOUND, "Form '99' not found");
	assert_int_equal(mock.syncs, 0);
}

/* ---- Delete Leads ---- */

static void
test_delete_body(void **state)
{
	(void)state;
	apitest_body("{\"input\":[{\"id\":1},{\"id\":2},{\"id\":\"x\"},{},"
	    "{\"id\":0}]}");
	mock.deleted[0] = true;
	expect_value(__wrap_repo_leads_delete, n, 5);
	will_return(__wrap_repo_leads_delete, 0);
	assert_int_equal(apitest_run(api_leads_delete), 0);
	assert_int_equal(mock.del[0].id, 1);
	assert_false(mock.del[1].skip);
	assert_true(mock.del[2].skip);
	assert_true(mock.del[3].skip);
	assert_true(mock.del[4].skip);
	assert_string_equal(apitest_result(), "[{\"id\":1,\"status\":"
	    "\"deleted\"},"
	    "{\"id\":2,\"status\":\"skipped\",\"reasons\":[{\"code\":\"1004\","
	    "\"message\":\"Lead not found\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1003\","
	    "\"message\":\"Invalid value for field 'id' and value 'x'\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1003\","
	    "\"message\":\"Invalid value for field 'id' and value 'null'\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1003\","
	    "\"message\":\"Invalid value for field 'id' and value '0'\"}]}]");
}

static void
test_delete_query(void **state)
{
	(void)state;
	apitest_param("id", "3,abc");
	apitest_param("id", "4");
	mock.deleted[0] = true;
	mock.deleted[2] = true;
	expect_value(__wrap_repo_leads_delete, n, 3);
	will_return(__wrap_repo_leads_delete, 0);
	assert_int_equal(apitest_run(api_leads_delete), 0);
	assert_int_equal(mock.del[0].id, 3);
	assert_true(mock.del[1].skip);
	assert_int_equal(mock.del[2].id, 4);
	assert_string_equal(apitest_result(), "[{\"id\":3,\"status\":"
	    "\"deleted\"},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1003\","
	    "\"message\":\"Invalid value for field 'id' and value 'abc'\"}]},"
	    "{\"id\":4,\"status\":\"deleted\"}]");
}

static void
test_delete_errors(void **state)
{
	static char ids[MAX_BATCH_RECORDS + 1][8];
	size_t i;

	(void)state;
	apitest_fails(api_leads_delete, NULL, -API_ERR_INVALID_REQUEST,
	    "Leads not specified");
	apitest_fails(api_leads_delete, "{\"input\":[]}",
	    -API_ERR_INVALID_REQUEST, "Leads not specified");
	/* The body's input wins over ?id=. */
	apitest_param("id", "5");
	apitest_fails(api_leads_delete, NULL, -API_ERR_INVALID_REQUEST, NULL);
	apitest_again();
	apitest_no_body();
	for (i = 0; i < MAX_BATCH_RECORDS + 1; i++) {
		snprintf(ids[i], sizeof(ids[i]), "%zu", i + 1);
		apitest_param("id", ids[i]);
	}
	apitest_fails(api_leads_delete, NULL, -API_ERR_INVALID_REQUEST,
	    "Too many leads: at most 300 per request");
	apitest_again();
	apitest_param("id", "5");
	expect_value(__wrap_repo_leads_delete, n, 1);
	will_return(__wrap_repo_leads_delete, -REPO_ERR_INTERNAL);
	apitest_fails(api_leads_delete, NULL, -API_ERR_SYSTEM, NULL);
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup, apitest_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_get_default_fields),
		T(test_get_fields),
		T(test_get_none_and_errors),
		T(test_list_request_errors),
		T(test_list_too_many_values),
		T(test_list_ok),
		T(test_list_cookies),
		T(test_list_paging),
		T(test_list_too_many_matches),
		T(test_list_batch_size),
		T(test_list_by_program),
		T(test_sync_ok),
		T(test_sync_actions),
		T(test_sync_update_by_id),
		T(test_sync_record_skips),
		T(test_sync_request_errors),
		T(test_sync_batch_limit),
		T(test_sync_partition),
		T(test_sync_new_field_elsewhere),
		T(test_push_ok),
		T(test_push_default_status),
		T(test_push_errors),
		T(test_submit_form_ok),
		T(test_submit_form_program),
		T(test_submit_form_skips),
		T(test_submit_form_errors),
		T(test_delete_body),
		T(test_delete_query),
		T(test_delete_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
