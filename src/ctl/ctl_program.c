/*
 * mautoctl program|list|form|campaign|partition|seed-demo: the objects
 * the Leads API refers to but does not create (programs with their
 * statuses, static lists, forms, smart campaign members, partitions).
 * Output is line-based for scripts: a create prints the new id alone on
 * one line; lists are tab-separated with a header line.  Errors go to
 * stderr with exit status 1.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"
#include "db/pool.h"
#include "bounds.h"
#include "model/folder.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_folders.h"
#include "repo/repo_forms.h"
#include "repo/repo_lists.h"
#include "repo/repo_partitions.h"
#include "repo/repo_program_catalogue.h"
#include "repo/repo_programs.h"
#include "util/arena.h"
#include "util/config.h"
#include "util/num.h"
#include "util/xmalloc.h"

/* The Webinar channel's progression, the default of program create. */
static const char *const webinar_statuses[] = {
	PROGRAM_NOT_MEMBER, "Invited", "Registered", "Attended", "No Show"
};
static const bool webinar_success[] = { false, false, false, true, false };

/* The demo set of seed-demo (names without spaces: env-file safe). */
#define DEMO_PROGRAM	"Demo-Webinar"
#define DEMO_LIST	"Demo-List"
#define DEMO_FORM	"Demo-Form"
/* The demo's landing page template folder, under the templates root. */
#define DEMO_LPT_FOLDER	"Demo-Templates"
#define LPT_ROOT_FOLDER	4	/* migration 0010 */
static const char *const demo_fields[] = {
	"email", "firstName", "lastName", "company"
};

/* Arguments of the subcommands; ids and names point into argv. */
struct args {
	const char	*name;
	const char	*channel;
	const char	*type;
	const char	*description;
	const char	*status;	/* program add */
	int64_t		 program;
	int64_t		 list;
	int64_t		 campaign;
	int64_t		 lead;		/* program add */
	const char	*statuses[MAX_PROGRAM_STATUSES];
	bool		 success[MAX_PROGRAM_STATUSES];
	size_t		 nstatuses;
	int64_t		 leads[MAX_BATCH_RECORDS];
	size_t		 nleads;
	const char	*fields[MAX_FORM_FIELDS];
	size_t		 nfields;
};

/* Which options a subcommand takes. */
enum {
	O_NAME = 1 << 0,
	O_CHANNEL = 1 << 1,
	O_TYPE = 1 << 2,
	O_STATUSES = 1 << 3,	/* --status repeated, NAME[:success] */
	O_STATUS = 1 << 4,	/* --status once */
	O_PROGRAM = 1 << 5,
	O_LEAD = 1 << 6,	/* --lead once */
	O_LEADS = 1 << 7,	/* --lead ID... */
	O_LIST = 1 << 8,
	O_FIELDS = 1 << 9,
	O_CAMPAIGN = 1 << 10,
	O_DESCRIPTION = 1 << 11
};

/* Whether s is 1..max bytes without control characters. */
static bool
is_good_text(const char *s, size_t max)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > max)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

/* Parses an id option value (1..INT32_MAX). */
static int
parse_id(const char *opt, const char *v, int64_t *out)
{
	if (num_parse_i64(v, 1, INT32_MAX, out) != 0) {
		fprintf(stderr, "mautoctl: %s: '%s' is not an id (a number "
		    "from 1)\n", opt, v);
		return -1;
	}
	return 0;
}

/* Parses "NAME[:success]" into the next status of a. */
static int
add_status(struct args *a, const char *v)
{
	static const char suffix[] = ":success";
	char *name;
	size_t n = strlen(v), i;
	bool success = false;

	if (a->nstatuses == MAX_PROGRAM_STATUSES) {
		fprintf(stderr, "mautoctl: at most %d statuses\n",
		    MAX_PROGRAM_STATUSES);
		return -1;
	}
	if (n > sizeof(suffix) - 1 &&
	    strcmp(v + n - (sizeof(suffix) - 1), suffix) == 0) {
		success = true;
		n -= sizeof(suffix) - 1;
	}
	/* argv strings are writable: cut the suffix off in place. */
	name = (char *)(uintptr_t)v;
	name[n] = '\0';
	if (!is_good_text(name, MAX_OBJECT_NAME_BYTES)) {
		fprintf(stderr, "mautoctl: a status name is 1 to %d printable "
		    "bytes\n", MAX_OBJECT_NAME_BYTES);
		return -1;
	}
	for (i = 0; i < a->nstatuses; i++)
		if (strcmp(a->statuses[i], name) == 0) {
			fprintf(stderr, "mautoctl: status '%s' given twice\n",
			    name);
			return -1;
		}
	a->statuses[a->nstatuses] = name;
	a->success[a->nstatuses++] = success;
	return 0;
}

