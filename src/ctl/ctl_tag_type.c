/*
 * mautoctl tag-type create|list|delete: the program tag types Get Tag
 * Types lists and Create Program and the tag operations check (an
 * administrator's setting; no operation of the API makes one, see
 * docs/behaviour.md §22).  A tag type has a name, the program types it
 * applies to (the words of applicableProgramTypes; all five when none is
 * given), whether programs must carry it, and its allowed values in
 * order (none: any value).  Output as the other subcommands: a create
 * prints the new id, a list is tab-separated with a header line, errors
 * go to stderr with exit status 1.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "ctl/ctl.h"
#include "db/pool.h"
#include "model/progmeta.h"
#include "repo/repo.h"
#include "repo/repo_program_catalogue.h"
#include "util/arena.h"
#include "util/num.h"
#include "util/xmalloc.h"

#define TAG_TYPE_USAGE \
	"tag-type create --name NAME [--program-type TYPE]... " \
	"[--value VALUE]... [--required] | list | delete ID"

/* The program types' words, in the order a new instance lists them. */
static const char *const program_types[] = {
	"program", "email_batch", "nurture", "event", "webinar"
};
#define NTYPES	(sizeof(program_types) / sizeof(program_types[0]))

/* "[a,b]" of the words of types whose flag is set, into buf. */
static void
types_text(const bool *on, char *buf, size_t size)
{
	size_t i, k = 0;
	int n;

	buf[k++] = '[';
	for (i = 0; i < NTYPES; i++) {
		if (!on[i])
			continue;
		n = snprintf(buf + k, size - k, "%s%s", k > 1 ? "," : "",
		    program_types[i]);
		k += (size_t)n;
	}
	(void)snprintf(buf + k, size - k, "]");
}

/* Sets the flag of word w in on; -1 after a message when it is none. */
static int
add_type(bool *on, const char *w)
{
	size_t i;

	for (i = 0; i < NTYPES; i++)
		if (strcmp(w, program_types[i]) == 0) {
			on[i] = true;
			return 0;
		}
	fprintf(stderr, "mautoctl: --program-type is program, email_batch, "
	    "nurture, event or webinar\n");
	return -1;
}

/* Adds value v to t (its array holds argc); -1 after a message. */
static int
add_value(struct repo_tag_type *t, const char *v)
{
	size_t i;

	if (!ctl_good_text(v, PROGMETA_TEXT_BYTES)) {
		fprintf(stderr, "mautoctl: a value is 1 to %d printable "
		    "bytes\n", PROGMETA_TEXT_BYTES);
		return -1;
	}
	for (i = 0; i < t->nvalues; i++)
		if (strcmp(t->values[i], v) == 0) {
			fprintf(stderr, "mautoctl: value '%s' given twice\n",
			    v);
			return -1;
		}
	t->values[t->nvalues++] = v;
	return 0;
}

static int
tag_type_create(int argc, char **argv, struct db **db,
    const struct config *cfg)
{
	struct repo_tag_type t;
	bool on[NTYPES] = { false };
	char types[128];
	const char *v;
	size_t i, n;
	int32_t id;
	int k, r, rc = 1;

	memset(&t, 0, sizeof(t));
	t.values = xcalloc((size_t)argc, sizeof(*t.values));
	for (k = 2; k < argc; k++) {
		if (strcmp(argv[k], "--required") == 0) {
			t.required = true;
			continue;
		}
		/* "--opt value" or "--opt=value", as the other commands. */
		if ((v = strchr(argv[k], '=')) != NULL)
			n = (size_t)(v++ - argv[k]);
		else if (k + 1 < argc) {
			n = strlen(argv[k]);
			v = argv[k + 1];
		} else
			goto usage;
		if (n == 6 && strncmp(argv[k], "--name", n) == 0)
			t.name = v;
		else if (n == 14 &&
		    strncmp(argv[k], "--program-type", n) == 0) {
			if (add_type(on, v) != 0)
				goto out;
		} else if (n == 7 && strncmp(argv[k], "--value", n) == 0) {
			if (add_value(&t, v) != 0)
				goto out;
		} else
			goto usage;
		if (strchr(argv[k], '=') == NULL)
			k++;
	}
	if (t.name == NULL)
		goto usage;
	if (!ctl_good_text(t.name, ASSET_NAME_CHARS)) {
		fprintf(stderr, "mautoctl: a name is 1 to %d printable "
		    "bytes\n", ASSET_NAME_CHARS);
		goto out;
	}
	for (i = 0; i < NTYPES && !on[i]; i++)
		;
	if (i == NTYPES)
		memset(on, 1, sizeof(on));
	types_text(on, types, sizeof(types));
	t.program_types = types;
	if (ctl_db_open(db, cfg) != 0)
		goto out;
	r = repo_program_catalogue_tag_type_insert(*db, &t, &id);
	if (r == -REPO_ERR_CONFLICT)
		fprintf(stderr, "mautoctl: a tag type named '%s' exists\n",
		    t.name);
	else if (r != 0)
		fprintf(stderr, "mautoctl: cannot store the tag type\n");
	else {
		printf("%ld\n", (long)id);
		rc = fflush(stdout) == 0 ? 0 : 1;
	}
	goto out;
usage:
	fprintf(stderr, "mautoctl: usage: " TAG_TYPE_USAGE "\n");
out:
	free(t.values);
	return rc;
}

