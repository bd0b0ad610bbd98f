/*
 * The activity log (migration 0004 activity): one row per activity a
 * lead operation causes, with its type id, lead, time and attributes.
 * Writers call these inside their own transaction, so an activity is
 * stored exactly when the change it records is.
 */
#ifndef MAUTO_REPO_REPO_ACTIVITY_H
#define MAUTO_REPO_REPO_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>

struct arena;
struct db;
struct db_text_rows;
struct json_object;

/* Activity type ids (activity_type rows of migration 0004). */
enum activity_type {
	ACT_FILL_OUT_FORM = 2,
	ACT_SEND_EMAIL = 6,
	ACT_EMAIL_DELIVERED = 7,
	ACT_EMAIL_BOUNCED = 8,
	ACT_NEW_LEAD = 12,
	ACT_CHANGE_DATA_VALUE = 13,
	ACT_ADD_TO_LIST = 24,
	ACT_REMOVE_FROM_LIST = 25,
	ACT_MERGE_LEADS = 32,
	ACT_DELETE_LEAD = 37,
	ACT_CHANGE_PARTITION = 100,
	ACT_CHANGE_PROGRAM_STATUS = 104,
	ACT_PUSH_LEAD = 145
};

/* One activity to record.  Strings are borrowed. */
struct activity {
	int64_t		 lead_id;
	int		 type;		/* enum activity_type */
	int64_t		 primary_id;	/* primary attribute id, 0 = none */
	const char	*primary_value;	/* NULL = none */
	const char	*attributes;	/* a JSON object as text; NULL = {} */
	int64_t		 campaign_id;	/* its campaign, 0 = none */
};

/* Inserts one activity dated now (UTC, milliseconds). */
int	repo_activity_insert(struct db *db, const struct activity *a);

/*
 * Inserts the n activities acts dated now in one multi-row statement
 * (more only past MAX_STMT_PARAMS: 10,000 rows), for the batch writers
 * (Sync Leads, Push Lead), whatever their types.  Returns 0 or a
 * negative repo_err.
 */
int	repo_activity_insert_batch(struct db *db, const struct activity *acts,
	    size_t n);

/* A stored activity, as tests and readers see it. */
struct activity_row {
	int64_t	 id;
	int64_t	 lead_id;
	int	 type;
	int64_t	 primary_id;		/* 0 when NULL */
	char	 primary_value[256];	/* "" when NULL */
	char	*attributes;		/* owned; free() */
};

/*
 * The activities of lead_id with id > after_id, oldest first, at most
 * max rows, into *out (owned array of *n rows; free each attributes and
 * then the array with repo_activity_list_free).
 */
int	repo_activity_list_by_lead(struct db *db, int64_t lead_id,
	    int64_t after_id, int max, struct activity_row **out, size_t *n);
void	repo_activity_list_free(struct activity_row *rows, size_t n);

/* Moves every activity of from_lead to to_lead (Merge Leads). */
int	repo_activity_move(struct db *db, int64_t from_lead, int64_t to_lead);

/*
 * The attributes of an activity as the log stores them: o serialised as
 * JSON (an owned string) and put.
 */
char	*repo_activity_attrs(struct json_object *o);

/* The columns of repo_activity_types, one row per type and attribute. */
enum {
	ACTIVITY_TYPE_ID,
	ACTIVITY_TYPE_NAME,
	ACTIVITY_TYPE_DESCRIPTION,	/* NULL: none */
	ACTIVITY_TYPE_PRIMARY,		/* NULL: no primary attribute */
	ACTIVITY_TYPE_PRIMARY_TYPE,
	ACTIVITY_TYPE_ATTR,		/* NULL: a type without attributes */
	ACTIVITY_TYPE_ATTR_TYPE,
	ACTIVITY_TYPE_NCOLS
};

/*
 * The activity type catalogue (migration 0021) into *out, rows as text
 * in the arena a, by type id and then attribute position.  Returns 0 or
 * a negative repo_err.
 */
int	repo_activity_types(struct db *db, struct arena *a,
	    struct db_text_rows *out);

/*
 * The id of the first activity dated since_ms (UTC milliseconds) or
 * later into *first, 0 when there is none.  Returns 0 or a negative
 * repo_err.
 */
int	repo_activity_start(struct db *db, int64_t since_ms, int64_t *first);

/* The largest activity id into *max (0 for an empty log). */
int	repo_activity_max_id(struct db *db, int64_t *max);

/* The most values of each list of a filter. */
#define ACTIVITY_FILTER_TYPES	10
#define ACTIVITY_FILTER_ASSETS	10
#define ACTIVITY_FILTER_LEADS	30

/* Which activities a page holds; empty lists do not filter. */
struct activity_filter {
	const int64_t	*types;		/* activity type ids */
	size_t		 ntypes;
	const int64_t	*assets;	/* primary attribute value ids */
	size_t		 nassets;
	const int64_t	*leads;
	size_t		 nleads;
	int32_t		 list_id;	/* members of a static list; 0: any */
};

/* The columns of a page row. */
enum {
	ACTIVITY_COL_ID,
	ACTIVITY_COL_LEAD,
	ACTIVITY_COL_DATE,		/* "YYYY-MM-DD HH:MM:SS.ffffff" UTC */
	ACTIVITY_COL_TYPE,
	ACTIVITY_COL_CAMPAIGN,		/* NULL: none */
	ACTIVITY_COL_PRIMARY_ID,	/* NULL: none */
	ACTIVITY_COL_PRIMARY,		/* NULL: none */
	ACTIVITY_COL_ATTRS,		/* a JSON object as text */
	ACTIVITY_NCOLS
};

/*
 * The activities matching f with after < id <= upto, by id, at most
 * limit rows, into *out (text in the arena a).  With leads, the lead
 * index finds them; otherwise the ids of the range are scanned, so the
 * caller bounds upto - after.  Returns 0 or a negative repo_err
 * (REPO_ERR_INVALID for lists over the bounds above).
 */
int	repo_activity_page(struct db *db, struct arena *a,
	    const struct activity_filter *f, int64_t after, int64_t upto,
	    int limit, struct db_text_rows *out);

/*
 * Deletes at most max activities of type dated before before_ms, oldest
 * first, by the (type, date) index, and says how many in *deleted.  One
 * statement, in its own implicit transaction.  Returns 0 or a negative
 * repo_err.
 */
int	repo_activity_prune(struct db *db, int32_t type, int64_t before_ms,
	    int max, uint64_t *deleted);

/* A type of the catalogue and its retention class (migration 0021). */
struct activity_class {
	int32_t	 type;
	char	 cls[17];	/* "activity", "high-volume", "deleted", ... */
};

/*
 * The types of the catalogue with their retention classes, by id, at
 * most max into out, their number in *n.  Returns 0 or a negative
 * repo_err.
 */
int	repo_activity_classes(struct db *db, struct activity_class *out,
	    size_t max, size_t *n);

#endif
