/*
 * Shared repository types.  Each repo_<group>.c opens with its statement
 * enum and SQL array and registers them here (repo.c); repo_schema is what
 * callers hand db_open, so every statement is prepared right after
 * connecting (docs/style.md §7).
 */
#ifndef MAUTO_REPO_REPO_H
#define MAUTO_REPO_REPO_H

#include <stddef.h>
#include <stdint.h>

#include "db/pool.h"
#include "err.h"

/* The outcome of one record of a batch. */
enum repo_rec {
	REPO_REC_UPDATED,	/* changed (or already as asked) */
	REPO_REC_NO_LEAD,	/* no lead with that id */
	REPO_REC_NO_PARTITION,	/* no partition with that name */
	REPO_REC_NOT_MEMBER,	/* the lead is not a member of the program */
	REPO_REC_NOT_FORWARD,	/* already in or past the status */
	REPO_REC__MAX
};

/* What a -REPO_ERR_NOT_FOUND of a mautoctl write was missing. */
enum repo_what {
	REPO_WHAT_NONE,
	REPO_WHAT_LEAD,
	REPO_WHAT_PROGRAM,
	REPO_WHAT_STATUS,
	REPO_WHAT_LIST,
	REPO_WHAT_FIELD,
	REPO_WHAT__MAX
};

struct repo_missing {
	enum repo_what	 what;
	int64_t		 id;		/* the lead, program or list id */
	size_t		 index;		/* which input (field, status) */
};

/*
 * Which rows a lead-database browse reads (Get Lists, Get Campaigns):
 * those with one of the ids, one of the exact names, in one of the
 * programs and in one of the workspaces named; an empty list does not
 * filter.
 */
struct repo_filter {
	const int64_t		*ids;
	size_t			 nids;
	const char *const	*names;		/* exact names */
	size_t			 nnames;
	const char *const	*programs;	/* names of their programs */
	size_t			 nprograms;
	const char *const	*workspaces;	/* names of their workspaces */
	size_t			 nworkspaces;
};

/*
 * Binds b[0..7] to f's four filters in that order (ids, names, programs,
 * workspaces), each as db_bind_json_list does, lengths in len[0..3]: for
 * a statement of "(? IS NULL OR JSON_CONTAINS(?, ...))" four times.
 * Returns 0 or -REPO_ERR_INTERNAL.
 */
struct arena;
int	repo_filter_bind(MYSQL_BIND *b, struct arena *a,
	    const struct repo_filter *f, unsigned long len[4]);

/*
 * An asset of a program as Clone Program copies it, each store reading
 * its own (repo_program_clone.c): its id, name and description (NULL
 * when none), the strings in the caller's arena.
 */
struct repo_named {
	int32_t		 id;
	const char	*name;
	const char	*description;
};

/*
 * Executes st with in and reads its rows (id, name, description), at
 * most max, into *out (*n of them) in the arena a.  0 or a negative
 * repo_err.
 */
int	repo_named_select(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in,
	    struct arena *a, size_t max, struct repo_named **out, size_t *n,
	    const char *where);

/*
 * The first id statement st finds for program program, bound to each of
 * its nparams parameters (at most 4), into *id (0: none): the "what of
 * this program is used outside it" reads of Delete Program.  0 or a
 * negative repo_err.
 */
int	repo_program_first_id(struct db *db, MYSQL_STMT *st, int32_t program,
	    size_t nparams, int32_t *id, const char *where);

/* Executes st with program program as its one parameter. */
int	repo_program_exec(struct db *db, MYSQL_STMT *st, int32_t program,
	    const char *where);

