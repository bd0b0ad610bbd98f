/*
 * Lead field schema changes: Create/Update Lead Field (DDL).
 */
#include "repo/repo.h"

enum lead_schema_stmt {
	LEAD_SCHEMA_STMT__MAX
};

static const char *const sql[LEAD_SCHEMA_STMT__MAX + 1] = { NULL };

const struct repo_sql repo_lead_schema_sql = {
	.name = "lead_schema",
	.sql = sql,
	.n = LEAD_SCHEMA_STMT__MAX,
};
