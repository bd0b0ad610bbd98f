/*
 * The campaign engine (engine.h).
 *
 * Deployment, as the export runners (src/export/runner.c): the mautod
 * master forks campaign_runners of them, restarts one that dies (with
 * back-off when it dies young) and stops them on SIGTERM.  They never
 * serve requests.  Every host may run them: all the work is claimed in
 * the database with leases (repo/repo_engine.h), so runners on several
 * hosts share it and a runner killed with -9 loses nothing: its claims
 * run out after ENGINE_LEASE_SECS and another runner, or its own
 * successor, goes on from the first step not committed.
 *
 * A pass:
 *   1. the activities offered to trigger campaigns (repo_activity.h):
 *      each is matched against the triggers of the active campaigns that
 *      listen for its type, with their constraints; a lead that passes
 *      and qualifies starts a run, in the transaction that deletes the
 *      offer;
 *   2. one batch run that is due: its leads are entered a page at a
 *      time;
 *   3. the leads due in runs: each runs its steps one transaction a
 *      step until it waits, leaves the flow or ends it.
 * A pass that finds nothing naps ENGINE_IDLE_MS.
 *
 * GET /metrics (util/metrics.h): steps, runs and offers are counted
 * once the transaction that did them committed; the latency of a lead's
 * first step is measured from the run's created_at, which for a trigger
 * run is when its activity was offered (so the time the offer waited
 * for a runner counts); batch runs are left out, their start being
 * chosen by whoever scheduled them.  Every ENGINE_QUEUE_MS a runner
 * reads the queue's counts (repo_engine_queue) into the shared gauges.
 */
#include <sys/prctl.h>
#include <sys/types.h>

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bounds.h"
#include "db/pool.h"
#include "engine/engine.h"
#include "engine/mail.h"
#include "engine/steps.h"
#include "model/campaign.h"
#include "model/flowstep.h"
#include "model/smartlist.h"
#include "model/trigger.h"
#include "repo/repo.h"
#include "repo/repo_engine.h"
#include "repo/repo_engine_steps.h"
#include "repo/repo_lead_fields.h"
#include "repo/repo_sl_filter.h"
#include "repo/repo_smart_campaigns.h"
#include "repo/repo_smart_lists.h"
#include "repo/repo_tokens.h"
#include "util/config.h"
#include "util/log.h"
#include "util/metrics.h"
#include "util/stopsig.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

#define ENGINE_IDLE_MS		200
#define RETRY_MS		2000
#define MAX_LISTENERS		256
#define MAX_TOKENS		200

/* See engine.h. */
int
engine_open(struct engine *e, const struct config *cfg)
{
	int r;

	memset(e, 0, sizeof(*e));
	e->cfg = cfg;
	e->stop = &stopsig_stop;
	arena_init(&e->a);
	arena_init(&e->pass);
	arena_init(&e->scratch);
	srandom((unsigned)(getpid() ^ time(NULL)));
	(void)snprintf(e->claim, sizeof(e->claim), "%08lx%08lx%08lx",
	    (unsigned long)getpid(), (unsigned long)random(),
	    (unsigned long)random());
	if ((r = db_open(&e->db, cfg, &repo_schema, DB_PREPARE_LAZY)) != 0)
		return r;
	return 0;
}

/* See engine.h. */
void
engine_close(struct engine *e)
{
	db_close(e->db);
	e->db = NULL;
	lead_schema_clear(&e->schema);
	arena_clear(&e->a);
	arena_clear(&e->pass);
	arena_clear(&e->scratch);
}

/* The lead schema, read again when its version moved. */
static int
schema_fresh(struct engine *e)
{
	int64_t v = 0;
	int r;

	if ((r = repo_lead_fields_version(e->db, &v)) != 0)
		return r;
	if (e->schema.fields != NULL && v == e->schema_ver)
		return 0;
	lead_schema_clear(&e->schema);
	if ((r = repo_lead_fields_load(e->db, &e->schema)) != 0)
		return r;
	e->schema_ver = v;
	return 0;
}

/* ---- Leads in runs ----------------------------------------------------- */

/* The tokens of run: its overrides, then those in effect at the
 * campaign's place (into e's arena). */
