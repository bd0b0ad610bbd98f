/*
 * mautoctl client create|list|show|revoke, mautoctl role create|list and
 * mautoctl fault (the fault plans of clients).
 * Output is line-based for scripts: `client create` prints exactly one
 * client_id=... and one client_secret=... line, `client show` NAME=value
 * lines; lists are tab-separated with a header line.  Errors go to
 * stderr and exit 1.
 *
 * client create takes a fixed id and secret (--id, --secret) so that CI
 * can keep one client's credentials across resets and rebuilt stacks.
 * The id must look like the ids this service makes (a UUID: the identity
 * endpoint takes nothing else), the secret must be long enough to be one
 * and use only characters that need no escaping in a query string, a
 * form body or an environment file.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model/perm.h"
#include "auth/token.h"
#include "ctl/ctl.h"
#include "http/fault.h"
#include "db/pool.h"
#include "bounds.h"
#include "repo/repo.h"
#include "repo/repo_auth.h"
#include "util/num.h"
#include "util/config.h"

#define DEFAULT_SCOPE_DOMAIN	"@mauto.local"
#define MAX_FAULT_PLAN		1000	/* calls one mautoctl fault plans */

/*
 * Matches option opt at argv[*i] as "--opt VALUE" or "--opt=VALUE";
 * sets *val and advances *i past it.  Returns 1 on a match, 0 when
 * argv[*i] is another word, -1 when the value is missing.
 */
static int
opt_value(int argc, char **argv, int *i, const char *opt, const char **val)
{
	size_t n = strlen(opt);

	if (strncmp(argv[*i], opt, n) != 0)
		return 0;
	if (argv[*i][n] == '=') {
		*val = argv[*i] + n + 1;
		(*i)++;
		return 1;
	}
	if (argv[*i][n] != '\0')
		return 0;
	if (*i + 1 >= argc) {
		fprintf(stderr, "mautoctl: %s needs a value\n", opt);
		return -1;
	}
	*val = argv[*i + 1];
	*i += 2;
	return 1;
}

/* Whether s is 1..MAX_NAME_BYTES bytes without control characters. */
static bool
is_good_text(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > MAX_NAME_BYTES)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

/* Formats a Unix time as ISO 8601 UTC, or "-" for 0. */
static const char *
fmt_time(int64_t t, char *buf, size_t size)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (t == 0 || gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return "-";
	return buf;
}

