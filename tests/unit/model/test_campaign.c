/*
 * model/campaign.c: the type and status words of a campaign, attribute
 * choices, the order of a step's choices after a reorder (the default
 * choice always last, refusals with their message), and the rules of
 * activation over a snapshot: each rule broken in turn on a campaign
 * that passes, in the order the rules are checked.
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
	assert_string_equal(campaign_status_name(false, 0, CAMPAIGN_RUNS_NONE),
	    "Never Run");
	assert_string_equal(campaign_status_name(false, 1, CAMPAIGN_RUNS_NONE),
	    "Inactive");
	assert_string_equal(campaign_status_name(true, 1, CAMPAIGN_RUNS_NONE),
	    "Active");
	/* A batch campaign: scheduled or running, then run. */
	assert_string_equal(campaign_status_name(false, 0, CAMPAIGN_RUNS_OPEN),
	    "Single Run");
	assert_string_equal(campaign_status_name(false, 0, CAMPAIGN_RUNS_DONE),
	    "Inactive");
	/* The runs of a trigger campaign do not change its word. */
	assert_string_equal(campaign_status_name(false, 2, CAMPAIGN_RUNS_OPEN),
	    "Inactive");
	assert_string_equal(campaign_status_name(true, 2, CAMPAIGN_RUNS_DONE),
	    "Active");
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

/*
 * A campaign that may be activated: a trigger with its value; step 1
 * Send Email (email 501, approved) with a choice on a condition above
 * its default; step 2 Change Program Status (program "P" is 9, with
 * status "Member"); the campaign stands in program 7.
 */
struct fixture {
	struct smartlist_cond		 cond;
	struct smartlist_rule		 rule;
	struct campaign_attr		 email[2], cps[2][2];
	struct campaign_choice		 send[2], change[2];
	struct campaign_step		 steps[2];
	struct campaign_ref		 refs[2];
	struct campaign_status		 statuses[2];
	struct campaign_snapshot	 s;
};

static const struct campaign_attr email_attr = {
	.id = 1, .name = "Email", .data_type = "email", .primary = true,
	.required = true, .value = "501",
};
static const struct campaign_attr program_attr = {
	.id = 1, .name = "Program", .data_type = "program", .value = "P",
};
static const struct campaign_attr status_attr = {
	.id = 2, .name = "New Status", .data_type = "status",
	.required = true, .value = "Member",
};

static void
fixture_init(struct fixture *f)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	f->cond.primary = true;
	f->cond.op = "is";
	f->cond.values_json = "[\"Web Service API\"]";
	f->rule.name = "Campaign is Requested";
	f->rule.trigger = true;
	f->rule.conds = &f->cond;
	f->rule.nconds = 1;
	for (i = 0; i < 2; i++) {
		f->email[i] = email_attr;
		f->cps[i][0] = program_attr;
		f->cps[i][1] = status_attr;
		f->send[i].position = (int)i;
		f->send[i].attrs = &f->email[i];
		f->send[i].nattrs = 1;
		f->change[i].position = (int)i;
		f->change[i].attrs = f->cps[i];
		f->change[i].nattrs = 2;
	}
	f->send[0].cond_kind = "attribute";
	f->change[0].cond_kind = "activity";
	f->send[1].is_default = f->change[1].is_default = true;
	f->steps[0].position = 0;
	f->steps[0].type_name = "Send Email";
	f->steps[0].choices = f->send;
	f->steps[0].nchoices = 2;
	f->steps[1].position = 1;
	f->steps[1].type_name = "Change Program Status";
	f->steps[1].choices = f->change;
	f->steps[1].nchoices = 2;
	f->refs[0].data_type = "email";
	f->refs[0].value = "501";
	f->refs[0].id = 501;
	f->refs[0].approved = true;
	f->refs[1].data_type = "program";
	f->refs[1].value = "P";
	f->refs[1].id = 9;
	f->statuses[0].program_id = 9;
	f->statuses[0].name = "Member";
	f->statuses[0].exists = true;
	f->statuses[1].program_id = 7;
	f->statuses[1].name = "Member";
	f->s.id = 1001;
	f->s.place.type = FOLDER_T_PROGRAM;
	f->s.place.id = 7;
	f->s.ntriggers = 1;
	f->s.rules = &f->rule;
	f->s.nrules = 1;
	f->s.steps = f->steps;
	f->s.nsteps = 2;
	f->s.refs = f->refs;
	f->s.nrefs = 2;
	f->s.statuses = f->statuses;
	f->s.nstatuses = 2;
}

