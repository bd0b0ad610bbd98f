/*
 * Logging to stderr (journald under systemd).  Lines are
 * "mautod[pid]: level: message".  Untrusted text goes through
 * log_escape() first: control bytes and non-ASCII become \xNN and the
 * field is cut at MAX_LOG_FIELD_BYTES.
 */
#ifndef MAUTO_UTIL_LOG_H
#define MAUTO_UTIL_LOG_H

#include <stddef.h>

enum log_level { LOG_LVL_ERR, LOG_LVL_WARN, LOG_LVL_INFO, LOG_LVL_DEBUG };

void	log_init(const char *progname, const char *level);
void	log_msg(enum log_level lvl, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Writes an escaped, truncated copy of s into out (always terminated). */
const char *log_escape(char *out, size_t outsz, const char *s);

#define log_err(...)	log_msg(LOG_LVL_ERR, __VA_ARGS__)
#define log_warn(...)	log_msg(LOG_LVL_WARN, __VA_ARGS__)
#define log_info(...)	log_msg(LOG_LVL_INFO, __VA_ARGS__)
#define log_debug(...)	log_msg(LOG_LVL_DEBUG, __VA_ARGS__)

/* Startup failures only (docs/style.md §4): logs and exits 1. */
void	fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
