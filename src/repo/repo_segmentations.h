/*
 * Segmentations and their segments (db/migrations/0011_email_templates.sql):
 * the only reader and writer of segmentation and segment.  Every
 * segmentation has the segment "Default" first (position 0), as in the
 * hosted service; the others follow in the order given.  No operation in
 * scope makes them: mautoctl segmentation create does, approved.
 */
#ifndef MAUTO_REPO_REPO_SEGMENTATIONS_H
#define MAUTO_REPO_REPO_SEGMENTATIONS_H

#include <stddef.h>
#include <stdint.h>

struct arena;
struct db;

/* The segment every segmentation has first. */
#define SEGMENT_DEFAULT		"Default"
/* Segments of one segmentation, Default included. */
#define MAX_SEGMENTS		100

#define REPO_SEG_TIME_BYTES	32

struct repo_segment {
	int32_t			 id;
	const char		*name;
	int32_t			 position;
};

/* One segmentation with its segments by position (strings in the arena). */
struct repo_seg {
	int32_t			 id;
	const char		*name;
	const char		*description;	/* NULL when none */
	const char		*status;	/* "approved" */
	char			 created_at[REPO_SEG_TIME_BYTES];
	char			 updated_at[REPO_SEG_TIME_BYTES];
	struct repo_segment	*segments;
	size_t			 nsegments;
};

/* Returns 0, -REPO_ERR_NOT_FOUND or another negative repo_err. */
int	repo_seg_get(struct db *db, struct arena *a, int32_t id,
	    struct repo_seg *out);
/* Every segmentation by id, with its segments. */
int	repo_seg_list(struct db *db, struct arena *a, struct repo_seg **out,
	    size_t *n);
/* The id of the segmentation named name: 0, -REPO_ERR_NOT_FOUND, ... */
int	repo_seg_get_id_by_name(struct db *db, const char *name, int32_t *id);

/*
 * Makes segmentation name with the segments Default, then names[0..n-1]
 * (distinct, none "Default": the caller's to check), in one
 * transaction.  Returns 0 and *id, -REPO_ERR_CONFLICT (the name is
 * taken) or another repo_err.
 */
int	repo_seg_insert(struct db *db, const char *name,
	    const char *description, const char *const *names, size_t n,
	    int32_t *id);

/*
 * Deletes segmentation id and its segments.  Returns 0,
 * -REPO_ERR_NOT_FOUND, or -REPO_ERR_CONFLICT while a template section
 * or an asset (asset_usage) uses it.
 */
int	repo_seg_delete(struct db *db, int32_t id);

/*
 * Inside the caller's transaction: locks segmentation id in share mode
 * so it stays until the caller commits.  0 or -REPO_ERR_NOT_FOUND.
 */
int	repo_seg_hold(struct db *db, int32_t id);

#endif
