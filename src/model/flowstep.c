/*
 * Flow step rules (flowstep.h).
 *
 * Wait takes the durations the flow editor offers as a number and a
 * unit, and a fixed date; a month is 30 days, as the engine's clock
 * counts no calendar (docs/behaviour.md §24).  A date is read as UTC:
 * the instance keeps no time zone.  Token filling leaves what it does
 * not know untouched, so a value that mentions {{my.x}} with no such
 * token keeps its text rather than losing it.
 */
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "model/flowstep.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/num.h"
#include "util/timeutil.h"

#define MINUTE_MS	60000LL
#define HOUR_MS		(60 * MINUTE_MS)
#define DAY_MS		(24 * HOUR_MS)

/* The largest text a filled value may grow to. */
#define FILL_MAX_BYTES	(16 * 1024 * 1024)

static const struct {
	int32_t		 id;
	const char	*name;
} kinds[FLOWSTEP__MAX] = {
	[FLOWSTEP_SEND_EMAIL] = { FLOW_SEND_EMAIL, "Send Email" },
	[FLOWSTEP_CHANGE_DATA_VALUE] = { FLOW_CHANGE_DATA_VALUE,
	    "Change Data Value" },
	[FLOWSTEP_CHANGE_SCORE] = { FLOW_CHANGE_SCORE, "Change Score" },
	[FLOWSTEP_ADD_TO_LIST] = { FLOW_ADD_TO_LIST, "Add to List" },
	[FLOWSTEP_REMOVE_FROM_LIST] = { FLOW_REMOVE_FROM_LIST,
	    "Remove from List" },
	[FLOWSTEP_DELETE_PERSON] = { FLOW_DELETE_PERSON, "Delete Person" },
	[FLOWSTEP_INTERESTING_MOMENT] = { FLOW_INTERESTING_MOMENT,
	    "Interesting Moment" },
	[FLOWSTEP_REQUEST_CAMPAIGN] = { FLOW_REQUEST_CAMPAIGN,
	    "Request Campaign" },
	[FLOWSTEP_CHANGE_PROGRAM_STATUS] = { FLOW_CHANGE_PROGRAM_STATUS,
	    "Change Program Status" },
	[FLOWSTEP_WAIT] = { FLOW_WAIT, "Wait" },
	[FLOWSTEP_REMOVE_FROM_FLOW] = { FLOW_REMOVE_FROM_FLOW,
	    "Remove from Flow" },
	[FLOWSTEP_OTHER] = { 0, "Other" },
};

/* See flowstep.h. */
enum flowstep
flowstep_of(int32_t type_id)
{
	size_t i;

	for (i = 0; i < FLOWSTEP_OTHER; i++)
		if (kinds[i].id == type_id)
			return (enum flowstep)i;
	return FLOWSTEP_OTHER;
}

/* See flowstep.h. */
const char *
flowstep_name(enum flowstep k)
{
	return (size_t)k < FLOWSTEP__MAX ? kinds[k].name : kinds[FLOWSTEP_OTHER].name;
}

/* The token of tokens[0..n) named by the len bytes at p, or NULL. */
static const struct flow_token *
token_named(const struct flow_token *tokens, size_t n, const char *p,
    size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tokens[i].name != NULL && strlen(tokens[i].name) == len &&
		    strncasecmp(tokens[i].name, p, len) == 0)
			return &tokens[i];
	return NULL;
}

/* See flowstep.h. */
const char *
flowstep_fill_tokens(struct arena *a, const char *s,
    const struct flow_token *tokens, size_t n)
{
	const struct flow_token *t;
	const char *p, *end, *out;
	struct buf b;

	if (s == NULL || strstr(s, "{{") == NULL || n == 0)
		return s;
	buf_init(&b, FILL_MAX_BYTES);
	for (p = s; *p != '\0';) {
		if (strncasecmp(p, "{{my.", 5) == 0 &&
		    (end = strstr(p + 5, "}}")) != NULL &&
		    (t = token_named(tokens, n, p + 5,
		    (size_t)(end - (p + 5)))) != NULL) {
			buf_adds(&b, t->value != NULL ? t->value : "");
			p = end + 2;
			continue;
		}
		buf_addc(&b, *p++);
	}
	buf_addc(&b, '\0');
	out = buf_ok(&b) && b.data != NULL ? arena_strdup(a, b.data) : s;
	buf_clear(&b);
	return out;
}

/* A date YYYY-MM-DD[( |T)HH:MM[:SS]][Z] at s into *at_ms: 0 or -1. */
static int
wait_date(const char *s, int64_t *at_ms)
{
	int64_t y, mo, d, h = 0, mi = 0, se = 0;
	const char *p;

	if (num_parse_i64n(s, 4, 1970, 9999, &y) != 0 ||
	    num_parse_i64n(s + 5, 2, 1, 12, &mo) != 0 ||
	    num_parse_i64n(s + 8, 2, 1, 31, &d) != 0)
		return -1;
	p = s + 10;
	if (*p == ' ' || *p == 'T') {
		if (strlen(p) < 6 || p[3] != ':' ||
		    num_parse_i64n(p + 1, 2, 0, 23, &h) != 0 ||
		    num_parse_i64n(p + 4, 2, 0, 59, &mi) != 0)
			return -1;
		p += 6;
		if (*p == ':') {
			if (num_parse_i64n(p + 1, 2, 0, 59, &se) != 0)
				return -1;
			p += 3;
		}
	}
	if (*p != '\0' && strcmp(p, "Z") != 0)
		return -1;
	*at_ms = ((time_days_from_civil(y, (int)mo, (int)d) * 24 + h) * 60 +
	    mi) * MINUTE_MS + se * 1000;
	return 0;
}

/* See flowstep.h. */
int
flowstep_wait_parse(const char *s, int64_t *ms, int64_t *at_ms)
{
	static const struct { const char *word; int64_t ms; } units[] = {
		{ "minute", MINUTE_MS }, { "hour", HOUR_MS },
		{ "day", DAY_MS }, { "week", 7 * DAY_MS },
		{ "month", 30 * DAY_MS },
	};
	int64_t n;
	const char *p;
	char word[16];
	size_t i, k;

	*ms = *at_ms = 0;
	if (s == NULL)
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	if (strlen(s) >= 10 && s[4] == '-' && s[7] == '-')
		return wait_date(s, at_ms);
	for (p = s; isdigit((unsigned char)*p); p++)
		continue;
	if (p == s || num_parse_i64n(s, (size_t)(p - s), 1, 100000, &n) != 0)
		return -1;
	while (*p == ' ')
		p++;
	for (k = 0; isalpha((unsigned char)p[k]) && k < sizeof(word) - 1; k++)
		word[k] = (char)tolower((unsigned char)p[k]);
	word[k] = '\0';
	if (p[k] != '\0' && !isspace((unsigned char)p[k]))
		return -1;
	if (k > 1 && word[k - 1] == 's')
		word[k - 1] = '\0';
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(word, units[i].word) == 0) {
			*ms = n * units[i].ms;
			return 0;
		}
	return -1;
}
