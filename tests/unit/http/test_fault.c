/*
 * The values of X-Mauto-Fault (http/fault.c): the eight codes, delays
 * within their bound, the codes the identity endpoint ignores, and
 * everything else refused.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include "bounds.h"
#include "err.h"
#include "http/fault.h"

static void
expect(const char *v, bool identity, enum fault_kind kind, int err,
    int delay_ms)
{
	struct fault f;

	fault_parse(v, identity, &f);
	if (f.kind != kind || f.err != err || f.delay_ms != delay_ms)
		fail_msg("fault_parse(\"%s\", %d): %d %d %d, want %d %d %d",
		    v != NULL ? v : "(null)", identity, f.kind, f.err,
		    f.delay_ms, kind, err, delay_ms);
}

static void
test_codes(void **state)
{
	static const struct { const char *v; enum api_err err; } c[] = {
		{ "601", API_ERR_TOKEN_INVALID },
		{ "602", API_ERR_TOKEN_EXPIRED },
		{ "604", API_ERR_TIMEOUT },
		{ "606", API_ERR_RATE_LIMIT },
		{ "607", API_ERR_DAILY_QUOTA },
		{ "608", API_ERR_UNAVAILABLE },
		{ "611", API_ERR_SYSTEM },
		{ "615", API_ERR_CONCURRENCY },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		expect(c[i].v, false, FAULT_ERROR, -(int)c[i].err, 0);
		assert_int_equal(fault_err_of_code(
		    (int)(c[i].v[0] - '0') * 100 + (c[i].v[1] - '0') * 10 +
		    (c[i].v[2] - '0')), -(int)c[i].err);
	}
	assert_int_equal(fault_err_of_code(603), 0);
	assert_int_equal(fault_err_of_code(1001), 0);
}

static void
test_identity(void **state)
{
	(void)state;
	expect("604", true, FAULT_ERROR, -API_ERR_TIMEOUT, 0);
	expect("608", true, FAULT_ERROR, -API_ERR_UNAVAILABLE, 0);
	expect("611", true, FAULT_ERROR, -API_ERR_SYSTEM, 0);
	expect("601", true, FAULT_NONE, 0, 0);
	expect("606", true, FAULT_NONE, 0, 0);
	expect("615", true, FAULT_NONE, 0, 0);
	expect("delay=5", true, FAULT_DELAY, 0, 5);
	expect("nonsense", true, FAULT_BAD, 0, 0);
}

static void
test_delays_and_others(void **state)
{
	(void)state;
	expect(NULL, false, FAULT_NONE, 0, 0);
	expect("", false, FAULT_NONE, 0, 0);
	expect("delay=0", false, FAULT_DELAY, 0, 0);
	expect("delay=30000", false, FAULT_DELAY, 0, MAX_FAULT_DELAY_MS);
	expect("delay=30001", false, FAULT_BAD, 0, 0);
	expect("delay=-1", false, FAULT_BAD, 0, 0);
	expect("delay=", false, FAULT_BAD, 0, 0);
	expect("delay=1x", false, FAULT_BAD, 0, 0);
	expect("603", false, FAULT_BAD, 0, 0);
	expect("610", false, FAULT_BAD, 0, 0);
	expect("601 ", false, FAULT_BAD, 0, 0);
	expect("6010", false, FAULT_BAD, 0, 0);
	expect("x", false, FAULT_BAD, 0, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codes),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_delays_and_others),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
