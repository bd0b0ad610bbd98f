/*
 * The message builder (mail/message.c): the headers and their order, the
 * parts and their boundary, quoted-printable bodies that decode to what
 * was given, RFC 2047 subjects that decode to what was given, lines of at
 * most 76 bytes ending in CRLF, and no way for a value to add a header.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bounds.h"
#include "mail/message.h"
#include "util/buf.h"

static struct mail_message
sample(void)
{
	struct mail_message m;

	memset(&m, 0, sizeof(m));
	m.from = "news@example.com";
	m.from_name = "Example News";
	m.to = "ada@example.org";
	m.subject = "Hello";
	m.text = "Hello Ada,\nwelcome.\n";
	m.html = "<p>Hello Ada,</p>\n<p>welcome.</p>\n";
	m.date = 0;
	m.token = "abc123";
	return m;
}

static char *
build(const struct mail_message *m)
{
	char *out = NULL;
	size_t len;
	const char *why = "x";

	assert_int_equal(mail_message_build(m, &out, &len, &why), 0);
	assert_null(why);
	assert_non_null(out);
	assert_int_equal(strlen(out), len);
	return out;
}

/* Every line ends in CRLF, has no lone CR or LF, and is at most max. */
static void
check_lines(const char *s, size_t max)
{
	const char *p = s, *e;

	while (*p != '\0') {
		e = strstr(p, "\r\n");
		assert_non_null(e);
		assert_true((size_t)(e - p) <= max);
		assert_null(memchr(p, '\n', (size_t)(e - p)));
		assert_null(memchr(p, '\r', (size_t)(e - p)));
		p = e + 2;
	}
}

/* The header section (up to the empty line), as a new string. */
static char *
headers(const char *msg)
{
	const char *e = strstr(msg, "\r\n\r\n");

	assert_non_null(e);
	return strndup(msg, (size_t)(e - msg) + 2);
}

/* How many header lines start with name (e.g. "Subject:"). */
static int
count_header(const char *hdr, const char *name)
{
	const char *p = hdr;
	int n = 0;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, strlen(name)) == 0)
			n++;
		p = strstr(p, "\r\n");
		if (p != NULL)
			p += 2;
	}
	return n;
}

static int
b64val(char c)
{
	const char *a =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = strchr(a, c);

	return p != NULL && c != '\0' ? (int)(p - a) : -1;
}

/* Decodes the encoded-words of a header value into out. */
static void
decode_words(const char *v, char *out)
{
	const char *p = v, *e;
	unsigned acc = 0;
	int bits = 0, d;

	while ((p = strstr(p, "=?UTF-8?B?")) != NULL) {
		p += 10;
		e = strstr(p, "?=");
		assert_non_null(e);
		acc = 0;
		bits = 0;
		for (; p < e; p++) {
			if (*p == '=')
				continue;
			d = b64val(*p);
			assert_true(d >= 0);
			acc = acc << 6 | (unsigned)d;
			bits += 6;
			if (bits >= 8) {
				bits -= 8;
				*out++ = (char)(acc >> bits & 0xff);
			}
		}
		p = e + 2;
	}
	*out = '\0';
}

/* Decodes quoted-printable s (CRLF lines) into out, LF lines. */
static void
decode_qp(const char *s, const char *end, char *out)
{
	static const char hexd[] = "0123456789ABCDEF";
	unsigned v;

	while (s < end) {
		if (s[0] == '=' && s[1] == '\r' && s[2] == '\n')
			s += 3;
		else if (s[0] == '=') {
			v = (unsigned)(strchr(hexd, s[1]) - hexd) << 4 |
			    (unsigned)(strchr(hexd, s[2]) - hexd);
			*out++ = (char)v;
			s += 3;
		} else if (s[0] == '\r' && s[1] == '\n') {
			*out++ = '\n';
			s += 2;
		} else
			*out++ = *s++;
	}
	*out = '\0';
}

