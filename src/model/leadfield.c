/*
 * The lead field catalogue and typed lead values (leadfield.h).
 */
#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <json-c/json.h>

#include "model/leadfield.h"
#include "util/arena.h"
#include "util/num.h"
#include "util/text.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

static const char *const type_names[LF_TYPE__MAX] = {
	[LF_STRING] = "string",
	[LF_TEXT] = "text",
	[LF_EMAIL] = "email",
	[LF_PHONE] = "phone",
	[LF_URL] = "url",
	[LF_INTEGER] = "integer",
	[LF_SCORE] = "score",
	[LF_FLOAT] = "float",
	[LF_CURRENCY] = "currency",
	[LF_PERCENT] = "percent",
	[LF_BOOLEAN] = "boolean",
	[LF_DATE] = "date",
	[LF_DATETIME] = "datetime",
	[LF_REFERENCE] = "reference",
	[LF_FORMULA] = "formula",
};

/*
 * In the order the real service writes them (docs/behaviour.md §16, "Lead
 * DB query hit"): id, firstName, lastName, email, updatedAt, createdAt.
 */
const char *const lead_default_fields[LEAD_DEFAULT_FIELDS + 1] = {
	"id", "firstName", "lastName", "email", "updatedAt", "createdAt",
	NULL
};

const char *
lf_type_name(enum lf_type t)
{
	if ((unsigned)t >= LF_TYPE__MAX)
		return "string";
	return type_names[t];
}

int
lf_type_parse(const char *name, enum lf_type *out)
{
	size_t i;

	for (i = 0; i < LF_TYPE__MAX; i++)
		if (strcmp(type_names[i], name) == 0) {
			*out = (enum lf_type)i;
			return 0;
		}
	return -1;
}

static int
cmp_attr(const void *a, const void *b)
{
	const struct lead_field *x = a, *y = b;

	return (x->attr_id > y->attr_id) - (x->attr_id < y->attr_id);
}

/* Orders indexes into the schema arg by field name, without case. */
static int
cmp_name_idx(const void *a, const void *b, void *arg)
{
	const struct lead_schema *s = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return strcasecmp(s->fields[x].name, s->fields[y].name);
}

void
lead_schema_index(struct lead_schema *s)
{
	size_t i;

	free(s->by_name);
	s->by_name = NULL;
	if (s->count == 0)
		return;
	qsort(s->fields, s->count, sizeof(*s->fields), cmp_attr);
	s->by_name = xcalloc(s->count, sizeof(*s->by_name));
	for (i = 0; i < s->count; i++)
		s->by_name[i] = i;
	qsort_r(s->by_name, s->count, sizeof(*s->by_name), cmp_name_idx, s);
}

void
lead_schema_clear(struct lead_schema *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->count; i++) {
		free(s->fields[i].name);
		free(s->fields[i].display_name);
		free(s->fields[i].description);
		free(s->fields[i].soap_name);
	}
	free(s->fields);
	free(s->by_name);
	memset(s, 0, sizeof(*s));
}

const struct lead_field *
lead_schema_find(const struct lead_schema *s, const char *name)
{
	size_t lo = 0, hi, mid;
	int c;

	if (s == NULL || s->by_name == NULL || name == NULL)
		return NULL;
	hi = s->count;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcasecmp(name, s->fields[s->by_name[mid]].name);
		if (c == 0)
			return &s->fields[s->by_name[mid]];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static bool
is_email(const char *s, size_t n)
{
	const char *at = NULL, *dot;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch <= 0x20 || ch >= 0x7F || ch == '<' || ch == '>' ||
		    ch == ',' || ch == ';' || ch == '"' || ch == '(' ||
		    ch == ')' || ch == '[' || ch == ']' || ch == '\\')
			return false;
		if (ch == '@') {
			if (at != NULL)
				return false;
			at = s + i;
		}
	}
	if (at == NULL || at == s || at == s + n - 1)
		return false;
	dot = memchr(at + 1, '.', (size_t)(s + n - at - 1));
	return dot != NULL && dot != at + 1 && dot != s + n - 1 &&
	    s[n - 1] != '.' && memmem(at, (size_t)(s + n - at), "..", 2) ==
	    NULL;
}

