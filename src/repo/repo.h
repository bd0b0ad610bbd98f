/*
 * Shared repository types.  Each repo_<group>.c opens with its statement
 * enum and SQL array and registers them here (repo.c) so db/pool.c can
 * prepare every statement right after connecting (style.md §7).
 */
#ifndef MAUTO_REPO_REPO_H
#define MAUTO_REPO_REPO_H

#include <stddef.h>

enum repo_err {
	REPO_OK = 0,
	REPO_ERR_INTERNAL,	/* anything unexpected; logged where seen */
	REPO_ERR_NOT_FOUND,
	REPO_ERR_CONFLICT,	/* duplicate key */
	REPO_ERR_INVALID,	/* value refused by the schema */
	REPO_ERR_DEADLOCK,	/* 1213 / 1205: re-run the transaction */
	REPO_ERR_CONN,		/* 2006 / 2013: connection lost; outcome unknown */
	REPO_ERR_UNAVAILABLE,	/* 1047 / 1180 / 2002 / 2003: node not usable */
	REPO_ERR__MAX
};

/* The statement set of one repository module. */
struct repo_sql {
	const char		*name;
	const char *const	*sql;
	size_t			 n;
};

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

extern const struct repo_sql repo_auth_sql;
extern const struct repo_sql repo_limits_sql;
extern const struct repo_sql repo_lead_fields_sql;
extern const struct repo_sql repo_lead_schema_sql;
extern const struct repo_sql repo_leads_sql;
extern const struct repo_sql repo_programs_sql;
extern const struct repo_sql repo_activity_sql;
extern const struct repo_sql repo_custom_objects_sql;
extern const struct repo_sql repo_bulk_export_sql;

/* The module table, indexed by enum repo_id (repo.c). */
extern const struct repo_sql *const repo_modules[REPO__MAX];

/*
 * Session setup run on every new connection (UTC, strict mode, and
 * read-your-writes on a Galera cluster), and the statement that opens a
 * transaction; kept here because SQL lives only in src/repo/.
 */
extern const char repo_session_init[];
extern const char repo_sql_begin[];

/* Maps a repo_err to the api_err a handler should return. */
int	repo_err_to_api(int repo_err);

#endif
