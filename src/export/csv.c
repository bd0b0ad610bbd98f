/*
 * Delimited text for export files; see csv.h for the format.  Bytes go
 * through one EXPORT_IO_BYTES buffer; each flush hashes what it writes.
 */
#include <errno.h>
#include <stdlib.h>	/* before sodium.h: see csv.h */
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "export/csv.h"

static const char null_word[] = "null";

/* See csv.h. */
void
csv_writer_init(struct csv_writer *w, int fd, char delim)
{
	w->fd = fd;
	w->delim = delim;
	w->row_open = false;
	w->err = 0;
	w->len = 0;
	w->bytes = 0;
	w->rows = 0;
	(void)crypto_hash_sha256_init(&w->sha);
}

/* Writes the buffer out and hashes it. */
static void
flush(struct csv_writer *w)
{
	const char *p = w->buf;
	size_t left = w->len;
	ssize_t n;

	if (w->err == 0)
		(void)crypto_hash_sha256_update(&w->sha,
		    (const unsigned char *)w->buf, w->len);
	while (w->err == 0 && left > 0) {
		n = write(w->fd, p, left);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->err = n == 0 ? EIO : errno;
			break;
		}
		p += n;
		left -= (size_t)n;
		w->bytes += n;
	}
	w->len = 0;
}

static void
put(struct csv_writer *w, const char *p, size_t n)
{
	size_t room;

	while (n > 0) {
		if (w->len == sizeof(w->buf))
			flush(w);
		room = sizeof(w->buf) - w->len;
		if (room > n)
			room = n;
		memcpy(w->buf + w->len, p, room);
		w->len += room;
		p += room;
		n -= room;
	}
}

static void
putc_(struct csv_writer *w, char c)
{
	if (w->len == sizeof(w->buf))
		flush(w);
	w->buf[w->len++] = c;
}

/* Whether a value must be quoted (RFC 4180 §2.6, and the word null). */
static bool
needs_quotes(const struct csv_writer *w, const char *v, size_t n)
{
	bool q = n == sizeof(null_word) - 1 && memcmp(v, null_word, n) == 0;
	size_t i;

	for (i = 0; !q && i < n; i++)
		q = v[i] == w->delim || v[i] == '"' || v[i] == '\r' ||
		    v[i] == '\n';
	return q;
}

/* See csv.h. */
void
csv_field(struct csv_writer *w, const char *v, size_t n)
{
	const char *q;
	size_t run;

	if (w->row_open)
		putc_(w, w->delim);
	w->row_open = true;
	if (v == NULL || n == 0)
		put(w, null_word, sizeof(null_word) - 1);
	else if (!needs_quotes(w, v, n))
		put(w, v, n);
	else {
		putc_(w, '"');
		while (n > 0) {
			q = memchr(v, '"', n);
			run = q != NULL ? (size_t)(q - v) + 1 : n;
			put(w, v, run);
			if (q != NULL)
				putc_(w, '"');	/* the quote again: "" */
			v += run;
			n -= run;
		}
		putc_(w, '"');
	}
}

/* See csv.h. */
void
csv_row_end(struct csv_writer *w)
{
	putc_(w, '\n');
	w->row_open = false;
	w->rows++;
}

/* See csv.h. */
int
csv_writer_finish(struct csv_writer *w, char checksum[EXPORT_CHECKSUM_LEN + 1])
{
	unsigned char md[crypto_hash_sha256_BYTES];

	flush(w);
	(void)crypto_hash_sha256_final(&w->sha, md);
	memcpy(checksum, "sha256:", 7);
	(void)sodium_bin2hex(checksum + 7, EXPORT_CHECKSUM_LEN + 1 - 7, md,
	    sizeof(md));
	return w->err == 0 ? 0 : -1;
}