static bool
is_phone(const char *s, size_t n)
{
	size_t i, digits = 0;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (isdigit(ch))
			digits++;
		else if (strchr("+-(). /#*xXetEXT", ch) == NULL || ch == 0)
			return false;
	}
	return digits > 0;
}

static bool
is_url(const char *s, size_t n)
{
	size_t i;
	const char *p;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch <= 0x20 || ch == 0x7F || ch == '"' || ch == '<' ||
		    ch == '>' || ch == '\\' || ch == '^' || ch == '`' ||
		    ch == '{' || ch == '|' || ch == '}')
			return false;
	}
	/* scheme://host... or host.tld... */
	p = memmem(s, n, "://", 3);
	if (p != NULL) {
		if (p == s)
			return false;
		for (i = 0; s + i < p; i++)
			if (!isalnum((unsigned char)s[i]) && s[i] != '+' &&
			    s[i] != '-' && s[i] != '.')
				return false;
		return (size_t)(p + 3 - s) < n;
	}
	return memchr(s, '.', n) != NULL && s[0] != '.';
}

static bool
parse_bool(const char *s, size_t n, bool *out)
{
	static const char *const t[] = { "true", "1", "yes", NULL };
	static const char *const f[] = { "false", "0", "no", NULL };
	size_t i;

	for (i = 0; t[i] != NULL; i++)
		if (strlen(t[i]) == n && strncasecmp(s, t[i], n) == 0) {
			*out = true;
			return true;
		}
	for (i = 0; f[i] != NULL; i++)
		if (strlen(f[i]) == n && strncasecmp(s, f[i], n) == 0) {
			*out = false;
			return true;
		}
	return false;
}

/* A finite decimal number, as the whole string. */
static bool
parse_double(const char *s, size_t n, double *out)
{
	return num_parse_double(s, n, out) == 0;
}

/* The input as text (strings as they are, others as JSON). */
const char *
lead_value_text(struct json_object *in, struct arena *a)
{
	const char *s;

	if (in == NULL)
		return "null";
	if (json_object_is_type(in, json_type_string))
		s = json_object_get_string(in);
	else
		s = json_object_to_json_string_ext(in, JSON_C_TO_STRING_PLAIN);
	s = arena_strdup(a, s != NULL ? s : "");
	return s != NULL ? s : "";
}

static int
parse_text(const struct lead_field *f, const char *s, size_t n,
    struct arena *a, struct lead_value *out)
{
	switch (f->type) {
	case LF_EMAIL:
		if (!is_email(s, n))
			return -1;
		break;
	case LF_PHONE:
		if (!is_phone(s, n))
			return -1;
		break;
	case LF_URL:
		if (!is_url(s, n))
			return -1;
		break;
	default:
		break;
	}
	if (f->type == LF_TEXT) {
		if (n > LF_TEXT_BYTES)
			return -1;
	} else if (text_chars(s, n) > (size_t)(f->length > 0 ? f->length :
	    255))
		return -1;
	out->kind = LV_STR;
	out->s = arena_strndup(a, s, n);
	out->len = n;
	return out->s != NULL ? 0 : -1;
}

