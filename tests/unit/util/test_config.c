/*
 * The configuration key table: defaults, the file syntax, bounds and
 * their error messages, environment and command-line precedence, the
 * password file and credential, --print-config masking, and that
 * man/mautod.conf.5 and deploy/mautod.conf.example document exactly the
 * keys of the table.
 */
#include <sys/stat.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bounds.h"
#include "util/config.h"

static char tmpdir[] = "/tmp/mauto-test-config-XXXXXX";
static char errpath[512];
static int saved_stderr = -1;

/* Writes text to a new file in tmpdir; returns its path (static). */
static const char *
write_file(const char *name, const char *text)
{
	static char path[512];
	FILE *fp;

	(void)snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
	return path;
}

/* Reads a whole file into a new string. */
static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	long n;

	if (fp == NULL)
		return NULL;
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n >= 0);
	rewind(fp);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	(void)fclose(fp);
	return buf;
}

/* Sends stderr to a file until capture_end(), which returns the text. */
static void
capture_begin(void)
{
	FILE *fp;

	(void)snprintf(errpath, sizeof(errpath), "%s/stderr", tmpdir);
	fflush(stderr);
	saved_stderr = dup(STDERR_FILENO);
	fp = fopen(errpath, "w");
	assert_non_null(fp);
	assert_int_not_equal(dup2(fileno(fp), STDERR_FILENO), -1);
	(void)fclose(fp);
}

static char *
capture_end(void)
{
	fflush(stderr);
	assert_int_not_equal(dup2(saved_stderr, STDERR_FILENO), -1);
	(void)close(saved_stderr);
	return slurp(errpath);
}

static int
setup(void **state)
{
	const struct config_key *k;
	char name[128];
	size_t j;
	int i, n;

	(void)state;
	assert_non_null(mkdtemp(tmpdir));
	/* The caller's MAUTO_* settings must not leak into the tests. */
	k = config_keys(&n);
	for (i = 0; i < n; i++) {
		(void)snprintf(name, sizeof(name), "MAUTO_%s", k[i].name);
		for (j = 6; name[j] != '\0'; j++)
			if (name[j] >= 'a' && name[j] <= 'z')
				name[j] = (char)(name[j] - 'a' + 'A');
		(void)unsetenv(name);
	}
	return 0;
}

