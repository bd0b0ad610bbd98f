/*
 * Custom object records (migration 0005; docs/behaviour.md §6): the rows
 * of an approved type's table co_rec_<id>, whose columns are the type's
 * approved fields.  The caller hands in the type (repo_co_types.h) it
 * read; every write is one transaction.
 */
#ifndef MAUTO_REPO_REPO_CO_RECORDS_H
#define MAUTO_REPO_REPO_CO_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/cotype.h"

struct buf;
struct db;
struct lead_value;

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
void	repo_co_records_rows_free(struct co_rows *r);

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
int	repo_co_records_lookup(struct db *db, const struct co_type *t,
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
void	repo_co_records_key_text(struct buf *b,
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
int	repo_co_records_write(struct db *db, const struct co_type *t,
	    struct co_write *creates, size_t ncreates,
	    struct co_write *updates, size_t nupdates, bool one_by_one);

/* Deletes the rows with the given ids.  Returns 0 or a negative repo_err. */
int	repo_co_records_delete_ids(struct db *db, const struct co_type *t,
	    const int64_t *ids, size_t n);

#endif
