/*
 * What the lead store's files (repo_leads.c, the reads and deletes;
 * repo_leads_sync.c, the upsert) share to build their statements: lead
 * columns named from the field catalogue (model/leadfield.h), back-quoted,
 * and a lead value bound as its column wants it.  The statements are
 * built and run through db/params.h.
 */
#ifndef MAUTO_REPO_REPO_LEAD_SQL_H
#define MAUTO_REPO_REPO_LEAD_SQL_H

#include <stdbool.h>
#include <stddef.h>

#include <mysql.h>

#include "model/leadfield.h"

struct buf;
struct params;

/* The longest SQL text built for leads (300 rows of every column fit). */
#define LEAD_SQL_MAX_BYTES	(8 * 1024 * 1024)

/*
 * Appends `name` to b after prefix (a table alias and '.', or ""); false
 * when the name could break out of its quotes.  Names come only from the
 * catalogue, whose creation allows letters, digits and '_'.
 */
bool	repo_lead_sql_ident(struct buf *b, const char *prefix,
	    const char *name);

/* Appends ", `c1`, `c2`" for the columns; false as repo_lead_sql_ident. */
bool	repo_lead_sql_cols(struct buf *b, const char *prefix,
	    const struct lead_field *const *cols, size_t ncols);

/*
 * Binds v, a value of field f (NULL: none), to b; len keeps a string's
 * length until execute.  An absent or null value is SQL NULL, but false
 * for a boolean field (the columns are NOT NULL); v must live until
 * execute.  Lead and custom object values alike.
 */
void	repo_lead_sql_bind(MYSQL_BIND *b, const struct lead_field *f,
	    const struct lead_value *v, unsigned long *len);

/*
 * Binds v, a value of field f (NULL: none), as the next parameter of p.
 * An absent or null boolean is false (the columns are NOT NULL); v must
 * live until execute.
 */
void	repo_lead_sql_value(struct params *p, const struct lead_field *f,
	    const struct lead_value *v);

#endif
