/*
 * Echoing untrusted input, reading booleans (text.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "util/arena.h"
#include "util/text.h"

/*
 * The length of the well-formed UTF-8 character at s (at most n bytes
 * available), or 0 when the bytes there are not one (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF).
 */
static size_t
utf8_char(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len, i;
	unsigned lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static bool
is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* See text.h. */
const char *
text_echo(struct arena *a, const char *s)
{
	const unsigned char *p;
	char *out;
	size_t n, i, o, clen;
	bool clean = true, cut;

	if (s == NULL)
		return "";
	p = (const unsigned char *)s;
	n = strlen(s);
	cut = n > TEXT_ECHO_BYTES;
	for (i = 0; i < n && clean; i += clen) {
		clen = is_control(p[i]) ? 0 : utf8_char(p + i, n - i);
		if (clen == 0)
			clean = false;
	}
	if (clean && !cut)
		return s;
	if ((out = arena_alloc(a, TEXT_ECHO_BYTES + 4)) == NULL)
		return "";
	for (i = o = 0; i < n; i += clen) {
		clen = is_control(p[i]) ? 0 : utf8_char(p + i, n - i);
		if (o + (clen == 0 ? 1 : clen) > TEXT_ECHO_BYTES)
			break;
		if (clen == 0) {
			out[o++] = '?';
			clen = 1;
		} else {
			memcpy(out + o, p + i, clen);
			o += clen;
		}
	}
	if (i < n) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
	return out;
}

/* See text.h. */
size_t
text_chars(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; s != NULL && i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

/* See text.h. */
int
text_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "true", "on", "yes", "1" };
	static const char *const no[] = { "false", "off", "no", "0" };
	size_t i, n;

	if (s == NULL)
		return -1;
	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strlen(yes[i]) == n && strncasecmp(s, yes[i], n) == 0) {
			*out = true;
			return 0;
		}
		if (strlen(no[i]) == n && strncasecmp(s, no[i], n) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}
