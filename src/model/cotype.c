/*
 * Custom object types: names, rules shared by the handlers and the
 * repository, and typed record values (cotype.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>
#include <sodium.h>

#include "model/cotype.h"
#include "model/leadfield.h"
#include "util/xmalloc.h"

static const char *const dtype_names[CO_DTYPE__MAX] = {
	[CO_STRING] = "string",
	[CO_TEXT] = "text",
	[CO_INTEGER] = "integer",
	[CO_FLOAT] = "float",
	[CO_CURRENCY] = "currency",
	[CO_BOOLEAN] = "boolean",
	[CO_DATE] = "date",
	[CO_DATETIME] = "datetime",
	[CO_EMAIL] = "email",
	[CO_PHONE] = "phone",
	[CO_LINK] = "link",
};

/*
 * The words MariaDB 10.11 refuses as an unquoted column name (each of
 * information_schema.KEYWORDS tried in CREATE TABLE), plus DATABASE and
 * SCHEMA (which also keeps /rest/v1/customobjects/schema.json, the types
 * API, from naming a type).  Names are back-quoted in every statement anyway; refusing
 * these keeps API names usable by any client's SQL and in exports.
 */
static const char *const reserved[] = {
	"ACCESSIBLE", "ADD", "ALL", "ALTER", "ANALYZE", "AND", "AS",
	"ASC", "ASENSITIVE", "BEFORE", "BETWEEN", "BIGINT", "BINARY",
	"BLOB", "BOTH", "BY", "CALL", "CASCADE", "CASE", "CHANGE",
	"CHAR", "CHARACTER", "CHECK", "COLLATE", "COLUMN", "CONDITION",
	"CONSTRAINT", "CONTINUE", "CONVERT", "CREATE", "CROSS",
	"CURRENT_DATE", "CURRENT_ROLE", "CURRENT_TIME",
	"CURRENT_TIMESTAMP", "CURRENT_USER", "CURSOR", "DATABASE",
	"DATABASES", "DAY_HOUR", "DAY_MICROSECOND", "DAY_MINUTE",
	"DAY_SECOND", "DEC", "DECIMAL", "DECLARE", "DEFAULT",
	"DELAYED", "DELETE", "DELETE_DOMAIN_ID", "DESC", "DESCRIBE",
	"DETERMINISTIC", "DISTINCT", "DISTINCTROW", "DIV", "DOUBLE",
	"DO_DOMAIN_IDS", "DROP", "DUAL", "EACH", "ELSE", "ELSEIF",
	"ENCLOSED", "ESCAPED", "EXCEPT", "EXISTS", "EXIT", "EXPLAIN",
	"FALSE", "FETCH", "FLOAT", "FLOAT4", "FLOAT8", "FOR", "FORCE",
	"FOREIGN", "FROM", "FULLTEXT", "GRANT", "GROUP", "HAVING",
	"HIGH_PRIORITY", "HOUR_MICROSECOND", "HOUR_MINUTE",
	"HOUR_SECOND", "IF", "IGNORE", "IGNORE_DOMAIN_IDS", "IN",
	"INDEX", "INFILE", "INNER", "INOUT", "INSENSITIVE", "INSERT",
	"INT", "INT1", "INT2", "INT3", "INT4", "INT8", "INTEGER",
	"INTERSECT", "INTERVAL", "INTO", "IS", "ITERATE", "JOIN",
	"KEY", "KEYS", "KILL", "LEADING", "LEAVE", "LEFT", "LIKE",
	"LIMIT", "LINEAR", "LINES", "LOAD", "LOCALTIME",
	"LOCALTIMESTAMP", "LOCK", "LONG", "LONGBLOB", "LONGTEXT",
	"LOOP", "LOW_PRIORITY", "MASTER_DEMOTE_TO_REPLICA",
	"MASTER_DEMOTE_TO_SLAVE", "MASTER_SSL_VERIFY_SERVER_CERT",
	"MATCH", "MAXVALUE", "MEDIUMBLOB", "MEDIUMINT", "MEDIUMTEXT",
	"MIDDLEINT", "MINUTE_MICROSECOND", "MINUTE_SECOND", "MOD",
	"MODIFIES", "NATURAL", "NOT", "NO_WRITE_TO_BINLOG", "NULL",
	"NUMERIC", "OFFSET", "ON", "OPTIMIZE", "OPTIONALLY", "OR",
	"ORDER", "OUT", "OUTER", "OUTFILE", "OVER", "PAGE_CHECKSUM",
	"PARSE_VCOL_EXPR", "PARTITION", "PORTION", "PRECISION",
	"PRIMARY", "PROCEDURE", "PURGE", "RANGE", "READ", "READS",
	"READ_WRITE", "REAL", "RECURSIVE", "REFERENCES",
	"REF_SYSTEM_ID", "REGEXP", "RELEASE", "RENAME", "REPEAT",
	"REPLACE", "REQUIRE", "RESIGNAL", "RESTRICT", "RETURN",
	"RETURNING", "REVOKE", "RIGHT", "RLIKE", "ROWS", "ROW_NUMBER",
	"SCHEMA", "SCHEMAS", "SECOND_MICROSECOND", "SELECT",
	"SENSITIVE", "SEPARATOR", "SET", "SHOW", "SIGNAL", "SMALLINT",
	"SPATIAL", "SPECIFIC", "SQL", "SQLEXCEPTION", "SQLSTATE",
	"SQLWARNING", "SQL_BIG_RESULT", "SQL_CALC_FOUND_ROWS",
	"SQL_SMALL_RESULT", "SSL", "STARTING", "STATS_AUTO_RECALC",
	"STATS_PERSISTENT", "STATS_SAMPLE_PAGES", "STRAIGHT_JOIN",
	"TABLE", "TERMINATED", "THEN", "TINYBLOB", "TINYINT",
	"TINYTEXT", "TO", "TRAILING", "TRIGGER", "TRUE", "UNDO",
	"UNION", "UNIQUE", "UNLOCK", "UNSIGNED", "UPDATE", "USAGE",
	"USE", "USING", "UTC_DATE", "UTC_TIME", "UTC_TIMESTAMP",
	"VALUES", "VARBINARY", "VARCHAR", "VARCHARACTER", "VARYING",
	"WHEN", "WHERE", "WHILE", "WITH", "WRITE", "XOR", "YEAR_MONTH",
	"ZEROFILL",
};

