/*
 * The master (docs/style.md §9).  After startup it does nothing but wait in
 * sigtimedwait() with every signal it cares about blocked, so signal
 * handling is ordinary sequential code and no handler races the loop:
 *
 *   SIGCHLD              reap; respawn an unexpected death, with back-off
 *                        when workers die young (database down at start)
 *   SIGTERM, SIGINT      graceful stop: the workers finish their request
 *                        and exit; SIGKILL after shutdown_timeout
 *   SIGHUP               reload the configuration, then replace the
 *                        workers one at a time: start a new one, wait
 *                        until it is ready, then stop an old one
 *   WORKER_READY_SIGNAL  a worker connected to the database and accepts
 *
 * Process slots double as worker indexes for request ids, so a new
 * worker never shares an index with a live one (rid.h).
 *
 * With export_runner on, the master also keeps EXPORT_SLOTS export
 * runners (src/export/runner.c) alive in slots of their own: respawned
 * when they die (with their own back-off), stopped with the workers,
 * and replaced on SIGHUP (a runner stopping gives its job back, and the
 * new one, with the new configuration, takes it up again).  With
 * activity_pruner on, it keeps the activity pruner (src/prune/pruner.c)
 * alive the same way, in a slot and with a back-off of its own.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_LIBSYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "auth/ratelimit.h"
#include "export/runner.h"
#include "bounds.h"
#include "master.h"
#include "engine/engine.h"
#include "prune/pruner.h"
#include "util/config.h"
#include "util/log.h"
#include "util/metrics.h"
#include "util/pagecache.h"
#include "util/rid.h"
#include "util/sdlisten.h"
#include "util/xmalloc.h"
#include "worker.h"

static_assert(MASTER_MAX_PROCS <= (1 << RID_WORKER_BITS),
    "process slots must fit the request id's worker bits");

#define MASTER_TICK_MS	1000	/* longest sleep: deadlines are checked */
#define CONFIG_VALUE_BYTES 4096

struct proc {
	pid_t		 pid;		/* 0: free slot */
	int64_t		 started;	/* monotonic ms */
	int64_t		 term_at;	/* SIGTERM sent at; 0: not asked */
	bool		 ready;		/* sent WORKER_READY_SIGNAL */
	bool		 stale;		/* started before the last reload */
	bool		 killed;	/* SIGKILL sent */
};

struct master {
	struct config		*cfg;		/* in force */
	struct config		*boot_cfg;	/* the limiter's; caller's */
	const struct master_opts *opts;
	struct limiter		*lim;
	struct metrics		*metrics;	/* GET /metrics, shared */
	struct pagecache	*pages;		/* browse pages kept, shared */
	int			 fd;		/* listening socket */
	char			*unix_path;	/* socket file we made */
	pid_t			 self;
	int			 target;	/* workers wanted */
	bool			 stopping;
	bool			 reloading;
	bool			 announced;	/* READY=1 sent at start */
	int64_t			 backoff;	/* ms; 0: spawn at once */
	int64_t			 backoff_at;	/* monotonic ms of the last bump */
	int64_t			 next_spawn;	/* monotonic ms */
	struct proc		 procs[MASTER_MAX_PROCS];
	/* Export runners: their own slots and back-off. */
	struct proc		 runners[EXPORT_SLOTS];
	int64_t			 runner_backoff;
	int64_t			 runner_next_spawn;
	/* The activity pruner: its slot and back-off. */
	struct proc		 pruner;
	int64_t			 pruner_backoff;
	int64_t			 pruner_next_spawn;
	/* Campaign runners: their slots and back-off. */
	struct proc		 campaigns[ENGINE_SLOTS];
	int64_t			 campaign_backoff;
	int64_t			 campaign_next_spawn;
};

