/*
 * The campaign engine's work in the database (src/repo/repo_engine.c) on
 * the test database: qualification rules as runs start, claims that two
 * runners never share, a lease that runs out handing the work over and
 * the old claimant's step refused, waits on the engine's clock, batch
 * runs scheduled, claimed, expanded and finished, and activities offered
 * to trigger campaigns only when one listens, within the cascade bound.
 * Claims take any due work, so each test starts with the engine's tables
 * empty (no runner runs in this layer); its other rows use a campaign id
 * and lead ids no other test uses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "db/pool.h"
#include "itest.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_engine.h"
#include "util/config.h"
#include "util/timeutil.h"

#define CAMPAIGN	990001
#define LEAD		990100
#define HOUR_MS		3600000LL

static struct config cfg;
static struct db *db;

static int
group_setup(void **state)
{
	(void)state;
	return db_open(&db, &cfg, &repo_schema, DB_PREPARE_ALL) == 0 ? 0 : -1;
}

static int
group_teardown(void **state)
{
	(void)state;
	db_close(db);
	return 0;
}

static int
setup(void **state)
{
	(void)state;
	itest_sql(db, "DELETE FROM campaign_run_lead");
	itest_sql(db, "DELETE FROM campaign_run");
	itest_sqlf(db, "DELETE FROM campaign_qualification WHERE "
	    "campaign_id = %d", CAMPAIGN);
	itest_sqlf(db, "DELETE FROM campaign_member WHERE campaign_id = %d",
	    CAMPAIGN);
	itest_sql(db, "DELETE FROM activity_offer");
	itest_sqlf(db, "DELETE FROM activity WHERE lead_id BETWEEN %d AND %d",
	    LEAD, LEAD + 99);
	itest_sql(db, "DELETE FROM trigger_listen");
	return 0;
}

/* Starts a run of kind over leads at now_ms under rule (interval ms). */
static int64_t
start(const char *kind, const char *rule, int64_t interval, int64_t now_ms,
    const int64_t *leads, size_t n, bool *entered)
{
	struct engine_start s;
	int64_t run = 0;

	memset(&s, 0, sizeof(s));
	s.campaign_id = CAMPAIGN;
	s.kind = kind;
	s.now_ms = now_ms;
	s.run_at_ms = strcmp(kind, RUN_BATCH) == 0 ? now_ms + 5 * 60000 : 0;
	s.qual.type = rule;
	s.qual.interval_ms = interval;
	assert_int_equal(db_tx_begin(db), 0);
	assert_int_equal(repo_engine_start_tx(db, &s, leads, n, &run,
	    entered), 0);
	assert_int_equal(db_tx_commit(db), 0);
	return run;
}

/* The leads of run in state. */
static int64_t
in_state(int64_t run, const char *state)
{
	return itest_count(db, "SELECT COUNT(*) FROM campaign_run_lead WHERE "
	    "run_id = %lld AND state = '%s'", (long long)run, state);
}

static void
test_qualification(void **state)
{
	const int64_t leads[] = { LEAD + 1, LEAD + 2, LEAD + 1 };
	int64_t now = time_now_ms(), run;
	bool in[3];

	(void)state;
	run = start(RUN_REQUEST, "once", 0, now, leads, 3, in);
	assert_true(in[0] && in[1] && !in[2]);
	assert_int_equal(in_state(run, RUN_LEAD_READY), 2);
	assert_int_equal(itest_count(db, "SELECT nleads FROM campaign_run "
	    "WHERE id = %lld", (long long)run), 2);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM "
	    "campaign_member WHERE campaign_id = %d", CAMPAIGN), 2);
	/* once: never again, recorded as skipped with why */
	run = start(RUN_REQUEST, "once", 0, now, leads, 2, in);
	assert_true(!in[0] && !in[1]);
	assert_int_equal(in_state(run, RUN_LEAD_SKIPPED), 2);
	/* every time */
	run = start(RUN_REQUEST, "any", 0, now, leads, 1, in);
	assert_true(in[0]);
	/* once an hour, from the last qualification */
	run = start(RUN_REQUEST, "interval", HOUR_MS, now + HOUR_MS / 2,
	    leads, 1, in);
	assert_false(in[0]);
	run = start(RUN_REQUEST, "interval", HOUR_MS, now + 2 * HOUR_MS,
	    leads, 1, in);
	assert_true(in[0]);
	assert_int_equal(itest_count(db, "SELECT times FROM "
	    "campaign_qualification WHERE campaign_id = %d AND lead_id = %d",
	    CAMPAIGN, LEAD + 1), 3);
}

