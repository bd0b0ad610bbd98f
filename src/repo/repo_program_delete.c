/*
 * The program delete (repo_program_delete.h).  The program's row lock
 * comes first, then each store is asked whether something outside the
 * program uses what it keeps there; only when none does is each store
 * asked to delete its part, campaigns first (their flows name the
 * program's emails and lists, their own smart lists go with them), the
 * program's row last (its statuses, tags, costs, tokens and members go
 * by its foreign keys).  A use that a store does not report still
 * answers a refusal where a foreign key holds it (error 1451 is a
 * conflict, db/pool.c).
 *
 * XXX: a flow step naming one of the program's emails or lists may be
 * written by another transaction between the checks and the deletes (a
 * flow step does not lock what it names); the step is then left naming
 * an asset that is gone, as after any delete of that asset's row.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/pool.h"
#include "repo/repo.h"
#include "repo/repo_emails.h"
#include "repo/repo_forms.h"
#include "repo/repo_lists.h"
#include "repo/repo_program_assets.h"
#include "repo/repo_program_delete.h"
#include "repo/repo_smart_campaigns.h"
#include "repo/repo_smart_lists.h"

struct program_delete {
	int32_t				 id;
	struct repo_program_block	*b;
};

/* The first asset of program id that may not go, into *b. */
static int
blocker(struct db *db, int32_t id, struct repo_program_block *b)
{
	bool active = false;
	int r;

	if ((r = repo_sc_program_blocker(db, id, &b->id, &active)) != 0)
		return r;
	if (b->id != 0) {
		b->kind = active ? RPB_ACTIVE_CAMPAIGN : RPB_CAMPAIGN;
		return 0;
	}
	if ((r = repo_email_program_blocker(db, id, &b->id)) != 0)
		return r;
	if (b->id != 0) {
		b->kind = RPB_EMAIL;
		return 0;
	}
	if ((r = repo_lists_program_blocker(db, id, &b->id)) != 0)
		return r;
	if (b->id != 0) {
		b->kind = RPB_LIST;
		return 0;
	}
	if ((r = repo_forms_program_blocker(db, id, &b->id)) != 0)
		return r;
	if (b->id != 0)
		b->kind = RPB_FORM;
	return 0;
}

static int
program_delete_tx(struct db *db, void *arg)
{
	struct program_delete *x = arg;
	int r;

	x->b->kind = RPB_NONE;
	x->b->id = 0;
	if ((r = repo_program_assets_lock(db, x->id)) != 0 ||
	    (r = blocker(db, x->id, x->b)) != 0)
		return r;
	if (x->b->kind != RPB_NONE)
		return -REPO_ERR_CONFLICT;
	if ((r = repo_sc_delete_in_program(db, x->id)) != 0 ||
	    (r = repo_sl_delete_in_program(db, x->id)) != 0 ||
	    (r = repo_lists_delete_in_program(db, x->id)) != 0 ||
	    (r = repo_forms_delete_in_program(db, x->id)) != 0 ||
	    (r = repo_email_delete_in_program(db, x->id)) != 0)
		return r;
	return repo_program_assets_delete_locked(db, x->id);
}

/* See repo_program_delete.h. */
int
repo_program_delete(struct db *db, int32_t id, struct repo_program_block *b)
{
	struct program_delete x = { id, b };
	int r;

	b->kind = RPB_NONE;
	b->id = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	return db_run_tx(db, program_delete_tx, &x, false);
}
