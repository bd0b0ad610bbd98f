/*
 * The lead store's core operations (docs/behaviour.md §5.2-§5.8): reads by
 * id, by a filter and by program membership, the batch upsert behind
 * Sync Leads, Push Lead and Submit Form, and Delete Leads.
 *
 * Columns are the fields of the catalogue (model/leadfield.h), named in
 * SQL by their REST names, back-quoted; values are always bound.  Text a
 * read returns and the per-record outcomes of a write live in the arena
 * the caller passes (the request arena).
 *
 * The upsert (repo_leads_sync) runs as one transaction, retried as a
 * whole on a deadlock or Galera certification conflict, with a fixed
 * number of statements whatever the batch size:
 *
 *   1. one multi-row INSERT of claims (lead_claim: a hash of each lookup
 *      value, sorted so two batches take them in the same order, each
 *      with an exclusive lock at once): two concurrent upserts of one new
 *      key wait for each other here on one server and conflict at
 *      certification on Galera, so they never create two leads;
 *   2. one lookup of every key (a consistent read taken after the claims,
 *      so it sees what a batch that held the same claim committed), and
 *      one SELECT ... FOR UPDATE of the matched ids, in id order, each by
 *      primary key (no gap locks), so a matched lead cannot vanish before
 *      it is written; it reads the columns the batch writes, the old
 *      values of "Change Data Value";
 *   3. one multi-row INSERT ... RETURNING id of the new leads, one
 *      multi-row INSERT ... ON DUPLICATE KEY UPDATE per distinct set of
 *      updated columns, one multi-row INSERT of "New Lead" activities,
 *      one SELECT ... FOR UPDATE of the updated leads again (the same
 *      ids, locked already: the new values) and one multi-row INSERT of
 *      a "Change Data Value" activity per field a value changed, what
 *      Push Lead and Submit Form add, and one DELETE of the claims.
 *
 * The reads and Delete are in repo_leads.c, the upsert in
 * repo_leads_sync.c.  Each table has one writer: the upsert writes lead
 * and lead_claim itself, its activities through repo_activity.c
 * (repo_activity_insert_batch: one statement for a batch, whatever the
 * type) and Push Lead's memberships through repo_programs.c
 * (repo_programs_members_upsert), inside this transaction.
 *
 * A multi-row INSERT splits only past the placeholder limit
 * (MAX_STMT_PARAMS), which a batch of 300 reaches only when it changes
 * some 40 fields of every lead.
 *
 * Nothing may read inside that transaction before the claims are taken:
 * the first read fixes the snapshot.  Every lock the batch takes is on a
 * record, in one order (claims by key, then leads by id); the rows it
 * inserts are its own.  No statement may scan lead or lead_claim: a scan
 * locks other batches' rows and the gaps new rows go into (the joins
 * name the index).
 */
#ifndef MAUTO_REPO_REPO_LEADS_H
#define MAUTO_REPO_REPO_LEADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_forms.h"
#include "repo/repo_programs.h"

struct arena;
struct db;

/* One lead read: the requested columns as MariaDB writes them as text. */
struct lead_row {
	int64_t			 id;
	const char		**vals;	/* ncols; NULL for SQL NULL */
	size_t			*lens;
	struct lead_membership	*m;	/* program reads only */
};

struct lead_rows {
	struct lead_row	*rows;		/* arena */
	size_t		 count;
};

/*
 * The lead id with the ncols columns cols (catalogue fields) into *out
 * (count 0 when there is no such lead).  Returns 0 or a negative
 * repo_err.
 */
int	repo_leads_get_by_id(struct db *db, struct arena *a,
	    const struct lead_field *const *cols, size_t ncols, int64_t id,
	    struct lead_rows *out);

/*
 * A filter of Get Leads by Filter Type: leads whose field equals one of
 * the values (the column's collation decides: email without regard to
 * case).  With cookies set, field is the `cookies` field and a lead
 * matches when one of its associated cookies (lead_cookie) or its
 * `cookies` column is one of the values.
 */
struct lead_filter {
	const struct lead_field		*field;
	bool				 cookies;
	const struct lead_value		*values;	/* LV_STR or LV_INT */
	size_t				 nvalues;	/* 1..300 */
};

/* How many leads match f, counting at most cap (so *count <= cap). */
int	repo_leads_count_by_filter(struct db *db, const struct lead_filter *f,
	    int64_t cap, int64_t *count);

/*
 * The matching leads with id > after, by id, at most limit rows
 * (1..MAX_BATCH_SIZE + 1), with the columns cols.
 */
