/*
 * One flow step of one lead in one run (docs/behaviour.md §24): what a
 * step type does to the lead and the activity it records, run by the
 * engine (engine.c) inside the transaction that moves the lead on.
 */
#ifndef MAUTO_ENGINE_STEPS_H
#define MAUTO_ENGINE_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/campaign.h"
#include "model/flowstep.h"
#include "repo/repo_engine.h"
#include "repo/repo_smart_campaigns.h"

struct arena;
struct audience_cats;
struct config;
struct db;
struct lead_schema;

/* What a step needs to know of its run; every pointer borrowed. */
struct step_ctx {
	struct db			*db;
	struct arena			*a;	/* reset by the caller */
	const struct config		*cfg;
	const struct lead_schema	*schema;
	const struct audience_cats	*cats;	/* choice conditions */
	const struct repo_sc		*sc;	/* the running campaign */
	const struct campaign_step	*steps;
	size_t				 nsteps;
	const struct engine_run		*run;
	const struct flow_token	*tokens;
	size_t				 ntokens;
	const char			*claim;
	int64_t				 now_ms;	/* engine clock */
};

/* Where a step leaves its lead. */
struct step_result {
	int		 next_pos;	/* the step it runs next */
	const char	*state;		/* RUN_LEAD_* */
	int64_t		 due_ms;	/* when it runs next */
	bool		 release;	/* a Wait: the claim is given up */
	const char	*note;		/* why it ended, or what was skipped */
	bool		 skipped;	/* the step could not act */
	bool		 started_run;	/* Request Campaign started a run */
};

/*
 * Runs step it->step_pos of x's flow for it's lead, inside the caller's
 * transaction after repo_engine_lock, into *res.  A step that cannot act
 * (a value the field does not take, a list that is gone) writes nothing
 * and the lead goes on (res->note says why).  0 or a negative repo_err
 * (the transaction is rolled back and the step tried again later).
 */
int	engine_step(const struct step_ctx *x, const struct engine_item *it,
	    struct step_result *res);

/*
 * What a step does outside the transaction before it, when it cannot be
 * undone with it (Delete Person deletes the lead; run again it finds
 * nothing to delete).  0 or a negative repo_err.
 */
int	engine_step_before(const struct step_ctx *x,
	    const struct engine_item *it);

/*
 * Whether step st can run for many leads of a run at once
 * (engine_step_group): Change Data Value, Add to and Remove from List,
 * Interesting Moment and Wait with no choice but the default.
 */
bool	engine_step_groups(const struct campaign_step *st);

/*
 * Step pos of x's flow for leads[0..n) of one run (each locked, held by
 * x->claim at that step, and existing), inside the caller's transaction:
 * what engine_step does for each, in a few statements whatever n (the
 * activities in one multi-row insert).  *res is where every one of them
 * goes next.  0 or a negative repo_err.
 */
int	engine_step_group(const struct step_ctx *x, int pos,
	    const int64_t *leads, size_t n, struct step_result *res);

#endif
