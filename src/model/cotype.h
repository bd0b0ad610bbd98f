/*
 * Custom object types (docs/behaviour.md §6): their metadata as the
 * service reads it, name rules, and the typed record values.  Pure code:
 * no SQL, no HTTP.
 *
 * A type has at most two versions, each a row of co_type_version with
 * its fields in co_field (db/migrations/0005_custom_objects.sql): the
 * draft, which every schema change edits, and the approved version,
 * which the records follow.  Approving a type makes its records real:
 * one table co_rec_<id> whose columns are id, marketoGUID, createdAt,
 * updatedAt and one column per approved field, named by the field's API
 * name (repo_co_types.c, repo_co_records.c).
 */
#ifndef MAUTO_MODEL_COTYPE_H
#define MAUTO_MODEL_COTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;
struct json_object;
struct lead_field;
struct lead_value;

/* dataType values of custom object fields, as the API names them. */
enum co_dtype {
	CO_STRING,
	CO_TEXT,
	CO_INTEGER,
	CO_FLOAT,
	CO_CURRENCY,
	CO_BOOLEAN,
	CO_DATE,
	CO_DATETIME,
	CO_EMAIL,
	CO_PHONE,
	CO_LINK,
	CO_DTYPE__MAX
};

/* Name and size limits (docs/behaviour.md §4, §6.1). */
#define CO_NAME_MAX		50	/* apiName and field names, chars */
#define CO_DISPLAY_MAX		255	/* displayName, pluralName */
#define CO_DESCRIPTION_MAX	2000
#define CO_MAX_TYPES		10
#define CO_MAX_FIELDS		50	/* user fields of one type */
#define CO_MAX_ADDED		20	/* fields added once approved */
#define CO_MAX_DEDUPE		3
#define CO_STRING_LENGTH	255	/* string, email, phone values */
#define CO_GUID_LEN		36

/*
 * The keys a link field may use on the standard objects, by API name and
 * by the display name Get Custom Object Linkable Objects shows: a lead
 * by its id or its email address, a company by its id.
 */
#define CO_LEAD_ID_DISPLAY	"Id"
#define CO_LEAD_EMAIL_DISPLAY	"Email Address"

/*
 * One field of one version.  Strings are owned by the struct holding the
 * field.  For a link field, type is CO_LINK and key_type the type of the
 * linked key (the column's type): CO_INTEGER for a lead id, else the
 * linked custom object's dedupe field type.
 */
struct co_field {
	char		*name;		/* API name = record column */
	char		*display_name;
	enum co_dtype	 type;
	int32_t		 length;	/* 0 when the type has none */
	char		*description;	/* NULL when none */
	bool		 is_dedupe;
	bool		 is_link;
	char		*related_object;	/* link: "lead" or a type */
	char		*related_field;		/* link: "id" or its key */
	enum co_dtype	 key_type;	/* link: type of the linked key */
	int32_t		 pos;		/* order within the version */
};

/*
 * A type as one of its versions.  state is the type's state whatever
 * version was read; version says which copy fields describe.
 */
struct co_type {
	int64_t		 id;		/* co_type.id */
	char		*api_name;
	char		*display_name;
	char		*plural_name;	/* NULL when none */
	char		*description;	/* NULL when none */
	bool		 show_in_lead_detail;
	char		*state;	/* "draft"|"approved"|"approvedWithDraft" */
	bool		 approved;	/* an approved version exists */
	bool		 has_draft;	/* a draft version exists */
	bool		 is_draft;	/* fields below are the draft's */
	struct co_field	*fields;
	size_t		 nfields;	/* of the version read */
	char		 table[32];	/* "co_rec_<id>", or "" */
	int64_t		 created_at;	/* epoch seconds */
	int64_t		 updated_at;	/* epoch seconds */
	int64_t		 draft_rev;	/* bumped by every draft change */
	int32_t		 added;		/* fields approved after the first
					   approval, all approvals together */
};

/* Text of a type for the API ("string", "link", ...). */
const char	*co_dtype_name(enum co_dtype t);
/* Parses a dataType name (exact case); 0 and *out, or -1 when unknown. */
int		 co_dtype_parse(const char *name, enum co_dtype *out);
/* The state text of a type with the given versions. */
const char	*co_state_name(bool approved, bool has_draft);

/* Frees everything t owns and zeroes it; NULL is fine. */
void		 co_type_clear(struct co_type *t);
/* Frees what f owns and zeroes it; NULL is fine. */
void		 co_field_clear(struct co_field *f);
/* Deep copy of src into dst (dst is overwritten, not cleared). */
void		 co_field_copy(struct co_field *dst,
		    const struct co_field *src);
