/*
 * The instance-wide limits (docs/behaviour.md §4): 606 rate, 615
 * concurrency, 607 daily quota.
 *
 * Design.  The master maps one struct lim_shared (MAP_SHARED |
 * MAP_ANONYMOUS) before it forks, so every worker of a host sees the same
 * counters at the cost of one uncontended mutex.  The mutex is
 * process-shared and ROBUST: a worker killed while holding it makes the
 * next locker get EOWNERDEAD, repair the state (lim_repair) and mark it
 * consistent, instead of every worker hanging.
 *
 * - Rate: a ring of the admission times (monotonic clock, milliseconds)
 *   of the last rate_limit_calls admitted calls, oldest first.  A call is
 *   admitted when fewer than rate_limit_calls calls were admitted in
 *   (now - window, now].  On one host this is exact to the clock's
 *   resolution (1 ms): no bucketing error at all.
 * - Concurrency: each worker process owns a slot (found by pid) holding
 *   its calls in flight, plus a host total.  The slot of a process that
 *   died mid-request is reclaimed (kill(pid, 0) says ESRCH) by the next
 *   sync or the next refusal, so a crash cannot leak in-flight counts for
 *   longer than one sync interval.
 * - Daily quota: calls admitted on the current US Central day (00:00
 *   America/Chicago, DST computed here without tzdata); the count restarts
 *   when the day key changes.
 * Refused calls are counted nowhere.  Checks run quota, rate, concurrency.
 *
 * Several hosts.  Every limits_sync_ms, the one worker that wins a CAS on
 * next_sync_ms upserts this host's own row (window count, in flight, day,
 * day count) and reads the sums of the other hosts' fresh rows (updated
 * within LIMITER_FRESH_INTERVALS intervals, by the database's clock) and
 * the auth epoch.  Admission compares local exact counts plus the last
 * remote sums with the limit.  No request ever waits for the database.
 *
 * How far over a limit a burst can get: with one host, never (exact).
 * With H hosts, a host only learns of the others' calls at its next sync,
 * and they of its calls at theirs; so within one sync interval plus the
 * age of the rows read (at most about two intervals) each host may admit
 * up to the whole remaining allowance.  Worst case about H x the limit in
 * that period (each host alone admits at most the limit), and for the
 * rate limit the excess drains within one window.  The daily quota is off
 * by at most what the hosts admit in about two sync intervals.
 *
 * Statistics.  The same shared state counts the calls of each API
 * client and the error codes answered (limiter_release_call,
 * limiter_count_error) in LIMITER_STAT_SLOTS slots keyed by day, kind
 * and item; each sync adds the counts to this host's rows of
 * api_stats_host, all in one transaction, and takes them off the
 * slots, so a request never waits for the database for them either.  One
 * process flushes at a time (stats_flusher, taken over when that process
 * died), so no count is written twice.
 *
 * Galera (docs/galera.md): each host writes only its own row (no conflicts),
 * no GET_LOCK or LOCK TABLES, InnoDB table with a primary key.
 * A host adopts its own row's day count once after a restart so a
 * restarted master does not forget today's calls.  Two hosts must not
 * share a host_id.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "auth/ratelimit.h"
#include "err.h"
#include "bounds.h"
#include "repo/repo.h"
#include "repo/repo_auth.h"
#include "repo/repo_limits.h"
#include "repo/repo_stats.h"
#include "util/config.h"
#include "util/log.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

/* One worker process's calls in flight. */
struct lim_slot {
	pid_t		 pid;		/* 0: free */
	int32_t		 inflight;
};

/*
 * Wrong client secrets given for one client id (see bounds.h), and the
 * digest of the secret last verified for it.
 */
struct auth_fail {
	char		 client_id[AUTH_FAIL_ID_BYTES + 1];	/* "": free */
	int64_t		 first_ms;	/* first failure of the window */
	int64_t		 locked_until_ms;
	int32_t		 count;
	bool		 has_good;
	unsigned char	 good[AUTH_DIGEST_BYTES];
};