/* The refusal of f's snapshot, which must be one. */
static struct campaign_refusal
refusal(const struct fixture *f, enum campaign_act why)
{
	struct campaign_refusal w;

	assert_false(campaign_check_activation(&f->s, &w));
	assert_int_equal(w.why, why);
	return w;
}

static void
test_activation_passes(void **state)
{
	struct fixture f;
	struct campaign_refusal w;

	(void)state;
	fixture_init(&f);
	assert_true(campaign_check_activation(&f.s, &w));
	assert_int_equal(w.why, CAMPAIGN_ACT_OK);
	assert_null(w.step);
	/* A rule whose operator is of emptiness needs no value. */
	f.cond.values_json = "[]";
	f.cond.op = "is empty";
	assert_true(campaign_check_activation(&f.s, &w));
	/* Nor does a condition that is not primary. */
	f.cond.op = "is";
	f.cond.primary = false;
	assert_true(campaign_check_activation(&f.s, &w));
	/* An optional attribute may stay unset. */
	f.email[1].required = false;
	f.email[1].value = NULL;
	assert_true(campaign_check_activation(&f.s, &w));
}

static void
test_activation_campaign_rules(void **state)
{
	struct fixture f;
	struct campaign_refusal w;

	(void)state;
	/* Active first, whatever else is missing. */
	fixture_init(&f);
	f.s.active = true;
	f.s.ntriggers = 0;
	f.s.nsteps = 0;
	(void)refusal(&f, CAMPAIGN_ACT_ACTIVE);
	/* Then the trigger, before the rules' values. */
	fixture_init(&f);
	f.s.ntriggers = 0;
	f.cond.values_json = NULL;
	(void)refusal(&f, CAMPAIGN_ACT_NO_TRIGGER);
	/* A primary condition without values: the rule, from 1. */
	fixture_init(&f);
	f.cond.values_json = "[]";
	f.s.nsteps = 0;
	w = refusal(&f, CAMPAIGN_ACT_RULE_VALUE);
	assert_ptr_equal(w.rule, &f.rule);
	assert_int_equal(w.rule_index, 1);
	f.cond.values_json = NULL;
	(void)refusal(&f, CAMPAIGN_ACT_RULE_VALUE);
	/* A filter mauto cannot evaluate: after the values, before steps. */
	f.s.filter_refusal = "Filter 1 'X' cannot be evaluated: why";
	(void)refusal(&f, CAMPAIGN_ACT_RULE_VALUE);
	fixture_init(&f);
	f.s.filter_refusal = "Filter 1 'X' cannot be evaluated: why";
	f.s.nsteps = 0;
	w = refusal(&f, CAMPAIGN_ACT_FILTER);
	assert_string_equal(w.filter, "Filter 1 'X' cannot be evaluated: "
	    "why");
	/* No step. */
	fixture_init(&f);
	f.s.nsteps = 0;
	w = refusal(&f, CAMPAIGN_ACT_NO_STEP);
	assert_null(w.step);
}

