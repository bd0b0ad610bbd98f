/*
 * Configuration: one key table (config.c) gives each key its type, default
 * and bounds.  Values come from the file (/etc/mauto/mautod.conf or
 * --config), then from the environment (MAUTO_<KEY in upper case>), then
 * from command-line flags.  Every key is documented in man/mautod.conf.5;
 * a unit test keeps the two in step.
 */
#ifndef MAUTO_UTIL_CONFIG_H
#define MAUTO_UTIL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CONFIG_DEFAULT_PATH	SYSCONFDIR "/mauto/mautod.conf"

struct config {
	/* Process. */
	char	*listen;		/* "unix:/path", "host:port", or NULL: inherit */
	int	 workers;		/* 0: number of CPUs */
	int	 max_requests;		/* a worker recycles after this many; 0: never */
	int	 shutdown_timeout;	/* seconds before a stopping worker is killed */
	char	*host_id;		/* this host's name for shared limits; NULL: hostname */
	char	*log_level;		/* error, warn, info, debug */

	/* Database (MariaDB Connector/C). */
	char	*db_host;		/* may list several "h1:p1,h2:p2" for failover */
	int	 db_port;
	char	*db_socket;		/* unix socket path; wins over host */
	char	*db_name;
	char	*db_user;
	char	*db_password;
	char	*db_password_file;	/* setting it reads db_password from it */
	char	*db_password_credential; /* its name in $CREDENTIALS_DIRECTORY */
	int	 db_connect_timeout;	/* seconds */
	int	 db_read_timeout;
	int	 db_write_timeout;

	/* Limits of the whole instance (docs/behaviour.md §4); 0 switches off. */
	int	 rate_limit_calls;	/* 100 */
	int	 rate_limit_window;	/* seconds, 20 */
	int	 concurrency_limit;	/* 10 */
	int	 daily_quota;		/* 50000 */
	int	 limits_sync_ms;	/* 250: how often a host reconciles via the DB */

	/* Tokens. */
	int	 token_lifetime;	/* 3600 */
	char	*token_suffix;		/* the ":xx" part of an access token */
	bool	 allow_query_token;	/* accept ?access_token= */

	/* Bulk export (src/export/runner.c). */
	bool	 export_runner;		/* run export runners on this host */
	char	*export_dir;		/* the export files, shared by hosts */
	int	 export_daily_quota_mb;	/* 500; 0: no limit */
	int	 export_lease_secs;	/* a runner's unrenewed claim lasts */

	/* Activity retention (src/activity/pruner.c); days, 0: for ever. */
	bool	 activity_pruner;	/* run the pruner on this host */
	int	 activity_retention_days;		/* 761: 25 months */
	int	 activity_retention_high_volume_days;	/* 90 */
	int	 activity_retention_deleted_days;	/* 14 */
	int	 activity_retention_new_lead_days;	/* 0 */

	/* The campaign engine (src/engine/, docs/behaviour.md §24). */
	int	 campaign_runners;	/* runner processes on this host */
	bool	 engine_clock_control;	/* mautoctl clock may move its clock */

	/* Assets (docs/assets.md). */
	char	*app_url;		/* asset urls start with it */

	/* Mail (src/mail/): the relay of sample sends; the outbox. */
	char	*smtp_url;		/* smtp://host:port or smtps://; NULL: none */
	char	*smtp_starttls;		/* none, try, require */
	char	*smtp_ca_file;		/* CA certificates; NULL: the system's */
	char	*smtp_user;		/* NULL: no AUTH */
	char	*smtp_password;
	char	*smtp_password_file;	/* setting it reads smtp_password */
	char	*smtp_password_credential; /* in $CREDENTIALS_DIRECTORY */
	char	*smtp_from;		/* envelope sender and default From */
	int	 smtp_timeout;		/* seconds for one send, connect to QUIT */

	/* Testing clients (src/http/fault.c): X-Mauto-Fault, fault plans. */
	bool	 fault_injection;
	/* Testing the runners: while this file exists, a claim stops them. */
	char	*fault_export_hold;	/* NULL: never */
};

/* Fills cfg with the defaults of the key table. */
void	config_init(struct config *cfg);
/* Frees the strings of cfg. */
void	config_clear(struct config *cfg);
/*
 * Reads a `key = value` file into cfg.  A missing file is an error only
 * when required is true.  Returns 0, or -1 after writing a message that
 * names the file, line and key to stderr.
 */
int	config_load_file(struct config *cfg, const char *path, bool required);
/* Applies MAUTO_* environment overrides; 0 or -1 as above. */
int	config_load_env(struct config *cfg);
/*
 * Reads db_password from the systemd credential named
 * db_password_credential when $CREDENTIALS_DIRECTORY is set (the unit's
 * LoadCredential=) and the environment sets neither MAUTO_DB_PASSWORD nor
 * MAUTO_DB_PASSWORD_FILE, which win; smtp_password likewise from
 * smtp_password_credential.  A credential that was not loaded
 * (no such file) is no error.  Returns 0, or -1 after a message on
 * stderr when the file cannot be read or holds no valid password.
 */
int	config_load_credential(struct config *cfg);
/* Sets one key from text (used by the file, env and flags); 0 or -1. */
int	config_set(struct config *cfg, const char *key, const char *value);

/* How a key's text becomes a value (config.c). */
enum config_type {
	CONFIG_STR,		/* char *; length in [min, max]; "" unsets */
	CONFIG_INT,		/* int in [min, max] */
	CONFIG_BOOL,		/* true/false, yes/no, on/off, 1/0 */
	CONFIG_TYPE__MAX
};

#define CONFIG_F_SECRET		0x1	/* masked by --print-config */
#define CONFIG_F_RESTART	0x2	/* SIGHUP does not apply a change */

/*
 * The key table, for the documentation test and `mautod --print-config`.
 * check, when set, runs after the type and bounds checks and before the
 * value is stored: it returns 0, or -1 with a reason in why.  It may set
 * other fields of cfg (db_password_file fills db_password).
 */
struct config_key {
	const char	*name;
	const char	*def;		/* default as text; NULL for "unset" */
	const char	*help;
	enum config_type type;
	size_t		 offset;	/* of the field in struct config */
	int64_t		 min;		/* value, or length for CONFIG_STR */
	int64_t		 max;
	unsigned	 flags;		/* CONFIG_F_* */
	int		(*check)(struct config *cfg, const char *value,
			    char *why, size_t whysz);
};
const struct config_key	*config_keys(int *n);
/* The table entry of a key name, or NULL. */
const struct config_key	*config_key_find(const char *name);

/*
 * The effective value of key k in cfg as text, written into buf (size
 * bytes, always terminated): "" for an unset string, "true"/"false" for a
 * boolean.  Secrets are not masked here.  Returns buf.
 */
const char	*config_format(const struct config *cfg,
		    const struct config_key *k, char *buf, size_t size);

/* Writes every key as "key = value" to fp, secrets masked. */
void	config_print(const struct config *cfg, FILE *fp);

/* One command-line setting, applied after the file and the environment. */
struct config_override {
	const char	*key;
	const char	*value;
};

/*
 * The whole load in the documented order: defaults, the file at path
 * (an error if missing only when required), the password credential,
 * MAUTO_* environment, then the n overrides.  On success cfg holds the result; on error cfg is
 * left cleared and -1 is returned after a message on stderr.  The caller
 * owns cfg and frees it with config_clear().
 */
int	config_load(struct config *cfg, const char *path, bool required,
	    const struct config_override *ov, size_t n);

#endif