/* Fields every record has, and names the API uses beside fields. */
static const char *const system_fields[] = {
	"id", "marketoGUID", "createdAt", "updatedAt", "seq", "idField",
	"dedupeFields",
};

/* See cotype.h. */
const char *
co_dtype_name(enum co_dtype t)
{
	if ((unsigned)t >= CO_DTYPE__MAX)
		return "string";
	return dtype_names[t];
}

/* See cotype.h. */
int
co_dtype_parse(const char *name, enum co_dtype *out)
{
	size_t i;

	if (name == NULL)
		return -1;
	for (i = 0; i < CO_DTYPE__MAX; i++)
		if (strcmp(dtype_names[i], name) == 0) {
			*out = (enum co_dtype)i;
			return 0;
		}
	return -1;
}

/* See cotype.h. */
const char *
co_state_name(bool approved, bool has_draft)
{
	if (!approved)
		return "draft";
	return has_draft ? "approvedWithDraft" : "approved";
}

/* See cotype.h. */
void
co_field_clear(struct co_field *f)
{
	if (f == NULL)
		return;
	free(f->name);
	free(f->display_name);
	free(f->description);
	free(f->related_object);
	free(f->related_field);
	memset(f, 0, sizeof(*f));
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/* See cotype.h. */
void
co_field_copy(struct co_field *dst, const struct co_field *src)
{
	*dst = *src;
	dst->name = dup_or_null(src->name);
	dst->display_name = dup_or_null(src->display_name);
	dst->description = dup_or_null(src->description);
	dst->related_object = dup_or_null(src->related_object);
	dst->related_field = dup_or_null(src->related_field);
}

/* See cotype.h. */
void
co_type_clear(struct co_type *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nfields; i++)
		co_field_clear(&t->fields[i]);
	free(t->fields);
	free(t->api_name);
	free(t->display_name);
	free(t->plural_name);
	free(t->description);
	free(t->state);
	memset(t, 0, sizeof(*t));
}

