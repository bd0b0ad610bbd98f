/*
 * Usage statistics (docs/behaviour.md §18): Get Daily Usage, Get Weekly
 * Usage, Get Daily Errors and Get Weekly Errors, in the lead database
 * envelope.  Every host counts its calls and errors in the limiter's
 * shared memory and adds them to its own rows at each limits sync
 * (src/auth/ratelimit.c); these read the sums of all hosts' rows, so
 * they lag the calls by at most one limits_sync_ms.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <json-c/json.h>

#include "api/api.h"
#include "auth/ratelimit.h"
#include "call.h"
#include "db/query.h"
#include "err.h"
#include "http/response.h"
#include "http/router.h"
#include "repo/repo_stats.h"

/* The days a weekly read answers, today first. */
#define STATS_WEEK_DAYS	7

/* A day key (yyyymmdd) as the API writes a date: "YYYY-MM-DD". */
static struct json_object *
day_json(int32_t key)
{
	char s[16];

	snprintf(s, sizeof(s), "%04d-%02d-%02d", (int)(key / 10000),
	    (int)(key / 100 % 100), (int)(key % 100));
	return json_object_new_string(s);
}

/*
 * One day's element: {date, total, users|errors: [{userId|errorCode,
 * count}]} from the rows of t from *row on that are of day key (t is
 * newest day first); *row moves past them.
 */
static struct json_object *
day_element(const struct db_text_rows *t, size_t *row, int32_t key,
    bool errors)
{
	struct json_object *o, *items, *it;
	int64_t total = 0, n;

	items = json_object_new_array();
	for (; *row < t->count &&
	    db_text_i64(t, *row, STATS_COL_DAY) == key; (*row)++) {
		n = db_text_i64(t, *row, STATS_COL_COUNT);
		total += n;
		it = json_object_new_object();
		json_object_object_add(it, errors ? "errorCode" : "userId",
		    json_object_new_string(db_text_str(t, *row,
		    STATS_COL_ITEM)));
		json_object_object_add(it, "count", json_object_new_int64(n));
		json_object_array_add(items, it);
	}
	o = json_object_new_object();
	json_object_object_add(o, "date", day_json(key));
	json_object_object_add(o, "total", json_object_new_int64(total));
	json_object_object_add(o, errors ? "errors" : "users", items);
	return o;
}

/* See api.h: the variant (enum stats_read) says which. */
int
api_stats_get(struct call *c, struct resp *r)
{
	bool errors = c->route->variant == STATS_READ_ERRORS ||
	    c->route->variant == STATS_READ_ERRORS_WEEK;
	bool week = c->route->variant == STATS_READ_USAGE_WEEK ||
	    c->route->variant == STATS_READ_ERRORS_WEEK;
	int days = week ? STATS_WEEK_DAYS : 1, d, e;
	int32_t today = limiter_day_key((int64_t)time(NULL)), key;
	struct db_text_rows t;
	size_t row = 0;

	if ((e = repo_stats_read(c->app->db, &c->app->arena, errors ?
	    STATS_ERRORS : STATS_CALLS, limiter_day_key_add(today, 1 - days),
	    today, &t)) != 0)
		return err_from_repo(e);
	for (d = 0; d < days; d++) {
		key = limiter_day_key_add(today, -d);
		/* Rows of days after today (a clock set back) are skipped. */
		while (row < t.count && db_text_i64(&t, row, STATS_COL_DAY) >
		    key)
			row++;
		resp_add(r, day_element(&t, &row, key, errors));
	}
	return 0;
}
