/*
 * bench_insert: the write ceiling of tests/bench/run's leads suite (Sync
 * Leads, createOrUpdate by email).  THREADS threads, each with its own
 * MariaDB connection, write batches of 300 leads for SECONDS, each batch
 * in one transaction of two prepared statements:
 *
 *   SELECT id, email FROM <table> WHERE email IN (?, ... x 300)
 *   INSERT INTO <table> (id, email, firstName, lastName, company,
 *	createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?) x 300
 *	ON DUPLICATE KEY UPDATE firstName = VALUES(firstName),
 *	lastName = VALUES(lastName), company = VALUES(company),
 *	updatedAt = VALUES(updatedAt)
 *   COMMIT
 *
 * The SELECT is the lookup any createOrUpdate by email needs (email is
 * not unique in lead); the upsert then writes every row in one statement,
 * keyed by the primary key: id NULL (a new lead, AUTO_INCREMENT) or the
 * id found.  That is the least a server can do to write 300 leads
 * looked up by email: three round trips and one commit per batch.
 * <table> is a copy of lead (same columns and indexes) filled with the
 * same rows as lead, so mauto and the ceiling write to tables of the same
 * size without touching each other's rows.  tests/bench/README explains
 * why not a UNIQUE key on email with INSERT ... ON DUPLICATE KEY UPDATE.
 *
 *   fresh   every row is new: emails n<tag>t<thread>-<seq>@bench.example.com
 *   update  every row exists: thread t walks its own contiguous share of
 *	     lead<0000001..BASE>@bench.example.com (loaded by the runner),
 *	     300 at a time, and changes firstName, lastName, company and
 *	     updatedAt of each; the shares are disjoint, so no two threads
 *	     wait for one another's row locks.
 *
 * The rows have the shape of the bodies tests/bench/leads_sync.lua sends
 * to mauto.  A batch whose lookup finds a different number of leads than
 * expected (0 or 300), or whose affected-row count is not 300 (fresh) or
 * 600 (update: two per changed row), is counted as an error.
 *
 * Modes cofresh and coupdate are the ceiling of the co suite (Sync Custom
 * Objects, createOrUpdate by the dedupe field vin of the type benchCar):
 * <table> is a copy of the type's record table co_rec_<id> (the same
 * columns and unique keys, the same rows), and each batch is one
 * prepared statement and a COMMIT, keyed by the unique dedupe index:
 *
 *   INSERT INTO <table> (year, vin, make, model, marketoGUID, createdAt,
 *	updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?) x 300
 *	ON DUPLICATE KEY UPDATE make = VALUES(make), model = VALUES(model),
 *	year = VALUES(year), updatedAt = VALUES(updatedAt)
 *   COMMIT
 *
 *   cofresh   every vin is new: n<tag>t<thread>-<seq>, a fresh v4-shaped
 *	       marketoGUID per row (the one a create needs)
 *   coupdate  every vin exists: thread t walks its own share of
 *	       vin<0000001..BASE> (loaded by the runner); make, model, year
 *	       and updatedAt change, the marketoGUID stays
 *
 * The rows have the shape of tests/bench/co_sync.lua's records.  A batch
 * whose affected-row count is not 300 (cofresh) or 600 (coupdate) is
 * counted as an error.
 *
 * Modes syncfresh and syncupdate are the leads suite's second ceiling:
 * the rows a Sync Leads request writes, in the statements it writes them
 * with, so that mauto's ratio to it is the cost of mauto's own code
 * rather than of what its semantics write.  Per batch, in one
 * transaction:
 *
 *   INSERT INTO <table>_claim (k) VALUES (?) x 300
 *	ON DUPLICATE KEY UPDATE k = k	(a 64-bit hash of each email, sorted)
 *   SELECT id, email, firstName, lastName, company FROM <table>
 *	WHERE email IN (?, ... x 300)
 *   syncfresh:  INSERT INTO <table> (id, email, ...) VALUES (...) x 300
 *		 RETURNING id
 *		 INSERT INTO <table>_activity (lead_id, activity_type_id,
 *		 activity_date, primary_value_id, primary_value, attributes)
 *		 VALUES (?, ?, UTC_TIMESTAMP(3), ?, ?, ?) x 300
 *		 (New Lead: the lead's id, its full name, the attributes of
 *		 Sync Leads' New Lead)
 *   syncupdate: the upsert by id of mode update, then the same activity
 *		 INSERT x 900 (Change Data Value of firstName, lastName and
 *		 company: the field's id and display name, its old value from
 *		 the SELECT and its new one, Reason and Source)
 *   DELETE c FROM (SELECT ? AS k UNION ALL SELECT ? ... x 300) AS v
 *	STRAIGHT_JOIN <table>_claim AS c FORCE INDEX (PRIMARY) ON c.k = v.k
 *   COMMIT
 *
 * <table>_claim and <table>_activity are copies of lead_claim and
 * activity (CREATE TABLE ... LIKE), made by the runner.  What mauto does
 * beyond this is its own: the locking reads of the matched leads (before
 * and after the update), JSON, per-record results, HTTP.  A batch whose
 * lookup, lead write or activity insert has another count than expected
 * is counted as an error.
 *
 * usage: bench_insert fresh|update|cofresh|coupdate|syncfresh|syncupdate
 *	  table threads seconds tag [base]
 *
 * The database comes from MAUTO_DB_SOCKET, MAUTO_DB_NAME, MAUTO_DB_USER
 * and MAUTO_DB_PASSWORD.  Output, one line in report.lua's format (a
 * "request" is one batch, its latency from the SELECT to the COMMIT):
 * BENCH requests=N seconds=S rps=R p50_us=A p99_us=B max_us=C
 * http_errors=E socket_errors=0 retries=D.  Exit 1 when the setup or a
 * statement fails.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mysql.h>
#include <mysqld_error.h>

#include "util/num.h"

#define INS_ROWS	300
#define INS_COLS	7	/* id, email, firstName, lastName, company, 2 times */
#define INS_STRS	4	/* the string columns, from email on */
#define INS_MAX_THREADS	64
#define INS_MAX_LAT	(1 << 20)	/* batches per thread kept for p99 */
#define INS_STR		64
#define INS_HASH	1024	/* > 2 * INS_ROWS, a power of two */
#define INS_FIELDS	3	/* the fields an update changes */
#define INS_ACTS	(INS_ROWS * INS_FIELDS)	/* activities of a batch */
#define INS_ACOLS	5	/* lead, type, primary id and value, attrs */
#define INS_ATTRS	384
#define INS_SQL_MAX	(1024 + INS_ACTS * 40)
#define INS_TABLE_MAX	48

