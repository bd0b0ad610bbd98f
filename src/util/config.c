/*
 * Configuration (docs/style.md §0.1: tables over code).  Every key is one row
 * of keys[]: its type, default, bounds, flags, an optional check and the
 * help text.  The defaults, the file, the environment and the command
 * line all go through set_value(), so a value is checked the same way
 * wherever it comes from.  man/mautod.conf.5 documents the same rows; a
 * unit test keeps them in step.
 */
#include <sys/stat.h>

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bounds.h"
#include "util/config.h"
#include "util/num.h"
#include "util/sdlisten.h"
#include "util/xmalloc.h"

#define OFF(f)		offsetof(struct config, f)
#define WHY_BYTES	256
#define ENV_PREFIX	"MAUTO_"
#define ENV_NAME_BYTES	64
#define MASK		"********"

static int	check_listen(struct config *, const char *, char *, size_t);
static int	check_level(struct config *, const char *, char *, size_t);
static int	check_word(struct config *, const char *, char *, size_t);
static int	check_password_file(struct config *, const char *, char *,
		    size_t);
static int	check_abs_path(struct config *, const char *, char *, size_t);
static int	check_credential(struct config *, const char *, char *,
		    size_t);
static int	check_smtp_url(struct config *, const char *, char *,
		    size_t);
static int	check_starttls(struct config *, const char *, char *,
		    size_t);
static int	check_smtp_password_file(struct config *, const char *,
		    char *, size_t);
static int	check_address(struct config *, const char *, char *, size_t);

/*
 * The keys, in the order of man/mautod.conf.5.  String bounds are
 * lengths.  Keys flagged CONFIG_F_RESTART are fixed at start: the socket
 * is kept across SIGHUP, and the shared-memory limiter keeps the
 * settings it was created with.
 */
