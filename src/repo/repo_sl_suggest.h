/*
 * Auto-suggest for smart list rules: the names of the assets a
 * constraint refers to (forms, static lists, programs, lead fields,
 * emails, smart campaigns) and the values of a free-text constraint.
 */
#ifndef MAUTO_REPO_REPO_SL_SUGGEST_H
#define MAUTO_REPO_REPO_SL_SUGGEST_H

#include <stddef.h>
#include <stdint.h>

struct arena;
struct db;
struct repo_sl_constraint;
struct repo_sl_rule_type;

struct repo_sl_suggestion {
	int32_t		 id;
	const char	*name;
	const char	*workspace;
	int32_t		 workspace_id;
};

/*
 * Up to limit values for a constraint of data type data_type (form,
 * list, program, field, email, campaign), whose names start with prefix (NULL: any).
 */
int	repo_sl_suggest(struct db *db, struct arena *a, const char *data_type,
	    const char *prefix, int limit, struct repo_sl_suggestion **out,
	    size_t *n);

/* The most rows of a table repo_sl_suggest_values reads. */
#define REPO_SL_SUGGEST_SCAN	100000

/*
 * Up to limit distinct values of free-text constraint k (data type
 * string, text, email, phone, url or link) of rule type rt, as read by
 * repo_sl_rule_type: the lead column of an attribute rule, the record
 * table column of a custom object filter's field.  Values are those that
 * start with prefix (NULL: any; LIKE's wildcards taken literally; case
 * as the column's collation compares), not NULL nor empty, sorted by
 * the column's collation, among the newest REPO_SL_SUGGEST_SCAN rows of
 * the table by id (the cost is bounded whether or not the column has an
 * index).  Each has its 1-based position as id, the value as name,
 * workspace "Default" (1).  No values (0, *n 0) for other constraints.
 * Returns 0 or a negative repo_err.
 */
int	repo_sl_suggest_values(struct db *db, struct arena *a,
	    const struct repo_sl_rule_type *rt,
	    const struct repo_sl_constraint *k, const char *prefix,
	    int limit, struct repo_sl_suggestion **out, size_t *n);

#endif
