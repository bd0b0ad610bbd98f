/*
 * Logging to stderr.  Each message is formatted into one buffer and
 * written with a single write(2), so lines from several workers sharing
 * stderr do not interleave (PIPE_BUF).  Under journald (JOURNAL_STREAM
 * names our stderr) a "<N>" syslog priority prefix is added so that
 * `journalctl -p` works; the worker's pid stays in the text because
 * journald only knows the pid of the process that opened the stream.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bounds.h"
#include "util/log.h"

#define LOG_LINE_BYTES	2048

static const char *const level_names[] = {
	[LOG_LVL_ERR] = "error",
	[LOG_LVL_WARN] = "warn",
	[LOG_LVL_INFO] = "info",
	[LOG_LVL_DEBUG] = "debug",
};

/* syslog(3) priorities for the journald prefix. */
static const char level_prio[] = {
	[LOG_LVL_ERR] = '3',
	[LOG_LVL_WARN] = '4',
	[LOG_LVL_INFO] = '6',
	[LOG_LVL_DEBUG] = '7',
};

/* Process-wide settings, written once at startup or on reload. */
static const char *log_prog = "mautod";
static enum log_level log_max = LOG_LVL_INFO;
static bool log_journal;

/* Whether stderr is the stream journald handed us (systemd.exec(5)). */
static bool
stderr_is_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	char want[64];
	struct stat st;

	if (js == NULL || fstat(STDERR_FILENO, &st) == -1)
		return false;
	(void)snprintf(want, sizeof(want), "%llu:%llu",
	    (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	return strcmp(js, want) == 0;
}

/*
 * Sets the program name (borrowed; must outlive logging) and the most
 * verbose level written ("error", "warn", "info", "debug"; anything else
 * means "info").
 */
void
log_init(const char *progname, const char *level)
{
	size_t i;

	if (progname != NULL)
		log_prog = progname;
	log_max = LOG_LVL_INFO;
	for (i = 0; level != NULL && i < sizeof(level_names) /
	    sizeof(level_names[0]); i++)
		if (strcmp(level, level_names[i]) == 0)
			log_max = (enum log_level)i;
	log_journal = stderr_is_journal();
}

static void
write_all(const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(STDERR_FILENO, p, n);
		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

static void __attribute__((format(printf, 2, 0)))
log_vmsg(enum log_level lvl, const char *fmt, va_list ap)
{
	char line[LOG_LINE_BYTES];
	size_t len = 0, room;
	int n, saved = errno;

	if (lvl > log_max)
		goto out;
	if (log_journal) {
		line[len++] = '<';
		line[len++] = level_prio[lvl];
		line[len++] = '>';
	}
	n = snprintf(line + len, sizeof(line) - len, "%s[%ld]: %s: ",
	    log_prog, (long)getpid(), level_names[lvl]);
	if (n > 0)
		len += (size_t)n < sizeof(line) - len ? (size_t)n :
		    sizeof(line) - len - 1;
	room = sizeof(line) - len - 1;	/* keep one byte for '\n' */
	n = vsnprintf(line + len, room + 1, fmt, ap);
	if (n < 0)
		n = 0;
	if ((size_t)n > room) {
		/* Cut: mark it so a reader knows the line is incomplete. */
		len += room;
		memcpy(line + len - 3, "...", 3);
	} else
		len += (size_t)n;
	line[len++] = '\n';
	write_all(line, len);
out:
	errno = saved;
}

/*
 * Writes one line at level lvl when the level is enabled.  errno is
 * preserved, so a caller may log before it reports errno.
 */
void
log_msg(enum log_level lvl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(lvl, fmt, ap);
	va_end(ap);
}

/* Logs an error and exits 1; for startup failures only (docs/style.md §4). */
void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(LOG_LVL_ERR, fmt, ap);
	va_end(ap);
	exit(1);
}

/* The escaped length of byte c. */
static size_t
esc_len(unsigned char c)
{
	if (c == '\\')
		return 2;
	return c < 0x20 || c >= 0x7f ? 4 : 1;
}

static size_t
esc_put(char *out, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	if (c == '\\') {
		out[0] = '\\';
		out[1] = '\\';
		return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		out[0] = (char)c;
		return 1;
	}
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 15];
	return 4;
}