static int
run_tokens(struct engine *e, const struct engine_run *run,
    const struct repo_sc *sc, struct flow_token *out, size_t *n)
{
	struct json_object *arr = NULL, *t, *v;
	struct repo_token *eff;
	const char *name;
	size_t i, k = 0, neff, len;
	int r;

	if (run->tokens != NULL && (arr = json_tokener_parse(run->tokens)) !=
	    NULL && json_object_is_type(arr, json_type_array)) {
		for (i = 0; i < json_object_array_length(arr) &&
		    k < MAX_TOKENS / 2; i++) {
			t = json_object_array_get_idx(arr, i);
			if (!json_object_object_get_ex(t, "name", &v))
				continue;
			name = json_object_get_string(v);
			len = strlen(name);
			if (len > 7 && strncasecmp(name, "{{my.", 5) == 0 &&
			    strcmp(name + len - 2, "}}") == 0)
				out[k].name = arena_strndup(&e->a, name + 5,
				    len - 7);
			else
				out[k].name = arena_strdup(&e->a, name);
			out[k].value = json_object_object_get_ex(t, "value",
			    &v) ? arena_strdup(&e->a,
			    json_object_get_string(v)) : "";
			k++;
		}
	}
	json_object_put(arr);
	if ((r = repo_tokens_effective(e->db, &e->a, &sc->place, &eff,
	    &neff)) != 0)
		return r;
	for (i = 0; i < neff && k < MAX_TOKENS; i++) {
		out[k].name = eff[i].name;
		out[k].value = eff[i].value;
		k++;
	}
	*n = k;
	return 0;
}

struct step_tx {
	const struct step_ctx	*x;
	struct engine_item	*it;
	struct step_result	 res;
};

/* One step of one lead, and its move, in one transaction. */
static int
step_tx(struct db *db, void *arg)
{
	struct step_tx *s = arg;
	const char *state;
	bool keep;
	int r;

	(void)db;
	if ((r = repo_engine_lock(s->x->db, s->x->claim, s->it)) != 0 ||
	    (r = engine_step(s->x, s->it, &s->res)) != 0)
		return r;
	state = s->res.state;
	keep = !s->res.release && strcmp(state, RUN_LEAD_READY) == 0;
	/* Past the last step: done, in the same move. */
	if (keep && (size_t)s->res.next_pos >= s->x->nsteps) {
		state = RUN_LEAD_DONE;
		keep = false;
	}
	return repo_engine_move(s->x->db, s->it, s->res.next_pos, state,
	    s->res.due_ms, s->x->claim, keep, s->res.note);
}

/*
 * Counts the step at pos of run (committed with result res) into the
 * shared metrics: its type and result, the run it started, and, for
 * the lead's first step, its latency.
 */
static void
counted(struct engine *e, const struct engine_run *run,
    const struct campaign_step *steps, size_t nsteps, int pos,
    const struct step_result *res)
{
	enum metrics_step_result m = METRICS_STEP_DONE;
	int64_t d;
	int kind;

	if (e->metrics == NULL || pos < 0 || (size_t)pos >= nsteps)
		return;
	if (strcmp(res->state, RUN_LEAD_FAILED) == 0)
		m = METRICS_STEP_FAILED;
	else if (res->skipped)
		m = METRICS_STEP_SKIPPED;
	metrics_step(e->metrics, flowstep_of(steps[pos].type_id), m);
	if (res->started_run)
		metrics_run_started(e->metrics, METRICS_RUN_FLOW, 1);
	kind = metrics_run_kind_of(run->kind);
	if (pos == 0 && kind >= 0 && kind != METRICS_RUN_BATCH &&
	    run->created_ms > 0) {
		d = time_now_ms() - run->created_ms;
		metrics_first_step(e->metrics, (enum metrics_run_kind)kind,
		    d > 0 ? (uint64_t)d * 1000 : 0);
	}
}

/* What every lead of one run shares: read once a pass (strings in e->a). */
struct run_ctx {
	struct engine_run		 run;
	struct repo_sc			 sc;
	struct campaign_step		*steps;
	size_t				 nsteps;
	struct flow_token		 tokens[MAX_TOKENS];
	size_t				 ntok;
	struct step_ctx			 x;
};

/* Reads run run_id of campaign into *c.  0 or a negative repo_err. */
static int
ctx_load(struct engine *e, int64_t run_id, int32_t campaign, int64_t now_ms,
    struct run_ctx *c)
{
	int r;