/* The state shared by a host's processes (one mapping, made before fork). */
struct lim_shared {
	pthread_mutex_t	 mu;
	/* Rate: admission times (ms), oldest at head; cap entries. */
	uint32_t	 head;
	uint32_t	 count;
	/* Concurrency: host total and per-process slots. */
	int64_t		 inflight;
	struct lim_slot	 slots[MAX_WORKERS];
	/* Daily quota. */
	int32_t		 day_key;
	int64_t		 day_count;
	/* The other hosts, as the last sync read them. */
	int64_t		 remote_window;
	int64_t		 remote_inflight;
	int64_t		 remote_day;
	int32_t		 remote_day_key;
	bool		 seeded;	/* own row's day count adopted */
	bool		 sync_failing;	/* log a failing sync once */
	_Atomic int64_t	 next_sync_ms;
	_Atomic uint64_t auth_epoch;
	struct auth_fail auth_fails[AUTH_FAIL_SLOTS];
	unsigned char	 auth_key[AUTH_DIGEST_BYTES];	/* random, per host */
	/* Statistics: slots [0, stats_used) are in use. */
	uint32_t	 stats_used;
	int64_t		 stats_dropped;	/* counts that found no slot */
	int32_t		 stats_pruned;	/* day key of the last pruning */
	_Atomic pid_t	 stats_flusher;	/* 0: no flush running */
	struct stats_row stats[LIMITER_STAT_SLOTS];	/* not yet written */
	int64_t		 ring[];	/* cap admission times */
};

/* The per-process handle (copied into each worker by fork). */
struct limiter {
	struct lim_shared	*sh;
	size_t			 maplen;
	uint32_t		 cap;		/* ring entries: rate_calls */
	int			 rate_calls;
	int64_t			 window_ms;
	int			 concurrency;
	int64_t			 daily;
	int64_t			 sync_ms;
	char			 host[MAX_HOST_ID_BYTES + 1];
	int64_t			(*mono_ms)(void);
	int64_t			(*wall_s)(void);
	pid_t			 slot_pid;	/* process the slot belongs to */
	int			 slot;		/* -1: none */
};

/*
 * This process's id.  limiter_admit and limiter_release ask for it on
 * every call and getpid() is a system call, so it is kept; a child made by
 * fork() forgets it (the handler pthread_atfork runs in the child) and
 * asks again, so a worker never takes its parent's slot for its own.  0:
 * not known yet.  mautod's processes have one thread each.
 */
static pid_t self_pid_kept;
static bool self_pid_watched;	/* the fork handler is in place */
static pthread_once_t self_pid_once = PTHREAD_ONCE_INIT;

static void
self_pid_forget(void)
{
	self_pid_kept = 0;
}

static void
self_pid_watch_forks(void)
{
	self_pid_watched = pthread_atfork(NULL, NULL, self_pid_forget) == 0;
}

/* getpid(), without the system call after the first time. */
static pid_t
self_pid(void)
{
	/* The handler is in place before this process keeps its id. */
	(void)pthread_once(&self_pid_once, self_pid_watch_forks);
	if (!self_pid_watched)
		return getpid();
	if (self_pid_kept == 0)
		self_pid_kept = getpid();
	return self_pid_kept;
}

static int64_t
sys_mono_ms(void)
{
	return time_mono_ms();
}

static int64_t
sys_wall_s(void)
{
	return (int64_t)time(NULL);
}

/* The first Sunday on or after y-m-d, as a day number. */
static int64_t
sunday_on_or_after(int64_t y, int m, int d)
{
	int64_t z, wd;

	z = time_days_from_civil(y, m, d);
	/* 1970-01-01 was a Thursday (4); 0 is Sunday. */
	wd = z >= -4 ? (z + 4) % 7 : (z + 5) % 7 + 6;
	return z + (7 - wd) % 7;
}

#define CST_OFFSET	(-6 * 3600)
#define CDT_OFFSET	(-5 * 3600)

/*
 * See ratelimit.h.  DST starts on the second Sunday of March at 02:00
 * CST (08:00 UTC) and ends on the first Sunday of November at 02:00 CDT
 * (07:00 UTC), the rule of the Energy Policy Act of 2005.
 */
int32_t
limiter_day_key(int64_t t)
{
	int64_t y, start, end, local, days;
	int m, d;

	/* The year of the standard-time date; DST never spans New Year. */
	days = (t + CST_OFFSET) / 86400 - ((t + CST_OFFSET) % 86400 < 0);
	time_civil_from_days(days, &y, &m, &d);
	start = sunday_on_or_after(y, 3, 8) * 86400 + 8 * 3600;
	end = sunday_on_or_after(y, 11, 1) * 86400 + 7 * 3600;
	local = t + (t >= start && t < end ? CDT_OFFSET : CST_OFFSET);
	days = local / 86400 - (local % 86400 < 0);
	time_civil_from_days(days, &y, &m, &d);
	return (int32_t)(y * 10000 + m * 100 + d);
}

