/*
 * Permissions, named as in operations.tsv's permission column.  A role is
 * a set of them; a route requires any one of perm_any (when not empty) and
 * all of perm_all.  Granting a Read-Write permission also grants the
 * matching Read-Only one.
 */
#ifndef MAUTO_MODEL_PERM_H
#define MAUTO_MODEL_PERM_H

#include <stdint.h>

enum perm {
	PERM_READ_ONLY_LEAD,
	PERM_READ_WRITE_LEAD,
	PERM_READ_ONLY_ASSETS,
	PERM_READ_WRITE_ASSETS,
	PERM_APPROVE_ASSETS,
	PERM_ACTIVATE_CAMPAIGN,
	PERM_DEACTIVATE_CAMPAIGN,
	PERM_ACCESS_DESIGN_STUDIO,
	PERM_ACCESS_EMAIL,
	PERM_EDIT_EMAIL,
	PERM_DELETE_EMAIL,
	PERM_APPROVE_EMAIL,
	PERM_READ_ONLY_CUSTOM_OBJECT,
	PERM_READ_WRITE_CUSTOM_OBJECT,
	PERM_READ_ONLY_CUSTOM_OBJECT_TYPE,
	PERM_READ_WRITE_CUSTOM_OBJECT_TYPE,
	PERM_READ_WRITE_SCHEMA_STANDARD_FIELD,
	PERM_READ_WRITE_SCHEMA_CUSTOM_FIELD,
	PERM_READ_ONLY_ACTIVITY,
	PERM_READ_WRITE_ACTIVITY,
	PERM_READ_ONLY_CAMPAIGNS,
	PERM_READ_WRITE_CAMPAIGNS,
	PERM__MAX
};

typedef uint32_t perm_set;

#define PERM_BIT(p)	((perm_set)1 << (p))
#define PERM_ALL	(PERM_BIT(PERM__MAX) - 1)

/* The canonical name of p ("Read-Write Lead"). */
const char	*perm_name(enum perm p);
/*
 * Parses a permission name; also accepts the spellings the swagger uses
 * ("Read-Asset", "Read-Write Asset", "Read-Only Asset").  Returns 0 and
 * sets *out, or -1 for an unknown name.
 */
int		 perm_parse(const char *name, enum perm *out);
/* Adds the Read-Only permissions implied by Read-Write ones. */
perm_set	 perm_expand(perm_set s);
/* Whether s satisfies a route's requirement. */
int		 perm_allows(perm_set s, perm_set any, perm_set all);

#endif
