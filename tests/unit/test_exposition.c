/*
 * GET /metrics text (src/exposition.c): every line is a comment of the
 * text format 0.0.4 or a sample that parses; every family has one # TYPE
 * before its samples; no series is written twice (routes that share an
 * operationId are summed); counters end in _total; histogram buckets are
 * cumulative, end with le="+Inf" and agree with _count.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "err.h"
#include "exposition.h"
#include "http/router.h"
#include "model/export.h"
#include "util/buf.h"
#include "model/flowstep.h"
#include "util/metrics.h"

#define MAX_LINES	4096
#define MAX_TYPES	64

/* What the checker learnt from one text. */
struct parsed {
	char	*series[MAX_LINES];	/* "name{labels}" of each sample */
	double	 values[MAX_LINES];
	size_t	 nseries;
	char	*types[MAX_TYPES];	/* "name type" of each # TYPE */
	size_t	 ntypes;
};

static bool
is_name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	    c == ':' || (!first && c >= '0' && c <= '9');
}

/* Skips a metric or label name at *p; false when there is none. */
static bool
skip_name(const char **p)
{
	const char *s = *p;

	if (!is_name_char(*s, true))
		return false;
	while (is_name_char(*s, false))
		s++;
	*p = s;
	return true;
}

/* Parses a sample value (a decimal number or +Inf); false if it is not. */
static bool
parse_value(const char *s, double *v)
{
	char *end;

	if (strcmp(s, "+Inf") == 0) {
		*v = 1e308;
		return true;
	}
	if (*s == '\0' || strspn(s, "0123456789.-e") != strlen(s))
		return false;
	*v = strtod(s, &end);
	return *end == '\0';
}

/* The type a # TYPE line gave family name, or NULL. */
static const char *
type_of(const struct parsed *ps, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ps->ntypes; i++)
		if (strncmp(ps->types[i], name, len) == 0 &&
		    ps->types[i][len] == ' ')
			return ps->types[i] + len + 1;
	return NULL;
}

/* The family of a sample name: histograms' suffixes taken off. */
static const char *
family_type(const struct parsed *ps, const char *name, size_t len)
{
	static const char *const sfx[] = { "_bucket", "_sum", "_count" };
	const char *t;
	size_t i, n;

	if ((t = type_of(ps, name, len)) != NULL)
		return t;
	for (i = 0; i < 3; i++) {
		n = strlen(sfx[i]);
		if (len > n && strncmp(name + len - n, sfx[i], n) == 0 &&
		    (t = type_of(ps, name, len - n)) != NULL &&
		    strcmp(t, "histogram") == 0)
			return t;
	}
	return NULL;
}

static void
check_comment(struct parsed *ps, const char *line)
{
	const char *p = line + 7, *name = p;
	char *t;

	if (strncmp(line, "# HELP ", 7) == 0) {
		assert_true(skip_name(&p));
		assert_true(*p == ' ' && p[1] != '\0');
		return;
	}
	assert_true(strncmp(line, "# TYPE ", 7) == 0);
	assert_true(skip_name(&p));
	assert_true(*p == ' ');
	assert_null(type_of(ps, name, (size_t)(p - name)));
	assert_true(strcmp(p + 1, "counter") == 0 ||
	    strcmp(p + 1, "gauge") == 0 || strcmp(p + 1, "histogram") == 0);
	if (strcmp(p + 1, "counter") == 0)
		assert_true(p - name > 6 && strncmp(p - 6, "_total", 6) == 0);
	assert_true(ps->ntypes < MAX_TYPES);
	assert_non_null(t = strdup(name));
	ps->types[ps->ntypes++] = t;
}

static void
check_sample(struct parsed *ps, const char *line)
{
	const char *p = line, *sp;
	char *key;
	size_t i;

	assert_true(skip_name(&p));
	if (family_type(ps, line, (size_t)(p - line)) == NULL)
		fail_msg("sample before its # TYPE: %s", line);
	if (*p == '{') {
		p++;
		while (*p != '}') {
			assert_true(skip_name(&p));
			assert_true(p[0] == '=' && p[1] == '"');
			p += 2;
			while (*p != '"' && *p != '\0') {
				assert_true(*p != '\\' && *p != '\n');
				p++;
			}
			assert_true(*p == '"');
			p++;
			if (*p == ',')
				p++;
			else
				assert_true(*p == '}');
		}
		p++;
	}
	assert_true(*p == ' ');
	sp = p;
	assert_true(ps->nseries < MAX_LINES);
	assert_true(parse_value(sp + 1, &ps->values[ps->nseries]));
	assert_non_null(key = strndup(line, (size_t)(sp - line)));
	for (i = 0; i < ps->nseries; i++)
		if (strcmp(ps->series[i], key) == 0)
			fail_msg("series written twice: %s", key);
	ps->series[ps->nseries++] = key;
}