/* See ratelimit.h. */
int32_t
limiter_day_key_add(int32_t key, int days)
{
	int64_t y;
	int m, d;

	time_civil_from_days(time_days_from_civil(key / 10000,
	    key / 100 % 100, key % 100) + days, &y, &m, &d);
	return (int32_t)(y * 10000 + m * 100 + d);
}

/* Whether a process exists (a zombie counts as gone once reaped). */
static bool
is_alive(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH);
}

/* Drops the in-flight counts of slots whose process is gone. */
static void
lim_reclaim(struct limiter *lim)
{
	struct lim_shared *sh = lim->sh;
	size_t i;

	for (i = 0; i < MAX_WORKERS; i++) {
		if (sh->slots[i].pid == 0 || is_alive(sh->slots[i].pid))
			continue;
		sh->inflight -= sh->slots[i].inflight;
		sh->slots[i].pid = 0;
		sh->slots[i].inflight = 0;
	}
	if (sh->inflight < 0)
		sh->inflight = 0;
}

/*
 * Puts the state back into shape after a process died holding the lock:
 * indexes in range, the in-flight total recomputed from the live slots.
 */
static void
lim_repair(struct limiter *lim)
{
	struct lim_shared *sh = lim->sh;
	size_t i;
	int64_t total = 0;

	if (lim->cap == 0 || sh->head >= lim->cap)
		sh->head = 0;
	if (sh->count > lim->cap)
		sh->count = lim->cap;
	lim_reclaim(lim);
	for (i = 0; i < MAX_WORKERS; i++) {
		if (sh->slots[i].inflight < 0)
			sh->slots[i].inflight = 0;
		total += sh->slots[i].inflight;
	}
	sh->inflight = total;
}

static int
lim_lock(struct limiter *lim)
{
	int e;

	e = pthread_mutex_lock(&lim->sh->mu);
	if (e == EOWNERDEAD) {
		log_warn("limiter: a process died holding the lock; "
		    "repairing the shared state");
		lim_repair(lim);
		e = pthread_mutex_consistent(&lim->sh->mu);
	}
	if (e != 0)
		log_err("limiter: pthread_mutex_lock: %s", strerror(e));
	return e;
}

static void
lim_unlock(struct limiter *lim)
{
	pthread_mutex_unlock(&lim->sh->mu);
}

/* Forgets admissions at or before now - window (locked). */
static void
ring_expire(struct limiter *lim, int64_t now)
{
	struct lim_shared *sh = lim->sh;

	while (sh->count > 0 && sh->ring[sh->head] <= now - lim->window_ms) {
		sh->head = (sh->head + 1) % lim->cap;
		sh->count--;
	}
}

/* Records an admission at now (locked; the caller checked the room). */
static void
ring_push(struct limiter *lim, int64_t now)
{
	struct lim_shared *sh = lim->sh;

	if (sh->count == lim->cap) {
		/* lim_check saw count < cap; this only guards the ring. */
		sh->head = (sh->head + 1) % lim->cap;
		sh->count--;
	}
	sh->ring[(sh->head + sh->count) % lim->cap] = now;
	sh->count++;
}

/* Starts a new quota day when the Central date moved on (locked). */
static void
day_roll(struct limiter *lim, int32_t key)
{
	struct lim_shared *sh = lim->sh;

	if (sh->day_key != key) {
		sh->day_key = key;
		sh->day_count = 0;
	}
}

/*
 * Finds this process's slot (locked): a slot left by a dead process
 * with the same pid is taken over with its count dropped, else a free
 * one, else one whose process is gone.  Sets lim->slot (-1 when all
 * MAX_WORKERS slots belong to live processes).
 */