static int64_t
now_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Tells systemd (Type=notify, sd_notify(3)) about a state change; a no-op
 * without libsystemd or outside systemd (no NOTIFY_SOCKET).  The states:
 * READY=1 once the first worker accepts, and again when a reload is done;
 * RELOADING=1 when SIGHUP arrives; STOPPING=1 on SIGTERM.  Each comes
 * with a STATUS= line for systemctl status.
 */
static void notify(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
notify(const char *fmt, ...)
{
#ifdef HAVE_LIBSYSTEMD
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	(void)sd_notify(0, msg);
#else
	(void)fmt;
#endif
}

static void
on_sigchld(int sig)
{
	(void)sig;	/* only here so that SIGCHLD is not discarded */
}

/* Blocks the signals the loop waits for; fills set with them. */
static int
setup_signals(sigset_t *set)
{
	struct sigaction sa;
	int r = 0;

	(void)sigemptyset(set);
	(void)sigaddset(set, SIGCHLD);
	(void)sigaddset(set, SIGTERM);
	(void)sigaddset(set, SIGINT);
	(void)sigaddset(set, SIGHUP);
	(void)sigaddset(set, WORKER_READY_SIGNAL);
	r |= sigprocmask(SIG_BLOCK, set, NULL);
	memset(&sa, 0, sizeof(sa));
	(void)sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_NOCLDSTOP;
	r |= sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	r |= sigaction(SIGPIPE, &sa, NULL);
	if (r != 0)
		log_err("master: signal setup: %s", strerror(errno));
	return r == 0 ? 0 : -1;
}

int
master_worker_count(const struct config *cfg)
{
	long n = cfg->workers, least;

	if (n == 0) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		least = (cfg->concurrency_limit > 0 ? cfg->concurrency_limit :
		    MASTER_WORKERS_LIMIT_OFF) + MASTER_WORKERS_MARGIN;
		if (n < least)
			n = least;
	}
	if (n < 1)
		n = 1;
	if (n > MAX_WORKERS)
		n = MAX_WORKERS;
	return (int)n;
}

/* Binds the configured address (used when no socket is inherited). */
static int
bind_configured(struct master *m)
{
	struct sdlisten_addr a;
	const char *why = NULL;
	int r = -1;

	if (m->cfg->listen == NULL) {
		log_err("master: no listening socket: set listen, or start "
		    "under socket activation");
		goto out;
	}
	if (sdlisten_parse(m->cfg->listen, &a, &why) != 0) {
		log_err("master: listen %s: %s", m->cfg->listen, why);
		goto out;
	}
	if (sdlisten_bind(&a, &m->fd) != 0)
		goto out;
	if (a.kind == SDLISTEN_UNIX)
		m->unix_path = xstrdup(a.path);
	log_info("master: listening on %s", m->cfg->listen);
	r = 0;
out:
	return r;
}

/*
 * The socket, in this order: systemd socket activation, a listening
 * socket on fd 0 (a web server spawned us), the listen key.
 */
static int
open_socket(struct master *m)
{
	int r = -1;

	if (sdlisten_systemd(&m->fd) != 0)
		goto out;
	if (m->fd == -1 && sdlisten_is_listener(STDIN_FILENO))
		m->fd = STDIN_FILENO;
	if (m->fd == -1) {
		r = bind_configured(m);
		goto out;
	}
	log_info("master: serving the socket inherited on fd %d%s", m->fd,
	    m->cfg->listen != NULL ? " (listen is ignored)" : "");
	r = 0;
out:
	return r;
}

static struct proc *
find_proc(struct master *m, pid_t pid)
{
	size_t i;

	for (i = 0; i < MASTER_MAX_PROCS; i++)
		if (m->procs[i].pid == pid && pid != 0)
			return &m->procs[i];
	return NULL;
}

/* The runner slot of pid, or NULL. */
static struct proc *
find_runner(struct master *m, pid_t pid)
{
	size_t i;

	for (i = 0; i < EXPORT_SLOTS; i++)
		if (m->runners[i].pid == pid && pid != 0)
			return &m->runners[i];
	for (i = 0; i < ENGINE_SLOTS; i++)
		if (m->campaigns[i].pid == pid && pid != 0)
			return &m->campaigns[i];
	return NULL;
}