/* Checks every line of text; fills *ps. */
static void
parse_text(const char *text, struct parsed *ps)
{
	char *copy, *line, *save = NULL;

	memset(ps, 0, sizeof(*ps));
	assert_true(strlen(text) > 0 && text[strlen(text) - 1] == '\n');
	assert_non_null(copy = strdup(text));
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			check_comment(ps, line);
		else
			check_sample(ps, line);
	}
	free(copy);
}

static void
parsed_free(struct parsed *ps)
{
	size_t i;

	for (i = 0; i < ps->nseries; i++)
		free(ps->series[i]);
	for (i = 0; i < ps->ntypes; i++)
		free(ps->types[i]);
}

/* The value of series key, or -1 when it is not there. */
static double
value_of(const struct parsed *ps, const char *key)
{
	size_t i;

	for (i = 0; i < ps->nseries; i++)
		if (strcmp(ps->series[i], key) == 0)
			return ps->values[i];
	return -1;
}

/*
 * Every histogram's buckets are cumulative, its last is +Inf and equals
 * _count.  Returns the number of histogram series checked.
 */
static size_t
check_histograms(const struct parsed *ps)
{
	const char *name = "mautod_request_duration_seconds_bucket{";
	char count[256];
	double prev = -1;
	size_t i, n = 0;
	const char *le;

	for (i = 0; i < ps->nseries; i++) {
		if (strncmp(ps->series[i], name, strlen(name)) != 0) {
			prev = -1;
			continue;
		}
		assert_true(ps->values[i] >= prev);
		prev = ps->values[i];
		le = strstr(ps->series[i], ",le=\"");
		assert_non_null(le);
		if (strcmp(le, ",le=\"+Inf\"}") != 0)
			continue;
		(void)snprintf(count, sizeof(count),
		    "mautod_request_duration_seconds_count%.*s}",
		    (int)(le - ps->series[i] - strlen(name) + 1),
		    ps->series[i] + strlen(name) - 1);
		assert_true(value_of(ps, count) == ps->values[i]);
		n++;
	}
	return n;
}

/* The index of the first route with operationId op, and a second one. */
static size_t
route_of(const char *op, size_t *other)
{
	size_t i, first = nroutes;

	*other = nroutes;
	for (i = 0; i < nroutes; i++) {
		if (strcmp(routes[i].op_id, op) != 0)
			continue;
		if (first == nroutes)
			first = i;
		else
			*other = i;
	}
	assert_true(first < nroutes);
	return first;
}

static char *
render(struct metrics *m, const int64_t *jobs)
{
	struct metrics_snapshot *s;
	struct buf b;
	char *text;

	assert_non_null(s = malloc(sizeof(*s)));
	metrics_snapshot(m, s);
	buf_init(&b, 1 << 20);
	exposition_render(&b, s, jobs);
	assert_true(buf_ok(&b));
	assert_non_null(text = strndup(b.data, b.len));
	buf_clear(&b);
	free(s);
	return text;
}

static void
test_empty_is_valid(void **state)
{
	struct metrics *m;
	struct parsed ps;
	char *text;

	(void)state;
	assert_non_null(m = metrics_create());
	text = render(m, NULL);
	parse_text(text, &ps);
	assert_int_equal(check_histograms(&ps), 0);
	assert_true(value_of(&ps,
	    "mautod_limit_refusals_total{code=\"606\"}") == 0);
	assert_true(value_of(&ps, "mautod_workers_alive") == 0);
	/* No samples of the jobs when the database did not answer. */
	assert_null(strstr(text, "mautod_export_jobs{"));
	assert_non_null(strstr(text, "# TYPE mautod_export_jobs gauge\n"));
	parsed_free(&ps);
	free(text);
	metrics_destroy(m);
}