static void
slot_acquire(struct limiter *lim, pid_t me)
{
	struct lim_shared *sh = lim->sh;
	int i, found = -1;

	for (i = 0; i < MAX_WORKERS && found < 0; i++)
		if (sh->slots[i].pid == me)
			found = i;
	for (i = 0; i < MAX_WORKERS && found < 0; i++)
		if (sh->slots[i].pid == 0)
			found = i;
	if (found < 0) {
		lim_reclaim(lim);
		for (i = 0; i < MAX_WORKERS && found < 0; i++)
			if (sh->slots[i].pid == 0)
				found = i;
	}
	if (found >= 0) {
		sh->inflight -= sh->slots[found].inflight;
		sh->slots[found].pid = me;
		sh->slots[found].inflight = 0;
	} else
		log_warn("limiter: no free worker slot; in-flight counts "
		    "of this process are not crash-safe");
	lim->slot = found;
	lim->slot_pid = me;
}

/* The first limit the next call would break (locked), or 0. */
static int
lim_check(struct limiter *lim, int64_t now)
{
	struct lim_shared *sh = lim->sh;
	int64_t remote_day;
	int r = 0;

	remote_day = sh->remote_day_key == sh->day_key ? sh->remote_day : 0;
	if (lim->rate_calls > 0)
		ring_expire(lim, now);
	if (lim->daily > 0 && sh->day_count + remote_day >= lim->daily)
		r = -API_ERR_DAILY_QUOTA;
	else if (lim->rate_calls > 0 &&
	    (int64_t)sh->count + sh->remote_window >= lim->rate_calls)
		r = -API_ERR_RATE_LIMIT;
	else if (lim->concurrency > 0 &&
	    sh->inflight + sh->remote_inflight >= lim->concurrency) {
		/* Before refusing, make sure no dead worker holds a count. */
		lim_reclaim(lim);
		if (sh->inflight + sh->remote_inflight >= lim->concurrency)
			r = -API_ERR_CONCURRENCY;
	}
	return r;
}

/*
 * Master, before fork: maps and initialises the shared state from the
 * limit keys of cfg (0 switches a limit off; negative values count as
 * 0).  Returns an owned handle for limiter_destroy, or NULL after
 * logging why (mmap or mutex failure, rate_limit_calls too large).
 */
struct limiter *
limiter_create(const struct config *cfg)
{
	struct limiter *lim = NULL, *ret = NULL;
	pthread_mutexattr_t ma;
	bool ma_init = false;
	void *p;
	int e;

	if (cfg->rate_limit_calls > LIMITER_MAX_RATE_CALLS) {
		log_err("limiter: rate_limit_calls %d is above %d",
		    cfg->rate_limit_calls, LIMITER_MAX_RATE_CALLS);
		goto out;
	}
	lim = xcalloc(1, sizeof(*lim));
	lim->rate_calls = cfg->rate_limit_calls > 0 &&
	    cfg->rate_limit_window > 0 ? cfg->rate_limit_calls : 0;
	lim->cap = (uint32_t)lim->rate_calls;
	lim->window_ms = (int64_t)cfg->rate_limit_window * 1000;
	lim->concurrency = cfg->concurrency_limit > 0 ?
	    cfg->concurrency_limit : 0;
	lim->daily = cfg->daily_quota > 0 ? cfg->daily_quota : 0;
	lim->sync_ms = cfg->limits_sync_ms > 0 ? cfg->limits_sync_ms : 0;
	lim->mono_ms = sys_mono_ms;
	lim->wall_s = sys_wall_s;
	lim->slot = -1;
	if (cfg->host_id != NULL && cfg->host_id[0] != '\0')
		snprintf(lim->host, sizeof(lim->host), "%s", cfg->host_id);
	else if (gethostname(lim->host, sizeof(lim->host) - 1) != 0)
		snprintf(lim->host, sizeof(lim->host), "localhost");
	lim->maplen = sizeof(struct lim_shared) +
	    (size_t)lim->cap * sizeof(int64_t);
	p = mmap(NULL, lim->maplen, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		log_err("limiter: mmap %zu bytes: %s", lim->maplen,
		    strerror(errno));
		goto out;
	}
	lim->sh = p;	/* zero-filled by the kernel */
	if ((e = pthread_mutexattr_init(&ma)) != 0)
		goto mutex_err;
	ma_init = true;
	if ((e = pthread_mutexattr_setpshared(&ma,
	    PTHREAD_PROCESS_SHARED)) != 0 ||
	    (e = pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST)) != 0 ||
	    (e = pthread_mutex_init(&lim->sh->mu, &ma)) != 0)
		goto mutex_err;
	atomic_init(&lim->sh->next_sync_ms, 0);
	atomic_init(&lim->sh->auth_epoch, 0);
	atomic_init(&lim->sh->stats_flusher, 0);
	if (getrandom(lim->sh->auth_key, sizeof(lim->sh->auth_key), 0) !=
	    (ssize_t)sizeof(lim->sh->auth_key)) {
		log_err("limiter: getrandom: %s", strerror(errno));
		goto out;
	}
	ret = lim;
	lim = NULL;
	goto out;
