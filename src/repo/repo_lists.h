/*
 * Static lists and their members (migration 0004 static_list,
 * list_member): made by mautoctl and the asset operations; members
 * added and removed by mautoctl and the list operations of the lead
 * database, and read by those, the membership operations
 * (repo_programs.h) and Bulk Export's static list filter.
 */
#ifndef MAUTO_REPO_REPO_LISTS_H
#define MAUTO_REPO_REPO_LISTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/folder.h"
#include "repo/repo.h"

struct arena;
struct db;
struct db_text_rows;

/* A new static list.  Strings are borrowed. */
struct list_new {
	const char		*name;
	const char		*description;	/* NULL: none */
	bool			 has_place;	/* false: the Lead Database root */
	struct folder_ref	 place;		/* a staticList folder or a program */
	const char		*workspace;	/* NULL: "Default" */
};

/*
 * Creates a static list, its id into *id; -REPO_ERR_CONFLICT when the
 * name is taken (names are unique in the instance), -REPO_ERR_NOT_FOUND
 * when its program does not exist.
 */
int	repo_lists_create(struct db *db, const struct list_new *t,
	    int32_t *id);
/* repo_lists_create inside the caller's transaction (Clone Program). */
int	repo_lists_create_in_tx(struct db *db, const struct list_new *t,
	    int32_t *id);
/*
 * The lists of program program, by id, into *out (*n) in the arena a
 * (Clone Program).  0 or a negative repo_err.
 */
struct repo_named;
int	repo_lists_in_program(struct db *db, struct arena *a,
	    int32_t program, struct repo_named **out, size_t *n);
/* repo_lists_create of a list with only a name (mautoctl). */
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

/* The columns of a repo_lists_browse row. */
enum {
	LIST_COL_ID,
	LIST_COL_NAME,
	LIST_COL_DESCRIPTION,		/* NULL: none */
	LIST_COL_PROGRAM,		/* the program's name; NULL: none */
	LIST_COL_WORKSPACE_ID,		/* NULL: a workspace with no row */
	LIST_COL_WORKSPACE,
	LIST_COL_CREATED,		/* "YYYY-MM-DD HH:MM:SS" UTC */
	LIST_COL_UPDATED,
	LIST_NCOLS
};

/*
 * The lists matching f with id > after, by id, at most limit rows, into
 * *out (text in the arena a).  Returns 0 or a negative repo_err.
 */
int	repo_lists_browse(struct db *db, struct arena *a,
	    const struct repo_filter *f, int64_t after, int limit,
	    struct db_text_rows *out);

/* What repo_lists_members_apply does to each lead. */
enum list_op {
	LIST_OP_ADD,		/* add, with Add to List (24) when added */
	LIST_OP_REMOVE,		/* remove, with Remove from List (25) */
	LIST_OP_READ,		/* only say where the lead stands */
};

/* Where a lead stood towards the list before the operation. */
enum list_state {
	LIST_NO_LEAD,		/* there is no such lead */
	LIST_WAS_MEMBER,
	LIST_WAS_NOT_MEMBER,
};

/*
 * One transaction over the leads of list_id, in order: adds or removes
 * each existing lead (an Add to List or Remove from List activity for
 * each one that changed), or only reads; out[i] (n entries, caller's)
 * says where leads[i] stood before.  A lead given twice is seen the
 * second time as the first left it.  Returns 0, -REPO_ERR_NOT_FOUND
 * when there is no such list, or another negative repo_err.
 */
int	repo_lists_members_apply(struct db *db, int32_t list_id,
	    enum list_op op, const int64_t *leads, size_t n,
	    enum list_state *out);

/* ---- The asset operations (§B.2.2) ---------------------------------- */

/* The columns of a list read as an asset. */
enum {
	LIST_ASSET_COL_ID,
	LIST_ASSET_COL_NAME,
	LIST_ASSET_COL_DESCRIPTION,	/* NULL: none */
	LIST_ASSET_COL_FOLDER,		/* NULL: in a program */
	LIST_ASSET_COL_PROGRAM,		/* NULL: in a folder */
	LIST_ASSET_COL_WORKSPACE,
	LIST_ASSET_COL_CREATED,		/* "YYYY-MM-DD HH:MM:SS" UTC */
	LIST_ASSET_COL_UPDATED,
	LIST_ASSET_NCOLS
};

/*
 * The list id, or when name is not NULL the list of that exact name, as
 * one row into *out (text in the arena a).  Returns 0,
 * -REPO_ERR_NOT_FOUND or another negative repo_err.
 */
int	repo_lists_asset_get(struct db *db, struct arena *a, int32_t id,
	    const char *name, struct db_text_rows *out);

/* What a browse of lists reads. */
struct list_asset_query {
	bool			 has_place;
	struct folder_ref	 place;		/* lists directly in it */
	const char		*earliest;	/* updated since; NULL: any */
	const char		*latest;	/* updated until; NULL: any */
	int			 limit;
	int64_t			 offset;
};

/* The lists q asks for, by id, into *out (text in the arena a). */
int	repo_lists_asset_browse(struct db *db, struct arena *a,
	    const struct list_asset_query *q, struct db_text_rows *out);

/*
 * Renames list id and/or sets its description (NULL: kept).  Returns 0,
 * -REPO_ERR_NOT_FOUND, -REPO_ERR_CONFLICT (the name is taken) or another
 * negative repo_err.
 */
int	repo_lists_update(struct db *db, int32_t id, const char *name,
	    const char *description);

/*
 * Deletes list id with its members, unless an asset names it (a smart
 * list's Member of List condition, a flow step's list) by its name or
 * id.  Returns 0, -REPO_ERR_NOT_FOUND, -REPO_ERR_CONFLICT when it is in
 * use, or another negative repo_err.
 */
int	repo_lists_delete(struct db *db, int32_t id);

/*
 * Inside the caller's transaction (Delete Program): *id is the first
 * list of program program that an asset outside the program names (a
 * smart list's condition, a flow step), 0 when none.  Returns 0 or a
 * negative repo_err.
 */
int	repo_lists_program_blocker(struct db *db, int32_t program,
	    int32_t *id);

/*
 * Deletes the lists of program program with their members, inside the
 * caller's transaction.  0 or a negative repo_err.
 */
int	repo_lists_delete_in_program(struct db *db, int32_t program);

/* How many lists stand directly in folder folder_id (the folder delete). */
int	repo_lists_count_in_folder(struct db *db, int32_t folder_id,
	    int64_t *n);

#endif
