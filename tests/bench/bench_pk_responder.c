/*
 * bench_pk_responder: the read ceiling of tests/bench/run's leads, lpt,
 * emails, campaigns and activities suites.
 * bare_responder.c plus the least work a "get one lead" answer needs: a
 * master that binds one Unix socket and pre-forks N workers; each worker
 * opens its own MariaDB connection and prepares its statements once,
 * then loops on FCGX_Accept_r (waiting in epoll with EPOLLEXCLUSIVE, as
 * src/worker.c and bare_responder.c do) and answers
 *
 *   GET /rest/v1/lead/<id>.json
 *	one prepared primary-key SELECT of the default fields (id, email,
 *	updatedAt, createdAt, firstName, lastName) of lead <id>;
 *   GET /rest/v1/leads.json?filterType=email&filterValues=<email>
 *	the same SELECT by the (non-unique) email index, one value only;
 *   GET /rest/asset/v1/landingPageTemplate/<id>.json
 *	one prepared primary-key SELECT of the metadata columns of
 *	lp_template <id> (the lpt suite's ceiling);
 *   GET /rest/asset/v1/landingPageTemplates.json?folder=<{"id":F,...}>
 *	the same columns of up to 200 templates of folder F by the
 *	(folder_id, id) index, for reference;
 *   GET /rest/asset/v1/email/<id>.json
 *	one prepared primary-key SELECT of the same kind of columns of
 *	email <id> (id, name, description, place id and type, created,
 *	updated: the emails suite's ceiling);
 *   GET /rest/asset/v1/smartCampaign/<id>.json
 *	one prepared primary-key SELECT of the same kind of columns of
 *	smart_campaign <id> (id, name, description, folder id,
 *	qualification rule type, created, updated: the campaigns suite's
 *	ceiling);
 *   GET /rest/v1/activities.json?nextPageToken=<token>[&...]
 *	one prepared keyset SELECT by the primary key: the 300 activities
 *	after the id the date token (util/datetoken.h) names, with the
 *	columns Get Lead Activities reads (id, lead, date, type, campaign,
 *	primary attribute id and value, attributes), written as Get Lead
 *	Activities writes them (marketoGUID, the stored attributes as
 *	{"name","value"} items without the null ones), then nextPageToken
 *	(the last row's date and id) and moreResult (a full page); the
 *	other parameters are ignored, and a token of a date alone starts at
 *	the first activity, with no lookup by date (the activities suite's
 *	ceiling);
 *
 * with the rows written by json-c in the envelope of the lead database
 * API: {"requestId":"…","result":[{…}],"success":true}.  No token, no
 * limits, no field catalogue, no allocation beyond json-c's; whatever
 * mautod costs beyond this is its own overhead.  Any other path is 404.
 *
 * usage: bench_pk_responder socket-path workers
 *
 * The database comes from the environment, as mautod's does:
 * MAUTO_DB_SOCKET, MAUTO_DB_NAME, MAUTO_DB_USER, MAUTO_DB_PASSWORD.  A
 * worker that cannot connect, or loses its connection, ends the whole
 * responder (exit 1), as a dying worker of bare_responder does: a failure
 * must not hide in a benchmark figure.
 */
#include <sys/epoll.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fcgiapp.h>
#include <json-c/json.h>
#include <mysql.h>

#include "util/datetoken.h"
#include "util/num.h"
#include "util/rid.h"
#include "util/timeutil.h"

#define PK_MAX_WORKERS	256
#define PK_BACKLOG	1024
#define PK_MAX_EMAIL	255
#define PK_MAX_TEXT	1024	/* firstName, lastName: bench rows are short */
#define PK_MAX_HEAD	256

#define PK_LEAD_PATH	"/rest/v1/lead/"
#define PK_LEADS_PATH	"/rest/v1/leads.json"
#define PK_FILTER_TYPE	"filterType=email"
#define PK_FILTER_VALUE	"filterValues="
#define PK_LPT_PATH	"/rest/asset/v1/landingPageTemplate/"
#define PK_LPTS_PATH	"/rest/asset/v1/landingPageTemplates.json"
#define PK_EMAIL_PATH	"/rest/asset/v1/email/"
#define PK_SC_PATH	"/rest/asset/v1/smartCampaign/"
#define PK_FOLDER_PARAM	"folder="
#define PK_LPT_COLS	7
#define PK_ACT_PATH	"/rest/v1/activities.json"
#define PK_TOKEN_PARAM	"nextPageToken="
#define PK_ACT_COLS	8
#define PK_ACT_PAGE	300
#define PK_MAX_ATTRS	8192	/* an activity's attributes as JSON text */