static const struct config_key keys[] = {
	{ .name = "listen", .def = NULL, .type = CONFIG_STR,
	  .offset = OFF(listen), .min = 1, .max = 255,
	  .flags = CONFIG_F_RESTART, .check = check_listen,
	  .help = "unix:/path or host:port to bind when no socket is "
	    "inherited" },
	{ .name = "workers", .def = "0", .type = CONFIG_INT,
	  .offset = OFF(workers), .min = 0, .max = MAX_WORKERS,
	  .help = "worker processes; 0 means one per CPU, but at least "
	    "concurrency_limit + 6" },
	{ .name = "max_requests", .def = "0", .type = CONFIG_INT,
	  .offset = OFF(max_requests), .min = 0, .max = INT32_MAX,
	  .help = "requests after which a worker is replaced; 0 means never" },
	{ .name = "shutdown_timeout", .def = "30", .type = CONFIG_INT,
	  .offset = OFF(shutdown_timeout), .min = 1, .max = 3600,
	  .help = "seconds a stopping worker may take before SIGKILL" },
	{ .name = "host_id", .def = NULL, .type = CONFIG_STR,
	  .offset = OFF(host_id), .min = 1, .max = MAX_HOST_ID_BYTES,
	  .flags = CONFIG_F_RESTART, .check = check_word,
	  .help = "this host's name in the shared limits; unset: hostname" },
	{ .name = "log_level", .def = "info", .type = CONFIG_STR,
	  .offset = OFF(log_level), .min = 1, .max = 5,
	  .check = check_level,
	  .help = "error, warn, info or debug" },
	{ .name = "db_host", .def = "127.0.0.1", .type = CONFIG_STR,
	  .offset = OFF(db_host), .min = 1, .max = 1024,
	  .help = "database host, or a list host[:port],... for failover" },
	{ .name = "db_port", .def = "3306", .type = CONFIG_INT,
	  .offset = OFF(db_port), .min = 1, .max = 65535,
	  .help = "database port for hosts listed without one" },
	{ .name = "db_socket", .def = NULL, .type = CONFIG_STR,
	  .offset = OFF(db_socket), .min = 1, .max = 107,
	  .help = "database Unix socket; used instead of db_host when set" },
	{ .name = "db_name", .def = "mauto", .type = CONFIG_STR,
	  .offset = OFF(db_name), .min = 1, .max = 64,
	  .help = "database (schema) name" },
	{ .name = "db_user", .def = "mauto", .type = CONFIG_STR,
	  .offset = OFF(db_user), .min = 1, .max = 80,
	  .help = "database user" },
	{ .name = "db_password", .def = NULL, .type = CONFIG_STR,
	  .offset = OFF(db_password), .min = 1, .max = 1024,
	  .flags = CONFIG_F_SECRET,
	  .help = "database password" },
	{ .name = "db_password_file", .def = NULL, .type = CONFIG_STR,
	  .offset = OFF(db_password_file), .min = 1, .max = 4095,
	  .check = check_password_file,
	  .help = "file whose first line is the database password" },
	{ .name = "db_password_credential", .def = "mauto.db_password",
	  .type = CONFIG_STR, .offset = OFF(db_password_credential),
	  .min = 1, .max = 255, .check = check_credential,
	  .help = "systemd credential (LoadCredential=) holding the database "
	    "password" },
	{ .name = "db_connect_timeout", .def = "5", .type = CONFIG_INT,
	  .offset = OFF(db_connect_timeout), .min = 1, .max = 3600,
	  .help = "seconds to connect to the database" },
	{ .name = "db_read_timeout", .def = "30", .type = CONFIG_INT,
	  .offset = OFF(db_read_timeout), .min = 1, .max = 86400,
	  .help = "seconds to wait for a database answer" },
	{ .name = "db_write_timeout", .def = "30", .type = CONFIG_INT,
	  .offset = OFF(db_write_timeout), .min = 1, .max = 86400,
	  .help = "seconds to wait for a database write" },
	{ .name = "rate_limit_calls", .def = "100", .type = CONFIG_INT,
	  .offset = OFF(rate_limit_calls), .min = 0, .max = 1000000,
	  .flags = CONFIG_F_RESTART,
	  .help = "calls per rate_limit_window (error 606); 0: no limit" },
	{ .name = "rate_limit_window", .def = "20", .type = CONFIG_INT,
	  .offset = OFF(rate_limit_window), .min = 1, .max = 86400,
	  .flags = CONFIG_F_RESTART,
	  .help = "seconds of the rolling rate-limit window" },
	{ .name = "concurrency_limit", .def = "10", .type = CONFIG_INT,
	  .offset = OFF(concurrency_limit), .min = 0, .max = 1000000,
	  .flags = CONFIG_F_RESTART,
	  .help = "calls in flight at once (error 615); 0: no limit" },
	{ .name = "daily_quota", .def = "50000", .type = CONFIG_INT,
	  .offset = OFF(daily_quota), .min = 0, .max = INT32_MAX,
	  .flags = CONFIG_F_RESTART,
	  .help = "calls per day (error 607); 0: no limit" },
	{ .name = "limits_sync_ms", .def = "250", .type = CONFIG_INT,
	  .offset = OFF(limits_sync_ms), .min = 10, .max = 60000,
	  .flags = CONFIG_F_RESTART,
	  .help = "milliseconds between reconciliations of the limits "
	    "through the database" },
	{ .name = "token_lifetime", .def = "3600", .type = CONFIG_INT,
	  .offset = OFF(token_lifetime), .min = 1, .max = 86400,
	  .help = "seconds an access token lives" },
	{ .name = "token_suffix", .def = "mt", .type = CONFIG_STR,
	  .offset = OFF(token_suffix), .min = 1, .max = 8,
	  .check = check_word,
	  .help = "the text after ':' in an access token" },
	{ .name = "allow_query_token", .def = "true", .type = CONFIG_BOOL,
	  .offset = OFF(allow_query_token), .min = 0, .max = 1,
	  .help = "accept the token in the access_token query parameter" },
	{ .name = "export_runner", .def = "true", .type = CONFIG_BOOL,
	  .offset = OFF(export_runner), .min = 0, .max = 1,
	  .help = "run the bulk export runners on this host" },
	{ .name = "export_dir", .def = "/var/lib/mauto/exports",
	  .type = CONFIG_STR, .offset = OFF(export_dir), .min = 2,
	  .max = 1024, .check = check_abs_path,
	  .help = "directory of the export files (shared by all hosts)" },
	{ .name = "export_daily_quota_mb", .def = "500", .type = CONFIG_INT,
	  .offset = OFF(export_daily_quota_mb), .min = 0, .max = 1048576,
	  .help = "megabytes of export files per day (error 1029); "
	    "0: no limit" },
	{ .name = "export_lease_secs", .def = "30", .type = CONFIG_INT,
	  .offset = OFF(export_lease_secs), .min = 2, .max = 3600,
	  .help = "seconds after which the job of a silent export runner "
	    "is taken over" },
	{ .name = "activity_pruner", .def = "true", .type = CONFIG_BOOL,
	  .offset = OFF(activity_pruner), .min = 0, .max = 1,
	  .help = "run the activity pruner on this host" },
	{ .name = "activity_retention_days", .def = "761", .type = CONFIG_INT,
	  .offset = OFF(activity_retention_days), .min = 0, .max = 36525,
	  .help = "days activities are kept (the standard class); 0: "
	    "for ever" },
	{ .name = "activity_retention_high_volume_days", .def = "90",
	  .type = CONFIG_INT,
	  .offset = OFF(activity_retention_high_volume_days), .min = 0,
	  .max = 36525,
	  .help = "days high-volume activities (Change Data Value, Add to "
	    "List, ...) are kept; 0: for ever" },
	{ .name = "activity_retention_deleted_days", .def = "14",
	  .type = CONFIG_INT, .offset = OFF(activity_retention_deleted_days),
	  .min = 0, .max = 36525,
	  .help = "days Delete Lead activities are kept; 0: for ever" },
	{ .name = "activity_retention_new_lead_days", .def = "0",
	  .type = CONFIG_INT, .offset = OFF(activity_retention_new_lead_days),
	  .min = 0, .max = 36525,
	  .help = "days New Lead activities are kept; 0: for ever" },
	{ .name = "campaign_runners", .def = "1", .type = CONFIG_INT,
	  .offset = OFF(campaign_runners), .min = 0, .max = 8,
	  .help = "campaign engine processes on this host (0: none; "
	    "runners on several hosts share the work)" },
	{ .name = "engine_clock_control", .def = "false", .type = CONFIG_BOOL,
	  .offset = OFF(engine_clock_control), .min = 0, .max = 1,
	  .help = "let mautoctl clock move the campaign engine's clock "
	    "(development and CI only)" },
	{ .name = "app_url", .def = "http://localhost", .type = CONFIG_STR,
	  .offset = OFF(app_url), .min = 1, .max = 255,
	  .help = "the address the url member of asset replies starts with "
	    "(the hosted service's user interface)" },
	{ .name = "smtp_url", .def = NULL, .type = CONFIG_STR,
	  .offset = OFF(smtp_url), .min = 8, .max = 1024,
	  .check = check_smtp_url,
	  .help = "the relay of sample sends, smtp://host[:port] or "
	    "smtps://host[:port]; unset: sends are kept in the outbox" },
	{ .name = "smtp_starttls", .def = "try", .type = CONFIG_STR,
	  .offset = OFF(smtp_starttls), .min = 3, .max = 7,
	  .check = check_starttls,
	  .help = "STARTTLS on smtp://: none, try or require" },
	{ .name = "smtp_ca_file", .def = NULL, .type = CONFIG_STR,
	  .offset = OFF(smtp_ca_file), .min = 2, .max = 4095,
	  .check = check_abs_path,
	  .help = "CA certificates the relay's certificate is checked "
	    "against; unset: the system's" },
	{ .name = "smtp_user", .def = NULL, .type = CONFIG_STR,
	  .offset = OFF(smtp_user), .min = 1, .max = 255,
	  .help = "user name of SMTP AUTH; unset: no AUTH" },
	{ .name = "smtp_password", .def = NULL, .type = CONFIG_STR,
	  .offset = OFF(smtp_password), .min = 1, .max = 1024,
	  .flags = CONFIG_F_SECRET,
	  .help = "password of SMTP AUTH" },
	{ .name = "smtp_password_file", .def = NULL, .type = CONFIG_STR,
	  .offset = OFF(smtp_password_file), .min = 1, .max = 4095,
	  .check = check_smtp_password_file,
	  .help = "file whose first line is the SMTP AUTH password" },
	{ .name = "smtp_password_credential", .def = "mauto.smtp_password",
	  .type = CONFIG_STR, .offset = OFF(smtp_password_credential),
	  .min = 1, .max = 255, .check = check_credential,
	  .help = "systemd credential (LoadCredential=) holding the SMTP "
	    "AUTH password" },
	{ .name = "smtp_from", .def = "mauto@localhost", .type = CONFIG_STR,
	  .offset = OFF(smtp_from), .min = 3, .max = 254,
	  .check = check_address,
	  .help = "envelope sender (MAIL FROM) of every send, and the From "
	    "of a send that names none" },
	{ .name = "smtp_timeout", .def = "30", .type = CONFIG_INT,
	  .offset = OFF(smtp_timeout), .min = 1, .max = 3600,
	  .help = "seconds one send may take, connecting included" },
	{ .name = "fault_injection", .def = "false", .type = CONFIG_BOOL,
	  .offset = OFF(fault_injection), .min = 0, .max = 1,
	  .help = "answer the X-Mauto-Fault request header and the fault "
	    "plans of mautoctl fault (testing only)" },
	{ .name = "fault_export_hold", .def = NULL, .type = CONFIG_STR,
	  .offset = OFF(fault_export_hold), .min = 2, .max = 1024,
	  .check = check_abs_path,
	  .help = "while this file exists, an export runner stops itself "
	    "(SIGSTOP) as it starts a job (testing only)" },
};

