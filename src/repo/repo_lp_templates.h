/*
 * Landing page templates (db/migrations/0010_assets.sql): the only reader
 * and writer of lp_template and lp_template_version.  Every change of
 * versions runs model/asset.c's rules inside the transaction that holds
 * the template's row lock, so concurrent approve, discard and edit calls
 * on one template are serialised.
 */
#ifndef MAUTO_REPO_REPO_LP_TEMPLATES_H
#define MAUTO_REPO_REPO_LP_TEMPLATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/asset.h"
#include "model/lptemplate.h"

struct arena;
struct db;

/* Times as the database writes them: "YYYY-MM-DD HH:MM:SS". */
#define REPO_LPT_TIME_BYTES	32

/* One template as one of its versions shows it (strings in the arena). */
struct repo_lpt {
	int32_t			 id;
	const char		*name;
	const char		*description;	/* NULL when none */
	int32_t			 folder_id;
	const char		*folder_name;
	const char		*workspace;
	enum lpt_type		 type;
	bool			 enable_munchkin;
	char			 created_at[REPO_LPT_TIME_BYTES];
	char			 updated_at[REPO_LPT_TIME_BYTES];
	struct asset_versions	 v;
	enum asset_status	 status;	/* the version shown */
	const char		*content;	/* with_content only */
	size_t			 content_len;
};

/*
 * Template id (or the one named name, exactly) as the version want picks
 * (asset_pick), with that version's content when with_content.  Returns
 * 0, -REPO_ERR_NOT_FOUND (no such template, or no such version) or
 * another negative repo_err.
 */
int	repo_lpt_get(struct db *db, struct arena *a, int32_t id,
	    enum asset_status want, bool with_content, struct repo_lpt *out);
int	repo_lpt_get_by_name(struct db *db, struct arena *a, const char *name,
	    enum asset_status want, struct repo_lpt *out);

/* Browse: one item per version, by id then status. */
struct repo_lpt_query {
	int32_t			 folder_id;	/* 0: every folder */
	enum asset_status	 status;	/* ASSET_ST_ANY: both versions */
	int64_t			 offset;
	int			 limit;
};

int	repo_lpt_browse(struct db *db, struct arena *a,
	    const struct repo_lpt_query *q, struct repo_lpt **out, size_t *n);

/* A new template, a draft with empty content. */
struct repo_lpt_new {
	const char		*name;
	const char		*description;	/* NULL: none */
	int32_t			 folder_id;
	enum lpt_type		 type;
	bool			 enable_munchkin;
	int32_t			 clone_of;	/* 0; else its content is copied */
};

/*
 * Makes a template.  Returns 0 and *id, -REPO_ERR_CONFLICT (the name is
 * taken), -REPO_ERR_NOT_FOUND (clone_of is gone) or another repo_err.
 */
int	repo_lpt_insert(struct db *db, const struct repo_lpt_new *t,
	    int32_t *id);

/* The metadata to change; NULL strings and munchkin < 0 stay. */
struct repo_lpt_meta {
	const char		*name;
	const char		*description;
	int			 enable_munchkin;
};

/* Returns 0, -REPO_ERR_NOT_FOUND, -REPO_ERR_CONFLICT (name taken). */
int	repo_lpt_update_meta(struct db *db, int32_t id,
	    const struct repo_lpt_meta *m);

/*
 * Approving runs check on the draft's content inside the transaction:
 * 0 to go on, or -1 with the reason in msg (LPT_MSG_BYTES).
 */
typedef int (*repo_lpt_check_fn)(enum lpt_type t, const char *html,
	    size_t len, char *msg);

/*
 * Applies op to template id: ASSET_EDIT with content (len bytes) replaces
 * the draft's content (making the draft), ASSET_APPROVE runs check on the
 * draft then makes it the approved version, ASSET_UNAPPROVE,
 * ASSET_DISCARD, ASSET_DELETE as model/asset.h says.  Returns 0,
 * -REPO_ERR_NOT_FOUND, -REPO_ERR_INVALID with the 709 message in msg
 * (LPT_MSG_BYTES) when a rule or the check refuses, or another repo_err.
 */
int	repo_lpt_change(struct db *db, int32_t id, enum asset_op op,
	    const char *content, size_t len, repo_lpt_check_fn check,
	    char *msg);

/* The number of templates in folder id (mautoctl folder delete). */
int	repo_lpt_count_in_folder(struct db *db, int32_t folder_id,
	    int64_t *n);

#endif
