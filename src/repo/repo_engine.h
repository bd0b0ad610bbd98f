/*
 * The campaign engine's work in the database (migration 0032,
 * docs/behaviour.md §24): runs, the leads in them and where each stands
 * in its flow, qualification, the offers of activities to trigger
 * campaigns, and the engine's clock.  The runner (src/engine/) claims
 * work with leases that expire, so work a dead runner held is taken
 * over; a step and the move of its lead to the next step commit in one
 * transaction, so no step runs twice.
 */
#ifndef MAUTO_REPO_REPO_ENGINE_H
#define MAUTO_REPO_REPO_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct activity;
struct arena;
struct db;
struct db_text_rows;

/* Lengths of a claim token (with its terminator) and of a note. */
#define ENGINE_CLAIM_BYTES	33
#define ENGINE_NOTE_BYTES	256

/* The run kinds and the states of a lead in a run. */
#define RUN_REQUEST	"request"	/* Request Campaign */
#define RUN_TRIGGER	"trigger"	/* a trigger fired */
#define RUN_BATCH	"batch"		/* Schedule Campaign */
#define RUN_FLOW	"flow"		/* the flow step Request Campaign */

#define RUN_LEAD_READY	"ready"
#define RUN_LEAD_DONE	"done"
#define RUN_LEAD_REMOVED	"removed"
#define RUN_LEAD_FAILED	"failed"
#define RUN_LEAD_SKIPPED	"skipped"	/* did not enter: note says why */

/* ---- The clock --------------------------------------------------------- */

/* The engine clock's offset from real time, in ms, into *offset_ms. */
int	repo_engine_clock(struct db *db, int64_t *offset_ms);
/* Moves the engine clock by delta_ms (> 0); the new offset in *offset_ms. */
int	repo_engine_clock_advance(struct db *db, int64_t delta_ms,
	    int64_t *offset_ms);

/* ---- Starting runs ----------------------------------------------------- */

/* A campaign's qualification rule (repo_sc: qual_type, interval). */
struct engine_qual {
	const char	*type;		/* once, any, interval */
	int64_t		 interval_ms;	/* interval: how long between */
};

struct repo_sc;

/* The qualification rule of campaign sc (its interval unit in ms). */
struct engine_qual	repo_engine_qual(const struct repo_sc *sc);

/* A run to start. */
struct engine_start {
	int32_t			 campaign_id;
	const char		*kind;		/* RUN_* */
	const char		*tokens;	/* JSON array text, or NULL */
	int			 depth;		/* cascade depth */
	int64_t			 now_ms;	/* the engine's clock */
	int64_t			 run_at_ms;	/* batch: when it runs */
	/* When the work began, real UTC ms (a trigger: its activity was
	 * offered); kept as the run's created_at.  0: now. */
	int64_t			 origin_ms;
	struct engine_qual	 qual;
	/* The leads that passed the campaign's filters (NULL: all). */
	const bool		*pass;
	/* Schedule Campaign's cloneToProgramName: the source, its day. */
	int32_t			 cloned_from;	/* 0: not a clone */
	int32_t			 clone_day;	/* US Central yyyymmdd */
};

/*
 * Inside the caller's transaction: a new run of s (running, or scheduled
 * for a batch), into *run_id, and the leads[0..n) that pass the
 * qualification rule entered into it at its first step, due now (each
 * qualification recorded, each lead a member of the campaign);
 * entered[i] (may be NULL) says whether leads[i] entered.  A lead given
 * twice enters once.  0 or a negative repo_err.
 */
int	repo_engine_start_tx(struct db *db, const struct engine_start *s,
	    const int64_t *leads, size_t n, int64_t *run_id, bool *entered);

/*
 * Inside the caller's transaction: records that lead_id did not enter
 * run run_id (of campaign) and why, for mautoctl campaign trace.
 */
int	repo_engine_skip(struct db *db, int64_t run_id, int64_t lead_id,
	    int32_t campaign, int64_t now_ms, const char *why);

/*
 * Request Campaign in one transaction: the activities acts[0..nacts)
 * (Request Campaign, 47, on each lead) and the run of s over leads as
 * repo_engine_start_tx.  0 or a negative repo_err.
 */
int	repo_engine_request(struct db *db, const struct engine_start *s,
	    const struct activity *acts, size_t nacts, const int64_t *leads,
	    size_t n, int64_t *run_id);

/* The batch runs scheduled with cloneToProgramName on day (yyyymmdd). */
int	repo_engine_clones_on(struct db *db, int32_t day, int64_t *n);

/* Schedule Campaign: a batch run of s, scheduled at s->run_at_ms. */
int	repo_engine_schedule(struct db *db, const struct engine_start *s,
	    int64_t *run_id);

/*
 * Inside the caller's transaction: deletes batch run run_id while it is
 * still scheduled, no runner having begun it (its claim takes the row's
 * lock, so the two never both win): *cancelled true; false when it has
 * begun or is not there.  0 or a negative repo_err.
 */