	memset(c, 0, sizeof(*c));
	if ((r = repo_engine_run_get(e->db, run_id, &c->run)) != 0)
		return r;
	if ((r = repo_sc_get(e->db, &e->a, campaign, &c->sc)) != 0 ||
	    (r = repo_sc_flow(e->db, &e->a, campaign, &c->steps,
	    &c->nsteps)) != 0 || (r = run_tokens(e, &c->run, &c->sc,
	    c->tokens, &c->ntok)) != 0)
		return r;
	c->x.db = e->db;
	c->x.a = &e->a;
	c->x.cfg = e->cfg;
	c->x.schema = &e->schema;
	c->x.cats = &e->cats;
	c->x.sc = &c->sc;
	c->x.steps = c->steps;
	c->x.nsteps = c->nsteps;
	c->x.run = &c->run;
	c->x.tokens = c->tokens;
	c->x.ntokens = c->ntok;
	c->x.claim = e->claim;
	c->x.now_ms = now_ms;
	return 0;
}

static void
ctx_clear(struct run_ctx *c)
{
	free(c->run.tokens);
	c->run.tokens = NULL;
}

/* Runs it's lead on, one step a transaction, until it waits or leaves. */
static int
run_lead(struct engine *e, struct run_ctx *c, struct engine_item *it)
{
	struct step_tx s;
	int r = 0;

	for (;;) {
		if (*e->stop)
			break;
		if ((r = engine_step_before(&c->x, it)) != 0)
			break;
		memset(&s, 0, sizeof(s));
		s.x = &c->x;
		s.it = it;
		if ((r = db_run_tx(e->db, step_tx, &s, false)) != 0)
			break;
		counted(e, &c->run, c->steps, c->nsteps, it->step_pos, &s.res);
		if (s.res.note != NULL)
			log_debug("campaign %d run %lld lead %lld step %d: %s",
			    it->campaign_id, (long long)it->run_id,
			    (long long)it->lead_id, it->step_pos, s.res.note);
		it->step_pos = s.res.next_pos;
		/* Past the last step the move made it done (step_tx). */
		if (s.res.release || strcmp(s.res.state, RUN_LEAD_READY) != 0 ||
		    (size_t)it->step_pos >= c->nsteps)
			break;
	}
	/* A claim lost to another runner is not an error of this one. */
	return r == -REPO_ERR_GONE ? 0 : r;
}