#define NKEYS	(sizeof(keys) / sizeof(keys[0]))

static const char *const levels[] = { "error", "warn", "info", "debug" };

static int
check_listen(struct config *cfg, const char *value, char *why, size_t whysz)
{
	struct sdlisten_addr a;
	const char *reason;

	(void)cfg;
	if (sdlisten_parse(value, &a, &reason) == 0)
		return 0;
	(void)snprintf(why, whysz, "%s", reason);
	return -1;
}

static int
check_level(struct config *cfg, const char *value, char *why, size_t whysz)
{
	size_t i;

	(void)cfg;
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (strcmp(value, levels[i]) == 0)
			return 0;
	(void)snprintf(why, whysz, "must be error, warn, info or debug");
	return -1;
}

/* Letters, digits, '.', '_' and '-' only: safe in tokens and logs. */
static int
check_word(struct config *cfg, const char *value, char *why, size_t whysz)
{
	const char *p;

	(void)cfg;
	for (p = value; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && strchr("._-", *p) == NULL) {
			(void)snprintf(why, whysz, "may only contain letters, "
			    "digits, '.', '_' and '-'");
			return -1;
		}
	return 0;
}

/*
 * A file name in $CREDENTIALS_DIRECTORY: a word (check_word) that is not
 * "." or "..", so it cannot name a file outside that directory.
 */
