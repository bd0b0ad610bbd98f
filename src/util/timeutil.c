/*
 * Calendar and clock helpers (timeutil.h).
 */
#include <string.h>
#include <time.h>

#include "util/timeutil.h"

/* See timeutil.h. */
int64_t
time_days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* See timeutil.h. */
void
time_civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* See timeutil.h. */
int64_t
time_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* See timeutil.h. */
const char *
time_iso_from_db(const char *db, char out[TIME_ISO_BYTES])
{
	if (db == NULL || strnlen(db, 19) < 19)
		return NULL;
	memcpy(out, db, 19);
	out[10] = 'T';
	out[19] = 'Z';
	out[20] = '\0';
	return out;
}

/* See timeutil.h. */
const char *
time_iso_from_epoch(int64_t t, char out[TIME_ISO_BYTES])
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (t <= 0 || gmtime_r(&tt, &tm) == NULL)
		return NULL;
	strftime(out, TIME_ISO_BYTES, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return out;
}
