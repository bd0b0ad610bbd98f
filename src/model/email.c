/*
 * The content document of an email version (email.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "model/email.h"
#include "model/template.h"
#include "util/buf.h"
#include "util/num.h"

/* The member name (an object) of doc, made when missing. */
static struct json_object *
member(struct json_object *doc, const char *name)
{
	struct json_object *m;

	if (json_object_object_get_ex(doc, name, &m) &&
	    json_object_is_type(m, json_type_object))
		return m;
	m = json_object_new_object();
	json_object_object_add(doc, name, m);
	return m;
}

/* See email.h. */
struct json_object *
email_doc_parse(const char *text, size_t len)
{
	struct json_tokener *tok;
	struct json_object *doc;

	if (len == 0)
		doc = json_object_new_object();
	else {
		if ((tok = json_tokener_new()) == NULL)
			return NULL;
		doc = json_tokener_parse_ex(tok, text, (int)len);
		json_tokener_free(tok);
		if (doc == NULL || !json_object_is_type(doc, json_type_object)) {
			json_object_put(doc);
			return NULL;
		}
	}
	(void)member(doc, "sections");
	(void)member(doc, "variables");
	return doc;
}

/* See email.h. */
struct json_object *
email_doc_section(struct json_object *doc, const char *html_id)
{
	struct json_object *s;

	if (json_object_object_get_ex(member(doc, "sections"), html_id, &s) &&
	    json_object_is_type(s, json_type_object))
		return s;
	return NULL;
}

/* See email.h. */
void
email_doc_set_section(struct json_object *doc, const char *html_id,
    struct json_object *s)
{
	json_object_object_add(member(doc, "sections"), html_id, s);
}

/* The key of a variable: "name", or "module:name". */
static char *
var_key(const char *name, const char *module)
{
	size_t n = strlen(name) + (module != NULL ? strlen(module) + 1 : 0) + 1;
	char *k = malloc(n);

	if (k == NULL)
		return NULL;
	if (module != NULL)
		(void)snprintf(k, n, "%s:%s", module, name);
	else
		(void)snprintf(k, n, "%s", name);
	return k;
}

/* See email.h. */
const char *
email_doc_variable(struct json_object *doc, const char *name,
    const char *module)
{
	struct json_object *v;
	char *k = var_key(name, module);
	const char *s = NULL;

	if (k != NULL && json_object_object_get_ex(member(doc, "variables"),
	    k, &v) && json_object_is_type(v, json_type_string))
		s = json_object_get_string(v);
	free(k);
	return s;
}

/* See email.h. */
void
email_doc_set_variable(struct json_object *doc, const char *name,
    const char *module, const char *value)
{
	char *k = var_key(name, module);

	if (k == NULL)
		return;
	json_object_object_add(member(doc, "variables"), k,
	    json_object_new_string(value));
	free(k);
}

/* See email.h. */
struct json_object *
email_module_new(const char *id, const char *module)
{
	struct json_object *m = json_object_new_object();

	json_object_object_add(m, "id", json_object_new_string(id));
	json_object_object_add(m, "module", json_object_new_string(module));
	return m;
}

/* See email.h. */
struct json_object *
email_doc_modules(struct json_object *doc, const struct tpl_outline *o)
{
	struct json_object *mods;
	size_t i;

	if (json_object_object_get_ex(doc, "modules", &mods) &&
	    json_object_is_type(mods, json_type_array))
		return json_object_get(mods);
	mods = json_object_new_array();
	for (i = 0; o != NULL && i < o->nmodules; i++)
		if (o->modules[i].add_by_default)
			json_object_array_add(mods, email_module_new(
			    o->modules[i].id, o->modules[i].id));
	return mods;
}

/* See email.h. */
void
email_doc_set_modules(struct json_object *doc, struct json_object *mods)
{
	json_object_object_add(doc, "modules", mods);
}

/* A string member of instance i of mods ("" when missing). */
static const char *
inst_str(struct json_object *mods, size_t i, const char *name)
{
	struct json_object *m = json_object_array_get_idx(mods, i), *v;

	if (m != NULL && json_object_object_get_ex(m, name, &v) && v != NULL)
		return json_object_get_string(v);
	return "";
}

/* See email.h. */
long
email_modules_find(struct json_object *mods, const char *id)
{
	size_t i, n = json_object_array_length(mods);

	for (i = 0; i < n; i++)
		if (strcmp(inst_str(mods, i, "id"), id) == 0)
			return (long)i;
	return -1;
}