static void
test_headers_and_parts(void **state)
{
	struct mail_message m = sample();
	char *msg, *hdr;
	const char *want[] = {
		"Date: Thu, 01 Jan 1970 00:00:00 +0000\r\n",
		"From: \"Example News\" <news@example.com>\r\n",
		"To: <ada@example.org>\r\n",
		"Subject: Hello\r\n",
		"Message-ID: <abc123@example.com>\r\n",
		"MIME-Version: 1.0\r\n",
		("Content-Type: multipart/alternative;\r\n"
		" boundary=\"=_mauto_abc123\"\r\n"),
	};
	const char *p;
	size_t i;

	(void)state;
	msg = build(&m);
	hdr = headers(msg);
	p = hdr;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_true(strncmp(p, want[i], strlen(want[i])) == 0);
		p += strlen(want[i]);
	}
	assert_int_equal(count_header(hdr, "Reply-To:"), 0);
	check_lines(msg, 76);
	assert_non_null(strstr(msg, "\r\n--=_mauto_abc123\r\n"
	    "Content-Type: text/plain; charset=UTF-8\r\n"
	    "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
	    "Hello Ada,\r\nwelcome.\r\n"));
	assert_non_null(strstr(msg, "\r\n--=_mauto_abc123\r\n"
	    "Content-Type: text/html; charset=UTF-8\r\n"
	    "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
	    "<p>Hello Ada,</p>\r\n<p>welcome.</p>\r\n"));
	assert_non_null(strstr(msg, "\r\n--=_mauto_abc123--\r\n"));
	free(hdr);
	free(msg);
}

static void
test_single_part_and_reply_to(void **state)
{
	struct mail_message m = sample();
	char *msg, *hdr;

	(void)state;
	m.html = NULL;
	m.reply_to = "replies@example.com";
	m.from_name = NULL;
	msg = build(&m);
	hdr = headers(msg);
	assert_non_null(strstr(hdr, "\r\nFrom: <news@example.com>\r\n"));
	assert_non_null(strstr(hdr, "\r\nReply-To: <replies@example.com>\r\n"));
	assert_non_null(strstr(hdr, "\r\nContent-Type: text/plain; "
	    "charset=UTF-8\r\n"));
	assert_null(strstr(msg, "multipart"));
	free(hdr);
	free(msg);
}

static void
test_subject_encoded(void **state)
{
	struct mail_message m = sample();
	char *msg, *hdr, got[4096];
	const char *subj = "Grüße aus Köln – 東京でお会いしましょう, "
	    "Ünïcödé sübjéct that is long enough to need several words";

	(void)state;
	m.subject = subj;
	msg = build(&m);
	hdr = headers(msg);
	check_lines(msg, 76);
	assert_non_null(strstr(hdr, "\r\nSubject: =?UTF-8?B?"));
	decode_words(strstr(hdr, "\r\nSubject: "), got);
	assert_string_equal(got, subj);
	/* Continuation lines start with a space; no raw 8-bit byte. */
	for (const char *p = hdr; *p != '\0'; p++)
		assert_true((unsigned char)*p < 0x80);
	free(hdr);
	free(msg);
}

static void
test_long_ascii_subject_folded(void **state)
{
	struct mail_message m = sample();
	char subj[2001], *msg, got[4096];

	(void)state;
	memset(subj, 'a', 2000);
	subj[2000] = '\0';
	m.subject = subj;
	msg = build(&m);
	check_lines(msg, 76);
	decode_words(strstr(msg, "\r\nSubject: "), got);
	assert_string_equal(got, subj);
	free(msg);
}

static void
test_no_header_injection(void **state)
{
	struct mail_message m = sample();
	char *msg, *hdr, got[256];
	const char *names[] = {
		"Date:", "From:", "To:", "Subject:", "Message-ID:",
		"MIME-Version:", "Content-Type:",
	};
	size_t i;

	(void)state;
	m.subject = "Hi\r\nBcc: evil@example.net\r\n\r\nbody";
	m.from_name = "Name\r\nBcc: evil@example.net";
	msg = build(&m);
	hdr = headers(msg);
	check_lines(msg, 76);
	assert_int_equal(count_header(hdr, "Bcc:"), 0);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_int_equal(count_header(hdr, names[i]), 1);
	assert_non_null(strstr(hdr, "\r\nSubject: Hi  Bcc: evil@example.net"
	    "    body\r\n"));
	/* A subject that looks encoded is encoded itself. */
	free(hdr);
	free(msg);
	m.subject = "=?UTF-8?B?QmNjOg==?=";
	msg = build(&m);
	decode_words(strstr(msg, "\r\nSubject: "), got);
	assert_string_equal(got, m.subject);
	free(msg);
}

