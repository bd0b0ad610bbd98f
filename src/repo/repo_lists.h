/*
 * Static lists and their members (migration 0004 static_list,
 * list_member).  Lists are made by mautoctl (no operation in scope
 * creates them); members are added by mautoctl and read by the
 * membership operations (repo_programs.h) and Bulk Export's static list
 * filter.
 */
#ifndef MAUTO_REPO_REPO_LISTS_H
#define MAUTO_REPO_REPO_LISTS_H

#include <stddef.h>
#include <stdint.h>

#include "repo/repo.h"

struct db;

/* Creates a static list; -REPO_ERR_CONFLICT when the name is taken. */
int	repo_lists_insert(struct db *db, const char *name, int32_t *id);
/* The id of the static list named name; -REPO_ERR_NOT_FOUND. */
int	repo_lists_get_id_by_name(struct db *db, const char *name,
	    int32_t *id);
/*
 * A static list by id (it must exist) or, when name is not NULL, by
 * name: its id into *out.  0, -REPO_ERR_NOT_FOUND or another repo_err.
 */
int	repo_lists_find(struct db *db, int32_t id, const char *name,
	    int32_t *out);

/*
 * Adds leads to a static list (members already there are kept), with an
 * "Add to List" activity (24) for each lead added.  -REPO_ERR_NOT_FOUND
 * with *miss (the list, or the first unknown lead): nothing is added.
 */
int	repo_lists_member_add(struct db *db, int32_t list_id,
	    const int64_t *leads, size_t n, struct repo_missing *miss);

/*
 * Inside the caller's transaction (Merge Leads): the lists of lead from
 * become lead to's (a list to is already on keeps to's row).
 */
int	repo_lists_members_move(struct db *db, int64_t to, int64_t from);

/*
 * How many members list_id has, counting at most cap (so *count <= cap;
 * 0 for a list that does not exist).  Returns 0 or a negative repo_err.
 */
int	repo_lists_member_count(struct db *db, int32_t list_id, int64_t cap,
	    int64_t *count);

#endif
