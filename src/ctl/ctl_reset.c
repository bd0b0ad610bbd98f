/*
 * mautoctl reset [--yes]: empties the instance of its data and keeps its
 * API clients, roles and schema (what goes and what stays:
 * src/repo/repo_reset.h).  Meant for development and CI, where a stack
 * is set up once and emptied between runs; clients keep their ids and
 * secrets, so credentials stored by CI stay valid.
 *
 * It asks first.  --yes answers for the user; without it the question
 * goes to a terminal on stdin, and with no terminal there the command
 * refuses, so a script that forgot --yes stops instead of deleting.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ctl/ctl.h"
#include "db/pool.h"
#include "model/export.h"
#include "repo/repo_reset.h"
#include "util/config.h"

/* Where the database is, for the question. */
static const char *
db_where(const struct config *cfg)
{
	if (cfg->db_socket != NULL && cfg->db_socket[0] != '\0')
		return cfg->db_socket;
	return cfg->db_host != NULL ? cfg->db_host : "localhost";
}

/* Asks on the terminal; true when the answer is "yes". */
static bool
confirmed(const struct config *cfg)
{
	char line[16];
	size_t n;

	fprintf(stderr, "mautoctl: reset deletes every lead, activity, "
	    "membership, program, static list, form, partition, custom "
	    "object record, bulk export and outbox message of database "
	    "'%s' (%s); API "
	    "clients, roles and the schema stay.\nType yes to go on: ",
	    cfg->db_name != NULL ? cfg->db_name : "", db_where(cfg));
	fflush(stderr);
	if (fgets(line, sizeof(line), stdin) == NULL)
		return false;
	n = strcspn(line, "\r\n");
	line[n] = '\0';
	return strcmp(line, "yes") == 0;
}

/* Removes the files of the deleted export jobs; returns how many. */
static size_t
remove_files(const struct config *cfg, const struct repo_reset_result *res)
{
	char path[PATH_MAX];
	size_t i, n = 0;

	for (i = 0; i < res->nfiles; i++) {
		if (export_file_path(path, sizeof(path), cfg->export_dir,
		    res->files[i].export_id, res->files[i].attempts,
		    res->files[i].format) != 0)
			continue;
		if (unlink(path) == 0)
			n++;
		else if (errno != ENOENT)
			fprintf(stderr, "mautoctl: cannot remove %s: %s\n",
			    path, strerror(errno));
	}
	return n;
}

/*
 * mautoctl reset [--yes].  argv[0] is "reset"; cfg gives the database
 * and export_dir.  Prints the rows deleted per table.  Returns the exit
 * status: 0, or 1 after a message on stderr (refused, or the database
 * failed: then nothing was deleted).
 */
int
ctl_reset(int argc, char **argv, const struct config *cfg)
{
	struct repo_reset_result res;
	struct db *db = NULL;
	bool yes = false;
	size_t files;
	int i, rc = 1;

	memset(&res, 0, sizeof(res));
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--yes") == 0)
			yes = true;
		else {
			fprintf(stderr, "mautoctl: usage: reset [--yes]\n");
			goto out;
		}
	}
	if (!yes && !isatty(STDIN_FILENO)) {
		fprintf(stderr, "mautoctl: reset deletes all data; without a "
		    "terminal to ask on, give --yes\n");
		goto out;
	}
	if (!yes && !confirmed(cfg)) {
		fprintf(stderr, "mautoctl: reset cancelled, nothing deleted\n");
		goto out;
	}
	if (ctl_db_open(&db, cfg) != 0)
		goto out;
	if (repo_reset_delete_all(db, &res) != 0) {
		fprintf(stderr, "mautoctl: the reset failed; nothing was "
		    "deleted\n");
		goto out;
	}
	files = remove_files(cfg, &res);
	printf("table\tdeleted\n");
	for (i = 0; i < RESET__MAX; i++)
		printf("%s\t%llu\n", repo_reset_table_name((enum
		    repo_reset_table)i), (unsigned long long)res.rows[i]);
	printf("custom object records (%zu tables)\t%llu\n", res.co_tables,
	    (unsigned long long)res.co_rows);
	printf("export files\t%zu\n", files);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	repo_reset_result_free(&res);
	db_close(db);
	return rc;
}