/* See cotype.h. */
const struct co_field *
co_type_field(const struct co_type *t, const char *name)
{
	size_t i;

	if (t == NULL || name == NULL)
		return NULL;
	for (i = 0; i < t->nfields; i++)
		if (strcasecmp(t->fields[i].name, name) == 0)
			return &t->fields[i];
	return NULL;
}

/* See cotype.h. */
size_t
co_type_ndedupe(const struct co_type *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nfields; i++)
		if (t->fields[i].is_dedupe)
			n++;
	return n;
}

/* See cotype.h. */
size_t
co_type_nnew(const struct co_type *d, const struct co_type *appr)
{
	size_t i, n = 0;

	for (i = 0; i < d->nfields; i++)
		if (appr == NULL ||
		    co_type_field(appr, d->fields[i].name) == NULL)
			n++;
	return n;
}

/* See cotype.h. */
bool
co_type_has_link(const struct co_type *t)
{
	size_t i;

	for (i = 0; i < t->nfields; i++)
		if (t->fields[i].is_link)
			return true;
	return false;
}

/* See cotype.h. */
bool
co_is_reserved(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (strcasecmp(reserved[i], word) == 0)
			return true;
	return false;
}

/* See cotype.h. */
bool
co_is_system_field(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(system_fields) / sizeof(system_fields[0]); i++)
		if (strcasecmp(system_fields[i], name) == 0)
			return true;
	return false;
}

/* See cotype.h. */
const char *
co_name_check(const char *what, const char *name, char *buf, size_t size)
{
	char shown[64];
	size_t i, n;

	if (name == NULL || name[0] == '\0') {
		snprintf(buf, size, "%s cannot be blank", what);
		return buf;
	}
	n = strlen(name);
	/* Show at most 40 bytes of a hostile name, escaped below. */
	for (i = 0; i < n && i < 40; i++)
		shown[i] = isprint((unsigned char)name[i]) ? name[i] : '?';
	shown[i] = '\0';
	if (n > 40)
		memcpy(shown + 40, "...", 4);
	if (n > CO_NAME_MAX) {
		snprintf(buf, size, "Invalid %s '%s': longer than %d "
		    "characters", what, shown, CO_NAME_MAX);
		return buf;
	}
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)name[i];

		if ((i == 0 && !isalpha(ch)) || (ch >= 0x80) ||
		    (!isalnum(ch) && ch != '_')) {
			snprintf(buf, size, "Invalid %s '%s': must start "
			    "with a letter and hold only letters, digits and "
			    "'_'", what, shown);
			return buf;
		}
	}
	if (co_is_reserved(name)) {
		snprintf(buf, size, "Invalid %s '%s': an SQL reserved word",
		    what, shown);
		return buf;
	}
	return NULL;
}

/* See cotype.h. */
const char *
co_column_type(const struct co_field *f)
{
	enum co_dtype t = f->type == CO_LINK ? f->key_type : f->type;

	switch (t) {
	case CO_STRING:
		return f->is_dedupe || f->is_link ? "VARCHAR(255)" : "TEXT";
	case CO_TEXT:
		return "MEDIUMTEXT";
	case CO_INTEGER:
		return "INT";
	case CO_FLOAT:
	case CO_CURRENCY:
		return "DOUBLE";
	case CO_BOOLEAN:
		return "TINYINT(1)";
	case CO_DATE:
		return "DATE";
	case CO_DATETIME:
		return "DATETIME";
	case CO_EMAIL:
	case CO_PHONE:
		return "VARCHAR(255)";
	default:
		return "TEXT";
	}
}

/* See cotype.h. */
void
co_field_as_lead(const struct co_field *f, struct lead_field *lf)
{
	static const enum lf_type map[CO_DTYPE__MAX] = {
		[CO_STRING] = LF_STRING,
		[CO_TEXT] = LF_TEXT,
		[CO_INTEGER] = LF_INTEGER,
		[CO_FLOAT] = LF_FLOAT,
		[CO_CURRENCY] = LF_CURRENCY,
		[CO_BOOLEAN] = LF_BOOLEAN,
		[CO_DATE] = LF_DATE,
		[CO_DATETIME] = LF_DATETIME,
		[CO_EMAIL] = LF_EMAIL,
		[CO_PHONE] = LF_PHONE,
		[CO_LINK] = LF_INTEGER,
	};
	enum co_dtype t = f->type == CO_LINK ? f->key_type : f->type;

	memset(lf, 0, sizeof(*lf));
	lf->name = f->name;
	lf->display_name = f->display_name;
	lf->type = (unsigned)t < CO_DTYPE__MAX && t != CO_LINK ? map[t] :
	    LF_INTEGER;
	lf->length = CO_STRING_LENGTH;
}

