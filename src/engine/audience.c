/*
 * Who a campaign runs for (audience.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine/audience.h"
#include "repo/repo.h"
#include "repo/repo_smart_campaigns.h"
#include "repo/repo_smart_lists.h"

/* See audience.h. */
int
audience_cats_load(struct db *db, struct arena *a,
    const struct lead_schema *leads, struct audience_cats *c)
{
	memset(c, 0, sizeof(*c));
	c->leads = leads;
	return repo_sl_filter_co_load(db, a, &c->co);
}

/*
 * The filters of smart list list_id into *f, as audience_filters; *nf
 * (may be NULL) counts them.
 */
static int
list_filters(struct db *db, struct arena *a, const struct audience_cats *c,
    int32_t list_id, int64_t now_ms, struct sl_filter *f, size_t *nf,
    char *msg, size_t msg_size)
{
	struct repo_sl sl;
	size_t i;
	int r;

	memset(f, 0, sizeof(*f));
	if ((r = repo_sl_get(db, a, list_id, true, &sl)) != 0) {
		if (r != -REPO_ERR_NOT_FOUND)
			return r;
		memset(&sl, 0, sizeof(sl));
		sl.match_type = "all";
	}
	for (i = 0; nf != NULL && i < sl.nrules; i++)
		*nf += sl.rules[i].trigger ? 0 : 1;
	return sl_filter_build_co(c->leads, &c->co, sl.rules, sl.nrules,
	    sl.match_type, sl.custom_logic, now_ms, f, msg, msg_size) == 0 ?
	    0 : 1;
}

/* See audience.h. */
int
audience_filters(struct db *db, struct arena *a,
    const struct audience_cats *c, const struct repo_sc *sc, int64_t now_ms,
    struct sl_filter *f, char *msg, size_t msg_size)
{
	return list_filters(db, a, c, sc->smart_list_id, now_ms, f, NULL, msg,
	    msg_size);
}

/* See audience.h. */
int
audience_list_check(struct db *db, struct arena *a,
    const struct lead_schema *leads, int32_t list_id, int64_t now_ms,
    char *msg, size_t msg_size)
{
	struct audience_cats c;
	struct sl_filter f;
	size_t nf = 0;
	int r;

	if ((r = audience_cats_load(db, a, leads, &c)) != 0)
		return r;
	r = list_filters(db, a, &c, list_id, now_ms, &f, &nf, msg, msg_size);
	sl_filter_clear(&f);
	if (r == 0 && nf == 0) {
		(void)snprintf(msg, msg_size, "it has no filter to select its "
		    "people");
		r = 1;
	}
	return r;
}

/* See audience.h. */
int
audience_choice(const struct audience_cats *c,
    const struct campaign_choice *ch, int64_t now_ms, struct sl_filter *f,
    char *msg, size_t msg_size)
{
	struct smartlist_cond cond;
	struct smartlist_rule rule;

	memset(f, 0, sizeof(*f));
	if (ch->is_default || ch->cond_kind == NULL) {
		(void)snprintf(msg, msg_size, "the choice has no condition");
		return 1;
	}
	memset(&cond, 0, sizeof(cond));
	memset(&rule, 0, sizeof(rule));
	rule.position = 1;
	rule.activity = strcmp(ch->cond_kind, "activity") == 0;
	rule.type_id = ch->cond_type_id;
	rule.name = ch->cond_name;
	/* An attribute rule names its field; an activity one its primary
	 * constraint (1). */
	cond.attribute_id = rule.activity ? 1 : ch->cond_type_id;
	cond.name = ch->cond_name;
	cond.op = ch->cond_op;
	cond.values_json = ch->cond_vals != NULL ? ch->cond_vals : "[]";
	cond.primary = true;
	rule.conds = &cond;
	rule.nconds = 1;
	return sl_filter_build_co(c->leads, &c->co, &rule, 1, "all", NULL,
	    now_ms, f, msg, msg_size) == 0 ? 0 : 1;
}

/* See audience.h. */
int
audience_pick(struct db *db, const struct audience_cats *c,
    const struct campaign_step *st, int64_t lead_id, int64_t now_ms,
    size_t *out)
{
	struct sl_filter f;
	char msg[SL_MSG_BYTES];
	size_t i;
	bool hit;
	int r;

	*out = st->nchoices > 0 ? st->nchoices - 1 : 0;
	for (i = 0; i < st->nchoices; i++) {
		if (st->choices[i].is_default) {
			*out = i;
			return 0;
		}
		if (audience_choice(c, &st->choices[i], now_ms, &f, msg,
		    sizeof(msg)) != 0) {
			sl_filter_clear(&f);
			continue;
		}
		r = repo_sl_filter_match(db, &f, lead_id, &hit);
		sl_filter_clear(&f);
		if (r != 0)
			return r;
		if (hit) {
			*out = i;
			return 0;
		}
	}
	return 0;
}
