#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/num.h"

int
num_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	return num_parse_i64n(s, s == NULL ? 0 : strlen(s), min, max, out);
}

int
num_parse_i64n(const char *s, size_t n, int64_t min, int64_t max,
    int64_t *out)
{
	char tmp[24], *end;
	long long v;

	*out = 0;
	if (s == NULL || n == 0 || n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	/* strtoll accepts leading space and '+'; a strict parser does not. */
	if (!(tmp[0] == '-' || (tmp[0] >= '0' && tmp[0] <= '9')))
		return -1;
	errno = 0;
	v = strtoll(tmp, &end, 10);
	if (errno != 0 || end == tmp || *end != '\0')
		return -1;
	if (v < min || v > max)
		return -1;
	*out = (int64_t)v;
	return 0;
}

/* See num.h. */
int
num_parse_double(const char *s, size_t n, double *out)
{
	char tmp[64], *end;
	size_t i;

	*out = 0;
	if (n == 0 || n >= sizeof(tmp))
		return -1;
	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]) && strchr("+-.eE", s[i]) ==
		    NULL)
			return -1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	errno = 0;
	*out = strtod(tmp, &end);
	if (errno != 0 || *end != '\0' || end == tmp || !isfinite(*out)) {
		*out = 0;
		return -1;
	}
	return 0;
}