mutex_err:
	log_err("limiter: mutex setup: %s", strerror(e));
out:
	if (ma_init)
		pthread_mutexattr_destroy(&ma);
	limiter_destroy(lim);
	return ret;
}

/*
 * Unmaps the shared state and frees the handle; accepts NULL.  Call it
 * in the master after the workers are gone (each worker's copy of the
 * handle dies with the worker).
 */
void
limiter_destroy(struct limiter *lim)
{
	if (lim == NULL)
		return;
	if (lim->sh != NULL)
		munmap(lim->sh, lim->maplen);
	free(lim);
}

/* See ratelimit.h. */
void
limiter_set_clock(struct limiter *lim, int64_t (*mono_ms)(void),
    int64_t (*wall_s)(void))
{
	lim->mono_ms = mono_ms != NULL ? mono_ms : sys_mono_ms;
	lim->wall_s = wall_s != NULL ? wall_s : sys_wall_s;
}

/*
 * The slot of client_id (locked): its own, or, when make, a free one or
 * the one whose window began longest ago, reset for it.  NULL when
 * absent and !make.
 */
static struct auth_fail *
auth_slot(struct limiter *lim, const char *client_id, bool make)
{
	struct auth_fail *f, *oldest = NULL;
	size_t i;

	for (i = 0; i < AUTH_FAIL_SLOTS; i++) {
		f = &lim->sh->auth_fails[i];
		if (strcmp(f->client_id, client_id) == 0 && f->client_id[0])
			return f;
		if (oldest == NULL || f->client_id[0] == '\0' ||
		    (oldest->client_id[0] != '\0' &&
		    f->first_ms < oldest->first_ms))
			oldest = f;
	}
	if (!make)
		return NULL;
	memset(oldest, 0, sizeof(*oldest));
	snprintf(oldest->client_id, sizeof(oldest->client_id), "%s",
	    client_id);
	return oldest;
}

/* See ratelimit.h. */
const unsigned char *
limiter_auth_key(const struct limiter *lim)
{
	return lim != NULL ? lim->sh->auth_key : NULL;
}

/* See ratelimit.h. */
bool
limiter_auth_locked(struct limiter *lim, const char *client_id,
    const unsigned char *digest)
{
	struct auth_fail *f;
	bool locked = false;

	if (lim == NULL || client_id == NULL || lim_lock(lim) != 0)
		return false;
	if ((f = auth_slot(lim, client_id, false)) != NULL)
		locked = lim->mono_ms() < f->locked_until_ms &&
		    !(f->has_good && digest != NULL &&
		    memcmp(f->good, digest, AUTH_DIGEST_BYTES) == 0);
	lim_unlock(lim);
	return locked;
}

/* See ratelimit.h. */
bool
limiter_auth_failed(struct limiter *lim, const char *client_id)
{
	struct auth_fail *f;
	int64_t now;
	bool locked = false;

	if (lim == NULL || client_id == NULL || lim_lock(lim) != 0)
		return false;
	now = lim->mono_ms();
	f = auth_slot(lim, client_id, true);
	if (f->count == 0 || now - f->first_ms >= AUTH_FAIL_WINDOW_MS) {
		f->first_ms = now;
		f->count = 0;
	}
	if (++f->count >= AUTH_FAIL_MAX && now >= f->locked_until_ms) {
		f->locked_until_ms = now + AUTH_LOCK_MS;
		f->count = 0;
		locked = true;
	}
	lim_unlock(lim);
	return locked;
}

