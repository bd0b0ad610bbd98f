/*
 * Versioned assets (docs/assets.md): one asset id with a draft, an
 * approved version, or both ("approved with draft"), and the rules of
 * every change between them, shared by every asset type that has
 * versions (landing page templates, emails, email templates, ...).
 * Repositories run asset_apply inside the transaction that holds the
 * asset's row lock, so concurrent changes of one asset are serialised
 * and each sees the state the previous one left.  Pure code.
 */
#ifndef MAUTO_MODEL_ASSET_H
#define MAUTO_MODEL_ASSET_H

#include <stdbool.h>

/* The versions an asset has, and whether anything uses it. */
struct asset_versions {
	bool	 has_draft;
	bool	 has_approved;
	bool	 in_use;
};

enum asset_op {
	ASSET_EDIT,		/* change content: makes or changes the draft */
	ASSET_APPROVE,		/* the draft becomes the approved version */
	ASSET_UNAPPROVE,	/* the approved version becomes the draft */
	ASSET_DISCARD,		/* drops the draft beside an approved version */
	ASSET_DELETE,		/* removes the asset */
};

/*
 * Applies op to *v.  Returns 0 and updates *v, or -1 with *msg set to
 * the message of the 709 the service answers (a static string):
 *   APPROVE without a draft, UNAPPROVE of an asset that is not approved
 *   or is in use, DISCARD without a draft or of a draft-only asset,
 *   DELETE of an approved asset or of one in use.
 * UNAPPROVE of an approved asset that also has a draft keeps the draft
 * (the approved version is dropped).
 */
int	asset_apply(struct asset_versions *v, enum asset_op op,
	    const char **msg);

/* The status words of the API. */
enum asset_status {
	ASSET_ST_ANY,		/* no status parameter */
	ASSET_ST_DRAFT,
	ASSET_ST_APPROVED,
};

/*
 * Which version a read by id or name shows: with ASSET_ST_ANY the
 * approved one when there is one, else the draft; with a status, that
 * version.  Returns the version's status (ASSET_ST_DRAFT or
 * ASSET_ST_APPROVED), or ASSET_ST_ANY when the asset has no such
 * version (the read then finds nothing).
 */
enum asset_status	asset_pick(const struct asset_versions *v,
			    enum asset_status want);

/* "draft" or "approved". */
const char	*asset_status_name(enum asset_status s);

#endif