/* The samples test_counts_and_histograms expects. */
static const struct {
	const char	*key;
	double		 value;
} want[] = {
#define GET_OP	"op=\"getLeadsByFilterUsingGET\""
#define BUCKET	"mautod_request_duration_seconds_bucket{" GET_OP ",le="
	{ ("mautod_requests_total{" GET_OP ",status=\"200\",code=\"\"}"), 2 },
	{ ("mautod_requests_total{" GET_OP ",status=\"200\","
	    "code=\"1003\"}"), 1 },
	{ ("mautod_requests_total{" GET_OP ",status=\"401\","
	    "code=\"invalid_client\"}"), 1 },
	{ ("mautod_requests_total{op=\"deleteLeadsUsingPOST\",status=\"200\","
	    "code=\"\"}"), 2 },
	{ "mautod_requests_total{op=\"none\",status=\"200\",code=\"610\"}", 1 },
	{ "mautod_requests_total{op=\"none\",status=\"413\",code=\"611\"}", 1 },
	{ (BUCKET "\"0.005\"}"), 3 },
	{ (BUCKET "\"0.01\"}"), 4 },
	{ (BUCKET "\"10\"}"), 4 },
	{ (BUCKET "\"+Inf\"}"), 5 },
	{ ("mautod_request_duration_seconds_count{" GET_OP "}"), 5 },
	{ "mautod_request_duration_seconds_count{op=\"deleteLeadsUsingPOST\"}",
	    2 },
	{ "mautod_limit_refusals_total{code=\"606\"}", 1 },
	{ "mautod_limit_refusals_total{code=\"615\"}", 0 },
	{ "mautod_db_errors_total", 1 },
	{ "mautod_db_reconnects_total{result=\"ok\"}", 0 },
	{ "mautod_db_reconnects_total{result=\"failed\"}", 1 },
	{ "mautod_db_deadlocks_total{result=\"retried\"}", 2 },
	{ "mautod_db_deadlocks_total{result=\"exhausted\"}", 1 },
	{ "mautod_page_cache_total{result=\"hit\"}", 0 },
	{ "mautod_page_cache_total{result=\"miss\"}", 0 },
	{ "mautod_export_jobs{state=\"Queued\"}", 2 },
	{ "mautod_export_jobs{state=\"Cancelled\"}", 6 },
	{ "mautod_workers_alive", 4 },
	{ "mautod_export_runners_alive", 2 },
#undef BUCKET
#undef GET_OP
};

static void
test_counts_and_histograms(void **state)
{
	int64_t jobs[EXPORT_STATUS__MAX] = { 1, 2, 0, 4, 0, 6 };
	struct metrics *m;
	struct parsed ps;
	size_t get, del, del2, none, i;
	char *text;

	(void)state;
	assert_true(nroutes <= METRICS_ROUTES);
	assert_non_null(m = metrics_create());
	get = route_of("getLeadsByFilterUsingGET", &none);
	del = route_of("deleteLeadsUsingPOST", &del2);
	assert_true(del2 < nroutes);	/* a variant shares the op_id */
	metrics_request(m, get, 200, 0, 3000);
	metrics_request(m, get, 200, 0, 7000);
	metrics_request(m, get, 200, -API_ERR_INVALID_REQUEST, 20000000);
	metrics_request(m, del, 200, 0, 1000);
	metrics_request(m, del2, 200, 0, 1000);
	metrics_request(m, METRICS_NO_ROUTE, 200, -API_ERR_NOT_FOUND, 10);
	metrics_request(m, METRICS_NO_ROUTE, 413, -API_ERR_TOO_LARGE, 10);
	metrics_request(m, get, 200, -API_ERR_RATE_LIMIT, 10);
	metrics_request(m, get, 401, -API_ERR_OAUTH_INVALID_CLIENT, 10);
	metrics_db_error(m);
	metrics_db_reconnect(m, false);
	metrics_db_deadlock(m, true);
	metrics_db_deadlock(m, false);
	metrics_db_deadlock(m, true);
	metrics_set_procs(m, 4, 2);
	text = render(m, jobs);
	parse_text(text, &ps);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (value_of(&ps, want[i].key) != want[i].value)
			fail_msg("%s: expected %g, got %g", want[i].key,
			    want[i].value, value_of(&ps, want[i].key));
	assert_int_equal(check_histograms(&ps), 3);
	assert_non_null(strstr(text, "mautod_request_duration_seconds_sum{op=\""
	    "getLeadsByFilterUsingGET\"} 20.010020\n"));
	parsed_free(&ps);
	free(text);
	metrics_destroy(m);
}

