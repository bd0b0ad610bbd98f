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

/*
 * The forms of program program, by id (no description), into *out (*n)
 * in the arena a (Clone Program).  0 or a negative repo_err.
 */
int	repo_forms_in_program(struct db *db, struct arena *a,
	    int32_t program, struct repo_named **out, size_t *n);

/*
 * Inside the caller's transaction (Clone Program): a copy named name of
 * form from, with its fields, belonging to program program; its id into
 * *id.  0, -REPO_ERR_CONFLICT (the name is taken), -REPO_ERR_NOT_FOUND
 * or another negative repo_err.
 */
int	repo_forms_copy_in_tx(struct db *db, int32_t from, const char *name,
	    int32_t program, int32_t *id);

/*
 * Inside the caller's transaction (Delete Program): *id is the first
 * form of program program that a smart list outside the program names
 * (Fills Out Form), 0 when none.  0 or a negative repo_err.
 */
int	repo_forms_program_blocker(struct db *db, int32_t program,
	    int32_t *id);

/*
 * Deletes the forms of program program with their fields, inside the
 * caller's transaction.  0 or a negative repo_err.
 */
int	repo_forms_delete_in_program(struct db *db, int32_t program);

#endif
