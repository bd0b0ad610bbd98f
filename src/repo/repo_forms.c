/*
 * Forms (repo_forms.h): made by mautoctl with the lead fields they carry,
 * read by Submit Form.  A form's fields are stored as the lead field
 * catalogue spells them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "bounds.h"
#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_forms.h"
#include "repo/repo_programs.h"
#include "util/arena.h"

enum forms_stmt {
	FORMS_STMT_INSERT,
	FORMS_STMT_GET_BY_NAME,
	FORMS_STMT_GET_BY_ID,
	FORMS_STMT_FIELD_INSERT,
	FORMS_STMT_FIELD_LIST,
	FORMS_STMT_FIELD_GET_BY_NAME,
	FORMS_STMT_IN_PROGRAM,
	FORMS_STMT_COPY,
	FORMS_STMT_COPY_FIELDS,
	FORMS_STMT_PROGRAM_USED_OUTSIDE,
	FORMS_STMT_DELETE_IN_PROGRAM,
	FORMS_STMT__MAX
};

static const char *const sql[FORMS_STMT__MAX] = {
	[FORMS_STMT_INSERT] =
	    "INSERT INTO form (name, program_id, created_at, updated_at) "
	    "VALUES (?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	[FORMS_STMT_GET_BY_NAME] =
	    "SELECT id FROM form WHERE name = ?",
	[FORMS_STMT_GET_BY_ID] =
	    "SELECT id, name, COALESCE(program_id, 0) FROM form WHERE id = ?",
	[FORMS_STMT_FIELD_INSERT] =
	    "INSERT IGNORE INTO form_field (form_id, field_name) VALUES (?, ?)",
	[FORMS_STMT_FIELD_LIST] =
	    "SELECT field_name FROM form_field WHERE form_id = ? "
	    "ORDER BY field_name",
	/* The catalogue's spelling of a field name given in any case. */
	[FORMS_STMT_FIELD_GET_BY_NAME] =
	    "SELECT name FROM lead_field WHERE name = ?",
	[FORMS_STMT_IN_PROGRAM] =
	    "SELECT id, name, NULL FROM form WHERE program_id = ? ORDER BY id",
	/* Parameters: the copy's name, its program, the source form. */
	[FORMS_STMT_COPY] =
	    "INSERT INTO form (name, program_id, workspace, created_at, "
	    "updated_at) SELECT ?, ?, workspace, UTC_TIMESTAMP(), "
	    "UTC_TIMESTAMP() FROM form WHERE id = ?",
	/* Parameters: the copy, the source form. */
	[FORMS_STMT_COPY_FIELDS] =
	    "INSERT INTO form_field (form_id, field_name) "
	    "SELECT ?, field_name FROM form_field WHERE form_id = ?",
	/*
	 * The first form of program ? that a form condition (Fills Out
	 * Form) of a smart list outside that program (?) names, by name or
	 * id: the list's program, or its campaign's.
	 */
	[FORMS_STMT_PROGRAM_USED_OUTSIDE] =
	    "SELECT MIN(f.id) FROM form f JOIN smart_list_condition c "
	    "ON JSON_CONTAINS(c.vals, JSON_QUOTE(f.name)) OR "
	    "JSON_CONTAINS(c.vals, JSON_QUOTE(CAST(f.id AS CHAR))) "
	    "JOIN smart_list_rule r ON r.id = c.rule_id "
	    "JOIN sl_constraint k ON k.rule_type_id = r.rule_type_id "
	    "AND k.id = c.attribute_id JOIN smart_list s "
	    "ON s.id = r.smart_list_id LEFT JOIN smart_campaign sc "
	    "ON sc.id = s.campaign_id WHERE f.program_id = ? AND "
	    "k.data_type = 'form' AND "
	    "NOT (COALESCE(s.program_id, sc.program_id) <=> ?)",
	[FORMS_STMT_DELETE_IN_PROGRAM] =
	    "DELETE FROM form WHERE program_id = ?",
};

const struct db_stmt_set repo_forms_sql = {
	.name = "forms",
	.sql = sql,
	.n = FORMS_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum forms_stmt s)
{
	return db_stmt(db, REPO_FORMS, (int)s);
}

/* See repo_forms.h. */
int
repo_forms_get_id_by_name(struct db *db, const char *name, int32_t *id)
{
	return db_query_id(db, stmt(db, FORMS_STMT_GET_BY_NAME), name, id,
	    "repo_forms_get_id_by_name");
}

/* See repo_forms.h. */
int
repo_forms_get_by_id(struct db *db, struct arena *a, int64_t id,
    struct repo_form *out)
{
	MYSQL_BIND in[1];
	struct db_text_rows t;
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	bind_i64(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec(db, stmt(db, FORMS_STMT_GET_BY_ID), in,
	    "repo_forms_get_by_id")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, FORMS_STMT_GET_BY_ID), a, 3, 1,
	    "repo_forms_get_by_id", &t)) != 0)
		goto out;
	if (t.count == 0) {
		r = -REPO_ERR_NOT_FOUND;
		goto out;
	}
	out->id = (int32_t)db_text_i64(&t, 0, 0);
	out->name = db_text_str(&t, 0, 1);
	out->program_id = (int32_t)db_text_i64(&t, 0, 2);
	if ((r = db_exec(db, stmt(db, FORMS_STMT_FIELD_LIST), in,
	    "repo_forms_get_by_id")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, FORMS_STMT_FIELD_LIST), a, 1,
	    MAX_FORM_FIELDS, "repo_forms_get_by_id", &t)) != 0)
		goto out;
	if (t.count > 0 && (out->fields = arena_zalloc(a, t.count *
	    sizeof(*out->fields))) == NULL) {
		r = -REPO_ERR_INTERNAL;
		goto out;
	}
	for (i = 0; i < t.count; i++)
		if (db_text_str(&t, i, 0) != NULL)
			out->fields[out->nfields++] = db_text_str(&t, i, 0);
	r = 0;