/* See cotype.h. */
int
co_value_parse(const struct co_field *f, struct json_object *in,
    struct arena *a, struct lead_value *out)
{
	struct lead_field lf;

	co_field_as_lead(f, &lf);
	return lead_value_parse(&lf, in, a, out);
}

/* See cotype.h. */
void
co_guid_new(char out[CO_GUID_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[16];
	size_t i, j;

	/* Idempotent; randombytes works (from /dev/urandom) either way. */
	if (sodium_init() < 0)
		memset(b, 0, sizeof(b));
	randombytes_buf(b, sizeof(b));
	b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);	/* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);	/* RFC 4122 variant */
	for (i = 0, j = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[j++] = '-';
		out[j++] = hex[b[i] >> 4];
		out[j++] = hex[b[i] & 0x0F];
	}
	out[j] = '\0';
}

/* See cotype.h. */
bool
co_guid_valid(const char *s, size_t n)
{
	size_t i;

	if (s == NULL || n != CO_GUID_LEN)
		return false;
	for (i = 0; i < n; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return false;
		} else if (!isxdigit((unsigned char)s[i]))
			return false;
	}
	return true;
}

/* ---- Rules of type changes (docs/behaviour.md §6.1) ----------------- */

/* Whether a field of type t may be a dedupe field (it gets indexed). */
static bool
dedupe_type_ok(const struct co_field *f)
{
	enum co_dtype t = f->type == CO_LINK ? f->key_type : f->type;

	switch (t) {
	case CO_STRING:
	case CO_EMAIL:
	case CO_PHONE:
	case CO_INTEGER:
	case CO_DATE:
	case CO_DATETIME:
		return true;
	default:
		return false;
	}
}

/* Checks the dedupe type and count of draft d after a change to f. */
static int
check_dedupe(const struct co_type *d, const struct co_field *f, char *msg,
    size_t n)
{
	if (!f->is_dedupe)
		return CO_RULE_OK;
	if (!dedupe_type_ok(f)) {
		snprintf(msg, n, "Field '%s' of type '%s' cannot be a dedupe "
		    "field", f->name, co_dtype_name(f->type));
		return CO_RULE_REFUSED;
	}
	if (co_type_ndedupe(d) > CO_MAX_DEDUPE) {
		snprintf(msg, n, "A custom object type has at most %d dedupe "
		    "fields", CO_MAX_DEDUPE);
		return CO_RULE_REFUSED;
	}
	return CO_RULE_OK;
}

/* Whether two link targets are the same (no case). */
static bool
same_link(const struct co_field *a, const struct co_field *b)
{
	if (a->is_link != b->is_link)
		return false;
	if (!a->is_link)
		return true;
	return a->related_object != NULL && b->related_object != NULL &&
	    a->related_field != NULL && b->related_field != NULL &&
	    strcasecmp(a->related_object, b->related_object) == 0 &&
	    strcasecmp(a->related_field, b->related_field) == 0;
}

