/*
 * mautoctl reset (repo_reset.h): the one repository that writes the
 * tables of the others, because emptying them has to be one transaction
 * in an order set by their references (children first), not a sequence
 * of the others' transactions.  The custom object record tables are
 * named by the type ids read in the same transaction; their DELETE is
 * prepared at run time like the others' statements on those tables
 * (repo_co_records.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "db/pool.h"
#include "db/query.h"
#include "model/export.h"
#include "repo/repo.h"
#include "repo/repo_reset.h"
#include "util/log.h"
#include "util/xmalloc.h"

enum reset_stmt {
	/* One per enum repo_reset_table, in its order. */
	RESET_STMT_CO_TABLES = RESET__MAX,
	RESET_STMT_EXPORT_FILES,
	RESET_STMT_FOLDER_GEN,
	RESET_STMT__MAX
};

static const char *const names[RESET__MAX] = {
	[RESET_ACTIVITY_OFFER] = "activity_offer",
	[RESET_CAMPAIGN_RUN_LEAD] = "campaign_run_lead",
	[RESET_CAMPAIGN_RUN] = "campaign_run",
	[RESET_CAMPAIGN_QUALIFICATION] = "campaign_qualification",
	[RESET_ENGINE_CLOCK] = "engine_clock",
	[RESET_ACTIVITY] = "activity",
	[RESET_LEAD_COOKIE] = "lead_cookie",
	[RESET_CAMPAIGN_MEMBER] = "campaign_member",
	[RESET_LIST_MEMBER] = "list_member",
	[RESET_PROGRAM_MEMBER] = "program_member",
	[RESET_FORM_FIELD] = "form_field",
	[RESET_FORM] = "form",
	[RESET_STATIC_LIST] = "static_list",
	[RESET_ASSET_USAGE] = "asset_usage",
	[RESET_SC_CHOICE_ATTR] = "sc_choice_attr",
	[RESET_SC_STEP_CHOICE] = "sc_step_choice",
	[RESET_SC_FLOW_STEP] = "sc_flow_step",
	[RESET_SMART_CAMPAIGN] = "smart_campaign",
	[RESET_SMART_LIST_CONDITION] = "smart_list_condition",
	[RESET_SMART_LIST_RULE] = "smart_list_rule",
	[RESET_SMART_LIST] = "smart_list",
	[RESET_EMAIL_VERSION] = "email_version",
	[RESET_EMAIL] = "email",
	[RESET_LP_TEMPLATE_VERSION] = "lp_template_version",
	[RESET_LP_TEMPLATE] = "lp_template",
	[RESET_EMAIL_TEMPLATE_DYNAMIC] = "email_template_dynamic",
	[RESET_EMAIL_TEMPLATE] = "email_template",
	[RESET_SEGMENT] = "segment",
	[RESET_SEGMENTATION] = "segmentation",
	[RESET_SNIPPET] = "snippet",
	[RESET_FOLDER_TOKEN] = "folder_token",
	[RESET_PROGRAM_STATUS] = "program_status",
	[RESET_PROGRAM] = "program",
	[RESET_FOLDER] = "folder",
	[RESET_LEAD] = "lead",
	[RESET_LEAD_PARTITION] = "lead_partition",
	[RESET_EXPORT_JOB] = "export_job",
	[RESET_OUTBOX] = "outbox",
};

