/*
 * Cloning a program with everything in it (Clone Program): the one
 * operation that asks every store to copy what it keeps in a program,
 * then to point the copies' references at the copies.  It stands above
 * the stores, as repo_program_delete.h does.
 */
#ifndef MAUTO_REPO_REPO_PROGRAM_CLONE_H
#define MAUTO_REPO_REPO_PROGRAM_CLONE_H

#include <stdint.h>

struct arena;
struct db;
struct repo_program_create;

/* The copy that could not be made: its kind and name. */
struct repo_program_clone_fail {
	const char	*kind;	/* "Static list", "Form"... */
	const char	*name;	/* the copy's, in the caller's arena */
};

/*
 * Clones program from (named from_name) as p says (name, description,
 * workspace, folder; p->id gets the new id), in one transaction: the
 * program with its statuses, tags, costs and My Tokens
 * (repo_program_assets_clone_in_tx), then its static lists (without
 * members), forms with their fields, emails (as Clone Email copies one:
 * a draft), smart lists with their rules and smart campaigns with their
 * lists and flows (inactive); the copies of static lists, forms, smart
 * lists and campaigns are named by progmeta_copy_name, an email keeps
 * its name.  In the copies' rules and flows, a static list, form, email
 * or campaign of the source program is replaced by its copy; the
 * copies' names (and f's) are kept in the arena a.  Returns 0,
 * -REPO_ERR_NOT_FOUND (no program from), -REPO_ERR_CONFLICT (the
 * program's name is taken, f->kind NULL, or a copy's, f naming it),
 * -REPO_ERR_INVALID (a copy's name would be too long, f naming the asset
 * copied) or another negative repo_err.
 */
int	repo_program_clone(struct db *db, struct arena *a, int32_t from,
	    const char *from_name, struct repo_program_create *p,
	    struct repo_program_clone_fail *f);

#endif
