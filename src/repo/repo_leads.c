/*
 * Leads: reads, sync, delete (api_leads.c).
 */
#include "repo/repo.h"

enum leads_stmt {
	LEADS_STMT__MAX
};

static const char *const sql[LEADS_STMT__MAX + 1] = { NULL };

const struct repo_sql repo_leads_sql = {
	.name = "leads",
	.sql = sql,
	.n = LEADS_STMT__MAX,
};
