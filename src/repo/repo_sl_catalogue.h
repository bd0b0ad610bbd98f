/*
 * The rule type catalogue both smart groups read (smart lists and the
 * smart lists of smart campaigns): the reader of sl_rule_type,
 * sl_constraint and sl_operator (db/migrations/0014_smart_lists.sql), of
 * lead_field for the attribute rules and of the approved custom object
 * types for their filters.  The activity types and their constraints are
 * kept per connection (REPO_CACHE_SL_CATALOGUE) for naming rules.
 */
#ifndef MAUTO_REPO_REPO_SL_CATALOGUE_H
#define MAUTO_REPO_REPO_SL_CATALOGUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/smartlist.h"

struct arena;
struct db;

/* The id of a custom object filter as SQL text (model/smartlist.h). */
#define REPO_SL_STR_(x)		#x
#define REPO_SL_STR(x)		REPO_SL_STR_(x)
#define REPO_SL_CO_BASE		REPO_SL_STR(SL_CO_RULE_BASE)

/* SQL: the operators of the attribute rule of lead field f. */
#define REPO_SL_ATTR_OPS \
	"COALESCE((SELECT o.operators FROM sl_operator o WHERE " \
	"o.data_type = f.data_type), 'is,is not')"

struct repo_sl_constraint {
	int32_t		 id;
	const char	*name;
	const char	*data_type;
	bool		 primary;
	const char	*operators;	/* comma-separated, the default first */
	const char	*field;		/* custom object filter: the field's
					   API name; attribute rule: the
					   lead field's (its lead column);
					   else NULL */
};

struct repo_sl_rule_type {
	int32_t				 id;
	const char			*name;
	bool				 activity;
	bool				 is_filter;
	bool				 is_trigger;
	int32_t				 co_type_id;	/* custom object
							   filter; else 0 */
	const char			*co_api_name;	/* its type's */
	struct repo_sl_constraint	*cons;
	size_t				 ncons;
};

/*
 * Every rule type, activity ones first, each by id, then the custom
 * object filters (one per approved custom object type, activity-kind,
 * id SL_CO_RULE_BASE plus the type's id, its approved fields as
 * constraints), then the attribute ones.
 */
int	repo_sl_rule_types(struct db *db, struct arena *a,
	    struct repo_sl_rule_type **out, size_t *n);

/*
 * The name of rule type id of a kind into *name ("" when there is none;
 * else a copy in a): activity types
 * from the catalogue the connection keeps, attribute types (lead
 * fields) as they are now.  0 or a negative repo_err.
 */
int	repo_sl_rule_name(struct db *db, struct arena *a, bool activity,
	    int32_t id, const char **name);

/* Rule type id of a kind; -REPO_ERR_NOT_FOUND when there is none. */
int	repo_sl_rule_type(struct db *db, struct arena *a, bool activity,
	    int32_t id, struct repo_sl_rule_type *out);

/*
 * Names rule ru (a list's, as read) and its conditions from the
 * catalogue, custom object filters and lead fields as they are now, and
 * puts the conditions in the order of their constraints.  0 or a
 * negative repo_err.
 */
int	repo_sl_name_rule(struct db *db, struct arena *a,
	    struct smartlist_rule *ru);

#endif