/* Whether s is a UUID in text: 8-4-4-4-12 hex digits. */
static bool
is_uuid(const char *s)
{
	size_t i;

	if (strlen(s) != CLIENT_ID_BYTES)
		return false;
	for (i = 0; i < CLIENT_ID_BYTES; i++)
		if (i == 8 || i == 13 || i == 18 || i == 23 ? s[i] != '-' :
		    !isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* Whether s is a secret an operator may choose (see the top). */
static bool
is_good_secret(const char *s)
{
	size_t n = strlen(s), i;

	if (n < CLIENT_SECRET_MIN_BYTES || n > CLIENT_SECRET_MAX_BYTES)
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && strchr("-._~", s[i]) ==
		    NULL)
			return false;
	return true;
}

/*
 * The secret of --secret: the value, or with "-" one line of stdin (so it
 * stays out of the process list and shell history), into buf.
 */
static int
secret_arg(const char *v, char *buf, size_t size)
{
	size_t n;

	if (strcmp(v, "-") != 0) {
		if (strlen(v) >= size)
			goto bad;
		memcpy(buf, v, strlen(v) + 1);
		return 0;
	}
	if (fgets(buf, (int)size, stdin) == NULL) {
		fprintf(stderr, "mautoctl: --secret -: no line on stdin\n");
		return -1;
	}
	n = strcspn(buf, "\r\n");
	if (buf[n] == '\0' && !feof(stdin))
		goto bad;
	buf[n] = '\0';
	return 0;
bad:
	fprintf(stderr, "mautoctl: a secret is at most %d bytes\n",
	    CLIENT_SECRET_MAX_BYTES);
	return -1;
}

/* See ctl.h. */
int
ctl_db_open(struct db **db, const struct config *cfg)
{
	if (db_open(db, cfg, &repo_schema, DB_PREPARE_ALL) != 0) {
		fprintf(stderr, "mautoctl: cannot use the database "
		    "(see the message above; has `mautoctl migrate` run?)\n");
		return -1;
	}
	return 0;
}

static int
client_create(int argc, char **argv, const struct config *cfg)
{
	struct repo_auth_client c;
	struct db *db = NULL;
	const char *name = NULL, *role = NULL, *scope = NULL, *id = NULL;
	const char *secret_opt = NULL;
	char secret[CLIENT_SECRET_MAX_BYTES + 2];
	int i = 2, m, r, rc = 1;

	memset(&c, 0, sizeof(c));
	memset(secret, 0, sizeof(secret));
	while (i < argc) {
		if ((m = opt_value(argc, argv, &i, "--name", &name)) == 0 &&
		    (m = opt_value(argc, argv, &i, "--role", &role)) == 0 &&
		    (m = opt_value(argc, argv, &i, "--scope", &scope)) == 0 &&
		    (m = opt_value(argc, argv, &i, "--id", &id)) == 0 &&
		    (m = opt_value(argc, argv, &i, "--secret",
		    &secret_opt)) == 0) {
			fprintf(stderr, "mautoctl: client create: unexpected "
			    "'%s'\n", argv[i]);
			goto out;
		}
		if (m < 0)
			goto out;
	}
	if (name == NULL || role == NULL) {
		fprintf(stderr, "mautoctl: client create needs --name NAME "
		    "and --role ROLE\n");
		goto out;
	}
	if (!is_good_text(name) || !is_good_text(role) ||
	    (scope != NULL && !is_good_text(scope))) {
		fprintf(stderr, "mautoctl: name, role and scope must be 1 to "
		    "%d printable bytes\n", MAX_NAME_BYTES);
		goto out;
	}
	if (id != NULL && !is_uuid(id)) {
		fprintf(stderr, "mautoctl: --id must be a UUID "
		    "(8-4-4-4-12 hex digits, e.g. from uuidgen), not '%s'\n",
		    id);
		goto out;
	}
	if (secret_opt != NULL) {
		if (secret_arg(secret_opt, secret, sizeof(secret)) != 0)
			goto out;
		if (!is_good_secret(secret)) {
			fprintf(stderr, "mautoctl: --secret must be %d to %d "
			    "letters, digits or - . _ ~\n",
			    CLIENT_SECRET_MIN_BYTES, CLIENT_SECRET_MAX_BYTES);
			goto out;
		}
	}
	snprintf(c.name, sizeof(c.name), "%s", name);
	snprintf(c.role, sizeof(c.role), "%s", role);
	if (scope != NULL)
		snprintf(c.scope, sizeof(c.scope), "%s", scope);
	else if (strlen(name) + strlen(DEFAULT_SCOPE_DOMAIN) <= MAX_NAME_BYTES)
		snprintf(c.scope, sizeof(c.scope), "%s%s", name,
		    DEFAULT_SCOPE_DOMAIN);
	else {
		fprintf(stderr, "mautoctl: name too long for the default "
		    "scope; give --scope\n");
		goto out;
	}
	c.created_at = (int64_t)time(NULL);
	if (ctl_db_open(&db, cfg) != 0)
		goto out;
	if (secret_opt == NULL)
		r = token_client_new(c.client_id, secret, c.secret_hash);
	else if ((r = token_secret_hash(secret, c.secret_hash)) == 0)
		token_client_id_new(c.client_id);
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot make a secret\n");
		goto out;
	}
	if (id != NULL)
		memcpy(c.client_id, id, CLIENT_ID_BYTES + 1);
	r = repo_auth_client_insert(db, &c);
	if (r == -REPO_ERR_NOT_FOUND) {
		fprintf(stderr, "mautoctl: unknown role '%s' (see `mautoctl "
		    "role list`)\n", role);
		goto out;
	}
	if (r == -REPO_ERR_CONFLICT) {
		fprintf(stderr, "mautoctl: client id %s is taken (see "
		    "`mautoctl client show %s`)\n", c.client_id, c.client_id);
		goto out;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot store the client\n");
		goto out;
	}
	printf("client_id=%s\nclient_secret=%s\n", c.client_id, secret);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	explicit_bzero(secret, sizeof(secret));
	explicit_bzero(&c, sizeof(c));
	db_close(db);
	return rc;
}

static int
client_list(int argc, char **argv, const struct config *cfg)
{
	struct repo_auth_client_list l = { NULL, 0 };
	struct db *db = NULL;
	char t1[32], t2[32];
	size_t i;
	int rc = 1;

	(void)argv;
	if (argc != 2) {
		fprintf(stderr, "mautoctl: client list takes no arguments\n");
		goto out;
	}
	if (ctl_db_open(&db, cfg) != 0)
		goto out;
	if (repo_auth_client_list(db, &l) != 0) {
		fprintf(stderr, "mautoctl: cannot read the clients\n");
		goto out;
	}
	printf("client_id\tname\trole\tcreated\trevoked\n");
	for (i = 0; i < l.count; i++)
		printf("%s\t%s\t%s\t%s\t%s\n", l.items[i].client_id,
		    l.items[i].name, l.items[i].role,
		    fmt_time(l.items[i].created_at, t1, sizeof(t1)),
		    fmt_time(l.items[i].revoked_at, t2, sizeof(t2)));
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	repo_auth_client_list_free(&l);
	db_close(db);
	return rc;
}

