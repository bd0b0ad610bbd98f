/*
 * Bookkeeping of schema migrations (db/migrations/NNNN_*.sql).  The
 * schema_migrations table records each version as started, then done; a
 * version left "started" means a migration died half-way, and the runner
 * refuses to go on until someone repairs it (DDL is not transactional).
 */
#ifndef MAUTO_REPO_REPO_MIGRATE_H
#define MAUTO_REPO_REPO_MIGRATE_H

#include <stdbool.h>
#include <stddef.h>

struct db;

#define MIGRATION_NAME_BYTES	255
#define MIGRATION_SUM_BYTES	64	/* sha256 hex */

struct migration_rec {
	int	 version;
	char	 name[MIGRATION_NAME_BYTES + 1];
	char	 checksum[MIGRATION_SUM_BYTES + 1];
	bool	 done;
};

struct migration_list {
	struct migration_rec	*items;
	size_t			 count;
};

/* Creates schema_migrations when absent.  0 or a negative repo_err. */
int	repo_migrate_init(struct db *db);
/* Reads every record, by version.  The list is owned by the caller. */
int	repo_migrate_list(struct db *db, struct migration_list *out);
void	repo_migrate_list_free(struct migration_list *l);
/* Records version as started; -REPO_ERR_CONFLICT when already recorded. */
int	repo_migrate_begin(struct db *db, int version, const char *name,
	    const char *checksum);
/* Records version as done. */
int	repo_migrate_finish(struct db *db, int version);
/* Runs one statement of a migration file, as written. */
int	repo_migrate_exec(struct db *db, const char *sql, size_t len);

#endif
