/*
 * The program clone (repo_program_clone.h).  Each kind of asset a program
 * holds is a row of one table: how its store lists them, how it copies
 * one, whether the copy is renamed (the kinds whose names are unique in
 * the instance) and which references to it the copies' rules and flows
 * carry.  The copies are made in the order the references need: static
 * lists, forms and emails first, then the smart lists and campaigns that
 * name them; once all are made, every reference to a source asset is
 * pointed at its copy, by id and, for a renamed kind (which rules name by
 * name), by name, and every reference to the source program itself at
 * the new one.  Only the new program's assets are changed, so the source
 * keeps its own.  A new id is greater than every id of its table, so it
 * never equals a source id still to be replaced.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "db/pool.h"
#include "model/folder.h"
#include "model/progmeta.h"
#include "repo/repo.h"
#include "repo/repo_emails.h"
#include "repo/repo_forms.h"
#include "repo/repo_lists.h"
#include "repo/repo_program_assets.h"
#include "repo/repo_program_clone.h"
#include "repo/repo_sc_program.h"
#include "repo/repo_smart_campaigns.h"
#include "repo/repo_smart_lists.h"
#include "util/arena.h"

/* What a copy is made from: the source, the copy's name and place. */
struct copy_of {
	const struct repo_named	*src;
	const char		*name;
	int32_t			 program;
	const char		*workspace;
};

static int
copy_list(struct db *db, const struct copy_of *c, int32_t *id)
{
	struct list_new t;

	memset(&t, 0, sizeof(t));
	t.name = c->name;
	t.description = c->src->description;
	t.has_place = true;
	t.place.id = c->program;
	t.place.type = FOLDER_T_PROGRAM;
	t.workspace = c->workspace;
	return repo_lists_create_in_tx(db, &t, id);
}

static int
copy_form(struct db *db, const struct copy_of *c, int32_t *id)
{
	return repo_forms_copy_in_tx(db, c->src->id, c->name, c->program, id);
}

static int
copy_email(struct db *db, const struct copy_of *c, int32_t *id)
{
	return repo_email_copy_in_tx(db, c->src->id, c->program, id);
}

/* The fields a smart list's and a campaign's clone share, from c. */
static void
clone_fields(const struct copy_of *c, const char **name,
    const char **description, struct folder_ref *place, int32_t *clone_of)
{
	*name = c->name;
	*description = c->src->description;
	place->id = c->program;
	place->type = FOLDER_T_PROGRAM;
	*clone_of = c->src->id;
}

static int
copy_smart_list(struct db *db, const struct copy_of *c, int32_t *id)
{
	struct repo_sl_new t;

	memset(&t, 0, sizeof(t));
	clone_fields(c, &t.name, &t.description, &t.place, &t.clone_of);
	return repo_sl_insert_in_tx(db, &t, id);
}

static int
copy_campaign(struct db *db, const struct copy_of *c, int32_t *id)
{
	struct repo_sc_new t;

	memset(&t, 0, sizeof(t));
	clone_fields(c, &t.name, &t.description, &t.place, &t.clone_of);
	return repo_sc_insert_in_tx(db, &t, id);
}

/*
 * The kinds, in the order they are copied; flow_type and rule_type are
 * the data types of the flow attributes and rule conditions that name
 * one (NULL: none).
 */
static const struct kind {
	const char	*word;		/* for a refusal */
	bool		 renamed;	/* names unique in the instance */
	const char	*flow_type;	/* flow attributes naming it */
	const char	*rule_type;	/* conditions naming it */
	int		(*list)(struct db *, struct arena *, int32_t,
			    struct repo_named **, size_t *);
	int		(*copy)(struct db *, const struct copy_of *,
			    int32_t *);
} kinds[] = {
	{ "Static list", true, "list", "list", repo_lists_in_program,
	    copy_list },
	{ "Form", true, NULL, "form", repo_forms_in_program, copy_form },
	{ "Email", false, "email", NULL, repo_email_in_program,
	    copy_email },
	{ "Smart list", true, NULL, NULL, repo_sl_named_in_program,
	    copy_smart_list },
	{ "Smart campaign", true, "campaign", NULL, repo_sc_in_program,
	    copy_campaign },
};

#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))

/* The copies of one kind: the sources, the copies' ids and names. */
struct copies {
	struct repo_named	*v;
	int32_t			*ids;
	const char		**names;
	size_t			 n;
};

