/*
 * The campaign engine's Send Email step (src/engine/mail.c) against a
 * real MariaDB and the test SMTP relay (tests/harness/smtpd.sh): an
 * email rendered with lead tokens, the run's tokens and the My Tokens of
 * its folder, queued keyed by run, lead and step with activity 6, a
 * replay that writes nothing, delivery passes that hand each message to
 * the relay once and write 7 or 8, a message left sending past its lease
 * failed and never handed over, and a host with no relay keeping its
 * messages.  Rows are made under names of this run (other tests share
 * the database).  Needs MAUTO_TEST_DB_* and python3-aiosmtpd; without
 * them it exits 77.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "db/pool.h"
#include "engine/mail.h"
#include "model/asset.h"
#include "model/folder.h"
#include "model/leadfield.h"
#include "model/token.h"
#include "repo/repo.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"
#include "repo/repo_folders.h"
#include "repo/repo_lead_fields.h"
#include "repo/repo_outbox.h"
#include "repo/repo_tokens.h"
#include "util/arena.h"
#include "util/config.h"
#include "itest.h"

#define CAMPAIGN	4242

static struct config cfg;
static struct db *db;
static struct arena a;
static struct lead_schema schema;
static struct folder_ref place = { .type = FOLDER_T_FOLDER };
static char tag[16];
static char relay_url[64];
static int32_t email;
static int64_t lead1, lead2, lead_none, run_base;

/* A name of this run. */
static const char *
named(const char *what)
{
	return arena_printf(&a, "%s-%s", what, tag);
}

static int
approve_ok(const struct repo_email *draft, char *msg)
{
	(void)draft;
	(void)msg;
	return 0;
}

/* An address of this run. */
static const char *
addr_of(const char *who)
{
	return arena_printf(&a, "%s-%s@example.com", who, tag);
}

/* A lead of this run with address addr (NULL: none) and first name. */
static int64_t
lead_new(const char *addr, const char *first)
{
	const char *mark = named(first);

	itest_sqlf(db, "INSERT INTO lead (email, firstName, lastName, "
	    "createdAt, updatedAt) VALUES (%s%s%s, '%s', '%s', "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP())", addr != NULL ? "'" : "",
	    addr != NULL ? addr : "NULL", addr != NULL ? "'" : "", first,
	    mark);
	return itest_count(db, "SELECT MAX(id) FROM lead WHERE lastName = "
	    "'%s'", mark);
}

static int
group_setup(void **state)
{
	static char from[] = "mauto@localhost", starttls[] = "none";
	struct repo_etpl_new nt;
	struct repo_email_new e;
	char msg[REPO_EMAIL_MSG_BYTES];
	int32_t tpl, folder;

	(void)state;
	if (itest_config(&cfg) != 0)
		return -1;
	cfg.smtp_from = from;
	cfg.smtp_starttls = starttls;
	cfg.smtp_timeout = 10;
	(void)snprintf(tag, sizeof(tag), "%ld", (long)getpid());
	run_base = (int64_t)getpid() * 100;
	arena_init(&a);
	if (db_open(&db, &cfg, &repo_schema, DB_PREPARE_ALL) != 0 ||
	    repo_lead_fields_load(db, &schema) != 0)
		return -1;
	memset(&nt, 0, sizeof(nt));
	nt.name = named("etpl");
	nt.folder_id = 3;
	nt.content = "<html><body><div class=\"mktoText\" id=\"intro\" "
	    "mktoName=\"I\">Hello {{lead.First Name}}: {{my.greeting}} "
	    "{{my.place}} {{my.unknown}}</div></body></html>";
	nt.len = strlen(nt.content);
	if (repo_etpl_insert(db, &nt, &tpl) != 0 ||
	    repo_folders_insert(db, named("mailfolder"), NULL, FK_EMAIL, 2,
	    &folder) != 0)
		return -1;
	place.id = folder;
	if (repo_tokens_upsert(db, &place, "greeting", TOKEN_TEXT,
	    "from-folder") != 0 ||
	    repo_tokens_upsert(db, &place, "place", TOKEN_TEXT,
	    "Folder-Place") != 0)
		return -1;
	memset(&e, 0, sizeof(e));
	e.name = named("welcome");
	e.place = place;
	e.template_id = tpl;
	e.hdr[EMAIL_HDR_SUBJECT] = "Hi {{lead.First Name}} {{my.greeting}}";
	e.hdr[EMAIL_HDR_FROM_NAME] = "Team {{my.place}}";
	e.hdr[EMAIL_HDR_FROM_EMAIL] = "team@example.com";
	if (repo_email_insert(db, &e, &email) != 0 ||
	    repo_email_change(db, email, ASSET_APPROVE, approve_ok,
	    msg) != 0)
		return -1;
	lead1 = lead_new(addr_of("one"), "Ana");
	lead2 = lead_new(addr_of("two"), "Bo");
	lead_none = lead_new(NULL, "Cy");
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	lead_schema_clear(&schema);
	arena_clear(&a);
	db_close(db);
	return 0;
}

