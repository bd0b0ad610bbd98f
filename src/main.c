/*
 * mautod: command line and configuration; then the master takes over
 * (docs/style.md §1).  The configuration is built in the documented order:
 * defaults, the file, MAUTO_* environment variables, command-line flags.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "master.h"
#include "util/config.h"
#include "util/log.h"

#define EXIT_USAGE	2
#define MAX_FLAG_OVERRIDES	2	/* --listen, --workers */

enum action { RUN, CHECK_CONFIG, PRINT_CONFIG };

struct cmdline {
	const char		*config_path;
	bool			 config_required;
	enum action		 action;
	struct config_override	 ov[MAX_FLAG_OVERRIDES];
	size_t			 nov;
};

static void
usage(FILE *fp)
{
	(void)fprintf(fp,
	    "usage: mautod [--config PATH] [--listen unix:PATH|HOST:PORT] "
	    "[--workers N]\n"
	    "              [--check-config | --print-config] "
	    "[--version] [--help]\n"
	    "  --config PATH    configuration file (default %s)\n"
	    "  --listen ADDR    bind ADDR when no socket is inherited\n"
	    "  --workers N      worker processes (0: one per CPU, at least\n"
	    "                   concurrency_limit + 6)\n"
	    "  --check-config   check the configuration and exit\n"
	    "  --print-config   print every key's effective value and exit\n"
	    "  --version        print the version and exit\n"
	    "  --help           print this help and exit\n",
	    CONFIG_DEFAULT_PATH);
}

static void
add_override(struct cmdline *c, const char *key, const char *value)
{
	size_t i;

	/* A repeated flag replaces the earlier one. */
	for (i = 0; i < c->nov; i++)
		if (c->ov[i].key == key) {
			c->ov[i].value = value;
			return;
		}
	c->ov[c->nov].key = key;
	c->ov[c->nov].value = value;
	c->nov++;
}

/* Parses argv into c; returns -1 to exit with the status in *exit_code. */
static int
parse_args(int argc, char **argv, struct cmdline *c, int *exit_code)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "listen", required_argument, NULL, 'l' },
		{ "workers", required_argument, NULL, 'w' },
		{ "check-config", no_argument, NULL, 't' },
		{ "print-config", no_argument, NULL, 'p' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	c->config_path = CONFIG_DEFAULT_PATH;
	while ((ch = getopt_long(argc, argv, "c:l:w:tpVh", opts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			c->config_path = optarg;
			c->config_required = true;
			break;
		case 'l':
			add_override(c, "listen", optarg);
			break;
		case 'w':
			add_override(c, "workers", optarg);
			break;
		case 't':
			c->action = CHECK_CONFIG;
			break;
		case 'p':
			c->action = PRINT_CONFIG;
			break;
		case 'V':
			(void)printf("mautod %s\n", PACKAGE_VERSION);
			*exit_code = 0;
			return -1;
		case 'h':
			usage(stdout);
			*exit_code = 0;
			return -1;
		default:
			usage(stderr);
			*exit_code = EXIT_USAGE;
			return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		*exit_code = EXIT_USAGE;
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct cmdline c = { 0 };
	struct master_opts mo;
	struct config cfg;
	int status = 1;

	if (parse_args(argc, argv, &c, &status) != 0)
		return status;
	log_init("mautod", "info");
	if (config_load(&cfg, c.config_path, c.config_required, c.ov,
	    c.nov) != 0)
		return 1;
	log_init("mautod", cfg.log_level);
	switch (c.action) {
	case CHECK_CONFIG:
		(void)printf("mautod: configuration OK\n");
		status = 0;
		break;
	case PRINT_CONFIG:
		config_print(&cfg, stdout);
		status = 0;
		break;
	case RUN:
		mo = (struct master_opts){ .config_path = c.config_path,
		    .config_required = c.config_required,
		    .overrides = c.ov, .noverrides = c.nov };
		status = master_run(&cfg, &mo);
		break;
	}
	config_clear(&cfg);
	return status;
}