/* The escaped length of all of s, stopping once it passes limit. */
static size_t
esc_total(const unsigned char *s, size_t limit)
{
	size_t n = 0;

	for (; *s != '\0' && n <= limit; s++)
		n += esc_len(*s);
	return n;
}

/*
 * Copies s into out (outsz bytes) with control bytes, DEL and non-ASCII
 * bytes as \xNN and backslash doubled, so a log line cannot be forged or
 * broken by untrusted text.  The result is at most MAX_LOG_FIELD_BYTES
 * (and outsz - 1) bytes; a cut copy ends in "...".  NULL prints as
 * "(null)".  Returns out, always terminated (or "" when outsz is 0).
 */
const char *
log_escape(char *out, size_t outsz, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "(null)");
	size_t limit, o = 0;

	if (outsz == 0)
		return "";
	limit = outsz - 1 < MAX_LOG_FIELD_BYTES ? outsz - 1 :
	    MAX_LOG_FIELD_BYTES;
	if (esc_total(p, limit) <= limit) {
		for (; *p != '\0'; p++)
			o += esc_put(out + o, *p);
	} else {
		for (; limit >= 3 && o + esc_len(*p) <= limit - 3; p++)
			o += esc_put(out + o, *p);
		memcpy(out + o, "...", limit < 3 ? limit : 3);
		o += limit < 3 ? limit : 3;
	}
	out[o] = '\0';
	return out;
}

/* Appends the bytes of s to line (len in *len), stopping at the room. */
static void
put(char *line, size_t size, size_t *len, const char *s, size_t n)
{
	if (*len >= size)
		return;
	if (n > size - *len)
		n = size - *len;
	memcpy(line + *len, s, n);
	*len += n;
}

/* Appends s as the inside of a JSON string, cut at MAX_LOG_FIELD_BYTES. */
static void
put_json_str(char *line, size_t size, size_t *len, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	char esc[6] = { '\\', 'u', '0', '0', 0, 0 };
	size_t used = 0;

	for (; *p != '\0' && used < MAX_LOG_FIELD_BYTES; p++, used++) {
		if (*p == '"' || *p == '\\') {
			esc[1] = (char)*p;
			put(line, size, len, esc, 2);
			esc[1] = 'u';
		} else if (*p < 0x20 || *p >= 0x7f) {
			esc[4] = hex[*p >> 4];
			esc[5] = hex[*p & 15];
			put(line, size, len, esc, 6);
		} else
			put(line, size, len, (const char *)p, 1);
	}
}

/* The JSON line of an event; returns its length (with the newline). */
static size_t
event_json(char *line, size_t size, enum log_level lvl, const char *message,
    const struct log_field *f, size_t n)
{
	struct timespec ts;
	struct tm tm;
	char num[160];
	size_t len = 0, i;
	int k;

	(void)clock_gettime(CLOCK_REALTIME, &ts);
	(void)gmtime_r(&ts.tv_sec, &tm);
	k = snprintf(num, sizeof(num), "{\"time\":\"%04d-%02d-%02dT%02d:%02d:"
	    "%02d.%03ldZ\",\"level\":\"%s\",\"pid\":%ld,\"msg\":\"",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, level_names[lvl],
	    (long)getpid());
	put(line, size, &len, num, k > 0 && (size_t)k < sizeof(num) ?
	    (size_t)k : 0);
	put_json_str(line, size, &len, message);
	put(line, size, &len, "\"", 1);
	for (i = 0; i < n; i++) {
		put(line, size, &len, ",\"", 2);
		put(line, size, &len, f[i].key, strlen(f[i].key));
		put(line, size, &len, "\":", 2);
		if (f[i].kind == LOG_F_STR && f[i].str == NULL) {
			put(line, size, &len, "null", 4);
		} else if (f[i].kind == LOG_F_STR) {
			put(line, size, &len, "\"", 1);
			put_json_str(line, size, &len, f[i].str);
			put(line, size, &len, "\"", 1);
		} else {
			k = f[i].kind == LOG_F_INT ?
			    snprintf(num, sizeof(num), "%lld", f[i].num) :
			    snprintf(num, sizeof(num), "%lld.%03lld",
			    f[i].num / 1000, f[i].num % 1000);
			put(line, size, &len, num, k > 0 ? (size_t)k : 0);
		}
	}
	/* A line cut by the room still ends as JSON: close it plainly. */
	if (len > size - 3)
		len = size - 3;
	line[len++] = '}';
	line[len++] = '\n';
	return len;
}

