/*
 * Reading the lead field catalogue (migration 0004 lead_field,
 * lead_schema).  Changes to the catalogue are in repo_lead_schema.c.
 */
#ifndef MAUTO_REPO_REPO_LEAD_FIELDS_H
#define MAUTO_REPO_REPO_LEAD_FIELDS_H

#include <stdint.h>

struct db;
struct lead_schema;

/* The catalogue version (lead_schema.version) into *out. */
int	repo_lead_fields_version(struct db *db, int64_t *out);

/*
 * Loads every row of lead_field into out (cleared first; indexed with
 * lead_schema_index) together with the version read in the same
 * transaction.  Returns 0, or a negative repo_err with out empty.  The
 * caller owns out (lead_schema_clear).
 */
int	repo_lead_fields_load(struct db *db, struct lead_schema *out);

#endif
