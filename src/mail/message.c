/*
 * The message builder (message.h).  Everything a header carries comes
 * from a client or an operator, so no value is written as given unless
 * it is plain text that cannot end its line: addresses are checked,
 * other text has its control bytes turned into spaces and is encoded
 * when it is not ASCII.  The body parts are quoted-printable: they stay
 * readable in `mautoctl outbox show`, every line is short (SMTP allows
 * 998 bytes), and "=_" never occurs in them, so a boundary starting with
 * it cannot occur in a part (RFC 2045 §6.7, RFC 2046 §5.1.1).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bounds.h"
#include "mail/message.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#define QP_LINE		76	/* RFC 2045 §6.7 (5) */
#define EW_INPUT	45	/* bytes per encoded-word: 60 of base64 */
#define HEADER_PLAIN	900	/* a longer subject is encoded and folded */
#define TOKEN_MAX	64

static const char hex[] = "0123456789ABCDEF";
static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* See message.h. */
bool
mail_address_ok(const char *s)
{
	const char *p, *at;
	size_t n;

	if (s == NULL)
		return false;
	n = strlen(s);
	if (n < 3 || n > MAIL_ADDRESS_BYTES)
		return false;
	for (p = s; *p != '\0'; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f ||
		    strchr("<>()[],;:\\\"", *p) != NULL)
			return false;
	at = strchr(s, '@');
	return at != NULL && at != s && at[1] != '\0' &&
	    strchr(at + 1, '@') == NULL;
}

static bool
is_token(const char *s)
{
	size_t n;

	if (s == NULL || (n = strlen(s)) == 0 || n > TOKEN_MAX)
		return false;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* Base64 of n bytes of p. */
static void
add_b64(struct buf *b, const unsigned char *p, size_t n)
{
	uint32_t v;
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		buf_addc(b, b64[v >> 18 & 63]);
		buf_addc(b, b64[v >> 12 & 63]);
		buf_addc(b, b64[v >> 6 & 63]);
		buf_addc(b, b64[v & 63]);
	}
	if (n - i == 1) {
		v = (uint32_t)p[i] << 16;
		buf_addc(b, b64[v >> 18 & 63]);
		buf_addc(b, b64[v >> 12 & 63]);
		buf_adds(b, "==");
	} else if (n - i == 2) {
		v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
		buf_addc(b, b64[v >> 18 & 63]);
		buf_addc(b, b64[v >> 12 & 63]);
		buf_addc(b, b64[v >> 6 & 63]);
		buf_addc(b, '=');
	}
}

/* A copy of s with every control byte (and DEL) made a space. */
static char *
no_controls(const char *s)
{
	char *c = xstrdup(s != NULL ? s : ""), *p;

	for (p = c; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return c;
}

static bool
is_plain(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s >= 0x7f)
			return false;
	return true;
}

/* See message.h. */
void
mail_header_text(struct buf *b, const char *text, size_t cols)
{
	char *t = no_controls(text);
	const unsigned char *p = (const unsigned char *)t;
	size_t n = strlen(t), k, max;

	if (is_plain(t) && strstr(t, "=?") == NULL &&
	    n + cols <= HEADER_PLAIN) {
		buf_add(b, t, n);
		goto out;
	}
	/*
	 * RFC 2047 §2: an encoded-word is at most 75 bytes and each line
	 * of them at most 76; §5 (3): a word holds whole characters, so a
	 * cut never falls before a UTF-8 continuation byte.
	 */
	/* The first word shares its line with "Name: ". */
	max = cols + 12 + 4 < QP_LINE ? (QP_LINE - cols - 12) / 4 * 3 : 3;
	while (n > 0) {
		k = n < max ? n : max;
		while (k < n && k > 1 && (p[k] & 0xc0) == 0x80)
			k--;
		buf_adds(b, "=?UTF-8?B?");
		add_b64(b, p, k);
		buf_adds(b, "?=");
		p += k;
		n -= k;
		if (n > 0)
			buf_adds(b, "\r\n ");
		max = EW_INPUT;
	}
out:
	free(t);
}

/* One byte quoted-printable, breaking the line softly when it is full. */
static void
qp_put(struct buf *b, size_t *col, const char *tok, size_t n)
{
	if (*col + n > QP_LINE - 1) {
		buf_adds(b, "=\r\n");
		*col = 0;
	}
	buf_add(b, tok, n);
	*col += n;
}