/* Milliseconds since the epoch. */
static int64_t
now_ms(void)
{
	struct timeval tv;

	(void)gettimeofday(&tv, NULL);
	return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

/* Starts the test relay in a new directory in mode; its directory. */
static char *
relay_start(const char *mode)
{
	char *dir = arena_strdup(&a, "/tmp/mauto-enmail-smtp.XXXXXX");
	char cmd[512], port[16] = "";
	FILE *p;

	assert_non_null(mkdtemp(dir));
	(void)snprintf(cmd, sizeof(cmd), "%s/tests/harness/smtpd.sh start %s "
	    "%s", MAUTO_SRCDIR, dir, mode);
	assert_non_null(p = popen(cmd, "r"));
	if (fgets(port, sizeof(port), p) == NULL)
		port[0] = '\0';
	if (pclose(p) != 0)
		skip();
	port[strcspn(port, "\n")] = '\0';
	(void)snprintf(relay_url, sizeof(relay_url), "smtp://127.0.0.1:%s",
	    port);
	cfg.smtp_url = relay_url;
	return dir;
}

/* Stops the relay of dir and removes what it received. */
static void
relay_stop(const char *dir)
{
	char cmd[512];

	(void)snprintf(cmd, sizeof(cmd), "%s/tests/harness/smtpd.sh stop %s; "
	    "rm -rf %s", MAUTO_SRCDIR, dir, dir);
	assert_int_equal(system(cmd), 0);
	cfg.smtp_url = NULL;
}

/*
 * Calls fn with each recipient ("to=" line, without its newline) of each
 * message the relay of dir received and the path of its envelope file.
 */
static void
each_rcpt(const char *dir, void (*fn)(const char *to, char *env, void *arg),
    void *arg)
{
	char path[512], line[512];
	struct dirent *de;
	DIR *d;
	FILE *f;

	assert_non_null(d = opendir(dir));
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);

		if (l < 5 || strcmp(de->d_name + l - 4, ".env") != 0)
			continue;
		(void)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		assert_non_null(f = fopen(path, "r"));
		while (fgets(line, sizeof(line), f) != NULL)
			if (strncmp(line, "to=", 3) == 0) {
				line[strcspn(line, "\n")] = '\0';
				fn(line + 3, path, arg);
			}
		(void)fclose(f);
	}
	(void)closedir(d);
}

/* What received() counts. */
struct rcpt_count {
	const char	*to;
	int		 n;
	char		**body;
};

/* each_rcpt: counts to, and reads the first message for it into body. */
static void
count_rcpt(const char *to, char *env, void *arg)
{
	struct rcpt_count *rc = arg;
	FILE *f;
	long sz;

	if (strcmp(to, rc->to) != 0 || rc->n++ > 0 || rc->body == NULL)
		return;
	(void)strcpy(env + strlen(env) - 4, ".eml");
	assert_non_null(f = fopen(env, "r"));
	(void)fseek(f, 0, SEEK_END);
	sz = ftell(f);
	rewind(f);
	*rc->body = arena_alloc(&a, (size_t)sz + 1);
	(*rc->body)[fread(*rc->body, 1, (size_t)sz, f)] = '\0';
	(void)fclose(f);
}

/*
 * The number of messages the relay of dir received for to; the first
 * one's text into *body unless body is NULL.
 */
