/*
 * An Email program's send (docs/behaviour.md §22): Approve Program makes
 * it, Unapprove Program takes it back.  It stands above the stores, as
 * repo_program_delete.h does: the program's row (repo_program_assets.h)
 * is locked while its send campaign (repo_smart_campaigns.h: a system
 * campaign with a copy of the program's smart list and one Send Email
 * step of the program's email) and the campaign's batch run, scheduled
 * at the program's start date on the engine's clock (repo_engine.h), are
 * made or deleted in the same transaction.  The campaign engine then
 * sends as it runs any batch campaign: each lead once, through the
 * outbox.
 */
#ifndef MAUTO_REPO_REPO_PROGRAM_SEND_H
#define MAUTO_REPO_REPO_PROGRAM_SEND_H

#include <stdint.h>

struct arena;
struct db;

/* Why an approve or an unapprove was refused. */
enum repo_send_why {
	RPS_OK,
	RPS_NOT_EMAIL,		/* the program is not an Email program */
	RPS_APPROVED,		/* approve: it is approved already */
	RPS_NO_START,		/* approve: no start date */
	RPS_START_PAST,		/* approve: the start date has passed */
	RPS_NO_EMAIL,		/* approve: no approved email in it */
	RPS_NO_LIST,		/* approve: no smart list in it */
	RPS_NAME_TAKEN,		/* approve: the send campaign's name */
	RPS_NOT_APPROVED,	/* unapprove: it is not approved */
	RPS_STARTED,		/* unapprove: the send has begun */
	RPS__MAX
};

/* The program's stored type of an Email program. */
#define PROGRAM_TYPE_EMAIL	"email"

/* One approve or unapprove of program id. */
struct repo_program_send {
	int32_t			 id;		/* in: the program */
	int64_t			 now_ms;	/* in: the engine's clock */
	const char		*campaign_name;	/* in: approve: the send's */
	enum repo_send_why	 why;		/* out: RPS_OK or why not */
	int32_t			 campaign_id;	/* out: the send campaign */
	int64_t			 run_id;	/* out: its batch run */
};

/*
 * Approve Program in one transaction: with program s->id locked, an
 * Email program not approved, whose start date is later than s->now_ms,
 * that holds an approved email (the first by id) and a smart list (the
 * first by id) gets its send campaign, named s->campaign_name, and the
 * campaign's batch run at the start date, and is locked.  Returns 0 with
 * s->why RPS_OK, or 0 with s->why saying what was missing (nothing
 * written); -REPO_ERR_NOT_FOUND when there is no such program, or
 * another negative repo_err.
 */
int	repo_program_send_approve(struct db *db, struct arena *a,
	    struct repo_program_send *s);

/*
 * Unapprove Program in one transaction: an approved Email program whose
 * send's batch run is still scheduled loses the run and its send
 * campaign and is unlocked.  0 with s->why RPS_OK, RPS_NOT_EMAIL,
 * RPS_NOT_APPROVED or RPS_STARTED (a runner has begun the run: nothing
 * changed); -REPO_ERR_NOT_FOUND or another negative repo_err.
 */
int	repo_program_send_unapprove(struct db *db, struct arena *a,
	    struct repo_program_send *s);

#endif
