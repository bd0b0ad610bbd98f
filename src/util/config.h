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
#include <stdint.h>

#define CONFIG_DEFAULT_PATH	SYSCONFDIR "/mauto/mautod.conf"

struct config {
	/* Process. */
	char	*listen;		/* "unix:/path", "host:port", or NULL: inherit */
	int	 workers;		/* 0: number of CPUs */
	int	 max_requests;		/* a worker recycles after this many; 0: never */
	char	*host_id;		/* this host's name for shared limits; NULL: hostname */
	char	*log_level;		/* error, warn, info, debug */

	/* Database (MariaDB Connector/C). */
	char	*db_host;		/* may list several "h1:p1,h2:p2" for failover */
	int	 db_port;
	char	*db_socket;		/* unix socket path; wins over host */
	char	*db_name;
	char	*db_user;
	char	*db_password;
	int	 db_connect_timeout;	/* seconds */
	int	 db_read_timeout;
	int	 db_write_timeout;

	/* Limits of the whole instance (api-behaviour.md §4); 0 switches off. */
	int	 rate_limit_calls;	/* 100 */
	int	 rate_limit_window;	/* seconds, 20 */
	int	 concurrency_limit;	/* 10 */
	int	 daily_quota;		/* 50000 */
	int	 limits_sync_ms;	/* 250: how often a host reconciles via the DB */

	/* Tokens. */
	int	 token_lifetime;	/* 3600 */
	char	*token_suffix;		/* the ":xx" part of an access token */
	bool	 allow_query_token;	/* accept ?access_token= */
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
/* Sets one key from text (used by the file, env and flags); 0 or -1. */
int	config_set(struct config *cfg, const char *key, const char *value);

/* The key table, for the documentation test and `mautod --print-config`. */
struct config_key {
	const char	*name;
	const char	*def;		/* default as text; NULL for "unset" */
	const char	*help;
};
const struct config_key	*config_keys(int *n);

#endif