int	repo_leads_list_by_filter(struct db *db, struct arena *a,
	    const struct lead_field *const *cols, size_t ncols,
	    const struct lead_filter *f, int64_t after, int limit,
	    struct lead_rows *out);

/*
 * The members of program_id with lead id > after, by id, at most limit
 * rows, with the columns cols and each row's membership (rows[i].m).
 * An unknown program has no members.
 */
int	repo_leads_list_by_program(struct db *db, struct arena *a,
	    const struct lead_field *const *cols, size_t ncols,
	    int64_t program_id, int64_t after, int limit,
	    struct lead_rows *out);

/*
 * The members of static list list_id with lead id > after, by id, at
 * most limit rows, with the columns cols.  An unknown list has none.
 */
int	repo_leads_list_by_list(struct db *db, struct arena *a,
	    const struct lead_field *const *cols, size_t ncols,
	    int64_t list_id, int64_t after, int limit,
	    struct lead_rows *out);

/* ---- The upsert ---------------------------------------------------- */

enum lead_action {
	LEAD_CREATE_OR_UPDATE,		/* the default */
	LEAD_CREATE_ONLY,
	LEAD_UPDATE_ONLY,
	LEAD_CREATE_DUPLICATE,
	LEAD_ACTION__MAX
};

enum lead_status {
	LEAD_PENDING,
	LEAD_CREATED,
	LEAD_UPDATED,
	LEAD_SKIPPED,
	LEAD_STATUS__MAX
};

/* One given value of a record. */
struct lead_col {
	const struct lead_field	*f;
	struct lead_value	 v;
};

/* One input record, checked by the caller. */
struct lead_rec {
	/* In: the values to write (no read-only field, each field once). */
	struct lead_col		*cols;
	size_t			 ncols;
	/* In: the lookup value (a member of cols), NULL without a key. */
	const struct lead_value	*key;
	/* In: refused by the caller (status, code, msg set): left alone. */
	bool			 skip;
	/* Out. */
	enum lead_status	 status;
	int64_t			 id;		/* 0 when unknown */
	int			 code;		/* skipped: the reason code */
	const char		*msg;		/* skipped: the message */
	bool			 has_m;		/* push: m is filled */
	struct lead_membership	 m;
};

/* Push Lead's additions: membership of a program and an activity. */
struct lead_push {
	const struct repo_program	*program;
	/* A new member's status: an index into statuses, -1 for none. */
	int				 status;
	/* Whether it was named (programStatus): members move forward to it. */
	bool				 status_given;
	const char			*attrs;	/* activity attributes, JSON */
};

/* Submit Form's additions: the form activity and a cookie. */
struct lead_form_fill {
	const struct repo_form	*form;
	const char		*attrs;		/* activity attributes, JSON */
	const char		*cookie;	/* NULL: none */
};

struct lead_sync {
	enum lead_action		 action;
	const struct lead_field		*lookup;	/* the lookup field */
	int32_t				 partition;	/* 0: none named */
	const char			*new_lead_attrs; /* New Lead activity */
	/* Change Data Value's Reason and Source; NULL: "Web service API" */
	const char			*change_reason;
	const char			*change_source;
	const struct lead_push		*push;		/* NULL: not a push */
	const struct lead_form_fill	*form;		/* NULL: not a form */
	struct lead_rec			*recs;
	size_t				 n;		/* up to 300 */
	struct arena			*arena;
};

/*
 * Upserts s->recs in one transaction (see the top of this file) with the
 * semantics of docs/behaviour.md §5.4, in input order: a later record with
 * the key of an earlier one sees what the earlier one did.  Sets every
 * record's status: created/updated with its id, or skipped with code and
 * msg (1004 not found, 1005 exists, 1007 several match, 1010 lead in
 * another partition).  Returns 0, or a negative
 * repo_err and nothing is written.
 */
int	repo_leads_sync(struct db *db, struct lead_sync *s);

/* ---- Delete -------------------------------------------------------- */

struct lead_del {
	int64_t	 id;
	bool	 skip;		/* refused by the caller: left alone */
	bool	 deleted;	/* out: false means no such lead */
};

/*
 * Deletes the leads in one transaction, with their program, list and
 * smart campaign memberships and cookies.  A later duplicate of an id is
 * not found.  Returns 0 or a negative repo_err (nothing deleted).
 */
int	repo_leads_delete(struct db *db, struct lead_del *recs, size_t n);

/*
 * The lead link check: sets found[i] for each keys[i] that names a lead,
 * by its id (keys[i].i) or, when by_email, its email address (keys[i].s,
 * no case).  Returns 0 or a negative repo_err.
 */
int	repo_leads_exist(struct db *db,
	    const struct lead_value *keys, size_t n, bool by_email,
	    bool *found);

#endif