/*
 * Parses argv[from..] as the options allowed (a mask of O_*), "--opt
 * VALUE" or "--opt=VALUE"; --lead and --field also take the words that
 * follow up to the next option.  Returns 0 or -1 after a message.
 */
static int
parse_args(int argc, char **argv, int from, unsigned allowed,
    struct args *a)
{
	static const struct {
		const char	*name;
		unsigned	 bit;
	} opts[] = {
		{ "--name", O_NAME }, { "--channel", O_CHANNEL },
		{ "--type", O_TYPE }, { "--status", O_STATUSES | O_STATUS },
		{ "--program", O_PROGRAM }, { "--lead", O_LEAD | O_LEADS },
		{ "--list", O_LIST }, { "--field", O_FIELDS },
		{ "--campaign", O_CAMPAIGN },
		{ "--description", O_DESCRIPTION },
	};
	const char *arg, *v, *eq;
	size_t k, n;
	unsigned bit;
	int i = from;

	memset(a, 0, sizeof(*a));
	while (i < argc) {
		arg = argv[i];
		eq = strchr(arg, '=');
		n = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
		for (k = 0; k < sizeof(opts) / sizeof(opts[0]); k++)
			if (strlen(opts[k].name) == n &&
			    strncmp(arg, opts[k].name, n) == 0)
				break;
		if (k == sizeof(opts) / sizeof(opts[0]) ||
		    (opts[k].bit & allowed) == 0) {
			fprintf(stderr, "mautoctl: unexpected '%s'\n", arg);
			return -1;
		}
		bit = opts[k].bit & allowed;
		if (eq != NULL)
			v = eq + 1;
		else if (i + 1 < argc)
			v = argv[++i];
		else {
			fprintf(stderr, "mautoctl: %s needs a value\n",
			    opts[k].name);
			return -1;
		}
		i++;
		for (;;) {
			switch (bit) {
			case O_NAME:
				a->name = v;
				break;
			case O_CHANNEL:
				a->channel = v;
				break;
			case O_TYPE:
				a->type = v;
				break;
			case O_DESCRIPTION:
				a->description = v;
				break;
			case O_STATUS:
				a->status = v;
				break;
			case O_STATUSES:
				if (add_status(a, v) != 0)
					return -1;
				break;
			case O_PROGRAM:
				if (parse_id("--program", v, &a->program) != 0)
					return -1;
				break;
			case O_LIST:
				if (parse_id("--list", v, &a->list) != 0)
					return -1;
				break;
			case O_CAMPAIGN:
				if (parse_id("--campaign", v,
				    &a->campaign) != 0)
					return -1;
				break;
			case O_LEAD:
				if (parse_id("--lead", v, &a->lead) != 0)
					return -1;
				break;
			case O_LEADS:
				if (a->nleads == MAX_BATCH_RECORDS) {
					fprintf(stderr, "mautoctl: at most %d "
					    "leads at once\n",
					    MAX_BATCH_RECORDS);
					return -1;
				}
				if (parse_id("--lead", v,
				    &a->leads[a->nleads++]) != 0)
					return -1;
				break;
			case O_FIELDS:
				if (a->nfields == MAX_FORM_FIELDS) {
					fprintf(stderr, "mautoctl: at most %d "
					    "fields\n", MAX_FORM_FIELDS);
					return -1;
				}
				if (!is_good_text(v, LF_NAME_BYTES)) {
					fprintf(stderr, "mautoctl: '%s' is not "
					    "a field name\n", v);
					return -1;
				}
				a->fields[a->nfields++] = v;
				break;
			default:
				fprintf(stderr, "mautoctl: unexpected '%s'\n",
				    arg);
				return -1;
			}
			/* --lead 1 2 3, --field a b c */
			if ((bit != O_LEADS && bit != O_FIELDS) || i >= argc ||
			    argv[i][0] == '-')
				break;
			v = argv[i++];
		}
	}
	return 0;
}