int	repo_engine_cancel_tx(struct db *db, int64_t run_id, bool *cancelled);

/* ---- Batch runs -------------------------------------------------------- */

/* A batch run a runner expands. */
struct engine_batch {
	int64_t	 run_id;
	int32_t	 campaign_id;
	int64_t	 expanded_to;	/* the last lead id entered so far */
	int	 depth;
};

/*
 * Claims one batch run due by now_ms (engine clock) that is scheduled or
 * whose expander's lease ran out, for lease_secs, with token claim:
 * *found false when there is none.
 */
int	repo_engine_batch_claim(struct db *db, const char *claim,
	    int64_t now_ms, int lease_secs, struct engine_batch *out,
	    bool *found);

/* Where leads a batch page's entry ran its flow to stop (struct engine_entry). */
struct engine_stop {
	int		 step_pos;	/* the step they run next */
	const char	*state;		/* RUN_LEAD_* */
	int64_t		 due_ms;	/* when */
	const char	*note;		/* or NULL */
};

/*
 * What a batch page's entry runs for the leads that qualify, in its
 * transaction, before they are recorded in the run: begin is called
 * once a transaction (again when it is tried again), run once a chunk
 * of at most MAX_BATCH_RECORDS leads (ascending); run sets ran[i] for
 * the leads it took on, which are recorded at *stop, and leaves the
 * others to enter at the first step.  0 or a negative repo_err (the
 * transaction is rolled back).
 */
struct engine_entry {
	void	 (*begin)(void *arg);
	int	 (*run)(void *arg, struct db *db, const int64_t *leads,
		    size_t n, bool *ran, struct engine_stop *stop);
	void	  *arg;
};

/*
 * In one transaction, while claim holds the batch run: enters leads
 * (ascending, all above b->expanded_to) as repo_engine_start_tx does, in
 * multi-row statements of MAX_BATCH_RECORDS leads, with entry (may be
 * NULL) run for those that qualify, and records the last as expanded;
 * with last, the run is expanded (running, claim released).
 * -REPO_ERR_GONE when the claim was lost.
 */
int	repo_engine_batch_enter(struct db *db, const char *claim,
	    const struct engine_batch *b, const struct engine_qual *q,
	    const struct engine_entry *entry, int64_t now_ms,
	    const int64_t *leads, size_t n, bool last);

/* Marks running runs with no lead left ready as done. */
int	repo_engine_runs_finish(struct db *db);

/* ---- Leads in runs ----------------------------------------------------- */

/* A lead a runner holds. */
struct engine_item {
	int64_t	 run_id;
	int64_t	 lead_id;
	int32_t	 campaign_id;
	int	 step_pos;
};

/*
 * Claims at most max ready leads due by now_ms (engine clock) for
 * lease_secs with token claim, into items (*n).  0 or a negative
 * repo_err.
 */
int	repo_engine_claim(struct db *db, const char *claim, int64_t now_ms,
	    int lease_secs, struct engine_item *items, size_t max, size_t *n);

/*
 * Inside the caller's transaction: locks it's row and checks claim still
 * holds it at step it->step_pos, ready.  -REPO_ERR_GONE when it does not
 * (the lease was lost, or another runner moved it).
 */
int	repo_engine_lock(struct db *db, const char *claim,
	    const struct engine_item *it);

/*
 * Inside the caller's transaction: moves it's lead to step_pos with
 * state; due_ms (engine clock) when it waits; keep says whether claim
 * keeps it (it runs on now) or it is released.  note (NULL: none) says
 * why it ended.
 */
int	repo_engine_move(struct db *db, const struct engine_item *it,
	    int step_pos, const char *state, int64_t due_ms, const char *claim,
	    bool keep, const char *note);

/*
 * Inside the caller's transaction: locks the rows of leads[0..n) of run
 * run_id that claim still holds ready at step pos; held[i] says whether
 * leads[i]'s is one (n at most ENGINE_GROUP_MAX, repo_engine_steps.h).
 */
int	repo_engine_group_lock(struct db *db, const char *claim,
	    int64_t run_id, int pos, const int64_t *leads, size_t n,
	    bool *held);

/*
 * Inside the caller's transaction: repo_engine_move of leads[0..n) of
 * run run_id at once.
 */
int	repo_engine_group_move(struct db *db, int64_t run_id,
	    const int64_t *leads, size_t n, int step_pos, const char *state,
	    int64_t due_ms, const char *claim, bool keep, const char *note);

/*
 * Gives up the ready leads of run run_id that claim holds, due again at
 * due_ms (engine clock): what a runner does with work it failed at, so
 * it neither spins on it nor keeps it from other work.
 */
int	repo_engine_release(struct db *db, const char *claim, int64_t run_id,
	    int64_t due_ms);