static int
tag_type_list(struct db **db, const struct config *cfg)
{
	struct repo_tag_type *t, *one;
	struct arena a;
	size_t n, m, i, k;
	int rc = 1;

	arena_init(&a);
	if (ctl_db_open(db, cfg) != 0)
		goto out;
	if (repo_program_catalogue_tag_types(*db, &a, NULL, INT32_MAX, 0, &t,
	    &n) != 0) {
		fprintf(stderr, "mautoctl: cannot read the tag types\n");
		goto out;
	}
	printf("id\tname\trequired\tprogram types\tvalues\n");
	for (i = 0; i < n; i++) {
		/* By name, a tag type comes with its values. */
		if (repo_program_catalogue_tag_types(*db, &a, t[i].name, 1, 0,
		    &one, &m) != 0) {
			fprintf(stderr, "mautoctl: cannot read the tag "
			    "types\n");
			goto out;
		}
		printf("%ld\t%s\t%s\t%s\t", (long)t[i].id, t[i].name,
		    t[i].required ? "yes" : "no", t[i].program_types);
		for (k = 0; m == 1 && k < one->nvalues; k++)
			printf("%s%s", k > 0 ? ", " : "", one->values[k]);
		printf("\n");
	}
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	arena_clear(&a);
	return rc;
}

static int
tag_type_delete(int argc, char **argv, struct db **db,
    const struct config *cfg)
{
	int64_t id;
	int r;

	if (argc != 3 || num_parse_i64(argv[2], 1, INT32_MAX, &id) != 0) {
		fprintf(stderr, "mautoctl: usage: tag-type delete ID\n");
		return 1;
	}
	if (ctl_db_open(db, cfg) != 0)
		return 1;
	r = repo_program_catalogue_tag_type_delete(*db, (int32_t)id);
	if (r == -REPO_ERR_NOT_FOUND)
		fprintf(stderr, "mautoctl: no tag type %lld\n", (long long)id);
	else if (r == -REPO_ERR_CONFLICT)
		fprintf(stderr, "mautoctl: programs carry tag type %lld: "
		    "delete their values first (Delete Program Tag)\n",
		    (long long)id);
	else if (r != 0)
		fprintf(stderr, "mautoctl: cannot delete the tag type\n");
	return r == 0 ? 0 : 1;
}

/* See ctl.h. */
int
ctl_tag_type(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	int rc = 1;

	if (argc >= 2 && strcmp(argv[1], "create") == 0)
		rc = tag_type_create(argc, argv, &db, cfg);
	else if (argc == 2 && strcmp(argv[1], "list") == 0)
		rc = tag_type_list(&db, cfg);
	else if (argc >= 2 && strcmp(argv[1], "delete") == 0)
		rc = tag_type_delete(argc, argv, &db, cfg);
	else
		fprintf(stderr, "mautoctl: usage: " TAG_TYPE_USAGE "\n");
	db_close(db);
	return rc;
}
