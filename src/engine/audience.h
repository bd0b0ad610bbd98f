/*
 * Who a campaign runs for (docs/behaviour.md §24, §25): a campaign's
 * smart list filters compiled for the database (repo/repo_sl_filter.h),
 * and a flow step's choice conditions, each a one-rule filter of its
 * own.  Request and Schedule Campaign check them before they start a
 * run; the engine evaluates them as it runs.
 */
#ifndef MAUTO_ENGINE_AUDIENCE_H
#define MAUTO_ENGINE_AUDIENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/campaign.h"
#include "repo/repo_sl_filter.h"

struct arena;
struct db;
struct lead_schema;
struct repo_sc;

/* What compiling needs: the lead and custom object catalogues. */
struct audience_cats {
	const struct lead_schema	*leads;
	struct slf_co			 co;
};

/* Reads the custom object catalogue into c (strings in a). */
int	audience_cats_load(struct db *db, struct arena *a,
	    const struct lead_schema *leads, struct audience_cats *c);

/*
 * The filters of campaign sc's smart list (its triggers left out) dated
 * now_ms, into *f (sl_filter_clear it): 0; 1 with msg (msg_size bytes)
 * naming the filter mauto cannot evaluate; or a negative repo_err.  A
 * list without filters selects every lead.
 */
int	audience_filters(struct db *db, struct arena *a,
	    const struct audience_cats *c, const struct repo_sc *sc,
	    int64_t now_ms, struct sl_filter *f, char *msg, size_t msg_size);

/*
 * Whether smart list list_id can choose whom a send goes to (Approve
 * Program): 0 when it has a filter and mauto evaluates every one; 1
 * with msg (msg_size bytes) saying why not; or a negative repo_err.
 */
int	audience_list_check(struct db *db, struct arena *a,
	    const struct lead_schema *leads, int32_t list_id, int64_t now_ms,
	    char *msg, size_t msg_size);

/*
 * The condition of choice ch as a filter dated now_ms into *f: 0, or 1
 * with msg when mauto cannot evaluate it (the default choice has none:
 * 1 too).
 */
int	audience_choice(const struct audience_cats *c,
	    const struct campaign_choice *ch, int64_t now_ms,
	    struct sl_filter *f, char *msg, size_t msg_size);

/*
 * The first choice of step st whose condition lead_id meets (the default
 * last), into *out (its index into st->choices).  0 or a negative
 * repo_err (a condition mauto cannot evaluate is not met).
 */
int	audience_pick(struct db *db, const struct audience_cats *c,
	    const struct campaign_step *st, int64_t lead_id, int64_t now_ms,
	    size_t *out);

#endif
