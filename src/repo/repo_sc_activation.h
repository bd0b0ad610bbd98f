/*
 * Smart campaign activation: the one writer of a campaign's state
 * (smart_campaign.is_active), which checks model/campaign.c's rules
 * over one snapshot read under the campaign's locks.
 */
#ifndef MAUTO_REPO_REPO_SC_ACTIVATION_H
#define MAUTO_REPO_REPO_SC_ACTIVATION_H

#include <stdint.h>

struct arena;
struct campaign_refusal;
struct db;

/*
 * Activates campaign id when model/campaign.c's rules allow it
 * (campaign_check_activation).  In one transaction: locks the
 * campaign's row, then its smart list's (shared: a rule change waits,
 * and a rule change under way is waited for), reads the snapshot the
 * rules check (the campaign, its list's rules, its flow, what the flow's
 * values name, each email among them locked shared with whether it is
 * approved, and the program statuses the flow names), checks it, and
 * then marks the campaign active and makes the emails its flow sends its
 * uses: no rule, flow or approval change slips between the read and the
 * write.  0; -REPO_ERR_NOT_FOUND; -REPO_ERR_INVALID with *why (strings
 * in a, pointing into the snapshot read there); another repo_err.
 */
int	repo_sc_activate(struct db *db, struct arena *a, int32_t id,
	    struct campaign_refusal *why);

/* Deactivates campaign id: 0, -REPO_ERR_NOT_FOUND, -REPO_ERR_INVALID
 * (it is not active) or another repo_err. */
int	repo_sc_deactivate(struct db *db, int32_t id);

#endif