/* Live campaign runners. */
static int
count_campaigns(const struct master *m)
{
	size_t i;
	int n = 0;

	for (i = 0; i < ENGINE_SLOTS; i++)
		if (m->campaigns[i].pid != 0)
			n++;
	return n;
}

/* Live export runners. */
static int
count_runners(const struct master *m)
{
	size_t i;
	int n = 0;

	for (i = 0; i < EXPORT_SLOTS; i++)
		if (m->runners[i].pid != 0)
			n++;
	return n;
}

/* Workers that serve: ready and not asked to stop. */
static int
count_ready(const struct master *m)
{
	size_t i;
	int n = 0;

	for (i = 0; i < MASTER_MAX_PROCS; i++)
		if (m->procs[i].pid != 0 && m->procs[i].ready &&
		    m->procs[i].term_at == 0)
			n++;
	return n;
}

/* Live workers; with active, only those not asked to stop. */
static int
count_procs(const struct master *m, bool active)
{
	size_t i;
	int n = 0;

	for (i = 0; i < MASTER_MAX_PROCS; i++)
		if (m->procs[i].pid != 0 &&
		    (!active || m->procs[i].term_at == 0))
			n++;
	return n;
}

/* Counts one more young death; failures of one round count once. */
static void
backoff_bump(struct master *m, int64_t now)
{
	if (now < m->next_spawn)
		return;
	m->backoff = m->backoff == 0 ? MASTER_BACKOFF_MIN_MS :
	    m->backoff * 2 > MASTER_BACKOFF_MAX_MS ? MASTER_BACKOFF_MAX_MS :
	    m->backoff * 2;
	m->backoff_at = now;
	m->next_spawn = now + m->backoff;
	log_warn("master: workers die young; next start in %lld ms "
	    "(%d of %d workers serve)", (long long)m->backoff, count_ready(m),
	    m->target);
}

/*
 * Forgets the back-off once a worker started after the last young death
 * has lived MASTER_STABLE_MS.  Workers older than that death say nothing
 * about whether a new one can start (a database server out of
 * connections or statements lets the old ones serve on).
 */
static void
backoff_check(struct master *m, int64_t now)
{
	size_t i;

	for (i = 0; m->backoff != 0 && i < MASTER_MAX_PROCS; i++)
		if (m->procs[i].pid != 0 && m->procs[i].ready &&
		    m->procs[i].started > m->backoff_at &&
		    now - m->procs[i].started >= MASTER_STABLE_MS) {
			m->backoff = 0;
			log_info("master: workers are stable again");
		}
}

