/*
 * Calendar and clock helpers shared by the limiter (US Central days) and
 * the lead values (ISO-8601 dates).
 */
#ifndef MAUTO_UTIL_TIMEUTIL_H
#define MAUTO_UTIL_TIMEUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant). */
int64_t	time_days_from_civil(int64_t y, int m, int d);
/* The date of a day number (inverse of time_days_from_civil). */
void	time_civil_from_days(int64_t z, int64_t *y, int *m, int *d);
/* CLOCK_MONOTONIC in milliseconds. */
int64_t	time_mono_ms(void);
/* CLOCK_MONOTONIC in microseconds. */
int64_t	time_mono_us(void);
/* CLOCK_REALTIME (UTC) in milliseconds since the epoch. */
int64_t	time_now_ms(void);

/* A time as the API writes it: "YYYY-MM-DDTHH:MM:SSZ", and its NUL. */
#define TIME_ISO_BYTES	21

/*
 * A database time ("YYYY-MM-DD HH:MM:SS", any fraction ignored) as the
 * API writes it, "YYYY-MM-DDTHH:MM:SSZ", into out.  Returns out, or NULL
 * when db is NULL or shorter than 19 characters.
 */
const char	*time_iso_from_db(const char *db, char out[TIME_ISO_BYTES]);

/*
 * Seconds since the epoch (UTC) as "YYYY-MM-DDTHH:MM:SSZ" into out.
 * Returns out, or NULL for t <= 0 or a time gmtime cannot represent.
 */
const char	*time_iso_from_epoch(int64_t t, char out[TIME_ISO_BYTES]);

/*
 * Parses an ISO-8601 date or date-time of n bytes at s (YYYY-MM-DD,
 * optionally followed by T or a space, HH:MM[:SS[.fff]], and Z or
 * +HH:MM / +HHMM / +HH) into UTC seconds since the epoch in *out.
 * *has_time tells whether a time was given; *day is the date as written
 * (days since the epoch, before any offset is applied).  Returns false
 * when s is not such a date.
 */
bool		 time_parse_iso(const char *s, size_t n, int64_t *out,
		    bool *has_time, int64_t *day);

#endif
