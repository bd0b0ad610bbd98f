#include <assert.h>

#include "http/errors.h"
#include "repo/repo.h"

const struct repo_sql *const repo_modules[REPO__MAX] = {
	[REPO_AUTH] = &repo_auth_sql,
	[REPO_LIMITS] = &repo_limits_sql,
	[REPO_LEAD_FIELDS] = &repo_lead_fields_sql,
	[REPO_LEAD_SCHEMA] = &repo_lead_schema_sql,
	[REPO_LEADS] = &repo_leads_sql,
	[REPO_PROGRAMS] = &repo_programs_sql,
	[REPO_ACTIVITY] = &repo_activity_sql,
	[REPO_CUSTOM_OBJECTS] = &repo_custom_objects_sql,
	[REPO_BULK_EXPORT] = &repo_bulk_export_sql,
};

/*
 * wsrep_sync_wait=1 makes reads on a Galera node wait until the node has
 * applied what the cluster committed before (galera.md "Read your own
 * writes"); on a single server the variable exists and costs nothing.
 */
const char repo_session_init[] =
    "SET SESSION time_zone = '+00:00', "
    "sql_mode = 'STRICT_TRANS_TABLES,NO_ZERO_DATE,NO_ENGINE_SUBSTITUTION', "
    "wsrep_sync_wait = 1";

const char repo_sql_begin[] = "START TRANSACTION";

int
repo_err_to_api(int repo_err)
{
	if (repo_err < 0)
		repo_err = -repo_err;
	switch (repo_err) {
	case REPO_OK:
		return 0;
	case REPO_ERR_NOT_FOUND:
		return -API_ERR_NO_DATA;
	case REPO_ERR_DEADLOCK:
		return -API_ERR_TIMEOUT;
	case REPO_ERR_CONN:
	case REPO_ERR_UNAVAILABLE:
		return -API_ERR_UNAVAILABLE;
	default:
		return -API_ERR_SYSTEM;
	}
}