struct program_clone {
	struct arena			*a;
	int32_t				 from;
	const char			*from_name;
	struct repo_program_create	*p;
	struct repo_program_clone_fail	*f;
	struct copies			 done[NKINDS];
};

/* Points the new program's references to value from at value to. */
static int
remap(struct db *db, const struct kind *k, int32_t program, const char *from,
    const char *to)
{
	int r = 0;

	if (k->flow_type != NULL)
		r = repo_sc_remap(db, program, k->flow_type, from, to);
	if (r == 0 && k->rule_type != NULL)
		r = repo_sl_remap(db, program, k->rule_type, from, to);
	return r;
}

/*
 * Points the copies' references to the source program itself (Change
 * Program Status steps, Member of Program and Program Status filters),
 * by id and by name, at the new program.
 */
static int
remap_program(struct db *db, const struct program_clone *x)
{
	char from[16], to[16];
	int r;

	(void)snprintf(from, sizeof(from), "%ld", (long)x->from);
	(void)snprintf(to, sizeof(to), "%ld", (long)x->p->id);
	if ((r = repo_sc_remap(db, x->p->id, "program", from, to)) != 0 ||
	    (r = repo_sc_remap(db, x->p->id, "program", x->from_name,
	    x->p->name)) != 0 ||
	    (r = repo_sl_remap(db, x->p->id, "program", from, to)) != 0)
		return r;
	return repo_sl_remap(db, x->p->id, "program", x->from_name,
	    x->p->name);
}

/* Copies the assets of kind k into *d. */
static int
copy_kind(struct db *db, struct program_clone *x, const struct kind *k,
    struct copies *d)
{
	struct copy_of c;
	size_t i;
	int r;

	if ((r = k->list(db, x->a, x->from, &d->v, &d->n)) != 0 || d->n == 0)
		return r;
	if ((d->ids = arena_zalloc(x->a, d->n * sizeof(*d->ids))) == NULL ||
	    (d->names = arena_zalloc(x->a, d->n * sizeof(*d->names))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < d->n; i++) {
		c.src = &d->v[i];
		c.name = d->v[i].name;
		c.program = x->p->id;
		c.workspace = x->p->workspace;
		x->f->kind = k->word;
		x->f->name = d->v[i].name;
		if (k->renamed && (c.name = progmeta_copy_name(x->a,
		    d->v[i].name, x->from_name, x->p->name)) == NULL)
			return -REPO_ERR_INVALID;
		x->f->name = d->names[i] = c.name;
		if ((r = k->copy(db, &c, &d->ids[i])) != 0)
			return r;
	}
	x->f->kind = NULL;
	x->f->name = NULL;
	return 0;
}

/* Points the copies' references to the sources of d at their copies. */
static int
remap_kind(struct db *db, int32_t program, const struct kind *k,
    const struct copies *d)
{
	char from[16], to[16];
	size_t i;
	int r;

	for (i = 0; i < d->n; i++) {
		(void)snprintf(from, sizeof(from), "%ld", (long)d->v[i].id);
		(void)snprintf(to, sizeof(to), "%ld", (long)d->ids[i]);
		if ((r = remap(db, k, program, from, to)) != 0 ||
		    (k->renamed && (r = remap(db, k, program, d->v[i].name,
		    d->names[i])) != 0))
			return r;
	}
	return 0;
}

static int
program_clone_tx(struct db *db, void *arg)
{
	struct program_clone *x = arg;
	size_t i;
	int r;

	x->f->kind = NULL;
	x->f->name = NULL;
	memset(x->done, 0, sizeof(x->done));
	if ((r = repo_program_assets_clone_in_tx(db, x->from, x->p)) != 0)
		return r;
	for (i = 0; i < NKINDS; i++)
		if ((r = copy_kind(db, x, &kinds[i], &x->done[i])) != 0)
			return r;
	for (i = 0; i < NKINDS; i++)
		if ((r = remap_kind(db, x->p->id, &kinds[i], &x->done[i])) != 0)
			return r;
	return remap_program(db, x);
}

/* See repo_program_clone.h. */
int
repo_program_clone(struct db *db, struct arena *a, int32_t from,
    const char *from_name, struct repo_program_create *p,
    struct repo_program_clone_fail *f)
{
	struct program_clone x = { a, from, from_name, p, f, { { 0 } } };
	int r;

	p->id = 0;
	f->kind = NULL;
	f->name = NULL;
	if ((r = db_ensure(db)) != 0)
		return r;
	return db_run_tx(db, program_clone_tx, &x, false);
}
