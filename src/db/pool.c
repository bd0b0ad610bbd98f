/*
 * One worker's MariaDB connection.  docs/galera.md decides most of what is
 * here: connect/read/write timeouts so a stalled node cannot hang a
 * request, our own fail-over across the listed nodes (Connector/C has
 * none), whole-transaction retry on 1213, and "unknown outcome" for a
 * connection lost during COMMIT.
 *
 * Statements are prepared a repository's set at a time.  The server
 * keeps every prepared statement of every connection and refuses more
 * than max_prepared_stmt_count (16,382 by default) in all; with all of
 * them prepared at connect, a few dozen processes reached it.  So
 * workers prepare a set when a call first needs it (DB_PREPARE_LAZY),
 * and a set that cannot be prepared costs that call an error, not the
 * worker (db_stmt hands out an unprepared statement, "dud", whose
 * failure db_error turns into the prepare's own error).
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mysql.h>
#include <mysqld_error.h>
#include <errmsg.h>

#include "db/pool.h"
#include "bounds.h"
#include "util/config.h"
#include "util/log.h"
#include "util/metrics.h"
#include "util/num.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

#define MAX_DB_NODES	16

struct db_node {
	char	*host;
	unsigned port;
};

/* One cached run-time statement: its SQL text and last use. */
struct db_dyn {
	char		*sql;
	MYSQL_STMT	*st;
	uint64_t	 used;
};

struct db {
	const struct config	*cfg;
	const struct db_schema	*schema;
	MYSQL			*conn;
	MYSQL_STMT		***stmts;	/* [schema->nsets][set's n] */
	size_t			 nprepared;	/* statements in stmts */
	struct db_node		 nodes[MAX_DB_NODES];
	size_t			 nnodes;
	size_t			 node;		/* the node in use */
	enum db_prepare		 prepare;
	/* A statement never prepared, and why a set could not be. */
	MYSQL			*dud_conn;	/* initialised, never connected */
	MYSQL_STMT		*dud;
	int			 dud_err;
	bool			 broken;	/* reconnect before next use */
	/* Statements whose SQL is built at run time (db_stmt_sql). */
	struct db_dyn		 dyn[DB_DYN_STMTS];
	uint64_t		 dyn_clock;
	int			 dyn_err;	/* see db_stmt_sql_err */
	bool			 unknown;	/* db_tx_outcome_unknown */
	struct metrics		*metrics;	/* errors, reconnects; or NULL */
	/* The repositories' caches (db_cache). */
	void			*cache[DB_CACHE_SLOTS];
	void			(*cache_free[DB_CACHE_SLOTS])(void *);
};

/* Splits "h1:p1,h2,h3:p3" into nodes; the default port fills gaps. */
static int
parse_nodes(struct db *db, const char *list, int defport)
{
	const char *p, *comma, *colon;
	int64_t port;
	size_t len;

	for (p = list; p != NULL && *p != '\0'; p = comma ? comma + 1 : NULL) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == 0)
			continue;
		if (db->nnodes == MAX_DB_NODES)
			return -1;
		colon = memchr(p, ':', len);
		port = defport;
		if (colon != NULL) {
			if (num_parse_i64n(colon + 1, len - (size_t)(colon - p) - 1,
			    1, 65535, &port) != 0)
				return -1;
			len = (size_t)(colon - p);
		}
		db->nodes[db->nnodes].host = xstrndup(p, len);
		db->nodes[db->nnodes].port = (unsigned)port;
		db->nnodes++;
	}
	return db->nnodes > 0 ? 0 : -1;
}

/* Closes the statements of set m (those it has) on the server. */
static void
free_set(struct db *db, size_t m)
{
	size_t i;

	if (db->stmts[m] == NULL)
		return;
	for (i = 0; i < db->schema->sets[m]->n; i++)
		if (db->stmts[m][i] != NULL) {
			mysql_stmt_close(db->stmts[m][i]);
			db->nprepared--;
		}
	free(db->stmts[m]);
	db->stmts[m] = NULL;
}

