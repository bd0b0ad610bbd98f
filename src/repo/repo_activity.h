/*
 * The activity log (migration 0004 activity): one row per activity a
 * lead operation causes, with its type id, lead, time and attributes.
 * Writers call these inside their own transaction, so an activity is
 * stored exactly when the change it records is.
 */
#ifndef MAUTO_REPO_REPO_ACTIVITY_H
#define MAUTO_REPO_REPO_ACTIVITY_H

#include <stdint.h>

struct db;
struct json_object;

/* Activity type ids (activity_type rows of migration 0004). */
enum activity_type {
	ACT_FILL_OUT_FORM = 2,
	ACT_NEW_LEAD = 12,
	ACT_CHANGE_DATA_VALUE = 13,
	ACT_ADD_TO_LIST = 24,
	ACT_MERGE_LEADS = 32,
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
};

/* Inserts one activity dated now (UTC, milliseconds). */
int	repo_activity_insert(struct db *db, const struct activity *a);

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

#endif