/* The campaign engine's families: steps, runs, offers, queue, latency. */
static void
test_engine(void **state)
{
	static const struct {
		const char	*key;
		double		 value;
	} engine_want[] = {
#define STEPS	"mautod_campaign_steps_total{type="
#define FIRST	"mautod_campaign_first_step_seconds"
		{ STEPS "\"Change Data Value\",result=\"done\"}", 2 },
		{ STEPS "\"Change Data Value\",result=\"skipped\"}", 1 },
		{ STEPS "\"Wait\",result=\"done\"}", 1 },
		{ STEPS "\"Other\",result=\"failed\"}", 1 },
		{ STEPS "\"Wait\",result=\"failed\"}", -1 },
		{ "mautod_campaign_runs_started_total{kind=\"request\"}", 1 },
		{ "mautod_campaign_runs_started_total{kind=\"trigger\"}", 3 },
		{ "mautod_campaign_runs_started_total{kind=\"batch\"}", 0 },
		{ "mautod_campaign_offers_total{result=\"fired\"}", 2 },
		{ "mautod_campaign_offers_total{result=\"ignored\"}", 1 },
		{ "mautod_campaign_queue{queue=\"due\"}", 5 },
		{ "mautod_campaign_queue{queue=\"waiting\"}", 7 },
		{ "mautod_campaign_queue{queue=\"offers\"}", 0 },
		{ "mautod_campaign_queue{queue=\"scheduled\"}", 1 },
		{ FIRST "_bucket{kind=\"trigger\",le=\"0.05\"}", 1 },
		{ FIRST "_bucket{kind=\"trigger\",le=\"1\"}", 2 },
		{ FIRST "_bucket{kind=\"trigger\",le=\"300\"}", 2 },
		{ FIRST "_bucket{kind=\"trigger\",le=\"+Inf\"}", 3 },
		{ FIRST "_count{kind=\"trigger\"}", 3 },
		{ FIRST "_bucket{kind=\"request\",le=\"+Inf\"}", -1 },
#undef FIRST
#undef STEPS
	};
	int64_t q[METRICS_QUEUE__MAX] = { 5, 7, 0, 1 };
	struct metrics *m;
	struct parsed ps;
	char *text;
	size_t i;

	(void)state;
	assert_non_null(m = metrics_create());
	/* No queue samples before a runner counted. */
	text = render(m, NULL);
	assert_null(strstr(text, "mautod_campaign_queue{"));
	assert_non_null(strstr(text, "# TYPE mautod_campaign_queue gauge\n"));
	assert_null(strstr(text, "mautod_campaign_steps_total{"));
	free(text);
	metrics_step(m, FLOWSTEP_CHANGE_DATA_VALUE, METRICS_STEP_DONE);
	metrics_step(m, FLOWSTEP_CHANGE_DATA_VALUE, METRICS_STEP_DONE);
	metrics_step(m, FLOWSTEP_CHANGE_DATA_VALUE, METRICS_STEP_SKIPPED);
	metrics_step(m, FLOWSTEP_WAIT, METRICS_STEP_DONE);
	metrics_step(m, FLOWSTEP_OTHER, METRICS_STEP_FAILED);
	metrics_run_started(m, METRICS_RUN_REQUEST, 1);
	metrics_run_started(m, METRICS_RUN_TRIGGER, 2);
	metrics_run_started(m, METRICS_RUN_TRIGGER, 1);
	metrics_offer(m, true);
	metrics_offer(m, true);
	metrics_offer(m, false);
	metrics_set_queue(m, q);
	metrics_first_step(m, METRICS_RUN_TRIGGER, 40000);
	metrics_first_step(m, METRICS_RUN_TRIGGER, 900000);
	metrics_first_step(m, METRICS_RUN_TRIGGER, 400000000);
	text = render(m, NULL);
	parse_text(text, &ps);
	for (i = 0; i < sizeof(engine_want) / sizeof(engine_want[0]); i++)
		if (value_of(&ps, engine_want[i].key) != engine_want[i].value)
			fail_msg("%s: expected %g, got %g", engine_want[i].key,
			    engine_want[i].value,
			    value_of(&ps, engine_want[i].key));
	assert_non_null(strstr(text, "mautod_campaign_first_step_seconds_sum"
	    "{kind=\"trigger\"} 400.940000\n"));
	parsed_free(&ps);
	free(text);
	metrics_destroy(m);
}

/* The error table gives each api_err its own labels, so none are merged. */
static void
test_result_labels_distinct(void **state)
{
	const struct err_info *a, *b;
	const char *ca, *cb;
	int i, j;

	(void)state;
	for (i = 1; i < API_ERR__MAX; i++)
		for (j = i + 1; j < API_ERR__MAX; j++) {
			a = err_lookup(i);
			b = err_lookup(j);
			ca = a->code != NULL ? a->code : a->oauth_error;
			cb = b->code != NULL ? b->code : b->oauth_error;
			assert_non_null(ca);
			if (a->http_status == b->http_status &&
			    strcmp(ca, cb) == 0)
				fail_msg("api_err %d and %d share labels", i,
				    j);
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_is_valid),
		cmocka_unit_test(test_counts_and_histograms),
		cmocka_unit_test(test_result_labels_distinct),
		cmocka_unit_test(test_engine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
