/*
 * What Smart Lists share with Smart Campaigns, whose smart lists are
 * smart lists (api_smart_lists.c): the list's reply, the rule type
 * catalogue's, rule type references, values and suggestions.
 */
#ifndef MAUTO_API_API_SMART_LISTS_H
#define MAUTO_API_API_SMART_LISTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf;
struct call;
struct json_object;
struct repo_sl;
struct repo_sl_rule_type;
struct resp;

/*
 * A smart list's reply object (with its rules when with_rules) as JSON
 * text appended to b.  The rules member is s->kept.json when s has it
 * (repo_sl_get_reply); else it is rendered from s->rules, and kept on the
 * list's row (repo_sl_keep_rules) when s->kept.set: the same bytes
 * either way.
 */
void	api_smart_lists_text(struct buf *b, struct call *c,
	    const struct repo_sl *s, bool with_rules);

/* A smart list's reply object as r's one result; 0 or the api_err. */
int	api_smart_lists_answer(struct call *c, struct resp *r,
	    const struct repo_sl *s, bool with_rules);

/*
 * The rule types of types (n) that are triggers (triggers) or filters,
 * as an array of {id, name, type, constraints}; owned by the caller.
 */
struct json_object	*api_smart_lists_types_json(
			    const struct repo_sl_rule_type *types, size_t n,
			    bool triggers);

/*
 * Answers the rule type catalogue: {filters, predictiveFilters}, with
 * triggers after filters when triggers (a campaign's smart list may hold
 * them).  Returns 0 or the api_err.
 */
int	api_smart_lists_rule_types_answer(struct call *c, struct resp *r,
	    bool triggers);

/* The parameters of auto-suggest. */
struct api_sl_suggest {
	int32_t		 type_id;	/* ruleTypeId */
	bool		 activity;
	int32_t		 option_id;	/* optionTypeId's id; 0: the primary */
	const char	*prefix;	/* primaryAttributeValue, or NULL */
};

/* Reads ruleTypeId, optionTypeId and primaryAttributeValue (1002, 1001). */
int	api_smart_lists_suggest_params(struct call *c, struct resp *r,
	    struct api_sl_suggest *q);

/*
 * Rule type rt's constraint option_id (0: the primary one), or NULL when
 * it has none.
 */
const struct repo_sl_constraint *api_smart_lists_constraint(
		    const struct repo_sl_rule_type *rt, int32_t option_id);

/*
 * Answers auto-suggest: [[{id, displayName, name, workspace,
 * workspaceId}]], the names of data type dt (form, list, program, field,
 * email, campaign) starting with prefix, or the "No assets found"
 * warning (also when dt is NULL or names none of those).
 */
int	api_smart_lists_suggest(struct call *c, struct resp *r, const char *dt,
	    const char *prefix);

/*
 * Answers auto-suggest for constraint option_id (0: the primary) of rule
 * type rt: the assets an activity's constraint names
 * (api_smart_lists_suggest), else the free-text values of a lead
 * attribute or custom object field (repo_sl_suggest_values), or "No
 * assets found".
 */
int	api_smart_lists_suggest_rule(struct call *c, struct resp *r,
	    const struct repo_sl_rule_type *rt, int32_t option_id,
	    const char *prefix);

/*
 * A rule type or constraint reference {"id":N,"type":"activity"|
 * "attribute"} into *id and *activity; 1001 otherwise.
 */
int	api_smart_lists_type_ref(struct call *c, struct resp *r,
	    const char *text, int32_t *id, bool *activity);

/*
 * values as clients send it: comma-separated, a value holding a comma in
 * double quotes; as a JSON array text in the arena, or NULL.
 */
const char	*api_smart_lists_values_json(struct call *c, const char *s);

#endif
