/*
 * The campaign engine's queue and start times against a real MariaDB
 * (src/repo/repo_engine.c): repo_engine_queue counts leads due, leads
 * waiting, offers and scheduled batch runs, each moving by the rows this
 * test makes (other tests share the database, so only the differences
 * are checked); a run keeps the time its work began (origin_ms) as its
 * created_at, or the insert's time; an offer claimed says when it was
 * offered.  Rows are made under a campaign id of this run and removed at
 * the end.  Needs MAUTO_TEST_DB_*; without them it exits 77.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "db/pool.h"
#include "repo/repo.h"
#include "repo/repo_engine.h"
#include "util/config.h"
#include "util/timeutil.h"
#include "itest.h"

#define HOUR_MS		3600000LL
/* When the offer of this test was made (UTC ms; a whole second). */
#define OFFER_MS	1767225600000LL	/* 2026-01-01 00:00:00 */

static struct config cfg;
static struct db *db;
static int32_t campaign;
static int64_t lead1, lead2;

static int
group_setup(void **state)
{
	(void)state;
	if (db_open(&db, &cfg, &repo_schema, DB_PREPARE_ALL) != 0)
		return -1;
	/* Campaign ids far above the fixtures', one per process. */
	campaign = 900000000 + (int32_t)(getpid() % 1000000);
	lead1 = 2000000000LL + (getpid() % 1000000) * 2;
	lead2 = lead1 + 1;
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	if (db != NULL) {
		itest_sqlf(db, "DELETE FROM campaign_run_lead WHERE "
		    "campaign_id = %d", campaign);
		itest_sqlf(db, "DELETE FROM campaign_qualification WHERE "
		    "campaign_id = %d", campaign);
		itest_sqlf(db, "DELETE FROM campaign_member WHERE "
		    "campaign_id = %d", campaign);
		itest_sqlf(db, "DELETE FROM campaign_run WHERE campaign_id = %d",
		    campaign);
		itest_sqlf(db, "DELETE FROM activity_offer WHERE campaign_id = "
		    "%d", campaign);
	}
	db_close(db);
	return 0;
}

struct start_args {
	struct engine_start	*s;
	const int64_t		*leads;
	size_t			 n;
	int64_t			 run;
};

static int
start_tx(struct db *d, void *arg)
{
	struct start_args *x = arg;

	return repo_engine_start_tx(d, x->s, x->leads, x->n, &x->run, NULL);
}

/* A run of kind over leads[0..n) entered at now_ms; its id. */
static int64_t
start(const char *kind, const int64_t *leads, size_t n, int64_t now_ms,
    int64_t origin_ms)
{
	struct engine_start s;
	struct start_args x = { &s, leads, n, 0 };

	memset(&s, 0, sizeof(s));
	s.campaign_id = campaign;
	s.kind = kind;
	s.now_ms = now_ms;
	s.origin_ms = origin_ms;
	s.qual.type = "any";
	assert_int_equal(db_run_tx(db, start_tx, &x, false), 0);
	assert_true(x.run > 0);
	return x.run;
}

static void
test_queue(void **state)
{
	struct engine_queue q0, q1, q2;
	struct engine_start s;
	int64_t now = time_now_ms(), run, both[2] = { lead1, lead2 };

	(void)state;
	assert_int_equal(repo_engine_queue(db, now, &q0), 0);
	/* Two leads due now, one due in a day, a batch run in an hour. */
	(void)start(RUN_REQUEST, both, 2, now, 0);
	(void)start(RUN_REQUEST, &lead1, 1, now + 24 * HOUR_MS, 0);
	memset(&s, 0, sizeof(s));
	s.campaign_id = campaign;
	s.kind = RUN_BATCH;
	s.now_ms = now;
	s.run_at_ms = now + HOUR_MS;
	assert_int_equal(repo_engine_schedule(db, &s, &run), 0);
	itest_sqlf(db, "INSERT INTO activity_offer (lead_id, activity_type_id, "
	    "attributes, campaign_id, depth, created_at) VALUES (%lld, 24, "
	    "'{}', %d, 0, FROM_UNIXTIME(%lld / 1000))", (long long)lead1,
	    campaign, (long long)OFFER_MS);
	assert_int_equal(repo_engine_queue(db, now + 1000, &q1), 0);
	assert_int_equal(q1.due - q0.due, 2);
	assert_int_equal(q1.waiting - q0.waiting, 1);
	assert_int_equal(q1.offers - q0.offers, 1);
	assert_int_equal(q1.scheduled - q0.scheduled, 1);
	/* Two days on, the waiting lead is due. */
	assert_int_equal(repo_engine_queue(db, now + 48 * HOUR_MS, &q2), 0);
	assert_int_equal((q2.due + q2.waiting) - (q1.due + q1.waiting), 0);
	assert_true(q2.due - q0.due >= 3);
}

static void
test_created(void **state)
{
	struct engine_run r;
	int64_t now = time_now_ms(), run;

	(void)state;
	run = start(RUN_TRIGGER, &lead2, 1, now, OFFER_MS);
	assert_int_equal(repo_engine_run_get(db, run, &r), 0);
	assert_int_equal(r.created_ms, OFFER_MS);
	assert_string_equal(r.kind, RUN_TRIGGER);
	free(r.tokens);
	run = start(RUN_REQUEST, &lead2, 1, now, 0);
	assert_int_equal(repo_engine_run_get(db, run, &r), 0);
	assert_true(r.created_ms >= now - 5000 && r.created_ms <= now + 5000);
	free(r.tokens);
}

static void
test_offer_created(void **state)
{
	struct engine_offer *o;
	size_t n, i;
	bool seen = false;

	(void)state;
	o = calloc(64, sizeof(*o));
	assert_non_null(o);
	assert_int_equal(repo_engine_offers_claim(db, "itest-engine-claim", 30,
	    o, 64, &n), 0);
	for (i = 0; i < n; i++)
		if (o[i].campaign_id == campaign) {
			assert_int_equal(o[i].created_ms, OFFER_MS);
			seen = true;
		}
	assert_true(seen);
	itest_sqlf(db, "UPDATE activity_offer SET claim = NULL, lease_until = "
	    "NULL WHERE claim = 'itest-engine-claim'");
	repo_engine_offers_free(o, n);
	free(o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue),
		cmocka_unit_test(test_created),
		cmocka_unit_test(test_offer_created),
	};

	if (itest_config(&cfg) != 0)
		return 77;
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