static void
test_activation_flow_rules(void **state)
{
	struct fixture f;
	struct campaign_refusal w;

	(void)state;
	/* A choice other than the default without a condition. */
	fixture_init(&f);
	f.change[0].cond_kind = NULL;
	f.email[0].value = NULL;
	f.email[1].value = NULL;
	w = refusal(&f, CAMPAIGN_ACT_NO_VALUE);	/* step 1 comes first */
	assert_ptr_equal(w.step, &f.steps[0]);
	assert_int_equal(w.choice, 1);
	assert_ptr_equal(w.attr, &f.email[0]);
	f.email[0].value = f.email[1].value = "501";
	w = refusal(&f, CAMPAIGN_ACT_NO_CONDITION);
	assert_ptr_equal(w.step, &f.steps[1]);
	assert_int_equal(w.choice, 1);
	/* The condition is checked before the choice's attributes. */
	fixture_init(&f);
	f.send[0].cond_kind = NULL;
	f.email[0].value = NULL;
	(void)refusal(&f, CAMPAIGN_ACT_NO_CONDITION);
	/* A value that names nothing: the asset's word, unresolved. */
	fixture_init(&f);
	f.refs[0].id = 0;
	w = refusal(&f, CAMPAIGN_ACT_NOT_FOUND);
	assert_string_equal(w.kind, "email");
	assert_string_equal(w.attr->value, "501");
	/* A reference the snapshot did not read names nothing either. */
	fixture_init(&f);
	f.s.nrefs = 0;
	(void)refusal(&f, CAMPAIGN_ACT_NOT_FOUND);
	/* An email not approved, by its id. */
	fixture_init(&f);
	f.refs[0].approved = false;
	w = refusal(&f, CAMPAIGN_ACT_NOT_APPROVED);
	assert_int_equal(w.ref, 501);
	assert_ptr_equal(w.step, &f.steps[0]);
	/* The default choice is checked too. */
	fixture_init(&f);
	f.email[1].value = "502";
	w = refusal(&f, CAMPAIGN_ACT_NOT_FOUND);
	assert_int_equal(w.choice, 2);
	/* A program that names nothing is refused at its own attribute. */
	fixture_init(&f);
	f.refs[1].id = 0;
	w = refusal(&f, CAMPAIGN_ACT_NOT_FOUND);
	assert_string_equal(w.kind, "program");
	assert_ptr_equal(w.step, &f.steps[1]);
}

static void
test_activation_status(void **state)
{
	struct fixture f;
	struct campaign_refusal w;

	(void)state;
	/* The step's program (9) lacks the status. */
	fixture_init(&f);
	f.statuses[0].exists = false;
	w = refusal(&f, CAMPAIGN_ACT_NO_STATUS);
	assert_int_equal(w.ref, 9);
	assert_ptr_equal(w.attr, &f.cps[0][1]);
	/* Without a program value: the campaign's program (7). */
	fixture_init(&f);
	f.change[0].nattrs = 1;
	f.change[0].attrs = &f.cps[0][1];
	assert_int_equal(campaign_status_program(&f.s, &f.change[0]), 7);
	w = refusal(&f, CAMPAIGN_ACT_NO_STATUS);
	assert_int_equal(w.ref, 7);
	f.statuses[1].exists = true;
	f.change[1].nattrs = 1;
	f.change[1].attrs = &f.cps[1][1];
	assert_true(campaign_check_activation(&f.s, &w));
	/* In a folder, without a program value: no program. */
	f.s.place.type = FOLDER_T_FOLDER;
	assert_int_equal(campaign_status_program(&f.s, &f.change[0]), 0);
	w = refusal(&f, CAMPAIGN_ACT_NO_PROGRAM);
	assert_ptr_equal(w.step, &f.steps[1]);
	/* A status not read counts as missing. */
	fixture_init(&f);
	f.s.nstatuses = 0;
	(void)refusal(&f, CAMPAIGN_ACT_NO_STATUS);
	/* The last program value that names one is taken. */
	fixture_init(&f);
	assert_int_equal(campaign_status_program(&f.s, &f.change[0]), 9);
}

static void
test_references(void **state)
{
	struct fixture f;

	(void)state;
	assert_string_equal(campaign_ref_kind("email"), "email");
	assert_string_equal(campaign_ref_kind("list"), "list");
	assert_string_equal(campaign_ref_kind("program"), "program");
	assert_string_equal(campaign_ref_kind("campaign"), "smart campaign");
	assert_null(campaign_ref_kind("status"));
	assert_null(campaign_ref_kind("string"));
	assert_null(campaign_ref_kind(NULL));
	fixture_init(&f);
	assert_ptr_equal(campaign_ref_find(&f.s, "email", "501"), &f.refs[0]);
	assert_null(campaign_ref_find(&f.s, "list", "501"));
	assert_null(campaign_ref_find(&f.s, "email", "50"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_choices),
		cmocka_unit_test(test_move),
		cmocka_unit_test(test_activation_passes),
		cmocka_unit_test(test_activation_campaign_rules),
		cmocka_unit_test(test_activation_flow_rules),
		cmocka_unit_test(test_activation_status),
		cmocka_unit_test(test_references),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