struct ins_run {
	bool		 update;
	bool		 co;		/* cofresh, coupdate */
	bool		 sync;		/* syncfresh, syncupdate */
	const char	*table;
	int		 threads;
	int64_t		 seconds;
	const char	*tag;
	int64_t		 base;
	struct timespec	 deadline;
	pthread_barrier_t start;
};

/* One thread's connection, statements, bound buffers and results. */
struct ins_thread {
	struct ins_run	*run;
	int		 index;
	MYSQL		*db;
	MYSQL_STMT	*sel;
	MYSQL_STMT	*ups;
	MYSQL_BIND	 sel_par[INS_ROWS];
	MYSQL_BIND	 sel_res[2 + INS_FIELDS];
	MYSQL_BIND	 par[INS_ROWS * INS_COLS];
	int		 id[INS_ROWS];
	my_bool		 id_null[INS_ROWS];
	char		 str[INS_ROWS][INS_STRS][INS_STR];
	unsigned long	 len[INS_ROWS][INS_STRS];
	MYSQL_TIME	 now;
	int		 found_id;	/* the SELECT's result row */
	char		 found_email[INS_STR];
	unsigned long	 found_len;
	char		 found_old[INS_FIELDS][INS_STR];
	unsigned long	 found_old_len[INS_FIELDS];
	/* The sync modes: claims, the ids returned, activities. */
	MYSQL_STMT	*claim_ins;
	MYSQL_STMT	*claim_del;
	MYSQL_STMT	*act;
	MYSQL_BIND	 claim_par[INS_ROWS];
	uint64_t	 claim[INS_ROWS];
	MYSQL_BIND	 ret_res[1];
	int		 ret_id;
	char		 old[INS_ROWS][INS_FIELDS][INS_STR];
	unsigned long	 old_len[INS_ROWS][INS_FIELDS];
	int		 nacts;
	MYSQL_BIND	 act_par[INS_ACTS * INS_ACOLS];
	int64_t		 act_lead[INS_ACTS];
	int		 act_type[INS_ACTS];
	int		 act_pid[INS_ACTS];
	char		 act_pval[INS_ACTS][INS_STR];
	unsigned long	 act_pval_len[INS_ACTS];
	char		 act_attrs[INS_ACTS][INS_ATTRS];
	unsigned long	 act_attrs_len[INS_ACTS];
	char		 new_lead_attrs[INS_ATTRS];
	short		 slot[INS_HASH];	/* email hash -> row + 1 */
	uint32_t	*lat;		/* microseconds per batch */
	int64_t		 batches;
	int64_t		 bad;		/* unexpected lookup or write counts */
	int64_t		 retries;	/* deadlocks, retried */
	int64_t		 seq;
	uint64_t	 rng;		/* xorshift64, for marketoGUIDs */
	int		 failed;
};

static int64_t
elapsed_us(const struct timespec *a, const struct timespec *b)
{
	return (int64_t)(b->tv_sec - a->tv_sec) * 1000000 +
	    (b->tv_nsec - a->tv_nsec) / 1000;
}

static bool
is_past(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline->tv_sec ||
	    (now.tv_sec == deadline->tv_sec &&
	    now.tv_nsec >= deadline->tv_nsec);
}

