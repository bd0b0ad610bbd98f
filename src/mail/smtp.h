/*
 * Delivering one built message to the relay of the configuration
 * (smtp_url, mautod.conf(5)) with libcurl's SMTP client: STARTTLS, AUTH,
 * dot-stuffing and the conversation are libcurl's; the result says what
 * became of the message.  A send blocks for at most smtp_timeout seconds.
 */
#ifndef MAUTO_MAIL_SMTP_H
#define MAUTO_MAIL_SMTP_H

#include <stddef.h>

#include "bounds.h"

struct config;

enum smtp_status {
	SMTP_SENT,		/* the relay accepted the message */
	SMTP_NO_RELAY,		/* smtp_url is unset: nothing was tried */
	SMTP_REFUSED,		/* the relay answered 4xx or 5xx */
	SMTP_UNREACHABLE,	/* no answer in time, no connection, TLS */
	SMTP__MAX
};

struct smtp_result {
	enum smtp_status status;
	int		 code;	/* the relay's last reply code, or 0 */
	/*
	 * The relay's last reply ("250 OK queued", "550 No such user")
	 * or, when it gave none that explains the failure, what failed.
	 */
	char		 reply[MAIL_REPLY_BYTES + 1];
};

/* "sent", "no relay", "refused", "unreachable". */
const char	*smtp_status_name(enum smtp_status s);

/*
 * Sends msg (len bytes, CRLF lines, as mail_message_build made it) from
 * the envelope sender from to the one recipient to, both addresses that
 * passed mail_address_ok.  Fills *res and returns 0 whatever the relay
 * did; -1 only when libcurl cannot be set up (res says so too).
 */
int	smtp_send(const struct config *cfg, const char *from, const char *to,
	    const char *msg, size_t len, struct smtp_result *res);

#endif
