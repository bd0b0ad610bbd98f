/*
 * The values of X-Mauto-Fault (docs/operating.md, Fault injection).  The codes are
 * those a client of the hosted service must be ready for on any call
 * (docs/behaviour.md §3): token (601, 602), time-out and outage (604,
 * 608, 611), limits (606, 607, 615).  Their messages are the ones the
 * service writes when the error is real (src/err.c, limiter_message).
 */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "bounds.h"
#include "err.h"
#include "http/fault.h"
#include "util/num.h"

#define DELAY_PREFIX	"delay="

struct fault_code {
	int		 code;
	enum api_err	 err;
	bool		 identity;	/* applies to the token endpoint */
};

static const struct fault_code codes[] = {
	{ .code = 601, .err = API_ERR_TOKEN_INVALID, .identity = false },
	{ .code = 602, .err = API_ERR_TOKEN_EXPIRED, .identity = false },
	{ .code = 604, .err = API_ERR_TIMEOUT, .identity = true },
	{ .code = 606, .err = API_ERR_RATE_LIMIT, .identity = false },
	{ .code = 607, .err = API_ERR_DAILY_QUOTA, .identity = false },
	{ .code = 608, .err = API_ERR_UNAVAILABLE, .identity = true },
	{ .code = 611, .err = API_ERR_SYSTEM, .identity = true },
	{ .code = 615, .err = API_ERR_CONCURRENCY, .identity = false },
};

#define NCODES	(sizeof(codes) / sizeof(codes[0]))

static const struct fault_code *
code_find(int code)
{
	size_t i;

	for (i = 0; i < NCODES; i++)
		if (codes[i].code == code)
			return &codes[i];
	return NULL;
}

void
fault_parse(const char *v, bool identity, struct fault *out)
{
	const struct fault_code *fc;
	int64_t n;

	memset(out, 0, sizeof(*out));
	if (v == NULL || *v == '\0')
		return;
	out->kind = FAULT_BAD;
	if (strncmp(v, DELAY_PREFIX, strlen(DELAY_PREFIX)) == 0) {
		if (num_parse_i64(v + strlen(DELAY_PREFIX), 0,
		    MAX_FAULT_DELAY_MS, &n) == 0) {
			out->kind = FAULT_DELAY;
			out->delay_ms = (int)n;
		}
		return;
	}
	if (num_parse_i64(v, 0, 9999, &n) != 0 ||
	    (fc = code_find((int)n)) == NULL)
		return;
	if (identity && !fc->identity) {
		out->kind = FAULT_NONE;
		return;
	}
	out->kind = FAULT_ERROR;
	out->err = -(int)fc->err;
}

int
fault_err_of_code(int code)
{
	const struct fault_code *fc = code_find(code);

	return fc != NULL ? -(int)fc->err : 0;
}
