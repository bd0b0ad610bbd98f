/*
 * mautoctl folder create|list|delete: the folder tree assets live in
 * (docs/assets.md), which the Folders operations change too.  A folder
 * is made under a parent (taking its kind) or, with --kind, as a new
 * root.  Output as the other subcommands: a create prints the new id, a
 * list is tab-separated with a header line, errors go to stderr with
 * exit status 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bounds.h"
#include "ctl/ctl.h"
#include "db/pool.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_folder_delete.h"
#include "repo/repo_folders.h"
#include "util/arena.h"
#include "util/num.h"

#define FOLDER_USAGE \
	"folder create --name NAME (--parent ID | --kind KIND) " \
	"[--description TEXT] | list | delete ID"

/* See ctl.h. */
int
ctl_good_text(const char *s, size_t max)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > max)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

static int
folder_create(int argc, char **argv, struct db **db,
    const struct config *cfg)
{
	const char *name = NULL, *desc = NULL, *kind = NULL;
	int64_t parent = 0;
	int32_t id;
	int k = -1, i, r;

	for (i = 2; i < argc; i++) {
		if (i + 1 >= argc)
			goto usage;
		if (strcmp(argv[i], "--name") == 0)
			name = argv[++i];
		else if (strcmp(argv[i], "--description") == 0)
			desc = argv[++i];
		else if (strcmp(argv[i], "--kind") == 0)
			kind = argv[++i];
		else if (strcmp(argv[i], "--parent") == 0) {
			if (num_parse_i64(argv[++i], 1, INT32_MAX,
			    &parent) != 0) {
				fprintf(stderr, "mautoctl: --parent takes a "
				    "folder id\n");
				return 1;
			}
		} else
			goto usage;
	}
	if (name == NULL || (parent == 0) == (kind == NULL))
		goto usage;
	if (!ctl_good_text(name, ASSET_NAME_CHARS) ||
	    (desc != NULL && !ctl_good_text(desc, ASSET_DESCRIPTION_CHARS))) {
		fprintf(stderr, "mautoctl: a name is 1 to %d and a "
		    "description 1 to %d printable bytes\n", ASSET_NAME_CHARS,
		    ASSET_DESCRIPTION_CHARS);
		return 1;
	}
	if (kind != NULL && (k = folder_kind_parse(kind)) < 0) {
		fprintf(stderr, "mautoctl: --kind is marketing, email, "
		    "emailTemplate, landingPageTemplate or smartList\n");
		return 1;
	}
	if (ctl_db_open(db, cfg) != 0)
		return 1;
	r = repo_folders_insert(*db, name, desc, k >= 0 ?
	    (enum folder_kind)k : FK_MARKETING, (int32_t)parent, &id);
	if (r == -REPO_ERR_NOT_FOUND) {
		fprintf(stderr, "mautoctl: no folder %lld\n",
		    (long long)parent);
		return 1;
	}
	if (r == -REPO_ERR_CONFLICT) {
		fprintf(stderr, "mautoctl: that parent has a folder named "
		    "'%s'\n", name);
		return 1;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot store the folder\n");
		return 1;
	}
	printf("%ld\n", (long)id);
	return fflush(stdout) == 0 ? 0 : 1;
usage:
	fprintf(stderr, "mautoctl: usage: " FOLDER_USAGE "\n");
	return 1;
}

static int
folder_list(struct db **db, const struct config *cfg)
{
	struct arena a;
	struct repo_folder *f;
	size_t n, i;
	int rc = 1;

	arena_init(&a);
	if (ctl_db_open(db, cfg) != 0)
		goto out;
	if (repo_folders_list(*db, &a, &f, &n) != 0) {
		fprintf(stderr, "mautoctl: cannot read the folders\n");
		goto out;
	}
	printf("id\tparent\tkind\tworkspace\tsystem\tname\n");
	for (i = 0; i < n; i++)
		printf("%ld\t%ld\t%s\t%s\t%s\t%s\n", (long)f[i].id,
		    (long)f[i].parent_id, folder_kind_name(f[i].kind),
		    f[i].workspace != NULL ? f[i].workspace : "",
		    f[i].is_system ? "yes" : "no",
		    f[i].name != NULL ? f[i].name : "");
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	arena_clear(&a);
	return rc;
}

static int
folder_delete(int argc, char **argv, struct db **db,
    const struct config *cfg)
{
	int64_t id;
	int r;

	if (argc != 3 || num_parse_i64(argv[2], 1, INT32_MAX, &id) != 0) {
		fprintf(stderr, "mautoctl: usage: folder delete ID\n");
		return 1;
	}
	if (ctl_db_open(db, cfg) != 0)
		return 1;
	r = repo_folder_delete(*db, (int32_t)id);
	if (r == -REPO_ERR_NOT_FOUND) {
		fprintf(stderr, "mautoctl: no folder %lld\n", (long long)id);
		return 1;
	}
	if (r == -REPO_ERR_CONFLICT) {
		fprintf(stderr, "mautoctl: folder %lld is a root or is not "
		    "empty (folders, programs or assets)\n", (long long)id);
		return 1;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot delete the folder\n");
		return 1;
	}
	return 0;
}

/* See ctl.h. */
int
ctl_folder(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	int rc = 1;

	if (argc >= 2 && strcmp(argv[1], "create") == 0)
		rc = folder_create(argc, argv, &db, cfg);
	else if (argc == 2 && strcmp(argv[1], "list") == 0)
		rc = folder_list(&db, cfg);
	else if (argc >= 2 && strcmp(argv[1], "delete") == 0)
		rc = folder_delete(argc, argv, &db, cfg);
	else
		fprintf(stderr, "mautoctl: usage: " FOLDER_USAGE "\n");
	db_close(db);
	return rc;
}