out:
	return r;
}

struct form_insert {
	const char		*name;
	int32_t			 program_id;
	const char *const	*fields;
	size_t			 nfields;
	int32_t			 id;
	struct repo_missing	*miss;
};

static int
form_insert_tx(struct db *db, void *arg)
{
	struct form_insert *f = arg;
	MYSQL_BIND in[2];
	unsigned long len;
	char canon[LF_NAME_BYTES * 4 + 1];
	size_t i;
	int r;

	memset(f->miss, 0, sizeof(*f->miss));
	if (f->program_id != 0) {
		r = repo_programs_lock(db, f->program_id);
		if (r == -REPO_ERR_NOT_FOUND) {
			f->miss->what = REPO_WHAT_PROGRAM;
			f->miss->id = f->program_id;
		}
		if (r != 0)
			return r;
	}
	len = strlen(f->name);
	bind_str(&in[0], f->name, &len);
	if (f->program_id != 0)
		bind_i32(&in[1], &f->program_id);
	else
		bind_null(&in[1]);
	if ((r = db_exec(db, stmt(db, FORMS_STMT_INSERT), in,
	    "repo_forms_insert")) != 0)
		return r;
	f->id = (int32_t)mysql_stmt_insert_id(stmt(db, FORMS_STMT_INSERT));
	for (i = 0; i < f->nfields; i++) {
		len = strlen(f->fields[i]);
		bind_str(&in[0], f->fields[i], &len);
		r = db_query_str(db, stmt(db, FORMS_STMT_FIELD_GET_BY_NAME), in,
		    canon, sizeof(canon), "repo_forms_insert");
		if (r == -REPO_ERR_NOT_FOUND) {
			f->miss->what = REPO_WHAT_FIELD;
			f->miss->index = i;
		}
		if (r != 0)
			return r;
		len = strlen(canon);
		bind_i32(&in[0], &f->id);
		bind_str(&in[1], canon, &len);
		if ((r = db_exec(db, stmt(db, FORMS_STMT_FIELD_INSERT), in,
		    "repo_forms_insert")) != 0)
			return r;
	}
	return 0;
}

/* See repo_forms.h. */
int
repo_forms_insert(struct db *db, const char *name,
    int32_t program_id, const char *const *fields, size_t nfields,
    int32_t *id, struct repo_missing *miss)
{
	struct form_insert f = { name, program_id, fields, nfields, 0, miss };
	int r;

	*id = 0;
	memset(miss, 0, sizeof(*miss));
	if (nfields > MAX_FORM_FIELDS)
		return -REPO_ERR_INVALID;
	if ((r = db_run_tx(db, form_insert_tx, &f, false)) == 0)
		*id = f.id;
	return r;
}

/* See repo_forms.h. */
int
repo_forms_in_program(struct db *db, struct arena *a, int32_t program,
    struct repo_named **out, size_t *n)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &program);
	return repo_named_select(db, stmt(db, FORMS_STMT_IN_PROGRAM), in, a,
	    100000, out, n, "repo_forms_in_program");
}

/* See repo_forms.h. */
int
repo_forms_copy_in_tx(struct db *db, int32_t from, const char *name,
    int32_t program, int32_t *id)
{
	MYSQL_BIND in[3];
	unsigned long len = strlen(name);
	uint64_t rows = 0;
	int r;

	*id = 0;
	bind_str(&in[0], name, &len);
	bind_i32(&in[1], &program);
	bind_i32(&in[2], &from);
	if ((r = db_exec_n(db, stmt(db, FORMS_STMT_COPY), in, &rows,
	    "repo_forms_copy_in_tx")) != 0)
		return r;
	if (rows == 0)
		return -REPO_ERR_NOT_FOUND;
	*id = (int32_t)mysql_stmt_insert_id(stmt(db, FORMS_STMT_COPY));
	bind_i32(&in[0], id);
	bind_i32(&in[1], &from);
	return db_exec(db, stmt(db, FORMS_STMT_COPY_FIELDS), in,
	    "repo_forms_copy_in_tx");
}

/* See repo_forms.h. */
int
repo_forms_program_blocker(struct db *db, int32_t program, int32_t *id)
{
	return repo_program_first_id(db, stmt(db,
	    FORMS_STMT_PROGRAM_USED_OUTSIDE), program, 2, id,
	    "repo_forms_program_blocker");
}

/* See repo_forms.h. */
int
repo_forms_delete_in_program(struct db *db, int32_t program)
{
	return repo_program_exec(db, stmt(db, FORMS_STMT_DELETE_IN_PROGRAM),
	    program, "repo_forms_delete_in_program");
}