static void
free_stmts(struct db *db)
{
	size_t m, i;

	for (i = 0; i < DB_DYN_STMTS; i++) {
		if (db->dyn[i].st != NULL)
			mysql_stmt_close(db->dyn[i].st);
		free(db->dyn[i].sql);
		memset(&db->dyn[i], 0, sizeof(db->dyn[i]));
	}
	for (m = 0; db->stmts != NULL && m < db->schema->nsets; m++)
		free_set(db, m);
}

static int	classify(struct db *db, MYSQL_STMT *stmt, const char *where,
		    bool logged);

static void
disconnect(struct db *db)
{
	free_stmts(db);
	if (db->conn != NULL)
		mysql_close(db->conn);
	db->conn = NULL;
}

/*
 * Whether error E says the node cannot serve now rather than that the
 * statement is wrong: a Galera node outside the primary component
 * answers 1047, or 1205 to a statement that must wait for causality
 * (wsrep_sync_wait), even to PREPARE (seen in tests/cluster/t40_quorum.py).
 */
static bool
node_unavailable(unsigned int e)
{
	switch (e) {
	case ER_UNKNOWN_COM_ERROR:
	case ER_LOCK_WAIT_TIMEOUT:
	case ER_ERROR_DURING_COMMIT:
	case CR_SERVER_GONE_ERROR:
	case CR_SERVER_LOST:
	case CR_SERVER_LOST_EXTENDED:
		return true;
	default:
		return false;
	}
}

/*
 * What to add to the log line of error e when a limit of the server
 * refused: the setting to raise (docs/operating.md, "Sizing the database").
 */
static const char *
server_limit_hint(unsigned int e)
{
	switch (e) {
	case ER_MAX_PREPARED_STMT_COUNT_REACHED:
		return "; raise max_prepared_stmt_count on the database "
		    "server (every node of a cluster): docs/operating.md, "
		    "Sizing the database";
	case ER_CON_COUNT_ERROR:
	case ER_TOO_MANY_USER_CONNECTIONS:
		return "; raise max_connections on the database server "
		    "(every node of a cluster): docs/operating.md, Sizing "
		    "the database";
	default:
		return "";
	}
}

/*
 * Prepares statement set m into db->stmts[m].  Returns 0, or -1 after
 * logging the failure, with the set closed again and *failed the
 * statement that failed (still open, for its error; the caller closes
 * it).
 */
static int
prepare_set(struct db *db, size_t m, MYSQL_STMT **failed)
{
	const struct db_stmt_set *set = db->schema->sets[m];
	MYSQL_STMT *st;
	size_t i;

	*failed = NULL;
	db->stmts[m] = xcalloc(set->n == 0 ? 1 : set->n,
	    sizeof(*db->stmts[m]));
	for (i = 0; i < set->n; i++) {
		if ((st = mysql_stmt_init(db->conn)) == NULL)
			xoom();
		if (mysql_stmt_prepare(st, set->sql[i],
		    strlen(set->sql[i])) != 0) {
			*failed = st;
			log_err("db: prepare %s[%zu]: %u %s%s", set->name, i,
			    mysql_stmt_errno(st), mysql_stmt_error(st),
			    server_limit_hint(mysql_stmt_errno(st)));
			free_set(db, m);
			return -1;
		}
		db->stmts[m][i] = st;
		db->nprepared++;
	}
	return 0;
}

/*
 * Prepares the sets this connection starts with (all, the first
 * nconnect, or none).  0, -REPO_ERR_UNAVAILABLE (try another node) or
 * -REPO_ERR_INTERNAL.
 */
static int
prepare_at_connect(struct db *db)
{
	MYSQL_STMT *failed;
	size_t m, n;
	int r = 0;

	n = db->prepare == DB_PREPARE_ALL ? db->schema->nsets :
	    db->prepare == DB_PREPARE_LAZY ? db->schema->nconnect : 0;
	for (m = 0; m < n && r == 0; m++) {
		if (prepare_set(db, m, &failed) == 0)
			continue;
		r = node_unavailable(mysql_stmt_errno(failed)) ?
		    -REPO_ERR_UNAVAILABLE : -REPO_ERR_INTERNAL;
		mysql_stmt_close(failed);
	}
	return r;
}