/* Checks a name option: present and 1..MAX_OBJECT_NAME_BYTES bytes. */
static int
need_name(const char *what, const char *name)
{
	if (name == NULL) {
		fprintf(stderr, "mautoctl: %s needs --name NAME\n", what);
		return -1;
	}
	if (!is_good_text(name, MAX_OBJECT_NAME_BYTES)) {
		fprintf(stderr, "mautoctl: a name is 1 to %d printable "
		    "bytes\n", MAX_OBJECT_NAME_BYTES);
		return -1;
	}
	return 0;
}

static int
open_db(struct db **db, const struct config *cfg)
{
	if (db_open(db, cfg, &repo_schema, DB_PREPARE_ALL) != 0) {
		fprintf(stderr, "mautoctl: cannot use the database "
		    "(see the message above; has `mautoctl migrate` run?)\n");
		return -1;
	}
	return 0;
}

/* Prints why a write found something missing. */
static void
print_missing(const struct repo_missing *m, const struct args *a)
{
	switch (m->what) {
	case REPO_WHAT_LEAD:
		fprintf(stderr, "mautoctl: no lead %lld\n", (long long)m->id);
		break;
	case REPO_WHAT_PROGRAM:
		fprintf(stderr, "mautoctl: no program %lld\n",
		    (long long)m->id);
		break;
	case REPO_WHAT_STATUS:
		fprintf(stderr, "mautoctl: program %lld has no status '%s' "
		    "(see `mautoctl program list`)\n", (long long)m->id,
		    a->status != NULL ? a->status : "");
		break;
	case REPO_WHAT_LIST:
		fprintf(stderr, "mautoctl: no static list %lld\n",
		    (long long)m->id);
		break;
	case REPO_WHAT_FIELD:
		fprintf(stderr, "mautoctl: no lead field '%s'\n",
		    m->index < a->nfields ? a->fields[m->index] : "");
		break;
	default:
		fprintf(stderr, "mautoctl: not found\n");
		break;
	}
}

/*
 * Adds a->leads to the list or smart campaign id with add (a repository
 * member_add function) and prints how many; what names the target.
 * Returns 0, or -1 after a message on stderr.
 */
static int
members_add(struct db *db, const struct args *a,
    int (*add)(struct db *, int32_t, const int64_t *, size_t,
    struct repo_missing *), int64_t id, const char *what)
{
	struct repo_missing miss;
	int r;

	r = add(db, (int32_t)id, a->leads, a->nleads, &miss);
	if (r == -REPO_ERR_NOT_FOUND) {
		print_missing(&miss, a);
		return -1;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot store the members\n");
		return -1;
	}
	printf("%zu lead(s) in %s %lld\n", a->nleads, what, (long long)id);
	return 0;
}

/*
 * Creates a program from a; *id its id, or an error after a message.
 * Without --status the program has its channel's statuses when the
 * channel is one of the catalogue (migration 0029), else Webinar's.
 */
