#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/xmalloc.h"

void
buf_init(struct buf *b, size_t max)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
	b->overflow = false;
}

void
buf_clear(struct buf *b)
{
	free(b->data);
	buf_init(b, b->max);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	b->overflow = false;
	if (b->data != NULL)
		b->data[0] = '\0';
}

static bool
reserve(struct buf *b, size_t n)
{
	size_t want;

	if (b->overflow || n > b->max - b->len) {
		b->overflow = true;
		return false;
	}
	if (b->len + n + 1 <= b->cap)
		return true;
	want = b->cap ? b->cap : 1024;
	while (want < b->len + n + 1)
		want *= 2;
	if (want > b->max + 1)
		want = b->max + 1;
	b->data = xrealloc(b->data, want);
	b->cap = want;
	return true;
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (!reserve(b, n))
		return;
	if (n > 0)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(b, (size_t)n)) {
		b->overflow = true;
		return;
	}
	va_start(ap, fmt);
	(void)vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* s (n bytes) as a JSON string; jsonc: \b and \f as json-c writes them. */
static void
add_json_str(struct buf *b, const char *s, size_t n, bool jsonc)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, start;
	unsigned char c;
	char esc[7];

	buf_addc(b, '"');
	start = 0;
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		buf_add(b, s + start, i - start);
		start = i + 1;
		switch (c) {
		case '"':  buf_add(b, "\\\"", 2); break;
		case '\\': buf_add(b, "\\\\", 2); break;
		case '\n': buf_add(b, "\\n", 2); break;
		case '\r': buf_add(b, "\\r", 2); break;
		case '\t': buf_add(b, "\\t", 2); break;
		default:
			if (jsonc && (c == '\b' || c == '\f')) {
				buf_add(b, c == '\b' ? "\\b" : "\\f", 2);
				break;
			}
			esc[0] = '\\'; esc[1] = 'u'; esc[2] = '0'; esc[3] = '0';
			esc[4] = hex[c >> 4]; esc[5] = hex[c & 15]; esc[6] = 0;
			buf_add(b, esc, 6);
			break;
		}
	}
	buf_add(b, s + start, n - start);
	buf_addc(b, '"');
}

void
buf_add_json_str(struct buf *b, const char *s, size_t n)
{
	add_json_str(b, s, n, false);
}

void
buf_add_jsonc_str(struct buf *b, const char *s)
{
	if (s == NULL)
		buf_add(b, "null", 4);
	else
		add_json_str(b, s, strlen(s), true);
}

bool
buf_ok(const struct buf *b)
{
	return !b->overflow;
}
