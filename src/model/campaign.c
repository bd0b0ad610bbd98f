/* Smart campaigns' rules that need no database (model/campaign.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/campaign.h"

/* See campaign.h. */
const char *
campaign_type_name(int64_t ntriggers, int64_t nfilters)
{
	if (ntriggers > 0)
		return "trigger";
	return nfilters > 0 ? "batch" : "default";
}

/* See campaign.h. */
const char *
campaign_status_name(bool active, int64_t ntriggers)
{
	if (active)
		return "Active";
	return ntriggers > 0 ? "Inactive" : "Never Run";
}

/* See campaign.h. */
bool
campaign_is_choice(const char *choices, const char *value)
{
	size_t len = strlen(value), k;
	const char *p = choices;

	while (p != NULL && *p != '\0') {
		k = strcspn(p, ",");
		if (k == len && strncmp(p, value, len) == 0)
			return true;
		p = p[k] == ',' ? p + k + 1 : NULL;
	}
	return false;
}

/* See campaign.h. */
int
campaign_move(const int32_t *ids, const bool *is_default, size_t n,
    int32_t id, int to, int32_t *out, char *msg, size_t msg_size)
{
	size_t i, k, plain = 0;

	msg[0] = '\0';
	for (i = 0; i < n; i++) {
		if (ids[i] == id && is_default[i]) {
			(void)snprintf(msg, msg_size, "The default choice is "
			    "always the last");
			return -1;
		}
		if (!is_default[i])
			plain++;
	}
	if (to < 0 || (size_t)to >= plain) {
		(void)snprintf(msg, msg_size, "newSeqNumZeroBased must be from "
		    "0 to %ld", (long)plain - 1);
		return -1;
	}
	/* The others keep their order around the moved one. */
	for (i = 0, k = 0; i < n; i++) {
		if (ids[i] == id)
			continue;
		if (k == (size_t)to)
			out[k++] = id;
		out[k++] = ids[i];
	}
	if (k == (size_t)to)
		out[k++] = id;
	return 0;
}