static int
program_make(struct db *db, const struct args *a, int32_t *id)
{
	struct repo_program_new p;
	struct repo_channel *ch = NULL;
	const char *names[MAX_PROGRAM_STATUSES];
	bool success[MAX_PROGRAM_STATUSES];
	struct arena ar;
	size_t n = 0, i;
	int r;

	memset(&p, 0, sizeof(p));
	arena_init(&ar);
	p.name = a->name;
	p.type = a->type != NULL ? a->type : "program";
	p.channel = a->channel != NULL ? a->channel : "Webinar";
	if (a->nstatuses == 0 && (r = repo_program_catalogue_channels(db,
	    &ar, p.channel, 1, 0, &ch, &n)) != 0) {
		fprintf(stderr, "mautoctl: cannot read the channels\n");
		goto out;
	}
	if (a->nstatuses > 0) {
		p.statuses = a->statuses;
		p.success = a->success;
		p.nstatuses = a->nstatuses;
	} else if (n > 0 && ch[0].nstatuses > 0 &&
	    ch[0].nstatuses <= MAX_PROGRAM_STATUSES) {
		for (i = 0; i < ch[0].nstatuses; i++) {
			names[i] = ch[0].statuses[i].name;
			success[i] = ch[0].statuses[i].success;
		}
		p.statuses = names;
		p.success = success;
		p.nstatuses = ch[0].nstatuses;
	} else {
		p.statuses = webinar_statuses;
		p.success = webinar_success;
		p.nstatuses = sizeof(webinar_statuses) /
		    sizeof(webinar_statuses[0]);
	}
	r = repo_programs_insert(db, &p, id);
	if (r == -REPO_ERR_CONFLICT)
		fprintf(stderr, "mautoctl: a program named '%s' exists\n",
		    a->name);
	else if (r != 0)
		fprintf(stderr, "mautoctl: cannot store the program\n");
out:
	arena_clear(&ar);
	return r;
}

static int
program_create(int argc, char **argv, const struct config *cfg)
{
	struct args *a;
	struct db *db = NULL;
	int32_t id;
	int rc = 1;

	a = xcalloc(1, sizeof(*a));
	if (parse_args(argc, argv, 2, O_NAME | O_CHANNEL |
	    O_TYPE | O_STATUSES, a) != 0 ||
	    need_name("program create", a->name) != 0)
		goto out;
	if (a->type != NULL && strcmp(a->type, "program") != 0 &&
	    strcmp(a->type, "engagement") != 0) {
		fprintf(stderr, "mautoctl: --type is program or engagement\n");
		goto out;
	}
	if (a->channel != NULL &&
	    !is_good_text(a->channel, MAX_OBJECT_NAME_BYTES)) {
		fprintf(stderr, "mautoctl: a channel is 1 to %d printable "
		    "bytes\n", MAX_OBJECT_NAME_BYTES);
		goto out;
	}
	if (open_db(&db, cfg) != 0 || program_make(db, a, &id) != 0)
		goto out;
	printf("%ld\n", (long)id);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	free(a);
	return rc;
}

static int
program_list(int argc, char **argv, const struct config *cfg)
{
	struct repo_program_list l = { NULL, 0 };
	const struct repo_program *p;
	struct db *db = NULL;
	size_t i, k;
	int rc = 1;

	(void)argv;
	if (argc != 2) {
		fprintf(stderr, "mautoctl: program list takes no arguments\n");
		goto out;
	}
	if (open_db(&db, cfg) != 0)
		goto out;
	if (repo_programs_list(db, &l) != 0) {
		fprintf(stderr, "mautoctl: cannot read the programs\n");
		goto out;
	}
	printf("id\tname\ttype\tchannel\tstatuses\n");
	for (i = 0; i < l.count; i++) {
		p = &l.items[i];
		printf("%ld\t%s\t%s\t%s\t", (long)p->id, p->name, p->type,
		    p->channel);
		for (k = 0; k < p->nstatuses; k++)
			printf("%s%s%s", k > 0 ? ", " : "",
			    p->statuses[k].name,
			    p->statuses[k].success ? ":success" : "");
		printf("\n");
	}
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	repo_programs_list_free(&l);
	db_close(db);
	return rc;
}

static int
program_add(int argc, char **argv, const struct config *cfg)
{
	struct repo_missing miss;
	struct args *a;
	struct db *db = NULL;
	int r, rc = 1;

	a = xcalloc(1, sizeof(*a));
	if (parse_args(argc, argv, 2, O_PROGRAM | O_LEAD |
	    O_STATUS, a) != 0)
		goto out;
	if (a->program == 0 || a->lead == 0) {
		fprintf(stderr, "mautoctl: program add needs --program ID "
		    "and --lead ID\n");
		goto out;
	}
	if (open_db(&db, cfg) != 0)
		goto out;
	r = repo_programs_member_add(db, (int32_t)a->program, a->lead,
	    a->status, &miss);
	if (r == -REPO_ERR_NOT_FOUND) {
		print_missing(&miss, a);
		goto out;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot store the membership\n");
		goto out;
	}
	printf("lead %lld is a member of program %lld\n",
	    (long long)a->lead, (long long)a->program);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	free(a);
	return rc;
}

