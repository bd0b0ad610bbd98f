/*
 * Per-operation parameter descriptors (docs/style.md §6): a handler
 * describes the parameters it reads in a static table (name, where the
 * value may come from, type, bounds, required) and validate() turns the
 * request into typed values, or answers the service's error with its
 * message.  After it, the handler works with typed values only.
 *
 * Errors: a required parameter that is missing is 1002 "Missing value for
 * the required parameter '<name>'" (or 701 "<name> cannot be blank" with
 * VPF_BLANK); a value that does not fit its type or bounds is 1001
 * "Invalid value '<value>'. Required of type '<type>'", the value quoted
 * by the one echo policy (util/text.h).  A JSON body that is not an
 * object (so names no parameters) is 1003, unless a descriptor is the
 * body (VPF_BODY) and the body is an array.  A descriptor can give its own
 * code and message for a bad value (bad_err, bad_msg), for the operations
 * whose answer differs.
 */
#ifndef MAUTO_HTTP_VALIDATE_H
#define MAUTO_HTTP_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct req;
struct resp;

/* Where a value may come from (a bit set); the first found wins. */
#define VP_QUERY	0x1	/* the query string */
#define VP_FORM		0x2	/* an urlencoded or multipart body field */
#define VP_JSON		0x4	/* a member of a JSON object body */
#define VP_PARAM	(VP_QUERY | VP_FORM)

enum vp_type {
	VP_STR,		/* text of at most max bytes (0: MAX_PARAM_VALUE_BYTES) */
	VP_INT,		/* a decimal integer in [min, max] */
	VP_BOOL,	/* as Spring binds it: true/false, on/off, yes/no, 1/0 */
	VP_ENUM,	/* one of words (VPF_NOCASE: any letter case) */
	VP_DATETIME,	/* an ISO-8601 date or date-time */
	VP_LIST,	/* comma-separated or repeated, at most max items */
	VP_RAW,		/* text for a type-specific parser (JSON in a form) */
};

#define VPF_REQUIRED	0x1	/* missing or empty: an error */
#define VPF_BLANK	0x2	/* missing answers 701 rather than 1002 */
#define VPF_NOCASE	0x4	/* VP_ENUM: compare without letter case */
#define VPF_BODY	0x8	/* VP_RAW: a JSON array body is this value */

struct vparam {
	const char		*name;
	enum vp_type		 type;
	unsigned		 src;		/* VP_* bits; 0 means VP_PARAM */
	unsigned		 flags;		/* VPF_* bits */
	int64_t			 min;		/* VP_INT (so 0 unless set) */
	int64_t			 max;		/* VP_INT (0: none); VP_STR/VP_RAW bytes; VP_LIST items */
	const char *const	*words;		/* VP_ENUM, NULL-terminated */
	const char		*type_name;	/* in 1001's message; default per type */
	int			 bad_err;	/* negative api_err for a bad value; 0: 1001 */
	const char		*bad_msg;	/* its message, "%s" standing for the value */
};

/* A typed value; present is false when the parameter was not given. */
struct vvalue {
	bool			 present;
	const char		*s;		/* the text as sent (not VP_LIST) */
	int64_t			 i;		/* VP_INT; VP_ENUM index; VP_DATETIME epoch */
	bool			 b;		/* VP_BOOL */
	bool			 has_time;	/* VP_DATETIME: a time was given */
	const char		**items;	/* VP_LIST, NULL-terminated */
	size_t			 n;		/* VP_LIST: items */
};

/*
 * Reads the n parameters of d from req into out[0..n-1] (index for
 * index).  A parameter sent empty counts as not given.  Returns 0, or a
 * negative api_err with r->err_msg set (in req's arena) for the first
 * parameter that is wrong.
 */
int	validate(const struct req *req, struct resp *r,
	    const struct vparam *d, size_t n, struct vvalue *out);

/* validate() over a whole static table. */
#define VALIDATE(req, r, table, out) \
	validate((req), (r), (table), sizeof(table) / sizeof((table)[0]), (out))

#endif
