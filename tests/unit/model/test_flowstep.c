/*
 * model/flowstep.c: the step type index and names, a Wait step's
 * durations and dates (good and bad), and My Token filling (any case,
 * unknown tokens, several tokens, braces that name no token).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/flowstep.h"
#include "util/arena.h"

#define MIN	60000LL
#define HOUR	(60 * MIN)
#define DAY	(24 * HOUR)

static void
test_kinds(void **state)
{
	(void)state;
	assert_int_equal(flowstep_of(FLOW_SEND_EMAIL), FLOWSTEP_SEND_EMAIL);
	assert_int_equal(flowstep_of(FLOW_WAIT), FLOWSTEP_WAIT);
	assert_int_equal(flowstep_of(FLOW_REMOVE_FROM_FLOW),
	    FLOWSTEP_REMOVE_FROM_FLOW);
	assert_int_equal(flowstep_of(0), FLOWSTEP_OTHER);
	assert_int_equal(flowstep_of(9999), FLOWSTEP_OTHER);
	assert_string_equal(flowstep_name(FLOWSTEP_CHANGE_DATA_VALUE),
	    "Change Data Value");
	assert_string_equal(flowstep_name(flowstep_of(104)),
	    "Change Program Status");
	assert_string_equal(flowstep_name(FLOWSTEP_OTHER), "Other");
	assert_string_equal(flowstep_name(FLOWSTEP__MAX), "Other");
}

/* s parses as a duration of want_ms, or the time want_at (one is 0). */
static void
parsed(const char *s, int64_t want_ms, int64_t want_at)
{
	int64_t ms = -1, at = -1;

	assert_int_equal(flowstep_wait_parse(s, &ms, &at), 0);
	assert_int_equal(ms, want_ms);
	assert_int_equal(at, want_at);
}

#define dur(s, ms)	parsed((s), (ms), 0)
#define date(s, at)	parsed((s), 0, (at))

static void
bad(const char *s)
{
	int64_t ms = -1, at = -1;

	assert_int_equal(flowstep_wait_parse(s, &ms, &at), -1);
	assert_int_equal(ms, 0);
	assert_int_equal(at, 0);
}

static void
test_wait_durations(void **state)
{
	(void)state;
	dur("30 minutes", 30 * MIN);
	dur("1 minute", MIN);
	dur("4 hours", 4 * HOUR);
	dur("1 Hour", HOUR);
	dur("2 days", 2 * DAY);
	dur("2days", 2 * DAY);
	dur("  3 DAYS", 3 * DAY);
	dur("1 week", 7 * DAY);
	dur("2 weeks", 14 * DAY);
	dur("1 month", 30 * DAY);
	dur("100000 minutes", 100000 * MIN);
	dur("5 days later", 5 * DAY);
}

static void
test_wait_dates(void **state)
{
	(void)state;
	date("1970-01-01", 0);
	date("2026-03-01", 1772323200000LL);
	date("2026-03-01 12:30", 1772323200000LL + 12 * HOUR + 30 * MIN);
	date("2026-03-01T12:30:15", 1772323200000LL + 12 * HOUR + 30 * MIN +
	    15000);
	date("2026-03-01 00:00:00Z", 1772323200000LL);
	date(" 2024-02-29", 1709164800000LL);
}

static void
test_wait_bad(void **state)
{
	(void)state;
	bad(NULL);
	bad("");
	bad("days");
	bad("0 days");
	bad("-2 days");
	bad("100001 minutes");
	bad("2 fortnights");
	bad("2 d");
	bad("2.5 hours");
	bad("2 days!");
	bad("1969-12-31");
	bad("2026-13-01");
	bad("2026-02-00");
	bad("2026-03-01 24:00");
	bad("2026-03-01 12:60");
	bad("2026-03-01 12:30:61");
	bad("2026-03-01 12");
	bad("2026-03-01+01:00");
	bad("2026-3-01");
}

static void
test_fill(void **state)
{
	const struct flow_token t[] = {
		{ "Event", "Spring Gala" },
		{ "city", "Lyon" },
		{ "event", "shadowed" },
		{ "empty", NULL },
	};
	struct arena a;
	const char *s = "no tokens here";

	(void)state;
	arena_init(&a);
	/* Nothing to fill: the text itself. */
	assert_ptr_equal(flowstep_fill_tokens(&a, s, t, 4), s);
	assert_null(flowstep_fill_tokens(&a, NULL, t, 4));
	s = "{{my.Event}}";
	assert_ptr_equal(flowstep_fill_tokens(&a, s, t, 0), s);
	/* One token; names and "my." without case; the first of a name. */
	assert_string_equal(flowstep_fill_tokens(&a, "{{my.Event}}", t, 4),
	    "Spring Gala");
	assert_string_equal(flowstep_fill_tokens(&a, "{{MY.event}}!", t, 4),
	    "Spring Gala!");
	/* Several tokens, and one twice. */
	assert_string_equal(flowstep_fill_tokens(&a,
	    "{{my.event}} in {{my.City}}: {{my.event}}", t, 4),
	    "Spring Gala in Lyon: Spring Gala");
	/* Unknown tokens and other braces are left as they are. */
	assert_string_equal(flowstep_fill_tokens(&a,
	    "{{my.nope}} {{lead.First Name}} {{my.city}}", t, 4),
	    "{{my.nope}} {{lead.First Name}} Lyon");
	assert_string_equal(flowstep_fill_tokens(&a, "{{ {{my.city}} }}", t,
	    4), "{{ Lyon }}");
	assert_string_equal(flowstep_fill_tokens(&a, "{{my.city", t, 4),
	    "{{my.city");
	assert_string_equal(flowstep_fill_tokens(&a, "{{my.}}", t, 4),
	    "{{my.}}");
	assert_string_equal(flowstep_fill_tokens(&a, "{{my.cit}}y}}", t, 4),
	    "{{my.cit}}y}}");
	/* A token with no value fills as empty. */
	assert_string_equal(flowstep_fill_tokens(&a, "[{{my.empty}}]", t, 4),
	    "[]");
	arena_clear(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_wait_durations),
		cmocka_unit_test(test_wait_dates),
		cmocka_unit_test(test_wait_bad),
		cmocka_unit_test(test_fill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