static int
received(const char *dir, const char *to, char **body)
{
	struct rcpt_count rc = { to, 0, body };

	each_rcpt(dir, count_rcpt, &rc);
	return rc.n;
}

/* s with quoted-printable soft line breaks removed (in place). */
static char *
unfold(char *s)
{
	char *r = s, *w = s;

	while (*r != '\0')
		if (r[0] == '=' && r[1] == '\r' && r[2] == '\n')
			r += 3;
		else
			*w++ = *r++;
	*w = '\0';
	return s;
}

/* Queues the step for lead in run inside a transaction of its own. */
static int
queue(int64_t run, int64_t lead, bool overrides, bool *dup)
{
	static const char *const names[] = { "{{my.greeting}}" };
	static const char *const values[] = { "Run-Hola" };
	struct engine_mail_req req;
	int r;

	memset(&req, 0, sizeof(req));
	req.run_id = run;
	req.lead_id = lead;
	req.step_id = 7;
	req.campaign_id = CAMPAIGN;
	req.choice = 0;
	req.email_id = email;
	req.place = &place;
	if (overrides) {
		req.tok_names = names;
		req.tok_values = values;
		req.ntok = 1;
	}
	req.schema = &schema;
	assert_int_equal(db_tx_begin(db), 0);
	if ((r = engine_mail_queue(db, &a, &cfg, &req, dup)) == 0)
		assert_int_equal(db_tx_commit(db), 0);
	else
		db_tx_rollback(db);
	return r;
}

/* Delivery passes until one hands nothing over; the total handed over. */
static size_t
deliver_all(void)
{
	size_t sent, total = 0;

	do {
		assert_int_equal(engine_mail_deliver(db, &cfg, now_ms(), 50,
		    &sent), 0);
		total += sent;
	} while (sent > 0);
	return total;
}

static int64_t
acts(int type, int64_t lead)
{
	return itest_count(db, "SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = %d AND lead_id = %lld AND campaign_id = %d",
	    type, (long long)lead, CAMPAIGN);
}

static void
test_queue_replay_deliver(void **state)
{
	int64_t run = run_base + 1;
	char *dir, *body = NULL;
	const char *to1 = addr_of("one");
	bool dup = true;

	(void)state;
	dir = relay_start("accept");
	assert_int_equal(queue(run, lead1, true, &dup), 0);
	assert_false(dup);
	assert_int_equal(queue(run, lead2, false, &dup), 0);
	assert_false(dup);
	/* A lead without an address is skipped: nothing written. */
	assert_int_equal(queue(run, lead_none, false, &dup), 0);
	assert_false(dup);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM outbox WHERE "
	    "run_id = %lld AND status = 'queued' AND kind = 'campaign' AND "
	    "campaign_id = %d AND step_id = 7", (long long)run, CAMPAIGN), 2);
	assert_int_equal(acts(6, lead1), 1);
	assert_int_equal(acts(6, lead_none), 0);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = 6 AND lead_id = %lld AND primary_value_id = %d "
	    "AND primary_value = '%s.%s' AND JSON_VALUE(attributes, "
	    "'$.\"Campaign Run ID\"') = %lld AND JSON_VALUE(attributes, "
	    "'$.\"Step ID\"') = 7", (long long)lead1, email,
	    named("mailfolder"), named("welcome"), (long long)run), 1);
	/* A replay of the same key writes nothing. */
	assert_int_equal(queue(run, lead1, true, &dup), 0);
	assert_true(dup);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM outbox WHERE "
	    "run_id = %lld", (long long)run), 2);
	assert_int_equal(acts(6, lead1), 1);

	assert_true(deliver_all() >= 2);
	assert_int_equal(received(dir, to1, &body), 1);
	assert_int_equal(received(dir, addr_of("two"), NULL), 1);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM outbox WHERE "
	    "run_id = %lld AND status = 'sent' AND smtp_code = 250",
	    (long long)run), 2);
	assert_int_equal(acts(7, lead1), 1);
	assert_int_equal(acts(7, lead2), 1);
	assert_int_equal(acts(8, lead1), 0);
	/* Lead token, run token over the folder's, folder token, unknown
	 * token blank. */
	assert_non_null(body);
	unfold(body);
	assert_non_null(strstr(body, "Hello Ana: Run-Hola Folder-Place "));
	assert_null(strstr(body, "{{my."));
	assert_non_null(strstr(body, "Subject: Hi Ana Run-Hola"));
	assert_non_null(strstr(body, "Team Folder-Place"));

	/* Another pass hands nothing more to the relay. */
	assert_int_equal(deliver_all(), 0);
	assert_int_equal(received(dir, to1, NULL), 1);
	/* The second lead's message had the folder's greeting. */
	body = NULL;
	(void)received(dir, addr_of("two"), &body);
	assert_non_null(strstr(unfold(body), "Hello Bo: from-folder"));
	relay_stop(dir);
}

