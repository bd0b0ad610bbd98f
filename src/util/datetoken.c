/*
 * Date paging tokens (datetoken.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/datetoken.h"
#include "util/timeutil.h"

/* The text inside a token: "YYYY-MM-DDTHH:MM:SS.mmm+0000," and an id. */
#define PLAIN_DATE	29
#define PLAIN_MAX	(PLAIN_DATE + 19)

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/* Base32 of the n bytes at in, '=' padded to a multiple of 8, into out. */
static void
b32_encode(const unsigned char *in, size_t n, char *out)
{
	uint32_t acc = 0;
	size_t i, o = 0;
	int bits = 0;

	for (i = 0; i < n; i++) {
		acc = (acc << 8 | in[i]) & 0xffff;
		bits += 8;
		while (bits >= 5) {
			bits -= 5;
			out[o++] = alphabet[(acc >> bits) & 31];
		}
	}
	if (bits > 0)
		out[o++] = alphabet[(acc << (5 - bits)) & 31];
	while (o % 8 != 0)
		out[o++] = '=';
	out[o] = '\0';
}

/*
 * Decodes base32 text (upper case; '=' padding optional but, when
 * present, complete) into at most max bytes at out.  Returns the byte
 * count, or -1.  Leftover bits must be zero, so one text decodes from
 * one byte string only.
 */
static int
b32_decode(const char *s, unsigned char *out, size_t max)
{
	const char *p;
	uint32_t acc = 0;
	size_t len, chars, o = 0, i;
	int bits = 0;

	len = strlen(s);
	chars = strcspn(s, "=");
	for (i = chars; i < len; i++)
		if (s[i] != '=')
			return -1;
	if (chars < len && len % 8 != 0)
		return -1;
	/* A length base32 of whole bytes can have (mod 8). */
	if (chars % 8 == 1 || chars % 8 == 3 || chars % 8 == 6)
		return -1;
	if (chars < len && (chars + 7) / 8 * 8 != len)
		return -1;
	for (i = 0; i < chars; i++) {
		if ((p = strchr(alphabet, s[i])) == NULL || s[i] == '\0')
			return -1;
		acc = (acc << 5 | (uint32_t)(p - alphabet)) & 0xffff;
		bits += 5;
		if (bits >= 8) {
			bits -= 8;
			if (o == max)
				return -1;
			out[o++] = (unsigned char)(acc >> bits);
		}
	}
	if ((acc & ((1u << bits) - 1)) != 0)
		return -1;
	return (int)o;
}

/* The n digits at s as a number; -1 when one is not a digit. */
static int64_t
digits(const char *s, size_t n)
{
	int64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* See datetoken.h. */
void
date_token_encode(const struct date_token *t, char out[DATE_TOKEN_BYTES])
{
	char plain[PLAIN_MAX + 1];
	int64_t ms = t->ms, days, sod, y;
	int m, d, n;

	if (ms < DATE_TOKEN_MIN_MS)
		ms = DATE_TOKEN_MIN_MS;
	if (ms > DATE_TOKEN_MAX_MS)
		ms = DATE_TOKEN_MAX_MS;
	days = ms / 86400000;
	sod = ms % 86400000;
	time_civil_from_days(days, &y, &m, &d);
	n = snprintf(plain, sizeof(plain),
	    "%04lld-%02d-%02dT%02d:%02d:%02d.%03d+0000,%lld", (long long)y,
	    m, d, (int)(sod / 3600000), (int)(sod / 60000 % 60),
	    (int)(sod / 1000 % 60), (int)(sod % 1000),
	    (long long)(t->last > 0 ? t->last : 0));
	b32_encode((const unsigned char *)plain, (size_t)n, out);
}

/* See datetoken.h. */
int
date_token_decode(const char *text, struct date_token *out)
{
	unsigned char raw[PLAIN_MAX + 1];
	const char *s = (const char *)raw;
	int64_t y, mo, d, h, mi, sec, ms, id, ty;
	int n, tm, td;
	size_t idlen;

	memset(out, 0, sizeof(*out));
	if (text == NULL || strlen(text) >= DATE_TOKEN_BYTES)
		return -1;
	if ((n = b32_decode(text, raw, PLAIN_MAX)) < PLAIN_DATE + 1)
		return -1;
	raw[n] = '\0';
	if (strlen(s) != (size_t)n || s[4] != '-' || s[7] != '-' ||
	    s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != '.' ||
	    memcmp(s + 23, "+0000,", 6) != 0)
		return -1;
	y = digits(s, 4);
	mo = digits(s + 5, 2);
	d = digits(s + 8, 2);
	h = digits(s + 11, 2);
	mi = digits(s + 14, 2);
	sec = digits(s + 17, 2);
	ms = digits(s + 20, 3);
	idlen = (size_t)n - PLAIN_DATE;
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 ||
	    mi < 0 || mi > 59 || sec < 0 || sec > 59 || ms < 0)
		return -1;
	/* The day must exist: it comes back from its day number. */
	time_civil_from_days(time_days_from_civil(y, (int)mo, (int)d), &ty,
	    &tm, &td);
	if (ty != y || tm != mo || td != d)
		return -1;
	if (idlen > 19 || (idlen > 1 && s[PLAIN_DATE] == '0'))
		return -1;
	/* 19 digits may pass INT64_MAX: compare as text first. */
	if (idlen == 19 && strcmp(s + PLAIN_DATE, "9223372036854775807") > 0)
		return -1;
	if ((id = digits(s + PLAIN_DATE, idlen)) < 0)
		return -1;
	out->ms = time_days_from_civil(y, (int)mo, (int)d) * 86400000 +
	    h * 3600000 + mi * 60000 + sec * 1000 + ms;
	out->last = id;
	return 0;
}
