/*
 * Permissions (docs/behaviour.md §1.4): the names of operations.tsv's
 * permission column, the alias spellings the swagger also uses, and the
 * Read-Write implies Read-Only rule.
 */
#include <assert.h>
#include <stddef.h>
#include <strings.h>

#include "model/perm.h"

static_assert(PERM__MAX <= 32, "perm_set must hold every permission");

static const char *const names[PERM__MAX] = {
	[PERM_READ_ONLY_LEAD] = "Read-Only Lead",
	[PERM_READ_WRITE_LEAD] = "Read-Write Lead",
	[PERM_READ_ONLY_ASSETS] = "Read-Only Assets",
	[PERM_READ_WRITE_ASSETS] = "Read-Write Assets",
	[PERM_APPROVE_ASSETS] = "Approve Assets",
	[PERM_ACTIVATE_CAMPAIGN] = "Activate Campaign",
	[PERM_DEACTIVATE_CAMPAIGN] = "Deactivate Campaign",
	[PERM_ACCESS_DESIGN_STUDIO] = "Access Design Studio",
	[PERM_ACCESS_EMAIL] = "Access Email",
	[PERM_EDIT_EMAIL] = "Edit Email",
	[PERM_DELETE_EMAIL] = "Delete Email",
	[PERM_APPROVE_EMAIL] = "Approve Email",
	[PERM_READ_ONLY_CUSTOM_OBJECT] = "Read-Only Custom Object",
	[PERM_READ_WRITE_CUSTOM_OBJECT] = "Read-Write Custom Object",
	[PERM_READ_ONLY_CUSTOM_OBJECT_TYPE] = "Read-Only Custom Object Type",
	[PERM_READ_WRITE_CUSTOM_OBJECT_TYPE] = "Read-Write Custom Object Type",
	[PERM_READ_WRITE_SCHEMA_STANDARD_FIELD] =
	    "Read-Write Schema Standard Field",
	[PERM_READ_WRITE_SCHEMA_CUSTOM_FIELD] =
	    "Read-Write Schema Custom Field",
	[PERM_READ_ONLY_ACTIVITY] = "Read-Only Activity",
	[PERM_READ_WRITE_ACTIVITY] = "Read-Write Activity",
	[PERM_READ_ONLY_CAMPAIGNS] = "Read-Only Campaigns",
	[PERM_READ_WRITE_CAMPAIGNS] = "Read-Write Campaigns",
};

static_assert(sizeof(names) / sizeof(names[0]) == PERM__MAX,
    "one name per permission");

/* Other spellings found in the swagger's "Required Permissions" text. */
static const struct {
	const char	*name;
	enum perm	 perm;
} aliases[] = {
	{ "Read-Asset", PERM_READ_ONLY_ASSETS },
	{ "Read-Only Asset", PERM_READ_ONLY_ASSETS },
	{ "Read-Write Asset", PERM_READ_WRITE_ASSETS },
	/* The swagger's name of Request and Schedule Campaign's. */
	{ "Execute Campaign", PERM_READ_WRITE_CAMPAIGNS },
};

/* Each Read-Write permission and the Read-Only one it implies. */
static const struct {
	enum perm	 rw;
	enum perm	 ro;
} implied[] = {
	{ PERM_READ_WRITE_LEAD, PERM_READ_ONLY_LEAD },
	{ PERM_READ_WRITE_ASSETS, PERM_READ_ONLY_ASSETS },
	{ PERM_READ_WRITE_CUSTOM_OBJECT, PERM_READ_ONLY_CUSTOM_OBJECT },
	{ PERM_READ_WRITE_CUSTOM_OBJECT_TYPE,
	    PERM_READ_ONLY_CUSTOM_OBJECT_TYPE },
	{ PERM_READ_WRITE_ACTIVITY, PERM_READ_ONLY_ACTIVITY },
	{ PERM_READ_WRITE_CAMPAIGNS, PERM_READ_ONLY_CAMPAIGNS },
};

/*
 * Returns the canonical name of p, or NULL for a value outside the enum.
 */
const char *
perm_name(enum perm p)
{
	if ((int)p < 0 || p >= PERM__MAX)
		return NULL;
	return names[p];
}

/*
 * Parses a permission name, case-insensitively (operators type them on
 * the mautoctl command line).  name: the text.  Returns 0 and sets *out,
 * or -1 when the name is unknown (then *out is PERM__MAX).
 */
int
perm_parse(const char *name, enum perm *out)
{
	size_t i;
	int r = -1;

	*out = PERM__MAX;
	if (name == NULL)
		goto out;
	for (i = 0; i < PERM__MAX; i++) {
		if (strcasecmp(name, names[i]) == 0) {
			*out = (enum perm)i;
			r = 0;
			goto out;
		}
	}
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (strcasecmp(name, aliases[i].name) == 0) {
			*out = aliases[i].perm;
			r = 0;
			goto out;
		}
	}
out:
	return r;
}

/*
 * Returns s plus the Read-Only permission of each Read-Write one in s;
 * bits outside PERM_ALL are dropped.
 */
perm_set
perm_expand(perm_set s)
{
	size_t i;

	s &= PERM_ALL;
	for (i = 0; i < sizeof(implied) / sizeof(implied[0]); i++)
		if (s & PERM_BIT(implied[i].rw))
			s |= PERM_BIT(implied[i].ro);
	return s;
}

/*
 * Whether the set s (expanded here, so a raw role set works too)
 * satisfies a route: it must hold one of any (when any is not empty) and
 * all of all.  Returns 1 or 0.
 */
int
perm_allows(perm_set s, perm_set any, perm_set all)
{
	s = perm_expand(s);
	if (any != 0 && (s & any) == 0)
		return 0;
	return (s & all) == all;
}
