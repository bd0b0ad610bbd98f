/*
 * Programs as the asset API shows them (api_programs.c): each program row
 * with the name of the folder it stands in, read by id, by name, or a
 * filtered page of them, or by tag; and Create Program, Update Program
 * Metadata, Clone Program and Delete Program.  The rows are the ones
 * mautoctl program create writes too (repo_programs.c, migration 0004).
 */
#ifndef MAUTO_REPO_REPO_PROGRAM_ASSETS_H
#define MAUTO_REPO_REPO_PROGRAM_ASSETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/progmeta.h"

struct arena;
struct db;

/* One program; every string is in the caller's arena (NULL for NULL). */
struct repo_program_asset {
	int32_t		 id;
	const char	*name;
	const char	*description;
	const char	*type;		/* as stored: program, engagement */
	const char	*channel;
	const char	*workspace;
	const char	*created_at;	/* "YYYY-MM-DD HH:MM:SS" UTC */
	const char	*updated_at;
	int32_t		 folder_id;
	const char	*folder_name;
	int64_t		 start_date;	/* UTC epoch seconds; 0: none */
	int64_t		 end_date;	/* likewise */
	bool		 locked;	/* an Email program approved */
};

/*
 * The filters of a browse; a NULL member does not filter.  ids, folders
 * and workspaces are comma-separated lists (at most one of them is
 * usually given); earliest and latest are database times: a program
 * passes when it was created or last updated within [earliest, latest].
 */
struct repo_program_filter {
	const char	*ids;
	const char	*folders;
	const char	*workspaces;
	const char	*type;
	const char	*locked;	/* "1" or "0": approved or not */
	const char	*earliest;
	const char	*latest;
};

/*
 * The page of programs f lets through, by id: limit rows from offset,
 * into *out (*n rows) in the arena a.  Returns 0 or a negative repo_err.
 */
int	repo_program_assets_list(struct db *db, struct arena *a,
	    const struct repo_program_filter *f, int limit, int64_t offset,
	    struct repo_program_asset **out, size_t *n);

/*
 * The program id (by_name NULL) or the program named by_name exactly,
 * into *out in the arena a.  -REPO_ERR_NOT_FOUND when there is none.
 */
int	repo_program_assets_get(struct db *db, struct arena *a, int32_t id,
	    const char *by_name, struct repo_program_asset *out);

/*
 * Tags and costs to write with a program: tag_types[i] (tag type ids,
 * checked by the caller) take tag_values[i], replacing a value the
 * program has of that type; costs are added after the program's own, or
 * replace them all when replace_costs.
 */
struct repo_program_meta {
	const int32_t			*tag_types;
	const char *const		*tag_values;
	size_t				 ntags;
	const struct progmeta_cost	*costs;
	size_t				 ncosts;
	bool				 replace_costs;
	/* An Email program's schedule, UTC epoch seconds; 0 keeps. */
	int64_t				 start_date;
	int64_t				 end_date;
};

/* A program to create; id is set on success. */
struct repo_program_create {
	const char	*name;
	const char	*description;	/* NULL: none */
	const char	*type;		/* stored word: program, event, ... */
	const char	*channel;	/* a channel of the catalogue */
	const char	*workspace;
	int32_t		 folder_id;
	struct repo_program_meta meta;
	int32_t		 id;
};

/*
 * Creates program p in one transaction, with the progression statuses
 * of its channel (steps 1..n in the channel's order).  -REPO_ERR_CONFLICT
 * when the name is taken, -REPO_ERR_GONE when the folder went meanwhile.
 */
int	repo_program_assets_insert(struct db *db, struct repo_program_create *p);

/*
 * Sets the name and description of program id (NULL keeps one) and its
 * tags and costs m, in one transaction, and moves updatedAt on; a program that is not there is left alone (the
 * caller reads it back).  -REPO_ERR_CONFLICT when the name is taken.
 */
int	repo_program_assets_update(struct db *db, int32_t id, const char *name,
	    const char *description, const struct repo_program_meta *m);

/*
 * Inside the caller's transaction (Clone Program, repo_program_clone.h):
 * a new program named p->name in p->folder_id (with p->workspace;
 * p->description, or from's when NULL) of from's type and channel, with
 * copies of from's statuses, tags, costs and tokens; p->id is its id.
 * -REPO_ERR_NOT_FOUND when from is not there, -REPO_ERR_CONFLICT when
 * the name is taken.
 */
int	repo_program_assets_clone_in_tx(struct db *db, int32_t from,
	    struct repo_program_create *p);

/*
 * Removes program id's value of tag type tag_type (none: nothing to
 * remove) and moves updatedAt on, in one transaction.
 */
int	repo_program_assets_tag_delete(struct db *db, int32_t id,
	    int32_t tag_type);

/*
 * The tags (by tag type id) and costs (in order) of program id, in the
 * arena a.  Returns 0 or a negative repo_err.
 */
int	repo_program_assets_meta(struct db *db, struct arena *a, int32_t id,
	    struct progmeta_tag **tags, size_t *ntags,
	    struct progmeta_cost **costs, size_t *ncosts);

/*
 * The programs with value for the tag type named tag_type, by id, limit
 * from offset, into *out (*n) in the arena a.
 */
int	repo_program_assets_by_tag(struct db *db, struct arena *a,
	    const char *tag_type, const char *value, int limit, int64_t offset,
	    struct repo_program_asset **out, size_t *n);

/*
 * Deletes program id with its statuses, members and tokens.
 * -REPO_ERR_NOT_FOUND; -REPO_ERR_CONFLICT when an asset still refers to
 * it.
 */
int	repo_program_assets_delete(struct db *db, int32_t id);

/*
 * Inside the caller's transaction: locks program id's row (FOR UPDATE).
 * 0 or -REPO_ERR_NOT_FOUND.
 */
int	repo_program_assets_lock(struct db *db, int32_t id);

/*
 * Inside the caller's transaction, after the stores emptied it: deletes
 * program id as repo_program_assets_delete does.
 */
int	repo_program_assets_delete_locked(struct db *db, int32_t id);

/* What Approve and Unapprove Program read of a program (its send). */
struct repo_program_send_row {
	const char	*name;
	const char	*type;		/* as stored: email for Email */
	int64_t		 start_date;	/* UTC epoch seconds; 0: none */
	bool		 locked;
	int32_t		 campaign_id;	/* its send campaign; 0: none */
	int64_t		 run_id;	/* the send's run; 0: none */
};

/*
 * Inside the caller's transaction: locks program id's row and reads its
 * send into *out (strings in the arena a).  0, -REPO_ERR_NOT_FOUND or
 * another negative repo_err.
 */
int	repo_program_assets_send_lock(struct db *db, struct arena *a,
	    int32_t id, struct repo_program_send_row *out);

/*
 * Inside the caller's transaction: program id's approval (locked) and
 * its send campaign and run (0: none), updatedAt moved on.
 */
int	repo_program_assets_send_set(struct db *db, int32_t id, bool locked,
	    int32_t campaign_id, int64_t run_id);

#endif
