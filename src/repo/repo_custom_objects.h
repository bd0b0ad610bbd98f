/*
 * Custom object types and records (migration 0005; api-behaviour.md §6).
 *
 * Type metadata lives in co_type, co_type_version and co_field.  Every
 * change to a type runs in one transaction that locks co_schema's row
 * (so the 10-type limit and concurrent edits serialise, also across
 * Galera nodes, where the loser gets 1213 and db_run_tx re-runs it) and
 * bumps co_schema.version.  The records of an approved type are rows of
 * co_rec_<id>, made and altered by repo_custom_objects_approve.
 */
#ifndef MAUTO_REPO_REPO_CUSTOM_OBJECTS_H
#define MAUTO_REPO_REPO_CUSTOM_OBJECTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/cotype.h"

struct buf;
struct db;
struct lead_value;

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
int	repo_custom_objects_type_get(struct db *db, const char *api_name,
	    bool approved, struct co_type *out);

/* As repo_custom_objects_type_get, with the version chosen by ver. */
int	repo_custom_objects_type_read(struct db *db, const char *api_name,
	    enum co_ver ver, struct co_type *out);

/*
 * The API names of every type, in creation order, into *names (a heap
 * array of heap strings; free with repo_custom_objects_names_free) and
 * *n.  Returns 0 or a negative repo_err.
 */
int	repo_custom_objects_type_list(struct db *db, char ***names, size_t *n);
void	repo_custom_objects_names_free(char **names, size_t n);

/* The catalogue version (co_schema.version) into *out. */
int	repo_custom_objects_version(struct db *db, int64_t *out);

/*
 * An edit of a type's draft.  repo_custom_objects_type_edit locks the
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
int	repo_custom_objects_type_edit(struct db *db, const char *api_name,
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
int	repo_custom_objects_approve(struct db *db, const char *api_name,
	    int (*check)(const struct co_type *draft,
	    const struct co_type *approved, char *msg), int *err, char *msg);

/*
 * Discards the draft of an approved type.  Returns 0, -REPO_ERR_NOT_FOUND,
 * -REPO_ERR_INVALID when there is no draft or never was an approved
 * version, or another negative repo_err.
 */
int	repo_custom_objects_discard(struct db *db, const char *api_name);

/*
 * Deletes a type and then its records table.  Returns 0,
 * -REPO_ERR_NOT_FOUND, -REPO_ERR_INVALID with msg (256 bytes) set when
 * another type links to it or an approval runs, or another negative
 * repo_err.
 */
int	repo_custom_objects_type_delete(struct db *db, const char *api_name,
	    char *msg);

/*
 * The lead link check: sets found[i] for each keys[i] that names a lead,
 * by its id (keys[i].i) or, when by_email, its email address (keys[i].s,
 * no case).  Returns 0 or a negative repo_err.
 */
int	repo_custom_objects_leads_exist(struct db *db,
	    const struct lead_value *keys, size_t n, bool by_email,
	    bool *found);

/* ---- Records ------------------------------------------------------- */

/* Cap on one run-time statement's text (300 rows of 50 columns fit). */
#define CO_SQL_MAX		(1024 * 1024)

/* One record as read: its row id, marketoGUID and the columns asked. */
struct co_row {
	int64_t		 id;		/* the table's row id */
	char		 guid[CO_GUID_LEN + 1];
	char		**vals;		/* ncols texts, NULL for SQL NULL */
	unsigned long	*lens;
	size_t		 seq;		/* the first key it matched */
};

struct co_rows {
	struct co_row	*rows;
	size_t		 n;
	size_t		 ncols;
};

/* Frees what r holds and zeroes it; NULL is fine. */
void	repo_custom_objects_rows_free(struct co_rows *r);

/*
 * Looks records of the approved type t up by key.  keycols (nkey column
 * names from t, or {"marketoGUID"}) are compared with keys: nkeys rows of
 * nkey typed values each (keys[i * nkey + j]; LV_STR, LV_INT, LV_DBL or
 * LV_BOOL, never NULL: a key with a NULL part matches nothing and must
 * not be passed).  cols (ncols names from t or system columns) are
 * returned as text.  Rows come in id order, after after_id, at most
 * limit of them (0: all), each with seq = the first key it equals.
 * Returns 0 and *out (caller frees), or a negative repo_err.
 */
int	repo_custom_objects_lookup(struct db *db, const struct co_type *t,
	    const char *const *keycols, size_t nkey,
	    const struct lead_value *keys, size_t nkeys,
	    const char *const *cols, size_t ncols,
	    int64_t after_id, size_t limit, struct co_rows *out);

/*
 * Canonical text of a key value, as the record table returns it when
 * read as text (integers in decimal, dates "YYYY-MM-DD[ HH:MM:SS]",
 * strings as they are): two values are the same key when the texts of
 * all their parts are equal.  Appends to b (a buf of util/buf.h), parts
 * separated by 0x1F.
 */
void	repo_custom_objects_key_text(struct buf *b,
	    const struct lead_value *vals, size_t n);

/*
 * A record write of a sync: one value per field of t (t->nfields, in
 * field order; LV_ABSENT leaves an updated column as it is, and writes
 * NULL on create).  For an update, id is the row.  For a create, guid is
 * the new marketoGUID.  conflict is set when one_by_one writing found
 * the record's key taken.
 */
struct co_write {
	struct lead_value	*vals;
	int64_t			 id;
	char			 guid[CO_GUID_LEN + 1];
	bool			 by_update;	/* UPDATE ... WHERE id */
	bool			 conflict;
};

/*
 * Writes the creates and updates of one sync in one transaction: one
 * multi-row INSERT for the creates and one multi-row upsert per set of
 * given fields for the updates (updates marked by_update, which change a
 * unique key, one UPDATE each).  With one_by_one, every record is its
 * own statement and a duplicate key only marks that record's conflict.
 * Returns 0, -REPO_ERR_CONFLICT (batch mode: a key was taken meanwhile;
 * nothing was written), or another negative repo_err.
 */
int	repo_custom_objects_write(struct db *db, const struct co_type *t,
	    struct co_write *creates, size_t ncreates,
	    struct co_write *updates, size_t nupdates, bool one_by_one);

/* Deletes the rows with the given ids.  Returns 0 or a negative repo_err. */
int	repo_custom_objects_delete_ids(struct db *db, const struct co_type *t,
	    const int64_t *ids, size_t n);

#endif
