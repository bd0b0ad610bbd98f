/*
 * Smart campaigns' rules that need no database (docs/assets.md, "Smart
 * campaigns"): the type and status words a campaign shows, the values an
 * attribute with choices takes, and the order of a step's choices after
 * Reorder Flow Step Choice (top-down, the default choice always last).
 */
#ifndef MAUTO_MODEL_CAMPAIGN_H
#define MAUTO_MODEL_CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest refusal campaign_move writes, with its terminator. */
#define CAMPAIGN_MSG_BYTES	128

/*
 * "trigger" with a trigger, "batch" with filters only, "default" with no
 * rules (docs/behaviour.md §10.1).
 */
const char	*campaign_type_name(int64_t ntriggers, int64_t nfilters);

/*
 * "Active" while active, "Inactive" for an inactive trigger campaign,
 * "Never Run" otherwise (mauto runs no campaign).
 */
const char	*campaign_status_name(bool active, int64_t ntriggers);

/* Whether value is one of choices, a comma-separated list (exactly). */
bool	campaign_is_choice(const char *choices, const char *value);

/*
 * The new order of a step's n choices (ids, with is_default) when choice
 * id moves to position to (0-based) among the non-default ones: 0 and
 * out (n ids), or -1 with msg (msg_size bytes) when id is the default
 * choice or to is beyond the non-default choices.  id must be one of ids.
 */
int	campaign_move(const int32_t *ids, const bool *is_default, size_t n,
	    int32_t id, int to, int32_t *out, char *msg, size_t msg_size);

#endif
