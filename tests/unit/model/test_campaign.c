/*
 * model/campaign.c: the type and status words of a campaign, attribute
 * choices, and the order of a step's choices after a reorder (the
 * default choice always last, refusals with their message).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/campaign.h"

static void
test_words(void **state)
{
	(void)state;
	assert_string_equal(campaign_type_name(0, 0), "default");
	assert_string_equal(campaign_type_name(0, 3), "batch");
	assert_string_equal(campaign_type_name(1, 0), "trigger");
	assert_string_equal(campaign_type_name(2, 5), "trigger");
	assert_string_equal(campaign_status_name(false, 0), "Never Run");
	assert_string_equal(campaign_status_name(false, 1), "Inactive");
	assert_string_equal(campaign_status_name(true, 1), "Active");
}

static void
test_choices(void **state)
{
	(void)state;
	assert_true(campaign_is_choice("Web,Email,Milestone", "Web"));
	assert_true(campaign_is_choice("Web,Email,Milestone", "Email"));
	assert_true(campaign_is_choice("Web,Email,Milestone", "Milestone"));
	assert_false(campaign_is_choice("Web,Email,Milestone", "web"));
	assert_false(campaign_is_choice("Web,Email,Milestone", "Mile"));
	assert_false(campaign_is_choice("Web,Email,Milestone", "Web,Email"));
	assert_false(campaign_is_choice("Web,Email,Milestone", ""));
	assert_false(campaign_is_choice("", "Web"));
	assert_true(campaign_is_choice("One", "One"));
}

/* Moves id to to in 10,20,30,(40 default) and checks the order. */
static void
moved(int32_t id, int to, const int32_t *want)
{
	static const int32_t ids[] = { 10, 20, 30, 40 };
	static const bool def[] = { false, false, false, true };
	int32_t out[4];
	char msg[CAMPAIGN_MSG_BYTES];

	assert_int_equal(campaign_move(ids, def, 4, id, to, out, msg,
	    sizeof(msg)), 0);
	assert_memory_equal(out, want, sizeof(out));
	assert_string_equal(msg, "");
}

static void
test_move(void **state)
{
	static const int32_t ids[] = { 10, 20, 30, 40 };
	static const bool def[] = { false, false, false, true };
	static const int32_t a[] = { 30, 10, 20, 40 };
	static const int32_t b[] = { 20, 30, 10, 40 };
	static const int32_t c[] = { 10, 20, 30, 40 };
	static const int32_t d[] = { 10, 30, 20, 40 };
	int32_t out[4], one = 7, got;
	bool dflt = true;
	char msg[CAMPAIGN_MSG_BYTES];

	(void)state;
	moved(30, 0, a);
	moved(10, 2, b);
	moved(20, 1, c);
	moved(30, 1, d);
	assert_int_equal(campaign_move(ids, def, 4, 30, 3, out, msg,
	    sizeof(msg)), -1);
	assert_string_equal(msg, "newSeqNumZeroBased must be from 0 to 2");
	assert_int_equal(campaign_move(ids, def, 4, 30, -1, out, msg,
	    sizeof(msg)), -1);
	assert_int_equal(campaign_move(ids, def, 4, 40, 0, out, msg,
	    sizeof(msg)), -1);
	assert_string_equal(msg, "The default choice is always the last");
	/* A step with its default choice only has nothing to move. */
	assert_int_equal(campaign_move(&one, &dflt, 1, 7, 0, &got, msg,
	    sizeof(msg)), -1);
	/* A short message buffer is cut, not overrun. */
	assert_int_equal(campaign_move(ids, def, 4, 30, 9, out, msg, 8), -1);
	assert_int_equal(strlen(msg), 7);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_choices),
		cmocka_unit_test(test_move),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