enum pk_stmt {
	PK_STMT_BY_ID,
	PK_STMT_BY_EMAIL,
	PK_STMT_LPT_BY_ID,
	PK_STMT_LPT_BY_FOLDER,
	PK_STMT_EMAIL_BY_ID,
	PK_STMT_SC_BY_ID,
	PK_STMT_ACT_PAGE,
	PK_STMT__MAX
};

/*
 * The default fields of Get Lead by Id, in the order the API documents
 * them (mautod writes id, firstName, lastName, email, updatedAt,
 * createdAt: the same bytes in another order).
 */
static const char *const pk_sql[PK_STMT__MAX] = {
	[PK_STMT_BY_ID] = "SELECT id, email, updatedAt, createdAt, "
	    "firstName, lastName FROM lead WHERE id = ?",
	[PK_STMT_BY_EMAIL] = "SELECT id, email, updatedAt, createdAt, "
	    "firstName, lastName FROM lead WHERE email = ? ORDER BY id",
	[PK_STMT_LPT_BY_ID] = "SELECT id, name, description, folder_id, "
	    "template_type, created_at, updated_at FROM lp_template "
	    "WHERE id = ?",
	[PK_STMT_LPT_BY_FOLDER] = "SELECT id, name, description, "
	    "folder_id, template_type, created_at, updated_at FROM "
	    "lp_template WHERE folder_id = ? ORDER BY id LIMIT 200",
	[PK_STMT_EMAIL_BY_ID] = "SELECT id, name, description, place_id, "
	    "place_type, created_at, updated_at FROM email WHERE id = ?",
	[PK_STMT_SC_BY_ID] = "SELECT id, name, description, folder_id, "
	    "qualification_rule_type, created_at, updated_at FROM "
	    "smart_campaign WHERE id = ?",
	[PK_STMT_ACT_PAGE] = "SELECT id, lead_id, activity_date, "
	    "activity_type_id, campaign_id, primary_value_id, primary_value, "
	    "attributes FROM activity WHERE id > ? ORDER BY id LIMIT 300",
};

/*
 * Whether statement i reads an asset's columns into struct pk_lpt_row
 * (a landing page template, or an email's or a smart campaign's columns
 * of the same types), else a lead's.
 */
#define IS_LPT(i)	((i) == PK_STMT_LPT_BY_ID || \
			 (i) == PK_STMT_LPT_BY_FOLDER || \
			 (i) == PK_STMT_EMAIL_BY_ID || (i) == PK_STMT_SC_BY_ID)

/* One fetched row; the result binds point here. */
struct pk_row {
	int		 id;
	char		 email[PK_MAX_EMAIL + 1];
	MYSQL_TIME	 updated;
	MYSQL_TIME	 created;
	char		 first[PK_MAX_TEXT + 1];
	char		 last[PK_MAX_TEXT + 1];
	unsigned long	 len[6];
	my_bool		 null[6];
	my_bool		 error[6];
};

/* One fetched activity; the activity result binds point here. */
struct pk_act_row {
	long long	 id;
	int		 lead;
	MYSQL_TIME	 date;
	int		 type;
	int		 campaign;
	int		 primary_id;
	char		 primary[PK_MAX_TEXT + 1];
	char		 attrs[PK_MAX_ATTRS + 1];
	unsigned long	 len[PK_ACT_COLS];
	my_bool		 null[PK_ACT_COLS];
	my_bool		 error[PK_ACT_COLS];
};

/* One fetched landing page template; the lpt result binds point here. */
struct pk_lpt_row {
	int		 id;
	char		 name[PK_MAX_TEXT + 1];
	char		 description[PK_MAX_TEXT + 1];
	int		 folder_id;
	char		 type[32];
	MYSQL_TIME	 created;
	MYSQL_TIME	 updated;
	unsigned long	 len[PK_LPT_COLS];
	my_bool		 null[PK_LPT_COLS];
	my_bool		 error[PK_LPT_COLS];
};

