/*
 * mautoctl: the administration command.  Global options, then a
 * subcommand from the table below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "ctl/ctl.h"
#include "util/config.h"
#include "util/log.h"

struct subcommand {
	const char	*name;
	int		(*run)(int, char **, const struct config *);
	const char	*usage;
};

static const struct subcommand subcommands[] = {
	{ "campaign", ctl_campaign,
	  "campaign add --campaign ID --lead ID... | runs CAMPAIGN | "
	  "trace CAMPAIGN LEAD" },
	{ "clock", ctl_clock, "clock show | clock advance DURATION" },
	{ "client", ctl_client,
	  "client create --name NAME --role ROLE [--scope EMAIL] [--id ID] "
	  "[--secret SECRET|-] | list | show CLIENT_ID | revoke CLIENT_ID" },
	{ "fault", ctl_fault,
	  "fault CLIENT_ID CODE [COUNT] | fault clear CLIENT_ID" },
	{ "folder", ctl_folder,
	  "folder create --name NAME (--parent ID | --kind KIND) "
	  "[--description TEXT] | list | delete ID" },
	{ "form", ctl_form,
	  "form create --name NAME --field FIELD... [--program ID]" },
	{ "list", ctl_list,
	  "list create --name NAME [--program ID] | add --list ID --lead ID..." },
	{ "migrate", ctl_migrate, "migrate [--dir DIR] [--status]" },
	{ "outbox", ctl_outbox,
	  "outbox list [--limit N] | show ID | send-test --to ADDRESS "
	  "[--subject TEXT] [--from ADDRESS]" },
	{ "partition", ctl_partition,
	  "partition create --name NAME [--description TEXT]" },
	{ "program", ctl_program,
	  "program create --name NAME [--channel C] "
	  "[--type program|engagement] [--status NAME[:success]]... | list | "
	  "add --program ID --lead ID [--status NAME]" },
	{ "reset", ctl_reset, "reset [--yes]" },
	{ "role", ctl_role,
	  "role create NAME --permission PERM... | list" },
	{ "seed-demo", ctl_seed_demo, "seed-demo" },
	{ "segmentation", ctl_segmentation,
	  "segmentation create --name NAME --segment NAME... "
	  "[--description TEXT] | list | delete ID" },
	{ "snippet", ctl_snippet,
	  "snippet create --name NAME --file FILE [--text TEXT] "
	  "[--description TEXT] | list | delete ID" },
	{ "tag-type", ctl_tag_type,
	  "tag-type create --name NAME [--program-type TYPE]... "
	  "[--value VALUE]... [--required] | list | delete ID" },
	{ "template", ctl_template,
	  "template create --name NAME --folder ID --file FILE "
	  "[--description TEXT] [--dynamic SECTION=SEGMENTATION]... | list | "
	  "show ID | delete ID" },
};

static void
usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: mautoctl [--config FILE] COMMAND ...\n"
	    "       mautoctl help | --help | --version\n");
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "       mautoctl %s\n", subcommands[i].usage);
}

int
main(int argc, char **argv)
{
	struct config cfg;
	const char *cfgpath = CONFIG_DEFAULT_PATH;
	bool explicit_cfg = false;
	size_t i;
	int ai = 1, rc = 2;

	config_init(&cfg);
	log_init("mautoctl", "warn");
	if (sodium_init() < 0) {
		fprintf(stderr, "mautoctl: libsodium failed to start\n");
		goto out;
	}
	while (ai < argc && argv[ai][0] == '-') {
		if (strcmp(argv[ai], "--config") == 0 && ai + 1 < argc) {
			cfgpath = argv[ai + 1];
			explicit_cfg = true;
			ai += 2;
		} else if (strcmp(argv[ai], "--help") == 0 ||
		    strcmp(argv[ai], "-h") == 0) {
			usage(stdout);
			rc = 0;
			goto out;
		} else if (strcmp(argv[ai], "--version") == 0) {
			printf("mautoctl %s\n", PACKAGE_VERSION);
			rc = 0;
			goto out;
		} else {
			usage(stderr);
			goto out;
		}
	}
	if (ai >= argc) {
		usage(stderr);
		goto out;
	}
	/* Needs no configuration, so it works before there is one. */
	if (strcmp(argv[ai], "help") == 0) {
		usage(stdout);
		rc = 0;
		goto out;
	}
	if (config_load_file(&cfg, cfgpath, explicit_cfg) != 0 ||
	    config_load_env(&cfg) != 0 || config_load_credential(&cfg) != 0) {
		rc = 1;
		goto out;
	}
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (strcmp(argv[ai], subcommands[i].name) == 0) {
			rc = subcommands[i].run(argc - ai, argv + ai, &cfg);
			goto out;
		}
	}
	fprintf(stderr, "mautoctl: unknown command '%s'\n", argv[ai]);
	usage(stderr);
out:
	config_clear(&cfg);
	return rc;
}
