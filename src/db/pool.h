/*
 * One worker's MariaDB connection (docs/style.md §7, docs/galera.md): connect with
 * timeouts, prepare the registered statements (all at connect, or each
 * repository's set when it is first used), notice a lost connection,
 * reconnect and re-prepare, run transactions with whole-transaction retry
 * on deadlock (1213).  Several hosts in db_host give failover: the next
 * node is tried on 2002/2003/2006/2013/1047/1180.
 */
#ifndef MAUTO_DB_POOL_H
#define MAUTO_DB_POOL_H

#include <stdbool.h>

#include <mysql.h>

#include "err.h"

struct config;
struct db;
struct metrics;

/* One repository's statements: a name for logs and its SQL texts. */
struct db_stmt_set {
	const char		*name;
	const char *const	*sql;
	size_t			 n;
};

/*
 * What a connection is set up with, handed in by the caller (the
 * repository layer's repo_schema) so that this layer knows no repository:
 * the statement sets, indexed by the caller's module ids, the session
 * setup run on every new connection, and the statement that opens a
 * transaction.  The first nconnect sets are those every call uses (its
 * token, the limits): they are prepared at connect in every mode but
 * DB_PREPARE_NONE, so a node that cannot serve them is passed over and a
 * process that cannot have them does not start.
 */
struct db_schema {
	const struct db_stmt_set *const	*sets;
	size_t				 nsets;
	size_t				 nconnect;
	const char			*session_init;
	const char			*begin;
};

/*
 * When a connection prepares its statements.  Each prepared statement
 * holds one of the server's max_prepared_stmt_count until the connection
 * closes, so a process prepares what it uses (docs/operating.md,
 * "Sizing the database").
 */
enum db_prepare {
	DB_PREPARE_NONE,	/* none (mautoctl migrate: no schema yet) */
	DB_PREPARE_ALL,		/* every set at connect: a schema mismatch
				   fails at once (mautoctl, tests) */
	DB_PREPARE_LAZY,	/* the first nconnect sets at connect, any
				   other set when db_stmt first needs it
				   (workers, export runners) */
	DB_PREPARE__MAX
};

/*
 * Connects with schema's session setup and prepares its statement sets
 * as prepare says (schema is borrowed and must outlive the connection).
 * Returns 0 and an owned *out, or a negative repo_err (logged; a server
 * limit that refused, max_connections or max_prepared_stmt_count, is
 * named in the log line).
 */
int		 db_open(struct db **out, const struct config *cfg,
		    const struct db_schema *schema, enum db_prepare prepare);
void		 db_close(struct db *db);
MYSQL		*db_conn(struct db *db);
/*
 * The prepared statement idx of statement set m (borrowed), preparing the
 * whole set first when this connection has not (DB_PREPARE_LAZY, or after
 * a reconnect).  Never NULL: when the set cannot be prepared (logged) it
 * returns a statement that was never prepared, on which binding and
 * executing fail, and db_error then answers the prepare's own error
 * (-REPO_ERR_UNAVAILABLE for the server's max_prepared_stmt_count, as
 * for a node that cannot serve; -REPO_ERR_CONN for a lost connection).
 * The next call tries to prepare the set again.
 */
MYSQL_STMT	*db_stmt(struct db *db, size_t m, int idx);
/* The statements this connection holds prepared now (repository sets). */
size_t		 db_stmt_count(const struct db *db);
/* The statements of all of schema's sets: what one connection may hold. */
size_t		 db_schema_stmts(const struct db_schema *schema);

/*
 * What a repository keeps for the life of the connection's process
 * (catalogues that change only with the schema, read once): slot
 * (below DB_CACHE_SLOTS, one per repository that keeps one) holds a
 * pointer and the function that frees it, called by db_close or when
 * the slot is set again.  db_cache returns the pointer (borrowed) or
 * NULL; db_cache_set takes ownership of p.  A reconnect keeps them.
 */
#define DB_CACHE_SLOTS	4
void		*db_cache(struct db *db, size_t slot);
void		 db_cache_set(struct db *db, size_t slot, void *p,
		    void (*free_fn)(void *));

/*
 * A prepared statement for SQL text built at run time by a repository
 * (lead columns named by the field catalogue; values are still bound,
 * never pasted).  Prepared on first use and cached per connection, the
 * least recently used of DB_DYN_STMTS dropped; the cache is emptied on
 * reconnect.  Returns the borrowed statement, or NULL after logging
 * (db_error has then classified the failure).
 */
