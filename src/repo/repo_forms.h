/*
 * Forms (migration 0004 form, form_field): the lead fields a form carries
 * and the program it belongs to.  Made by mautoctl (no operation in scope
 * creates forms), read by Submit Form.
 */
#ifndef MAUTO_REPO_REPO_FORMS_H
#define MAUTO_REPO_REPO_FORMS_H

#include <stddef.h>
#include <stdint.h>

#include "repo/repo.h"

struct arena;
struct db;

struct repo_form {
	int32_t		 id;
	const char	*name;		/* arena */
	int32_t		 program_id;	/* 0: none */
	const char	**fields;	/* field names on the form; arena */
	size_t		 nfields;
};

/* The form id with its field names (strings in a); -REPO_ERR_NOT_FOUND. */
int	repo_forms_get_by_id(struct db *db, struct arena *a, int64_t id,
	    struct repo_form *out);
/* The id of the form named name; -REPO_ERR_NOT_FOUND. */
int	repo_forms_get_id_by_name(struct db *db, const char *name,
	    int32_t *id);

/*
 * Creates a form carrying the named lead fields (names resolved without
 * case against lead_field; stored as the catalogue spells them) and
 * belonging to program_id (0: none).  -REPO_ERR_CONFLICT when the name is
 * taken; -REPO_ERR_NOT_FOUND with *miss (the program, or FIELD and the
 * index of the first unknown field).
 */
int	repo_forms_insert(struct db *db, const char *name, int32_t program_id,
	    const char *const *fields, size_t nfields, int32_t *id,
	    struct repo_missing *miss);

#endif