/* See cotype.h. */
int
co_rule_add_field(struct co_type *d, const struct co_type *appr,
    const struct co_field *nf, char *msg, size_t n)
{
	const struct co_field *old;
	int r;

	if (co_type_field(d, nf->name) != NULL) {
		snprintf(msg, n, "Field '%s' already exists", nf->name);
		return CO_RULE_REFUSED;
	}
	if (d->nfields >= CO_MAX_FIELDS) {
		snprintf(msg, n, "A custom object type has at most %d fields",
		    CO_MAX_FIELDS);
		return CO_RULE_REFUSED;
	}
	if (appr != NULL) {
		if ((size_t)appr->added + co_type_nnew(d, appr) >=
		    CO_MAX_ADDED) {
			snprintf(msg, n, "At most %d fields can be added to a "
			    "custom object type after its approval",
			    CO_MAX_ADDED);
			return CO_RULE_REFUSED;
		}
		if (nf->is_dedupe) {
			snprintf(msg, n, "Dedupe fields cannot be added to an "
			    "approved custom object type");
			return CO_RULE_REFUSED;
		}
		if (nf->is_link) {
			snprintf(msg, n, "Link fields cannot be added to an "
			    "approved custom object type");
			return CO_RULE_REFUSED;
		}
		old = co_type_field(appr, nf->name);
		if (old != NULL && (old->type != nf->type || old->is_dedupe ||
		    old->is_link)) {
			snprintf(msg, n, "Field '%s' was approved as '%s'; "
			    "approve its deletion before adding it again with "
			    "another type", nf->name, co_dtype_name(old->type));
			return CO_RULE_REFUSED;
		}
	}
	d->fields = xrealloc(d->fields, (d->nfields + 1) * sizeof(*d->fields));
	co_field_copy(&d->fields[d->nfields], nf);
	d->fields[d->nfields].pos = (int32_t)d->nfields;
	d->nfields++;
	r = check_dedupe(d, &d->fields[d->nfields - 1], msg, n);
	if (r != CO_RULE_OK) {
		co_field_clear(&d->fields[--d->nfields]);
		return r;
	}
	return CO_RULE_OK;
}

/* See cotype.h. */
int
co_rule_update_field(struct co_type *d, const struct co_type *appr,
    const char *name, const struct co_field *upd, unsigned mask, char *msg,
    size_t n)
{
	struct co_field *f = NULL, nf;
	const struct co_field *old = NULL;
	size_t i;
	int r;

	for (i = 0; i < d->nfields; i++)
		if (strcasecmp(d->fields[i].name, name) == 0)
			f = &d->fields[i];
	if (f == NULL) {
		snprintf(msg, n, "Field '%s' not found", name);
		return CO_RULE_NO_FIELD;
	}
	co_field_copy(&nf, f);
	if (mask & CO_UPD_NAME) {
		free(nf.name);
		nf.name = xstrdup(upd->name);
	}
	if (mask & CO_UPD_DISPLAY) {
		free(nf.display_name);
		nf.display_name = xstrdup(upd->display_name);
	}
	if (mask & CO_UPD_DESCRIPTION) {
		free(nf.description);
		nf.description = upd->description != NULL ?
		    xstrdup(upd->description) : NULL;
	}
	if (mask & CO_UPD_TYPE)
		nf.type = upd->type;
	if (mask & CO_UPD_DEDUPE)
		nf.is_dedupe = upd->is_dedupe;
	if (mask & CO_UPD_LINK) {
		free(nf.related_object);
		free(nf.related_field);
		nf.related_object = upd->related_object != NULL ?
		    xstrdup(upd->related_object) : NULL;
		nf.related_field = upd->related_field != NULL ?
		    xstrdup(upd->related_field) : NULL;
		nf.key_type = upd->key_type;
	}
	nf.is_link = nf.type == CO_LINK;
	if (nf.is_link && nf.related_object == NULL) {
		snprintf(msg, n, "Link field '%s' needs relatedTo", nf.name);
		r = CO_RULE_REFUSED;
		goto out;
	}
	if (!nf.is_link && (mask & CO_UPD_LINK) &&
	    upd->related_object != NULL) {
		snprintf(msg, n, "relatedTo is only for fields of type 'link'");
		r = CO_RULE_REFUSED;
		goto out;
	}
	if (!nf.is_link) {
		free(nf.related_object);
		free(nf.related_field);
		nf.related_object = nf.related_field = NULL;
	}
	if (strcasecmp(nf.name, f->name) != 0 &&
	    co_type_field(d, nf.name) != NULL) {
		snprintf(msg, n, "Field '%s' already exists", nf.name);
		r = CO_RULE_REFUSED;
		goto out;
	}
	if (appr != NULL)
		old = co_type_field(appr, f->name);
	if (old != NULL) {
		/* An approved field keeps its name, type, key and link. */
		if (strcmp(nf.name, f->name) != 0) {
			snprintf(msg, n, "Approved field '%s' cannot be "
			    "renamed", f->name);
			r = CO_RULE_REFUSED;
			goto out;
		}
		if (nf.type != old->type) {
			snprintf(msg, n, "The dataType of approved field '%s' "
			    "cannot be changed", f->name);
			r = CO_RULE_REFUSED;
			goto out;
		}
		if (nf.is_dedupe != old->is_dedupe) {
			snprintf(msg, n, "Dedupe fields of an approved custom "
			    "object type cannot be changed");
			r = CO_RULE_REFUSED;
			goto out;
		}
		if (!same_link(&nf, old)) {
			snprintf(msg, n, "Link fields of an approved custom "
			    "object type cannot be changed");
			r = CO_RULE_REFUSED;
			goto out;
		}
	} else if (appr != NULL && (nf.is_dedupe || nf.is_link)) {
		snprintf(msg, n, "%s fields cannot be added to an approved "
		    "custom object type", nf.is_dedupe ? "Dedupe" : "Link");
		r = CO_RULE_REFUSED;
		goto out;
	}
	co_field_clear(f);
	*f = nf;
	memset(&nf, 0, sizeof(nf));
	r = check_dedupe(d, f, msg, n);
out:
	co_field_clear(&nf);
	return r;
}

