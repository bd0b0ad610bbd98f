/*
 * The program delete (repo_program_delete.h).  The program's row lock
 * comes first, then each store is asked whether something outside the
 * program uses what it keeps there, or names the program itself (a
 * Change Program Status step, a Member of Program filter); only when
 * none does is each store asked to delete its part, campaigns first
 * (their flows name the program's emails and lists, their own smart
 * lists go with them), the program's row last (its statuses, tags,
 * costs, tokens and members go by its foreign keys).  Whatever is put in
 * the program takes a shared lock on its row (smart lists and campaigns
 * by their foreign keys, static lists, emails and forms by a locking
 * read), so nothing is added to it while the stores are asked.  A use
 * that a store does not report still answers a refusal where a foreign
 * key holds it (error 1451 is a conflict, db/pool.c).
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
#include "repo/repo_sc_program.h"
#include "repo/repo_smart_lists.h"

struct program_delete {
	int32_t				 id;
	struct repo_program_block	*b;
};

/* The stores' reads of what keeps a program, after its campaigns'. */
static const struct {
	int				(*read)(struct db *, int32_t,
					    int32_t *);
	enum repo_program_block_kind	  kind;
} blockers[] = {
	{ repo_email_program_blocker, RPB_EMAIL },
	{ repo_lists_program_blocker, RPB_LIST },
	{ repo_forms_program_blocker, RPB_FORM },
	{ repo_sc_names_program, RPB_NAMED_BY_CAMPAIGN },
	{ repo_sl_names_program, RPB_NAMED_BY_LIST },
};

/* The first asset that keeps program id, into *b (RPB_NONE: none). */
static int
blocker(struct db *db, int32_t id, struct repo_program_block *b)
{
	bool active = false;
	size_t i;
	int r;

	if ((r = repo_sc_program_blocker(db, id, &b->id, &active)) != 0)
		return r;
	if (b->id != 0) {
		b->kind = active ? RPB_ACTIVE_CAMPAIGN : RPB_CAMPAIGN;
		return 0;
	}
	for (i = 0; i < sizeof(blockers) / sizeof(blockers[0]); i++) {
		if ((r = blockers[i].read(db, id, &b->id)) != 0)
			return r;
		if (b->id != 0) {
			b->kind = blockers[i].kind;
			return 0;
		}
	}
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