static int
parse_typed(const struct lead_field *f, struct json_object *in,
    const char *s, size_t n, struct arena *a, struct lead_value *out)
{
	int64_t iv;
	double dv;
	bool bv, has_time;
	int64_t y, day;
	int m, d;
	char *txt;

	switch (f->type) {
	case LF_STRING:
	case LF_TEXT:
	case LF_EMAIL:
	case LF_PHONE:
	case LF_URL:
		return parse_text(f, s, n, a, out);
	case LF_INTEGER:
	case LF_SCORE:
	case LF_REFERENCE:
		if (json_object_is_type(in, json_type_int)) {
			errno = 0;
			iv = json_object_get_int64(in);
			if (errno != 0 || iv < INT32_MIN || iv > INT32_MAX)
				return -1;
		} else if (json_object_is_type(in, json_type_double)) {
			dv = json_object_get_double(in);
			if (dv != floor(dv) || dv < INT32_MIN || dv > INT32_MAX)
				return -1;
			iv = (int64_t)dv;
		} else if (json_object_is_type(in, json_type_string)) {
			if (num_parse_i64n(s, n, INT32_MIN, INT32_MAX,
			    &iv) != 0)
				return -1;
		} else
			return -1;
		out->kind = LV_INT;
		out->i = iv;
		return 0;
	case LF_FLOAT:
	case LF_CURRENCY:
	case LF_PERCENT:
		if (json_object_is_type(in, json_type_int) ||
		    json_object_is_type(in, json_type_double))
			dv = json_object_get_double(in);
		else if (!json_object_is_type(in, json_type_string) ||
		    !parse_double(s, n, &dv))
			return -1;
		if (!isfinite(dv))
			return -1;
		out->kind = LV_DBL;
		out->d = dv;
		return 0;
	case LF_BOOLEAN:
		if (json_object_is_type(in, json_type_boolean))
			bv = json_object_get_boolean(in);
		else if (json_object_is_type(in, json_type_int)) {
			iv = json_object_get_int64(in);
			if (iv != 0 && iv != 1)
				return -1;
			bv = iv == 1;
		} else if (!json_object_is_type(in, json_type_string) ||
		    !parse_bool(s, n, &bv))
			return -1;
		out->kind = LV_BOOL;
		out->i = bv;
		return 0;
	case LF_DATE:
	case LF_DATETIME:
		if (!json_object_is_type(in, json_type_string) ||
		    !time_parse_iso(s, n, &iv, &has_time, &day))
			return -1;
		/*
		 * A date keeps the day written ("2024-05-01T23:30:00-05:00"
		 * is May 1st, not May 2nd in UTC); a datetime is stored in
		 * UTC.
		 */
		if (f->type == LF_DATE)
			iv = day * 86400;
		time_civil_from_days(iv >= 0 ? iv / 86400 :
		    (iv - 86399) / 86400, &y, &m, &d);
		if (y < 1000 || y > 9999)
			return -1;
		if (f->type == LF_DATE)
			txt = arena_printf(a, "%04d-%02d-%02d", (int)y, m, d);
		else {
			int64_t sod = ((iv % 86400) + 86400) % 86400;

			txt = arena_printf(a, "%04d-%02d-%02d %02d:%02d:%02d",
			    (int)y, m, d, (int)(sod / 3600),
			    (int)(sod / 60 % 60), (int)(sod % 60));
		}
		if (txt == NULL)
			return -1;
		out->kind = LV_STR;
		out->s = txt;
		out->len = strlen(txt);
		return 0;
	default:
		return -1;
	}
}

int
lead_value_parse(const struct lead_field *f, struct json_object *in,
    struct arena *a, struct lead_value *out)
{
	const char *s = NULL;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (in == NULL || json_object_is_type(in, json_type_null)) {
		out->kind = LV_NULL;
		return 0;
	}
	if (json_object_is_type(in, json_type_object) ||
	    json_object_is_type(in, json_type_array))
		return -1;
	if (json_object_is_type(in, json_type_string)) {
		s = json_object_get_string(in);
		n = (size_t)json_object_get_string_len(in);
		/* json-c keeps \u0000: a NUL never reaches the database. */
		if (memchr(s, '\0', n) != NULL)
			return -1;
		if (n == 0) {
			out->kind = LV_NULL;
			return 0;
		}
	} else {
		/* Numbers and booleans given for text fields: as JSON. */
		s = json_object_to_json_string_ext(in, JSON_C_TO_STRING_PLAIN);
		n = strlen(s);
	}
	return parse_typed(f, in, s, n, a, out);
}

struct json_object *
lead_value_json(const struct lead_field *f, const char *text, size_t len)
{
	char tmp[32];
	int64_t iv;
	double dv;

	if (text == NULL)
		return f->type == LF_BOOLEAN ? json_object_new_boolean(0) :
		    NULL;
	switch (f->type) {
	case LF_INTEGER:
	case LF_SCORE:
	case LF_REFERENCE:
		if (num_parse_i64n(text, len, INT64_MIN, INT64_MAX, &iv) == 0)
			return json_object_new_int64(iv);
		break;
	case LF_FLOAT:
	case LF_CURRENCY:
	case LF_PERCENT:
		/*
		 * The shortest text that reads back as the same double, so
		 * 14.1 is written 14.1 and not 14.099999999999999.
		 */
		if (parse_double(text, len, &dv)) {
			char num[40];
			double back;

			snprintf(num, sizeof(num), "%.15g", dv);
			if (!parse_double(num, strlen(num), &back) ||
			    back != dv)
				snprintf(num, sizeof(num), "%.17g", dv);
			return json_object_new_double_s(dv, num);
		}
		break;
	case LF_BOOLEAN:
		return json_object_new_boolean(len > 0 && text[0] != '0');
	case LF_DATETIME:
		/* "YYYY-MM-DD HH:MM:SS" -> "YYYY-MM-DDTHH:MM:SSZ" */
		if (len == 19 && len + 2 <= sizeof(tmp)) {
			memcpy(tmp, text, len);
			tmp[10] = 'T';
			tmp[19] = 'Z';
			return json_object_new_string_len(tmp, 20);
		}
		break;
	default:
		break;
	}
	return json_object_new_string_len(text, (int)len);
}