/* See cotype.h. */
int
co_rule_delete_field(struct co_type *d, const struct co_type *appr,
    const char *name, char *msg, size_t n)
{
	const struct co_field *old = NULL;
	size_t i;

	for (i = 0; i < d->nfields; i++)
		if (strcasecmp(d->fields[i].name, name) == 0)
			break;
	if (i == d->nfields) {
		snprintf(msg, n, "Field '%s' not found", name);
		return CO_RULE_NO_FIELD;
	}
	if (appr != NULL)
		old = co_type_field(appr, name);
	if (old != NULL && (old->is_dedupe || old->is_link)) {
		snprintf(msg, n, "%s fields of an approved custom object type "
		    "cannot be deleted", old->is_dedupe ? "Dedupe" : "Link");
		return CO_RULE_REFUSED;
	}
	co_field_clear(&d->fields[i]);
	memmove(&d->fields[i], &d->fields[i + 1],
	    (d->nfields - i - 1) * sizeof(*d->fields));
	d->nfields--;
	return CO_RULE_OK;
}

/* See cotype.h. */
int
co_rule_approvable(const struct co_type *d, const struct co_type *appr,
    char *msg, size_t n)
{
	const struct co_field *f, *old;
	size_t i, nd = co_type_ndedupe(d);

	if (nd < 1 || nd > CO_MAX_DEDUPE) {
		snprintf(msg, n, "A custom object type needs 1 to %d dedupe "
		    "fields to be approved (it has %zu)", CO_MAX_DEDUPE, nd);
		return CO_RULE_REFUSED;
	}
	if (d->nfields > CO_MAX_FIELDS) {
		snprintf(msg, n, "A custom object type has at most %d fields",
		    CO_MAX_FIELDS);
		return CO_RULE_REFUSED;
	}
	if (appr == NULL)
		return CO_RULE_OK;
	if ((size_t)appr->added + co_type_nnew(d, appr) > CO_MAX_ADDED) {
		snprintf(msg, n, "At most %d fields can be added to a custom "
		    "object type after its approval", CO_MAX_ADDED);
		return CO_RULE_REFUSED;
	}
	/* The key and the links of the records cannot move (§6.1). */
	for (i = 0; i < d->nfields; i++) {
		f = &d->fields[i];
		old = co_type_field(appr, f->name);
		if ((f->is_dedupe || f->is_link) && (old == NULL ||
		    old->is_dedupe != f->is_dedupe || !same_link(f, old))) {
			snprintf(msg, n, "Dedupe and link fields of an "
			    "approved custom object type cannot be changed "
			    "('%s')", f->name);
			return CO_RULE_REFUSED;
		}
	}
	for (i = 0; i < appr->nfields; i++) {
		old = &appr->fields[i];
		f = co_type_field(d, old->name);
		if ((old->is_dedupe || old->is_link) && f == NULL) {
			snprintf(msg, n, "Dedupe and link fields of an "
			    "approved custom object type cannot be deleted "
			    "('%s')", old->name);
			return CO_RULE_REFUSED;
		}
	}
	return CO_RULE_OK;
}
