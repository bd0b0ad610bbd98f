/*
 * One RFC 5322 message, built whole before anything is sent: Date, From,
 * To, Reply-To, Subject, Message-ID, MIME-Version, and a text/plain and a
 * text/html part (multipart/alternative when both are given), each
 * quoted-printable in UTF-8, so no line is longer than 76 bytes and
 * every line ends in CRLF.  Header values cannot carry a line break: an
 * address with a control byte, white space or a character that ends it
 * is refused, and control bytes in the subject and the display name
 * become spaces; a subject or name that is not plain ASCII is written as
 * RFC 2047 encoded-words (UTF-8, base64).
 */
#ifndef MAUTO_MAIL_MESSAGE_H
#define MAUTO_MAIL_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

struct mail_message {
	const char	*from;		/* local@domain */
	const char	*from_name;	/* display name (UTF-8) or NULL */
	const char	*reply_to;	/* local@domain or NULL */
	const char	*to;		/* local@domain */
	const char	*subject;	/* UTF-8; NULL is empty */
	const char	*text;		/* the text/plain part, or NULL */
	const char	*html;		/* the text/html part, or NULL */
	time_t		 date;
	/*
	 * A unique word of letters and digits (1 to 64): the left part of
	 * Message-ID and the tail of the MIME boundary.
	 */
	const char	*token;
};

/*
 * Whether s is one address local@domain that is safe in a header and an
 * SMTP command: 3 to MAIL_ADDRESS_BYTES bytes of printable ASCII, one
 * '@' with text on both sides, no white space and none of <>()[],;:\".
 */
bool	mail_address_ok(const char *s);

/*
 * Builds message m.  Returns 0 and *out, an owned NUL-ended string (free)
 * of *len bytes; or -1 with *why naming the field at fault ("from",
 * "to", "reply-to", "token", "body": neither part, "size": longer than
 * MAIL_MAX_BYTES) and *out NULL.
 */
int	mail_message_build(const struct mail_message *m, char **out,
	    size_t *len, const char **why);

/*
 * Appends to b the header value text as it goes after "Name: " on a
 * line that starts cols bytes before: unchanged when it is printable
 * ASCII, fits and holds no "=?", else RFC 2047 encoded-words folded onto
 * continuation lines.  Control bytes become spaces.  Exposed for tests.
 */
struct buf;
void	mail_header_text(struct buf *b, const char *text, size_t cols);

/* Appends s (n bytes) to b quoted-printable (RFC 2045 §6.7), CRLF lines. */
void	mail_qp(struct buf *b, const char *s, size_t n);

#endif
