/*
 * What every handler shares: the error message setter and the one policy
 * for quoting input in messages, the record results of batch operations,
 * the JSON body readers, the action keyword and the time format.
 */
#ifndef MAUTO_API_API_COMMON_H
#define MAUTO_API_API_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf;
struct call;
struct json_object;
struct resp;

/* Sets r->err_msg to a printf message in the request arena. */
void	api_common_err_msg(struct call *c, struct resp *r, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* As api_common_err_msg, and returns err (a negative api_err). */
int	api_common_fail(struct call *c, struct resp *r, int err,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Untrusted input as every message quotes it (util/text.h text_echo: at
 * most TEXT_ECHO_BYTES, cut at a character, control and malformed bytes
 * shown as '?'), in the request arena; "" for NULL.
 */
const char *api_common_echo(struct call *c, const char *s);

/* Answers 1001 "Invalid value '<v>'. Required of type '<type>'". */
int	api_common_invalid(struct call *c, struct resp *r, const char *v,
	    const char *type);

/*
 * A record result of a batch operation: {key: val, "status": status}, in
 * the service's key order; the key member is left out when val is NULL.
 * Takes ownership of val; returns a new object owned by the caller.
 */
struct json_object *api_common_record(const char *key,
	    struct json_object *val, const char *status);

/*
 * A skipped record result: {key: val, "status": "skipped", "reasons":
 * [{"code": "<code>", "message": <printf>}]}, key as api_common_record.
 */
struct json_object *api_common_skipped(const char *key,
	    struct json_object *val, int code, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));

/*
 * The reason codes of the skipped records made by api_common_skipped
 * since the last api_common_reasons_take, for the error statistics
 * (dispatch.c counts them when the call succeeds).  Up to
 * API_REASON_CODES distinct codes are kept; a worker serves one call at
 * a time.
 */
#define API_REASON_CODES	16
struct api_reasons {
	size_t		 n;
	int32_t		 code[API_REASON_CODES];
	int64_t		 count[API_REASON_CODES];
};

/* Moves the codes counted so far into *out (NULL: forgets them). */
void	api_common_reasons_take(struct api_reasons *out);

/* A lead or record id as JSON, or NULL (no "id" member) for 0. */
struct json_object *api_common_id(int64_t id);

/* An epoch time as "YYYY-MM-DDTHH:MM:SSZ", or NULL (json null) for 0. */
struct json_object *api_common_time_json(int64_t t);

/*
 * A database time ("YYYY-MM-DD HH:MM:SS[.ffffff]") as the API writes it,
 * or NULL (json null) when db is NULL or too short.
 */
struct json_object *api_common_db_time_json(const char *db);

/* A JSON string of s, or NULL (json null) when s is NULL. */
struct json_object *api_common_str_or_null(const char *s);

/*
 * The JSON array in text json appended to b as json-c writes it after
 * parsing it ([] when json is NULL or not an array); returns its length.
 */
size_t	api_common_array_text(struct buf *b, const char *json);

/* The request body when it is a JSON object (borrowed), else NULL. */
struct json_object *api_common_body_object(const struct call *c);

/*
 * A string member of o into *out (borrowed): NULL when absent (or json
 * null).  A member of another JSON type, or longer than max characters'
 * worth of bytes, is 1001.  Returns 0 or a negative api_err.
 */
int	api_common_member_str(struct call *c, struct resp *r,
	    struct json_object *o, const char *key, size_t max,
	    const char **out);

/*
 * A boolean member of o into *out (unchanged when absent); *has (when not
 * NULL) says whether it was there.  Another JSON type is 1001.  Returns 0
 * or a negative api_err.
 */
int	api_common_member_bool(struct call *c, struct resp *r,
	    struct json_object *o, const char *key, bool *out, bool *has);

/*
 * The request body as a JSON object (borrowed) into *body; 1003 "The
 * request body must be a JSON object" otherwise.  Returns 0 or a negative
 * api_err.
 */
int	api_common_body(struct call *c, struct resp *r,
	    struct json_object **body);

/*
 * An object member of o into *out (borrowed): NULL when absent (or json
 * null).  Another JSON type is 1001 "Invalid value for '<key>': not a JSON
 * object".  Returns 0 or a negative api_err.
 */
int	api_common_member_obj(struct call *c, struct resp *r,
	    struct json_object *o, const char *key, struct json_object **out);

/*
 * A string member as api_common_member_str reads it that also holds at
 * most max characters (UTF-8 sequences, as the database counts them):
 * 1001 "Invalid value for '<key>': longer than <max> characters" when it
 * holds more.  Returns 0 or a negative api_err.
 */
int	api_common_member_text(struct call *c, struct resp *r,
	    struct json_object *o, const char *key, size_t max,
	    const char **out);

/*
 * An id member of o (a JSON string or number) as its text into *out
 * (borrowed): NULL when absent (or json null).  Another JSON type is 1001
 * "Invalid value for '<key>': not an id"; when required, an absent or
 * empty one is 701 "<key> cannot be blank".  Returns 0 or a negative
 * api_err.
 */
int	api_common_member_id_text(struct call *c, struct resp *r,
	    struct json_object *o, const char *key, bool required,
	    const char **out);

/*
 * An id member of o (a JSON string or number of digits, 1 to INT32_MAX)
 * into *out and *has (0 and false when absent); 1001 "Invalid value for
 * '<key>': not an id" for anything else.  Returns 0 or a negative api_err.
 */
int	api_common_member_id(struct call *c, struct resp *r,
	    struct json_object *o, const char *key, int32_t *out, bool *has);

/*
 * An integer member of o (a JSON number) from min to max into *out
 * (unchanged when absent); 1001 "Invalid value for '<key>': <bounds>"
 * for another type or value, bounds the words that give the range ("0 or
 * more").  Returns 0 or a negative api_err.
 */
int	api_common_member_int(struct call *c, struct resp *r,
	    struct json_object *o, const char *key, int64_t min, int64_t max,
	    const char *bounds, int64_t *out);

/*
 * An array member of o of 1 to max ids (JSON strings or numbers) into
 * *ids (borrowed) and *n: 701 "<key> cannot be blank" when absent, null
 * or empty; 1001 "Invalid value for '<key>': not an array" (or "not an
 * id" for an item); 1003 "<key> holds <n> ids: at most <max> per request".
 * Returns 0 or a negative api_err.
 */
int	api_common_member_ids(struct call *c, struct resp *r,
	    struct json_object *o, const char *key, size_t max,
	    struct json_object **ids, size_t *n);

/* The action keyword of a sync body ("createOrUpdate", ...). */
enum api_action {
	ACT_CREATE_OR_UPDATE,
	ACT_CREATE_ONLY,
	ACT_UPDATE_ONLY,
	ACT_CREATE_DUPLICATE,	/* Sync Leads only */
	ACT__MAX
};

/* The keyword of an action as the API spells it. */
const char *api_common_action_name(enum api_action a);

/*
 * The action keyword s into *out; createDuplicate only when
 * allow_duplicate.  Returns 0, or -1 for any other text.
 */
int	api_common_action_parse(const char *s, bool allow_duplicate,
	    enum api_action *out);

/*
 * The "action" member of a JSON sync body into *out (createOrUpdate when
 * absent); anything else than createOnly, updateOnly, createOrUpdate is
 * 1001.  Returns 0 or a negative api_err.
 */
int	api_common_action(struct call *c, struct resp *r,
	    struct json_object *body, enum api_action *out);

/*
 * How an operation reads the "input" array of its JSON body: the most
 * items (0: no bound) and the error (a negative api_err) and message for
 * each way it can be wrong.
 */
struct api_input {
	size_t		 max;
	int		 missing_err;	/* no object body, no array, or empty */
	const char	*missing_msg;
	int		 type_err;	/* present but not an array (0: missing) */
	const char	*type_msg;
	int		 max_err;	/* more than max items */
	const char	*max_msg;
	bool		 max_counts;	/* max_msg + ": <n> (the limit is <max>)" */
};

/*
 * The body's "input" array into *out (borrowed) and its length into *n,
 * checked by rule.  Returns 0 or rule's negative api_err (r->err_msg set).
 */
int	api_common_input(struct call *c, struct resp *r,
	    const struct api_input *rule, struct json_object **out, size_t *n);

/* ---- Lead-database browses (Get Lists, Get Campaigns) ---------------- */

struct repo_filter;

/*
 * The filters id, name, programName and workspaceName of a lead-database
 * browse, each repeated or comma-separated, into *f (arrays in the
 * request arena), each name and value added to the paging signature
 * *sig.  Returns 0, the 1001 of an id that is not an integer from 1 to
 * INT32_MAX, or another negative api_err.
 */
int	api_common_browse_filter(struct call *c, struct resp *r,
	    struct repo_filter *f, uint32_t *sig);

/*
 * batchSize and nextPageToken of a position-paged browse whose tokens
 * are of kind (util/pagetoken.h) and signature sig: *batch (1 to
 * MAX_BATCH_SIZE, larger read as MAX_BATCH_SIZE, MAX_BATCH_SIZE when
 * absent) and *after (the last id of the previous page, 0 without a
 * token).  Returns 0, or 1003 for a bad batchSize or a token of another
 * read.
 */
int	api_common_browse_page(struct call *c, struct resp *r, uint8_t kind,
	    uint32_t sig, int *batch, int64_t *after);

/*
 * Marks r as having a next page after id last (nextPageToken of kind
 * and sig, moreResult true).  Returns 0 or -API_ERR_SYSTEM.
 */
int	api_common_browse_next(struct call *c, struct resp *r, uint8_t kind,
	    uint32_t sig, int64_t last);

/* A macro's value as a string literal, for bounds in constant messages. */
#define API_STR(x)	API_STR_(x)
#define API_STR_(x)	#x

#endif
