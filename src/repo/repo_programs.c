/*
 * Programs, statuses, static lists, forms, partitions, memberships.
 */
#include "repo/repo.h"

enum programs_stmt {
	PROGRAMS_STMT__MAX
};

static const char *const sql[PROGRAMS_STMT__MAX + 1] = { NULL };

const struct repo_sql repo_programs_sql = {
	.name = "programs",
	.sql = sql,
	.n = PROGRAMS_STMT__MAX,
};
