/*
 * Email templates (db/migrations/0011_email_templates.sql): the only
 * reader and writer of email_template and email_template_dynamic.  A
 * template is stored once its HTML passed model/template.c (the caller
 * parses it); it is approved from the start and has one version.
 */
#ifndef MAUTO_REPO_REPO_EMAIL_TEMPLATES_H
#define MAUTO_REPO_REPO_EMAIL_TEMPLATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;
struct db;

/* Times as the database writes them: "YYYY-MM-DD HH:MM:SS". */
#define REPO_ETPL_TIME_BYTES	32

/* A section an email made from the template starts dynamic with. */
struct repo_etpl_dynamic {
	const char		*html_id;
	int32_t			 segmentation_id;
};

/* One template (strings in the arena). */
struct repo_etpl {
	int32_t			 id;
	const char		*name;
	const char		*description;	/* NULL when none */
	int32_t			 folder_id;
	int32_t			 workspace_id;
	char			 created_at[REPO_ETPL_TIME_BYTES];
	char			 updated_at[REPO_ETPL_TIME_BYTES];
	const char		*content;	/* with_content only */
	size_t			 content_len;
	struct repo_etpl_dynamic *dynamic;	/* with_content only */
	size_t			 ndynamic;
};

/*
 * Template id, with its content and dynamic sections when with_content.
 * Returns 0, -REPO_ERR_NOT_FOUND or another negative repo_err.
 */
int	repo_etpl_get(struct db *db, struct arena *a, int32_t id,
	    bool with_content, struct repo_etpl *out);

/*
 * repo_etpl_get with content, for the template an email is made from:
 * answered from this worker's copy when it has one.  A template never
 * changes once made (mautoctl makes and deletes them; nothing updates
 * one), and the email's foreign key keeps it while the email exists, so
 * a copy kept by id is the template for as long as an email uses it.
 * The copy is written into the arena a, as repo_etpl_get does.
 */
int	repo_etpl_get_used(struct db *db, struct arena *a, int32_t id,
	    struct repo_etpl *out);

/* The id of the template named name: 0, -REPO_ERR_NOT_FOUND, ... */
int	repo_etpl_get_id_by_name(struct db *db, const char *name,
	    int32_t *id);

/* Every template by id, without content (mautoctl template list). */
int	repo_etpl_list(struct db *db, struct arena *a, struct repo_etpl **out,
	    size_t *n);

/* A new template; content is HTML that model/template.c accepted. */
struct repo_etpl_new {
	const char			*name;
	const char			*description;	/* NULL: none */
	int32_t				 folder_id;
	const char			*content;
	size_t				 len;
	const struct repo_etpl_dynamic	*dynamic;
	size_t				 ndynamic;
};

/*
 * Makes a template and its dynamic sections in one transaction.  The
 * folder is the caller's to check (its key guards it).  Returns 0 and
 * *id, -REPO_ERR_CONFLICT (the name is taken), -REPO_ERR_NOT_FOUND (a
 * segmentation of dynamic does not exist) or another repo_err.
 */
int	repo_etpl_insert(struct db *db, const struct repo_etpl_new *t,
	    int32_t *id);

/*
 * Deletes template id.  Returns 0, -REPO_ERR_NOT_FOUND, or
 * -REPO_ERR_CONFLICT while something uses it (asset_usage: an email).
 */
int	repo_etpl_delete(struct db *db, int32_t id);

/* The number of templates in folder id (mautoctl folder delete). */
int	repo_etpl_count_in_folder(struct db *db, int32_t folder_id,
	    int64_t *n);

#endif