/* Whether id is among ids[0..n). */
static bool
lead_in(const int64_t *ids, size_t n, int64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* A step a chain ran (counted once its transaction committed). */
struct chain_step {
	int			 pos;
	struct step_result	 res;
};

/*
 * Runs leads[0..n) of x's run (locked, existing) from step pos on
 * through the steps that follow while each is one many leads run at
 * once (engine_step_groups), in the caller's transaction: done[0..*ndone)
 * gets each step run (done has room for x->nsteps), *fin where the
 * leads stop: at the next step, ready; released until a Wait is over;
 * done past the last step (released).
 */
static int
chain(const struct step_ctx *x, int pos, const int64_t *leads, size_t n,
    struct chain_step *done, size_t *ndone, struct step_result *fin)
{
	struct step_result res;
	const char *note = NULL;
	int r;

	*ndone = 0;
	for (;;) {
		if ((r = engine_step_group(x, pos, leads, n, &res)) != 0)
			return r;
		done[*ndone].pos = pos;
		done[(*ndone)++].res = res;
		if (res.note != NULL)
			note = res.note;
		*fin = res;
		fin->note = note;
		if (res.release || strcmp(res.state, RUN_LEAD_READY) != 0)
			return 0;
		pos = res.next_pos;
		if ((size_t)pos >= x->nsteps) {
			fin->state = RUN_LEAD_DONE;
			fin->release = true;
			return 0;
		}
		if (!engine_step_groups(&x->steps[pos]))
			return 0;
	}
}

/* Steps of many leads of a run at once (a chain), and their moves. */
struct group_tx {
	const struct step_ctx	*x;
	int			 pos;
	const int64_t		*leads;
	size_t			 n;
	bool			*held;		/* out: claim held at pos */
	bool			*found;		/* scratch */
	int64_t			*ids;		/* out: the leads moved */
	size_t			 nmoved;
	struct chain_step	*done;		/* out: the steps run */
	size_t			 ndone;
	struct step_result	 res;		/* out: where they stopped */
};

static int
group_tx(struct db *db, void *arg)
{
	struct group_tx *g = arg;
	bool done = (size_t)g->pos >= g->x->nsteps;
	size_t i, k, nheld, nr;
	int r;

	memset(&g->res, 0, sizeof(g->res));
	g->nmoved = 0;
	g->ndone = 0;
	if ((r = repo_engine_group_lock(db, g->x->claim, g->x->run->id,
	    g->pos, g->leads, g->n, g->held)) != 0)
		return r;
	for (i = nheld = 0; i < g->n; i++)
		if (g->held[i])
			g->ids[nheld++] = g->leads[i];
	if (done) {
		/* Past the last step: done, the claim released. */
		g->res.next_pos = g->pos;
		g->res.state = RUN_LEAD_DONE;
		g->res.due_ms = g->x->now_ms;
		g->res.release = true;
		g->nmoved = nheld;
		return repo_engine_group_move(db, g->x->run->id, g->ids, nheld,
		    g->pos, RUN_LEAD_DONE, g->x->now_ms, g->x->claim, false,
		    NULL);
	}
	if ((r = repo_engine_leads_lock(db, g->ids, nheld, g->found)) != 0)
		return r;
	/* The leads that exist first, then those deleted meanwhile. */
	for (i = k = 0; i < nheld; i++)
		if (g->found[i])
			g->ids[k++] = g->ids[i];
	for (i = nr = 0; i < g->n; i++)
		if (g->held[i] && !lead_in(g->ids, k, g->leads[i]))
			g->ids[k + nr++] = g->leads[i];
	if (k > 0 && ((r = chain(g->x, g->pos, g->ids, k, g->done, &g->ndone,
	    &g->res)) != 0 || (r = repo_engine_group_move(db, g->x->run->id,
	    g->ids, k, g->res.next_pos, g->res.state, g->res.due_ms,
	    g->x->claim, !g->res.release, g->res.note)) != 0))
		return r;
	g->nmoved = k;
	return repo_engine_group_move(db, g->x->run->id, g->ids + k, nr,
	    g->pos, RUN_LEAD_REMOVED, g->x->now_ms, g->x->claim, false,
	    "the person was deleted");
}

/*
 * Runs the claimed leads items[0..n) of one run: the leads at the same
 * step together, the steps that follow while each is one many leads run
 * at once (engine_step_groups) in one transaction; any other step, and
 * a lone lead, one lead at a time.
 */
static int
run_leads(struct engine *e, struct engine_item *items, size_t n,
    int64_t now_ms)
{
	struct run_ctx *c;
	struct group_tx g;
	int64_t *leads;
	bool *active;
	size_t i, m, k, j;
	int pos, r;

	arena_reset(&e->a);
	c = xcalloc(1, sizeof(*c));
	leads = xcalloc(n, sizeof(*leads));
	active = xcalloc(n, sizeof(*active));
	memset(&g, 0, sizeof(g));
	g.held = xcalloc(n, sizeof(*g.held));
	g.found = xcalloc(n, sizeof(*g.found));
	g.ids = xcalloc(n, sizeof(*g.ids));
	if ((r = ctx_load(e, items[0].run_id, items[0].campaign_id, now_ms,
	    c)) != 0)
		goto out;
	g.done = xcalloc(c->nsteps + 1, sizeof(*g.done));
	for (i = 0; i < n; i++)
		active[i] = true;
	while (!*e->stop) {
		/* The lowest step any lead still here is at. */
		for (i = 0, pos = -1; i < n; i++)
			if (active[i] && (pos < 0 || items[i].step_pos < pos))
				pos = items[i].step_pos;
		if (pos < 0)
			break;
		for (i = m = 0; i < n; i++)
			if (active[i] && items[i].step_pos == pos)
				leads[m++] = items[i].lead_id;
		if ((size_t)pos < c->nsteps && (m == 1 ||
		    !engine_step_groups(&c->steps[pos]))) {
			for (i = 0; i < n; i++)
				if (active[i] && items[i].step_pos == pos) {
					active[i] = false;
					if ((r = run_lead(e, c, &items[i])) != 0)
						goto out;
				}
			continue;
		}
		g.x = &c->x;
		g.pos = pos;
		g.leads = leads;
		g.n = m;
		if ((r = db_run_tx(e->db, group_tx, &g, false)) != 0)
			goto out;
		for (j = 0; j < g.ndone; j++)
			for (k = 0; k < g.nmoved; k++)
				counted(e, &c->run, c->steps, c->nsteps,
				    g.done[j].pos, &g.done[j].res);
		for (i = 0; i < n; i++) {
			if (!active[i] || items[i].step_pos != pos)
				continue;
			if (!lead_in(g.ids, g.nmoved, items[i].lead_id) ||
			    g.res.release ||
			    strcmp(g.res.state, RUN_LEAD_READY) != 0)
				active[i] = false;
			else
				items[i].step_pos = g.res.next_pos;
		}
	}
out:
	ctx_clear(c);
	free(c);
	free(leads);
	free(active);
	free(g.held);
	free(g.found);
	free(g.ids);
	free(g.done);
	return r == -REPO_ERR_GONE ? 0 : r;
}

static int
pass_leads(struct engine *e, int64_t now_ms, size_t *did)
{
	struct engine_item *items;
	size_t n, i, j;
	int r;

	items = xcalloc(ENGINE_LEADS, sizeof(*items));
	r = repo_engine_claim(e->db, e->claim, now_ms, ENGINE_LEASE_SECS,
	    items, ENGINE_LEADS, &n);
	/* Claimed rows come by run: each run's leads together. */
	for (i = 0; r == 0 && i < n && !*e->stop; i = j) {
		for (j = i + 1; j < n && items[j].run_id == items[i].run_id;
		    j++)
			continue;
		if ((r = run_leads(e, items + i, j - i, now_ms)) != 0) {
			log_warn("campaign runner: campaign %d run %lld: repo "
			    "error %d; its leads are tried again in %d s",
			    items[i].campaign_id, (long long)items[i].run_id,
			    -r, RETRY_MS / 1000);
			(void)repo_engine_release(e->db, e->claim,
			    items[i].run_id, now_ms + RETRY_MS);
		}
		r = 0;
		*did += j - i;
	}
	free(items);
	return r;
}

/* ---- Offers to trigger campaigns --------------------------------------- */

struct fire_tx {
	struct engine		*e;
	const struct engine_offer *o;
	const int32_t		*camps;	/* the campaigns it fires */
	const struct repo_sc	*scs;
	size_t			 n;
	int64_t			 now_ms;
};

static int
fire_tx(struct db *db, void *arg)
{
	struct fire_tx *f = arg;
	struct engine_start s;
	int64_t run;
	size_t i;
	int r;

	if ((r = repo_engine_offer_done(db, f->e->claim, f->o->id)) != 0)
		return r;
	for (i = 0; i < f->n; i++) {
		memset(&s, 0, sizeof(s));
		s.campaign_id = f->camps[i];
		s.kind = RUN_TRIGGER;
		s.depth = f->o->depth;
		s.now_ms = f->now_ms;
		s.qual = repo_engine_qual(&f->scs[i]);
		s.origin_ms = f->o->created_ms;
		if ((r = repo_engine_start_tx(db, &s, &f->o->lead_id, 1, &run,
		    NULL)) != 0)
			return r;
	}
	return 0;
}

/*
 * Whether lead_id passes the filters of campaign sc (a filter mauto
 * cannot evaluate passes no one: activation refuses such a list, and
 * one changed since is never taken as true).
 */
static int
passes(struct engine *e, const struct repo_sc *sc, int64_t lead_id,
    int64_t now_ms, bool *ok)
{
	struct sl_filter f;
	char msg[SL_MSG_BYTES];
	int r;

	*ok = false;
	if ((r = audience_filters(e->db, &e->a, &e->cats, sc, now_ms, &f, msg,
	    sizeof(msg))) == 0)
		r = repo_sl_filter_match(e->db, &f, lead_id, ok);
	else if (r == 1) {
		log_warn("campaign %d: %s; the lead does not run", sc->id, msg);
		r = 0;
	}
	sl_filter_clear(&f);
	return r;
}

/* Offers o to the campaigns listening for its type. */
static int
offer_one(struct engine *e, const struct engine_offer *o, int64_t now_ms)
{
	int32_t ids[MAX_LISTENERS], fire[MAX_LISTENERS];
	struct repo_sc *scs;
	struct repo_sl sl;
	struct json_object *attrs;
	struct trigger_activity act;
	struct fire_tx f;
	size_t n, i, k, nf = 0;
	bool hit;
	int r;

	arena_reset(&e->a);
	if ((r = repo_engine_listeners(e->db, o->type, ids, MAX_LISTENERS,
	    &n)) != 0)
		return r;
	attrs = json_tokener_parse(o->attributes);
	act = (struct trigger_activity){ o->type, o->primary_id,
	    o->primary_value, attrs };
	scs = xcalloc(n + 1, sizeof(*scs));
	for (i = 0; i < n && r == 0; i++) {
		if ((r = repo_sc_get(e->db, &e->a, ids[i], &scs[nf])) != 0 ||
		    (r = repo_sl_get(e->db, &e->a, scs[nf].smart_list_id, true,
		    &sl)) != 0) {
			if (r == -REPO_ERR_NOT_FOUND)
				r = 0;
			continue;
		}
		/* Any trigger fires (they are ORed). */
		for (k = 0, hit = false; k < sl.nrules && !hit; k++)
			hit = sl.rules[k].trigger && sl.rules[k].activity &&
			    sl.rules[k].type_id == o->type &&
			    trigger_matches(&sl.rules[k], &act);
		/* Then the lead must pass the campaign's filters. */
		if (hit && scs[nf].active && (r = passes(e, &scs[nf],
		    o->lead_id, now_ms, &hit)) == 0 && hit)
			fire[nf++] = ids[i];
	}
	json_object_put(attrs);
	if (r == 0) {
		f = (struct fire_tx){ e, o, fire, scs, nf, now_ms };
		if ((r = db_run_tx(e->db, fire_tx, &f, false)) == 0) {
			metrics_offer(e->metrics, nf > 0);
			metrics_run_started(e->metrics, METRICS_RUN_TRIGGER,
			    nf);
		}
	}
	free(scs);
	return r == -REPO_ERR_GONE ? 0 : r;
}

static int
pass_offers(struct engine *e, int64_t now_ms, size_t *did)
{
	struct engine_offer *o;
	size_t n, i;
	int r;

	o = xcalloc(ENGINE_OFFERS, sizeof(*o));
	r = repo_engine_offers_claim(e->db, e->claim, ENGINE_LEASE_SECS, o,
	    ENGINE_OFFERS, &n);
	for (i = 0; r == 0 && i < n && !*e->stop; i++) {
		if ((r = offer_one(e, &o[i], now_ms)) != 0)
			log_warn("campaign runner: activity offer %lld: repo "
			    "error %d; offered again when its claim runs out",
			    (long long)o[i].id, -r);
		r = 0;
		(*did)++;
	}
	repo_engine_offers_free(o, n);
	free(o);
	return r;
}

/* ---- Batch runs -------------------------------------------------------- */

/*
 * A batch page's entry (struct engine_entry): the leads that qualify run
 * the flow's first steps, while each is one many leads run at once, in
 * the transaction that enters them, and are recorded where they stop.
 * The steps run are counted once it committed.
 */
struct entry_ctx {
	struct engine		*e;
	struct run_ctx		*c;
	struct chain_step	*done;		/* a chunk's steps */
	struct chain_step	*tally;		/* the page's, with... */
	size_t			*times;		/* ...the leads of each */
	size_t			 ntally;
	size_t			 max;
};

static void
entry_begin(void *arg)
{
	((struct entry_ctx *)arg)->ntally = 0;
}

static int
entry_run(void *arg, struct db *db, const int64_t *leads, size_t n,
    bool *ran, struct engine_stop *stop)
{
	struct entry_ctx *en = arg;
	const struct step_ctx *x = &en->c->x;
	struct step_result fin;
	int64_t *ids;
	bool *found;
	size_t i, k, nd;
	int r;

	if (x->nsteps == 0 || !engine_step_groups(&x->steps[0]))
		return 0;
	ids = arena_zalloc(x->a, n * sizeof(*ids));
	found = arena_zalloc(x->a, n * sizeof(*found));
	if (ids == NULL || found == NULL)
		return -REPO_ERR_INTERNAL;
	/* A lead deleted since the page was read enters at the first step
	 * (where the runner that claims it finds it gone). */
	if ((r = repo_engine_leads_lock(db, leads, n, found)) != 0)
		return r;
	for (i = k = 0; i < n; i++)
		if (found[i])
			ids[k++] = leads[i];
	if (k == 0)
		return 0;
	if ((r = chain(x, 0, ids, k, en->done, &nd, &fin)) != 0)
		return r;
	for (i = 0; i < nd && en->ntally < en->max; i++) {
		en->tally[en->ntally] = en->done[i];
		en->times[en->ntally++] = k;
	}
	for (i = 0; i < n; i++)
		ran[i] = found[i];
	stop->step_pos = fin.next_pos;
	stop->state = fin.state;
	stop->due_ms = fin.due_ms;
	stop->note = fin.note;
	return 0;
}

/* The steps a committed page's entry ran, into the shared metrics. */
static void
entry_count(struct entry_ctx *en)
{
	const struct run_ctx *c = en->c;
	size_t i, k;

	for (i = 0; i < en->ntally; i++)
		for (k = 0; k < en->times[i]; k++)
			counted(en->e, &c->run, c->steps, c->nsteps,
			    en->tally[i].pos, &en->tally[i].res);
	en->ntally = 0;
}

/*
 * Expands one due batch run, a page of leads a transaction: 0 when it is
 * expanded or none was due, 1 when asked to stop before its end (its
 * claim runs out and another pass goes on), or a negative repo_err.
 */
static int
batch_expand(struct engine *e, int64_t now_ms, size_t *did)
{
	struct engine_batch b;
	struct engine_qual q;
	struct engine_entry entry;
	struct entry_ctx en;
	struct sl_filter f;
	struct run_ctx *c;
	char msg[SL_MSG_BYTES];
	int64_t *ids;
	size_t n = 0;
	bool found, last = false;
	int r;

	if ((r = repo_engine_batch_claim(e->db, e->claim, now_ms,
	    ENGINE_LEASE_SECS, &b, &found)) != 0 || !found)
		return r;
	(*did)++;
	arena_reset(&e->a);
	memset(&f, 0, sizeof(f));
	memset(&en, 0, sizeof(en));
	c = xcalloc(1, sizeof(*c));
	if ((r = ctx_load(e, b.run_id, b.campaign_id, now_ms, c)) != 0) {
		/* The campaign is gone: the run ends with no lead. */
		if (r == -REPO_ERR_NOT_FOUND)
			r = repo_engine_batch_enter(e->db, e->claim, &b, NULL,
			    NULL, now_ms, NULL, 0, true);
		goto out;
	}
	q = repo_engine_qual(&c->sc);
	if ((r = audience_filters(e->db, &e->a, &e->cats, &c->sc, now_ms, &f,
	    msg, sizeof(msg))) == 1) {
		log_warn("campaign %d run %lld: %s; the run selects no one",
		    c->sc.id, (long long)b.run_id, msg);
		r = repo_engine_batch_enter(e->db, e->claim, &b, &q, NULL,
		    now_ms, NULL, 0, true);
		goto out;
	}
	if (r != 0)
		goto out;
	/* What the steps allocate is dropped after each page. */
	c->x.a = &e->scratch;
	en.e = e;
	en.c = c;
	en.done = xcalloc(c->nsteps + 1, sizeof(*en.done));
	en.max = (c->nsteps + 1) * (ENGINE_BATCH_PAGE / MAX_BATCH_RECORDS + 1);
	en.tally = xcalloc(en.max, sizeof(*en.tally));
	en.times = xcalloc(en.max, sizeof(*en.times));
	entry = (struct engine_entry){ entry_begin, entry_run, &en };
	ids = xcalloc(ENGINE_BATCH_PAGE, sizeof(*ids));
	do {
		arena_reset(&e->scratch);
		if ((r = repo_sl_filter_leads(e->db, &f, b.expanded_to,
		    ENGINE_BATCH_PAGE, ids, &n)) != 0)
			break;
		last = n < ENGINE_BATCH_PAGE;
		if ((r = repo_engine_batch_enter(e->db, e->claim, &b, &q,
		    &entry, now_ms, ids, n, last)) != 0)
			break;
		entry_count(&en);
		if (n > 0)
			b.expanded_to = ids[n - 1];
	} while (!last && !*e->stop);
	arena_reset(&e->scratch);
	free(ids);
	if (r == 0 && !last)
		r = 1;	/* stopped: the rest is left to the next claim */
out:
	free(en.done);
	free(en.tally);
	free(en.times);
	ctx_clear(c);
	free(c);
	sl_filter_clear(&f);
	return r;
}

/* One batch run expanded: counted as started once it is running. */
static int
pass_batch(struct engine *e, int64_t now_ms, size_t *did)
{
	size_t before = *did;
	int r = batch_expand(e, now_ms, did);

	if (r == 0 && *did > before)
		metrics_run_started(e->metrics, METRICS_RUN_BATCH, 1);
	return r == -REPO_ERR_GONE || r == 1 ? 0 : r;
}

/* The queue's counts into the shared gauges, every ENGINE_QUEUE_MS. */
static int
sample_queue(struct engine *e, int64_t now_ms, int64_t offset)
{
	struct engine_queue q;
	int64_t g[METRICS_QUEUE__MAX];
	int r;

	if (e->metrics == NULL || (e->queue_at != 0 &&
	    now_ms - e->queue_at < ENGINE_QUEUE_MS && now_ms >= e->queue_at))
		return 0;
	if ((r = repo_engine_queue(e->db, now_ms + offset, &q)) != 0)
		return r;
	e->queue_at = now_ms;
	g[METRICS_QUEUE_DUE] = q.due;
	g[METRICS_QUEUE_WAITING] = q.waiting;
	g[METRICS_QUEUE_OFFERS] = q.offers;
	g[METRICS_QUEUE_SCHEDULED] = q.scheduled;
	metrics_set_queue(e->metrics, g);
	return 0;
}

/* See engine.h. */
int
engine_pass(struct engine *e, int64_t now_ms, size_t *did)
{
	int64_t offset = 0;
	size_t sent = 0;
	int r;

	*did = 0;
	if ((r = db_ensure(e->db)) != 0 || (r = schema_fresh(e)) != 0 ||
	    (r = repo_engine_clock(e->db, &offset)) != 0)
		return r;
	arena_reset(&e->pass);
	if ((r = audience_cats_load(e->db, &e->pass, &e->schema,
	    &e->cats)) != 0)
		return r;
	if ((r = pass_offers(e, now_ms + offset, did)) != 0 ||
	    (r = pass_batch(e, now_ms + offset, did)) != 0 ||
	    (r = pass_leads(e, now_ms + offset, did)) != 0 ||
	    ((r = engine_mail_deliver(e->db, e->cfg, now_ms, ENGINE_SENDS,
	    &sent)) != 0 && r != -REPO_ERR_DEADLOCK))
		return r;
	*did += sent;
	if ((r = repo_engine_runs_finish(e->db)) != 0)
		return r;
	return sample_queue(e, now_ms, offset);
}

/* See engine.h. */
int
engine_run(const struct engine_args *a)
{
	struct engine e;
	size_t did;
	int status = ENGINE_EXIT_STARTUP, r;

	memset(&e, 0, sizeof(e));
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) == -1 ||
	    getppid() != a->master || stopsig_setup() != 0)
		goto out;
	(void)prctl(PR_SET_NAME, ENGINE_PROC_NAME);
	if (engine_open(&e, a->cfg) != 0) {
		log_err("campaign runner: cannot open the database; exiting");
		goto out;
	}
	db_set_metrics(e.db, a->metrics);
	e.metrics = a->metrics;
	log_debug("campaign runner %u: ready", a->index);
	while (!stopsig_stop) {
		db_revive_idle(e.db);
		r = engine_pass(&e, time_now_ms(), &did);
		if (r != 0) {
			log_warn("campaign runner: the pass stopped (repo error "
			    "%d); again in %d s", -r, RETRY_MS / 1000);
			stopsig_nap(RETRY_MS);
		} else if (did == 0)
			stopsig_nap(ENGINE_IDLE_MS);
	}
	status = ENGINE_EXIT_OK;
out:
	engine_close(&e);
	return status;
}