/* A worker's connection, statements and buffers. */
struct pk_worker {
	MYSQL		*db;
	MYSQL_STMT	*stmt[PK_STMT__MAX];
	MYSQL_BIND	 res[6];
	MYSQL_BIND	 lres[PK_LPT_COLS];
	MYSQL_BIND	 ares[PK_ACT_COLS];
	long long	 key_id;
	char		 key_email[PK_MAX_EMAIL + 1];
	unsigned long	 key_len;
	struct pk_row	 row;
	struct pk_lpt_row lrow;
	struct pk_act_row arow;
	int		 nrows;		/* rows of the last lookup */
};

struct pk {
	const char	*path;
	int		 workers;
	int		 fd;
	pid_t		 pids[PK_MAX_WORKERS];
	int		 npids;
};

/* Prints a worker's database error and ends it. */
static void
die_db(const char *what, const char *msg)
{
	fprintf(stderr, "bench_pk_responder: %s: %s\n", what, msg);
	_exit(1);
}

/* One result column: its type and buffer (size for strings, else 0). */
static void
bind_col(MYSQL_BIND *b, enum enum_field_types type, void *buf, size_t size)
{
	b->buffer_type = type;
	b->buffer = buf;
	b->buffer_length = (unsigned long)size;
}

/* Connects as mautod does and prepares its statements with binds. */
static void
worker_connect(struct pk_worker *w)
{
	const char *sock, *name, *user, *pass;
	MYSQL_BIND par;
	unsigned int timeout = 5;
	my_bool off = 0;
	int i;

	sock = getenv("MAUTO_DB_SOCKET");
	name = getenv("MAUTO_DB_NAME");
	user = getenv("MAUTO_DB_USER");
	pass = getenv("MAUTO_DB_PASSWORD");
	if (sock == NULL || name == NULL || user == NULL)
		die_db("environment", "MAUTO_DB_SOCKET, MAUTO_DB_NAME and "
		    "MAUTO_DB_USER must be set");
	if ((w->db = mysql_init(NULL)) == NULL)
		die_db("mysql_init", "out of memory");
	mysql_options(w->db, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	mysql_options(w->db, MYSQL_OPT_RECONNECT, &off);
	mysql_options(w->db, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	mysql_options(w->db, MYSQL_INIT_COMMAND,
	    "SET SESSION time_zone = '+00:00'");
	if (mysql_real_connect(w->db, NULL, user, pass, name, 0, sock,
	    0) == NULL)
		die_db("connect", mysql_error(w->db));

	memset(w->res, 0, sizeof(w->res));
	bind_col(&w->res[0], MYSQL_TYPE_LONG, &w->row.id, 0);
	bind_col(&w->res[1], MYSQL_TYPE_STRING, w->row.email,
	    sizeof(w->row.email));
	bind_col(&w->res[2], MYSQL_TYPE_DATETIME, &w->row.updated, 0);
	bind_col(&w->res[3], MYSQL_TYPE_DATETIME, &w->row.created, 0);
	bind_col(&w->res[4], MYSQL_TYPE_STRING, w->row.first,
	    sizeof(w->row.first));
	bind_col(&w->res[5], MYSQL_TYPE_STRING, w->row.last,
	    sizeof(w->row.last));
	for (i = 0; i < 6; i++) {
		w->res[i].length = &w->row.len[i];
		w->res[i].is_null = &w->row.null[i];
		w->res[i].error = &w->row.error[i];
	}

	memset(w->lres, 0, sizeof(w->lres));
	bind_col(&w->lres[0], MYSQL_TYPE_LONG, &w->lrow.id, 0);
	bind_col(&w->lres[1], MYSQL_TYPE_STRING, w->lrow.name,
	    sizeof(w->lrow.name));
	bind_col(&w->lres[2], MYSQL_TYPE_STRING, w->lrow.description,
	    sizeof(w->lrow.description));
	bind_col(&w->lres[3], MYSQL_TYPE_LONG, &w->lrow.folder_id, 0);
	bind_col(&w->lres[4], MYSQL_TYPE_STRING, w->lrow.type,
	    sizeof(w->lrow.type));
	bind_col(&w->lres[5], MYSQL_TYPE_DATETIME, &w->lrow.created, 0);
	bind_col(&w->lres[6], MYSQL_TYPE_DATETIME, &w->lrow.updated, 0);
	for (i = 0; i < PK_LPT_COLS; i++) {
		w->lres[i].length = &w->lrow.len[i];
		w->lres[i].is_null = &w->lrow.null[i];
		w->lres[i].error = &w->lrow.error[i];
	}

	memset(w->ares, 0, sizeof(w->ares));
	bind_col(&w->ares[0], MYSQL_TYPE_LONGLONG, &w->arow.id, 0);
	bind_col(&w->ares[1], MYSQL_TYPE_LONG, &w->arow.lead, 0);
	bind_col(&w->ares[2], MYSQL_TYPE_DATETIME, &w->arow.date, 0);
	bind_col(&w->ares[3], MYSQL_TYPE_LONG, &w->arow.type, 0);
	bind_col(&w->ares[4], MYSQL_TYPE_LONG, &w->arow.campaign, 0);
	bind_col(&w->ares[5], MYSQL_TYPE_LONG, &w->arow.primary_id, 0);
	bind_col(&w->ares[6], MYSQL_TYPE_STRING, w->arow.primary,
	    sizeof(w->arow.primary));
	bind_col(&w->ares[7], MYSQL_TYPE_STRING, w->arow.attrs,
	    sizeof(w->arow.attrs));
	for (i = 0; i < PK_ACT_COLS; i++) {
		w->ares[i].length = &w->arow.len[i];
		w->ares[i].is_null = &w->arow.null[i];
		w->ares[i].error = &w->arow.error[i];
	}

	for (i = 0; i < PK_STMT__MAX; i++) {
		memset(&par, 0, sizeof(par));
		if (i != PK_STMT_BY_EMAIL) {
			par.buffer_type = MYSQL_TYPE_LONGLONG;
			par.buffer = &w->key_id;
		} else {
			par.buffer_type = MYSQL_TYPE_STRING;
			par.buffer = w->key_email;
			par.buffer_length = sizeof(w->key_email);
			par.length = &w->key_len;
		}
		if ((w->stmt[i] = mysql_stmt_init(w->db)) == NULL)
			die_db("mysql_stmt_init", "out of memory");
		if (mysql_stmt_prepare(w->stmt[i], pk_sql[i],
		    strlen(pk_sql[i])) != 0 ||
		    mysql_stmt_bind_param(w->stmt[i], &par) != 0 ||
		    mysql_stmt_bind_result(w->stmt[i], i == PK_STMT_ACT_PAGE ?
		    w->ares : IS_LPT(i) ? w->lres : w->res) != 0)
			die_db("prepare", mysql_stmt_error(w->stmt[i]));
	}
}

/* A DATETIME as the API writes it: 2024-01-01T00:00:00Z. */
static json_object *
json_time(const MYSQL_TIME *t)
{
	char s[32];

	snprintf(s, sizeof(s), "%04u-%02u-%02uT%02u:%02u:%02uZ", t->year,
	    t->month, t->day, t->hour, t->minute, t->second);
	return json_object_new_string(s);
}

static json_object *
json_text(const char *s, unsigned long len, my_bool is_null)
{
	return is_null ? NULL : json_object_new_string_len(s, (int)len);
}

/* The fetched row as a lead object, fields in the default order. */
static json_object *
row_json(const struct pk_row *r)
{
	json_object *o;

	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int(r->id));
	json_object_object_add(o, "email",
	    json_text(r->email, r->len[1], r->null[1]));
	json_object_object_add(o, "updatedAt", json_time(&r->updated));
	json_object_object_add(o, "createdAt", json_time(&r->created));
	json_object_object_add(o, "firstName",
	    json_text(r->first, r->len[4], r->null[4]));
	json_object_object_add(o, "lastName",
	    json_text(r->last, r->len[5], r->null[5]));
	return o;
}

/*
 * A fetched template as the asset API shapes one (the columns the table
 * holds; no folder name, status or workspace).
 */
static json_object *
lpt_json(const struct pk_lpt_row *r)
{
	json_object *o, *f;

	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int(r->id));
	json_object_object_add(o, "name",
	    json_text(r->name, r->len[1], r->null[1]));
	json_object_object_add(o, "description",
	    json_text(r->description, r->len[2], r->null[2]));
	json_object_object_add(o, "createdAt", json_time(&r->created));
	json_object_object_add(o, "updatedAt", json_time(&r->updated));
	f = json_object_new_object();
	json_object_object_add(f, "type", json_object_new_string("Folder"));
	json_object_object_add(f, "value", json_object_new_int(r->folder_id));
	json_object_object_add(o, "folder", f);
	json_object_object_add(o, "templateType",
	    json_text(r->type, r->len[4], r->null[4]));
	return o;
}