/*
 * mautoctl program create --name N [--channel C] [--type program|
 * engagement] [--status NAME[:success]]... | list | add --program ID
 * --lead ID [--status NAME].  argv[0] is "program".  Returns the exit
 * status: 0, or 1 after a message on stderr.
 */
int
ctl_program(int argc, char **argv, const struct config *cfg)
{
	if (argc >= 2 && strcmp(argv[1], "create") == 0)
		return program_create(argc, argv, cfg);
	if (argc >= 2 && strcmp(argv[1], "list") == 0)
		return program_list(argc, argv, cfg);
	if (argc >= 2 && strcmp(argv[1], "add") == 0)
		return program_add(argc, argv, cfg);
	fprintf(stderr, "mautoctl: usage: program create --name NAME "
	    "[--channel C] [--type program|engagement] "
	    "[--status NAME[:success]]... | program list | "
	    "program add --program ID --lead ID [--status NAME]\n");
	return 1;
}

/*
 * mautoctl list create --name N [--program ID] | add --list ID --lead
 * ID...  argv[0] is "list".  Returns the exit status: 0, or 1 after a message on stderr.
 */
int
ctl_list(int argc, char **argv, const struct config *cfg)
{
	struct args *a = NULL;
	struct db *db = NULL;
	struct list_new t;
	int32_t id;
	int r, rc = 1;

	if (argc < 2 || (strcmp(argv[1], "create") != 0 &&
	    strcmp(argv[1], "add") != 0)) {
		fprintf(stderr, "mautoctl: usage: list create --name NAME "
		    "[--program ID] | list add --list ID --lead ID...\n");
		goto out;
	}
	a = xcalloc(1, sizeof(*a));
	if (strcmp(argv[1], "create") == 0) {
		if (parse_args(argc, argv, 2, O_NAME | O_PROGRAM, a) != 0 ||
		    need_name("list create", a->name) != 0 ||
		    open_db(&db, cfg) != 0)
			goto out;
		/* In the program, or the Lead Database root. */
		memset(&t, 0, sizeof(t));
		t.name = a->name;
		t.has_place = a->program != 0;
		t.place.type = FOLDER_T_PROGRAM;
		t.place.id = a->program;
		r = repo_lists_create(db, &t, &id);
		if (r == -REPO_ERR_NOT_FOUND) {
			fprintf(stderr, "mautoctl: no program %ld\n",
			    (long)a->program);
			goto out;
		}
		if (r == -REPO_ERR_CONFLICT) {
			fprintf(stderr, "mautoctl: a static list named '%s' "
			    "exists\n", a->name);
			goto out;
		}
		if (r != 0) {
			fprintf(stderr, "mautoctl: cannot store the list\n");
			goto out;
		}
		printf("%ld\n", (long)id);
	} else {
		if (parse_args(argc, argv, 2, O_LIST | O_LEADS, a) != 0)
			goto out;
		if (a->list == 0 || a->nleads == 0) {
			fprintf(stderr, "mautoctl: list add needs --list ID "
			    "and --lead ID...\n");
			goto out;
		}
		if (open_db(&db, cfg) != 0 || members_add(db, a,
		    repo_lists_member_add, a->list, "list") != 0)
			goto out;
	}
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	free(a);
	return rc;
}

/*
 * mautoctl form create --name N --field F... [--program ID].  argv[0] is
 * "form".  Returns the exit status: 0, or 1 after a message on stderr.
 */
