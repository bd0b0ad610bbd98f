/*
 * libFuzzer target for the smart list filter compiler
 * (repo/repo_sl_filter_sql.c), with a lead schema and a custom object
 * catalogue of its own.  The input is a JSON document of rules:
 * {"match":"all"|"any"|"custom","logic":"1 and 2","rules":[{"activity":
 * true,"type":24,"trigger":false,"negative":false,"name":"R","conds":
 * [{"id":1,"op":"is","values":["x"]}]}]}; a condition's values are passed
 * on as the JSON text of whatever "values" holds.  Invariants: compiling
 * is deterministic; an accepted filter has one bound value per "?" of
 * its text, within the bounds; a refusal leaves no text and a message.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>

#include "model/leadfield.h"
#include "model/smartlist.h"
#include "repo/repo_sl_filter.h"
#include "sl_filter_fixture.h"

#define INPUT_MAX	(64 * 1024)
#define RULES_MAX	64
#define CONDS_MAX	16
#define NOW_MS		INT64_C(1774958400000)

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *
str_member(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int64_t
int_member(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	return json_object_get_int64(v);
}

static bool
bool_member(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) &&
	    json_object_get_boolean(v);
}

/* Reads rule o into r with its conditions in c (CONDS_MAX). */
static void
read_rule(struct json_object *o, struct smartlist_rule *r,
    struct smartlist_cond *c)
{
	struct json_object *conds, *k, *v;
	size_t i, n = 0;

	memset(r, 0, sizeof(*r));
	r->activity = bool_member(o, "activity");
	r->type_id = (int32_t)int_member(o, "type");
	r->trigger = bool_member(o, "trigger");
	r->negative = bool_member(o, "negative");
	r->name = str_member(o, "name");
	if (json_object_object_get_ex(o, "conds", &conds) &&
	    json_object_is_type(conds, json_type_array))
		n = json_object_array_length(conds);
	if (n > CONDS_MAX)
		n = CONDS_MAX;
	for (i = 0; i < n; i++) {
		k = json_object_array_get_idx(conds, i);
		memset(&c[i], 0, sizeof(c[i]));
		c[i].attribute_id = (int32_t)int_member(k, "id");
		c[i].op = str_member(k, "op");
		if (json_object_object_get_ex(k, "values", &v))
			c[i].values_json = json_object_to_json_string_ext(v,
			    JSON_C_TO_STRING_PLAIN);
	}
	r->conds = c;
	r->nconds = n;
}

static size_t
marks(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += *s == '?';
	return n;
}

static bool
same(const struct sl_filter *a, const struct sl_filter *b)
{
	size_t i;

	if ((a->where == NULL) != (b->where == NULL) ||
	    (a->where != NULL && strcmp(a->where, b->where) != 0) ||
	    a->nbinds != b->nbinds)
		return false;
	for (i = 0; i < a->nbinds; i++)
		if (a->binds[i].kind != b->binds[i].kind ||
		    a->binds[i].i != b->binds[i].i ||
		    memcmp(&a->binds[i].d, &b->binds[i].d,
		    sizeof(double)) != 0 ||
		    (a->binds[i].kind == SLF_STR &&
		    strcmp(a->binds[i].s, b->binds[i].s) != 0))
			return false;
	return true;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct smartlist_rule rules[RULES_MAX];
	static struct smartlist_cond conds[RULES_MAX][CONDS_MAX];
	struct json_tokener *tok;
	struct json_object *doc, *list = NULL;
	struct sl_filter fa, fb;
	char ma[SL_MSG_BYTES], mb[SL_MSG_BYTES];
	const char *match = NULL, *logic = NULL;
	size_t i, n = 0;
	int ra, rb;

	if (size > INPUT_MAX || (tok = json_tokener_new_ex(16)) == NULL)
		return 0;
	doc = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	json_tokener_free(tok);
	if (doc == NULL)
		return 0;
	if (json_object_is_type(doc, json_type_object) &&
	    json_object_object_get_ex(doc, "rules", &list) &&
	    json_object_is_type(list, json_type_array))
		n = json_object_array_length(list);
	if (n > RULES_MAX)
		n = RULES_MAX;
	for (i = 0; i < n; i++)
		read_rule(json_object_array_get_idx(list, i), &rules[i],
		    conds[i]);
	if (json_object_is_type(doc, json_type_object)) {
		match = str_member(doc, "match");
		logic = str_member(doc, "logic");
	}
	ra = sl_filter_build_co(&schema, &co, rules, n, match, logic, NOW_MS,
	    &fa, ma, sizeof(ma));
	rb = sl_filter_build_co(&schema, &co, rules, n, match, logic, NOW_MS,
	    &fb, mb, sizeof(mb));
	if (ra != rb || (ra != 0 && ra != -1) || !same(&fa, &fb))
		__builtin_trap();
	if (ra == 0 && (fa.where == NULL || marks(fa.where) != fa.nbinds ||
	    fa.nbinds > SLF_MAX_BINDS ||
	    strlen(fa.where) > SLF_MAX_SQL_BYTES))
		__builtin_trap();
	if (ra != 0 && (fa.where != NULL || fa.nbinds != 0 || ma[0] == '\0' ||
	    strcmp(ma, mb) != 0))
		__builtin_trap();
	sl_filter_clear(&fa);
	sl_filter_clear(&fb);
	json_object_put(doc);
	return 0;
}
