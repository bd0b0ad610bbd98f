/*
 * Where assets are used (the asset_usage table of
 * db/migrations/0010_assets.sql): a landing page uses its template, a
 * flow step its email.  The groups whose assets refer to others record
 * it; unapprove and delete of the used asset read it.  The only reader
 * and writer of asset_usage.
 */
#ifndef MAUTO_REPO_REPO_USAGE_H
#define MAUTO_REPO_REPO_USAGE_H

#include <stddef.h>
#include <stdint.h>

struct arena;
struct db;

/* The asset type words of asset_usage (the API's asset type names). */
#define USAGE_LP_TEMPLATE	"landingPageTemplate"
#define USAGE_EMAIL_TEMPLATE	"emailTemplate"
#define USAGE_SEGMENTATION	"segmentation"
#define USAGE_SNIPPET		"snippet"
#define USAGE_EMAIL		"email"

/* How many uses asset (type, id) has. */
int	repo_usage_count(struct db *db, const char *type, int32_t id,
	    int64_t *n);

/* Records that (user_type, user_id) uses (type, id); twice is once. */
int	repo_usage_add(struct db *db, const char *type, int32_t id,
	    const char *user_type, int32_t user_id);

/* Forgets every use of (type, id) and by it, when it is deleted. */
int	repo_usage_forget(struct db *db, const char *type, int32_t id);

/* Forgets the uses of assets of type type by (user_type, user_id). */
int	repo_usage_forget_user(struct db *db, const char *user_type,
	    int32_t user_id, const char *type);

/* Drops the one use of asset (type, id) by (user_type, user_id). */
int	repo_usage_drop(struct db *db, const char *type, int32_t id,
	    const char *user_type, int32_t user_id);

/*
 * Records that (user_type, to) uses what (user_type, from) uses: a copy
 * of an asset uses what its source uses (Clone Program's emails: their
 * template, snippets, segmentations).
 */
int	repo_usage_copy_user(struct db *db, const char *user_type,
	    int32_t from, int32_t to);

/* One user of an asset: its type (a USAGE_ word) and id. */
struct repo_usage_user {
	const char	*type;
	int32_t		 id;
};

/*
 * The users of asset (type, id), limit of them from offset, by type then
 * id, into *out (n of them, in the arena a).  Returns 0 or a negative
 * repo_err.
 */
int	repo_usage_list(struct db *db, struct arena *a, const char *type,
	    int32_t id, int32_t limit, int64_t offset,
	    struct repo_usage_user **out, size_t *n);

#endif
