/*
 * mautoctl outbox list|show|send-test: what the service sent (docs/operating.md,
 * Mail).  send-test is the operator's check of the relay: it sends a
 * short message the way every send goes (src/mail/outbox.c) and says
 * what the relay answered.  Output as the other subcommands: a list is
 * tab-separated with a header line, errors go to stderr.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctl/ctl.h"
#include "db/pool.h"
#include "mail/outbox.h"
#include "repo/repo.h"
#include "repo/repo_outbox.h"
#include "util/arena.h"
#include "util/config.h"
#include "util/num.h"

#define OUTBOX_USAGE \
	"outbox list [--limit N] | show ID | send-test --to ADDRESS " \
	"[--subject TEXT] [--from ADDRESS]"

static const char test_text[] =
    "This is a test message from mautoctl outbox send-test.\n"
    "The relay of this mauto instance delivered it.\n";
static const char test_html[] =
    "<!DOCTYPE html>\n<html><body>\n"
    "<p>This is a test message from <b>mautoctl outbox send-test</b>.</p>\n"
    "<p>The relay of this mauto instance delivered it.</p>\n"
    "</body></html>\n";

/* s with control bytes shown as spaces, for a one-line listing. */
static void
put_field(const char *s)
{
	for (; s != NULL && *s != '\0'; s++)
		putchar((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
}

static int
outbox_list(int argc, char **argv, struct db **db, const struct config *cfg)
{
	struct arena a;
	struct repo_outbox_row *rows;
	int64_t limit = 50;
	size_t n, i;
	int rc = 1;

	arena_init(&a);
	if (argc == 4 && strcmp(argv[2], "--limit") == 0) {
		if (num_parse_i64(argv[3], 1, OUTBOX_LIST_MAX, &limit) != 0) {
			fprintf(stderr, "mautoctl: --limit is 1 to %d\n",
			    OUTBOX_LIST_MAX);
			goto out;
		}
	} else if (argc != 2) {
		fprintf(stderr, "mautoctl: usage: " OUTBOX_USAGE "\n");
		goto out;
	}
	if (ctl_db_open(db, cfg) != 0)
		goto out;
	if (repo_outbox_list(*db, &a, (size_t)limit, &rows, &n) != 0) {
		fprintf(stderr, "mautoctl: cannot read the outbox\n");
		goto out;
	}
	printf("id\ttime\tto\tsubject\tstatus\n");
	for (i = 0; i < n; i++) {
		printf("%lld\t%s\t%s\t", (long long)rows[i].id,
		    rows[i].created_at != NULL ? rows[i].created_at : "",
		    rows[i].rcpt_to != NULL ? rows[i].rcpt_to : "");
		put_field(rows[i].subject);
		printf("\t%s\n", rows[i].status != NULL ? rows[i].status : "");
	}
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	arena_clear(&a);
	return rc;
}

static int
outbox_show(int argc, char **argv, struct db **db, const struct config *cfg)
{
	struct arena a;
	struct repo_outbox_row row;
	int64_t id;
	int rc = 1, r;

	arena_init(&a);
	if (argc != 3 || num_parse_i64(argv[2], 1, INT64_MAX, &id) != 0) {
		fprintf(stderr, "mautoctl: usage: outbox show ID\n");
		goto out;
	}
	if (ctl_db_open(db, cfg) != 0)
		goto out;
	r = repo_outbox_get(*db, &a, id, &row);
	if (r == -REPO_ERR_NOT_FOUND) {
		fprintf(stderr, "mautoctl: no outbox message %lld\n",
		    (long long)id);
		goto out;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot read the outbox\n");
		goto out;
	}
	/* What happened to it, then the message exactly as it was sent. */
	printf("X-Mauto-Outbox-Id: %lld\nX-Mauto-Outbox-Status: %s\n"
	    "X-Mauto-Outbox-Created: %s\nX-Mauto-Outbox-Finished: %s\n"
	    "X-Mauto-Outbox-Envelope: %s -> %s\nX-Mauto-Outbox-Reply: ",
	    (long long)row.id, row.status != NULL ? row.status : "",
	    row.created_at != NULL ? row.created_at : "",
	    row.finished_at != NULL ? row.finished_at : "",
	    row.mail_from != NULL ? row.mail_from : "",
	    row.rcpt_to != NULL ? row.rcpt_to : "");
	put_field(row.smtp_reply);
	printf("\n\n");
	if (row.message != NULL)
		(void)fwrite(row.message, 1, row.message_len, stdout);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	arena_clear(&a);
	return rc;
}

static int
outbox_send_test(int argc, char **argv, struct db **db,
    const struct config *cfg)
{
	struct outbox_send s;
	struct outbox_result res;
	const char *why;
	int i, r;

	memset(&s, 0, sizeof(s));
	s.kind = "test";
	s.msg.subject = "mauto relay test";
	s.msg.from_name = "mauto";
	s.msg.text = test_text;
	s.msg.html = test_html;
	for (i = 2; i < argc; i++) {
		if (i + 1 >= argc)
			goto usage;
		if (strcmp(argv[i], "--to") == 0)
			s.msg.to = argv[++i];
		else if (strcmp(argv[i], "--subject") == 0)
			s.msg.subject = argv[++i];
		else if (strcmp(argv[i], "--from") == 0)
			s.msg.from = argv[++i];
		else
			goto usage;
	}
	if (s.msg.to == NULL)
		goto usage;
	if (ctl_db_open(db, cfg) != 0)
		return 1;
	r = outbox_send(*db, cfg, &s, &res, &why);
	if (r == -REPO_ERR_INVALID) {
		fprintf(stderr, "mautoctl: the message cannot be built: bad "
		    "%s\n", why);
		return 1;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot record the message in the "
		    "outbox; nothing was sent\n");
		return 1;
	}
	printf("id=%lld\nstatus=%s\nreply=", (long long)res.id,
	    outbox_status(res.smtp.status));
	put_field(res.smtp.reply);
	printf("\n");
	if (fflush(stdout) != 0)
		return 1;
	switch (res.smtp.status) {
	case SMTP_SENT:
		return 0;
	case SMTP_NO_RELAY:
		fprintf(stderr, "mautoctl: not delivered: no relay configured "
		    "(smtp_url); the message is kept in the outbox\n");
		return 1;
	default:
		fprintf(stderr, "mautoctl: not delivered: the relay %s: %s\n",
		    res.smtp.status == SMTP_REFUSED ? "refused it" :
		    "could not be reached", res.smtp.reply);
		return 1;
	}
usage:
	fprintf(stderr, "mautoctl: usage: " OUTBOX_USAGE "\n");
	return 1;
}

/* See ctl.h. */
int
ctl_outbox(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	int rc = 1;

	if (argc >= 2 && strcmp(argv[1], "list") == 0)
		rc = outbox_list(argc, argv, &db, cfg);
	else if (argc >= 2 && strcmp(argv[1], "show") == 0)
		rc = outbox_show(argc, argv, &db, cfg);
	else if (argc >= 2 && strcmp(argv[1], "send-test") == 0)
		rc = outbox_send_test(argc, argv, &db, cfg);
	else
		fprintf(stderr, "mautoctl: usage: " OUTBOX_USAGE "\n");
	db_close(db);
	return rc;
}