/* See email.h. */
long
email_modules_template(struct json_object *mods, size_t i,
    const struct tpl_outline *o)
{
	const char *module = inst_str(mods, i, "module");
	size_t k;

	for (k = 0; k < o->nmodules; k++)
		if (strcmp(o->modules[k].id, module) == 0)
			return (long)k;
	return -1;
}

/* See email.h. */
const char *
email_doc_str(struct json_object *o, const char *name, const char *dflt)
{
	struct json_object *v;

	if (o != NULL && json_object_object_get_ex(o, name, &v) && v != NULL)
		return json_object_get_string(v);
	return dflt;
}

/* See email.h. */
int32_t
email_doc_ref(struct json_object *o, const char *name)
{
	int64_t n;

	if (num_parse_i64(email_doc_str(o, name, ""), 1, INT32_MAX, &n) != 0)
		return 0;
	return (int32_t)n;
}

/* See email.h. */
const char *
email_doc_html(struct json_object *doc)
{
	return email_doc_str(doc, "html", "");
}

/* See email.h. */
const char *
email_doc_text(struct json_object *doc)
{
	struct json_object *t;

	if (json_object_object_get_ex(doc, "text", &t) &&
	    json_object_is_type(t, json_type_string))
		return json_object_get_string(t);
	return NULL;
}

/* See email.h. */
void
email_doc_set_html(struct json_object *doc, const char *html)
{
	json_object_object_add(doc, "html", json_object_new_string(html));
}

/* See email.h. */
void
email_doc_set_text(struct json_object *doc, const char *text)
{
	if (text != NULL)
		json_object_object_add(doc, "text",
		    json_object_new_string(text));
	else
		json_object_object_del(doc, "text");
}

/* See email.h. */
char *
email_doc_text_of(struct json_object *doc)
{
	const char *s = json_object_to_json_string_ext(doc,
	    JSON_C_TO_STRING_PLAIN);

	return s != NULL ? strdup(s) : NULL;
}

/* See email.h. */
bool
email_module_uses(const struct tpl_module *m, size_t v)
{
	size_t k;

	for (k = 0; k < m->nvars; k++)
		if (m->vars[k] == v)
			return true;
	return false;
}

/* See email.h. */
const char *
email_variable_value(struct json_object *doc, const struct tpl_outline *o,
    size_t v, const char *module)
{
	const struct tpl_variable *var = &o->variables[v];
	const char *set = email_doc_variable(doc, var->id, module);

	return set != NULL ? set : var->value;
}

/* See email.h. */
const char *
email_section_type(struct json_object *s)
{
	return email_doc_str(s, "type", NULL);
}

/* See email.h. */
struct json_object *
email_section_new(const char *type)
{
	struct json_object *s = json_object_new_object();

	json_object_object_add(s, "type", json_object_new_string(type));
	return s;
}

/* See email.h. */
void
email_section_set(struct json_object *s, const char *name,
    const char *value)
{
	json_object_object_add(s, name, json_object_new_string(value));
}

/* See email.h. */
void
email_section_set_ref(struct json_object *s, const char *name, int32_t id)
{
	char num[16];

	(void)snprintf(num, sizeof(num), "%ld", (long)id);
	email_section_set(s, name, num);
}

/* See email.h. */
struct json_object *
email_section_segment(struct json_object *s, const char *name)
{
	struct json_object *segs, *seg;

	if (s != NULL && json_object_object_get_ex(s, "segments", &segs) &&
	    json_object_object_get_ex(segs, name, &seg))
		return seg;
	return NULL;
}

/* See email.h. */
const char *
email_segment_type(struct json_object *seg)
{
	return email_doc_str(seg, "type", "HTML");
}

/* See email.h. */
const char *
email_segment_content(struct json_object *seg, const char *dflt)
{
	return email_doc_str(seg, "content", dflt);
}

/* See email.h. */
void
email_section_set_segment(struct json_object *s, const char *name,
    const char *type, const char *content)
{
	struct json_object *one = json_object_new_object();

	json_object_object_add(one, "type", json_object_new_string(type));
	json_object_object_add(one, "content",
	    json_object_new_string(content));
	json_object_object_add(member(s, "segments"), name, one);
}

/* See email.h. */
const char *
email_module_id(struct json_object *mods, size_t i)
{
	struct json_object *m = json_object_array_get_idx(mods, i), *v;

	if (m != NULL && json_object_object_get_ex(m, "id", &v) && v != NULL)
		return json_object_get_string(v);
	return NULL;
}

/* See email.h. */
const char *
email_module_of(struct json_object *mods, size_t i)
{
	struct json_object *m = json_object_array_get_idx(mods, i), *v;

	if (m != NULL && json_object_object_get_ex(m, "module", &v) &&
	    v != NULL)
		return json_object_get_string(v);
	return NULL;
}

