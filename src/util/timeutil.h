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

#endif
