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

struct call;
struct json_object;
struct repo_sl;
struct repo_sl_rule_type;
struct repo_sl_suggestion;
struct resp;

/* A smart list's reply object (with its rules when with_rules); owned. */
struct json_object	*api_smart_lists_json(struct call *c,
			    const struct repo_sl *s, bool with_rules);

/*
 * The rule types of types (n) that are triggers (triggers) or filters,
 * as an array of {id, name, type, constraints}; owned by the caller.
 */
struct json_object	*api_smart_lists_types_json(
			    const struct repo_sl_rule_type *types, size_t n,
			    bool triggers);

/* Suggestions as the array of {id, displayName, name, workspace,
 * workspaceId} auto-suggest answers; owned by the caller. */
struct json_object	*api_smart_lists_suggest_json(
			    const struct repo_sl_suggestion *sg, size_t n);

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
