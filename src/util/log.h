/*
 * Logging to stderr (journald under systemd).  Lines are
 * "mautod[pid]: level: message".  Untrusted text goes through
 * log_escape() first: control bytes and non-ASCII become \xNN and the
 * field is cut at MAX_LOG_FIELD_BYTES.
 */
#ifndef MAUTO_UTIL_LOG_H
#define MAUTO_UTIL_LOG_H

#include <stdbool.h>
#include <stddef.h>

enum log_level { LOG_LVL_ERR, LOG_LVL_WARN, LOG_LVL_INFO, LOG_LVL_DEBUG };

void	log_init(const char *progname, const char *level);
void	log_msg(enum log_level lvl, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Whether messages at lvl are written (spares building one that is not). */
bool	log_enabled(enum log_level lvl);
/* Writes an escaped, truncated copy of s into out (always terminated). */
const char *log_escape(char *out, size_t outsz, const char *s);

#define log_err(...)	log_msg(LOG_LVL_ERR, __VA_ARGS__)
#define log_warn(...)	log_msg(LOG_LVL_WARN, __VA_ARGS__)
#define log_info(...)	log_msg(LOG_LVL_INFO, __VA_ARGS__)
#define log_debug(...)	log_msg(LOG_LVL_DEBUG, __VA_ARGS__)

/*
 * One field of a structured event: key in lowerCamelCase; a string
 * (NULL: JSON null, or no journald field) or, when str is unused, an
 * integer, or a duration in microseconds written as milliseconds.
 */
enum log_kind { LOG_F_STR, LOG_F_INT, LOG_F_US };

struct log_field {
	const char	*key;
	enum log_kind	 kind;
	const char	*str;
	long long	 num;
};

#define LOG_STR(k, v)	{ .key = (k), .kind = LOG_F_STR, .str = (v) }
#define LOG_INT(k, v)	{ .key = (k), .kind = LOG_F_INT, .num = (v) }
#define LOG_US(k, v)	{ .key = (k), .kind = LOG_F_US, .num = (v) }

/*
 * Writes one structured event at lvl when the level is enabled.  Under
 * journald it is one journal entry: MESSAGE=message, PRIORITY, and each
 * field as MAUTO_<KEY> ("requestId" becomes MAUTO_REQUEST_ID), sent to
 * the journal's socket ($MAUTO_JOURNAL_SOCKET, else
 * /run/systemd/journal/socket).  Otherwise, or when that fails, it is one
 * JSON line on stderr: {"time":..., "level":..., "pid":...,
 * "msg":message, fields...}.  Values are escaped for JSON (bytes outside
 * printable ASCII as \u00XX) and cut at MAX_LOG_FIELD_BYTES.
 */
void	log_event(enum log_level lvl, const char *message,
	    const struct log_field *f, size_t n);

/* Startup failures only (docs/style.md §4): logs and exits 1. */
void	fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
