/*
 * Lead columns and values in built statements (repo_lead_sql.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/params.h"
#include "model/leadfield.h"
#include "repo/repo_lead_sql.h"
#include "util/buf.h"

static const int64_t zero64 = 0;

/* See repo_lead_sql.h. */
bool
repo_lead_sql_ident(struct buf *b, const char *prefix, const char *name)
{
	if (name == NULL || name[0] == '\0' || strchr(name, '`') != NULL)
		return false;
	buf_adds(b, prefix);
	buf_addc(b, '`');
	buf_adds(b, name);
	buf_addc(b, '`');
	return true;
}

/* See repo_lead_sql.h. */
bool
repo_lead_sql_cols(struct buf *b, const char *prefix,
    const struct lead_field *const *cols, size_t ncols)
{
	size_t i;

	for (i = 0; i < ncols; i++) {
		buf_adds(b, ", ");
		if (!repo_lead_sql_ident(b, prefix, cols[i]->name))
			return false;
	}
	return true;
}

/* See repo_lead_sql.h. */
void
repo_lead_sql_bind(MYSQL_BIND *b, const struct lead_field *f,
    const struct lead_value *v, unsigned long *len)
{
	switch (v->kind) {
	case LV_STR:
		*len = (unsigned long)v->len;
		bind_str(b, v->s, len);
		break;
	case LV_INT:
	case LV_BOOL:
		bind_i64(b, &v->i);
		break;
	case LV_DBL:
		memset(b, 0, sizeof(*b));
		b->buffer_type = MYSQL_TYPE_DOUBLE;
		b->buffer = (void *)(uintptr_t)&v->d;
		break;
	default:
		if (f != NULL && f->type == LF_BOOLEAN)
			bind_i64(b, &zero64);
		else
			bind_null(b);
		break;
	}
}

/* See repo_lead_sql.h. */
void
repo_lead_sql_value(struct params *p, const struct lead_field *f,
    const struct lead_value *v)
{
	size_t k;
	MYSQL_BIND *b = params_next(p, &k);

	repo_lead_sql_bind(b, f, v, &p->len[k]);
}
