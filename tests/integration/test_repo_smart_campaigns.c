/*
 * The smart campaigns repository (repo_smart_campaigns.c) against a real
 * MariaDB: a campaign made with its smart list, the flow's steps and
 * choices through every change (positions kept dense, the default choice
 * last), clone copying list and flow, activation and the emails an
 * active campaign uses, delete taking list, flow and members with it;
 * a folder holding a campaign is not deleted (repo_folder_delete.c);
 * the lead database's read of campaigns (repo_sc_find: each filter,
 * triggerable, paging by id);
 * and Auto Suggest of a lead column's values (repo_smart_lists.c).
 * Other integration tests run at the same time on the same database, so
 * every row here is made under names of this run.  Needs MAUTO_TEST_DB_*;
 * without them it exits 77.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <mysql.h>

#include "db/pool.h"
#include "err.h"
#include "model/asset.h"
#include "model/campaign.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"
#include "repo/repo_folder_delete.h"
#include "repo/repo_folders.h"
#include "repo/repo_programs.h"
#include "repo/repo_sc_activation.h"
#include "repo/repo_sl_catalogue.h"
#include "repo/repo_sl_suggest.h"
#include "repo/repo_smart_campaigns.h"
#include "repo/repo_smart_lists.h"
#include "repo/repo_usage.h"
#include "util/arena.h"
#include "util/config.h"
#include "itest.h"

static struct config cfg;
static struct db *db;
static struct arena a;
static char tag[16];

/* A name of this run. */
static const char *
named(const char *what)
{
	return arena_printf(&a, "%s-%s", what, tag);
}

static int
group_setup(void **state)
{
	(void)state;
	return itest_open(&db, &cfg, &a, tag, sizeof(tag));
}

static int
group_teardown(void **state)
{
	(void)state;
	return itest_close(db, &a);
}

/* A new campaign of this run in Marketing Activities (clone_of: 0). */
static int32_t
campaign_new(const char *what, int32_t clone_of)
{
	struct repo_sc_new t;
	int32_t id;

	memset(&t, 0, sizeof(t));
	t.name = named(what);
	t.place.type = FOLDER_T_FOLDER;
	t.place.id = 1;
	t.clone_of = clone_of;
	assert_int_equal(repo_sc_insert(db, &t, &id), 0);
	return id;
}

static int
change(int32_t id, struct repo_sc_change *c)
{
	return repo_sc_change(db, id, c);
}

/* Adds a step of type at index; returns its id. */
static int32_t
add_step(int32_t id, int32_t type, int index)
{
	struct repo_sc_change c;

	memset(&c, 0, sizeof(c));
	c.op = SC_OP_ADD_STEP;
	c.type_id = type;
	c.index = index;
	assert_int_equal(change(id, &c), 0);
	return c.step_id;
}