int
ctl_form(int argc, char **argv, const struct config *cfg)
{
	struct repo_missing miss;
	struct args *a = NULL;
	struct db *db = NULL;
	int32_t id;
	int r, rc = 1;

	if (argc < 2 || strcmp(argv[1], "create") != 0) {
		fprintf(stderr, "mautoctl: usage: form create --name NAME "
		    "--field FIELD... [--program ID]\n");
		goto out;
	}
	a = xcalloc(1, sizeof(*a));
	if (parse_args(argc, argv, 2, O_NAME | O_FIELDS | O_PROGRAM, a) != 0 ||
	    need_name("form create", a->name) != 0)
		goto out;
	if (a->nfields == 0) {
		fprintf(stderr, "mautoctl: form create needs --field "
		    "FIELD...\n");
		goto out;
	}
	if (open_db(&db, cfg) != 0)
		goto out;
	r = repo_forms_insert(db, a->name, (int32_t)a->program,
	    a->fields, a->nfields, &id, &miss);
	if (r == -REPO_ERR_CONFLICT) {
		fprintf(stderr, "mautoctl: a form named '%s' exists\n",
		    a->name);
		goto out;
	}
	if (r == -REPO_ERR_NOT_FOUND) {
		print_missing(&miss, a);
		goto out;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot store the form\n");
		goto out;
	}
	printf("%ld\n", (long)id);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	free(a);
	return rc;
}

/*
 * mautoctl campaign add --campaign ID --lead ID...  argv[0] is
 * "campaign".  Returns the exit status: 0, or 1 after a message.
 */
int
ctl_campaign(int argc, char **argv, const struct config *cfg)
{
	struct args *a = NULL;
	struct db *db = NULL;
	int rc = 1;

	if (argc >= 2 && (strcmp(argv[1], "runs") == 0 ||
	    strcmp(argv[1], "trace") == 0))
		return ctl_campaign_engine(argc, argv, cfg);
	if (argc < 2 || strcmp(argv[1], "add") != 0) {
		fprintf(stderr, "mautoctl: usage: campaign add --campaign ID "
		    "--lead ID... | runs CAMPAIGN | trace CAMPAIGN LEAD\n");
		goto out;
	}
	a = xcalloc(1, sizeof(*a));
	if (parse_args(argc, argv, 2, O_CAMPAIGN | O_LEADS, a) != 0)
		goto out;
	if (a->campaign == 0 || a->nleads == 0) {
		fprintf(stderr, "mautoctl: campaign add needs --campaign ID "
		    "and --lead ID...\n");
		goto out;
	}
	if (open_db(&db, cfg) != 0 || members_add(db, a,
	    repo_programs_campaign_member_add, a->campaign,
	    "smart campaign") != 0)
		goto out;
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	free(a);
	return rc;
}

/*
 * mautoctl partition create --name N [--description D].  argv[0] is
 * "partition".  Returns the exit status: 0, or 1 after a message.
 */
int
ctl_partition(int argc, char **argv, const struct config *cfg)
{
	struct args *a = NULL;
	struct db *db = NULL;
	int32_t id;
	int r, rc = 1;

	if (argc < 2 || strcmp(argv[1], "create") != 0) {
		fprintf(stderr, "mautoctl: usage: partition create --name "
		    "NAME [--description TEXT]\n");
		goto out;
	}
	a = xcalloc(1, sizeof(*a));
	if (parse_args(argc, argv, 2, O_NAME | O_DESCRIPTION, a) != 0 ||
	    need_name("partition create", a->name) != 0)
		goto out;
	if (a->description != NULL && !is_good_text(a->description, 2000)) {
		fprintf(stderr, "mautoctl: a description is 1 to 2000 "
		    "printable bytes\n");
		goto out;
	}
	if (open_db(&db, cfg) != 0)
		goto out;
	r = repo_partitions_insert(db, a->name, a->description, &id);
	if (r == -REPO_ERR_CONFLICT) {
		fprintf(stderr, "mautoctl: a partition named '%s' exists\n",
		    a->name);
		goto out;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot store the partition\n");
		goto out;
	}
	printf("%ld\n", (long)id);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	free(a);
	return rc;
}

/* Looks up or creates one demo object; *id, or -1 after a message. */
static int
demo_program(struct db *db, int32_t *id)
{
	struct args *a;
	int r;

	if ((r = repo_programs_get_id_by_name(db, DEMO_PROGRAM, id)) !=
	    -REPO_ERR_NOT_FOUND)
		return r;
	a = xcalloc(1, sizeof(*a));
	a->name = DEMO_PROGRAM;
	r = program_make(db, a, id);
	free(a);
	/* Another seed-demo created it first. */
	if (r == -REPO_ERR_CONFLICT)
		r = repo_programs_get_id_by_name(db, DEMO_PROGRAM, id);
	return r;
}