static int
check_credential(struct config *cfg, const char *value, char *why,
    size_t whysz)
{
	if (check_word(cfg, value, why, whysz) != 0)
		return -1;
	if (strcmp(value, ".") == 0 || strcmp(value, "..") == 0) {
		(void)snprintf(why, whysz, "must name a file");
		return -1;
	}
	return 0;
}

/* An absolute path (the daemon's working directory is not fixed). */
static int
check_abs_path(struct config *cfg, const char *value, char *why,
    size_t whysz)
{
	(void)cfg;
	if (value[0] == '/')
		return 0;
	(void)snprintf(why, whysz, "must be an absolute path");
	return -1;
}

/* smtp:// or smtps:// and a host. */
static int
check_smtp_url(struct config *cfg, const char *value, char *why,
    size_t whysz)
{
	const char *host = NULL;

	(void)cfg;
	if (strncmp(value, "smtp://", 7) == 0)
		host = value + 7;
	else if (strncmp(value, "smtps://", 8) == 0)
		host = value + 8;
	if (host != NULL && *host != '\0' && *host != '/' && *host != ':' &&
	    strchr(value, ' ') == NULL)
		return 0;
	(void)snprintf(why, whysz, "must be smtp://host[:port] or "
	    "smtps://host[:port]");
	return -1;
}

static int
check_starttls(struct config *cfg, const char *value, char *why,
    size_t whysz)
{
	(void)cfg;
	if (strcmp(value, "none") == 0 || strcmp(value, "try") == 0 ||
	    strcmp(value, "require") == 0)
		return 0;
	(void)snprintf(why, whysz, "must be none, try or require");
	return -1;
}

/*
 * One address local@domain of printable ASCII without white space or
 * the characters that would end it in a header or an SMTP command.
 */
static int
check_address(struct config *cfg, const char *value, char *why,
    size_t whysz)
{
	const char *at = strrchr(value, '@'), *p;

	(void)cfg;
	for (p = value; *p != '\0'; p++)
		if (*p <= ' ' || *p >= 0x7f ||
		    strchr("<>(),;:\\\"[]", *p) != NULL)
			break;
	if (*p == '\0' && at != NULL && at != value && at[1] != '\0' &&
	    strchr(value, '@') == at)
		return 0;
	(void)snprintf(why, whysz, "must be one address local@domain");
	return -1;
}

