/*
 * model/asset.c: every change of a versioned asset from every state,
 * allowed and refused, and which version a read shows.  No database.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/asset.h"

/* The states, by has_draft, has_approved, in_use. */
#define DRAFT		{ true, false, false }
#define DRAFT_USED	{ true, false, true }
#define APPR		{ false, true, false }
#define APPR_USED	{ false, true, true }
#define BOTH		{ true, true, false }
#define BOTH_USED	{ true, true, true }
#define NONE		{ false, false, false }
#define NONE_USED	{ false, false, true }

static const char *const op_names[] = {
	[ASSET_EDIT] = "edit",
	[ASSET_APPROVE] = "approve",
	[ASSET_UNAPPROVE] = "unapprove",
	[ASSET_DISCARD] = "discard",
	[ASSET_DELETE] = "delete",
};

/*
 * One change: from state, op gives state to (msg NULL), or is refused
 * with msg and leaves the state as it was.
 */
struct step {
	struct asset_versions	 from;
	enum asset_op		 op;
	struct asset_versions	 to;
	const char		*msg;
};

static const char NO_DRAFT[] = "Cannot approve: the asset has no draft";
static const char NOT_APPR[] = "Cannot unapprove: the asset is not approved";
static const char UNAPPR_USED[] = "Cannot unapprove an asset that is in use";
static const char DISC_NONE[] = "Cannot discard: the asset has no draft";
static const char DISC_NEVER[] =
    "Cannot discard the draft of an asset that was never approved";
static const char DEL_APPR[] =
    "Cannot delete an approved asset: unapprove it first";
static const char DEL_USED[] = "Cannot delete an asset that is in use";

static const struct step steps[] = {
	/* Edit is always allowed and makes or changes the draft. */
	{ DRAFT, ASSET_EDIT, DRAFT, NULL },
	{ DRAFT_USED, ASSET_EDIT, DRAFT_USED, NULL },
	{ APPR, ASSET_EDIT, BOTH, NULL },
	{ APPR_USED, ASSET_EDIT, BOTH_USED, NULL },
	{ BOTH, ASSET_EDIT, BOTH, NULL },
	{ BOTH_USED, ASSET_EDIT, BOTH_USED, NULL },
	{ NONE, ASSET_EDIT, DRAFT, NULL },
	/* Approve needs a draft; use does not matter. */
	{ DRAFT, ASSET_APPROVE, APPR, NULL },
	{ DRAFT_USED, ASSET_APPROVE, APPR_USED, NULL },
	{ APPR, ASSET_APPROVE, APPR, NO_DRAFT },
	{ APPR_USED, ASSET_APPROVE, APPR_USED, NO_DRAFT },
	{ BOTH, ASSET_APPROVE, APPR, NULL },
	{ BOTH_USED, ASSET_APPROVE, APPR_USED, NULL },
	{ NONE, ASSET_APPROVE, NONE, NO_DRAFT },
	/* Unapprove needs an approved version nothing uses. */
	{ DRAFT, ASSET_UNAPPROVE, DRAFT, NOT_APPR },
	{ DRAFT_USED, ASSET_UNAPPROVE, DRAFT_USED, NOT_APPR },
	{ APPR, ASSET_UNAPPROVE, DRAFT, NULL },
	{ APPR_USED, ASSET_UNAPPROVE, APPR_USED, UNAPPR_USED },
	{ BOTH, ASSET_UNAPPROVE, DRAFT, NULL },
	{ BOTH_USED, ASSET_UNAPPROVE, BOTH_USED, UNAPPR_USED },
	{ NONE, ASSET_UNAPPROVE, NONE, NOT_APPR },
	{ NONE_USED, ASSET_UNAPPROVE, NONE_USED, NOT_APPR },
	/* Discard needs a draft beside an approved version. */
	{ DRAFT, ASSET_DISCARD, DRAFT, DISC_NEVER },
	{ DRAFT_USED, ASSET_DISCARD, DRAFT_USED, DISC_NEVER },
	{ APPR, ASSET_DISCARD, APPR, DISC_NONE },
	{ APPR_USED, ASSET_DISCARD, APPR_USED, DISC_NONE },
	{ BOTH, ASSET_DISCARD, APPR, NULL },
	{ BOTH_USED, ASSET_DISCARD, APPR_USED, NULL },
	{ NONE, ASSET_DISCARD, NONE, DISC_NONE },
	/* Delete needs an asset that is neither approved nor in use. */
	{ DRAFT, ASSET_DELETE, NONE, NULL },
	{ DRAFT_USED, ASSET_DELETE, DRAFT_USED, DEL_USED },
	{ APPR, ASSET_DELETE, APPR, DEL_APPR },
	{ APPR_USED, ASSET_DELETE, APPR_USED, DEL_APPR },
	{ BOTH, ASSET_DELETE, BOTH, DEL_APPR },
	{ BOTH_USED, ASSET_DELETE, BOTH_USED, DEL_APPR },
	{ NONE, ASSET_DELETE, NONE, NULL },
	{ NONE_USED, ASSET_DELETE, NONE_USED, DEL_USED },
};

