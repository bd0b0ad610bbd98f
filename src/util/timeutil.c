/*
 * Calendar and clock helpers (timeutil.h).
 */
#include <ctype.h>
#include <stdbool.h>
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
int64_t
time_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* See timeutil.h. */
int64_t
time_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
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

static bool
is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
mdays(int y, int m)
{
	static const int d[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };

	return m == 2 && is_leap(y) ? 29 : d[m - 1];
}

/* Reads exactly n digits at *p into *v. */
static bool
digits(const char **p, const char *end, int n, int *v)
{
	int i;

	if (end - *p < n)
		return false;
	*v = 0;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return false;
		*v = *v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	return true;
}

/* See timeutil.h. */
bool
time_parse_iso(const char *s, size_t n, int64_t *out, bool *has_time,
    int64_t *day)
{
	const char *p = s, *end = s + n;
	int y, mo, d, h = 0, mi = 0, se = 0, oh = 0, om = 0, sign = 0;

	*has_time = false;
	if (!digits(&p, end, 4, &y) || p == end || *p++ != '-' ||
	    !digits(&p, end, 2, &mo) || p == end || *p++ != '-' ||
	    !digits(&p, end, 2, &d))
		return false;
	if (y < 1000 || mo < 1 || mo > 12 || d < 1 || d > mdays(y, mo))
		return false;
	if (p < end) {
		if (*p != 'T' && *p != ' ')
			return false;
		p++;
		if (!digits(&p, end, 2, &h) || p == end || *p++ != ':' ||
		    !digits(&p, end, 2, &mi))
			return false;
		if (p < end && *p == ':') {
			p++;
			if (!digits(&p, end, 2, &se))
				return false;
			if (p < end && (*p == '.' || *p == ',')) {
				p++;
				if (p == end || !isdigit((unsigned char)*p))
					return false;
				while (p < end && isdigit((unsigned char)*p))
					p++;
			}
		}
		if (h > 23 || mi > 59 || se > 59)
			return false;
		*has_time = true;
		if (p < end && *p == 'Z')
			p++;
		else if (p < end && (*p == '+' || *p == '-')) {
			sign = *p++ == '-' ? -1 : 1;
			if (!digits(&p, end, 2, &oh))
				return false;
			/* +HH, +HHMM or +HH:MM; a colon needs the minutes. */
			if (p < end && *p == ':') {
				p++;
				if (!digits(&p, end, 2, &om))
					return false;
			} else if (p < end && !digits(&p, end, 2, &om))
				return false;
			if (oh > 23 || om > 59)
				return false;
		}
		if (p != end)
			return false;
	}
	*day = time_days_from_civil(y, mo, d);
	*out = *day * 86400 + h * 3600 + mi * 60 + se -
	    sign * (oh * 3600 + om * 60);
	return true;
}