static const char *const sql[RESET_STMT__MAX] = {
	[RESET_ACTIVITY_OFFER] = "DELETE FROM activity_offer",
	[RESET_CAMPAIGN_RUN_LEAD] = "DELETE FROM campaign_run_lead",
	[RESET_CAMPAIGN_RUN] = "DELETE FROM campaign_run",
	[RESET_CAMPAIGN_QUALIFICATION] = "DELETE FROM campaign_qualification",
	/* Set back, not deleted: counted only when it had moved. */
	[RESET_ENGINE_CLOCK] =
	    "UPDATE engine_clock SET offset_ms = 0 WHERE offset_ms <> 0",
	[RESET_ACTIVITY] = "DELETE FROM activity",
	[RESET_LEAD_COOKIE] = "DELETE FROM lead_cookie",
	[RESET_CAMPAIGN_MEMBER] = "DELETE FROM campaign_member",
	[RESET_LIST_MEMBER] = "DELETE FROM list_member",
	[RESET_PROGRAM_MEMBER] = "DELETE FROM program_member",
	[RESET_FORM_FIELD] = "DELETE FROM form_field",
	[RESET_FORM] = "DELETE FROM form",
	[RESET_STATIC_LIST] = "DELETE FROM static_list",
	[RESET_ASSET_USAGE] = "DELETE FROM asset_usage",
	[RESET_SC_CHOICE_ATTR] = "DELETE FROM sc_choice_attr",
	[RESET_SC_STEP_CHOICE] = "DELETE FROM sc_step_choice",
	[RESET_SC_FLOW_STEP] = "DELETE FROM sc_flow_step",
	[RESET_SMART_CAMPAIGN] = "DELETE FROM smart_campaign",
	[RESET_SMART_LIST_CONDITION] = "DELETE FROM smart_list_condition",
	[RESET_SMART_LIST_RULE] = "DELETE FROM smart_list_rule",
	[RESET_SMART_LIST] = "DELETE FROM smart_list",
	[RESET_EMAIL_VERSION] = "DELETE FROM email_version",
	[RESET_EMAIL] = "DELETE FROM email",
	[RESET_LP_TEMPLATE_VERSION] = "DELETE FROM lp_template_version",
	[RESET_LP_TEMPLATE] = "DELETE FROM lp_template",
	[RESET_EMAIL_TEMPLATE_DYNAMIC] = "DELETE FROM email_template_dynamic",
	[RESET_EMAIL_TEMPLATE] = "DELETE FROM email_template",
	[RESET_SEGMENT] = "DELETE FROM segment",
	[RESET_SEGMENTATION] = "DELETE FROM segmentation",
	[RESET_SNIPPET] = "DELETE FROM snippet",
	[RESET_FOLDER_TOKEN] = "DELETE FROM folder_token",
	[RESET_PROGRAM_STATUS] = "DELETE FROM program_status",
	[RESET_PROGRAM] = "DELETE FROM program",
	/*
	 * The roots a new instance has stay (migration 0010); a folder is
	 * made after its parent, so the newest go first.
	 */
	[RESET_FOLDER] = "DELETE FROM folder WHERE is_system = 0 "
	    "ORDER BY id DESC",
	[RESET_LEAD] = "DELETE FROM lead",
	/* Default (id 1) comes with migration 0004 and every lead needs one. */
	[RESET_LEAD_PARTITION] = "DELETE FROM lead_partition WHERE id <> 1",
	[RESET_EXPORT_JOB] = "DELETE FROM export_job",
	[RESET_OUTBOX] = "DELETE FROM outbox",
	/* The types whose record table exists (approved once). */
	[RESET_STMT_CO_TABLES] =
	    "SELECT id FROM co_type WHERE table_ready = 1 ORDER BY id "
	    "FOR UPDATE",
	/* Files of a Processing job are removed by its runner (runner.c). */
	[RESET_STMT_EXPORT_FILES] =
	    "SELECT export_id, attempts, format FROM export_job "
	    "WHERE status = 'Completed' AND file_expired = 0 FOR UPDATE",
	/* The folders that stay show less now (migration 0017). */
	[RESET_STMT_FOLDER_GEN] =
	    "UPDATE folder SET content_gen = content_gen + 1",
};

const struct db_stmt_set repo_reset_sql = {
	.name = "reset",
	.sql = sql,
	.n = RESET_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum reset_stmt s)
{
	return db_stmt(db, REPO_RESET, (int)s);
}