static void
test_flow(void **state)
{
	struct repo_sc s;
	struct campaign_step *steps;
	struct repo_sc_change c;
	struct repo_sc_value v = { 101, "1 day" };
	struct repo_sc_query q;
	struct repo_sc *found;
	int32_t id, wait, send, ch1, ch2;
	size_t n;

	(void)state;
	id = campaign_new("flow", 0);
	assert_int_equal(repo_sc_get(db, &a, id, &s), 0);
	assert_true(s.smart_list_id > 0);
	assert_false(s.active);
	assert_int_equal(s.ntriggers + s.nfilters, 0);
	wait = add_step(id, 100001, 0);
	send = add_step(id, 6, 0);
	assert_int_equal(repo_sc_flow(db, &a, id, &steps, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(steps[0].id, send);
	assert_int_equal(steps[1].id, wait);
	assert_int_equal(steps[1].nchoices, 1);
	assert_true(steps[1].choices[0].is_default);
	assert_string_equal(steps[1].choices[0].attrs[0].name,
	    "Wait Duration");
	assert_null(steps[1].choices[0].attrs[0].value);

	/* Two choices above the default; a value; a move; a removal. */
	memset(&c, 0, sizeof(c));
	c.op = SC_OP_ADD_CHOICE;
	c.step_id = wait;
	assert_int_equal(change(id, &c), 0);
	ch1 = c.choice_id;
	assert_int_equal(change(id, &c), 0);
	ch2 = c.choice_id;
	memset(&c, 0, sizeof(c));
	c.op = SC_OP_SET_CHOICE;
	c.step_id = wait;
	c.choice_id = ch2;
	c.values = &v;
	c.nvalues = 1;
	c.set_cond = true;
	c.cond_kind = "activity";
	c.cond_type_id = 24;
	c.cond_op = "is";
	c.cond_vals = "[\"VIP\"]";
	assert_int_equal(change(id, &c), 0);
	memset(&c, 0, sizeof(c));
	c.op = SC_OP_MOVE_CHOICE;
	c.step_id = wait;
	c.choice_id = ch2;
	c.index = 0;
	assert_int_equal(change(id, &c), 0);
	assert_int_equal(repo_sc_flow(db, &a, id, &steps, &n), 0);
	assert_int_equal(steps[1].nchoices, 3);
	assert_int_equal(steps[1].choices[0].id, ch2);
	assert_string_equal(steps[1].choices[0].attrs[0].value, "1 day");
	assert_string_equal(steps[1].choices[0].cond_name, "Added to List");
	assert_int_equal(steps[1].choices[1].id, ch1);
	assert_true(steps[1].choices[2].is_default);
	c.index = 2;
	assert_int_equal(change(id, &c), -REPO_ERR_INVALID);
	c.choice_id = steps[1].choices[2].id;
	c.index = 0;
	assert_int_equal(change(id, &c), -REPO_ERR_INVALID);
	c.op = SC_OP_REMOVE_CHOICE;
	assert_int_equal(change(id, &c), -REPO_ERR_INVALID);
	c.choice_id = ch1;
	assert_int_equal(change(id, &c), 0);
	assert_int_equal(repo_sc_flow(db, &a, id, &steps, &n), 0);
	assert_int_equal(steps[1].nchoices, 2);
	assert_int_equal(steps[1].choices[1].position, 1);

	/* Removing the first step closes the gap. */
	memset(&c, 0, sizeof(c));
	c.op = SC_OP_REMOVE_STEP;
	c.step_id = send;
	assert_int_equal(change(id, &c), 0);
	assert_int_equal(change(id, &c), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_sc_flow(db, &a, id, &steps, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(steps[0].position, 0);
	assert_int_equal(change(99999999, &c), -REPO_ERR_NOT_FOUND);
	assert_string_equal(c.msg, "");

	/* A change of its smart list is a change of the campaign. */
	itest_sql(db, arena_printf(&a, "UPDATE smart_list SET updated_at = "
	    "'2037-01-02 03:04:05' WHERE id = %ld", (long)s.smart_list_id));
	assert_int_equal(repo_sc_get(db, &a, id, &s), 0);
	assert_string_equal(s.updated_at, "2037-01-02 03:04:05");
	memset(&q, 0, sizeof(q));
	q.earliest = "2037-01-01 00:00:00";
	q.limit = 200;
	assert_int_equal(repo_sc_browse(db, &a, &q, &found, &n), 0);
	assert_true(n >= 1);
	assert_int_equal(found[n - 1].id, id);
	q.latest = "2037-01-02 00:00:00";
	assert_int_equal(repo_sc_browse(db, &a, &q, &found, &n), 0);
	assert_int_equal(n, 0);
}

/*
 * A flow's kept text: a keep of what was read is used by the next read;
 * a keep of a text rendered before a change is refused by the revision,
 * and the text a change drops is not used.
 */
static void
test_kept_flow(void **state)
{
	struct repo_sc s;
	struct campaign_step *steps;
	struct repo_kept k, old;
	int32_t id;
	size_t n;
	int i;

	(void)state;
	id = campaign_new("kept", 0);
	(void)add_step(id, 100001, 0);
	/* Again when another test moved a schema version on meanwhile. */
	for (i = 0; i < 20; i++) {
		assert_int_equal(repo_sc_get_with_flow(db, &a, id, NULL, &s,
		    &steps, &n, &old), 0);
		assert_true(i > 0 || (old.json == NULL && n == 1));
		assert_int_equal(repo_sc_keep_flow(db, id, &old,
		    "{\"steps\":[1]}", 13), 0);
		assert_int_equal(repo_sc_get_with_flow(db, &a, 0,
		    named("kept"), &s, &steps, &n, &k), 0);
		if (k.lead_ver == old.lead_ver && k.co_ver == old.co_ver)
			break;
	}
	assert_string_equal(k.json, "{\"steps\":[1]}");
	assert_int_equal(k.len, 13);
	assert_null(steps);
	assert_int_equal(s.id, id);

	/* Read before a change, kept after it: nothing is kept. */
	assert_int_equal(repo_sc_get_with_flow(db, &a, id, NULL, &s, &steps,
	    &n, &old), 0);
	(void)add_step(id, 100001, 1);
	assert_int_equal(repo_sc_get_with_flow(db, &a, id, NULL, &s, &steps,
	    &n, &k), 0);
	assert_null(k.json);
	assert_int_equal(n, 2);
	assert_true(k.rev > old.rev);
	assert_int_equal(repo_sc_keep_flow(db, id, &old, "{\"steps\":[2]}",
	    13), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_sc_get_with_flow(db, &a, id, NULL, &s, &steps,
	    &n, &k), 0);
	assert_null(k.json);
	assert_int_equal(n, 2);
}

/* Adds an Added to List rule (no condition) to list at index. */
static void
add_rule(int32_t list, int index, bool trigger)
{
	struct repo_sl_change c;

	memset(&c, 0, sizeof(c));
	c.op = SL_OP_ADD;
	c.activity = true;
	c.type_id = 24;
	c.index = index;
	c.trigger = trigger;
	assert_int_equal(repo_sl_change(db, list, &c), 0);
}

static void
test_clone_activate_delete(void **state)
{
	struct repo_etpl_new nt;
	struct repo_email_new e;
	struct repo_sc s;
	struct campaign_step *steps;
	struct repo_sc_change c;
	struct repo_sc_value v;
	struct repo_sl sl;
	struct repo_missing miss;
	int64_t lead = 0, used = 0;
	int32_t id, clone, tpl, em, ref;
	struct campaign_refusal why;
	char buf[16], emsg[REPO_EMAIL_MSG_BYTES];
	size_t n;

	(void)state;
	id = campaign_new("src", 0);
	add_step(id, 6, 0);
	assert_int_equal(repo_sc_flow(db, &a, id, &steps, &n), 0);

	/* An email, named by its name, resolved to its id. */
	memset(&nt, 0, sizeof(nt));
	nt.name = named("etpl");
	nt.folder_id = 3;
	nt.content = "<html><body><div class=\"mktoText\" id=\"x\" "
	    "mktoName=\"X\">hi</div></body></html>";
	nt.len = strlen(nt.content);
	assert_int_equal(repo_etpl_insert(db, &nt, &tpl), 0);
	memset(&e, 0, sizeof(e));
	e.name = named("email");
	e.place.type = FOLDER_T_FOLDER;
	e.place.id = 2;
	e.template_id = tpl;
	assert_int_equal(repo_email_insert(db, &e, &em), 0);
	assert_int_equal(repo_sc_resolve(db, "email", e.name, &ref), 0);
	assert_int_equal(ref, em);
	(void)snprintf(buf, sizeof(buf), "%ld", (long)em);
	assert_int_equal(repo_sc_resolve(db, "email", buf, &ref), 0);
	assert_int_equal(ref, em);
	assert_int_equal(repo_sc_resolve(db, "email", named("none"), &ref),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_sc_resolve(db, "string", "x", &ref),
	    -REPO_ERR_NOT_FOUND);
	memset(&c, 0, sizeof(c));
	c.op = SC_OP_SET_CHOICE;
	c.step_id = steps[0].id;
	c.choice_id = steps[0].choices[0].id;
	v.id = 1;
	v.value = buf;
	c.values = &v;
	c.nvalues = 1;
	assert_int_equal(change(id, &c), 0);

	/* Clone: list and flow copied, values with them, inactive. */
	clone = campaign_new("clone", id);
	assert_int_equal(repo_sc_flow(db, &a, clone, &steps, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(steps[0].choices[0].attrs[0].value, buf);
	assert_int_equal(repo_sc_get(db, &a, clone, &s), 0);
	assert_int_equal(repo_sl_get(db, &a, s.smart_list_id, false, &sl), 0);
	assert_int_equal(sl.campaign_id, clone);
	{
		struct repo_sc_new t;
		int32_t dup;

		memset(&t, 0, sizeof(t));
		t.name = named("clone");
		t.place.type = FOLDER_T_FOLDER;
		t.place.id = 1;
		assert_int_equal(repo_sc_insert(db, &t, &dup),
		    -REPO_ERR_CONFLICT);
	}

	/* Active, the campaign uses its email; inactive, it does not. */
	assert_int_equal(repo_sc_deactivate(db, id), -REPO_ERR_INVALID);
	/* The rules of model/campaign.c, on what the transaction read. */
	assert_int_equal(repo_sc_activate(db, &a, id, &why),
	    -REPO_ERR_INVALID);
	assert_int_equal(why.why, CAMPAIGN_ACT_NO_TRIGGER);
	assert_int_equal(repo_sc_get(db, &a, id, &s), 0);
	add_rule(s.smart_list_id, 1, true);
	/* A filter mauto cannot evaluate (Visited Web Page) is refused. */
	{
		struct repo_sl_change f;

		memset(&f, 0, sizeof(f));
		f.op = SL_OP_ADD;
		f.activity = true;
		f.type_id = 1;
		f.index = 2;
		assert_int_equal(repo_sl_change(db, s.smart_list_id, &f), 0);
		assert_int_equal(repo_sc_activate(db, &a, id, &why),
		    -REPO_ERR_INVALID);
		assert_int_equal(why.why, CAMPAIGN_ACT_FILTER);
		assert_string_equal(why.filter, "Filter 2 'Visited Web Page' "
		    "cannot be evaluated: mauto records no web page visits");
		assert_int_equal(repo_sl_get(db, &a, s.smart_list_id, true,
		    &sl), 0);
		memset(&f, 0, sizeof(f));
		f.op = SL_OP_DELETE;
		f.rule_id = sl.rules[1].id;
		assert_int_equal(repo_sl_change(db, s.smart_list_id, &f), 0);
	}
	/* The email in draft only: activation reads it under its lock. */
	assert_int_equal(repo_sc_activate(db, &a, id, &why),
	    -REPO_ERR_INVALID);
	assert_int_equal(why.why, CAMPAIGN_ACT_NOT_APPROVED);
	assert_int_equal(why.ref, em);
	assert_int_equal(why.step->position, 0);
	assert_int_equal(repo_email_change(db, em, ASSET_APPROVE, NULL, emsg),
	    0);
	assert_int_equal(repo_sc_activate(db, &a, id, &why), 0);
	assert_int_equal(why.why, CAMPAIGN_ACT_OK);
	assert_int_equal(repo_sc_activate(db, &a, id, &why),
	    -REPO_ERR_INVALID);
	assert_int_equal(why.why, CAMPAIGN_ACT_ACTIVE);
	/* In use: the email cannot be unapproved now. */
	assert_int_equal(repo_email_change(db, em, ASSET_UNAPPROVE, NULL, emsg),
	    -REPO_ERR_INVALID);
	assert_int_equal(repo_usage_count(db, USAGE_EMAIL, em, &used), 0);
	assert_int_equal(used, 1);
	assert_int_equal(repo_sc_delete(db, id), -REPO_ERR_INVALID);
	assert_int_equal(repo_sc_deactivate(db, id), 0);
	assert_int_equal(repo_usage_count(db, USAGE_EMAIL, em, &used), 0);
	assert_int_equal(used, 0);

	/* Delete: list, flow and members go with the campaign. */
	assert_int_equal(repo_sc_get(db, &a, id, &s), 0);
	itest_sql(db, "INSERT INTO lead (email, createdAt, updatedAt) "
	    "VALUES (NULL, UTC_TIMESTAMP(), UTC_TIMESTAMP())");
	lead = (int64_t)mysql_insert_id(db_conn(db));
	assert_int_equal(repo_programs_campaign_member_add(db, id, &lead, 1,
	    &miss), 0);
	assert_int_equal(repo_sc_delete(db, id), 0);
	assert_int_equal(repo_sc_delete(db, id), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_sl_get(db, &a, s.smart_list_id, false, &sl),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_sc_flow(db, &a, id, &steps, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(repo_sc_get(db, &a, clone, &s), 0);
}

/* The ids of what repo_sc_find found, in order, as "1,2,3". */
static const char *
found_ids(struct repo_sc *found, size_t n)
{
	const char *t = "";
	size_t i;

	for (i = 0; i < n; i++)
		t = arena_printf(&a, "%s%s%ld", t, i > 0 ? "," : "",
		    (long)found[i].id);
	return t;
}

/*
 * Get Campaigns' read: every filter given must match, names exactly;
 * triggerable keeps the active campaigns with a Web Service API request
 * trigger; rows by id after the position, at most the limit; a campaign
 * of a program carries the program's name.
 */
static void
test_find(void **state)
{
	static const char *const statuses[] = { "Member" };
	static const bool success[] = { false };
	struct repo_program_new pn;
	struct repo_sc_new t;
	struct repo_filter f;
	struct repo_sc *found;
	const char *names[3], *progs[1], *wss[1];
	int64_t ids[3];
	int32_t prog, c[3];
	size_t n, i;

	(void)state;
	memset(&pn, 0, sizeof(pn));
	pn.name = named("find-prog");
	pn.type = "Default";
	pn.channel = "Operational";
	pn.statuses = statuses;
	pn.success = success;
	pn.nstatuses = 1;
	assert_int_equal(repo_programs_insert(db, &pn, &prog), 0);
	c[0] = campaign_new("find-0", 0);
	for (i = 1; i < 3; i++) {
		memset(&t, 0, sizeof(t));
		t.name = named(i == 1 ? "find-1" : "find-2");
		t.place.type = FOLDER_T_PROGRAM;
		t.place.id = prog;
		assert_int_equal(repo_sc_insert(db, &t, &c[i]), 0);
	}
	for (i = 0; i < 3; i++)
		ids[i] = c[2 - i];
	memset(&f, 0, sizeof(f));
	f.ids = ids;
	f.nids = 3;
	assert_int_equal(repo_sc_find(db, &a, &f, false, 0, 10, &found, &n),
	    0);
	assert_string_equal(found_ids(found, n), arena_printf(&a,
	    "%ld,%ld,%ld", (long)c[0], (long)c[1], (long)c[2]));
	assert_null(found[0].program_name);
	assert_int_equal(found[0].place.type, FOLDER_T_FOLDER);
	assert_string_equal(found[1].program_name, pn.name);
	assert_int_equal(found[1].place.id, prog);
	assert_string_equal(found[1].workspace, "Default");

	/* Paging: after the first, one at a time. */
	assert_int_equal(repo_sc_find(db, &a, &f, false, c[0], 1, &found, &n),
	    0);
	assert_string_equal(found_ids(found, n), arena_printf(&a, "%ld",
	    (long)c[1]));
	assert_int_equal(repo_sc_find(db, &a, &f, false, c[2], 1, &found, &n),
	    0);
	assert_int_equal(n, 0);
	assert_int_equal(repo_sc_find(db, &a, &f, false, 0, 0, &found, &n),
	    -REPO_ERR_INVALID);

	/* Names exactly; program and workspace names. */
	memset(&f, 0, sizeof(f));
	names[0] = named("find-0");
	names[1] = named("find-2");
	names[2] = named("FIND-1");
	f.names = names;
	f.nnames = 3;
	assert_int_equal(repo_sc_find(db, &a, &f, false, 0, 10, &found, &n),
	    0);
	assert_string_equal(found_ids(found, n), arena_printf(&a, "%ld,%ld",
	    (long)c[0], (long)c[2]));
	progs[0] = pn.name;
	f.programs = progs;
	f.nprograms = 1;
	assert_int_equal(repo_sc_find(db, &a, &f, false, 0, 10, &found, &n),
	    0);
	assert_string_equal(found_ids(found, n), arena_printf(&a, "%ld",
	    (long)c[2]));
	wss[0] = "Default";
	f.workspaces = wss;
	f.nworkspaces = 1;
	assert_int_equal(repo_sc_find(db, &a, &f, false, 0, 10, &found, &n),
	    0);
	assert_int_equal(n, 1);
	wss[0] = "Elsewhere";
	assert_int_equal(repo_sc_find(db, &a, &f, false, 0, 10, &found, &n),
	    0);
	assert_int_equal(n, 0);

	/*
	 * Triggerable: active and requested by the API, not one without
	 * the other (the two columns set directly: the rules that let a
	 * campaign be so are activation's, tested above).
	 */
	itest_sqlf(db, "UPDATE smart_campaign SET is_active = 1 WHERE id IN "
	    "(%ld, %ld)", (long)c[0], (long)c[1]);
	itest_sqlf(db, "UPDATE smart_list l JOIN smart_campaign c ON "
	    "c.smart_list_id = l.id SET l.api_requested = 1, "
	    "l.trigger_count = 1 WHERE c.id IN (%ld, %ld)", (long)c[1],
	    (long)c[2]);
	memset(&f, 0, sizeof(f));
	f.ids = ids;
	f.nids = 3;
	assert_int_equal(repo_sc_find(db, &a, &f, true, 0, 10, &found, &n),
	    0);
	assert_string_equal(found_ids(found, n), arena_printf(&a, "%ld",
	    (long)c[1]));
	assert_true(found[0].active);
	assert_true(found[0].requested_by_api);
	assert_int_equal(found[0].ntriggers, 1);
	itest_sqlf(db, "UPDATE smart_campaign SET is_active = 0 WHERE id IN "
	    "(%ld, %ld)", (long)c[0], (long)c[1]);
	assert_int_equal(repo_sc_find(db, &a, &f, true, 0, 10, &found, &n),
	    0);
	assert_int_equal(n, 0);
}

/* The attribute rule type of lead field name, from the catalogue. */
static const struct repo_sl_rule_type *
attr_rule(const struct repo_sl_rule_type *types, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!types[i].activity && types[i].ncons == 1 &&
		    strcmp(types[i].cons[0].field, name) == 0)
			return &types[i];
	fail_msg("no attribute rule for %s", name);
	return NULL;
}

/*
 * Auto Suggest of values: the distinct, non-empty values of a lead
 * column starting with a prefix taken literally, in the column's binary
 * order, positions as ids, at most the limit; none for a number field,
 * an activity's free-text constraint or a name that cannot be quoted.
 */
static void
test_suggest_values(void **state)
{
	struct repo_sl_rule_type *types, bad, act;
	struct repo_sl_constraint badk;
	const struct repo_sl_rule_type *title, *score;
	struct repo_sl_suggestion *sg;
	size_t ntypes, n;
	const char *p = arena_printf(&a, "sugit%s", tag);

	(void)state;
	itest_sql(db, arena_printf(&a, "INSERT INTO lead (title, leadScore, "
	    "createdAt, updatedAt) VALUES ('%s-b', 1, UTC_TIMESTAMP(), "
	    "UTC_TIMESTAMP()), ('%s-a', 2, UTC_TIMESTAMP(), UTC_TIMESTAMP()), "
	    "('%s-a', 3, UTC_TIMESTAMP(), UTC_TIMESTAMP()), ('%s_%%', 4, "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP()), ('S%s-c', 5, UTC_TIMESTAMP(), "
	    "UTC_TIMESTAMP())", p, p, p, p, p + 1));
	assert_int_equal(repo_sl_rule_types(db, &a, &types, &ntypes), 0);
	title = attr_rule(types, ntypes, "title");
	score = attr_rule(types, ntypes, "leadScore");

	assert_int_equal(repo_sl_suggest_values(db, &a, title,
	    &title->cons[0], arena_printf(&a, "%s-", p), 200, &sg, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(sg[0].id, 1);
	assert_string_equal(sg[0].name, arena_printf(&a, "%s-a", p));
	assert_int_equal(sg[1].id, 2);
	assert_string_equal(sg[1].name, arena_printf(&a, "%s-b", p));
	assert_string_equal(sg[1].workspace, "Default");
	assert_int_equal(sg[1].workspace_id, 1);
	/* Binary order: '_' (0x5f) before 'a'... and '-' (0x2d) first. */
	assert_int_equal(repo_sl_suggest_values(db, &a, title,
	    &title->cons[0], p, 200, &sg, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(sg[2].name, arena_printf(&a, "%s_%%", p));
	assert_int_equal(repo_sl_suggest_values(db, &a, title,
	    &title->cons[0], p, 1, &sg, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(sg[0].name, arena_printf(&a, "%s-a", p));
	/* Wildcards are literal; case is the column's (binary). */
	assert_int_equal(repo_sl_suggest_values(db, &a, title,
	    &title->cons[0], arena_printf(&a, "%s_", p), 200, &sg, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(sg[0].name, arena_printf(&a, "%s_%%", p));
	assert_int_equal(repo_sl_suggest_values(db, &a, title,
	    &title->cons[0], arena_printf(&a, "%s%%", p), 200, &sg, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(repo_sl_suggest_values(db, &a, title,
	    &title->cons[0], arena_printf(&a, "S%s", p + 1), 200, &sg, &n),
	    0);
	assert_int_equal(n, 1);
	assert_string_equal(sg[0].name, arena_printf(&a, "S%s-c", p + 1));

	/* No values: a number, an activity's constraint, a bad name. */
	assert_int_equal(repo_sl_suggest_values(db, &a, score,
	    &score->cons[0], NULL, 200, &sg, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(repo_sl_rule_type(db, &a, true, 13, &act), 0);
	assert_int_equal(repo_sl_suggest_values(db, &a, &act, &act.cons[1],
	    NULL, 200, &sg, &n), 0);
	assert_int_equal(n, 0);
	bad = *title;
	badk = title->cons[0];
	badk.field = "title` FROM lead; --";
	assert_int_equal(repo_sl_suggest_values(db, &a, &bad, &badk, NULL,
	    200, &sg, &n), 0);
	assert_int_equal(n, 0);
}

/*
 * In a process of its own, on a connection of its own: activates
 * campaign id, after writing its connection id to fd.  Exits 0 when
 * activated, 1 when refused for want of a trigger, 2 otherwise.
 */
static void
activate_child(int fd, int32_t id)
{
	struct db *mine = NULL;
	struct arena ca;
	struct campaign_refusal why;
	unsigned long tid;
	int r;

	arena_init(&ca);
	if (db_open(&mine, &cfg, &repo_schema, DB_PREPARE_ALL) != 0)
		_exit(2);
	tid = mysql_thread_id(db_conn(mine));
	if (write(fd, &tid, sizeof(tid)) != (ssize_t)sizeof(tid))
		_exit(2);
	r = repo_sc_activate(mine, &ca, id, &why);
	_exit(r == 0 ? 0 : r == -REPO_ERR_INVALID &&
	    why.why == CAMPAIGN_ACT_NO_TRIGGER ? 1 : 2);
}

/* Whether connection tid runs the statement that locks a campaign's list. */
static bool
locking_list(unsigned long tid)
{
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	bool yes;
	char *q = arena_printf(&a, "SELECT COUNT(*) FROM "
	    "information_schema.PROCESSLIST WHERE ID = %lu AND INFO LIKE "
	    "'%%FROM smart_list WHERE campaign_id = %%LOCK IN SHARE MODE'",
	    tid);

	if (mysql_query(db_conn(db), q) != 0 ||
	    (res = mysql_store_result(db_conn(db))) == NULL) {
		fail_msg("%s: %s", q, mysql_error(db_conn(db)));
		return false;
	}
	row = mysql_fetch_row(res);
	yes = row != NULL && row[0] != NULL && strcmp(row[0], "0") != 0;
	mysql_free_result(res);
	return yes;
}

/*
 * The checks of an activation read in its transaction, under the lock of
 * the campaign's smart list: a rule change under way when the activation
 * starts is waited for and seen.  Another session deletes the list's
 * trigger and holds the list's row; the activation, started then, waits
 * (seen in the process list, no timing), and once the change commits its
 * check finds no trigger and refuses.
 */
static void
test_activate_checks_under_lock(void **state)
{
	struct repo_sc s;
	struct db *other = NULL;
	unsigned long tid = 0;
	int32_t id;
	bool waiting = false;
	pid_t pid;
	int fds[2], status = 0, i;

	(void)state;
	id = campaign_new("locked", 0);
	assert_int_equal(repo_sc_get(db, &a, id, &s), 0);
	add_rule(s.smart_list_id, 1, true);
	add_rule(s.smart_list_id, 2, false);
	/* The counts follow the rules, in the change's transaction. */
	assert_int_equal(repo_sc_get(db, &a, id, &s), 0);
	assert_int_equal(s.ntriggers, 1);
	assert_int_equal(s.nfilters, 1);

	assert_int_equal(db_open(&other, &cfg, &repo_schema, DB_PREPARE_ALL), 0);
	itest_sql(other, "START TRANSACTION");
	itest_sql(other, arena_printf(&a, "UPDATE smart_list SET "
	    "trigger_count = 0 WHERE id = %ld", (long)s.smart_list_id));
	itest_sql(other, arena_printf(&a, "DELETE FROM smart_list_rule WHERE "
	    "smart_list_id = %ld AND is_trigger = 1", (long)s.smart_list_id));
	assert_int_equal(pipe(fds), 0);
	if ((pid = fork()) == 0) {
		(void)close(fds[0]);
		activate_child(fds[1], id);
	}
	assert_true(pid > 0);
	(void)close(fds[1]);
	assert_int_equal(read(fds[0], &tid, sizeof(tid)), sizeof(tid));
	(void)close(fds[0]);
	/* Until the activation waits for the list's lock. */
	for (i = 0; i < 6000 && !(waiting = locking_list(tid)); i++)
		(void)usleep(10000);
	assert_true(waiting);
	itest_sql(other, "COMMIT");
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	assert_int_equal(repo_sc_get(db, &a, id, &s), 0);
	assert_false(s.active);
	assert_int_equal(s.ntriggers, 0);
	db_close(other);
}

/*
 * A folder holding a smart campaign is refused a delete as not empty
 * when the campaign's own smart list stands elsewhere too: the folder
 * delete asks the campaigns themselves, not only their lists.  Empty,
 * it goes.
 */
static void
test_folder_with_campaign(void **state)
{
	struct repo_sc_new t;
	int32_t folder, id;

	(void)state;
	assert_int_equal(repo_folders_insert(db, named("sc-folder"), NULL,
	    FK_MARKETING, 1, &folder), 0);
	memset(&t, 0, sizeof(t));
	t.name = named("in-folder");
	t.place.type = FOLDER_T_FOLDER;
	t.place.id = folder;
	assert_int_equal(repo_sc_insert(db, &t, &id), 0);
	assert_int_equal(repo_folder_delete(db, folder), -REPO_ERR_CONFLICT);
	itest_sql(db, arena_printf(&a, "UPDATE smart_list SET folder_id = 1 "
	    "WHERE campaign_id = %ld", (long)id));
	assert_int_equal(repo_folder_delete(db, folder), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_sc_delete(db, id), 0);
	assert_int_equal(repo_folder_delete(db, folder), 0);
	assert_int_equal(repo_folder_delete(db, folder), -REPO_ERR_NOT_FOUND);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flow),
		cmocka_unit_test(test_kept_flow),
		cmocka_unit_test(test_clone_activate_delete),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_suggest_values),
		cmocka_unit_test(test_activate_checks_under_lock),
		cmocka_unit_test(test_folder_with_campaign),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