/* See ratelimit.h. */
void
limiter_auth_succeeded(struct limiter *lim, const char *client_id,
    const unsigned char *digest)
{
	struct auth_fail *f;

	if (lim == NULL || client_id == NULL || lim_lock(lim) != 0)
		return;
	f = auth_slot(lim, client_id, true);
	if (lim->mono_ms() >= f->locked_until_ms) {
		f->count = 0;
		f->first_ms = lim->mono_ms();
	}
	if (digest != NULL) {
		memcpy(f->good, digest, AUTH_DIGEST_BYTES);
		f->has_good = true;
	}
	lim_unlock(lim);
}

/*
 * Admits one counted call (see ratelimit.h).  lim may be NULL (no
 * limits).  If the lock cannot be taken at all the call is admitted and
 * the failure logged: limits are a service level, not a security check.
 */
int
limiter_admit(struct limiter *lim)
{
	struct lim_shared *sh;
	pid_t me;
	int64_t now;
	int r = 0;

	if (lim == NULL)
		goto out;
	sh = lim->sh;
	me = self_pid();
	if (lim_lock(lim) != 0)
		goto out;
	if (lim->slot_pid != me)
		slot_acquire(lim, me);
	now = lim->mono_ms();
	day_roll(lim, limiter_day_key(lim->wall_s()));
	if ((r = lim_check(lim, now)) == 0) {
		if (lim->rate_calls > 0)
			ring_push(lim, now);
		sh->day_count++;
		sh->inflight++;
		if (lim->slot >= 0)
			sh->slots[lim->slot].inflight++;
	}
	lim_unlock(lim);
out:
	return r;
}

static void	stat_add(struct limiter *lim, int32_t kind, int64_t item,
		    int64_t n);

/*
 * Ends a call admitted by limiter_admit in this process and counts it
 * for the client whose row id is client_ref (0: none), under one lock;
 * lim may be NULL.
 */
void
limiter_release_call(struct limiter *lim, int64_t client_ref)
{
	struct lim_shared *sh;

	if (lim == NULL)
		return;
	sh = lim->sh;
	if (lim_lock(lim) != 0)
		return;
	if (lim->slot >= 0 && lim->slot_pid == self_pid()) {
		if (sh->slots[lim->slot].inflight > 0) {
			sh->slots[lim->slot].inflight--;
			sh->inflight--;
		}
	} else if (sh->inflight > 0)
		sh->inflight--;
	if (client_ref > 0)
		stat_add(lim, STATS_CALLS, client_ref, 1);
	lim_unlock(lim);
}

/* Ends a call admitted by limiter_admit, counted for no client. */
void
limiter_release(struct limiter *lim)
{
	limiter_release_call(lim, 0);
}

int64_t
limiter_inflight(struct limiter *lim)
{
	int64_t n = 0;

	if (lim == NULL || lim_lock(lim) != 0)
		return 0;
	n = lim->sh->inflight;
	lim_unlock(lim);
	return n;
}

/*
 * See ratelimit.h.  err: a (negative or positive) api_err.  buf and size:
 * where the text is formatted.  Returns buf, or the table message for
 * errors other than the three limits.
 */
const char *
limiter_message(const struct limiter *lim, int err, char *buf, size_t size)
{
	const char *msg = err_lookup(err)->message;

	if (err < 0)
		err = -err;
	if (lim == NULL || buf == NULL || size == 0)
		return msg;
	/*
	 * A limit that is off refuses nothing, but an injected 606 or 615
	 * (src/http/fault.c) still reads like the hosted service's: it names
	 * the hosted numbers (docs/behaviour.md §4).
	 */
	switch (err) {
	case API_ERR_RATE_LIMIT:
		snprintf(buf, size, "Max rate limit '%d' exceeded with in "
		    "'%lld' secs", lim->rate_calls > 0 ? lim->rate_calls :
		    HOSTED_RATE_CALLS, lim->rate_calls > 0 ?
		    (long long)(lim->window_ms / 1000) :
		    (long long)HOSTED_RATE_WINDOW);
		msg = buf;
		break;
	case API_ERR_CONCURRENCY:
		snprintf(buf, size, "Concurrent access limit '%d' reached",
		    lim->concurrency > 0 ? lim->concurrency :
		    HOSTED_CONCURRENCY);
		msg = buf;
		break;
	case API_ERR_DAILY_QUOTA:
		snprintf(buf, size, "Daily quota reached");
		msg = buf;
		break;
	default:
		break;
	}
	return msg;
}