static void
free_secret(char *s)
{
	if (s != NULL)
		explicit_bzero(s, strlen(s));
	free(s);
}

/*
 * Reads up to max bytes of path into a new string; the first line
 * ending is cut off.  Returns 0, or -1 with a reason in why.
 */
static int
read_secret(const char *path, size_t max, char **out, char *why,
    size_t whysz)
{
	char *buf = NULL;
	size_t len = 0;
	ssize_t n;
	int fd = -1, r = -1;

	*out = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		(void)snprintf(why, whysz, "%s: %s", path, strerror(errno));
		goto out;
	}
	buf = xmalloc(max + 2);
	while (len < max + 1 &&
	    (n = read(fd, buf + len, max + 1 - len)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			(void)snprintf(why, whysz, "%s: %s", path,
			    strerror(errno));
			goto out;
		}
		len += (size_t)n;
	}
	buf[len] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	if (buf[0] == '\0' || strlen(buf) > max) {
		(void)snprintf(why, whysz, "%s: the password must be 1 to %zu "
		    "bytes on the first line", path, max);
		goto out;
	}
	*out = buf;
	buf = NULL;
	r = 0;
out:
	if (fd != -1)
		(void)close(fd);
	if (buf != NULL)
		free_secret(buf);
	return r;
}

static int
check_password_file(struct config *cfg, const char *value, char *why,
    size_t whysz)
{
	const struct config_key *pw = config_key_find("db_password");
	char *secret = NULL;

	if (read_secret(value, (size_t)pw->max, &secret, why, whysz) != 0)
		return -1;
	free_secret(cfg->db_password);
	cfg->db_password = secret;
	return 0;
}

static int
check_smtp_password_file(struct config *cfg, const char *value, char *why,
    size_t whysz)
{
	const struct config_key *pw = config_key_find("smtp_password");
	char *secret = NULL;

	if (read_secret(value, (size_t)pw->max, &secret, why, whysz) != 0)
		return -1;
	free_secret(cfg->smtp_password);
	cfg->smtp_password = secret;
	return 0;
}

static char **
str_field(struct config *cfg, const struct config_key *k)
{
	return (char **)(void *)((char *)cfg + k->offset);
}

static const void *
field_ro(const struct config *cfg, const struct config_key *k)
{
	return (const char *)cfg + k->offset;
}

static int *
int_field(struct config *cfg, const struct config_key *k)
{
	return (int *)(void *)((char *)cfg + k->offset);
}

static bool *
bool_field(struct config *cfg, const struct config_key *k)
{
	return (bool *)(void *)((char *)cfg + k->offset);
}

static int
parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

static bool
has_control(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static int
set_str(struct config *cfg, const struct config_key *k, const char *value,
    char *why, size_t whysz)
{
	char **field = str_field(cfg, k);
	size_t len = strlen(value);

	if (len == 0 && k->def == NULL) {
		/* "" unsets a key whose default is unset. */
		if (k->flags & CONFIG_F_SECRET)
			free_secret(*field);
		else
			free(*field);
		*field = NULL;
		return 0;
	}
	if ((int64_t)len < k->min || (int64_t)len > k->max) {
		(void)snprintf(why, whysz, "must be %lld to %lld bytes long",
		    (long long)k->min, (long long)k->max);
		return -1;
	}
	if (has_control(value)) {
		(void)snprintf(why, whysz, "contains control characters");
		return -1;
	}
	if (k->check != NULL && k->check(cfg, value, why, whysz) != 0)
		return -1;
	if (k->flags & CONFIG_F_SECRET)
		free_secret(*field);
	else
		free(*field);
	*field = xstrdup(value);
	return 0;
}

/* Checks and stores one value; 0, or -1 with a reason in why. */
static int
set_value(struct config *cfg, const struct config_key *k, const char *value,
    char *why, size_t whysz)
{
	int64_t n;
	bool b;

	switch (k->type) {
	case CONFIG_STR:
		return set_str(cfg, k, value, why, whysz);
	case CONFIG_INT:
		if (num_parse_i64(value, k->min, k->max, &n) != 0) {
			(void)snprintf(why, whysz, "must be an integer from "
			    "%lld to %lld", (long long)k->min,
			    (long long)k->max);
			return -1;
		}
		*int_field(cfg, k) = (int)n;
		return 0;
	case CONFIG_BOOL:
		if (parse_bool(value, &b) != 0) {
			(void)snprintf(why, whysz, "must be true or false");
			return -1;
		}
		*bool_field(cfg, k) = b;
		return 0;
	default:
		break;
	}
	(void)snprintf(why, whysz, "internal error: bad key type");
	return -1;
}

/* Checks and stores key = value; where names the source in the message. */
static int
set_reported(struct config *cfg, const char *where, const char *key,
    const char *value)
{
	const struct config_key *k = config_key_find(key);
	char why[WHY_BYTES];

	if (k == NULL) {
		(void)fprintf(stderr, "mautod: %s: %s: unknown key\n", where,
		    key);
		return -1;
	}
	if (set_value(cfg, k, value, why, sizeof(why)) != 0) {
		(void)fprintf(stderr, "mautod: %s: %s: %s\n", where, key, why);
		return -1;
	}
	return 0;
}

const struct config_key *
config_keys(int *n)
{
	*n = (int)NKEYS;
	return keys;
}

const struct config_key *
config_key_find(const char *name)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

void
config_init(struct config *cfg)
{
	char why[WHY_BYTES];
	size_t i;
	int rc;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < NKEYS; i++) {
		if (keys[i].def == NULL)
			continue;
		rc = set_value(cfg, &keys[i], keys[i].def, why, sizeof(why));
		/* A default that fails its own row is a bug in the table. */
		assert(rc == 0);
		(void)rc;
	}
}