/* Whether the n bytes at s are 1..max decimal digits. */
static bool
is_digits(const char *s, size_t n, size_t max)
{
	size_t i;

	if (n == 0 || n > max)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/*
 * A _mkto_trk value as the tracking script writes it: "id:" and the
 * munchkin id (NNN-XXX-NNN: digits, letters or digits, digits), then
 * "&token:_mch-", the cookie's domain (letters, digits, '.', '-', '_'),
 * "-", the time it was set in milliseconds and "-", a random number, e.g.
 * id:287-GTJ-838&token:_mch-marketo.com-1396310362214-46169.  The one
 * rule for Associate Lead, Submit Form and filterType=cookies: anything
 * else is 1012 everywhere.
 */
bool
lead_cookie_is_valid(const char *v, size_t n)
{
	static const char tok[] = "&token:_mch-";
	const char *host, *end, *d1, *d2;
	size_t i;

	if (n > LEAD_COOKIE_BYTES || n < 14 + sizeof(tok) ||
	    memcmp(v, "id:", 3) != 0 || !is_digits(v + 3, 3, 3) ||
	    v[6] != '-' || !isalnum((unsigned char)v[7]) ||
	    !isalnum((unsigned char)v[8]) || !isalnum((unsigned char)v[9]) ||
	    v[10] != '-' || !is_digits(v + 11, 3, 3) ||
	    memcmp(v + 14, tok, sizeof(tok) - 1) != 0)
		return false;
	host = v + 14 + sizeof(tok) - 1;
	end = v + n;
	if ((d2 = memrchr(host, '-', (size_t)(end - host))) == NULL ||
	    !is_digits(d2 + 1, (size_t)(end - d2 - 1), 20) ||
	    (d1 = memrchr(host, '-', (size_t)(d2 - host))) == NULL ||
	    !is_digits(d1 + 1, (size_t)(d2 - d1 - 1), 20) || d1 == host)
		return false;
	for (i = 0; host + i < d1; i++)
		if (!isalnum((unsigned char)host[i]) && host[i] != '.' &&
		    host[i] != '-' && host[i] != '_')
			return false;
	return true;
}

/* See leadfield.h. */
const char *
lead_key_norm(const struct lead_field *f, const struct lead_value *v,
    struct arena *a)
{
	char *p;
	size_t n, i;

	switch (v->kind) {
	case LV_INT:
	case LV_BOOL:
		return arena_printf(a, "%lld", (long long)v->i);
	case LV_DBL:
		return arena_printf(a, "%.17g", v->d);
	case LV_STR:
		break;
	default:
		return NULL;
	}
	/* PAD SPACE collations ignore trailing spaces when comparing. */
	for (n = v->len; n > 0 && v->s[n - 1] == ' '; n--)
		;
	if ((p = arena_strndup(a, v->s, n)) == NULL)
		return NULL;
	/* email is utf8mb4_general_ci; email values are ASCII (is_email). */
	if (f->type == LF_EMAIL)
		for (i = 0; i < n; i++)
			p[i] = (char)tolower((unsigned char)p[i]);
	return p;
}

/* See leadfield.h. */
uint64_t
lead_key_hash(const char *field, const char *norm)
{
	uint64_t h = UINT64_C(14695981039346656037);
	const char *p;

	for (p = field; *p != '\0'; p++) {
		h ^= (unsigned char)tolower((unsigned char)*p);
		h *= UINT64_C(1099511628211);
	}
	h ^= 0xff;	/* separator: no byte of a name is 0xff */
	h *= UINT64_C(1099511628211);
	for (p = norm; *p != '\0'; p++) {
		h ^= (unsigned char)tolower((unsigned char)*p);
		h *= UINT64_C(1099511628211);
	}
	return h;
}