/* See repo_reset.h. */
const char *
repo_reset_table_name(enum repo_reset_table t)
{
	return (unsigned)t < RESET__MAX ? names[t] : "?";
}

/* The ids of the record tables, read by co_table_row. */
struct co_ids {
	int64_t		*ids;
	size_t		 count;
};

static int
co_table_row(void *arg, char **v, const unsigned long *lens)
{
	struct co_ids *c = arg;

	(void)lens;
	c->ids = xrealloc(c->ids, (c->count + 1) * sizeof(*c->ids));
	c->ids[c->count++] = db_col_i64(v[0]);
	return 0;
}

static int
export_file_row(void *arg, char **v, const unsigned long *lens)
{
	struct repo_reset_result *out = arg;
	struct export_file_ref *f;

	(void)lens;
	out->files = xrealloc(out->files, (out->nfiles + 1) *
	    sizeof(*out->files));
	f = &out->files[out->nfiles++];
	memset(f, 0, sizeof(*f));
	db_copy_text(f->export_id, sizeof(f->export_id), v[0], SIZE_MAX);
	f->attempts = (int32_t)db_col_i64(v[1]);
	if (v[2] == NULL || export_format_parse(v[2], &f->format) != 0)
		f->format = EXPORT_CSV;
	return 0;
}

/* Reads the rows of st (no parameters) into fn. */
static int
select_rows(struct db *db, enum reset_stmt s, size_t ncols, db_row_fn fn,
    void *arg)
{
	MYSQL_STMT *st = stmt(db, s);
	int r;

	if ((r = db_exec(db, st, NULL, "repo_reset_delete_all")) != 0)
		return r;
	return db_fetch_rows(db, st, ncols, fn, arg, "repo_reset_delete_all");
}

/* Deletes every record of the custom object type id. */
static int
co_table_empty(struct db *db, int64_t id, uint64_t *n)
{
	MYSQL_STMT *st;
	char q[64];

	*n = 0;
	(void)snprintf(q, sizeof(q), "DELETE FROM `co_rec_%" PRId64 "`", id);
	if ((st = db_stmt_sql(db, q, "repo_reset_delete_all")) == NULL)
		return db_stmt_sql_err(db);
	return db_exec_n(db, st, NULL, n, "repo_reset_delete_all");
}

static int
reset_tx(struct db *db, void *arg)
{
	struct repo_reset_result *out = arg;
	struct co_ids co = { NULL, 0 };
	uint64_t n;
	size_t i;
	int t, r;

	/* A re-run after a deadlock starts over. */
	repo_reset_result_free(out);
	if ((r = select_rows(db, RESET_STMT_EXPORT_FILES, 3, export_file_row,
	    out)) != 0 ||
	    (r = select_rows(db, RESET_STMT_CO_TABLES, 1, co_table_row,
	    &co)) != 0)
		goto out;
	for (i = 0; i < co.count; i++) {
		if ((r = co_table_empty(db, co.ids[i], &n)) != 0)
			goto out;
		out->co_rows += n;
		out->co_tables++;
	}
	for (t = 0; t < RESET__MAX; t++)
		if ((r = db_exec_n(db, stmt(db, (enum reset_stmt)t), NULL,
		    &out->rows[t], "repo_reset_delete_all")) != 0)
			goto out;
	r = db_exec(db, stmt(db, RESET_STMT_FOLDER_GEN), NULL,
	    "repo_reset_delete_all");
out:
	free(co.ids);
	return r;
}

/* See repo_reset.h. */
int
repo_reset_delete_all(struct db *db, struct repo_reset_result *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_run_tx(db, reset_tx, out, true)) != 0)
		repo_reset_result_free(out);
	return r;
}

/* See repo_reset.h. */
void
repo_reset_result_free(struct repo_reset_result *r)
{
	if (r == NULL)
		return;
	free(r->files);
	memset(r, 0, sizeof(*r));
}