/*
 * For "client VERB CLIENT_ID": checks the arguments, then connects.
 * Returns 0 with *db open, or -1 after a message.
 */
static int
client_id_open(int argc, char **argv, const struct config *cfg,
    struct db **db)
{
	if (argc != 3) {
		fprintf(stderr, "mautoctl: usage: client %s CLIENT_ID\n",
		    argv[1]);
		return -1;
	}
	if (strlen(argv[2]) != CLIENT_ID_BYTES) {
		fprintf(stderr, "mautoctl: '%s' is not a client id\n",
		    argv[2]);
		return -1;
	}
	return ctl_db_open(db, cfg);
}

static int
client_show(int argc, char **argv, const struct config *cfg)
{
	struct repo_auth_client c;
	struct db *db = NULL;
	char t1[32], t2[32];
	int r, rc = 1;

	memset(&c, 0, sizeof(c));
	if (client_id_open(argc, argv, cfg, &db) != 0)
		goto out;
	r = repo_auth_client_get_by_client_id(db, argv[2], &c);
	if (r == -REPO_ERR_NOT_FOUND) {
		fprintf(stderr, "mautoctl: no client '%s'\n", argv[2]);
		goto out;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot read the client\n");
		goto out;
	}
	/* Never the secret: only its hash is stored, and it stays inside. */
	printf("client_id=%s\nname=%s\nrole=%s\nscope=%s\ncreated=%s\n"
	    "revoked=%s\n", c.client_id, c.name, c.role, c.scope,
	    fmt_time(c.created_at, t1, sizeof(t1)),
	    fmt_time(c.revoked_at, t2, sizeof(t2)));
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	explicit_bzero(&c, sizeof(c));
	db_close(db);
	return rc;
}

static int
client_revoke(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	int r, rc = 1;

	if (client_id_open(argc, argv, cfg, &db) != 0)
		goto out;
	r = repo_auth_client_revoke(db, argv[2], (int64_t)time(NULL));
	if (r == -REPO_ERR_NOT_FOUND) {
		fprintf(stderr, "mautoctl: no live client '%s'\n", argv[2]);
		goto out;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot revoke the client\n");
		goto out;
	}
	printf("revoked %s\n", argv[2]);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	return rc;
}

/*
 * mautoctl client create --name N --role R [--scope EMAIL] [--id ID]
 * [--secret SECRET|-] | list | show CLIENT_ID | revoke CLIENT_ID.
 * argv[0] is "client"; cfg gives the database.
 * Returns the exit status: 0, or 1 after a message on stderr.
 */
int
ctl_client(int argc, char **argv, const struct config *cfg)
{
	if (argc >= 2 && strcmp(argv[1], "create") == 0)
		return client_create(argc, argv, cfg);
	if (argc >= 2 && strcmp(argv[1], "list") == 0)
		return client_list(argc, argv, cfg);
	if (argc >= 2 && strcmp(argv[1], "show") == 0)
		return client_show(argc, argv, cfg);
	if (argc >= 2 && strcmp(argv[1], "revoke") == 0)
		return client_revoke(argc, argv, cfg);
	fprintf(stderr, "mautoctl: usage: client create --name NAME --role "
	    "ROLE [--scope EMAIL] [--id ID] [--secret SECRET|-] | client "
	    "list | client show CLIENT_ID | client revoke CLIENT_ID\n");
	return 1;
}

/* Prints the valid permission names, for a bad --permission. */
static void
perm_names_print(FILE *f)
{
	int p;

	fprintf(f, "permissions:\n");
	for (p = 0; p < PERM__MAX; p++)
		fprintf(f, "  %s\n", perm_name((enum perm)p));
}