static int
spawn(struct master *m, int64_t now)
{
	struct worker_args wa;
	size_t i;
	pid_t pid;
	int r = -1;

	for (i = 0; i < MASTER_MAX_PROCS && m->procs[i].pid != 0; i++)
		continue;
	if (i == MASTER_MAX_PROCS) {
		log_err("master: no free process slot");
		goto out;
	}
	wa = (struct worker_args){ .cfg = m->cfg, .lim = m->lim,
	    .metrics = m->metrics, .pages = m->pages, .fd = m->fd, .index = (unsigned)i, .master = m->self };
	(void)fflush(NULL);
	if ((pid = fork()) == -1) {
		log_err("master: fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		exit(worker_run(&wa));
	m->procs[i] = (struct proc){ .pid = pid, .started = now };
	log_debug("master: started worker %ld (slot %zu)", (long)pid, i);
	r = 0;
out:
	if (r != 0)
		backoff_bump(m, now);
	return r;
}

/*
 * Counts one more young death of a process of what (as backoff_bump),
 * in the back-off *backoff and next start *next of its slots.
 */
static void
slots_backoff_bump(int64_t *backoff, int64_t *next, int64_t now,
    const char *what)
{
	if (now < *next)
		return;
	*backoff = *backoff == 0 ? MASTER_BACKOFF_MIN_MS :
	    *backoff * 2 > MASTER_BACKOFF_MAX_MS ? MASTER_BACKOFF_MAX_MS :
	    *backoff * 2;
	*next = now + *backoff;
	log_warn("master: %s die young; next start in %lld ms", what,
	    (long long)*backoff);
}

static void
runner_backoff_bump(struct master *m, int64_t now)
{
	slots_backoff_bump(&m->runner_backoff, &m->runner_next_spawn, now,
	    "export runners");
}

static void
pruner_backoff_bump(struct master *m, int64_t now)
{
	slots_backoff_bump(&m->pruner_backoff, &m->pruner_next_spawn, now,
	    "activity pruners");
}

/* Starts the activity pruner when activity_pruner is on and it is gone. */
static void
fill_pruner(struct master *m, int64_t now)
{
	struct activity_pruner_args pa;
	pid_t pid;

	if (m->pruner_backoff != 0 && now >= m->pruner_next_spawn &&
	    m->pruner.pid != 0 && now - m->pruner.started >= MASTER_STABLE_MS)
		m->pruner_backoff = 0;
	if (!m->cfg->activity_pruner || m->pruner.pid != 0 ||
	    now < m->pruner_next_spawn)
		return;
	pa = (struct activity_pruner_args){ .cfg = m->cfg,
	    .master = m->self, .metrics = m->metrics };
	(void)fflush(NULL);
	if ((pid = fork()) == -1) {
		log_err("master: fork: %s", strerror(errno));
		pruner_backoff_bump(m, now);
		return;
	}
	if (pid == 0)
		exit(activity_pruner_run(&pa));
	m->pruner = (struct proc){ .pid = pid, .started = now };
	log_debug("master: started activity pruner %ld", (long)pid);
}

static void
campaign_backoff_bump(struct master *m, int64_t now)
{
	slots_backoff_bump(&m->campaign_backoff, &m->campaign_next_spawn, now,
	    "campaign runners");
}

/* Starts the missing campaign runners (campaign_runners of them). */
static void
fill_campaigns(struct master *m, int64_t now)
{
	struct engine_args ea;
	size_t i, want = (size_t)m->cfg->campaign_runners;
	pid_t pid;

	if (m->campaign_backoff != 0 && now >= m->campaign_next_spawn)
		for (i = 0; i < ENGINE_SLOTS; i++)
			if (m->campaigns[i].pid != 0 &&
			    now - m->campaigns[i].started >= MASTER_STABLE_MS)
				m->campaign_backoff = 0;
	if (now < m->campaign_next_spawn)
		return;
	for (i = 0; i < want && i < ENGINE_SLOTS; i++) {
		if (m->campaigns[i].pid != 0)
			continue;
		ea = (struct engine_args){ .cfg = m->cfg, .index = (unsigned)i,
		    .master = m->self, .metrics = m->metrics };
		(void)fflush(NULL);
		if ((pid = fork()) == -1) {
			log_err("master: fork: %s", strerror(errno));
			campaign_backoff_bump(m, now);
			return;
		}
		if (pid == 0)
			exit(engine_run(&ea));
		m->campaigns[i] = (struct proc){ .pid = pid, .started = now };
		log_debug("master: started campaign runner %ld (slot %zu)",
		    (long)pid, i);
	}
}

static int
spawn_runner(struct master *m, size_t i, int64_t now)
{
	struct export_runner_args ra;
	pid_t pid;

	ra = (struct export_runner_args){ .cfg = m->cfg, .index = (unsigned)i,
	    .master = m->self, .metrics = m->metrics };
	(void)fflush(NULL);
	if ((pid = fork()) == -1) {
		log_err("master: fork: %s", strerror(errno));
		runner_backoff_bump(m, now);
		return -1;
	}
	if (pid == 0)
		exit(export_runner_run(&ra));
	m->runners[i] = (struct proc){ .pid = pid, .started = now };
	log_debug("master: started export runner %ld (slot %zu)", (long)pid,
	    i);
	return 0;
}

/* Starts the missing export runners when export_runner is on. */
static void
fill_runners(struct master *m, int64_t now)
{
	size_t i;

	if (m->runner_backoff != 0 && now >= m->runner_next_spawn) {
		for (i = 0; i < EXPORT_SLOTS; i++)
			if (m->runners[i].pid != 0 &&
			    now - m->runners[i].started >= MASTER_STABLE_MS)
				m->runner_backoff = 0;
	}
	if (!m->cfg->export_runner || now < m->runner_next_spawn)
		return;
	for (i = 0; i < EXPORT_SLOTS; i++)
		if (m->runners[i].pid == 0 && spawn_runner(m, i, now) != 0)
			break;
}

/* Starts workers until target are active, unless backing off. */
static void
fill(struct master *m, int64_t now)
{
	backoff_check(m, now);
	while (count_procs(m, true) < m->target && now >= m->next_spawn)
		if (spawn(m, now) != 0)
			break;
	fill_runners(m, now);
	fill_pruner(m, now);
	fill_campaigns(m, now);
}

static void
term(struct proc *p, int64_t now)
{
	(void)kill(p->pid, SIGTERM);
	if (p->term_at == 0)
		p->term_at = now;
}

/* The oldest worker from before the reload that still serves, or NULL. */
static struct proc *
oldest_stale(struct master *m)
{
	struct proc *best = NULL;
	size_t i;

	for (i = 0; i < MASTER_MAX_PROCS; i++)
		if (m->procs[i].pid != 0 && m->procs[i].stale &&
		    m->procs[i].term_at == 0 &&
		    (best == NULL || m->procs[i].started < best->started))
			best = &m->procs[i];
	return best;
}

/* Whether a new worker is still connecting (not ready yet). */
static bool
has_starting(const struct master *m)
{
	size_t i;

	for (i = 0; i < MASTER_MAX_PROCS; i++)
		if (m->procs[i].pid != 0 && !m->procs[i].stale &&
		    m->procs[i].term_at == 0 && !m->procs[i].ready)
			return true;
	return false;
}

/*
 * One step of a rolling reload.  A replacement is started first; once
 * it is ready there is one active worker too many and the oldest stale
 * one is stopped (it finishes its request; the accept queue is served
 * by the others all along).  Returns true when it stopped a worker, so
 * the caller can go on at once with the next replacement.
 */
static bool
reload_step(struct master *m, int64_t now)
{
	struct proc *old;

	if (!m->reloading)
		return false;
	if ((old = oldest_stale(m)) == NULL) {
		m->reloading = false;
		log_info("master: reload done; %d workers", m->target);
		notify("READY=1\nSTATUS=Serving with %d workers (reloaded)",
		    m->target);
		return false;
	}
	if (has_starting(m))
		return false;
	if (count_procs(m, true) > m->target) {
		log_debug("master: stopping old worker %ld", (long)old->pid);
		term(old, now);
		return true;
	}
	if (now >= m->next_spawn)
		(void)spawn(m, now);
	return false;
}

static void
describe_status(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		(void)snprintf(buf, size, "exit status %d",
		    WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		(void)snprintf(buf, size, "killed by signal %d (%s)",
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		(void)snprintf(buf, size, "wait status %#x", status);
}

static void
reaped(struct master *m, struct proc *p, int status, int64_t now)
{
	char what[96];
	bool asked = m->stopping || p->term_at != 0;

	describe_status(status, what, sizeof(what));
	if (asked && p->killed)
		log_warn("master: worker %ld killed after the shutdown "
		    "timeout", (long)p->pid);
	else if (asked)
		log_debug("master: worker %ld stopped: %s", (long)p->pid,
		    what);
	else if (WIFEXITED(status) &&
	    WEXITSTATUS(status) == WORKER_EXIT_OK)
		log_info("master: worker %ld recycled itself; replacing it",
		    (long)p->pid);
	else {
		log_warn("master: worker %ld died unexpectedly: %s",
		    (long)p->pid, what);
		if (WIFEXITED(status) &&
		    WEXITSTATUS(status) == WORKER_EXIT_STARTUP)
			metrics_worker_failed(m->metrics);
		if (now - p->started < MASTER_STABLE_MS)
			backoff_bump(m, now);
	}
	memset(p, 0, sizeof(*p));
}

static void
runner_reaped(struct master *m, struct proc *p, int status, int64_t now)
{
	char what[96];
	bool pruner = p == &m->pruner;
	bool campaign = p >= &m->campaigns[0] &&
	    p < &m->campaigns[ENGINE_SLOTS];
	const char *name = pruner ? "activity pruner" : campaign ?
	    "campaign runner" : "export runner";

	describe_status(status, what, sizeof(what));
	if (m->stopping || p->term_at != 0)
		log_debug("master: %s %ld stopped: %s", name, (long)p->pid,
		    what);
	else {
		log_warn("master: %s %ld died unexpectedly: %s", name,
		    (long)p->pid, what);
		if (now - p->started < MASTER_STABLE_MS && pruner)
			pruner_backoff_bump(m, now);
		else if (now - p->started < MASTER_STABLE_MS && campaign)
			campaign_backoff_bump(m, now);
		else if (now - p->started < MASTER_STABLE_MS)
			runner_backoff_bump(m, now);
	}
	memset(p, 0, sizeof(*p));
}

static void
reap_all(struct master *m)
{
	struct proc *p;
	pid_t pid;
	int status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if ((p = find_proc(m, pid)) != NULL)
			reaped(m, p, status, now_ms());
		else if ((p = find_runner(m, pid)) != NULL)
			runner_reaped(m, p, status, now_ms());
		else if (pid == m->pruner.pid)
			runner_reaped(m, &m->pruner, status, now_ms());
	}
}

static void
begin_stop(struct master *m, int sig, int64_t now)
{
	size_t i;

	if (m->stopping)
		return;
	log_info("master: %s: stopping %d workers", strsignal(sig),
	    count_procs(m, false));
	notify("STOPPING=1\nSTATUS=Stopping: %d workers finish their "
	    "requests", count_procs(m, false));
	m->stopping = true;
	m->reloading = false;
	for (i = 0; i < MASTER_MAX_PROCS; i++)
		if (m->procs[i].pid != 0)
			term(&m->procs[i], now);
	for (i = 0; i < EXPORT_SLOTS; i++)
		if (m->runners[i].pid != 0)
			term(&m->runners[i], now);
	if (m->pruner.pid != 0)
		term(&m->pruner, now);
	for (i = 0; i < ENGINE_SLOTS; i++)
		if (m->campaigns[i].pid != 0)
			term(&m->campaigns[i], now);
}

/* SIGKILLs workers that were asked to stop longer ago than allowed. */
static void
enforce_deadlines(struct master *m, int64_t now)
{
	int64_t limit = (int64_t)m->cfg->shutdown_timeout * 1000;
	struct proc *p;
	size_t i;

	for (i = 0; i < MASTER_MAX_PROCS + EXPORT_SLOTS + 1 + ENGINE_SLOTS;
	    i++) {
		p = i < MASTER_MAX_PROCS ? &m->procs[i] :
		    i < MASTER_MAX_PROCS + EXPORT_SLOTS ?
		    &m->runners[i - MASTER_MAX_PROCS] :
		    i == MASTER_MAX_PROCS + EXPORT_SLOTS ? &m->pruner :
		    &m->campaigns[i - MASTER_MAX_PROCS - EXPORT_SLOTS - 1];
		if (p->pid == 0 || p->term_at == 0 || p->killed ||
		    now - p->term_at < limit)
			continue;
		log_warn("master: worker %ld did not stop within %d s; "
		    "sending SIGKILL", (long)p->pid, m->cfg->shutdown_timeout);
		(void)kill(p->pid, SIGKILL);
		p->killed = true;
	}
}

/*
 * Keys that SIGHUP cannot change (CONFIG_F_RESTART) keep their running
 * value in the new configuration, with a warning.
 */
static void
keep_restart_keys(const struct config *old, struct config *nc)
{
	char *a, *b;
	const struct config_key *keys;
	int i, n;

	a = xmalloc(CONFIG_VALUE_BYTES);
	b = xmalloc(CONFIG_VALUE_BYTES);
	keys = config_keys(&n);
	for (i = 0; i < n; i++) {
		if (!(keys[i].flags & CONFIG_F_RESTART))
			continue;
		(void)config_format(old, &keys[i], a, CONFIG_VALUE_BYTES);
		(void)config_format(nc, &keys[i], b, CONFIG_VALUE_BYTES);
		if (strcmp(a, b) == 0)
			continue;
		log_warn("master: %s changed; it takes effect at the next "
		    "restart", keys[i].name);
		(void)config_set(nc, keys[i].name, a);
	}
	free(a);
	free(b);
}

static void
free_config(struct config *cfg)
{
	if (cfg == NULL)
		return;
	config_clear(cfg);
	free(cfg);
}

static void
reload(struct master *m)
{
	const struct master_opts *o = m->opts;
	struct config *nc = NULL;
	struct timespec ts;
	size_t i;

	if (m->stopping)
		goto out;
	log_info("master: SIGHUP: reloading the configuration");
	/*
	 * MONOTONIC_USEC, read after the signal arrived, tells systemd that
	 * this reload answers its SIGHUP (sd_notify(3), Type=notify-reload).
	 */
	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	notify("RELOADING=1\nMONOTONIC_USEC=%lld\nSTATUS=Reloading",
	    (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
	nc = xcalloc(1, sizeof(*nc));
	if (config_load(nc, o->config_path, o->config_required,
	    o->overrides, o->noverrides) != 0) {
		log_err("master: reload failed; the running configuration "
		    "stays");
		notify("READY=1\nSTATUS=Serving with %d workers (the reload "
		    "failed: the configuration is invalid)", m->target);
		goto out;
	}
	keep_restart_keys(m->cfg, nc);
	log_init("mautod", nc->log_level);
	if (m->cfg != m->boot_cfg)
		free_config(m->cfg);
	m->cfg = nc;
	nc = NULL;
	m->target = master_worker_count(m->cfg);
	for (i = 0; i < MASTER_MAX_PROCS; i++)
		if (m->procs[i].pid != 0 && m->procs[i].term_at == 0)
			m->procs[i].stale = true;
	/* Runners restart at once; their jobs wait in the queue meanwhile. */
	for (i = 0; i < EXPORT_SLOTS; i++)
		if (m->runners[i].pid != 0)
			term(&m->runners[i], now_ms());
	/* The pruner too: the next one keeps the new retention. */
	if (m->pruner.pid != 0)
		term(&m->pruner, now_ms());
	/* Campaign runners: as many as the new campaign_runners says. */
	for (i = 0; i < ENGINE_SLOTS; i++)
		if (m->campaigns[i].pid != 0)
			term(&m->campaigns[i], now_ms());
	m->reloading = true;
out:
	free(nc);	/* config_load cleared it on failure */
}

static void
mark_ready(struct master *m, const siginfo_t *si)
{
	struct proc *p;

	if (si->si_code != SI_USER || (p = find_proc(m, si->si_pid)) == NULL)
		return;
	p->ready = true;
	/*
	 * Ready once a worker has its database connection and accepts: with
	 * the database down at start systemd sees the start hang (and time
	 * out) rather than a service that answers nothing.
	 */
	if (!m->announced && !m->stopping) {
		m->announced = true;
		notify("READY=1\nSTATUS=Serving with %d workers", m->target);
	}
}

/* How long to sleep: until the next spawn, at most MASTER_TICK_MS. */
static int64_t
sleep_ms(const struct master *m, int64_t now)
{
	int64_t d = MASTER_TICK_MS;

	if (!m->stopping && m->next_spawn > now && m->next_spawn - now < d &&
	    count_procs(m, true) < m->target + (m->reloading ? 1 : 0))
		d = m->next_spawn - now;
	if (!m->stopping && m->cfg->export_runner &&
	    m->runner_next_spawn > now && m->runner_next_spawn - now < d &&
	    count_runners(m) < EXPORT_SLOTS)
		d = m->runner_next_spawn - now;
	if (!m->stopping && m->cfg->activity_pruner && m->pruner.pid == 0 &&
	    m->pruner_next_spawn > now && m->pruner_next_spawn - now < d)
		d = m->pruner_next_spawn - now;
	return d;
}

static void
handle(struct master *m, int sig, const siginfo_t *si)
{
	if (sig == SIGCHLD)
		reap_all(m);
	else if (sig == SIGTERM || sig == SIGINT)
		begin_stop(m, sig, now_ms());
	else if (sig == SIGHUP)
		reload(m);
	else if (sig == WORKER_READY_SIGNAL)
		mark_ready(m, si);
}

static void
loop(struct master *m, const sigset_t *set)
{
	struct timespec ts;
	siginfo_t si;
	int64_t now, d;
	int sig;

	for (;;) {
		now = now_ms();
		if (!m->stopping) {
			fill(m, now);
			while (reload_step(m, now))
				continue;
		}
		enforce_deadlines(m, now);
		metrics_set_procs(m->metrics, count_procs(m, false),
		    count_runners(m));
		metrics_set_workers(m->metrics, count_ready(m), m->target);
		if (m->stopping && count_procs(m, false) == 0 &&
		    count_runners(m) == 0 && m->pruner.pid == 0 &&
		    count_campaigns(m) == 0)
			break;
		d = sleep_ms(m, now);
		ts.tv_sec = (time_t)(d / 1000);
		ts.tv_nsec = (long)(d % 1000) * 1000000;
		if ((sig = sigtimedwait(set, &si, &ts)) > 0)
			handle(m, sig, &si);
	}
}

int
master_run(struct config *cfg, const struct master_opts *opts)
{
	struct master *m;
	sigset_t set;
	int status = 1;

	m = xcalloc(1, sizeof(*m));
	m->fd = -1;
	m->cfg = m->boot_cfg = cfg;
	m->opts = opts;
	m->self = getpid();
	if (setup_signals(&set) != 0 || open_socket(m) != 0)
		goto out;
	if ((m->lim = limiter_create(cfg)) == NULL) {
		log_err("master: cannot create the shared limiter");
		goto out;
	}
	if ((m->metrics = metrics_create()) == NULL)
		goto out;
	/* Without kept pages every browse reads the database: not fatal. */
	if ((m->pages = pagecache_create()) == NULL)
		log_warn("master: browses will not keep pages");
	m->target = master_worker_count(cfg);
	log_info("master: pid %ld, starting %d workers", (long)m->self,
	    m->target);
	fill(m, now_ms());
	loop(m, &set);
	log_info("master: all workers stopped; exiting");
	status = 0;
out:
	if (m->lim != NULL)
		limiter_destroy(m->lim);
	metrics_destroy(m->metrics);
	pagecache_destroy(m->pages);
	if (m->fd != -1)
		(void)close(m->fd);
	if (m->unix_path != NULL)
		(void)unlink(m->unix_path);
	free(m->unix_path);
	if (m->cfg != m->boot_cfg)
		free_config(m->cfg);
	free(m);
	return status;
}
