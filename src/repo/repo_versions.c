/*
 * Version rows of a versioned asset (repo_versions.h): the statements are
 * the calling repository's, run inside its transaction.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "model/asset.h"
#include "repo/repo.h"
#include "repo/repo_usage.h"
#include "repo/repo_versions.h"

/* See repo_versions.h. */
int
repo_versions_check(struct db *db, const struct repo_versions_sql *s,
    int32_t id, enum asset_op op, struct asset_versions *before, char *msg,
    size_t size)
{
	struct asset_versions v = { false, false, false };
	MYSQL_BIND in[1], res[2];
	const char *why = NULL;
	int64_t nd = 0, na = 0, used = 0;
	my_bool nul[2];
	int r;

	bind_i32(&in[0], &id);
	bind_out_i64(&res[0], &nd, &nul[0]);
	bind_out_i64(&res[1], &na, &nul[1]);
	if ((r = db_exec(db, s->versions, in, s->where)) != 0 ||
	    (r = db_fetch_one(db, s->versions, res, s->where)) != 0 ||
	    (r = repo_usage_count(db, s->usage_type, id, &used)) != 0)
		return r;
	v.has_draft = nd > 0;
	v.has_approved = na > 0;
	v.in_use = used > 0;
	*before = v;
	if (asset_apply(&v, op, &why) != 0) {
		(void)snprintf(msg, size, "%s", why);
		return -REPO_ERR_INVALID;
	}
	return 0;
}

/* Drops version st of asset id. */
static int
drop(struct db *db, const struct repo_versions_sql *s, int32_t id,
    enum asset_status st)
{
	MYSQL_BIND in[2];
	const char *w = asset_status_name(st);
	unsigned long len = strlen(w);

	bind_i32(&in[0], &id);
	bind_str(&in[1], w, &len);
	return db_exec(db, s->del, in, s->where);
}

/* See repo_versions.h. */
int
repo_versions_move(struct db *db, const struct repo_versions_sql *s,
    int32_t id, enum asset_status from, enum asset_status to)
{
	MYSQL_BIND in[3];
	const char *fw = asset_status_name(from), *tw = asset_status_name(to);
	unsigned long flen = strlen(fw), tlen = strlen(tw);
	int r;

	if ((r = drop(db, s, id, to)) != 0)
		return r;
	bind_str(&in[0], tw, &tlen);
	bind_i32(&in[1], &id);
	bind_str(&in[2], fw, &flen);
	return db_exec(db, s->rename, in, s->where);
}

/* See repo_versions.h. */
int
repo_versions_write(struct db *db, const struct repo_versions_sql *s,
    int32_t id, enum asset_op op, const struct asset_versions *before)
{
	switch (op) {
	case ASSET_APPROVE:
		return repo_versions_move(db, s, id, ASSET_ST_DRAFT,
		    ASSET_ST_APPROVED);
	case ASSET_UNAPPROVE:
		return before->has_draft ? drop(db, s, id, ASSET_ST_APPROVED) :
		    repo_versions_move(db, s, id, ASSET_ST_APPROVED,
		    ASSET_ST_DRAFT);
	case ASSET_DISCARD:
		return drop(db, s, id, ASSET_ST_DRAFT);
	default:
		return -REPO_ERR_INTERNAL;
	}
}