static void
test_bad_values_refused(void **state)
{
	struct mail_message m;
	const char *bad[] = {
		"a@b\r\nBcc: x@y", "a b@c.d", "<a@b.c>", "noat", "a@b@c",
		"@b.c", "a@", "a,b@c.d", "é@b.c", "",
	};
	char *out = (char *)"x";
	size_t len = 1, i;
	const char *why = NULL;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		m = sample();
		m.to = bad[i];
		assert_int_equal(mail_message_build(&m, &out, &len, &why), -1);
		assert_string_equal(why, "to");
		assert_null(out);
		assert_false(mail_address_ok(bad[i]));
		m = sample();
		m.from = bad[i];
		assert_int_equal(mail_message_build(&m, &out, &len, &why), -1);
		assert_string_equal(why, "from");
		m = sample();
		m.reply_to = bad[i];
		assert_int_equal(mail_message_build(&m, &out, &len, &why), -1);
		assert_string_equal(why, "reply-to");
	}
	m = sample();
	m.to = NULL;
	assert_int_equal(mail_message_build(&m, &out, &len, &why), -1);
	m = sample();
	m.token = "ab-c";
	assert_int_equal(mail_message_build(&m, &out, &len, &why), -1);
	assert_string_equal(why, "token");
	m = sample();
	m.text = NULL;
	m.html = NULL;
	assert_int_equal(mail_message_build(&m, &out, &len, &why), -1);
	assert_string_equal(why, "body");
	assert_true(mail_address_ok("first.last+tag@sub.example.com"));
}

static void
test_quoted_printable(void **state)
{
	const char *in =
	    "a=b and trailing space \n"
	    "tab\t\n"
	    "Grüße\r\n"
	    ".leading dot\n"
	    "lone\rcr\n"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "end";
	char want[1024], got[1024], *p;
	struct buf b;

	(void)state;
	buf_init(&b, 1 << 20);
	mail_qp(&b, in, strlen(in));
	assert_true(buf_ok(&b));
	check_lines(b.data, 76);
	assert_non_null(strstr(b.data, "a=3Db and trailing space=20\r\n"));
	assert_non_null(strstr(b.data, "tab=09\r\n"));
	assert_non_null(strstr(b.data, "Gr=C3=BC=C3=9Fe\r\n"));
	assert_non_null(strstr(b.data, "lone=0Dcr\r\n"));
	assert_null(strstr(b.data, "=_"));
	decode_qp(b.data, b.data + b.len, got);
	(void)snprintf(want, sizeof(want), "%s\n", in);
	/* The decoded text has LF lines; the input's CRLF became one. */
	p = strstr(want, "Grüße\r\n");
	memmove(p + strlen("Grüße"), p + strlen("Grüße") + 1,
	    strlen(p + strlen("Grüße") + 1) + 1);
	assert_string_equal(got, want);
	buf_clear(&b);
}

static void
test_display_name(void **state)
{
	struct mail_message m = sample();
	char *msg, got[256];

	(void)state;
	m.from_name = "Ada \"the\" Count\\ess";
	msg = build(&m);
	assert_non_null(strstr(msg, "\r\nFrom: \"Ada \\\"the\\\" "
	    "Count\\\\ess\" <news@example.com>\r\n"));
	free(msg);
	m.from_name = "Équipe";
	msg = build(&m);
	assert_non_null(strstr(msg, "\r\nFrom: =?UTF-8?B?"));
	decode_words(strstr(msg, "\r\nFrom: "), got);
	assert_string_equal(got, "Équipe");
	free(msg);
}

static void
test_size_bound(void **state)
{
	struct mail_message m = sample();
	char *big, *out = NULL;
	size_t len;
	const char *why = NULL;

	(void)state;
	big = malloc(MAIL_MAX_BYTES / 2);
	assert_non_null(big);
	memset(big, 0xe9, MAIL_MAX_BYTES / 2 - 1);
	big[MAIL_MAX_BYTES / 2 - 1] = '\0';
	m.text = big;
	m.html = NULL;
	/* Every byte becomes three: past the bound. */
	assert_int_equal(mail_message_build(&m, &out, &len, &why), -1);
	assert_string_equal(why, "size");
	assert_null(out);
	free(big);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headers_and_parts),
		cmocka_unit_test(test_single_part_and_reply_to),
		cmocka_unit_test(test_subject_encoded),
		cmocka_unit_test(test_long_ascii_subject_folded),
		cmocka_unit_test(test_no_header_injection),
		cmocka_unit_test(test_bad_values_refused),
		cmocka_unit_test(test_quoted_printable),
		cmocka_unit_test(test_display_name),
		cmocka_unit_test(test_size_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
