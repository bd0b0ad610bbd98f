/*
 * Program tags and costs parameters (progmeta.h).  Python's list text is
 * turned into JSON by one pass over the bytes, then json-c parses it.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>

#include "model/progmeta.h"
#include "util/arena.h"

/* Copies word w to o (no NUL); returns its length. */
static size_t
put(char *o, const char *w)
{
	size_t n = strlen(w);

	memcpy(o, w, n);
	return n;
}

/* See progmeta.h. */
char *
progmeta_json(struct arena *a, const char *s)
{
	size_t n = strlen(s), i, k = 0, w;
	char *o, q;

	/* Each byte grows to at most two (a quote escaped or added). */
	if ((o = arena_alloc(a, 2 * n + 3)) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\'') {
			q = s[i++];
			o[k++] = '"';
			for (; i < n && s[i] != q; i++) {
				if (s[i] == '\\' && i + 1 < n) {
					if (q == '\'' && s[i + 1] == '\'') {
						o[k++] = s[++i];
						continue;
					}
					o[k++] = s[i++];
					o[k++] = s[i];
				} else if (s[i] == '"') {
					o[k++] = '\\';
					o[k++] = '"';
				} else
					o[k++] = s[i];
			}
			o[k++] = '"';
		} else if (isalpha((unsigned char)s[i]) || s[i] == '_') {
			for (w = i; w < n && (isalnum((unsigned char)s[w]) ||
			    s[w] == '_'); w++)
				;
			if (w - i == 4 && strncmp(s + i, "True", 4) == 0)
				k += put(o + k, "true");
			else if (w - i == 5 && strncmp(s + i, "False", 5) == 0)
				k += put(o + k, "false");
			else if (w - i == 4 && strncmp(s + i, "None", 4) == 0)
				k += put(o + k, "null");
			else if ((w - i == 4 && strncmp(s + i, "true", 4) == 0) ||
			    (w - i == 5 && strncmp(s + i, "false", 5) == 0) ||
			    (w - i == 4 && strncmp(s + i, "null", 4) == 0)) {
				memcpy(o + k, s + i, w - i);
				k += w - i;
			} else {
				o[k++] = '"';
				memcpy(o + k, s + i, w - i);
				k += w - i;
				o[k++] = '"';
			}
			i = w - 1;
		} else
			o[k++] = s[i];
	}
	o[k] = '\0';
	return o;
}

/*
 * s parsed as a JSON array of at most PROGMETA_MAX_ITEMS objects into
 * *arr (the caller puts it); -1 with *why.
 */
static int
parse_array(struct arena *a, const char *s, struct json_object **arr,
    const char **why)
{
	const char *j = progmeta_json(a, s);
	size_t i, n;

	*arr = NULL;
	if (j == NULL || (*arr = json_tokener_parse(j)) == NULL ||
	    !json_object_is_type(*arr, json_type_array)) {
		*why = "not a list";
		return -1;
	}
	n = json_object_array_length(*arr);
	if (n > PROGMETA_MAX_ITEMS) {
		*why = "too many items";
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!json_object_is_type(json_object_array_get_idx(*arr, i),
		    json_type_object)) {
			*why = "an item is not an object";
			return -1;
		}
	return 0;
}

/* Member k of o as text of 1..PROGMETA_TEXT_BYTES bytes, in a; or NULL. */
static const char *
text_member(struct arena *a, struct json_object *o, const char *k)
{
	struct json_object *v;
	const char *s;
	size_t n;

	if (!json_object_object_get_ex(o, k, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	s = json_object_get_string(v);
	n = strlen(s);
	if (n == 0 || n > PROGMETA_TEXT_BYTES)
		return NULL;
	return arena_strdup(a, s);
}

/* See progmeta.h. */
int
progmeta_tags(struct arena *a, const char *s, struct progmeta_tag **out,
    size_t *n, const char **why)
{
	struct json_object *arr, *o;
	struct progmeta_tag *v = NULL;
	size_t i, c;
	int r = -1;

	*out = NULL;
	*n = 0;
	if (parse_array(a, s, &arr, why) != 0)
		goto out;
	c = json_object_array_length(arr);
	if (c > 0 && (v = arena_zalloc(a, c * sizeof(*v))) == NULL) {
		*why = "out of memory";
		goto out;
	}
	for (i = 0; i < c; i++) {
		o = json_object_array_get_idx(arr, i);
		if ((v[i].type = text_member(a, o, "tagType")) == NULL ||
		    (v[i].value = text_member(a, o, "tagValue")) == NULL) {
			*why = "each tag needs tagType and tagValue";
			goto out;
		}
	}
	*out = v;
	*n = c;
	r = 0;
out:
	json_object_put(arr);
	return r;
}

/* Whether s is a real day "YYYY-MM-DD". */
static bool
is_day(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };
	int y, m, d, i;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return false;
	y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 +
	    (s[3] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return false;
	return m != 2 || d < 29 ||
	    (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
}

/* See progmeta.h. */
int
progmeta_costs(struct arena *a, const char *s, struct progmeta_cost **out,
    size_t *n, const char **why)
{
	struct json_object *arr, *o, *v;
	struct progmeta_cost *c = NULL;
	const char *day;
	size_t i, cnt;
	int r = -1;

	*out = NULL;
	*n = 0;
	if (parse_array(a, s, &arr, why) != 0)
		goto out;
	cnt = json_object_array_length(arr);
	if (cnt > 0 && (c = arena_zalloc(a, cnt * sizeof(*c))) == NULL) {
		*why = "out of memory";
		goto out;
	}
	for (i = 0; i < cnt; i++) {
		o = json_object_array_get_idx(arr, i);
		if ((day = text_member(a, o, "startDate")) == NULL ||
		    !is_day(day)) {
			*why = "each cost needs a startDate YYYY-MM-DD";
			goto out;
		}
		memcpy(c[i].start_date, day, 11);
		if (!json_object_object_get_ex(o, "cost", &v) ||
		    !json_object_is_type(v, json_type_int) ||
		    json_object_get_int64(v) < 0) {
			*why = "each cost needs a cost, a whole number 0 or more";
			goto out;
		}
		c[i].cost = json_object_get_int64(v);
		c[i].note = NULL;
		if (json_object_object_get_ex(o, "note", &v) &&
		    !json_object_is_type(v, json_type_null) &&
		    (c[i].note = text_member(a, o, "note")) == NULL) {
			*why = "a note is text of 1 to 255 bytes";
			goto out;
		}
	}
	*out = c;
	*n = cnt;
	r = 0;
out:
	json_object_put(arr);
	return r;
}

/* The number of UTF-8 characters of s (the bytes that start one). */
static size_t
chars(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* See progmeta.h. */
char *
progmeta_copy_name(struct arena *a, const char *name, const char *from,
    const char *to)
{
	size_t n = strlen(name), f = strlen(from), t = strlen(to);
	char *o;

	/* A copy of a copy keeps one suffix: "<base> (<from>)" is <base>. */
	if (n > f + 3 && name[n - 1] == ')' &&
	    memcmp(name + n - f - 3, " (", 2) == 0 &&
	    memcmp(name + n - f - 1, from, f) == 0)
		n -= f + 3;
	if ((o = arena_alloc(a, n + t + 4)) == NULL)
		return NULL;
	memcpy(o, name, n);
	memcpy(o + n, " (", 2);
	memcpy(o + n + 2, to, t);
	memcpy(o + n + 2 + t, ")", 2);
	return chars(o) <= PROGMETA_NAME_CHARS ? o : NULL;
}
