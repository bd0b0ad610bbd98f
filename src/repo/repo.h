/*
 * Shared repository types.  Each repo_<group>.c opens with its statement
 * enum and SQL array and registers them here (repo.c); repo_schema is what
 * callers hand db_open, so every statement is prepared right after
 * connecting (style.md §7).
 */
#ifndef MAUTO_REPO_REPO_H
#define MAUTO_REPO_REPO_H

#include <stddef.h>

#include "db/pool.h"
#include "err.h"


/* Repository modules, in the order their statements are prepared. */
enum repo_id {
	REPO_AUTH,
	REPO_LIMITS,
	REPO_LEAD_FIELDS,
	REPO_LEAD_SCHEMA,
	REPO_LEADS,
	REPO_PROGRAMS,
	REPO_ACTIVITY,
	REPO_CUSTOM_OBJECTS,
	REPO_BULK_EXPORT,
	REPO__MAX
};

extern const struct db_stmt_set repo_auth_sql;
extern const struct db_stmt_set repo_limits_sql;
extern const struct db_stmt_set repo_lead_fields_sql;
extern const struct db_stmt_set repo_lead_schema_sql;
extern const struct db_stmt_set repo_leads_sql;
extern const struct db_stmt_set repo_programs_sql;
extern const struct db_stmt_set repo_activity_sql;
extern const struct db_stmt_set repo_custom_objects_sql;
extern const struct db_stmt_set repo_bulk_export_sql;

/*
 * What db_open sets a connection up with (repo.c): the statement sets
 * indexed by enum repo_id, the session setup run on every new connection
 * (UTC, strict mode, and read-your-writes on a Galera cluster) and the
 * statement that opens a transaction; kept here because SQL lives only in
 * src/repo/.
 */
extern const struct db_schema repo_schema;

#endif