static int
role_create(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	const char *name = NULL, *pname;
	perm_set perms = 0;
	enum perm p;
	int i = 2, m, r, rc = 1;

	while (i < argc) {
		if ((m = opt_value(argc, argv, &i, "--permission",
		    &pname)) < 0)
			goto out;
		if (m == 1) {
			if (perm_parse(pname, &p) != 0) {
				fprintf(stderr, "mautoctl: unknown permission "
				    "'%s'\n", pname);
				perm_names_print(stderr);
				goto out;
			}
			perms |= PERM_BIT(p);
		} else if (name == NULL && argv[i][0] != '-')
			name = argv[i++];
		else {
			fprintf(stderr, "mautoctl: role create: unexpected "
			    "'%s'\n", argv[i]);
			goto out;
		}
	}
	if (name == NULL || perms == 0) {
		fprintf(stderr, "mautoctl: usage: role create NAME "
		    "--permission PERM...\n");
		goto out;
	}
	if (!is_good_text(name)) {
		fprintf(stderr, "mautoctl: a role name is 1 to %d printable "
		    "bytes\n", MAX_NAME_BYTES);
		goto out;
	}
	if (ctl_db_open(&db, cfg) != 0)
		goto out;
	r = repo_auth_role_insert(db, name, perms);
	if (r == -REPO_ERR_CONFLICT) {
		fprintf(stderr, "mautoctl: role '%s' exists\n", name);
		goto out;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot store the role\n");
		goto out;
	}
	printf("role %s created\n", name);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	return rc;
}

static int
role_list(int argc, char **argv, const struct config *cfg)
{
	struct repo_auth_role_list l = { NULL, 0 };
	struct db *db = NULL;
	char t[32];
	size_t i;
	int p, n, rc = 1;

	(void)argv;
	if (argc != 2) {
		fprintf(stderr, "mautoctl: role list takes no arguments\n");
		goto out;
	}
	if (ctl_db_open(&db, cfg) != 0)
		goto out;
	if (repo_auth_role_list(db, &l) != 0) {
		fprintf(stderr, "mautoctl: cannot read the roles\n");
		goto out;
	}
	printf("name\tcreated\tpermissions\n");
	for (i = 0; i < l.count; i++) {
		printf("%s\t%s\t", l.items[i].name,
		    fmt_time(l.items[i].created_at, t, sizeof(t)));
		for (p = 0, n = 0; p < PERM__MAX; p++)
			if (l.items[i].perms & PERM_BIT(p))
				printf("%s%s", n++ > 0 ? ", " : "",
				    perm_name((enum perm)p));
		printf("\n");
	}
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	repo_auth_role_list_free(&l);
	db_close(db);
	return rc;
}

/*
 * mautoctl role create NAME --permission PERM... | list.  argv[0] is
 * "role"; cfg gives the database.  Returns the exit status: 0, or 1
 * after a message on stderr.
 */
int
ctl_role(int argc, char **argv, const struct config *cfg)
{
	if (argc >= 2 && strcmp(argv[1], "create") == 0)
		return role_create(argc, argv, cfg);
	if (argc >= 2 && strcmp(argv[1], "list") == 0)
		return role_list(argc, argv, cfg);
	fprintf(stderr, "mautoctl: usage: role create NAME --permission "
	    "PERM... | role list\n");
	return 1;
}

/* mautoctl fault clear CLIENT_ID. */
static int
fault_clear(const char *client_id, const struct config *cfg)
{
	struct db *db = NULL;
	uint64_t n = 0;
	int rc = 1;

	if (ctl_db_open(&db, cfg) != 0)
		goto out;
	if (repo_auth_fault_delete_by_client_id(db, client_id, &n) != 0) {
		fprintf(stderr, "mautoctl: cannot clear the fault plan\n");
		goto out;
	}
	printf("cleared %llu planned faults of %s\n", (unsigned long long)n,
	    client_id);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	return rc;
}

/* See ctl.h. */
int
ctl_fault(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	int64_t code = 0, count = 1;
	int r, rc = 1;

	if (argc == 3 && strcmp(argv[1], "clear") == 0 &&
	    strlen(argv[2]) == CLIENT_ID_BYTES)
		return fault_clear(argv[2], cfg);
	if ((argc != 3 && argc != 4) || strlen(argv[1]) != CLIENT_ID_BYTES ||
	    num_parse_i64(argv[2], 600, 9999, &code) != 0 ||
	    fault_err_of_code((int)code) == 0 ||
	    (argc == 4 && num_parse_i64(argv[3], 1, MAX_FAULT_PLAN,
	    &count) != 0)) {
		fprintf(stderr, "mautoctl: usage: fault CLIENT_ID CODE [COUNT] "
		    "| fault clear CLIENT_ID\n(CODE: 601 602 604 606 607 608 "
		    "611 615; COUNT: 1 to %d)\n", MAX_FAULT_PLAN);
		goto out;
	}
	if (ctl_db_open(&db, cfg) != 0)
		goto out;
	r = repo_auth_fault_insert(db, argv[1], (int)code, (int)count);
	if (r == -REPO_ERR_NOT_FOUND) {
		fprintf(stderr, "mautoctl: no live client '%s'\n", argv[1]);
		goto out;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot plan the faults\n");
		goto out;
	}
	printf("the next %lld calls of %s answer %lld\n", (long long)count,
	    argv[1], (long long)code);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	return rc;
}