void
config_clear(struct config *cfg)
{
	size_t i;
	char **field;

	for (i = 0; i < NKEYS; i++) {
		if (keys[i].type != CONFIG_STR)
			continue;
		field = str_field(cfg, &keys[i]);
		if (keys[i].flags & CONFIG_F_SECRET)
			free_secret(*field);
		else
			free(*field);
		*field = NULL;
	}
}

int
config_set(struct config *cfg, const char *key, const char *value)
{
	return set_reported(cfg, "setting", key, value);
}

/* Cuts leading and trailing white space off s in place; returns it. */
static char *
trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Handles one line of a file; 0 or -1 (reported). */
static int
load_line(struct config *cfg, const char *path, unsigned long lineno,
    char *line)
{
	char where[WHY_BYTES], *key, *eq;

	key = trim(line);
	if (*key == '\0' || *key == '#')
		return 0;
	(void)snprintf(where, sizeof(where), "%s:%lu", path, lineno);
	if ((eq = strchr(key, '=')) == NULL) {
		(void)fprintf(stderr, "mautod: %s: expected key = value\n",
		    where);
		return -1;
	}
	*eq = '\0';
	return set_reported(cfg, where, trim(key), trim(eq + 1));
}

int
config_load_file(struct config *cfg, const char *path, bool required)
{
	FILE *fp = NULL;
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	int r = -1;

	if ((fp = fopen(path, "re")) == NULL) {
		if (errno == ENOENT && !required)
			r = 0;
		else
			(void)fprintf(stderr, "mautod: %s: %s\n", path,
			    strerror(errno));
		goto out;
	}
	while (getline(&line, &cap, fp) != -1) {
		lineno++;
		if (load_line(cfg, path, lineno, line) != 0)
			goto out;
	}
	if (ferror(fp)) {
		(void)fprintf(stderr, "mautod: %s: read error\n", path);
		goto out;
	}
	r = 0;
out:
	if (line != NULL)
		explicit_bzero(line, cap);
	free(line);
	if (fp != NULL)
		(void)fclose(fp);
	return r;
}

/* MAUTO_ and the key in upper case. */
static void
env_name(const char *key, char *out, size_t size)
{
	size_t i, o;

	o = strlen(ENV_PREFIX);
	memcpy(out, ENV_PREFIX, o);
	for (i = 0; key[i] != '\0' && o + 1 < size; i++)
		out[o++] = (char)toupper((unsigned char)key[i]);
	out[o] = '\0';
}

int
config_load_env(struct config *cfg)
{
	char name[ENV_NAME_BYTES], where[ENV_NAME_BYTES + 16];
	const char *v;
	size_t i;

	for (i = 0; i < NKEYS; i++) {
		env_name(keys[i].name, name, sizeof(name));
		if ((v = getenv(name)) == NULL)
			continue;
		(void)snprintf(where, sizeof(where), "environment %s", name);
		if (set_reported(cfg, where, keys[i].name, v) != 0)
			return -1;
	}
	return 0;
}

