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

/* What a build makes: the message and its row (borrowing from both). */
struct built {
	struct mail_message	 m;
	struct repo_outbox_row	 row;
	char			 token[2 * OUTBOX_TOKEN_BYTES + 1];
	char			 subject[MAIL_SUBJECT_BYTES + 1];
	char			*text;	/* owned: free() */
	size_t			 len;
};

/*
 * Builds s->msg into *b (a random token, the time now, smtp_from for an
 * unset From) and fills b->row but for its status.  0, or -1 with *why.
 */
static int
build(const struct config *cfg, const struct outbox_send *s,
    struct built *b, const char **why)
{
	unsigned char rnd[OUTBOX_TOKEN_BYTES];

	memset(b, 0, sizeof(*b));
	b->m = s->msg;
	randombytes_buf(rnd, sizeof(rnd));
	(void)sodium_bin2hex(b->token, sizeof(b->token), rnd, sizeof(rnd));
	b->m.token = b->token;
	b->m.date = time(NULL);
	if (b->m.from == NULL)
		b->m.from = cfg->smtp_from;
	if (mail_message_build(&b->m, &b->text, &b->len, why) != 0)
		return -1;
	cut_subject(b->m.subject != NULL ? b->m.subject : "", b->subject);
	b->row.kind = s->kind;
	b->row.email_id = s->email_id;
	b->row.lead_id = s->lead_id;
	b->row.campaign_id = s->campaign_id;
	b->row.run_id = s->run_id;
	b->row.step_id = s->step_id;
	b->row.choice = s->choice;
	b->row.asset_name = s->asset_name;
	b->row.mail_from = cfg->smtp_from;
	b->row.rcpt_to = b->m.to;
	b->row.subject = b->subject;
	b->row.message = b->text;
	b->row.message_len = b->len;
	return 0;
}

/* See outbox.h. */
int
outbox_queue(struct db *db, const struct config *cfg,
    const struct outbox_send *s, int64_t *id, const char **why)
{
	struct built b;
	int r;

	*id = 0;
	*why = NULL;
	if (build(cfg, s, &b, why) != 0)
		r = -REPO_ERR_INVALID;
	else {
		b.row.status = OUTBOX_QUEUED;
		r = repo_outbox_insert(db, &b.row, id);
	}
	free(b.text);
	return r;
}

/* See outbox.h. */
int
outbox_send(struct db *db, const struct config *cfg,
    const struct outbox_send *s, struct outbox_result *out,
    const char **why)
{
	struct built b;
	int r;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (build(cfg, s, &b, why) != 0) {
		r = -REPO_ERR_INVALID;
		goto out;
	}
	if (cfg->smtp_url == NULL) {
		/* Nothing to try: the row is final as written. */
		(void)smtp_send(cfg, cfg->smtp_from, b.m.to, b.text, b.len,
		    &out->smtp);
		b.row.status = OUTBOX_KEPT;
		b.row.smtp_reply = out->smtp.reply;
		r = repo_outbox_insert(db, &b.row, &out->id);
		goto out;
	}
	b.row.status = OUTBOX_QUEUED;
	if ((r = repo_outbox_insert(db, &b.row, &out->id)) != 0)
		goto out;
	(void)smtp_send(cfg, cfg->smtp_from, b.m.to, b.text, b.len,
	    &out->smtp);
	if (repo_outbox_finish(db, out->id, outbox_status(out->smtp.status),
	    out->smtp.code, out->smtp.reply) != 0)
		log_msg(LOG_LVL_ERR, "outbox_send: message %lld was %s but "
		    "the outbox could not record it", (long long)out->id,
		    smtp_status_name(out->smtp.status));
	r = 0;
out:
	free(b.text);
	return r;
}