/* The statements of a batch. */
enum ins_sql {
	INS_SQL_LOOKUP,
	INS_SQL_UPSERT,		/* the lead rows (co: the records) */
	INS_SQL_CLAIM_INS,
	INS_SQL_CLAIM_DEL,
	INS_SQL_ACT
};

/* Appends n copies of group at sql + *off, each after sep but the first. */
static int
add_groups(char *sql, size_t size, size_t *off, int n, const char *sep,
    const char *group)
{
	int i, k;

	for (i = 0; i < n; i++) {
		k = snprintf(sql + *off, size - *off, "%s%s", i ? sep : "",
		    group);
		if (k < 0 || (size_t)k >= size - *off)
			return -1;
		*off += (size_t)k;
	}
	return 0;
}

/* Appends the printf-style text at sql + *off. */
static int
add_text(char *sql, size_t size, size_t *off, const char *fmt, const char *a)
{
	int k = snprintf(sql + *off, size - *off, fmt, a);

	if (k < 0 || (size_t)k >= size - *off)
		return -1;
	*off += (size_t)k;
	return 0;
}

/* The statement which of the run's mode, into sql. */
static int
build_sql(char *sql, size_t size, const struct ins_run *run,
    enum ins_sql which)
{
	const char *t = run->table;
	size_t off = 0;

	switch (which) {
	case INS_SQL_LOOKUP:
		return add_text(sql, size, &off, run->sync ? "SELECT id, "
		    "email, firstName, lastName, company FROM `%s` WHERE "
		    "email IN (" : "SELECT id, email FROM `%s` WHERE "
		    "email IN (", t) != 0 ||
		    add_groups(sql, size, &off, INS_ROWS, ",", "?") != 0 ||
		    add_text(sql, size, &off, "%s", ")") != 0 ? -1 : 0;
	case INS_SQL_UPSERT:
		if (run->co)
			return add_text(sql, size, &off, "INSERT INTO `%s` "
			    "(year, vin, make, model, marketoGUID, createdAt, "
			    "updatedAt) VALUES ", t) != 0 ||
			    add_groups(sql, size, &off, INS_ROWS, ",",
			    "(?,?,?,?,?,?,?)") != 0 ||
			    add_text(sql, size, &off, "%s", " ON DUPLICATE "
			    "KEY UPDATE make = VALUES(make), model = "
			    "VALUES(model), year = VALUES(year), updatedAt = "
			    "VALUES(updatedAt)") != 0 ? -1 : 0;
		return add_text(sql, size, &off, "INSERT INTO `%s` (id, email, "
		    "firstName, lastName, company, createdAt, updatedAt) "
		    "VALUES ", t) != 0 ||
		    add_groups(sql, size, &off, INS_ROWS, ",",
		    "(?,?,?,?,?,?,?)") != 0 ||
		    add_text(sql, size, &off, "%s", run->sync && !run->update ?
		    " RETURNING id" : " ON DUPLICATE KEY UPDATE firstName = "
		    "VALUES(firstName), lastName = VALUES(lastName), company = "
		    "VALUES(company), updatedAt = VALUES(updatedAt)") != 0 ?
		    -1 : 0;
	case INS_SQL_CLAIM_INS:
		return add_text(sql, size, &off, "INSERT INTO `%s_claim` (k) "
		    "VALUES ", t) != 0 ||
		    add_groups(sql, size, &off, INS_ROWS, ",", "(?)") != 0 ||
		    add_text(sql, size, &off, "%s",
		    " ON DUPLICATE KEY UPDATE k = k") != 0 ? -1 : 0;
	case INS_SQL_CLAIM_DEL:
		return add_text(sql, size, &off, "%s", "DELETE c FROM (SELECT "
		    "? AS k") != 0 ||
		    add_groups(sql, size, &off, INS_ROWS - 1, "",
		    " UNION ALL SELECT ?") != 0 ||
		    add_text(sql, size, &off, ") AS v STRAIGHT_JOIN `%s_claim` "
		    "AS c FORCE INDEX (PRIMARY) ON c.k = v.k", t) != 0 ? -1 : 0;
	case INS_SQL_ACT:
		return add_text(sql, size, &off, "INSERT INTO `%s_activity` "
		    "(lead_id, activity_type_id, activity_date, "
		    "primary_value_id, primary_value, attributes) VALUES ",
		    t) != 0 ||
		    add_groups(sql, size, &off, run->update ? INS_ACTS :
		    INS_ROWS, ",", "(?, ?, UTC_TIMESTAMP(3), ?, ?, ?)") != 0 ?
		    -1 : 0;
	}
	return -1;
}

