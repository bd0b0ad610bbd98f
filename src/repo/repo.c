#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "db/bind.h"
#include "db/query.h"
#include "repo/repo.h"
#include "util/arena.h"

static const struct db_stmt_set *const modules[REPO__MAX] = {
	[REPO_AUTH] = &repo_auth_sql,
	[REPO_LIMITS] = &repo_limits_sql,
	[REPO_LEAD_FIELDS] = &repo_lead_fields_sql,
	[REPO_LEAD_SCHEMA] = &repo_lead_schema_sql,
	[REPO_LEAD_LOCK] = &repo_lead_lock_sql,
	[REPO_PROGRAMS] = &repo_programs_sql,
	[REPO_ACTIVITY] = &repo_activity_sql,
	[REPO_CO_TYPES] = &repo_co_types_sql,
	[REPO_BULK_EXPORT] = &repo_bulk_export_sql,
	[REPO_PARTITIONS] = &repo_partitions_sql,
	[REPO_LISTS] = &repo_lists_sql,
	[REPO_FORMS] = &repo_forms_sql,
	[REPO_COOKIES] = &repo_cookies_sql,
	[REPO_MERGE] = &repo_merge_sql,
	[REPO_FOLDERS] = &repo_folders_sql,
	[REPO_USAGE] = &repo_usage_sql,
	[REPO_LP_TEMPLATES] = &repo_lp_templates_sql,
	[REPO_EMAIL_TEMPLATES] = &repo_email_templates_sql,
	[REPO_SEGMENTATIONS] = &repo_segmentations_sql,
	[REPO_SNIPPETS] = &repo_snippets_sql,
	[REPO_SL_CATALOGUE] = &repo_sl_catalogue_sql,
	[REPO_SL_SUGGEST] = &repo_sl_suggest_sql,
	[REPO_SMART_LISTS] = &repo_smart_lists_sql,
	[REPO_SMART_CAMPAIGNS] = &repo_smart_campaigns_sql,
	[REPO_SC_ACTIVATION] = &repo_sc_activation_sql,
	[REPO_SC_PROGRAM] = &repo_sc_program_sql,
	[REPO_SL_FILTER] = &repo_sl_filter_sql,
	[REPO_EMAILS] = &repo_emails_sql,
	[REPO_RESET] = &repo_reset_sql,
	[REPO_OUTBOX] = &repo_outbox_sql,
	[REPO_STATS] = &repo_stats_sql,
	[REPO_FOLDER_TREE] = &repo_folder_tree_sql,
	[REPO_TOKENS] = &repo_tokens_sql,
	[REPO_PROGRAM_ASSETS] = &repo_program_assets_sql,
	[REPO_PROGRAM_CATALOGUE] = &repo_program_catalogue_sql,
	[REPO_ENGINE] = &repo_engine_sql,
	[REPO_ENGINE_READ] = &repo_engine_read_sql,
	[REPO_ENGINE_STEPS] = &repo_engine_steps_sql,
};

/*
 * wsrep_sync_wait=1 makes reads on a Galera node wait until the node has
 * applied what the cluster committed before (docs/galera.md "Read your own
 * writes"); on a single server the variable exists and costs nothing.
 * Every read statement waits: most requests read once, and a separate
 * wait before a request's first statement cost a Galera node more than
 * the waits it saved (docs/galera.md).
 */
static const char session_init[] =
    "SET SESSION time_zone = '+00:00', "
    "sql_mode = 'STRICT_TRANS_TABLES,NO_ZERO_DATE,NO_ENGINE_SUBSTITUTION', "
    "wsrep_sync_wait = 1";

static const char begin[] = "START TRANSACTION";

/*
 * Every call checks its token and the limits: those two sets come first
 * and are prepared at connect (db/pool.h), the others when first used.
 */
static_assert(REPO_AUTH < 2 && REPO_LIMITS < 2,
    "the sets every call uses are the first two");

const struct db_schema repo_schema = {
	.sets = modules,
	.nsets = REPO__MAX,
	.nconnect = 2,
	.session_init = session_init,
	.begin = begin,
};

/* See repo.h. */
int
repo_filter_bind(MYSQL_BIND *b, struct arena *a, const struct repo_filter *f,
    unsigned long len[4])
{
	int r;

	if ((r = db_bind_json_list(&b[0], a, f->ids, NULL, f->nids,
	    &len[0])) != 0 ||
	    (r = db_bind_json_list(&b[2], a, NULL, f->names, f->nnames,
	    &len[1])) != 0 ||
	    (r = db_bind_json_list(&b[4], a, NULL, f->programs, f->nprograms,
	    &len[2])) != 0)
		return r;
	return db_bind_json_list(&b[6], a, NULL, f->workspaces,
	    f->nworkspaces, &len[3]);
}

/* See repo.h. */
int
repo_named_select(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in,
    struct arena *a, size_t max, struct repo_named **out, size_t *n,
    const char *where)
{
	struct db_text_rows t;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = db_select_text(db, st, in, a, 3, max, where, &t)) != 0 ||
	    t.count == 0)
		return r;
	if ((*out = arena_zalloc(a, t.count * sizeof(**out))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		(*out)[i].id = (int32_t)db_text_i64(&t, i, 0);
		(*out)[i].name = db_text_str(&t, i, 1);
		(*out)[i].description = db_text_str(&t, i, 2);
	}
	*n = t.count;
	return 0;
}

/* See repo.h. */
int
repo_program_first_id(struct db *db, MYSQL_STMT *st, int32_t program,
    size_t nparams, int32_t *id, const char *where)
{
	MYSQL_BIND in[4];
	int64_t v = 0;
	size_t i;
	int r;

	*id = 0;
	if (nparams > 4)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < nparams; i++)
		bind_i32(&in[i], &program);
	if ((r = db_query_i64(db, st, in, &v, where)) != 0)
		return r;
	*id = (int32_t)v;
	return 0;
}

/* See repo.h. */
int
repo_program_exec(struct db *db, MYSQL_STMT *st, int32_t program,
    const char *where)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &program);
	return db_exec(db, st, in, where);
}