static int
demo_list(struct db *db, int32_t *id)
{
	int r;

	if ((r = repo_lists_get_id_by_name(db, DEMO_LIST,
	    id)) != -REPO_ERR_NOT_FOUND)
		return r;
	r = repo_lists_insert(db, DEMO_LIST, id);
	if (r == -REPO_ERR_CONFLICT)
		r = repo_lists_get_id_by_name(db, DEMO_LIST, id);
	return r;
}

static int
demo_form(struct db *db, int32_t program, int32_t *id)
{
	struct repo_missing miss;
	int r;

	if ((r = repo_forms_get_id_by_name(db, DEMO_FORM, id)) !=
	    -REPO_ERR_NOT_FOUND)
		return r;
	r = repo_forms_insert(db, DEMO_FORM, program, demo_fields,
	    sizeof(demo_fields) / sizeof(demo_fields[0]), id, &miss);
	if (r == -REPO_ERR_CONFLICT)
		r = repo_forms_get_id_by_name(db, DEMO_FORM, id);
	return r;
}

static int
demo_lpt_folder(struct db *db, int32_t *id)
{
	int r;

	if ((r = repo_folders_child_id(db, LPT_ROOT_FOLDER, DEMO_LPT_FOLDER,
	    id)) != -REPO_ERR_NOT_FOUND)
		return r;
	r = repo_folders_insert(db, DEMO_LPT_FOLDER, NULL,
	    FK_LP_TEMPLATE, LPT_ROOT_FOLDER, id);
	if (r == -REPO_ERR_CONFLICT)
		r = repo_folders_child_id(db, LPT_ROOT_FOLDER,
		    DEMO_LPT_FOLDER, id);
	return r;
}

/*
 * mautoctl seed-demo: makes the demo set once (a program with the
 * Webinar statuses, a static list, a form with email, firstName,
 * lastName and company in that program, a landing page template folder,
 * a segmentation and an email template: ctl_demo_email) and prints
 * MAUTO_DEMO_* lines (the demo program is also the place where
 * emails, smart lists and smart campaigns may be made: FOLDER_ID/TYPE);
 * running it again prints the same ids.  argv[0] is "seed-demo".
 * Returns the exit status: 0, or 1 after a message on stderr.
 */
int
ctl_seed_demo(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	int32_t program, list, form, lpt_folder, seg, etpl;
	int rc = 1;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "mautoctl: seed-demo takes no arguments\n");
		goto out;
	}
	if (open_db(&db, cfg) != 0)
		goto out;
	if (demo_program(db, &program) != 0 || demo_list(db, &list) != 0 ||
	    demo_form(db, program, &form) != 0 ||
	    demo_lpt_folder(db, &lpt_folder) != 0 ||
	    ctl_demo_email(db, &seg, &etpl) != 0) {
		fprintf(stderr, "mautoctl: cannot store the demo set\n");
		goto out;
	}
	printf("MAUTO_DEMO_PROGRAM_NAME=%s\nMAUTO_DEMO_PROGRAM_ID=%ld\n"
	    "MAUTO_DEMO_LIST_ID=%ld\nMAUTO_DEMO_FORM_ID=%ld\n"
	    "MAUTO_DEMO_FOLDER_ID=%ld\nMAUTO_DEMO_FOLDER_TYPE=Program\n"
	    "MAUTO_DEMO_LPT_FOLDER_ID=%ld\nMAUTO_DEMO_WORKSPACE_ID=1\n"
	    "MAUTO_DEMO_EMAIL_TEMPLATE_ID=%ld\n"
	    "MAUTO_DEMO_SEGMENTATION_ID=%ld\n",
	    DEMO_PROGRAM, (long)program, (long)list, (long)form,
	    (long)program, (long)lpt_folder, (long)etpl, (long)seg);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	return rc;
}