static MYSQL_STMT *
prepare(struct ins_thread *t, enum ins_sql which)
{
	char *q;
	MYSQL_STMT *st = NULL;

	if ((q = malloc(INS_SQL_MAX)) == NULL ||
	    build_sql(q, INS_SQL_MAX, t->run, which) != 0 ||
	    (st = mysql_stmt_init(t->db)) == NULL)
		goto out;
	if (mysql_stmt_prepare(st, q, strlen(q)) != 0) {
		fprintf(stderr, "bench_insert: prepare: %s\n",
		    mysql_stmt_error(st));
		mysql_stmt_close(st);
		st = NULL;
	}
out:
	free(q);
	return st;
}

/* Binds a string column of row to its buffer. */
static void
bind_str(struct ins_thread *t, MYSQL_BIND *b, int row, int col)
{
	b->buffer_type = MYSQL_TYPE_STRING;
	b->buffer = t->str[row][col];
	b->buffer_length = INS_STR;
	b->length = &t->len[row][col];
}

/*
 * Binds the sync modes' claims (both statements read claim[]) and
 * activity rows; the New Lead attributes are the ones Sync Leads writes.
 */
static int
sync_bind(struct ins_thread *t)
{
	MYSQL_BIND *b;
	int i;

	memset(t->claim_par, 0, sizeof(t->claim_par));
	memset(t->act_par, 0, sizeof(t->act_par));
	memset(t->ret_res, 0, sizeof(t->ret_res));
	for (i = 0; i < INS_ROWS; i++) {
		t->claim_par[i].buffer_type = MYSQL_TYPE_LONGLONG;
		t->claim_par[i].buffer = &t->claim[i];
		t->claim_par[i].is_unsigned = 1;
	}
	for (i = 0; i < INS_ACTS; i++) {
		b = &t->act_par[i * INS_ACOLS];
		b[0].buffer_type = MYSQL_TYPE_LONGLONG;
		b[0].buffer = &t->act_lead[i];
		b[1].buffer_type = MYSQL_TYPE_LONG;
		b[1].buffer = &t->act_type[i];
		b[2].buffer_type = MYSQL_TYPE_LONG;
		b[2].buffer = &t->act_pid[i];
		b[3].buffer_type = MYSQL_TYPE_STRING;
		b[3].buffer = t->act_pval[i];
		b[3].buffer_length = INS_STR;
		b[3].length = &t->act_pval_len[i];
		b[4].buffer_type = MYSQL_TYPE_STRING;
		b[4].buffer = t->act_attrs[i];
		b[4].buffer_length = INS_ATTRS;
		b[4].length = &t->act_attrs_len[i];
	}
	t->ret_res[0].buffer_type = MYSQL_TYPE_LONG;
	t->ret_res[0].buffer = &t->ret_id;
	snprintf(t->new_lead_attrs, INS_ATTRS, "{\"Source Type\":\"Web "
	    "service API\",\"API Method Name\":\"syncLead\",\"Modifying "
	    "User\":\"bench\",\"Request Id\":\"%x#%s0000000\"}", t->index,
	    t->run->tag);
	if (mysql_stmt_bind_param(t->claim_ins, t->claim_par) != 0 ||
	    mysql_stmt_bind_param(t->claim_del, t->claim_par) != 0 ||
	    mysql_stmt_bind_param(t->act, t->act_par) != 0) {
		fprintf(stderr, "bench_insert: bind: %s %s\n",
		    mysql_stmt_error(t->claim_ins), mysql_stmt_error(t->act));
		return -1;
	}
	return 0;
}