/* See message.h. */
void
mail_qp(struct buf *b, const char *s, size_t n)
{
	char enc[3];
	size_t i, col = 0;
	unsigned char c;
	bool eol;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c == '\n' || (c == '\r' && i + 1 < n && s[i + 1] == '\n')) {
			if (c == '\r')
				i++;
			buf_adds(b, "\r\n");
			col = 0;
			continue;
		}
		/* White space before a line end would be lost in transit. */
		eol = i + 1 == n || s[i + 1] == '\n' ||
		    (s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n');
		if ((c >= 33 && c <= 126 && c != '=') ||
		    ((c == ' ' || c == '\t') && !eol)) {
			enc[0] = (char)c;
			qp_put(b, &col, enc, 1);
		} else {
			enc[0] = '=';
			enc[1] = hex[c >> 4];
			enc[2] = hex[c & 15];
			qp_put(b, &col, enc, 3);
		}
	}
	if (col > 0)
		buf_adds(b, "\r\n");
}

/* RFC 5322 §3.3 date-time in UTC, with English names whatever the locale. */
static void
add_date(struct buf *b, time_t t)
{
	static const char *const days[] = {
		"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
	};
	static const char *const months[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
		"Oct", "Nov", "Dec",
	};
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL)
		memset(&tm, 0, sizeof(tm));
	buf_printf(b, "Date: %s, %02d %s %04d %02d:%02d:%02d +0000\r\n",
	    days[tm.tm_wday % 7], tm.tm_mday, months[tm.tm_mon % 12],
	    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* From: with its display name, quoted or encoded. */
static void
add_from(struct buf *b, const struct mail_message *m)
{
	char *name;
	const char *p;

	buf_adds(b, "From: ");
	if (m->from_name != NULL && m->from_name[0] != '\0') {
		name = no_controls(m->from_name);
		if (is_plain(name) && strlen(name) + 6 <= HEADER_PLAIN) {
			buf_addc(b, '"');
			for (p = name; *p != '\0'; p++) {
				if (*p == '"' || *p == '\\')
					buf_addc(b, '\\');
				buf_addc(b, *p);
			}
			buf_addc(b, '"');
			buf_addc(b, ' ');
		} else {
			/* The words fill their lines: the address goes on. */
			mail_header_text(b, name, 6);
			buf_adds(b, "\r\n ");
		}
		free(name);
	}
	buf_printf(b, "<%s>\r\n", m->from);
}

static void
add_part(struct buf *b, const char *type, const char *body)
{
	buf_printf(b, "Content-Type: %s; charset=UTF-8\r\n"
	    "Content-Transfer-Encoding: quoted-printable\r\n\r\n", type);
	mail_qp(b, body, strlen(body));
}

/* See message.h. */
int
mail_message_build(const struct mail_message *m, char **out, size_t *len,
    const char **why)
{
	struct buf b;
	int r = -1;

	*out = NULL;
	*len = 0;
	buf_init(&b, MAIL_MAX_BYTES);
	*why = "from";
	if (!mail_address_ok(m->from))
		goto out;
	*why = "to";
	if (!mail_address_ok(m->to))
		goto out;
	*why = "reply-to";
	if (m->reply_to != NULL && !mail_address_ok(m->reply_to))
		goto out;
	*why = "token";
	if (!is_token(m->token))
		goto out;
	*why = "body";
	if (m->text == NULL && m->html == NULL)
		goto out;
	add_date(&b, m->date);
	add_from(&b, m);
	buf_printf(&b, "To: <%s>\r\n", m->to);
	if (m->reply_to != NULL)
		buf_printf(&b, "Reply-To: <%s>\r\n", m->reply_to);
	buf_adds(&b, "Subject: ");
	mail_header_text(&b, m->subject != NULL ? m->subject : "", 9);
	buf_printf(&b, "\r\nMessage-ID: <%s@%s>\r\nMIME-Version: 1.0\r\n",
	    m->token, strchr(m->from, '@') + 1);
	if (m->text != NULL && m->html != NULL) {
		buf_printf(&b, "Content-Type: multipart/alternative;\r\n"
		    " boundary=\"=_mauto_%s\"\r\n\r\n"
		    "This is a message in MIME format.\r\n\r\n"
		    "--=_mauto_%s\r\n", m->token, m->token);
		add_part(&b, "text/plain", m->text);
		buf_printf(&b, "\r\n--=_mauto_%s\r\n", m->token);
		add_part(&b, "text/html", m->html);
		buf_printf(&b, "\r\n--=_mauto_%s--\r\n", m->token);
	} else if (m->text != NULL)
		add_part(&b, "text/plain", m->text);
	else
		add_part(&b, "text/html", m->html);
	*why = "size";
	if (!buf_ok(&b))
		goto out;
	*why = NULL;
	*len = b.len;
	*out = b.data;
	b.data = NULL;
	r = 0;
out:
	buf_clear(&b);
	return r;
}