/* Claims are exclusive, and a step checks its claim under the lock. */
static void
test_claims(void **state)
{
	const int64_t leads[] = { LEAD + 1, LEAD + 2, LEAD + 3, LEAD + 4,
	    LEAD + 5 };
	struct engine_item a[10], b[10];
	int64_t now = time_now_ms();
	size_t na, nb;

	(void)state;
	(void)start(RUN_REQUEST, "any", 0, now, leads, 5, NULL);
	assert_int_equal(repo_engine_claim(db, "runner-a", now, 30, a, 3,
	    &na), 0);
	assert_int_equal(na, 3);
	assert_int_equal(repo_engine_claim(db, "runner-b", now, 30, b, 10,
	    &nb), 0);
	assert_int_equal(nb, 2);
	/* Claiming again finds what it holds, nothing of A's. */
	assert_int_equal(repo_engine_claim(db, "runner-b", now, 30, b, 10,
	    &nb), 0);
	assert_int_equal(nb, 2);
	assert_true(b[0].lead_id != a[0].lead_id &&
	    b[0].lead_id != a[1].lead_id && b[0].lead_id != a[2].lead_id);
	assert_int_equal(db_tx_begin(db), 0);
	assert_int_equal(repo_engine_lock(db, "runner-a", &a[0]), 0);
	assert_int_equal(repo_engine_lock(db, "runner-b", &a[1]),
	    -REPO_ERR_GONE);
	db_tx_rollback(db);

	/* A's lease runs out: B takes the work over, A's step is refused. */
	itest_sqlf(db, "UPDATE campaign_run_lead SET lease_until = "
	    "UTC_TIMESTAMP(3) - INTERVAL 1 SECOND WHERE claim = 'runner-a'");
	assert_int_equal(repo_engine_claim(db, "runner-b", now, 30, b, 10,
	    &nb), 0);
	assert_int_equal(nb, 5);
	assert_int_equal(db_tx_begin(db), 0);
	assert_int_equal(repo_engine_lock(db, "runner-a", &a[0]),
	    -REPO_ERR_GONE);
	db_tx_rollback(db);

	/* A step moved on: the same step cannot run again. */
	assert_int_equal(db_tx_begin(db), 0);
	assert_int_equal(repo_engine_lock(db, "runner-b", &b[0]), 0);
	assert_int_equal(repo_engine_move(db, &b[0], 1, RUN_LEAD_READY, now,
	    "runner-b", true, NULL), 0);
	assert_int_equal(db_tx_commit(db), 0);
	assert_int_equal(db_tx_begin(db), 0);
	assert_int_equal(repo_engine_lock(db, "runner-b", &b[0]),
	    -REPO_ERR_GONE);
	b[0].step_pos = 1;
	assert_int_equal(repo_engine_lock(db, "runner-b", &b[0]), 0);
	db_tx_rollback(db);
}