/* Connects, prepares the statements and binds every placeholder once. */
static int
thread_setup(struct ins_thread *t)
{
	unsigned int timeout = 5;
	MYSQL_BIND *b;
	int row, col;

	if ((t->db = mysql_init(NULL)) == NULL)
		return -1;
	mysql_options(t->db, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	mysql_options(t->db, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	mysql_options(t->db, MYSQL_INIT_COMMAND,
	    "SET SESSION time_zone = '+00:00'");
	if (mysql_real_connect(t->db, NULL, getenv("MAUTO_DB_USER"),
	    getenv("MAUTO_DB_PASSWORD"), getenv("MAUTO_DB_NAME"), 0,
	    getenv("MAUTO_DB_SOCKET"), 0) == NULL) {
		fprintf(stderr, "bench_insert: connect: %s\n",
		    mysql_error(t->db));
		return -1;
	}
	if (mysql_autocommit(t->db, 0) != 0 ||
	    (!t->run->co && (t->sel = prepare(t, INS_SQL_LOOKUP)) == NULL) ||
	    (t->ups = prepare(t, INS_SQL_UPSERT)) == NULL)
		return -1;
	if (t->run->sync && ((t->claim_ins = prepare(t, INS_SQL_CLAIM_INS)) ==
	    NULL || (t->claim_del = prepare(t, INS_SQL_CLAIM_DEL)) == NULL ||
	    (t->act = prepare(t, INS_SQL_ACT)) == NULL ||
	    sync_bind(t) != 0))
		return -1;
	memset(t->sel_par, 0, sizeof(t->sel_par));
	memset(t->sel_res, 0, sizeof(t->sel_res));
	memset(t->par, 0, sizeof(t->par));
	for (row = 0; row < INS_ROWS; row++) {
		bind_str(t, &t->sel_par[row], row, 0);
		b = &t->par[row * INS_COLS];
		b->buffer_type = MYSQL_TYPE_LONG;
		b->buffer = &t->id[row];
		b->is_null = &t->id_null[row];
		for (col = 0; col < INS_STRS; col++)
			bind_str(t, &b[1 + col], row, col);
		for (col = 1 + INS_STRS; col < INS_COLS; col++) {
			b[col].buffer_type = MYSQL_TYPE_DATETIME;
			b[col].buffer = &t->now;
		}
	}
	t->sel_res[0].buffer_type = MYSQL_TYPE_LONG;
	t->sel_res[0].buffer = &t->found_id;
	t->sel_res[1].buffer_type = MYSQL_TYPE_STRING;
	t->sel_res[1].buffer = t->found_email;
	t->sel_res[1].buffer_length = sizeof(t->found_email);
	t->sel_res[1].length = &t->found_len;
	for (col = 0; col < INS_FIELDS; col++) {
		b = &t->sel_res[2 + col];
		b->buffer_type = MYSQL_TYPE_STRING;
		b->buffer = t->found_old[col];
		b->buffer_length = INS_STR;
		b->length = &t->found_old_len[col];
	}
	if ((!t->run->co &&
	    (mysql_stmt_bind_param(t->sel, t->sel_par) != 0 ||
	    mysql_stmt_bind_result(t->sel, t->sel_res) != 0)) ||
	    mysql_stmt_bind_param(t->ups, t->par) != 0) {
		fprintf(stderr, "bench_insert: bind: %s\n",
		    mysql_stmt_error(t->ups));
		return -1;
	}
	return 0;
}

static void
put(struct ins_thread *t, int row, int col, int n)
{
	t->len[row][col] = n < 0 ? 0 : n >= INS_STR ? INS_STR - 1 :
	    (unsigned long)n;
}

/* A 64-bit FNV-1a of an email: its claim in the sync modes. */
static uint64_t
hash64(const char *s, unsigned long n)
{
	uint64_t h = 14695981039346656037ull;
	unsigned long i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* The email's slot in the lookup's email -> row table. */
static unsigned
hash(const char *s, unsigned long n)
{
	return (unsigned)(hash64(s, n) & (INS_HASH - 1));
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Fills the bound buffers with the next batch of this thread. */
static void
fill_batch(struct ins_thread *t)
{
	const struct ins_run *run = t->run;
	struct tm tm;
	time_t now;
	int64_t share, first, k, n;
	unsigned h;
	int row;

	now = time(NULL);
	gmtime_r(&now, &tm);
	memset(&t->now, 0, sizeof(t->now));
	t->now.year = (unsigned)tm.tm_year + 1900;
	t->now.month = (unsigned)tm.tm_mon + 1;
	t->now.day = (unsigned)tm.tm_mday;
	t->now.hour = (unsigned)tm.tm_hour;
	t->now.minute = (unsigned)tm.tm_min;
	t->now.second = (unsigned)tm.tm_sec;
	t->now.time_type = MYSQL_TIMESTAMP_DATETIME;
	share = run->update ? run->base / run->threads : 1;
	first = share * t->index + 1;
	memset(t->slot, 0, sizeof(t->slot));
	for (row = 0; run->co && row < INS_ROWS; row++) {
		uint64_t r[2];
		int i;

		k = t->seq++;
		if (run->update)
			put(t, row, 0, snprintf(t->str[row][0], INS_STR,
			    "vin%07lld", (long long)(first + k % share)));
		else
			put(t, row, 0, snprintf(t->str[row][0], INS_STR,
			    "n%st%d-%lld", run->tag, t->index, (long long)k));
		put(t, row, 1, snprintf(t->str[row][1], INS_STR, "M%s-%lld",
		    run->tag, (long long)k));
		put(t, row, 2, snprintf(t->str[row][2], INS_STR,
		    "Model %s-%lld", run->tag, (long long)k));
		for (i = 0; i < 2; i++) {
			t->rng ^= t->rng << 13;
			t->rng ^= t->rng >> 7;
			t->rng ^= t->rng << 17;
			r[i] = t->rng;
		}
		put(t, row, 3, snprintf(t->str[row][3], INS_STR,
		    "%08x-%04x-4%03x-%04x-%012llx", (unsigned)r[0],
		    (unsigned)(r[0] >> 32) & 0xffff,
		    (unsigned)(r[0] >> 48) & 0xfff,
		    0x8000 | ((unsigned)r[1] & 0x3fff),
		    (unsigned long long)(r[1] >> 16) & 0xffffffffffffull));
		t->id[row] = 2000 + (int)(k % 25);
		t->id_null[row] = 0;
	}
	for (row = 0; !run->co && row < INS_ROWS; row++) {
		k = t->seq++;
		if (run->update) {
			n = first + k % share;
			put(t, row, 0, snprintf(t->str[row][0], INS_STR,
			    "lead%07lld@bench.example.com", (long long)n));
		} else
			put(t, row, 0, snprintf(t->str[row][0], INS_STR,
			    "n%st%d-%lld@bench.example.com", run->tag,
			    t->index, (long long)k));
		put(t, row, 1, snprintf(t->str[row][1], INS_STR, "F%s-%lld",
		    run->tag, (long long)k));
		put(t, row, 2, snprintf(t->str[row][2], INS_STR, "L%s-%lld",
		    run->tag, (long long)k));
		put(t, row, 3, snprintf(t->str[row][3], INS_STR,
		    "Company %s-%lld", run->tag, (long long)k));
		t->id_null[row] = 1;
		h = hash(t->str[row][0], t->len[row][0]);
		while (t->slot[h] != 0)
			h = (h + 1) & (INS_HASH - 1);
		t->slot[h] = (short)(row + 1);
		t->claim[row] = hash64(t->str[row][0], t->len[row][0]);
	}
	if (run->sync)
		qsort(t->claim, INS_ROWS, sizeof(t->claim[0]), cmp_u64);
}

/*
 * The lookup: sets id[] of every row whose email exists; the number of
 * rows found, or -1 with the statement's error.  Emails are compared as
 * the bench writes them (lower case, so the collation changes nothing).
 */
static int
lookup(struct ins_thread *t)
{
	unsigned h;
	int f, rc, row, found = 0;

	if (mysql_stmt_execute(t->sel) != 0)
		return -1;
	while ((rc = mysql_stmt_fetch(t->sel)) == 0) {
		h = hash(t->found_email, t->found_len);
		for (; t->slot[h] != 0; h = (h + 1) & (INS_HASH - 1)) {
			row = t->slot[h] - 1;
			if (t->len[row][0] == t->found_len &&
			    memcmp(t->str[row][0], t->found_email,
			    t->found_len) == 0) {
				t->id[row] = t->found_id;
				t->id_null[row] = 0;
				for (f = 0; f < INS_FIELDS; f++) {
					memcpy(t->old[row][f],
					    t->found_old[f], INS_STR);
					t->old_len[row][f] =
					    t->found_old_len[f] < INS_STR ?
					    t->found_old_len[f] : INS_STR - 1;
				}
				found++;
				break;
			}
		}
	}
	mysql_stmt_free_result(t->sel);
	return rc == MYSQL_NO_DATA ? found : -1;
}

/*
 * The activity rows of a batch after its lead write: New Lead for each
 * new lead (its id, its full name), or Change Data Value for each field
 * an update changed (the catalogue's id and display name of firstName,
 * lastName and company, migration 0004); the number that did not change
 * (0 in a sound run).
 */
static int
fill_acts(struct ins_thread *t)
{
	static const int pid[INS_FIELDS] = { 53, 55, 4 };
	static const char *const pname[INS_FIELDS] = { "First Name",
	    "Last Name", "Company Name" };
	int row, f, n, i = 0, same = 0;

	for (row = 0; row < INS_ROWS; row++) {
		if (!t->run->update) {
			t->act_lead[i] = t->id[row];
			t->act_pid[i] = t->id[row];
			t->act_type[i] = 12;
			n = snprintf(t->act_pval[i], INS_STR, "%.*s %.*s",
			    (int)t->len[row][1], t->str[row][1],
			    (int)t->len[row][2], t->str[row][2]);
			t->act_pval_len[i] = n < 0 ? 0 : n >= INS_STR ?
			    INS_STR - 1 : (unsigned long)n;
			t->act_attrs_len[i] = (unsigned long)snprintf(
			    t->act_attrs[i], INS_ATTRS, "%s", t->new_lead_attrs);
			i++;
			continue;
		}
		for (f = 0; f < INS_FIELDS; f++, i++) {
			if (t->old_len[row][f] == t->len[row][f + 1] &&
			    memcmp(t->old[row][f], t->str[row][f + 1],
			    t->old_len[row][f]) == 0)
				same++;
			t->act_lead[i] = t->id[row];
			t->act_pid[i] = pid[f];
			t->act_type[i] = 13;
			t->act_pval_len[i] = (unsigned long)snprintf(
			    t->act_pval[i], INS_STR, "%s", pname[f]);
			n = snprintf(t->act_attrs[i], INS_ATTRS, "{\"New Value\":"
			    "\"%.*s\",\"Old Value\":\"%.*s\",\"Reason\":\"Web "
			    "service API\",\"Source\":\"Web service API\"}",
			    (int)t->len[row][f + 1], t->str[row][f + 1],
			    (int)t->old_len[row][f], t->old[row][f]);
			t->act_attrs_len[i] = n < 0 ? 0 : n >= INS_ATTRS ?
			    INS_ATTRS - 1 : (unsigned long)n;
		}
	}
	t->nacts = i;
	return same;
}

/*
 * A sync mode's statements up to the COMMIT: *found leads looked up,
 * *written lead rows (the ids returned, or the upsert's affected rows),
 * *bad activities that did not change or were not all inserted.
 */
static int
sync_batch(struct ins_thread *t, int *found, int64_t *written, int *bad)
{
	int rc;

	*written = 0;
	if (mysql_stmt_execute(t->claim_ins) != 0 ||
	    (*found = lookup(t)) < 0 || mysql_stmt_execute(t->ups) != 0)
		return -1;
	if (t->run->update)
		*written = (int64_t)mysql_stmt_affected_rows(t->ups);
	else {
		if (mysql_stmt_bind_result(t->ups, t->ret_res) != 0)
			return -1;
		while ((rc = mysql_stmt_fetch(t->ups)) == 0)
			if (*written < INS_ROWS)
				t->id[(*written)++] = t->ret_id;
		mysql_stmt_free_result(t->ups);
		if (rc != MYSQL_NO_DATA)
			return -1;
	}
	*bad = fill_acts(t);
	if (mysql_stmt_execute(t->act) != 0 ||
	    mysql_stmt_execute(t->claim_del) != 0)
		return -1;
	if (mysql_stmt_affected_rows(t->act) != (my_ulonglong)t->nacts)
		(*bad)++;
	return 0;
}

/* Whether the failed batch met a deadlock (then it is retried). */
static bool
is_deadlock(struct ins_thread *t)
{
	MYSQL_STMT *st[] = { t->sel, t->ups, t->claim_ins, t->claim_del,
	    t->act };
	size_t i;

	if (mysql_errno(t->db) == ER_LOCK_DEADLOCK)
		return true;
	for (i = 0; i < sizeof(st) / sizeof(st[0]); i++)
		if (st[i] != NULL && mysql_stmt_errno(st[i]) ==
		    ER_LOCK_DEADLOCK)
			return true;
	return false;
}

/* One batch: its statements, commit; a deadlock rolls back and retries. */
static int
run_batch(struct ins_thread *t)
{
	int64_t want, written;
	int found, bad = 0;
	bool ok;

	want = t->run->update ? 2 * INS_ROWS : INS_ROWS;
	for (;;) {
		found = t->run->update && t->run->co ? INS_ROWS : 0;
		written = 0;
		if (t->run->sync)
			ok = sync_batch(t, &found, &written, &bad) == 0 &&
			    mysql_commit(t->db) == 0;
		else {
			ok = (t->run->co || (found = lookup(t)) >= 0) &&
			    mysql_stmt_execute(t->ups) == 0 &&
			    mysql_commit(t->db) == 0;
			written = (int64_t)mysql_stmt_affected_rows(t->ups);
		}
		if (ok)
			break;
		if (!is_deadlock(t)) {
			fprintf(stderr, "bench_insert: %s %s %s %s %s\n",
			    t->sel != NULL ? mysql_stmt_error(t->sel) : "",
			    mysql_stmt_error(t->ups),
			    t->claim_ins != NULL ?
			    mysql_stmt_error(t->claim_ins) : "",
			    t->act != NULL ? mysql_stmt_error(t->act) : "",
			    mysql_error(t->db));
			return -1;
		}
		mysql_rollback(t->db);
		t->retries++;
	}
	if (found != (t->run->update ? INS_ROWS : 0) || written != want ||
	    bad != 0)
		t->bad++;
	return 0;
}

/* Runs batches until the deadline; a failed statement ends the thread. */
static void *
thread_main(void *arg)
{
	struct ins_thread *t = arg;
	struct timespec a, b;

	pthread_barrier_wait(&t->run->start);
	if (t->failed)
		return NULL;
	while (!is_past(&t->run->deadline)) {
		fill_batch(t);
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (run_batch(t) != 0) {
			t->failed = 1;
			return NULL;
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (t->batches < INS_MAX_LAT)
			t->lat[t->batches] = (uint32_t)elapsed_us(&a, &b);
		t->batches++;
	}
	return NULL;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int
parse_args(struct ins_run *run, int argc, char **argv)
{
	const char *p;

	if (argc < 6 || argc > 7)
		goto usage;
	if (strcmp(argv[1], "fresh") == 0)
		run->update = false;
	else if (strcmp(argv[1], "update") == 0)
		run->update = true;
	else if (strcmp(argv[1], "cofresh") == 0)
		run->co = true;
	else if (strcmp(argv[1], "coupdate") == 0)
		run->update = run->co = true;
	else if (strcmp(argv[1], "syncfresh") == 0)
		run->sync = true;
	else if (strcmp(argv[1], "syncupdate") == 0)
		run->update = run->sync = true;
	else
		goto usage;
	run->table = argv[2];
	if (strlen(run->table) == 0 || strlen(run->table) > INS_TABLE_MAX)
		goto usage;
	for (p = run->table; *p != '\0'; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			goto usage;
	if (num_parse_i64(argv[3], 1, INS_MAX_THREADS, &run->base) != 0)
		goto usage;
	run->threads = (int)run->base;
	if (num_parse_i64(argv[4], 1, 3600, &run->seconds) != 0)
		goto usage;
	run->tag = argv[5];
	for (p = run->tag; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			goto usage;
	if (strlen(run->tag) == 0 || strlen(run->tag) > 12)
		goto usage;
	run->base = 0;
	if (run->update && (argc != 7 || num_parse_i64(argv[6],
	    INS_ROWS * (int64_t)run->threads, INT32_MAX, &run->base) != 0))
		goto usage;
	return 0;
usage:
	fprintf(stderr, "usage: bench_insert fresh|update|cofresh|coupdate|"
	    "syncfresh|syncupdate table threads seconds tag [base]\n"
	    "  table [A-Za-z0-9_]{1,%d}, threads 1..%d, tag [a-z0-9]{1,12}; "
	    "update, coupdate and syncupdate need base >= 300 * threads (the "
	    "rows lead0000001..base@bench.example.com or vin0000001..base)\n",
	    INS_TABLE_MAX, INS_MAX_THREADS);
	return -1;
}

int
main(int argc, char **argv)
{
	struct ins_run run;
	struct ins_thread *th = NULL;
	pthread_t tid[INS_MAX_THREADS];
	struct timespec t0, t1;
	uint32_t *all = NULL;
	int64_t batches = 0, bad = 0, retries = 0, kept = 0, n;
	double secs;
	int i, started = 0, r = 1;

	memset(&run, 0, sizeof(run));
	if (parse_args(&run, argc, argv) != 0 ||
	    mysql_library_init(0, NULL, NULL) != 0)
		return 1;
	if ((th = calloc((size_t)run.threads, sizeof(*th))) == NULL)
		goto out;
	pthread_barrier_init(&run.start, NULL, (unsigned)run.threads + 1);
	for (i = 0; i < run.threads; i++) {
		th[i].run = &run;
		th[i].index = i;
		th[i].rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)(i + 1) << 32) ^
		    (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
		if ((th[i].lat = malloc(INS_MAX_LAT * sizeof(uint32_t))) ==
		    NULL || thread_setup(&th[i]) != 0)
			th[i].failed = 1;
	}
	for (i = 0; i < run.threads; i++) {
		if (pthread_create(&tid[i], NULL, thread_main, &th[i]) != 0)
			break;
		started++;
	}
	if (started < run.threads) {
		fprintf(stderr, "bench_insert: pthread_create failed\n");
		exit(1);	/* the started threads wait at the barrier */
	}
	/* The deadline is set before the threads pass the barrier. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run.deadline = t0;
	run.deadline.tv_sec += run.seconds;
	pthread_barrier_wait(&run.start);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (i = 0; i < run.threads; i++) {
		if (th[i].failed)
			goto out;
		batches += th[i].batches;
		bad += th[i].bad;
		retries += th[i].retries;
	}
	if ((all = malloc((size_t)(batches > 0 ? batches : 1) *
	    sizeof(uint32_t))) == NULL)
		goto out;
	for (i = 0; i < run.threads; i++) {
		n = th[i].batches < INS_MAX_LAT ? th[i].batches : INS_MAX_LAT;
		memcpy(all + kept, th[i].lat, (size_t)n * sizeof(uint32_t));
		kept += n;
	}
	qsort(all, (size_t)kept, sizeof(uint32_t), cmp_u32);
	secs = (double)elapsed_us(&t0, &t1) / 1e6;
	printf("BENCH requests=%lld seconds=%.3f rps=%.1f p50_us=%u "
	    "p99_us=%u max_us=%u http_errors=%lld socket_errors=0 "
	    "retries=%lld\n", (long long)batches, secs,
	    (double)batches / secs,
	    kept > 0 ? all[(kept - 1) / 2] : 0,
	    kept > 0 ? all[(kept * 99 + 99) / 100 - 1] : 0,
	    kept > 0 ? all[kept - 1] : 0, (long long)bad,
	    (long long)retries);
	r = 0;
out:
	if (th != NULL)
		for (i = 0; i < run.threads; i++) {
			if (th[i].sel != NULL)
				mysql_stmt_close(th[i].sel);
			if (th[i].ups != NULL)
				mysql_stmt_close(th[i].ups);
			if (th[i].claim_ins != NULL)
				mysql_stmt_close(th[i].claim_ins);
			if (th[i].claim_del != NULL)
				mysql_stmt_close(th[i].claim_del);
			if (th[i].act != NULL)
				mysql_stmt_close(th[i].act);
			if (th[i].db != NULL)
				mysql_close(th[i].db);
			free(th[i].lat);
		}
	free(th);
	free(all);
	mysql_library_end();
	return r;
}
