/*
 * Lead partitions (migration 0004 lead_partition): the list, creating
 * one, the lookup by name, and moving leads between partitions (Update
 * Lead Partition).  Used by api_leads.c, api_lead_membership.c and
 * mautoctl.
 */
#ifndef MAUTO_REPO_REPO_PARTITIONS_H
#define MAUTO_REPO_REPO_PARTITIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "repo/repo.h"

struct db;

/* The id of the partition named name (exactly); -REPO_ERR_NOT_FOUND. */
int	repo_partitions_get_id_by_name(struct db *db, const char *name,
	    int32_t *id);

struct repo_partition {
	int32_t		 id;
	char		*name;		/* owned */
	char		*description;	/* owned; NULL when none */
};

struct repo_partition_list {
	struct repo_partition	*items;
	size_t			 count;
};

/* Every partition, by id, into *out (free with ..._list_free). */
int	repo_partitions_list(struct db *db, struct repo_partition_list *out);
void	repo_partitions_list_free(struct repo_partition_list *l);

/*
 * Creates a partition; *id is its id.  -REPO_ERR_CONFLICT when the name
 * is taken.  description may be NULL.
 */
int	repo_partitions_insert(struct db *db, const char *name,
	    const char *description, int32_t *id);

/* One record of Update Lead Partition. */
struct repo_partition_move {
	int64_t		 lead_id;
	const char	*partition;	/* name, case-sensitive; borrowed */
	bool		 skip;		/* refused by the caller: left alone */
	enum repo_rec	 result;	/* out: UPDATED, NO_LEAD, */
					/* NO_PARTITION */
};

/*
 * Moves leads to the named partitions in one transaction: leadPartitionId
 * and updatedAt are set and a "Change Lead Partition" activity (100) is
 * recorded when the partition changes.  Returns 0 with every result set,
 * or a negative repo_err (nothing changed).
 */
int	repo_partitions_lead_update(struct db *db,
	    struct repo_partition_move *moves, size_t n);

#endif
