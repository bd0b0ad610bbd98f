/*
 * Tokens' types, values and names (token.h).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/token.h"
#include "util/text.h"

static const char *const type_names[TOKEN__MAX] = {
	[TOKEN_DATE] = "date",
	[TOKEN_NUMBER] = "number",
	[TOKEN_RICH_TEXT] = "rich text",
	[TOKEN_SCORE] = "score",
	[TOKEN_SFDC_CAMPAIGN] = "sfdc campaign",
	[TOKEN_TEXT] = "text",
};

/* See token.h. */
const char *
token_type_name(enum token_type t)
{
	return t < TOKEN__MAX ? type_names[t] : "text";
}

/* See token.h. */
int
token_type_parse(const char *word)
{
	int i;

	if (word == NULL)
		return -1;
	for (i = 0; i < TOKEN__MAX; i++)
		if (strcasecmp(word, type_names[i]) == 0)
			return i;
	return -1;
}

/* n digits at s, as a number into *v. */
static bool
digits(const char *s, size_t n, int *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/* yyyy-MM-dd, a day that exists. */
static bool
is_date(const char *s)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };
	int y, m, d, max;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-' ||
	    !digits(s, 4, &y) || !digits(s + 5, 2, &m) ||
	    !digits(s + 8, 2, &d) || y < 1 || m < 1 || m > 12 || d < 1)
		return false;
	max = days[m - 1];
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		max = 29;
	return d <= max;
}

/* Skips a run of digits at *p; whether there was one. */
static bool
skip_digits(const char **p)
{
	const char *s = *p;

	while (isdigit((unsigned char)**p))
		(*p)++;
	return *p != s;
}

/* [+-] digits [. digits] [e [+-] digits], or [+-] . digits [...]. */
static bool
is_number(const char *s)
{
	bool whole, frac = false;

	if (*s == '+' || *s == '-')
		s++;
	whole = skip_digits(&s);
	if (*s == '.') {
		s++;
		frac = skip_digits(&s);
	}
	if (!whole && !frac)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!skip_digits(&s))
			return false;
	}
	return *s == '\0';
}

/* [+-] digits within a signed 32-bit integer. */
static bool
is_score(const char *s)
{
	bool neg = *s == '-';
	int64_t v = 0;

	if (*s == '+' || *s == '-')
		s++;
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
		v = v * 10 + (*s - '0');
		if (v > (int64_t)INT32_MAX + 1)
			return false;
	}
	return neg || v <= INT32_MAX;
}

/* See token.h. */
int
token_value_check(enum token_type t, const char *value)
{
	if (value == NULL || strlen(value) > TOKEN_VALUE_MAX_BYTES)
		return -1;
	switch (t) {
	case TOKEN_DATE:
		return is_date(value) ? 0 : -1;
	case TOKEN_NUMBER:
		return is_number(value) ? 0 : -1;
	case TOKEN_SCORE:
		return is_score(value) ? 0 : -1;
	case TOKEN_RICH_TEXT:
	case TOKEN_SFDC_CAMPAIGN:
	case TOKEN_TEXT:
		return 0;
	case TOKEN__MAX:
		break;
	}
	return -1;
}

/* See token.h. */
int
token_name_normalize(const char *name, char *out, size_t size)
{
	size_t n = strlen(name);

	if (n >= 4 && strncmp(name, "{{", 2) == 0 &&
	    strcmp(name + n - 2, "}}") == 0) {
		name += 2;
		n -= 4;
	}
	if (n >= 3 && strncasecmp(name, "my.", 3) == 0) {
		name += 3;
		n -= 3;
	}
	if (n == 0 || n >= size || text_chars(name, n) > TOKEN_NAME_CHARS)
		return -1;
	memcpy(out, name, n);
	out[n] = '\0';
	if (strstr(out, "{{") != NULL || strstr(out, "}}") != NULL)
		return -1;
	return 0;
}

/* By name, then nearest, then as given. */
static int
cmp_def(const void *pa, const void *pb)
{
	const struct token_def *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c != 0)
		return c;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* See token.h. */
size_t
token_nearest(struct token_def *defs, size_t n)
{
	size_t i, k = 0;

	if (n == 0)
		return 0;
	qsort(defs, n, sizeof(*defs), cmp_def);
	for (i = 0; i < n; i++)
		if (k == 0 || strcmp(defs[i].name, defs[k - 1].name) != 0)
			defs[k++] = defs[i];
	return k;
}