/* The field named name (no case), or NULL. */
const struct co_field *co_type_field(const struct co_type *t,
		    const char *name);
/* The number of dedupe fields. */
size_t		 co_type_ndedupe(const struct co_type *t);
/* The number of fields of d that appr lacks (all of d's when NULL). */
size_t		 co_type_nnew(const struct co_type *d,
		    const struct co_type *appr);
/* Whether the type has a link field. */
bool		 co_type_has_link(const struct co_type *t);

/*
 * Name checks for apiName and field names: [A-Za-z][A-Za-z0-9_]*, at most
 * CO_NAME_MAX characters, not an SQL reserved word.  Returns NULL when
 * name is acceptable, else a message for the client, "<what> '<name>'
 * ..." written into buf (size bytes; long names are cut in the text).
 */
const char	*co_name_check(const char *what, const char *name, char *buf,
		    size_t size);
/* Whether word is an SQL reserved word of MariaDB (no case). */
bool		 co_is_reserved(const char *word);
/* Whether name is a system field of every record (no case). */
bool		 co_is_system_field(const char *name);

/*
 * The column type of a field for CREATE/ALTER TABLE (a constant string):
 * for a link, of its key_type.  Dedupe strings are VARCHAR so they can be
 * indexed; other strings are TEXT (lengths are checked by the service).
 */
const char	*co_column_type(const struct co_field *f);

/*
 * A lead_field that validates and renders values of f with the lead value
 * code (leadfield.h): *lf is filled, with borrowed strings.  A link takes
 * the type of its key.
 */
void		 co_field_as_lead(const struct co_field *f,
		    struct lead_field *lf);

/*
 * Checks and converts a JSON value for field f (see lead_value_parse):
 * NULL, json null and "" give LV_NULL.  Returns 0 or -1 when the value
 * is invalid (the caller answers 1003 "Invalid value for field '<name>'
 * and value '<text>'").
 */
int		 co_value_parse(const struct co_field *f,
		    struct json_object *in, struct arena *a,
		    struct lead_value *out);

/*
 * A new lowercase version 4 UUID (36 chars and a NUL) in out, from
 * libsodium's generator.
 */
void		 co_guid_new(char out[CO_GUID_LEN + 1]);
/* Whether s is 36 chars of UUID form (hex digits and dashes). */
bool		 co_guid_valid(const char *s, size_t n);

/*
 * Rules of type changes (docs/behaviour.md §6.1), on a draft d in memory
 * with appr the approved version (NULL when never approved).  Each
 * returns CO_RULE_OK after changing d, or CO_RULE_REFUSED /
 * CO_RULE_NO_FIELD with d unchanged and a message for the client in msg
 * (n bytes).  Names and data types were checked before (co_name_check,
 * co_dtype_parse); a link field comes with related_object,
 * related_field and key_type resolved.
 */
enum co_rule {
	CO_RULE_OK = 0,
	CO_RULE_REFUSED = -1,	/* the service answers 1003 */
	CO_RULE_NO_FIELD = -2,	/* 1006 */
};

/*
 * Adds field nf (copied): a unique name, at most 50 fields, at most 3
 * dedupe fields of indexable types, no dedupe or link field after
 * approval, and once approved at most 20 fields added over all later
 * approvals (appr->added of them approved already, the new ones of d
 * pending): a limit apart from the 50, which also holds.
 */
int		 co_rule_add_field(struct co_type *d,
		    const struct co_type *appr, const struct co_field *nf,
		    char *msg, size_t n);

/* What co_rule_update_field changes: bits of the members of upd given. */
#define CO_UPD_NAME		0x01u
#define CO_UPD_DISPLAY		0x02u
#define CO_UPD_DESCRIPTION	0x04u
#define CO_UPD_TYPE		0x08u
#define CO_UPD_DEDUPE		0x10u
#define CO_UPD_LINK		0x20u

/*
 * Updates field name of d with the members of upd that mask names; an
 * approved field keeps its name, type, dedupe flag and link.
 */
int		 co_rule_update_field(struct co_type *d,
		    const struct co_type *appr, const char *name,
		    const struct co_field *upd, unsigned mask, char *msg,
		    size_t n);

/* Deletes field name of d; approved dedupe and link fields stay. */
int		 co_rule_delete_field(struct co_type *d,
		    const struct co_type *appr, const char *name, char *msg,
		    size_t n);

/*
 * Whether draft d may be approved over appr: 1 to 3 dedupe fields, at
 * most 50 fields, at most 20 added since the first approval, and the
 * approved key and links unchanged.  d is not changed.
 */
int		 co_rule_approvable(const struct co_type *d,
		    const struct co_type *appr, char *msg, size_t n);

#endif
