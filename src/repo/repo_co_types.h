/*
 * Custom object types (migration 0005; docs/behaviour.md §6); their
 * records are repo_co_records.h's.
 *
 * Type metadata lives in co_type, co_type_version and co_field.  Every
 * change to a type runs in one transaction that locks co_schema's row
 * (so the 10-type limit and concurrent edits serialise, also across
 * Galera nodes, where the loser gets 1213 and db_run_tx re-runs it) and
 * bumps co_schema.version.  The records of an approved type are rows of
 * co_rec_<id>, made and altered by repo_co_types_approve.
 */
#ifndef MAUTO_REPO_REPO_CO_TYPES_H
#define MAUTO_REPO_REPO_CO_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/cotype.h"

struct buf;
struct db;
struct lead_value;

/* Cap on one run-time statement's text (300 rows of 50 columns fit). */
#define CO_SQL_MAX		(1024 * 1024)

/* Which version of a type to read. */
enum co_ver {
	CO_VER_DEFAULT,		/* the approved one if any, else the draft */
	CO_VER_APPROVED,
	CO_VER_DRAFT,
	CO_VER_LATEST,		/* the draft if any, else the approved one */
	CO_VER__MAX
};

/*
 * Reads the type api_name (no case) into out (zeroed first): the approved
 * version when approved is true (REPO_ERR_NOT_FOUND when the type was
 * never approved), else the draft when one exists, else the approved
 * version.  Returns 0, -REPO_ERR_NOT_FOUND, or another negative repo_err.
 * The caller owns out (co_type_clear), also on error.
 */
int	repo_co_types_get(struct db *db, const char *api_name,
	    bool approved, struct co_type *out);

/* As repo_co_types_get, with the version chosen by ver. */
int	repo_co_types_read(struct db *db, const char *api_name,
	    enum co_ver ver, struct co_type *out);

/*
 * The API names of every type, in creation order, into *names (a heap
 * array of heap strings; free with repo_co_types_names_free) and
 * *n.  Returns 0 or a negative repo_err.
 */
int	repo_co_types_list(struct db *db, char ***names, size_t *n);
void	repo_co_types_names_free(char **names, size_t n);

/* The catalogue version (co_schema.version) into *out. */
int	repo_co_types_version(struct db *db, int64_t *out);

/*
 * An edit of a type's draft.  repo_co_types_edit locks the
 * catalogue, reads the type (creating it when allowed and missing), makes
 * the draft from the approved version when there is none, and calls fn
 * with the draft to change in place and the approved version (NULL when
 * never approved).  fn returns 0 to write the draft back, or a negative
 * api_err with msg set to refuse; it may run more than once (deadlock
 * retry), so it must only look at its arguments.
 */
struct co_edit {
	int	 (*fn)(struct co_edit *e, struct co_type *draft,
		    const struct co_type *approved);
	void	  *arg;
	bool	   may_create;	/* in: create the type when missing */
	size_t	   ntypes;	/* to fn: types that exist, before this one */
	bool	   is_new;	/* to fn and out: the type did not exist */
	bool	   had_draft;	/* to fn: a draft existed before this edit */
	bool	   changed;	/* from fn: false leaves the type as it was */
	int	   err;		/* out: fn's negative api_err */
	char	   msg[256];	/* out: fn's message */
	/* out: the other type whose display name the draft's repeats */
	char	   display_taken[CO_NAME_MAX + 1];
};

/*
 * Runs the edit e on type api_name.  Returns 0; -REPO_ERR_INVALID when
 * fn refused (e->err, e->msg); -REPO_ERR_CONFLICT when the draft's
 * display name is another type's, without regard to case
 * (e->display_taken names it); -REPO_ERR_NOT_FOUND when the type does
 * not exist and e->may_create is false; or another negative repo_err.
 */
int	repo_co_types_edit(struct db *db, const char *api_name,
	    struct co_edit *e);

/*
 * Approves the draft of api_name: check(draft, approved, arg, msg) gets
 * the draft (and the approved version or NULL) and returns 0 or a
 * negative api_err with msg (256 bytes) set.  The records table is made
 * or altered to the draft's fields before the draft replaces the approved
 * version, so a crash never leaves an approved type without its table or
 * columns; columns of removed fields are dropped after.  Returns 0,
 * -REPO_ERR_NOT_FOUND, -REPO_ERR_INVALID (*err and msg set: check refused,
 * no draft, or another approval runs), or another negative repo_err.
 */
int	repo_co_types_approve(struct db *db, const char *api_name,
	    int (*check)(const struct co_type *draft,
	    const struct co_type *approved, char *msg), int *err, char *msg);

/*
 * Discards the draft of an approved type.  Returns 0, -REPO_ERR_NOT_FOUND,
 * -REPO_ERR_INVALID when there is no draft or never was an approved
 * version, or another negative repo_err.
 */
int	repo_co_types_discard(struct db *db, const char *api_name);

/*
 * Deletes a type and then its records table.  Returns 0,
 * -REPO_ERR_NOT_FOUND, -REPO_ERR_INVALID with msg (256 bytes) set when
 * another type links to it or an approval runs, or another negative
 * repo_err.
 */
int	repo_co_types_delete(struct db *db, const char *api_name,
	    char *msg);

#endif
