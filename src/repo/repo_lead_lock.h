/*
 * The lead row lock other repositories take inside their transactions
 * (lists, programs, partitions, cookies, merge) before they write what
 * hangs off a lead: a file of its own so those stores need not include
 * repo_leads.h, and the lock is taken one way everywhere.
 */
#ifndef MAUTO_REPO_REPO_LEAD_LOCK_H
#define MAUTO_REPO_REPO_LEAD_LOCK_H

#include <stddef.h>
#include <stdint.h>

struct db;
struct repo_missing;

/*
 * Inside the caller's transaction: locks lead id's row (FOR UPDATE) and
 * reads its partition into *partition (may be NULL).
 * -REPO_ERR_NOT_FOUND when there is no such lead.
 */
int	repo_lead_lock(struct db *db, int64_t id, int64_t *partition);
/*
 * Locks every lead of ids, in the order given; on the first unknown one,
 * -REPO_ERR_NOT_FOUND with *miss (LEAD, its id and index).
 */
int	repo_lead_lock_all(struct db *db, const int64_t *ids, size_t n,
	    struct repo_missing *miss);

#endif