/* Repository modules, in the order their statements are prepared. */
enum repo_id {
	REPO_AUTH,
	REPO_LIMITS,
	REPO_LEAD_FIELDS,
	REPO_LEAD_SCHEMA,
	REPO_LEAD_LOCK,
	REPO_PROGRAMS,
	REPO_ACTIVITY,
	REPO_CO_TYPES,
	REPO_BULK_EXPORT,
	REPO_PARTITIONS,
	REPO_LISTS,
	REPO_FORMS,
	REPO_COOKIES,
	REPO_MERGE,
	REPO_FOLDERS,
	REPO_USAGE,
	REPO_LP_TEMPLATES,
	REPO_EMAIL_TEMPLATES,
	REPO_SEGMENTATIONS,
	REPO_SNIPPETS,
	REPO_SL_CATALOGUE,
	REPO_SL_SUGGEST,
	REPO_SMART_LISTS,
	REPO_SMART_CAMPAIGNS,
	REPO_SC_ACTIVATION,
	REPO_SC_PROGRAM,
	REPO_SL_FILTER,
	REPO_EMAILS,
	REPO_RESET,
	REPO_OUTBOX,
	REPO_STATS,
	REPO_FOLDER_TREE,
	REPO_TOKENS,
	REPO_PROGRAM_ASSETS,
	REPO_PROGRAM_CATALOGUE,
	REPO_ENGINE,
	REPO_ENGINE_READ,
	REPO_ENGINE_STEPS,
	REPO__MAX
};

/*
 * The slots of the repositories' caches (db_cache): catalogues that
 * change only with the schema, read once per connection.
 */
enum repo_cache {
	REPO_CACHE_SL_CATALOGUE,	/* repo_sl_catalogue.c: rule types */
	REPO_CACHE_SC_CATALOGUE,	/* repo_smart_campaigns.c: flow steps */
	REPO_CACHE__MAX
};

extern const struct db_stmt_set repo_auth_sql;
extern const struct db_stmt_set repo_limits_sql;
extern const struct db_stmt_set repo_lead_fields_sql;
extern const struct db_stmt_set repo_lead_schema_sql;
extern const struct db_stmt_set repo_lead_lock_sql;
extern const struct db_stmt_set repo_programs_sql;
extern const struct db_stmt_set repo_activity_sql;
extern const struct db_stmt_set repo_co_types_sql;
extern const struct db_stmt_set repo_bulk_export_sql;
extern const struct db_stmt_set repo_partitions_sql;
extern const struct db_stmt_set repo_lists_sql;
extern const struct db_stmt_set repo_forms_sql;
extern const struct db_stmt_set repo_cookies_sql;
extern const struct db_stmt_set repo_merge_sql;
extern const struct db_stmt_set repo_folders_sql;
extern const struct db_stmt_set repo_usage_sql;
extern const struct db_stmt_set repo_stats_sql;
extern const struct db_stmt_set repo_engine_sql;
extern const struct db_stmt_set repo_engine_read_sql;
extern const struct db_stmt_set repo_engine_steps_sql;
extern const struct db_stmt_set repo_lp_templates_sql;
extern const struct db_stmt_set repo_email_templates_sql;
extern const struct db_stmt_set repo_segmentations_sql;
extern const struct db_stmt_set repo_snippets_sql;
extern const struct db_stmt_set repo_sl_catalogue_sql;
extern const struct db_stmt_set repo_sl_suggest_sql;
extern const struct db_stmt_set repo_smart_lists_sql;
extern const struct db_stmt_set repo_smart_campaigns_sql;
extern const struct db_stmt_set repo_sc_activation_sql;
extern const struct db_stmt_set repo_sc_program_sql;
extern const struct db_stmt_set repo_sl_filter_sql;
extern const struct db_stmt_set repo_emails_sql;
extern const struct db_stmt_set repo_reset_sql;
extern const struct db_stmt_set repo_outbox_sql;
extern const struct db_stmt_set repo_folder_tree_sql;
extern const struct db_stmt_set repo_tokens_sql;
extern const struct db_stmt_set repo_program_assets_sql;
extern const struct db_stmt_set repo_program_catalogue_sql;

/*
 * What db_open sets a connection up with (repo.c): the statement sets
 * indexed by enum repo_id, the session setup run on every new connection
 * (UTC, strict mode, and read-your-writes on a Galera cluster) and the
 * statement that opens a transaction; kept here because SQL lives only in
 * src/repo/.
 */
extern const struct db_schema repo_schema;

#endif
