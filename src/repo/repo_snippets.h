/*
 * Snippets (db/migrations/0011_email_templates.sql): the only reader and
 * writer of snippet.  A snippet is HTML with its text version; no
 * operation in scope makes one: mautoctl snippet create does, approved.
 */
#ifndef MAUTO_REPO_REPO_SNIPPETS_H
#define MAUTO_REPO_REPO_SNIPPETS_H

#include <stddef.h>
#include <stdint.h>

struct arena;
struct db;

#define REPO_SNIPPET_TIME_BYTES	32

/* One snippet (strings in the arena). */
struct repo_snippet {
	int32_t			 id;
	const char		*name;
	const char		*description;	/* NULL when none */
	const char		*status;	/* "approved" or "draft" */
	char			 created_at[REPO_SNIPPET_TIME_BYTES];
	char			 updated_at[REPO_SNIPPET_TIME_BYTES];
	const char		*content;	/* HTML */
	size_t			 content_len;
	const char		*text;		/* the text version */
	size_t			 text_len;
};

/* With content and text.  0, -REPO_ERR_NOT_FOUND or a repo_err. */
int	repo_snippet_get(struct db *db, struct arena *a, int32_t id,
	    struct repo_snippet *out);
/* Every snippet by id, without content and text. */
int	repo_snippet_list(struct db *db, struct arena *a,
	    struct repo_snippet **out, size_t *n);

/* A new snippet, approved. */
struct repo_snippet_new {
	const char		*name;
	const char		*description;	/* NULL: none */
	const char		*content;
	size_t			 content_len;
	const char		*text;
	size_t			 text_len;
};

/* 0 and *id, -REPO_ERR_CONFLICT (the name is taken) or a repo_err. */
int	repo_snippet_insert(struct db *db, const struct repo_snippet_new *s,
	    int32_t *id);

/*
 * Deletes snippet id.  0, -REPO_ERR_NOT_FOUND, or -REPO_ERR_CONFLICT
 * while an asset uses it (asset_usage).
 */
int	repo_snippet_delete(struct db *db, int32_t id);

#endif
