/*
 * Logging to stderr.  Each message is formatted into one buffer and
 * written with a single write(2), so lines from several workers sharing
 * stderr do not interleave (PIPE_BUF).  Under journald (JOURNAL_STREAM
 * names our stderr) a "<N>" syslog priority prefix is added so that
 * `journalctl -p` works; the worker's pid stays in the text because
 * journald only knows the pid of the process that opened the stream.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
