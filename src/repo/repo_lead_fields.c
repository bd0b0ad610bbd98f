/*
 * Reading the lead field catalogue (repo_lead_fields.h).
 */
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_lead_fields.h"
#include "util/log.h"
#include "util/xmalloc.h"

enum lead_fields_stmt {
	LEAD_FIELDS_STMT_VERSION,
	LEAD_FIELDS_STMT_LIST,
	LEAD_FIELDS_STMT__MAX
};

/* The columns LEAD_FIELDS_STMT_LIST returns, in fill_field order. */
#define LEAD_FIELD_COLUMNS \
	"name, attr_id, display_name, data_type, COALESCE(length, 0), " \
	"description, soap_name, read_only, searchable, indexed, " \
	"is_custom, is_api_created, is_hidden, is_html_encoding, " \
	"is_sensitive, crm_managed"

static const char *const sql[LEAD_FIELDS_STMT__MAX] = {
	[LEAD_FIELDS_STMT_VERSION] =
	    "SELECT version FROM lead_schema WHERE id = 1",
	[LEAD_FIELDS_STMT_LIST] =
	    "SELECT " LEAD_FIELD_COLUMNS " FROM lead_field ORDER BY attr_id",
};

const struct db_stmt_set repo_lead_fields_sql = {
	.name = "lead_fields",
	.sql = sql,
	.n = LEAD_FIELDS_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum lead_fields_stmt s)
{
	return db_stmt(db, REPO_LEAD_FIELDS, (int)s);
}

/* See repo_lead_fields.h. */
int
repo_lead_fields_version(struct db *db, int64_t *out)
{
	MYSQL_STMT *st;
	MYSQL_BIND res[1];
	my_bool nul;
	int e, r;

	*out = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	st = stmt(db, LEAD_FIELDS_STMT_VERSION);
	if ((r = db_exec(db, st, NULL, "repo_lead_fields_version")) != 0)
		return r;
	bind_out_i64(&res[0], out, &nul);
	if (mysql_stmt_bind_result(st, res) != 0)
		r = db_error(db, st, "repo_lead_fields_version");
	else if ((e = mysql_stmt_fetch(st)) == MYSQL_NO_DATA)
		r = -REPO_ERR_NOT_FOUND;
	else if (e != 0)
		r = db_error(db, st, "repo_lead_fields_version");
	mysql_stmt_free_result(st);
	return r;
}

/* One row of the list statement as fetched. */
struct field_row {
	char		name[LF_NAME_BYTES * 4 + 1];
	char		display[LF_DISPLAY_BYTES * 4 + 1];
	char		type[32];
	char		desc[LF_DESCRIPTION_BYTES * 4 + 1];
	char		soap[LF_NAME_BYTES * 4 + 1];
	unsigned long	len[5];
	my_bool		nul[16];
	int32_t		attr_id, length;
	int32_t		flags[9];
};

static char *
dup_col(const char *s, unsigned long len, my_bool nul)
{
	char *p;

	if (nul)
		return NULL;
	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* Copies a fetched row into f; false when its data type is unknown. */
static bool
fill_field(const struct field_row *row, struct lead_field *f)
{
	char type[32];

	memset(f, 0, sizeof(*f));
	memcpy(type, row->type, row->len[2] < sizeof(type) ? row->len[2] :
	    sizeof(type) - 1);
	type[row->len[2] < sizeof(type) ? row->len[2] : sizeof(type) - 1] =
	    '\0';
	if (lf_type_parse(type, &f->type) != 0)
		return false;
	f->name = dup_col(row->name, row->len[0], 0);
	f->attr_id = row->attr_id;
	f->display_name = dup_col(row->display, row->len[1], 0);
	f->length = row->length;
	f->description = dup_col(row->desc, row->len[3], row->nul[5]);
	f->soap_name = dup_col(row->soap, row->len[4], row->nul[6]);
	f->read_only = row->flags[0] != 0;
	f->searchable = row->flags[1] != 0;
	f->indexed = row->flags[2] != 0;
	f->is_custom = row->flags[3] != 0;
	f->is_api_created = row->flags[4] != 0;
	f->is_hidden = row->flags[5] != 0;
	f->is_html_encoding = row->flags[6] != 0;
	f->is_sensitive = row->flags[7] != 0;
	f->crm_managed = row->flags[8] != 0;
	return true;
}

static int
load(struct db *db, void *arg)
{
	struct lead_schema *out = arg;
	struct field_row *row;
	MYSQL_STMT *st;
	MYSQL_BIND res[16];
	size_t cap = 0, i;
	int e, r;

	lead_schema_clear(out);
	if ((r = repo_lead_fields_version(db, &out->version)) != 0)
		return r;
	row = xcalloc(1, sizeof(*row));
	st = stmt(db, LEAD_FIELDS_STMT_LIST);
	if ((r = db_exec(db, st, NULL, "repo_lead_fields_load")) != 0)
		goto out;
	bind_out_str(&res[0], row->name, sizeof(row->name), &row->len[0],
	    &row->nul[0]);
	bind_out_i32(&res[1], &row->attr_id, &row->nul[1]);
	bind_out_str(&res[2], row->display, sizeof(row->display),
	    &row->len[1], &row->nul[2]);
	bind_out_str(&res[3], row->type, sizeof(row->type), &row->len[2],
	    &row->nul[3]);
	bind_out_i32(&res[4], &row->length, &row->nul[4]);
	bind_out_str(&res[5], row->desc, sizeof(row->desc), &row->len[3],
	    &row->nul[5]);
	bind_out_str(&res[6], row->soap, sizeof(row->soap), &row->len[4],
	    &row->nul[6]);
	for (i = 0; i < 9; i++)
		bind_out_i32(&res[7 + i], &row->flags[i], &row->nul[7 + i]);
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, "repo_lead_fields_load");
		goto out_free;
	}
	while ((e = mysql_stmt_fetch(st)) == 0 || e == MYSQL_DATA_TRUNCATED) {
		if (out->count == cap) {
			cap = cap == 0 ? 128 : cap * 2;
			out->fields = xrealloc(out->fields,
			    cap * sizeof(*out->fields));
		}
		if (e == MYSQL_DATA_TRUNCATED ||
		    !fill_field(row, &out->fields[out->count])) {
			log_err("repo_lead_fields_load: bad lead_field row");
			continue;
		}
		out->count++;
	}
	if (e != MYSQL_NO_DATA) {
		r = db_error(db, st, "repo_lead_fields_load");
		goto out_free;
	}
	lead_schema_index(out);
	r = 0;
out_free:
	mysql_stmt_free_result(st);
out:
	free(row);
	if (r != 0)
		lead_schema_clear(out);
	return r;
}

/* See repo_lead_fields.h. */
int
repo_lead_fields_load(struct db *db, struct lead_schema *out)
{
	memset(out, 0, sizeof(*out));
	return db_run_tx(db, load, out, true);
}