/* See email.h. */
void
email_module_set_id(struct json_object *mods, size_t i, const char *id)
{
	json_object_object_add(json_object_array_get_idx(mods, i), "id",
	    json_object_new_string(id));
}

/* See email.h. */
struct json_object *
email_modules_insert(struct json_object *mods, size_t at,
    struct json_object *m)
{
	struct json_object *out = json_object_new_array();
	size_t i, n = json_object_array_length(mods);

	for (i = 0; i <= n; i++) {
		if (i == at || (i == n && at > n))
			json_object_array_add(out, m);
		if (i < n)
			json_object_array_add(out, json_object_get(
			    json_object_array_get_idx(mods, i)));
	}
	json_object_put(mods);
	return out;
}

/* See email.h. */
const char *
email_modules_new_id(struct json_object *mods, const char *name,
    const char *base, char *buf, size_t bytes)
{
	size_t n = json_object_array_length(mods), k;
	int len;

	if (name != NULL)
		return name;
	if (email_modules_find(mods, base) < 0)
		return base;
	/* One of the first n + 1 is free among n instances. */
	for (k = 2; k <= n + 2; k++) {
		len = snprintf(buf, bytes, "%s-%zu", base, k);
		if (len < 0 || (size_t)len >= bytes)
			return NULL;
		if (email_modules_find(mods, buf) < 0)
			return buf;
	}
	return NULL;
}

/* See email.h. */
void
email_doc_move_module_values(struct json_object *doc, const char *from,
    const char *to)
{
	struct json_object *vars, *moved = json_object_new_object();
	size_t flen = strlen(from);
	char *key;

	if (!json_object_object_get_ex(doc, "variables", &vars) ||
	    !json_object_is_type(vars, json_type_object)) {
		json_object_put(moved);
		return;
	}
	json_object_object_foreach(vars, k, v) {
		if (strncmp(k, from, flen) == 0 && k[flen] == ':')
			json_object_object_add(moved, k, json_object_get(v));
	}
	json_object_object_foreach(moved, mk, mv) {
		json_object_object_del(vars, mk);
		key = malloc(strlen(to) + strlen(mk + flen) + 1);
		if (key == NULL)
			continue;
		(void)snprintf(key, strlen(to) + strlen(mk + flen) + 1, "%s%s",
		    to, mk + flen);
		json_object_object_add(vars, key, json_object_get(mv));
		free(key);
	}
	json_object_put(moved);
}

/*
 * s with the tokens "<open><name>[:default=<text>]}}" filled through
 * value (email_fill_tokens and email_fill_my_tokens say how).
 */
static char *
fill_tokens(const char *s, const char *open, email_token_fn value,
    void *arg)
{
	static const char dflt[] = ":default=";
	struct buf b;
	const char *p, *hit, *end, *close, *colon, *v;
	char name[256];
	size_t nlen;
	bool known, any = false;

	if (s == NULL || strstr(s, open) == NULL)
		return NULL;
	buf_init(&b, EMAIL_TOKEN_OUT_BYTES);
	for (p = s; (hit = strstr(p, open)) != NULL; p = end) {
		buf_add(&b, p, (size_t)(hit - p));
		end = hit + strlen(open);
		if ((close = strstr(end, "}}")) == NULL) {
			/* Not a token: the rest goes as it is. */
			p = hit;
			break;
		}
		colon = strstr(end, dflt);
		if (colon != NULL && colon > close)
			colon = NULL;
		nlen = (size_t)((colon != NULL ? colon : close) - end);
		known = false;
		v = NULL;
		if (nlen > 0 && nlen < sizeof(name)) {
			memcpy(name, end, nlen);
			name[nlen] = '\0';
			v = value(name, arg, &known);
		}
		if (!known) {
			buf_add(&b, hit, (size_t)(close + 2 - hit));
		} else if (v != NULL && v[0] != '\0') {
			buf_adds(&b, v);
			any = true;
		} else {
			if (colon != NULL)
				buf_add(&b, colon + sizeof(dflt) - 1,
				    (size_t)(close - colon - (sizeof(dflt) - 1)));
			any = true;
		}
		end = close + 2;
	}
	buf_adds(&b, p);
	if (!any || !buf_ok(&b)) {
		buf_clear(&b);
		return NULL;
	}
	return b.data;
}

/* See email.h. */
char *
email_fill_tokens(const char *s, email_token_fn value, void *arg)
{
	return fill_tokens(s, "{{lead.", value, arg);
}

/* See email.h. */
char *
email_fill_my_tokens(const char *s, email_token_fn value, void *arg)
{
	return fill_tokens(s, "{{my.", value, arg);
}