static void
test_refused(void **state)
{
	int64_t run = run_base + 2;
	char *dir;
	bool dup;

	(void)state;
	dir = relay_start("refuse");
	assert_int_equal(queue(run, lead1, false, &dup), 0);
	assert_true(deliver_all() >= 1);
	assert_int_equal(received(dir, addr_of("one"), NULL), 0);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM outbox WHERE "
	    "run_id = %lld AND status = 'failed' AND smtp_code = 550",
	    (long long)run), 1);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = 8 AND lead_id = %lld AND campaign_id = %d AND "
	    "JSON_VALUE(attributes, '$.Category') = '2' AND "
	    "JSON_VALUE(attributes, '$.Subcategory') = '550' AND "
	    "JSON_VALUE(attributes, '$.\"Campaign Run ID\"') = %lld",
	    (long long)lead1, CAMPAIGN, (long long)run), 1);
	relay_stop(dir);
}

static void
test_lease_expired(void **state)
{
	int64_t run = run_base + 3, t = now_ms();
	int64_t before7 = acts(7, lead2);
	char *dir;
	bool dup;

	(void)state;
	dir = relay_start("accept");
	assert_int_equal(queue(run, lead2, false, &dup), 0);
	/* A runner that claimed it died at the relay. */
	itest_sqlf(db, "UPDATE outbox SET status = 'sending', lease_owner = "
	    "'dead-runner', lease_until = %lld WHERE run_id = %lld",
	    (long long)(t - 1), (long long)run);
	(void)deliver_all();
	assert_int_equal(received(dir, addr_of("two"), NULL), 0);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM outbox WHERE "
	    "run_id = %lld AND status = 'failed' AND smtp_reply = '%s' AND "
	    "lease_owner IS NULL", (long long)run, ENGINE_MAIL_LOST), 1);
	assert_int_equal(acts(7, lead2), before7);
	relay_stop(dir);
}

static void
test_no_relay(void **state)
{
	int64_t run = run_base + 4;
	int64_t before7 = acts(7, lead1);
	bool dup;

	(void)state;
	cfg.smtp_url = NULL;
	assert_int_equal(queue(run, lead1, false, &dup), 0);
	assert_int_equal(deliver_all(), 0);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM outbox WHERE "
	    "run_id = %lld AND status = 'kept'", (long long)run), 1);
	assert_int_equal(acts(7, lead1), before7);
}

/* The recipients test_many_leads counts. */
struct bulk {
	int	*seen;
	size_t	 n;
};

/* each_rcpt: counts a recipient m<i>-... of test_many_leads in seen[i]. */
static void
count_bulk(const char *to, char *env, void *arg)
{
	struct bulk *b = arg;
	size_t i;

	(void)env;
	if (to[0] != 'm')
		return;
	i = strtoul(to + 1, NULL, 10);
	assert_true(i < b->n);
	b->seen[i]++;
}

/* Delivery passes of a child process with a connection of its own. */
static void
child_deliver(void)
{
	struct db *own = NULL;
	size_t sent;
	int r, tries = 0;

	if (db_open(&own, &cfg, &repo_schema, DB_PREPARE_ALL) != 0)
		_exit(2);
	do {
		r = engine_mail_deliver(own, &cfg, now_ms(), 50, &sent);
		if (r == -REPO_ERR_DEADLOCK && ++tries < 100) {
			sent = 1;	/* another pass claimed at once */
			continue;
		}
	} while (r == 0 && sent > 0);
	db_close(own);
	_exit(r == 0 ? 0 : 1);
}