/* Appends a journald field name: MAUTO_ and key in upper snake case. */
static void
put_journal_key(char *buf, size_t size, size_t *len, const char *key)
{
	char c;

	put(buf, size, len, "MAUTO_", 6);
	for (; *key != '\0'; key++) {
		if (*key >= 'A' && *key <= 'Z')
			put(buf, size, len, "_", 1);
		c = (char)(*key >= 'a' && *key <= 'z' ? *key - 32 : *key);
		put(buf, size, len, &c, 1);
	}
}

/*
 * Sends an event to journald's native socket (systemd.journal-fields(7),
 * the simple "KEY=value\n" form: values are escaped, so none holds a
 * newline).  Returns 0, or -1 when it could not be sent.
 */
static int
event_journal(enum log_level lvl, const char *message,
    const struct log_field *f, size_t n)
{
	/* One socket per process, opened at the first event. */
	static int fd = -1;
	struct sockaddr_un sa;
	char buf[LOG_LINE_BYTES * 2], val[MAX_LOG_FIELD_BYTES * 4 + 1];
	char num[160];
	const char *path = getenv("MAUTO_JOURNAL_SOCKET");
	size_t len = 0, i;
	ssize_t w;
	int k;

	if (path == NULL || *path == '\0')
		path = "/run/systemd/journal/socket";
	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	k = snprintf(num, sizeof(num), "PRIORITY=%c\nSYSLOG_IDENTIFIER=%s\n"
	    "SYSLOG_PID=%ld\nMESSAGE=", level_prio[lvl], log_prog,
	    (long)getpid());
	if (k <= 0 || (size_t)k >= sizeof(num))
		return -1;
	put(buf, sizeof(buf), &len, num, (size_t)k);
	(void)log_escape(val, sizeof(val), message);
	put(buf, sizeof(buf), &len, val, strlen(val));
	put(buf, sizeof(buf), &len, "\n", 1);
	for (i = 0; i < n; i++) {
		if (f[i].kind == LOG_F_STR && f[i].str == NULL)
			continue;
		put_journal_key(buf, sizeof(buf), &len, f[i].key);
		put(buf, sizeof(buf), &len, "=", 1);
		if (f[i].kind == LOG_F_STR)
			(void)log_escape(val, sizeof(val), f[i].str);
		else if (f[i].kind == LOG_F_INT)
			(void)snprintf(val, sizeof(val), "%lld", f[i].num);
		else
			(void)snprintf(val, sizeof(val), "%lld.%03lld",
			    f[i].num / 1000, f[i].num % 1000);
		put(buf, sizeof(buf), &len, val, strlen(val));
		put(buf, sizeof(buf), &len, "\n", 1);
	}
	if (len >= sizeof(buf))
		return -1;	/* cut: a field could be half there */
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (fd == -1 &&
	    (fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	w = sendto(fd, buf, len, MSG_NOSIGNAL, (struct sockaddr *)&sa,
	    sizeof(sa));
	return w == (ssize_t)len ? 0 : -1;
}

/* See log.h. */
bool
log_enabled(enum log_level lvl)
{
	return lvl <= log_max;
}

/* See log.h. */
void
log_event(enum log_level lvl, const char *message, const struct log_field *f,
    size_t n)
{
	char line[LOG_LINE_BYTES * 2];
	int saved = errno;

	if (lvl > log_max)
		goto out;
	if (log_journal && event_journal(lvl, message, f, n) == 0)
		goto out;
	write_all(line, event_json(line, sizeof(line), lvl, message, f, n));
out:
	errno = saved;
}