/*
 * The stored attributes (a JSON object as text) as Get Lead Activities
 * lists them: {"name", "value"} items, each value of its JSON type, the
 * null ones left out.
 */
static json_object *
act_attrs(const char *text, unsigned long len)
{
	json_object *list, *stored, *a;

	list = json_object_new_array();
	stored = json_tokener_parse(len > 0 ? text : "{}");
	if (stored == NULL || !json_object_is_type(stored, json_type_object)) {
		json_object_put(stored);
		return list;
	}
	json_object_object_foreach(stored, k, v) {
		if (v == NULL)
			continue;
		a = json_object_new_object();
		json_object_object_add(a, "name", json_object_new_string(k));
		json_object_object_add(a, "value", json_object_get(v));
		json_object_array_add(list, a);
	}
	json_object_put(stored);
	return list;
}

/* A fetched activity as Get Lead Activities writes one. */
static json_object *
act_json(struct pk_act_row *r)
{
	json_object *o;
	char guid[32];

	r->attrs[r->null[7] ? 0 : r->len[7]] = '\0';
	snprintf(guid, sizeof(guid), "%lld", r->id);
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int64(r->id));
	json_object_object_add(o, "marketoGUID",
	    json_object_new_string(guid));
	json_object_object_add(o, "leadId", json_object_new_int(r->lead));
	json_object_object_add(o, "activityDate", json_time(&r->date));
	json_object_object_add(o, "activityTypeId",
	    json_object_new_int(r->type));
	if (!r->null[4])
		json_object_object_add(o, "campaignId",
		    json_object_new_int(r->campaign));
	if (!r->null[5])
		json_object_object_add(o, "primaryAttributeValueId",
		    json_object_new_int(r->primary_id));
	if (!r->null[6])
		json_object_object_add(o, "primaryAttributeValue",
		    json_text(r->primary, r->len[6], 0));
	json_object_object_add(o, "attributes",
	    act_attrs(r->attrs, r->null[7] ? 0 : r->len[7]));
	return o;
}

