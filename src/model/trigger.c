/*
 * Trigger constraints (trigger.h).
 *
 * Values are compared as text without case, as smart list constraints
 * are (docs/behaviour.md §25); a primary value given by id matches the
 * id's decimal text, so a constraint may name a list or campaign either
 * way.  The values come as the JSON array the smart list keeps: the
 * array is parsed once a call, which costs little next to the database
 * work around each offer.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "model/smartlist.h"
#include "model/trigger.h"

/* See trigger.h. */
bool
trigger_cond_value(const char *op, const char *vals_json, const char *v,
    int64_t id)
{
	struct json_object *arr;
	const char *w;
	char ids[24];
	bool neg, hit = false;
	size_t i;

	if (op != NULL && strcmp(op, "is empty") == 0)
		return v == NULL || v[0] == '\0';
	if (op != NULL && strcmp(op, "is not empty") == 0)
		return v != NULL && v[0] != '\0';
	(void)snprintf(ids, sizeof(ids), "%lld", (long long)id);
	neg = op != NULL && strncmp(op, "is not", 6) == 0;
	arr = json_tokener_parse(vals_json != NULL ? vals_json : "[]");
	for (i = 0; arr != NULL && json_object_is_type(arr, json_type_array) &&
	    i < json_object_array_length(arr) && !hit; i++) {
		w = json_object_get_string(json_object_array_get_idx(arr, i));
		if (w == NULL)
			continue;
		if (op != NULL && strcmp(op, "contains") == 0)
			hit = v != NULL && strcasestr(v, w) != NULL;
		else if (op != NULL && strcmp(op, "starts with") == 0)
			hit = v != NULL && strncasecmp(v, w, strlen(w)) == 0;
		else
			hit = (v != NULL && strcasecmp(v, w) == 0) ||
			    (id != 0 && strcmp(w, ids) == 0);
	}
	json_object_put(arr);
	return neg ? !hit : hit;
}

/* The text of attribute k of attrs, or NULL. */
static const char *
attr_text(struct json_object *attrs, const char *k)
{
	struct json_object *v;

	if (attrs == NULL || !json_object_object_get_ex(attrs, k, &v) ||
	    v == NULL)
		return NULL;
	return json_object_get_string(v);
}

/*
 * Whether the activity a is what the primary constraint's values name
 * under the positive operator op: its primary value by id or name (a
 * program's list also by its bare name), Data Value Changed's field also
 * by REST name, Person is Created's by its Source Type.
 */
static bool
primary_is(const char *op, const struct smartlist_cond *c,
    const struct trigger_activity *a)
{
	const char *v = a->primary_value != NULL ? a->primary_value : "",
	    *dot;

	if (a->type == TRIGGER_PERSON_CREATED)
		return trigger_cond_value(op, c->values_json, attr_text(a->attrs,
		    "Source Type"), 0);
	if (trigger_cond_value(op, c->values_json, v, a->primary_id))
		return true;
	dot = strrchr(v, '.');
	if (dot != NULL && trigger_cond_value(op, c->values_json, dot + 1, 0))
		return true;
	return a->type == TRIGGER_DATA_VALUE_CHANGED &&
	    trigger_cond_value(op, c->values_json, attr_text(a->attrs,
	    "Attribute Name"), 0);
}

/*
 * Whether the primary constraint c holds for a: a negative operator
 * ("is not") holds when none of the ways the activity can be named
 * matches.
 */
static bool
primary_holds(const struct smartlist_cond *c, const struct trigger_activity *a)
{
	if (c->op != NULL && strcmp(c->op, "is not") == 0)
		return !primary_is("is", c, a);
	return primary_is(c->op, c, a);
}

/* See trigger.h. */
bool
trigger_matches(const struct smartlist_rule *t,
    const struct trigger_activity *a)
{
	const struct smartlist_cond *c;
	const char *v;
	size_t i;

	for (i = 0; i < t->nconds; i++) {
		c = &t->conds[i];
		if (c->primary) {
			if (!primary_holds(c, a))
				return false;
			continue;
		}
		if (c->name == NULL || strcmp(c->name, "Date of Activity") == 0 ||
		    strcmp(c->name, "Min. Number of Times") == 0)
			continue;
		if (strcmp(c->name, "Previous Value") == 0)
			v = attr_text(a->attrs, "Old Value");
		else if (strcmp(c->name, "Previous Status") == 0)
			v = attr_text(a->attrs, "Old Status");
		else
			v = attr_text(a->attrs, c->name);
		if (!trigger_cond_value(c->op, c->values_json, v, 0))
			return false;
	}
	return true;
}
