/*
 * Calendar and clock helpers shared by the limiter (US Central days) and
 * the lead values (ISO-8601 dates).
 */
#ifndef MAUTO_UTIL_TIMEUTIL_H
#define MAUTO_UTIL_TIMEUTIL_H

#include <stdint.h>

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant). */
int64_t	time_days_from_civil(int64_t y, int m, int d);
/* The date of a day number (inverse of time_days_from_civil). */
void	time_civil_from_days(int64_t z, int64_t *y, int *m, int *d);
/* CLOCK_MONOTONIC in milliseconds. */
int64_t	time_mono_ms(void);

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

#endif