/*
 * The place after the last activity fetched as a date token (its date
 * in milliseconds and its id), as Get Lead Activities writes the next
 * one after a full page.
 */
static void
act_token(const struct pk_act_row *r, char out[DATE_TOKEN_BYTES])
{
	struct date_token t;
	const MYSQL_TIME *d = &r->date;

	t.ms = time_days_from_civil(d->year, (int)d->month, (int)d->day) *
	    86400000 + (int64_t)d->hour * 3600000 + d->minute * 60000 +
	    d->second * 1000 + d->second_part / 1000;
	t.last = r->id;
	date_token_encode(&t, out);
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decodes %XX and '+' of a query value into dst; -1 when malformed. */
static int
url_decode(char *dst, size_t size, const char *src, size_t n)
{
	size_t i, o = 0;
	int hi, lo;

	for (i = 0; i < n; i++) {
		if (o + 1 >= size)
			return -1;
		if (src[i] == '%') {
			if (n - i < 3)
				return -1;
			if ((hi = hex_digit(src[i + 1])) < 0 ||
			    (lo = hex_digit(src[i + 2])) < 0)
				return -1;
			dst[o++] = (char)(hi << 4 | lo);
			i += 2;
		} else
			dst[o++] = src[i] == '+' ? ' ' : src[i];
	}
	dst[o] = '\0';
	return (int)o;
}

/*
 * The folder id of a browse query: folder={"id":F,"type":"Folder"},
 * URL-encoded, its "id" member the first number after "id":.  The
 * statement, or -1.
 */
static int
parse_folder(struct pk_worker *w, const char *query)
{
	char buf[PK_MAX_EMAIL + 1];
	const char *p, *end;
	size_t n;
	int64_t v;

	for (p = query; *p != '\0'; p = *end == '&' ? end + 1 : end) {
		end = strchr(p, '&') != NULL ? strchr(p, '&') : p + strlen(p);
		n = (size_t)(end - p);
		if (strncmp(p, PK_FOLDER_PARAM, strlen(PK_FOLDER_PARAM)) != 0)
			continue;
		if (url_decode(buf, sizeof(buf), p + strlen(PK_FOLDER_PARAM),
		    n - strlen(PK_FOLDER_PARAM)) <= 0 ||
		    (p = strstr(buf, "\"id\":")) == NULL)
			return -1;
		p += strlen("\"id\":");
		n = strspn(p, "0123456789");
		if (num_parse_i64n(p, n, 1, INT32_MAX, &v) != 0)
			return -1;
		w->key_id = v;
		return PK_STMT_LPT_BY_FOLDER;
	}
	return -1;
}

/*
 * The id after which a page of activities starts: the last activity of
 * the nextPageToken (0 for a token of a date alone).  The statement, or
 * -1 without a valid token.
 */
static int
parse_token(struct pk_worker *w, const char *query)
{
	char buf[DATE_TOKEN_BYTES + 8];
	struct date_token t;
	const char *p, *end;
	size_t n = strlen(PK_TOKEN_PARAM);

	for (p = query; *p != '\0'; p = *end == '&' ? end + 1 : end) {
		end = strchr(p, '&') != NULL ? strchr(p, '&') : p + strlen(p);
		if (strncmp(p, PK_TOKEN_PARAM, n) != 0)
			continue;
		if (url_decode(buf, sizeof(buf), p + n,
		    (size_t)(end - p) - n) <= 0 ||
		    date_token_decode(buf, &t) != 0)
			return -1;
		w->key_id = t.last;
		return PK_STMT_ACT_PAGE;
	}
	return -1;
}

/*
 * Finds the lookup of a request: the id of /rest/v1/lead/<id>.json or
 * of a landing page template, an email or a smart campaign, the one
 * email of a filterType=email query, the folder of a template browse,
 * or the place of a page of activities.  The statement to run, or -1 when the request is none of
 * these.
 */
static int
parse_lookup(struct pk_worker *w, const char *path, const char *query)
{
	const char *p, *end, *amp;
	size_t n, plen;
	int64_t v;
	bool by_email = false;
	int len;

	if (path == NULL)
		return -1;
	plen = strlen(path);
	n = strlen(PK_LEAD_PATH);
	if (strncmp(path, PK_LEAD_PATH, n) == 0 && plen > n + 5 &&
	    strcmp(path + plen - 5, ".json") == 0) {
		if (num_parse_i64n(path + n, plen - n - 5, 1, INT32_MAX,
		    &v) != 0)
			return -1;
		w->key_id = v;
		return PK_STMT_BY_ID;
	}
	n = strlen(PK_LPT_PATH);
	if (strncmp(path, PK_LPT_PATH, n) == 0 && plen > n + 5 &&
	    strcmp(path + plen - 5, ".json") == 0) {
		if (num_parse_i64n(path + n, plen - n - 5, 1, INT32_MAX,
		    &v) != 0)
			return -1;
		w->key_id = v;
		return PK_STMT_LPT_BY_ID;
	}
	n = strlen(PK_EMAIL_PATH);
	if (strncmp(path, PK_EMAIL_PATH, n) == 0 && plen > n + 5 &&
	    strcmp(path + plen - 5, ".json") == 0) {
		if (num_parse_i64n(path + n, plen - n - 5, 1, INT32_MAX,
		    &v) != 0)
			return -1;
		w->key_id = v;
		return PK_STMT_EMAIL_BY_ID;
	}
	n = strlen(PK_SC_PATH);
	if (strncmp(path, PK_SC_PATH, n) == 0 && plen > n + 5 &&
	    strcmp(path + plen - 5, ".json") == 0) {
		if (num_parse_i64n(path + n, plen - n - 5, 1, INT32_MAX,
		    &v) != 0)
			return -1;
		w->key_id = v;
		return PK_STMT_SC_BY_ID;
	}
	if (strcmp(path, PK_LPTS_PATH) == 0 && query != NULL)
		return parse_folder(w, query);
	if (strcmp(path, PK_ACT_PATH) == 0 && query != NULL)
		return parse_token(w, query);
	if (strcmp(path, PK_LEADS_PATH) != 0 || query == NULL)
		return -1;
	len = -1;
	for (p = query; *p != '\0'; p = *end == '&' ? end + 1 : end) {
		amp = strchr(p, '&');
		end = amp != NULL ? amp : p + strlen(p);
		n = (size_t)(end - p);
		if (n == strlen(PK_FILTER_TYPE) &&
		    strncmp(p, PK_FILTER_TYPE, n) == 0)
			by_email = true;
		else if (strncmp(p, PK_FILTER_VALUE,
		    strlen(PK_FILTER_VALUE)) == 0)
			len = url_decode(w->key_email, sizeof(w->key_email),
			    p + strlen(PK_FILTER_VALUE),
			    n - strlen(PK_FILTER_VALUE));
	}
	if (!by_email || len <= 0 || strchr(w->key_email, ',') != NULL)
		return -1;
	w->key_len = (unsigned long)len;
	return PK_STMT_BY_EMAIL;
}

/* Runs statement i and adds every row to the array result. */
static void
run_lookup(struct pk_worker *w, int i, json_object *result)
{
	MYSQL_STMT *st = w->stmt[i];
	int rc;

	if (mysql_stmt_execute(st) != 0)
		die_db("execute", mysql_stmt_error(st));
	w->nrows = 0;
	while ((rc = mysql_stmt_fetch(st)) == 0) {
		w->nrows++;
		json_object_array_add(result, i == PK_STMT_ACT_PAGE ?
		    act_json(&w->arow) : IS_LPT(i) ? lpt_json(&w->lrow) :
		    row_json(&w->row));
	}
	if (rc != MYSQL_NO_DATA)
		die_db("fetch", rc == MYSQL_DATA_TRUNCATED ?
		    "a column is longer than its buffer" :
		    mysql_stmt_error(st));
	mysql_stmt_free_result(st);
}

/* Answers one request: the envelope with the rows, or a bare 404. */
static void
answer(struct pk_worker *w, FCGX_Request *req)
{
	json_object *root = NULL, *result;
	const char *body;
	char head[PK_MAX_HEAD], rid[RID_BYTES], tok[DATE_TOKEN_BYTES];
	struct date_token none = { 0, 0 };
	size_t len;
	int i, n;

	i = parse_lookup(w, FCGX_GetParam("PATH_INFO", req->envp),
	    FCGX_GetParam("QUERY_STRING", req->envp));
	if (i < 0) {
		FCGX_PutS("Status: 404 Not Found\r\n"
		    "Content-Type: text/plain\r\nContent-Length: 10\r\n\r\n"
		    "not found\n", req->out);
		return;
	}
	root = json_object_new_object();
	result = json_object_new_array();
	json_object_object_add(root, "requestId",
	    json_object_new_string(rid_next(rid, sizeof(rid))));
	json_object_object_add(root, "result", result);
	run_lookup(w, i, result);
	json_object_object_add(root, "success", json_object_new_boolean(1));
	if (i == PK_STMT_ACT_PAGE) {
		/* After an empty page, the same place again. */
		none.last = w->key_id;
		if (w->nrows > 0)
			act_token(&w->arow, tok);
		else
			date_token_encode(&none, tok);
		json_object_object_add(root, "nextPageToken",
		    json_object_new_string(tok));
		json_object_object_add(root, "moreResult",
		    json_object_new_boolean(w->nrows == PK_ACT_PAGE));
	}
	body = json_object_to_json_string_length(root,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	n = snprintf(head, sizeof(head), "Status: 200 OK\r\n"
	    "Content-Type: application/json;charset=UTF-8\r\n"
	    "Content-Length: %zu\r\n\r\n", len);
	FCGX_PutStr(head, n, req->out);
	FCGX_PutStr(body, (int)len, req->out);
	json_object_put(root);
}

/* FCGX_Accept_r results that only mean "another worker took it". */
static int
is_transient(int rc)
{
	return rc == -EAGAIN || rc == -EWOULDBLOCK || rc == -EINTR ||
	    rc == -ECONNABORTED || rc == -EPROTO;
}

/* The worker: connect, then wait, accept, answer, finish. */
static void
worker_loop(const struct pk *b, unsigned index)
{
	struct pk_worker w;
	FCGX_Request req;
	struct epoll_event ev;
	sigset_t none;
	int epfd, rc;

	signal(SIGTERM, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	memset(&w, 0, sizeof(w));
	rid_init(index);
	worker_connect(&w);
	if (FCGX_InitRequest(&req, b->fd, 0) != 0 ||
	    (epfd = epoll_create1(EPOLL_CLOEXEC)) == -1)
		_exit(1);
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN | EPOLLEXCLUSIVE;
	ev.data.fd = b->fd;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, b->fd, &ev) == -1)
		_exit(1);
	for (;;) {
		/* XXX: ipcFd is libfcgi's internal; src/worker.c says why. */
		if (req.ipcFd < 0 && epoll_wait(epfd, &ev, 1, -1) == -1 &&
		    errno != EINTR)
			break;
		if ((rc = FCGX_Accept_r(&req)) < 0) {
			if (is_transient(rc))
				continue;
			break;
		}
		answer(&w, &req);
		FCGX_Finish_r(&req);
	}
	_exit(1);
}

/* Forks the workers; -1 if any fork fails. */
static int
spawn_workers(struct pk *b)
{
	pid_t pid;

	while (b->npids < b->workers) {
		if ((pid = fork()) == -1) {
			fprintf(stderr, "bench_pk_responder: fork: %s\n",
			    strerror(errno));
			return -1;
		}
		if (pid == 0)
			worker_loop(b, (unsigned)b->npids);
		b->pids[b->npids++] = pid;
	}
	return 0;
}

/* Sends SIGTERM to every worker and reaps them all. */
static void
stop_workers(struct pk *b)
{
	int i;

	for (i = 0; i < b->npids; i++)
		kill(b->pids[i], SIGTERM);
	for (i = 0; i < b->npids; i++)
		waitpid(b->pids[i], NULL, 0);
	b->npids = 0;
}

/* SIGCHLD must not be ignored, or sigwait may never see it. */
static void
on_chld(int sig)
{
	(void)sig;
}

/* Waits for a stop request (0) or a worker's death (-1). */
static int
supervise(void)
{
	sigset_t set;
	int sig = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGCHLD);
	if (sigwait(&set, &sig) != 0)
		return -1;
	if (sig == SIGCHLD) {
		fprintf(stderr, "bench_pk_responder: a worker died\n");
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct pk b;
	struct sigaction sa;
	sigset_t set;
	int64_t v;
	int fl, r = 1;

	memset(&b, 0, sizeof(b));
	b.fd = -1;
	if (argc != 3 || num_parse_i64(argv[2], 1, PK_MAX_WORKERS, &v) != 0) {
		fprintf(stderr, "usage: bench_pk_responder socket-path "
		    "workers (1..%d)\n", PK_MAX_WORKERS);
		return 1;
	}
	b.path = argv[1];
	b.workers = (int)v;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_chld;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (FCGX_Init() != 0 || mysql_library_init(0, NULL, NULL) != 0)
		goto out;
	unlink(b.path);
	if ((b.fd = FCGX_OpenSocket(b.path, PK_BACKLOG)) < 0) {
		fprintf(stderr, "bench_pk_responder: cannot listen on %s\n",
		    b.path);
		goto out;
	}
	if ((fl = fcntl(b.fd, F_GETFL)) == -1 ||
	    fcntl(b.fd, F_SETFL, fl | O_NONBLOCK) == -1) {
		fprintf(stderr, "bench_pk_responder: %s\n", strerror(errno));
		goto out;
	}
	if (spawn_workers(&b) != 0 || supervise() != 0)
		goto out;
	r = 0;
out:
	stop_workers(&b);
	if (b.fd >= 0) {
		close(b.fd);
		unlink(b.path);
	}
	return r;
}
