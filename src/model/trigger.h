/*
 * Trigger constraints (docs/behaviour.md §25): whether an activity
 * offered to a trigger campaign matches one of its smart list's
 * triggers.  Pure rules over the rule as kept (model/smartlist.h) and
 * the activity's values: no SQL.  The campaign runner (src/engine/)
 * calls them for each offer.
 */
#ifndef MAUTO_MODEL_TRIGGER_H
#define MAUTO_MODEL_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>

struct json_object;
struct smartlist_rule;

/* The activity type whose primary value may be a field's REST name. */
#define TRIGGER_PERSON_CREATED		12
#define TRIGGER_DATA_VALUE_CHANGED	13

/* An activity offered to the triggers; every pointer borrowed. */
struct trigger_activity {
	int32_t			 type;		/* activity type id */
	int64_t			 primary_id;	/* 0: none */
	const char		*primary_value;	/* "" or NULL: none */
	struct json_object	*attrs;		/* its attributes, or NULL */
};

/*
 * Whether value v (NULL: the activity has none) satisfies operator op
 * over vals_json, the constraint's values as a JSON array of strings:
 * "is empty" and "is not empty" look at v alone; "contains" and "starts
 * with" compare text without case; any other operator ("is", NULL)
 * holds when v equals a value without case, or, id not 0, a value is
 * id's decimal text; "is not ..." (but "is not empty") is the negation.
 * A value list that is not an array matches nothing.
 */
bool	trigger_cond_value(const char *op, const char *vals_json,
	    const char *v, int64_t id);

/*
 * Whether trigger rule t matches activity a: every constraint holds.
 * The primary constraint compares the activity's primary value by id or
 * by name, or its part after the last dot (a program-local list's bare
 * name), or, for Data Value Changed, the attribute "Attribute Name" (a
 * field's REST name).  Other constraints compare the attribute they
 * name ("Previous Value" reads "Old Value", "Previous Status" reads
 * "Old Status"); "Date of Activity" and "Min. Number of Times" are not
 * evaluated here and hold.
 */
bool	trigger_matches(const struct smartlist_rule *t,
	    const struct trigger_activity *a);

#endif