/* Adds n to the slot of (day, kind, item), made when absent (locked). */
static void
stat_add(struct limiter *lim, int32_t kind, int64_t item, int64_t n)
{
	struct lim_shared *sh = lim->sh;
	struct stats_row *s;
	uint32_t i;

	day_roll(lim, limiter_day_key(lim->wall_s()));
	for (i = 0; i < sh->stats_used; i++) {
		s = &sh->stats[i];
		if (s->item == item && s->kind == kind &&
		    s->day_key == sh->day_key) {
			s->n += n;
			return;
		}
	}
	if (sh->stats_used >= LIMITER_STAT_SLOTS) {
		sh->stats_dropped += n;
		return;
	}
	s = &sh->stats[sh->stats_used++];
	s->day_key = sh->day_key;
	s->kind = kind;
	s->item = item;
	s->n = n;
}

/* See ratelimit.h. */
void
limiter_count_error(struct limiter *lim, int32_t code, int64_t n)
{
	if (lim == NULL || n <= 0 || lim_lock(lim) != 0)
		return;
	stat_add(lim, STATS_ERRORS, code, n);
	lim_unlock(lim);
}

/*
 * Takes n written off the slot of w (locked); drops the slots left at
 * zero, keeping [0, stats_used) in use.
 */
static void
stat_written(struct limiter *lim, const struct stats_row *w)
{
	struct lim_shared *sh = lim->sh;
	struct stats_row *s;
	uint32_t i;

	for (i = 0; i < sh->stats_used; i++) {
		s = &sh->stats[i];
		if (s->item != w->item || s->kind != w->kind ||
		    s->day_key != w->day_key)
			continue;
		s->n -= w->n;
		if (s->n <= 0)
			*s = sh->stats[--sh->stats_used];
		return;
	}
}

/*
 * Writes the counted statistics (see limiter_flush); once a day, also
 * forgets this host's rows older than STATS_KEEP_DAYS.
 */
static int
stats_flush(struct limiter *lim, struct db *db)
{
	struct lim_shared *sh = lim->sh;
	struct stats_row todo[LIMITER_STAT_SLOTS];
	uint32_t i, n;
	int64_t dropped;
	int32_t today, pruned;
	int r = 0;

	pid_t me = self_pid(), was = 0;

	/* A flush left by a process that died does not stop the others. */
	if (!atomic_compare_exchange_strong(&sh->stats_flusher, &was, me) &&
	    (is_alive(was) || !atomic_compare_exchange_strong(
	    &sh->stats_flusher, &was, me)))
		return 0;
	if (lim_lock(lim) != 0) {
		r = -REPO_ERR_INTERNAL;
		goto out;
	}
	day_roll(lim, limiter_day_key(lim->wall_s()));
	n = sh->stats_used;
	memcpy(todo, sh->stats, n * sizeof(todo[0]));
	today = sh->day_key;
	pruned = sh->stats_pruned;
	dropped = sh->stats_dropped;
	sh->stats_dropped = 0;
	lim_unlock(lim);
	if (dropped > 0)
		log_warn("limiter: %lld counts of the usage statistics found "
		    "no slot (more than %d clients and error codes between "
		    "two flushes)", (long long)dropped, LIMITER_STAT_SLOTS);
	if (n > 0 && (r = repo_stats_add(db, lim->host, todo, n)) == 0) {
		if ((r = lim_lock(lim)) != 0)
			goto out;
		for (i = 0; i < n; i++)
			stat_written(lim, &todo[i]);
		lim_unlock(lim);
	}
	if (r == 0 && pruned != today && (r = repo_stats_forget_before(db,
	    lim->host, limiter_day_key_add(today, 1 - STATS_KEEP_DAYS))) == 0)
		sh->stats_pruned = today;
out:
	atomic_store(&sh->stats_flusher, 0);
	return r > 0 ? -REPO_ERR_INTERNAL : r;
}

/* See ratelimit.h. */
int
limiter_flush(struct limiter *lim, struct db *db)
{
	if (lim == NULL || db == NULL)
		return 0;
	return stats_flush(lim, db);
}

/* See ratelimit.h. */
uint64_t
limiter_auth_epoch(const struct limiter *lim)
{
	if (lim == NULL)
		return 0;
	return atomic_load_explicit(&lim->sh->auth_epoch,
	    memory_order_acquire);
}

