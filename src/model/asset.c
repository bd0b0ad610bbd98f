/*
 * Versioned assets (asset.h): the rules of every change between draft,
 * approved, and approved with draft, and which version a read shows.
 */
#include <stdbool.h>
#include <stddef.h>

#include "model/asset.h"

/* See asset.h. */
int
asset_apply(struct asset_versions *v, enum asset_op op, const char **msg)
{
	const char *m = NULL;

	switch (op) {
	case ASSET_EDIT:
		v->has_draft = true;
		break;
	case ASSET_APPROVE:
		if (!v->has_draft) {
			m = "Cannot approve: the asset has no draft";
			break;
		}
		v->has_approved = true;
		v->has_draft = false;
		break;
	case ASSET_UNAPPROVE:
		if (!v->has_approved) {
			m = "Cannot unapprove: the asset is not approved";
			break;
		}
		if (v->in_use) {
			m = "Cannot unapprove an asset that is in use";
			break;
		}
		/*
		 * A draft beside the approved version stays what it was;
		 * without one, the approved content becomes the draft.
		 */
		v->has_approved = false;
		v->has_draft = true;
		break;
	case ASSET_DISCARD:
		if (!v->has_draft) {
			m = "Cannot discard: the asset has no draft";
			break;
		}
		if (!v->has_approved) {
			m = "Cannot discard the draft of an asset that was "
			    "never approved";
			break;
		}
		v->has_draft = false;
		break;
	case ASSET_DELETE:
		if (v->has_approved) {
			m = "Cannot delete an approved asset: unapprove it "
			    "first";
			break;
		}
		if (v->in_use) {
			m = "Cannot delete an asset that is in use";
			break;
		}
		v->has_draft = false;
		v->has_approved = false;
		v->in_use = false;
		break;
	default:
		m = "Unknown asset operation";
		break;
	}
	if (msg != NULL)
		*msg = m;
	return m == NULL ? 0 : -1;
}

/* See asset.h. */
enum asset_status
asset_pick(const struct asset_versions *v, enum asset_status want)
{
	enum asset_status r = ASSET_ST_ANY;

	switch (want) {
	case ASSET_ST_ANY:
		if (v->has_approved)
			r = ASSET_ST_APPROVED;
		else if (v->has_draft)
			r = ASSET_ST_DRAFT;
		break;
	case ASSET_ST_DRAFT:
		if (v->has_draft)
			r = ASSET_ST_DRAFT;
		break;
	case ASSET_ST_APPROVED:
		if (v->has_approved)
			r = ASSET_ST_APPROVED;
		break;
	}
	return r;
}

/* See asset.h. */
const char *
asset_status_name(enum asset_status s)
{
	const char *r = "";

	if (s == ASSET_ST_DRAFT)
		r = "draft";
	else if (s == ASSET_ST_APPROVED)
		r = "approved";
	return r;
}