static int
teardown(void **state)
{
	char cmd[600];

	(void)state;
	(void)snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void
test_defaults(void **state)
{
	struct config c;

	(void)state;
	config_init(&c);
	assert_null(c.listen);
	assert_int_equal(c.workers, 0);
	assert_int_equal(c.max_requests, 0);
	assert_int_equal(c.shutdown_timeout, 30);
	assert_null(c.host_id);
	assert_string_equal(c.log_level, "info");
	assert_string_equal(c.db_host, "127.0.0.1");
	assert_int_equal(c.db_port, 3306);
	assert_null(c.db_socket);
	assert_string_equal(c.db_name, "mauto");
	assert_string_equal(c.db_user, "mauto");
	assert_null(c.db_password);
	assert_null(c.db_password_file);
	assert_int_equal(c.db_connect_timeout, 5);
	assert_int_equal(c.db_read_timeout, 30);
	assert_int_equal(c.db_write_timeout, 30);
	assert_int_equal(c.rate_limit_calls, 100);
	assert_int_equal(c.rate_limit_window, 20);
	assert_int_equal(c.concurrency_limit, 10);
	assert_int_equal(c.daily_quota, 50000);
	assert_int_equal(c.limits_sync_ms, 250);
	assert_int_equal(c.token_lifetime, 3600);
	assert_string_equal(c.token_suffix, "mt");
	assert_true(c.allow_query_token);
	config_clear(&c);
	assert_null(c.db_host);
}

/* Every row formats back to its default text and has bounds that hold. */
static void
test_table_rows(void **state)
{
	const struct config_key *k;
	struct config c;
	char buf[256];
	int i, n;

	(void)state;
	config_init(&c);
	k = config_keys(&n);
	assert_true(n >= 24);
	for (i = 0; i < n; i++) {
		assert_non_null(k[i].help);
		assert_true(k[i].min <= k[i].max);
		assert_ptr_equal(config_key_find(k[i].name), &k[i]);
		(void)config_format(&c, &k[i], buf, sizeof(buf));
		assert_string_equal(buf, k[i].def != NULL ? k[i].def : "");
	}
	assert_null(config_key_find("no_such_key"));
	config_clear(&c);
}

static void
test_file_syntax(void **state)
{
	struct config c;
	const char *p;

	(void)state;
	p = write_file("ok.conf",
	    "# a comment\n"
	    "\n"
	    "   # an indented comment\n"
	    "workers=4\n"
	    "  db_host   =   db1:3307,db2   \n"
	    "db_password = pa#ss = word\n"
	    "allow_query_token = no\n"
	    "listen = unix:/run/mauto/mautod.sock\n"
	    "log_level = debug\n"
	    "workers = 6\n");
	config_init(&c);
	assert_int_equal(config_load_file(&c, p, true), 0);
	assert_int_equal(c.workers, 6);		/* the later line wins */
	assert_string_equal(c.db_host, "db1:3307,db2");
	assert_string_equal(c.db_password, "pa#ss = word");
	assert_false(c.allow_query_token);
	assert_string_equal(c.listen, "unix:/run/mauto/mautod.sock");
	assert_string_equal(c.log_level, "debug");
	config_clear(&c);
}

/* Loads text as a file and returns what was written to stderr. */
static char *
load_error(const char *text)
{
	struct config c;
	const char *p;
	char *err;
	int rc;

	p = write_file("bad.conf", text);
	config_init(&c);
	capture_begin();
	rc = config_load_file(&c, p, true);
	err = capture_end();
	config_clear(&c);
	assert_int_equal(rc, -1);
	assert_non_null(err);
	return err;
}

static void
test_file_errors_name_file_line_key(void **state)
{
	char *e, want[600];

	(void)state;
	e = load_error("workers = 2\n\nno_such_key = 1\n");
	(void)snprintf(want, sizeof(want), "%s/bad.conf:3: no_such_key: "
	    "unknown key", tmpdir);
	assert_non_null(strstr(e, want));
	free(e);

	e = load_error("# x\nworkers = 257\n");
	(void)snprintf(want, sizeof(want), "%s/bad.conf:2: workers: must be "
	    "an integer from 0 to %d", tmpdir, MAX_WORKERS);
	assert_non_null(strstr(e, want));
	free(e);

	e = load_error("db_port = 0\n");
	assert_non_null(strstr(e, "bad.conf:1: db_port: must be an integer "
	    "from 1 to 65535"));
	free(e);

	e = load_error("db_port = 12x\n");
	assert_non_null(strstr(e, "db_port: must be an integer"));
	free(e);

	e = load_error("just words\n");
	assert_non_null(strstr(e, "bad.conf:1: expected key = value"));
	free(e);

	e = load_error("allow_query_token = maybe\n");
	assert_non_null(strstr(e, "allow_query_token: must be true or false"));
	free(e);

	e = load_error("log_level = loud\n");
	assert_non_null(strstr(e, "log_level: must be error, warn"));
	free(e);

	e = load_error("token_suffix = a:b\n");
	assert_non_null(strstr(e, "token_suffix: may only contain"));
	free(e);

	e = load_error("token_suffix = toolongsuffix\n");
	assert_non_null(strstr(e, "token_suffix: must be 1 to 8 bytes"));
	free(e);

	e = load_error("listen = unix:relative/path\n");
	assert_non_null(strstr(e, "listen: unix socket path must be "
	    "absolute"));
	free(e);

	e = load_error("listen = localhost:99999\n");
	assert_non_null(strstr(e, "listen: port must be a number"));
	free(e);

	e = load_error("db_host =\n");
	assert_non_null(strstr(e, "db_host: must be 1 to"));
	free(e);
}

static void
test_missing_file(void **state)
{
	struct config c;
	char path[600];
	char *e;

	(void)state;
	(void)snprintf(path, sizeof(path), "%s/absent.conf", tmpdir);
	config_init(&c);
	assert_int_equal(config_load_file(&c, path, false), 0);
	capture_begin();
	assert_int_equal(config_load_file(&c, path, true), -1);
	e = capture_end();
	assert_non_null(strstr(e, "absent.conf: No such file"));
	free(e);
	config_clear(&c);
}

static void
test_empty_unsets_optional(void **state)
{
	struct config c;

	(void)state;
	config_init(&c);
	assert_int_equal(config_set(&c, "listen", "127.0.0.1:9000"), 0);
	assert_string_equal(c.listen, "127.0.0.1:9000");
	assert_int_equal(config_set(&c, "listen", "[::1]:9000"), 0);
	assert_int_equal(config_set(&c, "listen", "*:9000"), 0);
	assert_int_equal(config_set(&c, "listen", ""), 0);
	assert_null(c.listen);
	config_clear(&c);
}

static void
test_env_and_flags_order(void **state)
{
	struct config_override ov[] = { { "workers", "7" } };
	struct config c;
	const char *p;
	char *e;

	(void)state;
	p = write_file("order.conf", "workers = 2\ndb_name = fromfile\n"
	    "db_user = fromfile\n");
	assert_int_equal(setenv("MAUTO_WORKERS", "5", 1), 0);
	assert_int_equal(setenv("MAUTO_DB_NAME", "fromenv", 1), 0);
	assert_int_equal(setenv("MAUTO_TEST_DB_NAME", "ignored", 1), 0);
	assert_int_equal(config_load(&c, p, true, NULL, 0), 0);
	assert_int_equal(c.workers, 5);
	assert_string_equal(c.db_name, "fromenv");
	assert_string_equal(c.db_user, "fromfile");
	config_clear(&c);

	assert_int_equal(config_load(&c, p, true, ov, 1), 0);
	assert_int_equal(c.workers, 7);
	config_clear(&c);

	assert_int_equal(setenv("MAUTO_WORKERS", "-1", 1), 0);
	capture_begin();
	assert_int_equal(config_load(&c, p, true, NULL, 0), -1);
	e = capture_end();
	assert_non_null(strstr(e, "environment MAUTO_WORKERS: workers: must "
	    "be an integer"));
	free(e);
	/* A failed load leaves nothing allocated. */
	assert_null(c.db_name);
	assert_int_equal(unsetenv("MAUTO_WORKERS"), 0);
	assert_int_equal(unsetenv("MAUTO_DB_NAME"), 0);
	assert_int_equal(unsetenv("MAUTO_TEST_DB_NAME"), 0);

	ov[0].value = "many";
	capture_begin();
	assert_int_equal(config_load(&c, NULL, false, ov, 1), -1);
	e = capture_end();
	assert_non_null(strstr(e, "command line: workers: must be"));
	free(e);
}

static void
test_password_file_and_masking(void **state)
{
	struct config c;
	char pwfile[600], line[700], *out, outpath[600];
	const char *p;
	FILE *fp;

	(void)state;
	p = write_file("pw", "s3cret pass\nsecond line ignored\n");
	(void)snprintf(pwfile, sizeof(pwfile), "%s", p);
	(void)snprintf(line, sizeof(line), "db_password = inline\n"
	    "db_password_file = %s\n", pwfile);
	p = write_file("pw.conf", line);
	config_init(&c);
	assert_int_equal(config_load_file(&c, p, true), 0);
	assert_string_equal(c.db_password, "s3cret pass");
	assert_string_equal(c.db_password_file, pwfile);

	(void)snprintf(outpath, sizeof(outpath), "%s/print", tmpdir);
	fp = fopen(outpath, "w");
	assert_non_null(fp);
	config_print(&c, fp);
	(void)fclose(fp);
	out = slurp(outpath);
	assert_non_null(strstr(out, "db_password = ********\n"));
	assert_null(strstr(out, "s3cret"));
	assert_non_null(strstr(out, "workers = 0\n"));
	assert_non_null(strstr(out, "listen = \n"));
	assert_non_null(strstr(out, "allow_query_token = true\n"));
	free(out);
	config_clear(&c);

	config_init(&c);
	write_file("empty-pw", "\n");
	(void)snprintf(line, sizeof(line), "%s/empty-pw", tmpdir);
	capture_begin();
	assert_int_equal(config_set(&c, "db_password_file", line), -1);
	out = capture_end();
	assert_non_null(strstr(out, "the password must be 1 to"));
	free(out);
	(void)snprintf(line, sizeof(line), "%s/nope", tmpdir);
	capture_begin();
	assert_int_equal(config_set(&c, "db_password_file", line), -1);
	out = capture_end();
	assert_non_null(strstr(out, "No such file"));
	free(out);
	assert_null(c.db_password);
	config_clear(&c);
}

/*
 * LoadCredential=: with $CREDENTIALS_DIRECTORY set, db_password comes
 * from the file named by db_password_credential there; it beats the
 * configuration file and yields to the environment.
 */
static void
test_password_credential(void **state)
{
	struct config c;
	char dir[600], line[700], *e;
	const char *p;

	(void)state;
	(void)snprintf(dir, sizeof(dir), "%s/creds", tmpdir);
	assert_int_equal(mkdir(dir, 0700), 0);
	write_file("creds/mauto.db_password", "fromcred\n");
	write_file("creds/other", "othercred");
	p = write_file("cred.conf", "db_password = fromfile\n");
	(void)snprintf(line, sizeof(line), "%s", p);

	/* Without the directory nothing changes. */
	assert_int_equal(unsetenv("CREDENTIALS_DIRECTORY"), 0);
	assert_int_equal(config_load(&c, line, true, NULL, 0), 0);
	assert_string_equal(c.db_password, "fromfile");
	assert_string_equal(c.db_password_credential, "mauto.db_password");
	config_clear(&c);

	assert_int_equal(setenv("CREDENTIALS_DIRECTORY", dir, 1), 0);
	assert_int_equal(config_load(&c, line, true, NULL, 0), 0);
	assert_string_equal(c.db_password, "fromcred");
	config_clear(&c);

	/* Another name, from the environment. */
	assert_int_equal(setenv("MAUTO_DB_PASSWORD_CREDENTIAL", "other", 1), 0);
	assert_int_equal(config_load(&c, line, true, NULL, 0), 0);
	assert_string_equal(c.db_password, "othercred");
	config_clear(&c);

	/* A credential the unit did not load is no error. */
	assert_int_equal(setenv("MAUTO_DB_PASSWORD_CREDENTIAL", "absent", 1), 0);
	assert_int_equal(config_load(&c, line, true, NULL, 0), 0);
	assert_string_equal(c.db_password, "fromfile");
	config_clear(&c);
	assert_int_equal(config_load(&c, NULL, false, NULL, 0), 0);
	assert_null(c.db_password);
	config_clear(&c);
	assert_int_equal(unsetenv("MAUTO_DB_PASSWORD_CREDENTIAL"), 0);

	/* The environment wins over the credential. */
	assert_int_equal(setenv("MAUTO_DB_PASSWORD", "fromenv", 1), 0);
	assert_int_equal(config_load(&c, line, true, NULL, 0), 0);
	assert_string_equal(c.db_password, "fromenv");
	config_clear(&c);
	assert_int_equal(unsetenv("MAUTO_DB_PASSWORD"), 0);
	(void)snprintf(line, sizeof(line), "%s/creds/other", tmpdir);
	assert_int_equal(setenv("MAUTO_DB_PASSWORD_FILE", line, 1), 0);
	assert_int_equal(config_load(&c, NULL, false, NULL, 0), 0);
	assert_string_equal(c.db_password, "othercred");
	config_clear(&c);
	assert_int_equal(unsetenv("MAUTO_DB_PASSWORD_FILE"), 0);

	/* An empty credential is an error that names it. */
	write_file("creds/mauto.db_password", "\n");
	capture_begin();
	assert_int_equal(config_load(&c, NULL, false, NULL, 0), -1);
	e = capture_end();
	assert_non_null(strstr(e, "credential mauto.db_password: "));
	assert_non_null(strstr(e, "the password must be 1 to"));
	free(e);

	/* The name cannot leave the directory. */
	config_init(&c);
	capture_begin();
	assert_int_equal(config_set(&c, "db_password_credential", ".."), -1);
	assert_int_equal(config_set(&c, "db_password_credential", "a/b"), -1);
	e = capture_end();
	assert_non_null(strstr(e, "must name a file"));
	assert_non_null(strstr(e, "may only contain"));
	free(e);
	config_clear(&c);
	assert_int_equal(unsetenv("CREDENTIALS_DIRECTORY"), 0);
}

static void
test_bool_spellings(void **state)
{
	static const char *const t[] = { "true", "YES", "on", "1" };
	static const char *const f[] = { "false", "No", "OFF", "0" };
	struct config c;
	size_t i;

	(void)state;
	config_init(&c);
	for (i = 0; i < 4; i++) {
		assert_int_equal(config_set(&c, "allow_query_token", f[i]), 0);
		assert_false(c.allow_query_token);
		assert_int_equal(config_set(&c, "allow_query_token", t[i]), 0);
		assert_true(c.allow_query_token);
	}
	config_clear(&c);
}

/* The text of a documentation file under top_srcdir. */
static char *
doc(const char *rel)
{
	const char *top = getenv("top_srcdir");
	char path[1024];
	char *text;

	(void)snprintf(path, sizeof(path), "%s/%s", top ? top : ".", rel);
	text = slurp(path);
	if (text == NULL)
		fail_msg("cannot read %s (is top_srcdir set?)", path);
	return text;
}

/* The ".It Cm key" entry of the man page, up to the next .It; or NULL. */
static char *
man_entry(const char *man, const char *key)
{
	char head[128], *entry;
	const char *p, *end;
	size_t len;

	(void)snprintf(head, sizeof(head), "\n.It Cm %s", key);
	len = strlen(head);
	for (p = strstr(man, head); p != NULL; p = strstr(p + 1, head))
		if (p[len] == '\n' || p[len] == ' ')
			break;
	if (p == NULL)
		return NULL;
	end = strstr(p + len, "\n.It ");
	if (end == NULL)
		end = strstr(p + len, "\n.El");
	assert_non_null(end);
	entry = strndup(p, (size_t)(end - p));
	assert_non_null(entry);
	return entry;
}

static void
test_man_page_documents_every_key(void **state)
{
	const struct config_key *k;
	char *man, *entry, num[32], word[128];
	const char *p;
	size_t len;
	int i, n;

	(void)state;
	man = doc("man/mautod.conf.5");
	k = config_keys(&n);
	for (i = 0; i < n; i++) {
		entry = man_entry(man, k[i].name);
		if (entry == NULL)
			fail_msg("%s is not in mautod.conf.5", k[i].name);
		if (k[i].def != NULL && strstr(entry, k[i].def) == NULL)
			fail_msg("mautod.conf.5: %s: default %s missing",
			    k[i].name, k[i].def);
		if (k[i].type == CONFIG_INT) {
			(void)snprintf(num, sizeof(num), "%lld",
			    (long long)k[i].max);
			if (strstr(entry, num) == NULL)
				fail_msg("mautod.conf.5: %s: bound %s missing",
				    k[i].name, num);
		}
		free(entry);
	}
	/* And the other way: every documented key is in the table. */
	for (p = strstr(man, "\n.It Cm "); p != NULL;
	    p = strstr(p + 1, "\n.It Cm ")) {
		len = strcspn(p + 8, " \n");
		assert_true(len < sizeof(word));
		memcpy(word, p + 8, len);
		word[len] = '\0';
		if (config_key_find(word) == NULL)
			fail_msg("mautod.conf.5 documents unknown key %s", word);
	}
	free(man);
}

static void
test_example_lists_every_key(void **state)
{
	const struct config_key *k;
	char *ex, want[256], *copy, *line, *save;
	int i, n, lines = 0;

	(void)state;
	ex = doc("deploy/mautod.conf.example");
	k = config_keys(&n);
	for (i = 0; i < n; i++) {
		if (k[i].def != NULL)
			(void)snprintf(want, sizeof(want), "\n#%s = %s\n",
			    k[i].name, k[i].def);
		else
			(void)snprintf(want, sizeof(want), "\n#%s =\n",
			    k[i].name);
		if (strstr(ex, want) == NULL)
			fail_msg("mautod.conf.example lacks \"%s\"", want + 1);
	}
	/* Each commented setting names a real key. */
	copy = strdup(ex);
	assert_non_null(copy);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '#' || line[1] < 'a' || line[1] > 'z' ||
		    strstr(line, " =") == NULL)
			continue;
		*strstr(line, " =") = '\0';
		if (config_key_find(line + 1) == NULL)
			fail_msg("mautod.conf.example: unknown key %s",
			    line + 1);
		lines++;
	}
	assert_int_equal(lines, n);
	free(copy);
	free(ex);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_file_syntax),
		cmocka_unit_test(test_file_errors_name_file_line_key),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_empty_unsets_optional),
		cmocka_unit_test(test_env_and_flags_order),
		cmocka_unit_test(test_password_file_and_masking),
		cmocka_unit_test(test_password_credential),
		cmocka_unit_test(test_bool_spellings),
		cmocka_unit_test(test_man_page_documents_every_key),
		cmocka_unit_test(test_example_lists_every_key),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
