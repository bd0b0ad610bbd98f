/*
 * mautoctl subcommands.  Each takes the arguments after its name
 * (argv[0] is the subcommand) and the loaded configuration, prints its
 * result on stdout and errors on stderr, and returns the exit status.
 */
#ifndef MAUTO_CTL_CTL_H
#define MAUTO_CTL_CTL_H

#include <stddef.h>
#include <stdint.h>

struct config;
struct db;

/*
 * Connects to the database of cfg with every statement prepared.
 * Returns 0 and an owned *db (db_close), or -1 after saying why on
 * stderr.
 */
int	ctl_db_open(struct db **db, const struct config *cfg);

/* Whether s is 1 to max bytes of printable text (UTF-8 allowed). */
int	ctl_good_text(const char *s, size_t max);

/* mautoctl migrate [--status] */
int	ctl_migrate(int argc, char **argv, const struct config *cfg);
/* mautoctl client create|list|revoke ... */
int	ctl_client(int argc, char **argv, const struct config *cfg);
/*
 * mautoctl fault CLIENT_ID CODE [COUNT] | clear CLIENT_ID: the fault plan
 * of a client (fault_injection, docs/operating.md).  Same result as ctl_client.
 */
int	ctl_fault(int argc, char **argv, const struct config *cfg);
/* mautoctl reset [--yes] (ctl_reset.c) */
int	ctl_reset(int argc, char **argv, const struct config *cfg);
/* mautoctl folder create|list|delete (ctl_folder.c) */
int	ctl_folder(int argc, char **argv, const struct config *cfg);
/*
 * ctl_template.c: email templates, segmentations and snippets
 * (create|list|delete, and template show).
 */
int	ctl_template(int argc, char **argv, const struct config *cfg);
int	ctl_segmentation(int argc, char **argv, const struct config *cfg);
int	ctl_snippet(int argc, char **argv, const struct config *cfg);
/*
 * The demo set's segmentation (Demo-Language: English, French) and email
 * template (Demo-Email-Template in the Email Templates root, its intro
 * section dynamic by that segmentation), made once: their ids, or a
 * negative repo_err.
 */
int	ctl_demo_email(struct db *db, int32_t *segmentation,
	    int32_t *email_template);
/* mautoctl tag-type create|list|delete (ctl_tag_type.c) */
int	ctl_tag_type(int argc, char **argv, const struct config *cfg);
/* mautoctl outbox list|show|send-test (ctl_outbox.c) */
int	ctl_outbox(int argc, char **argv, const struct config *cfg);
/* mautoctl role create|list ... */
int	ctl_role(int argc, char **argv, const struct config *cfg);
/*
 * ctl_program.c: programs, static lists, forms, smart campaign members,
 * partitions, and the demo set (seed-demo).
 */
int	ctl_program(int argc, char **argv, const struct config *cfg);
int	ctl_list(int argc, char **argv, const struct config *cfg);
int	ctl_form(int argc, char **argv, const struct config *cfg);
int	ctl_campaign(int argc, char **argv, const struct config *cfg);
int	ctl_partition(int argc, char **argv, const struct config *cfg);
int	ctl_seed_demo(int argc, char **argv, const struct config *cfg);
/*
 * ctl_engine.c: the campaign engine: clock show|advance, and campaign
 * runs|trace (which ctl_campaign hands over).
 */
int	ctl_clock(int argc, char **argv, const struct config *cfg);
int	ctl_campaign_engine(int argc, char **argv, const struct config *cfg);

#endif