MYSQL_STMT	*db_stmt_sql(struct db *db, const char *sql, const char *where);
/*
 * Why the last db_stmt_sql of db returned NULL, as db_error classified
 * it (-REPO_ERR_DEADLOCK for a transaction a Galera node aborted before
 * the statement was prepared: the caller's transaction runs again), or
 * -REPO_ERR_INTERNAL.  Callers return it for the NULL.
 */
int		 db_stmt_sql_err(const struct db *db);

#define DB_DYN_STMTS	64

/*
 * Maps the last error of the connection (stmt may be NULL) to a negative
 * repo_err, logging the library text with where.  Marks the connection
 * broken on connection errors so the next db_ensure() reconnects.  A
 * duplicate key (1062) and a row a foreign key still references (1451)
 * are -REPO_ERR_CONFLICT: the request conflicts with stored data.  A
 * write naming a row a foreign key finds gone (1452: an insert into a
 * folder a delete has just removed) is -REPO_ERR_GONE: a refusal.
 */
int		 db_error(struct db *db, MYSQL_STMT *stmt, const char *where);
/* Whether the connection was lost and awaits db_ensure(). */
bool		 db_is_broken(const struct db *db);
/* Reconnects and re-prepares if the connection was marked broken. */
int		 db_ensure(struct db *db);
/*
 * Whether the database answers, for a health probe: reconnects a
 * connection marked broken (db_ensure), then one round trip
 * (mysql_ping), no statement.  Returns 0, or a negative repo_err after
 * db_error logged it and, on a lost connection, marked it broken.
 */
int		 db_ping(struct db *db);

/*
 * Counts this connection's errors (those db_error logs as errors: lost,
 * unusable, unexpected; not duplicates, deadlocks or refused values),
 * reconnections and transactions run again after a deadlock or given
 * up (db_run_tx) into m (util/metrics.h; borrowed, may be NULL).
 */
void		 db_set_metrics(struct db *db, struct metrics *m);

/*
 * Replaces db's connection when the server closed it while it was idle
 * (a node restarted or killed, wait_timeout), so that the work that
 * comes next, a request, does not fail on it: called when a worker wakes.
 * A failed reconnection leaves db broken for the next db_ensure.
 */
void		 db_revive_idle(struct db *db);

/* Binds params and executes; stores the result set when it has one. */
int		 db_exec(struct db *db, MYSQL_STMT *st, MYSQL_BIND *params,
		    const char *where);

int		 db_tx_begin(struct db *db);
int		 db_tx_commit(struct db *db);
void		 db_tx_rollback(struct db *db);

/*
 * Runs fn(db, arg) inside BEGIN ... COMMIT.  A deadlock or certification
 * conflict (1213, 1205) rolls back and re-runs the whole function after
 * a jittered pause that doubles from DB_TX_BACKOFF_MS up to
 * DB_TX_BACKOFF_MAX_MS, for as long as the pause ends within
 * DB_TX_BUDGET_MS of the first run's start, and then returns
 * -REPO_ERR_DEADLOCK (a 1205 comes after innodb_lock_wait_timeout, past
 * the budget, so it is not run again).  The budget and a last run stay
 * well below the web server's request timeouts (30 s and more).  Runs
 * again and givings up are counted (db_set_metrics).  A lost connection
 * before COMMIT reconnects and re-runs once; a lost connection during
 * COMMIT returns REPO_ERR_CONN (outcome unknown, docs/galera.md) unless
 * idempotent is true, in which case the function is run again and
 * db_tx_outcome_unknown() tells it so: it must then answer as its first
 * run would have if that run committed.  Returns fn's result or a
 * negative repo_err.
 */
int		 db_run_tx(struct db *db, int (*fn)(struct db *, void *),
		    void *arg, bool idempotent);
/*
 * Whether the function db_run_tx is running now runs again after a
 * COMMIT whose outcome is unknown (idempotent: the connection was lost
 * at COMMIT).  It may then find what its own earlier run wrote, and
 * answer as that run would have, rather than as a second call.
 */
bool		 db_tx_outcome_unknown(const struct db *db);

#define DB_TX_BUDGET_MS		2000
#define DB_TX_BACKOFF_MS	5
#define DB_TX_BACKOFF_MAX_MS	200

#endif
