/*
 * Changes to the lead field schema (Create and Update Lead Field,
 * docs/behaviour.md §5.12): a custom field is a real typed column of the
 * lead table plus its lead_field row; every change bumps
 * lead_schema.version so each worker reloads its catalogue.  Reading the
 * catalogue is repo_lead_fields.h.
 *
 * The name and display-name checks are pure functions, exported so the
 * handlers give precise messages and the unit tests can reach them; the
 * repository runs them again before it builds any DDL.
 */
#ifndef MAUTO_REPO_REPO_LEAD_SCHEMA_H
#define MAUTO_REPO_REPO_LEAD_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include "model/leadfield.h"

struct db;

/* Why a field name is refused (repo_lead_schema_name_check). */
enum lf_name_err {
	LF_NAME_OK = 0,
	LF_NAME_EMPTY,
	LF_NAME_TOO_LONG,	/* more than MAX_FIELD_NAME_CHARS */
	LF_NAME_FIRST,		/* does not start with an ASCII letter */
	LF_NAME_CHARS,		/* other than ASCII letters, digits, '_' */
	LF_NAME_RESERVED,	/* a MariaDB reserved word */
	LF_NAME_ERR__MAX
};

/*
 * Checks a new field's API name (len bytes at name, which need not be
 * NUL-terminated): 1..MAX_FIELD_NAME_CHARS characters, an ASCII letter
 * first, then ASCII letters, digits and underscores, and not a reserved
 * word of MariaDB (in any case).  Only names that pass are ever pasted
 * into DDL.  Returns LF_NAME_OK or the reason.
 */
enum lf_name_err repo_lead_schema_name_check(const char *name, size_t len);

/* A sentence for a name check result ("must start with a letter"). */
const char	*repo_lead_schema_name_reason(enum lf_name_err e);

/*
 * Checks a display name (len bytes of valid UTF-8): 1..LF_DISPLAY_BYTES
 * characters, not only white space, no control characters and none of
 * < > " ' ` \ ;.  Returns NULL when it is good, else a static sentence
 * saying what is wrong.
 */
const char	*repo_lead_schema_display_check(const char *s, size_t len);

/*
 * Checks a description (len bytes of valid UTF-8): at most
 * LF_DESCRIPTION_BYTES characters and no NUL.  NULL when good, else a
 * static sentence.
 */
const char	*repo_lead_schema_description_check(const char *s, size_t len);

/* Whether a custom field of type t is searchable (a valid filterType). */
bool		 repo_lead_schema_is_searchable(enum lf_type t);

/* Whether Create Lead Fields accepts type t (no text, reference...). */
bool		 repo_lead_schema_type_creatable(enum lf_type t);

/* A new custom field.  Strings are borrowed. */
struct lead_field_new {
	const char	*name;
	const char	*display_name;
	enum lf_type	 type;
	const char	*description;	/* NULL: none */
	bool		 is_hidden;
	bool		 is_html_encoding;
	bool		 is_sensitive;
};

/* Which existing field a create or update collided with. */
enum lf_conflict {
	LF_CONFLICT_NONE = 0,
	LF_CONFLICT_NAME,	/* a field (or column) of that name exists */
	LF_CONFLICT_DISPLAY,	/* a field has that display name */
	LF_CONFLICT__MAX
};

/*
 * Creates custom field f: checks it again (bad name, display name,
 * type or description: -REPO_ERR_INVALID), refuses a name or display
 * name in use without regard to case (-REPO_ERR_CONFLICT and *conflict
 * says which), adds the typed column to lead with one ALTER TABLE
 * (indexed when searchable and the table has fewer than
 * MAX_LEAD_INDEXES indexes), then inserts the lead_field row and bumps
 * lead_schema.version in one transaction.  A column left without its row
 * (a crash or lost connection between the two steps, or a concurrent
 * create of the same name) is adopted when its type is the one asked
 * for, so a retry completes the field; two concurrent creates of one
 * name leave one column and one row, and the loser gets a conflict.
 * The lead table being full (columns or row size) is -REPO_ERR_INVALID
 * with *conflict LF_CONFLICT_NONE and *full true.  Must not be called
 * inside a transaction (DDL commits).  Returns 0 or a negative repo_err.
 */
int	repo_lead_schema_insert(struct db *db, const struct lead_field_new *f,
	    enum lf_conflict *conflict, bool *full);

/* What an update changes; each set_* says whether to write the value. */
struct lead_field_change {
	bool		 set_display_name;
	const char	*display_name;
	bool		 set_description;
	const char	*description;		/* NULL writes NULL */
	bool		 set_hidden;
	bool		 is_hidden;
	bool		 set_html_encoding;
	bool		 is_html_encoding;
	bool		 set_sensitive;
	bool		 is_sensitive;
};

/*
 * Applies ch to the field named name (no case) and bumps
 * lead_schema.version, in one transaction.  The caller has applied the
 * update rules (which attributes a standard or custom field may change).
 * Returns 0, -REPO_ERR_NOT_FOUND, -REPO_ERR_CONFLICT (display name in use
 * by another field), -REPO_ERR_INVALID (display name or description
 * refused by the checks above), or another negative repo_err.
 */
int	repo_lead_schema_update(struct db *db, const char *name,
	    const struct lead_field_change *ch);

#endif