/* A wait releases the lead until it is due on the engine's clock. */
static void
test_wait(void **state)
{
	const int64_t leads[] = { LEAD + 7 };
	struct engine_item it[2];
	int64_t now = time_now_ms();
	size_t n;

	(void)state;
	(void)start(RUN_REQUEST, "any", 0, now, leads, 1, NULL);
	assert_int_equal(repo_engine_claim(db, "w", now, 30, it, 2, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(db_tx_begin(db), 0);
	assert_int_equal(repo_engine_lock(db, "w", &it[0]), 0);
	assert_int_equal(repo_engine_move(db, &it[0], 1, RUN_LEAD_READY,
	    now + 2 * 24 * HOUR_MS, "w", false, NULL), 0);
	assert_int_equal(db_tx_commit(db), 0);
	assert_int_equal(repo_engine_claim(db, "w", now + HOUR_MS, 30, it, 2,
	    &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(repo_engine_claim(db, "w", now + 49 * HOUR_MS, 30,
	    it, 2, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(it[0].step_pos, 1);
}

/* A batch run: scheduled, due, expanded in pages, then done. */
static void
test_batch(void **state)
{
	const int64_t p1[] = { LEAD + 11, LEAD + 12 }, p2[] = { LEAD + 13 };
	struct engine_batch b;
	struct engine_qual q = { "once", 0 };
	struct engine_item it[5];
	int64_t now = time_now_ms(), run;
	size_t n, i;
	bool found;

	(void)state;
	run = start(RUN_BATCH, "once", 0, now, NULL, 0, NULL);
	assert_int_equal(repo_engine_batch_claim(db, "x", now, 30, &b,
	    &found), 0);
	assert_false(found);
	assert_int_equal(repo_engine_batch_claim(db, "x", now + 6 * 60000, 30,
	    &b, &found), 0);
	assert_true(found);
	assert_int_equal(b.run_id, run);
	assert_int_equal(repo_engine_batch_enter(db, "y", &b, &q, NULL, now,
	    p1, 2, false), -REPO_ERR_GONE);
	assert_int_equal(repo_engine_batch_enter(db, "x", &b, &q, NULL, now,
	    p1, 2, false), 0);
	b.expanded_to = p1[1];
	assert_int_equal(repo_engine_batch_enter(db, "x", &b, &q, NULL, now,
	    p2, 1, true), 0);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM campaign_run "
	    "WHERE id = %lld AND status = 'running' AND expanded_to = %d AND "
	    "claim IS NULL", (long long)run, LEAD + 13), 1);
	assert_int_equal(in_state(run, RUN_LEAD_READY), 3);
	assert_int_equal(repo_engine_claim(db, "x", now, 30, it, 5, &n), 0);
	assert_int_equal(n, 3);
	for (i = 0; i < n; i++) {
		assert_int_equal(db_tx_begin(db), 0);
		assert_int_equal(repo_engine_move(db, &it[i], 1, RUN_LEAD_DONE,
		    now, "x", false, NULL), 0);
		assert_int_equal(db_tx_commit(db), 0);
	}
	assert_int_equal(repo_engine_runs_finish(db), 0);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM campaign_run "
	    "WHERE id = %lld AND status = 'done'", (long long)run), 1);
}

/* Activities are offered only while a campaign listens, within depth. */
static void
test_offers(void **state)
{
	struct activity act;
	struct engine_offer o[4];
	size_t n;

	(void)state;
	memset(&act, 0, sizeof(act));
	act.lead_id = LEAD + 20;
	act.type = ACT_ADD_TO_LIST;
	act.primary_id = 5;
	act.primary_value = "P.List";
	act.attributes = "{\"Source\":\"Web Service API\"}";
	assert_int_equal(repo_activity_insert(db, &act), 0);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM activity_offer "
	    "WHERE lead_id = %d", LEAD + 20), 0);
	itest_sql(db, "INSERT INTO trigger_listen VALUES (24)");
	assert_int_equal(repo_activity_insert(db, &act), 0);
	act.depth = ACTIVITY_MAX_DEPTH + 1;
	assert_int_equal(repo_activity_insert(db, &act), 0);
	act.depth = 0;
	act.type = ACT_REMOVE_FROM_LIST;
	assert_int_equal(repo_activity_insert(db, &act), 0);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM activity WHERE "
	    "lead_id = %d", LEAD + 20), 4);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM activity_offer "
	    "WHERE lead_id = %d", LEAD + 20), 1);
	assert_int_equal(repo_engine_offers_claim(db, "o", 30, o, 4, &n), 0);
	assert_true(n >= 1);
	for (size_t i = 0; i < n; i++)
		if (o[i].lead_id == LEAD + 20) {
			assert_int_equal(o[i].type, ACT_ADD_TO_LIST);
			assert_int_equal(o[i].primary_id, 5);
			assert_string_equal(o[i].primary_value, "P.List");
			assert_int_equal(db_tx_begin(db), 0);
			assert_int_equal(repo_engine_offer_done(db, "other",
			    o[i].id), -REPO_ERR_GONE);
			assert_int_equal(repo_engine_offer_done(db, "o",
			    o[i].id), 0);
			assert_int_equal(db_tx_commit(db), 0);
		}
	repo_engine_offers_free(o, n);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM activity_offer "
	    "WHERE lead_id = %d", LEAD + 20), 0);
	itest_sql(db, "DELETE FROM trigger_listen");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_qualification, setup),
		cmocka_unit_test_setup(test_claims, setup),
		cmocka_unit_test_setup(test_wait, setup),
		cmocka_unit_test_setup(test_batch, setup),
		cmocka_unit_test_setup(test_offers, setup),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
