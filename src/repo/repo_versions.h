/*
 * What every repository of a versioned asset does inside the transaction
 * that holds the asset's row lock (docs/assets.md "Versions"): read which
 * versions the asset has and whether it is used, ask model/asset.c
 * whether a change is allowed, and move or drop version rows.  Each
 * repository passes its own prepared statements, on its own table.
 */
#ifndef MAUTO_REPO_REPO_VERSIONS_H
#define MAUTO_REPO_REPO_VERSIONS_H

#include <stddef.h>
#include <stdint.h>

#include <mysql.h>

#include "model/asset.h"

struct db;

/* A versioned asset's statements, the usage type and the log name. */
struct repo_versions_sql {
	MYSQL_STMT	*versions;	/* (id): draft rows, approved rows */
	MYSQL_STMT	*del;		/* (id, status) */
	MYSQL_STMT	*rename;	/* (new status, id, old status) */
	const char	*usage_type;	/* asset_usage's word for the type */
	const char	*where;
};

/*
 * Reads the versions and the use of asset id into *before and applies
 * op to a copy.  Returns 0, -REPO_ERR_INVALID with the 709 message in
 * msg (size bytes) when a rule refuses, or another repo_err.
 */
int	repo_versions_check(struct db *db, const struct repo_versions_sql *s,
	    int32_t id, enum asset_op op, struct asset_versions *before,
	    char *msg, size_t size);

/* Moves version from to status to, dropping what was there. */
int	repo_versions_move(struct db *db, const struct repo_versions_sql *s,
	    int32_t id, enum asset_status from, enum asset_status to);

/*
 * Writes ASSET_APPROVE (the draft becomes the approved version),
 * ASSET_UNAPPROVE (the approved version becomes the draft, or is dropped
 * beside a draft) or ASSET_DISCARD (the draft is dropped) for an asset
 * whose versions were before.  -REPO_ERR_INTERNAL for another op.
 */
int	repo_versions_write(struct db *db, const struct repo_versions_sql *s,
	    int32_t id, enum asset_op op, const struct asset_versions *before);

#endif
