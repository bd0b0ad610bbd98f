/*
 * The lead field catalogue and lead values (docs/behaviour.md §5.1, §5.12).
 * Pure code: no SQL, no HTTP.  The catalogue is the rows of lead_field
 * (standard fields from db/migrations/0004_leads.sql, custom fields added
 * by Create Lead Fields); each field is a column of the lead table named
 * by its REST name.  A worker keeps one loaded catalogue (struct
 * lead_schema) and reloads it when lead_schema.version moves
 * (repo_lead_fields_load, api_leads_catalog_get in api_leads_catalog.c).
 */
#ifndef MAUTO_MODEL_LEADFIELD_H
#define MAUTO_MODEL_LEADFIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;
struct json_object;

/* dataType values, as the API names them. */
enum lf_type {
	LF_STRING,
	LF_TEXT,
	LF_EMAIL,
	LF_PHONE,
	LF_URL,
	LF_INTEGER,
	LF_SCORE,	/* stored and reported like integer */
	LF_FLOAT,
	LF_CURRENCY,
	LF_PERCENT,
	LF_BOOLEAN,
	LF_DATE,
	LF_DATETIME,
	LF_REFERENCE,	/* an integer id */
	LF_FORMULA,
	LF_TYPE__MAX
};

#define LF_NAME_BYTES		64	/* a field name (= column name) */
#define LF_DISPLAY_BYTES	255
#define LF_DESCRIPTION_BYTES	2000
#define LF_TEXT_BYTES		30000	/* text fields, in bytes */

/* One field of the catalogue.  Strings are owned by the schema. */
struct lead_field {
	char		*name;		/* REST name = lead column */
	int32_t		 attr_id;	/* Describe Lead "id" */
	char		*display_name;
	enum lf_type	 type;
	int32_t		 length;	/* 0 when the type has none */
	char		*description;	/* NULL when none */
	char		*soap_name;	/* NULL: no SOAP name */
	bool		 read_only;
	bool		 searchable;	/* a valid filterType/lookupField */
	bool		 indexed;	/* the column has an index */
	bool		 is_custom;
	bool		 is_api_created;
	bool		 is_hidden;
	bool		 is_html_encoding;
	bool		 is_sensitive;
	bool		 crm_managed;
};

/* A loaded catalogue, sorted by attr_id, with a name index. */
struct lead_schema {
	struct lead_field	*fields;	/* owned, count entries */
	size_t			 count;
	int64_t			 version;	/* lead_schema.version read */
	size_t			*by_name;	/* by name, without case */
};

/* Text of a type for the API ("string", "email", ...). */
const char	*lf_type_name(enum lf_type t);
/* Parses a dataType name; returns 0 and *out, or -1 when unknown. */
int		 lf_type_parse(const char *name, enum lf_type *out);

/* Sorts fields by attr_id and builds the name index (after loading). */
void		 lead_schema_index(struct lead_schema *s);
/* Frees everything s owns and zeroes it. */
void		 lead_schema_clear(struct lead_schema *s);
/* The field named name (no case), or NULL. */
const struct lead_field *lead_schema_find(const struct lead_schema *s,
		    const char *name);

/* The fields returned when a read names no `fields` (§5.1). */
extern const char *const lead_default_fields[];
#define LEAD_DEFAULT_FIELDS	6

/*
 * A typed value of one field.  LV_ABSENT marks a field not given (an
 * update leaves the column as it is); LV_NULL writes NULL (false for a
 * boolean).  Strings are NUL-ended and borrowed (request arena).
 * Dates are "YYYY-MM-DD", datetimes "YYYY-MM-DD HH:MM:SS" in UTC.
 */
enum lv_kind {
	LV_ABSENT,
	LV_NULL,
	LV_STR,
	LV_INT,
	LV_DBL,
	LV_BOOL,
	LV_KIND__MAX
};

struct lead_value {
	enum lv_kind	 kind;
	const char	*s;
	size_t		 len;
	int64_t		 i;
	double		 d;
};

/*
 * Checks and converts one input JSON value for field f (NULL value or ""
 * give LV_NULL).  Strings are copied into a.  Returns 0, or -1 when the
 * value is not valid for the field's type or length: the caller answers
 * 1003 "Invalid value for field '<name>' and value '<v>'" with
 * lead_value_text() of the input.
 */
int		 lead_value_parse(const struct lead_field *f,
		    struct json_object *in, struct arena *a,
		    struct lead_value *out);
/* The input as text for a 1003 message (arena string). */
const char	*lead_value_text(struct json_object *in, struct arena *a);

/*
 * The JSON for a stored column value: text is the column as MariaDB
 * returns it as a string (NULL for SQL NULL).  Integers and references
 * become JSON integers, float/currency/percent doubles, booleans
 * true/false, datetimes "YYYY-MM-DDTHH:MM:SSZ", NULL json null (the
 * returned NULL pointer is json-c's null).  Returns a new object owned
 * by the caller.
 */
struct json_object *lead_value_json(const struct lead_field *f,
		    const char *text, size_t len);

/* The longest tracking cookie kept (lead_cookie.cookie, lead.cookies). */
#define LEAD_COOKIE_BYTES	255

/*
 * Whether n bytes at s are a well-formed tracking cookie (_mkto_trk:
 * "id:123-ABC-456&token:_mch-example.com-1594662481190-60776"), at most
 * LEAD_COOKIE_BYTES long.  A bad one is answered with 1012.
 */
bool		 lead_cookie_is_valid(const char *s, size_t n);

/*
 * The lookup key of a value, as the database compares it: integers in
 * decimal, strings without trailing spaces (PAD SPACE collations) and,
 * for email fields (utf8mb4_general_ci), in lower case.  Two inputs with
 * the same key match the same leads.  Returns an arena string, or NULL
 * for a null value or when the arena is exhausted.
 */
const char	*lead_key_norm(const struct lead_field *f,
		    const struct lead_value *v, struct arena *a);

/*
 * The lead_claim key of a lookup: a 64-bit FNV-1a hash of the field
 * name and the normalised value, both in lower case (a coarser key only
 * makes two creates wait for each other needlessly, never lets two
 * through).
 */
uint64_t	 lead_key_hash(const char *field, const char *norm);

#endif