/* This host's counts for its row (locked). */
static void
lim_snapshot(struct limiter *lim, int64_t now, struct limits_row *row)
{
	struct lim_shared *sh = lim->sh;

	if (lim->rate_calls > 0)
		ring_expire(lim, now);
	day_roll(lim, limiter_day_key(lim->wall_s()));
	row->window_count = sh->count;
	row->inflight = sh->inflight;
	row->day_key = sh->day_key;
	row->day_count = sh->day_count;
}

/*
 * Once per shared state: adds what this host's row says it admitted
 * today (before a restart) to the local day count.  Returns 0 when done
 * (or nothing to adopt), or a negative repo_err (then the sync must not
 * overwrite the row).
 */
static int
lim_seed(struct limiter *lim, struct db *db)
{
	struct limits_row own;
	int r;

	r = repo_limits_get_by_host(db, lim->host, &own);
	if (r == -REPO_ERR_NOT_FOUND)
		r = 0;
	else if (r != 0)
		goto out;
	if (lim_lock(lim) != 0) {
		r = -REPO_ERR_INTERNAL;
		goto out;
	}
	day_roll(lim, limiter_day_key(lim->wall_s()));
	if (!lim->sh->seeded && own.day_key == lim->sh->day_key)
		lim->sh->day_count += own.day_count;
	lim->sh->seeded = true;
	lim_unlock(lim);
out:
	return r;
}

/* Writes this host's row and reads the others' and the epoch. */
static int
lim_sync(struct limiter *lim, struct db *db, int64_t now)
{
	struct limits_row row;
	struct limits_sums sums;
	uint64_t epoch = 0;
	int64_t fresh_ms;
	int r;

	if (!lim->sh->seeded && (r = lim_seed(lim, db)) != 0)
		goto out;
	if ((r = lim_lock(lim)) != 0) {
		r = -REPO_ERR_INTERNAL;
		goto out;
	}
	lim_snapshot(lim, now, &row);
	lim_unlock(lim);
	fresh_ms = lim->sync_ms * LIMITER_FRESH_INTERVALS;
	if (fresh_ms < LIMITER_FRESH_MIN_MS)
		fresh_ms = LIMITER_FRESH_MIN_MS;
	if ((r = repo_limits_upsert(db, lim->host, &row)) != 0 ||
	    (r = repo_limits_sum_others(db, lim->host, row.day_key, fresh_ms,
	    &sums)) != 0 ||
	    (r = repo_auth_epoch_get(db, &epoch)) != 0)
		goto out;
	if (lim_lock(lim) != 0) {
		r = -REPO_ERR_INTERNAL;
		goto out;
	}
	lim->sh->remote_window = sums.window;
	lim->sh->remote_inflight = sums.inflight;
	lim->sh->remote_day = sums.day;
	lim->sh->remote_day_key = (int32_t)row.day_key;
	lim_unlock(lim);
	atomic_store_explicit(&lim->sh->auth_epoch, epoch,
	    memory_order_release);
	/* Last: a failing write of the statistics keeps the sums read. */
	r = stats_flush(lim, db);
out:
	return r;
}

/*
 * See ratelimit.h.  db may be NULL (no reconciliation; dead workers'
 * counts are still reclaimed).  A failing sync keeps the last remote
 * sums and is logged once until it works again.
 */
void
limiter_tick(struct limiter *lim, struct db *db)
{
	struct lim_shared *sh;
	int64_t now, due;
	int r;

	if (lim == NULL)
		return;
	sh = lim->sh;
	now = lim->mono_ms();
	due = atomic_load_explicit(&sh->next_sync_ms, memory_order_relaxed);
	if (now < due || !atomic_compare_exchange_strong(&sh->next_sync_ms,
	    &due, now + lim->sync_ms))
		return;
	if (lim_lock(lim) != 0)
		return;
	lim_reclaim(lim);
	lim_unlock(lim);
	if (db == NULL)
		return;
	r = lim_sync(lim, db, now);
	if (r != 0 && !sh->sync_failing)
		log_warn("limiter: reconciling with the other hosts failed "
		    "(%d); using the last counts read", r);
	else if (r == 0 && sh->sync_failing)
		log_info("limiter: reconciling with the other hosts works "
		    "again");
	sh->sync_failing = r != 0;
}