/*
 * Send Email to many leads (MAUTO_TEST_MAIL_LEADS, default 200; the
 * issue's figure is 10,000), queued in transactions of 100 as a runner
 * would, delivered by two processes at once: the relay receives each
 * lead's message exactly once and each lead gets one 7.
 */
static void
test_many_leads(void **state)
{
	const char *env = getenv("MAUTO_TEST_MAIL_LEADS");
	int64_t run = run_base + 6, *ids;
	char *dir;
	size_t n = env != NULL ? strtoul(env, NULL, 10) : 200, i, got;
	int *seen, st, k;
	pid_t kids[2];
	struct arena qa;
	struct bulk bk;
	bool dup;

	(void)state;
	assert_true(n > 0 && n <= 100000);
	ids = arena_zalloc(&a, n * sizeof(*ids));
	seen = arena_zalloc(&a, n * sizeof(*seen));
	itest_sql(db, "START TRANSACTION");
	for (i = 0; i < n; i++) {
		itest_sqlf(db, "INSERT INTO lead (email, firstName, lastName, "
		    "createdAt, updatedAt) VALUES ('m%zu-%s@example.com', 'M', "
		    "'bulk-%s', UTC_TIMESTAMP(), UTC_TIMESTAMP())", i, tag,
		    tag);
		ids[i] = itest_count(db, "SELECT LAST_INSERT_ID()");
	}
	itest_sql(db, "COMMIT");
	dir = relay_start("accept");
	arena_init(&qa);
	for (i = 0; i < n; i += 100) {
		struct engine_mail_req req;
		size_t j;

		memset(&req, 0, sizeof(req));
		req.run_id = run;
		req.step_id = 9;
		req.campaign_id = CAMPAIGN;
		req.email_id = email;
		req.place = &place;
		req.schema = &schema;
		assert_int_equal(db_tx_begin(db), 0);
		for (j = i; j < n && j < i + 100; j++) {
			req.lead_id = ids[j];
			assert_int_equal(engine_mail_queue(db, &qa, &cfg, &req,
			    &dup), 0);
			assert_false(dup);
		}
		assert_int_equal(db_tx_commit(db), 0);
		arena_reset(&qa);
	}
	arena_clear(&qa);
	for (k = 0; k < 2; k++) {
		assert_true((kids[k] = fork()) >= 0);
		if (kids[k] == 0)
			child_deliver();
	}
	for (k = 0; k < 2; k++) {
		assert_int_equal(waitpid(kids[k], &st, 0), kids[k]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	bk.seen = seen;
	bk.n = n;
	each_rcpt(dir, count_bulk, &bk);
	for (i = 0, got = 0; i < n; i++) {
		assert_int_equal(seen[i], 1);
		got++;
	}
	assert_int_equal(got, n);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM outbox WHERE "
	    "run_id = %lld AND status = 'sent'", (long long)run), (int64_t)n);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM activity a "
	    "JOIN lead l ON l.id = a.lead_id WHERE l.lastName = 'bulk-%s' AND "
	    "a.activity_type_id = 7 AND a.campaign_id = %d", tag, CAMPAIGN),
	    (int64_t)n);
	relay_stop(dir);
}

static void
test_not_approved(void **state)
{
	struct engine_mail_req req;
	struct repo_email_new e;
	int32_t draft;
	bool dup;

	(void)state;
	memset(&e, 0, sizeof(e));
	e.name = named("draft-only");
	e.place = place;
	e.hdr[EMAIL_HDR_SUBJECT] = "s";
	assert_int_equal(repo_email_insert(db, &e, &draft), 0);
	memset(&req, 0, sizeof(req));
	req.run_id = run_base + 5;
	req.lead_id = lead1;
	req.step_id = 1;
	req.email_id = draft;
	req.schema = &schema;
	assert_int_equal(engine_mail_queue(db, &a, &cfg, &req, &dup),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM outbox WHERE "
	    "run_id = %lld", (long long)req.run_id), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_replay_deliver),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_lease_expired),
		cmocka_unit_test(test_no_relay),
		cmocka_unit_test(test_not_approved),
		cmocka_unit_test(test_many_leads),
	};

	if (itest_config(&cfg) != 0)
		return 77;
	if (system("/usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null") != 0)
		return 77;
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
