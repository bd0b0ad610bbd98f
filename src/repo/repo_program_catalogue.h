/*
 * The catalogue programs are made from (migration 0029): channels with
 * their progression statuses, and tag types with their allowed values.
 * Read by api_program_catalogue.c; tag types are written by mautoctl
 * tag-type only.
 */
#ifndef MAUTO_REPO_REPO_PROGRAM_CATALOGUE_H
#define MAUTO_REPO_REPO_PROGRAM_CATALOGUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;
struct db;

/* A progression status of a channel; strings in the caller's arena. */
struct repo_channel_status {
	int32_t		 step;
	const char	*name;
	const char	*description;	/* NULL when none */
	bool		 hidden;
	bool		 success;
};

/* A channel with its statuses by step; strings in the caller's arena. */
struct repo_channel {
	int32_t				 id;
	const char			*name;
	const char			*program_type;
	const char			*created_at;
	const char			*updated_at;
	struct repo_channel_status	*statuses;
	size_t				 nstatuses;
};

/*
 * The channels by id (only the one named name exactly when name is not
 * NULL), limit from offset, each with its statuses, into *out (*n) in
 * the arena a.  Returns 0 or a negative repo_err.
 */
int	repo_program_catalogue_channels(struct db *db, struct arena *a,
	    const char *name, int limit, int64_t offset,
	    struct repo_channel **out, size_t *n);

/* A tag type; strings in the caller's arena. */
struct repo_tag_type {
	int32_t		 id;
	const char	*name;
	const char	*program_types;	/* "[program,event]" */
	bool		 required;
	const char	**values;	/* allowed values in order (by name) */
	size_t		 nvalues;
};

/*
 * The tag types by id (only the one named name exactly when name is not
 * NULL, then with its allowed values), limit from offset, into *out (*n)
 * in the arena a.  Returns 0 or a negative repo_err.
 */
int	repo_program_catalogue_tag_types(struct db *db, struct arena *a,
	    const char *name, int limit, int64_t offset,
	    struct repo_tag_type **out, size_t *n);

/*
 * Makes tag type t (name, program_types, required and values in order;
 * id is not read) with its values, in one transaction; its id into *id.
 * Returns 0, -REPO_ERR_CONFLICT (the name is taken, or a value given
 * twice) or another negative repo_err.
 */
int	repo_program_catalogue_tag_type_insert(struct db *db,
	    const struct repo_tag_type *t, int32_t *id);

/*
 * Deletes tag type id with its values, under its row lock.  Returns 0,
 * -REPO_ERR_NOT_FOUND, -REPO_ERR_CONFLICT while a program carries a
 * value of it, or another negative repo_err.
 */
int	repo_program_catalogue_tag_type_delete(struct db *db, int32_t id);

#endif