/*
 * Inside the caller's transaction: ends every ready run of lead_id (of
 * campaign_id only, when not 0) but run except_run as removed.
 */
int	repo_engine_remove_lead(struct db *db, int64_t lead_id,
	    int32_t campaign_id, int64_t except_run);

/* A run as the runner reads it. */
struct engine_run {
	int64_t	 id;
	int32_t	 campaign_id;
	char	 kind[9];
	int	 depth;
	char	*tokens;	/* owned (free()); NULL: none */
	int64_t	 created_ms;	/* created_at, real UTC ms */
};

/* Run id into *out: 0, -REPO_ERR_NOT_FOUND or another repo_err. */
int	repo_engine_run_get(struct db *db, int64_t id, struct engine_run *out);

/* ---- Offers to trigger campaigns --------------------------------------- */

/* An offered activity (repo_activity.h) a runner holds. */
struct engine_offer {
	int64_t	 id;
	int64_t	 lead_id;
	int32_t	 type;
	int64_t	 primary_id;		/* 0: none */
	char	 primary_value[256];	/* "": none */
	char	*attributes;		/* owned (free()) */
	int32_t	 campaign_id;		/* 0: none */
	int	 depth;
	int64_t	 created_ms;		/* when it was offered, UTC ms */
};

/* Claims at most max offers for lease_secs with claim (oldest first). */
int	repo_engine_offers_claim(struct db *db, const char *claim,
	    int lease_secs, struct engine_offer *out, size_t max, size_t *n);
void	repo_engine_offers_free(struct engine_offer *o, size_t n);

/*
 * Inside the caller's transaction: deletes offer id while claim holds it;
 * -REPO_ERR_GONE when it does not.
 */
int	repo_engine_offer_done(struct db *db, const char *claim, int64_t id);

/*
 * The active trigger campaigns whose smart list has a trigger of rule
 * type type, by id, at most max into ids (*n).
 */
int	repo_engine_listeners(struct db *db, int32_t type, int32_t *ids,
	    size_t max, size_t *n);

/* ---- Reading what ran -------------------------------------------------- */

/* A run with its lead counts (mautoctl campaign runs). */
struct engine_run_row {
	int64_t	 id;
	char	 kind[9];
	char	 status[11];
	char	 run_at[24];		/* "YYYY-MM-DD HH:MM:SS.fff" */
	char	 created_at[24];
	int64_t	 leads, ready, done, removed, failed;
};

/* The latest runs of campaign_id, newest first, at most max. */
int	repo_engine_runs(struct db *db, int32_t campaign_id,
	    struct engine_run_row *out, size_t max, size_t *n);

/* One lead's standing in one run (mautoctl campaign trace). */
struct engine_trace_row {
	int64_t	 run_id;
	char	 kind[9];
	int	 step_pos;
	char	 state[9];
	char	 due_at[24];
	char	 updated_at[24];
	char	 note[ENGINE_NOTE_BYTES];
};

/* The runs of campaign_id lead_id was in, newest first, at most max. */
int	repo_engine_trace(struct db *db, int32_t campaign_id, int64_t lead_id,
	    struct engine_trace_row *out, size_t max, size_t *n);

/* The columns of repo_engine_trace_acts. */
enum {
	ENGINE_TRACE_TIME,	/* "YYYY-MM-DD HH:MM:SS.ffffff" UTC */
	ENGINE_TRACE_RUN,	/* NULL: written by the API */
	ENGINE_TRACE_STEP,
	ENGINE_TRACE_TYPE,	/* the activity type's name */
	ENGINE_TRACE_PRIMARY,
	ENGINE_TRACE_NCOLS
};

/*
 * The activities campaign_id's steps wrote on lead_id, and the Request
 * Campaign activities that named it, newest first, at most max, into
 * *out (text in the arena a).
 */
int	repo_engine_trace_acts(struct db *db, struct arena *a,
	    int32_t campaign_id, int64_t lead_id, size_t max,
	    struct db_text_rows *out);

/*
 * When lead_id last qualified for campaign_id, into *last_ms (UTC ms;
 * 0: never) and *times.
 */
int	repo_engine_qualified(struct db *db, int32_t campaign_id,
	    int64_t lead_id, int64_t *last_ms, int64_t *times);

/* ---- The queue (GET /metrics) ---------------------------------------- */

/* What waits for the runners. */
struct engine_queue {
	int64_t	 due;		/* leads ready, due by now */
	int64_t	 waiting;	/* leads ready, due later */
	int64_t	 offers;	/* activities not yet offered */
	int64_t	 scheduled;	/* batch runs not yet expanding */
};

/*
 * The queue at now_ms (engine clock) into *out, in one statement of
 * counts over indexes.  0 or a negative repo_err.
 */
int	repo_engine_queue(struct db *db, int64_t now_ms,
	    struct engine_queue *out);

#endif
