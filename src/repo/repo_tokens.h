/*
 * "My Tokens" (db/migrations/0027_folder_tokens.sql): the tokens defined
 * on a folder or a program, and the tokens in effect there, inherited
 * from the folders above (what a campaign resolves {{my.<name>}} from).
 * The only reader and writer of the folder_token table; it reads the
 * folder and program tables only to find a place and its parents.
 */
#ifndef MAUTO_REPO_REPO_TOKENS_H
#define MAUTO_REPO_REPO_TOKENS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/folder.h"
#include "model/token.h"

struct arena;
struct db;

/* One token (strings in the caller's arena). */
struct repo_token {
	const char		*name;
	enum token_type		 type;
	const char		*value;
	struct folder_ref	 place;		/* where it is defined */
};

/*
 * The tokens defined on place ref, in the order they were first made,
 * into the arena a.  Returns 0, -REPO_ERR_NOT_FOUND (no such folder or
 * program) or another negative repo_err.
 */
int	repo_tokens_list(struct db *db, struct arena *a,
	    const struct folder_ref *ref, struct repo_token **out, size_t *n);

/*
 * Creates token name on place ref, or gives the token of that name there
 * the new type and value.  name, type and value are checked by the
 * caller (model/token.h).  Returns 0, -REPO_ERR_NOT_FOUND (no such folder
 * or program) or another negative repo_err.
 */
int	repo_tokens_upsert(struct db *db, const struct folder_ref *ref,
	    const char *name, enum token_type type, const char *value);

/*
 * Deletes token name of type type from place ref; *deleted says whether
 * there was one.  Returns 0, -REPO_ERR_NOT_FOUND (no such folder or
 * program) or another negative repo_err.
 */
int	repo_tokens_delete(struct db *db, const struct folder_ref *ref,
	    const char *name, enum token_type type, bool *deleted);

/*
 * The tokens in effect at place ref: its own, then those of its folder
 * (a program's) and every folder above, a name defined nearer winning;
 * by name, each with the place that defines it, into the arena a.  A
 * place that does not exist has none.  Returns 0 or a negative repo_err.
 */
int	repo_tokens_effective(struct db *db, struct arena *a,
	    const struct folder_ref *ref, struct repo_token **out, size_t *n);

#endif