/* The passwords that may come as systemd credentials. */
static const struct {
	const char	*password;	/* the key the credential fills */
	const char	*credential;	/* the key naming the credential */
	const char	*env;		/* MAUTO_<password key> */
	const char	*env_file;	/* MAUTO_<password key>_FILE */
} credentials[] = {
	{ "db_password", "db_password_credential", ENV_PREFIX "DB_PASSWORD",
	  ENV_PREFIX "DB_PASSWORD_FILE" },
	{ "smtp_password", "smtp_password_credential",
	  ENV_PREFIX "SMTP_PASSWORD", ENV_PREFIX "SMTP_PASSWORD_FILE" },
};

/* Reads credential i of credentials[] from dir; 0 or -1 (reported). */
static int
load_one_credential(struct config *cfg, const char *dir, size_t i)
{
	const struct config_key *pw = config_key_find(credentials[i].password);
	const struct config_key *ck =
	    config_key_find(credentials[i].credential);
	const char *name = *str_field(cfg, ck);
	char path[PATH_MAX], why[WHY_BYTES], *secret = NULL, **field;
	int n;

	if (getenv(credentials[i].env) != NULL ||
	    getenv(credentials[i].env_file) != NULL)
		return 0;
	n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		(void)fprintf(stderr, "mautod: credential %s: the path is too "
		    "long\n", name);
		return -1;
	}
	/* LoadCredential=ID without a path skips a credential it lacks. */
	if (access(path, F_OK) != 0 && errno == ENOENT)
		return 0;
	if (read_secret(path, (size_t)pw->max, &secret, why,
	    sizeof(why)) != 0) {
		(void)fprintf(stderr, "mautod: credential %s: %s\n", name, why);
		return -1;
	}
	field = str_field(cfg, pw);
	free_secret(*field);
	*field = secret;
	return 0;
}

int
config_load_credential(struct config *cfg)
{
	const char *dir = getenv("CREDENTIALS_DIRECTORY");
	size_t i;

	if (dir == NULL || dir[0] == '\0')
		return 0;
	for (i = 0; i < sizeof(credentials) / sizeof(credentials[0]); i++)
		if (load_one_credential(cfg, dir, i) != 0)
			return -1;
	return 0;
}

int
config_load(struct config *cfg, const char *path, bool required,
    const struct config_override *ov, size_t n)
{
	size_t i;
	int r = -1;

	config_init(cfg);
	/*
	 * The credential is read after the environment (which may rename
	 * it) but yields to a password the environment sets, so the order
	 * is: file, credential, environment.
	 */
	if ((path != NULL && config_load_file(cfg, path, required) != 0) ||
	    config_load_env(cfg) != 0 || config_load_credential(cfg) != 0)
		goto out;
	for (i = 0; i < n; i++)
		if (set_reported(cfg, "command line", ov[i].key,
		    ov[i].value) != 0)
			goto out;
	r = 0;
out:
	if (r != 0)
		config_clear(cfg);
	return r;
}

const char *
config_format(const struct config *cfg, const struct config_key *k,
    char *buf, size_t size)
{
	const void *f = field_ro(cfg, k);
	const char *s;

	if (size == 0)
		return buf;
	switch (k->type) {
	case CONFIG_STR:
		s = *(char *const *)f;
		(void)snprintf(buf, size, "%s", s != NULL ? s : "");
		break;
	case CONFIG_INT:
		(void)snprintf(buf, size, "%d", *(const int *)f);
		break;
	case CONFIG_BOOL:
		(void)snprintf(buf, size, "%s",
		    *(const bool *)f ? "true" : "false");
		break;
	default:
		buf[0] = '\0';
		break;
	}
	return buf;
}

void
config_print(const struct config *cfg, FILE *fp)
{
	char val[4096];
	size_t i;

	for (i = 0; i < NKEYS; i++) {
		(void)config_format(cfg, &keys[i], val, sizeof(val));
		if ((keys[i].flags & CONFIG_F_SECRET) && val[0] != '\0')
			(void)fprintf(fp, "%s = %s\n", keys[i].name, MASK);
		else
			(void)fprintf(fp, "%s = %s\n", keys[i].name, val);
		explicit_bzero(val, sizeof(val));
	}
}