static void
test_steps(void **state)
{
	struct asset_versions v;
	const char *msg;
	size_t i;
	int r;

	(void)state;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		v = steps[i].from;
		msg = "unset";
		r = asset_apply(&v, steps[i].op, &msg);
		if (r != (steps[i].msg == NULL ? 0 : -1) ||
		    (steps[i].msg == NULL) != (msg == NULL) ||
		    (msg != NULL && strcmp(msg, steps[i].msg) != 0) ||
		    v.has_draft != steps[i].to.has_draft ||
		    v.has_approved != steps[i].to.has_approved ||
		    v.in_use != steps[i].to.in_use)
			fail_msg("step %zu (%s): r %d, msg %s, to %d%d%d", i,
			    op_names[steps[i].op], r,
			    msg == NULL ? "(null)" : msg, v.has_draft,
			    v.has_approved, v.in_use);
	}
}

static void
test_every_state(void **state)
{
	struct asset_versions from, v;
	const char *msg;
	unsigned bits;
	int op, r;

	(void)state;
	/* From all eight states, each op is total and keeps in_use. */
	for (bits = 0; bits < 8; bits++)
		for (op = ASSET_EDIT; op <= ASSET_DELETE; op++) {
			from.has_draft = (bits & 1) != 0;
			from.has_approved = (bits & 2) != 0;
			from.in_use = (bits & 4) != 0;
			v = from;
			msg = "unset";
			r = asset_apply(&v, (enum asset_op)op, &msg);
			if (r == 0) {
				assert_null(msg);
				assert_int_equal(v.in_use, from.in_use);
			} else {
				assert_int_equal(r, -1);
				assert_non_null(msg);
				assert_true(strlen(msg) > 0 &&
				    strlen(msg) < 80);
				assert_memory_equal(&v, &from, sizeof(v));
			}
		}
}

static void
test_sequences(void **state)
{
	struct asset_versions v = { .has_draft = false };
	const char *msg;

	(void)state;
	/* Create, approve, edit, discard, unapprove, delete. */
	assert_int_equal(asset_apply(&v, ASSET_EDIT, &msg), 0);
	assert_int_equal(asset_apply(&v, ASSET_DISCARD, &msg), -1);
	assert_string_equal(msg, DISC_NEVER);
	assert_int_equal(asset_apply(&v, ASSET_APPROVE, &msg), 0);
	assert_int_equal(asset_apply(&v, ASSET_APPROVE, &msg), -1);
	assert_int_equal(asset_apply(&v, ASSET_EDIT, &msg), 0);
	assert_true(v.has_draft && v.has_approved);
	assert_int_equal(asset_apply(&v, ASSET_DISCARD, &msg), 0);
	assert_int_equal(asset_apply(&v, ASSET_DISCARD, &msg), -1);
	assert_string_equal(msg, DISC_NONE);
	v.in_use = true;
	assert_int_equal(asset_apply(&v, ASSET_UNAPPROVE, &msg), -1);
	assert_string_equal(msg, UNAPPR_USED);
	v.in_use = false;
	assert_int_equal(asset_apply(&v, ASSET_DELETE, &msg), -1);
	assert_string_equal(msg, DEL_APPR);
	assert_int_equal(asset_apply(&v, ASSET_UNAPPROVE, &msg), 0);
	assert_true(v.has_draft && !v.has_approved);
	assert_int_equal(asset_apply(&v, ASSET_DELETE, &msg), 0);
	assert_false(v.has_draft || v.has_approved || v.in_use);
	/* The message pointer may be NULL. */
	assert_int_equal(asset_apply(&v, ASSET_APPROVE, NULL), -1);
	/* An op outside the enum is refused and changes nothing. */
	v.has_draft = true;
	assert_int_equal(asset_apply(&v, (enum asset_op)99, &msg), -1);
	assert_non_null(msg);
	assert_true(v.has_draft && !v.has_approved);
}

static void
test_pick(void **state)
{
	static const struct {
		struct asset_versions	 v;
		enum asset_status	 any, draft, approved;
	} t[] = {
		{ DRAFT, ASSET_ST_DRAFT, ASSET_ST_DRAFT, ASSET_ST_ANY },
		{ APPR, ASSET_ST_APPROVED, ASSET_ST_ANY, ASSET_ST_APPROVED },
		{ BOTH, ASSET_ST_APPROVED, ASSET_ST_DRAFT, ASSET_ST_APPROVED },
		{ BOTH_USED, ASSET_ST_APPROVED, ASSET_ST_DRAFT,
		  ASSET_ST_APPROVED },
		{ NONE, ASSET_ST_ANY, ASSET_ST_ANY, ASSET_ST_ANY },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(asset_pick(&t[i].v, ASSET_ST_ANY), t[i].any);
		assert_int_equal(asset_pick(&t[i].v, ASSET_ST_DRAFT),
		    t[i].draft);
		assert_int_equal(asset_pick(&t[i].v, ASSET_ST_APPROVED),
		    t[i].approved);
	}
	assert_string_equal(asset_status_name(ASSET_ST_DRAFT), "draft");
	assert_string_equal(asset_status_name(ASSET_ST_APPROVED), "approved");
	assert_string_equal(asset_status_name(ASSET_ST_ANY), "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_every_state),
		cmocka_unit_test(test_sequences),
		cmocka_unit_test(test_pick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