/* Connects to one node; 0 or a negative repo_err. */
static int
connect_node(struct db *db, size_t idx)
{
	const struct config *cfg = db->cfg;
	unsigned int ct, rt, wt;
	my_bool off = 0;
	const char *host;

	if ((db->conn = mysql_init(NULL)) == NULL)
		return -REPO_ERR_INTERNAL;
	ct = (unsigned)cfg->db_connect_timeout;
	rt = (unsigned)cfg->db_read_timeout;
	wt = (unsigned)cfg->db_write_timeout;
	mysql_options(db->conn, MYSQL_OPT_CONNECT_TIMEOUT, &ct);
	mysql_options(db->conn, MYSQL_OPT_READ_TIMEOUT, &rt);
	mysql_options(db->conn, MYSQL_OPT_WRITE_TIMEOUT, &wt);
	mysql_options(db->conn, MYSQL_OPT_RECONNECT, &off);
	mysql_options(db->conn, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	mysql_options(db->conn, MYSQL_INIT_COMMAND,
	    db->schema->session_init);
	host = cfg->db_socket != NULL ? "localhost" : db->nodes[idx].host;
	if (mysql_real_connect(db->conn, host, cfg->db_user, cfg->db_password,
	    cfg->db_name, db->nodes[idx].port, cfg->db_socket,
	    CLIENT_FOUND_ROWS) == NULL) {
		log_err("db: connect %s: %u %s%s",
		    cfg->db_socket != NULL ? cfg->db_socket : host,
		    mysql_errno(db->conn), mysql_error(db->conn),
		    server_limit_hint(mysql_errno(db->conn)));
		mysql_close(db->conn);
		db->conn = NULL;
		return -REPO_ERR_UNAVAILABLE;
	}
	return 0;
}

/*
 * Tries every node once, starting with the current one; a node that
 * takes the connection but cannot prepare for want of a primary
 * component counts as down.
 */
static int
connect_any(struct db *db)
{
	size_t i, idx;
	int r = -REPO_ERR_UNAVAILABLE;

	for (i = 0; i < db->nnodes; i++) {
		idx = (db->node + i) % db->nnodes;
		if ((r = connect_node(db, idx)) != 0)
			continue;
		db->node = idx;
		if ((r = prepare_at_connect(db)) != 0) {
			disconnect(db);
			if (r == -REPO_ERR_UNAVAILABLE)
				continue;
			return r;
		}
		db->broken = false;
		return 0;
	}
	return r;
}

int
db_open(struct db **out, const struct config *cfg,
    const struct db_schema *schema, enum db_prepare prepare)
{
	struct db *db;
	int r;

	*out = NULL;
	db = xcalloc(1, sizeof(*db));
	db->cfg = cfg;
	db->schema = schema;
	db->prepare = prepare;
	db->stmts = xcalloc(schema->nsets == 0 ? 1 : schema->nsets,
	    sizeof(*db->stmts));
	if ((db->dud_conn = mysql_init(NULL)) == NULL ||
	    (db->dud = mysql_stmt_init(db->dud_conn)) == NULL)
		xoom();
	if (parse_nodes(db, cfg->db_host != NULL ? cfg->db_host : "127.0.0.1",
	    cfg->db_port) != 0) {
		log_err("db: bad db_host list");
		db_close(db);
		return -REPO_ERR_INTERNAL;
	}
	if ((r = connect_any(db)) != 0) {
		db_close(db);
		return r;
	}
	*out = db;
	return 0;
}

void
db_close(struct db *db)
{
	size_t i;

	if (db == NULL)
		return;
	disconnect(db);
	for (i = 0; i < db->nnodes; i++)
		free(db->nodes[i].host);
	for (i = 0; i < DB_CACHE_SLOTS; i++)
		db_cache_set(db, i, NULL, NULL);
	if (db->dud != NULL)
		mysql_stmt_close(db->dud);
	if (db->dud_conn != NULL)
		mysql_close(db->dud_conn);
	free(db->stmts);
	free(db);
}

void *
db_cache(struct db *db, size_t slot)
{
	return slot < DB_CACHE_SLOTS ? db->cache[slot] : NULL;
}

void
db_cache_set(struct db *db, size_t slot, void *p, void (*free_fn)(void *))
{
	if (slot >= DB_CACHE_SLOTS)
		return;
	if (db->cache[slot] != NULL && db->cache_free[slot] != NULL)
		db->cache_free[slot](db->cache[slot]);
	db->cache[slot] = p;
	db->cache_free[slot] = free_fn;
}

MYSQL *
db_conn(struct db *db)
{
	return db->conn;
}

MYSQL_STMT *
db_stmt(struct db *db, size_t m, int idx)
{
	MYSQL_STMT *failed;
	char where[64];

	if (db->stmts[m] != NULL)
		return db->stmts[m][idx];
	if (db->conn == NULL) {
		db->dud_err = -REPO_ERR_CONN;
		return db->dud;
	}
	if (prepare_set(db, m, &failed) == 0)
		return db->stmts[m][idx];
	/* Logged by prepare_set: db_error only classifies (and counts). */
	(void)snprintf(where, sizeof(where), "prepare %s",
	    db->schema->sets[m]->name);
	db->dud_err = classify(db, failed, where, true);
	mysql_stmt_close(failed);
	return db->dud;
}

size_t
db_stmt_count(const struct db *db)
{
	return db->nprepared;
}

size_t
db_schema_stmts(const struct db_schema *schema)
{
	size_t m, n = 0;

	for (m = 0; m < schema->nsets; m++)
		n += schema->sets[m]->n;
	return n;
}

MYSQL_STMT *
db_stmt_sql(struct db *db, const char *sql, const char *where)
{
	struct db_dyn *d, *victim = NULL;
	MYSQL_STMT *st = NULL;
	size_t i;

	for (i = 0; i < DB_DYN_STMTS; i++) {
		d = &db->dyn[i];
		if (d->sql != NULL && strcmp(d->sql, sql) == 0) {
			d->used = ++db->dyn_clock;
			return d->st;
		}
		if (victim == NULL || d->sql == NULL ||
		    (victim->sql != NULL && d->used < victim->used))
			victim = d;
	}
	db->dyn_err = db->conn == NULL ? -REPO_ERR_CONN : -REPO_ERR_INTERNAL;
	if (db->conn == NULL || (st = mysql_stmt_init(db->conn)) == NULL)
		goto fail;
	if (mysql_stmt_prepare(st, sql, strlen(sql)) != 0) {
		db->dyn_err = db_error(db, st, where);
		goto fail;
	}
	if (victim->st != NULL)
		mysql_stmt_close(victim->st);
	free(victim->sql);
	victim->sql = xstrdup(sql);
	victim->st = st;
	victim->used = ++db->dyn_clock;
	return st;
fail:
	if (st != NULL)
		mysql_stmt_close(st);
	return NULL;
}

int
db_stmt_sql_err(const struct db *db)
{
	if (db->broken && db->dyn_err == -REPO_ERR_INTERNAL)
		return -REPO_ERR_CONN;
	return db->dyn_err != 0 ? db->dyn_err : -REPO_ERR_INTERNAL;
}

bool
db_is_broken(const struct db *db)
{
	return db->broken;
}

/*
 * db_error's classification; with logged true the failure was logged
 * already (a prepare), and only its count and effects remain.
 */
static int
classify(struct db *db, MYSQL_STMT *stmt, const char *where, bool logged)
{
	unsigned int e;
	const char *msg;

	if (db->conn == NULL) {
		metrics_db_error(db->metrics);
		db->broken = true;
		return -REPO_ERR_UNAVAILABLE;
	}
	e = stmt != NULL ? mysql_stmt_errno(stmt) : mysql_errno(db->conn);
	msg = stmt != NULL ? mysql_stmt_error(stmt) : mysql_error(db->conn);
	switch (e) {
	case ER_DUP_ENTRY:
	case ER_ROW_IS_REFERENCED_2:	/* 1451: a foreign key refuses */
		return -REPO_ERR_CONFLICT;
	case ER_NO_REFERENCED_ROW_2:	/* 1452: the key's parent is gone */
		return -REPO_ERR_GONE;
	case ER_LOCK_DEADLOCK:
	case ER_LOCK_WAIT_TIMEOUT:
		if (!logged)
			log_info("db: %s: %u %s (will retry)", where, e, msg);
		return -REPO_ERR_DEADLOCK;
	case ER_DATA_TOO_LONG:
	case ER_TRUNCATED_WRONG_VALUE_FOR_FIELD:
	case ER_WARN_DATA_OUT_OF_RANGE:
	case ER_TRUNCATED_WRONG_VALUE:
		return -REPO_ERR_INVALID;
	case CR_SERVER_GONE_ERROR:
	case CR_SERVER_LOST:
	case CR_SERVER_LOST_EXTENDED:
	case CR_COMMANDS_OUT_OF_SYNC:
		if (!logged)
			log_err("db: %s: %u %s", where, e, msg);
		metrics_db_error(db->metrics);
		db->broken = true;
		return -REPO_ERR_CONN;
	case CR_CONNECTION_ERROR:
	case CR_CONN_HOST_ERROR:
	case ER_UNKNOWN_COM_ERROR:	/* 1047: Galera node not ready */
	case ER_ERROR_DURING_COMMIT:	/* 1180: lost the primary component */
		if (!logged)
			log_err("db: %s: %u %s", where, e, msg);
		metrics_db_error(db->metrics);
		db->broken = true;
		db->node = (db->node + 1) % db->nnodes;
		return -REPO_ERR_UNAVAILABLE;
	case ER_MAX_PREPARED_STMT_COUNT_REACHED:
		/*
		 * The server is full, not this connection broken: the call
		 * is refused as the service refuses when it cannot serve
		 * now (608), and the statement is tried again next time.
		 */
		if (!logged)
			log_err("db: %s: %u %s%s", where, e, msg,
			    server_limit_hint(e));
		metrics_db_error(db->metrics);
		return -REPO_ERR_UNAVAILABLE;
	default:
		if (!logged)
			log_err("db: %s: %u %s", where, e, msg);
		metrics_db_error(db->metrics);
		return -REPO_ERR_INTERNAL;
	}
}

int
db_error(struct db *db, MYSQL_STMT *stmt, const char *where)
{
	/* The dud fails for the prepare that could not be done: its error. */
	if (stmt != NULL && stmt == db->dud)
		return db->dud_err;
	return classify(db, stmt, where, false);
}

int
db_ensure(struct db *db)
{
	int r;

	if (!db->broken && db->conn != NULL)
		return 0;
	disconnect(db);
	r = connect_any(db);
	metrics_db_reconnect(db->metrics, r == 0);
	return r;
}

void
db_set_metrics(struct db *db, struct metrics *m)
{
	db->metrics = m;
}

int
db_ping(struct db *db)
{
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	if (mysql_ping(db->conn) != 0)
		return db_error(db, NULL, "ping");
	return 0;
}

/*
 * Whether the server has closed db's idle connection: between requests
 * it sends nothing, so a readable socket holds its goodbye (an error
 * packet, or the end of the stream) after a restart, a kill or
 * wait_timeout.  One poll(2), no round trip.
 */
static bool
closed_by_server(struct db *db)
{
	struct pollfd p;
	my_socket fd;

	if (db->conn == NULL || db->broken)
		return false;
	if ((fd = mysql_get_socket(db->conn)) < 0)
		return true;
	p.fd = (int)fd;
	p.events = POLLIN;
	p.revents = 0;
	return poll(&p, 1, 0) > 0 && p.revents != 0;
}

void
db_revive_idle(struct db *db)
{
	if (db == NULL || !closed_by_server(db))
		return;
	log_info("db: the server closed the idle connection; reconnecting");
	db->broken = true;
	(void)db_ensure(db);	/* failing, it stays broken: see pool.h */
}

int
db_exec(struct db *db, MYSQL_STMT *st, MYSQL_BIND *params, const char *where)
{
	if (params != NULL && mysql_stmt_bind_param(st, params) != 0)
		return db_error(db, st, where);
	if (mysql_stmt_execute(st) != 0)
		return db_error(db, st, where);
	/*
	 * A statement with a result set: the field count says so without
	 * the copy of every column's metadata that
	 * mysql_stmt_result_metadata makes.
	 */
	if (mysql_stmt_field_count(st) > 0 &&
	    mysql_stmt_store_result(st) != 0)
		return db_error(db, st, where);
	return 0;
}

int
db_tx_begin(struct db *db)
{
	if (mysql_real_query(db->conn, db->schema->begin,
	    strlen(db->schema->begin)) != 0)
		return db_error(db, NULL, "begin");
	return 0;
}

int
db_tx_commit(struct db *db)
{
	if (mysql_commit(db->conn) != 0)
		return db_error(db, NULL, "commit");
	return 0;
}

void
db_tx_rollback(struct db *db)
{
	if (db->conn != NULL && !db->broken)
		(void)mysql_rollback(db->conn);
}

/*
 * The pause before run attempt + 1 after a deadlock: from base to twice
 * base milliseconds, base doubling from DB_TX_BACKOFF_MS up to
 * DB_TX_BACKOFF_MAX_MS, so retrying writers spread out.
 */
static long
backoff_ms(int attempt)
{
	long base = DB_TX_BACKOFF_MAX_MS;

	if (attempt < 16 && (DB_TX_BACKOFF_MS << attempt) < base)
		base = DB_TX_BACKOFF_MS << attempt;
	return base + random() % base;
}

static void
sleep_ms(long ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int
db_run_tx(struct db *db, int (*fn)(struct db *, void *), void *arg,
    bool idempotent)
{
	int attempt, r = -REPO_ERR_INTERNAL;
	bool lost_once = false, committing;
	int64_t start = time_mono_ms();
	long pause;

	db->unknown = false;
	for (attempt = 0;; attempt++) {
		committing = false;
		if ((r = db_ensure(db)) != 0)
			break;
		if ((r = db_tx_begin(db)) == 0 && (r = fn(db, arg)) == 0) {
			committing = true;
			r = db_tx_commit(db);
		}
		if (r == 0)
			break;
		db_tx_rollback(db);
		if (r == -REPO_ERR_DEADLOCK) {
			/* Only while the pause ends within the budget. */
			pause = backoff_ms(attempt);
			if (time_mono_ms() + pause - start > DB_TX_BUDGET_MS) {
				log_err("db: a transaction still met deadlocks "
				    "after %d runs in %lld ms; giving up",
				    attempt + 1,
				    (long long)(time_mono_ms() - start));
				metrics_db_deadlock(db->metrics, false);
				break;
			}
			metrics_db_deadlock(db->metrics, true);
			sleep_ms(pause);
			continue;
		}
		/*
		 * A lost connection before COMMIT means nothing was written:
		 * run again once.  Lost during COMMIT, the outcome is unknown
		 * (docs/galera.md): only an idempotent transaction may run again.
		 */
		if (r == -REPO_ERR_CONN && !lost_once &&
		    (!committing || idempotent)) {
			lost_once = true;
			db->unknown = committing;
			continue;
		}
		break;
	}
	db->unknown = false;
	return r;
}

bool
db_tx_outcome_unknown(const struct db *db)
{
	return db->unknown;
}
