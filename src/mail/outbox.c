/*
 * A send (outbox.h).  The row is written before the relay is called and
 * holds the message exactly as it goes out, so the outbox shows every
 * send even when the relay or the process fails half way; a row left
 * queued is one whose outcome could not be recorded.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "bounds.h"
#include "err.h"
#include "mail/outbox.h"
#include "repo/repo_outbox.h"
#include "util/config.h"
#include "util/log.h"

#define OUTBOX_TOKEN_BYTES	12

/* See outbox.h. */
const char *
outbox_status(enum smtp_status s)
{
	switch (s) {
	case SMTP_SENT:
		return OUTBOX_SENT;
	case SMTP_NO_RELAY:
		return OUTBOX_KEPT;
	default:
		return OUTBOX_FAILED;
	}
}

/* The first at most MAIL_SUBJECT_BYTES bytes of s, cut between characters. */
static void
cut_subject(const char *s, char *dst)
{
	size_t n = strlen(s);

	if (n > MAIL_SUBJECT_BYTES) {
		n = MAIL_SUBJECT_BYTES;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* See outbox.h. */
int
outbox_send(struct db *db, const struct config *cfg,
    const struct outbox_send *s, struct outbox_result *out,
    const char **why)
{
	struct mail_message m = s->msg;
	struct repo_outbox_row row;
	unsigned char rnd[OUTBOX_TOKEN_BYTES];
	char token[2 * OUTBOX_TOKEN_BYTES + 1], subject[MAIL_SUBJECT_BYTES + 1];
	char *text = NULL;
	size_t len;
	int r;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	randombytes_buf(rnd, sizeof(rnd));
	(void)sodium_bin2hex(token, sizeof(token), rnd, sizeof(rnd));
	m.token = token;
	m.date = time(NULL);
	if (m.from == NULL)
		m.from = cfg->smtp_from;
	if (mail_message_build(&m, &text, &len, why) != 0) {
		r = -REPO_ERR_INVALID;
		goto out;
	}
	cut_subject(m.subject != NULL ? m.subject : "", subject);
	memset(&row, 0, sizeof(row));
	row.kind = s->kind;
	row.email_id = s->email_id;
	row.lead_id = s->lead_id;
	row.mail_from = cfg->smtp_from;
	row.rcpt_to = m.to;
	row.subject = subject;
	row.message = text;
	row.message_len = len;
	if (cfg->smtp_url == NULL) {
		/* Nothing to try: the row is final as written. */
		(void)smtp_send(cfg, cfg->smtp_from, m.to, text, len,
		    &out->smtp);
		row.status = OUTBOX_KEPT;
		row.smtp_reply = out->smtp.reply;
		r = repo_outbox_insert(db, &row, &out->id);
		goto out;
	}
	row.status = OUTBOX_QUEUED;
	if ((r = repo_outbox_insert(db, &row, &out->id)) != 0)
		goto out;
	(void)smtp_send(cfg, cfg->smtp_from, m.to, text, len, &out->smtp);
	if (repo_outbox_finish(db, out->id, outbox_status(out->smtp.status),
	    out->smtp.code, out->smtp.reply) != 0)
		log_msg(LOG_LVL_ERR, "outbox_send: message %lld was %s but "
		    "the outbox could not record it", (long long)out->id,
		    smtp_status_name(out->smtp.status));
	r = 0;
out:
	free(text);
	return r;
}
