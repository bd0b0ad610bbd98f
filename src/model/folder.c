/*
 * Places of assets (folder.h): the lenient parser of the folder
 * parameter, the folderId + folderType pair, the folder kinds, and which
 * asset may live where.
 *
 * The folder parameter comes from every kind of client: JSON
 * ({"id":12,"type":"Folder"}), Python's repr of a dict ({'id': 12,
 * 'type': 'Folder'}, or an unquoted enum member as the type), Java's
 * Map.toString ({id=12, type=Folder}).  A small tokenizer reads exactly
 * that language and nothing else: an object of the two members id and
 * type, each once, in either order, with scalar values.  It never looks
 * past FOLDER_PARAM_MAX_BYTES, and it never reads a byte twice, so a
 * hostile value costs at most that many steps.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "model/folder.h"
#include "util/num.h"

/* The longest scalar token looked at: "landingPageTemplate" is 19. */
#define TOKEN_MAX	32

/* The input still to read: [p, end). */
struct cursor {
	const char	*p;
	const char	*end;
};

/* A scalar token: its bytes (without quotes) and whether it was quoted. */
struct token {
	const char	*s;
	size_t		 n;
	bool		 quoted;
};

/* Skips the white space between tokens (space, tab, CR, LF). */
static void
skip_ws(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' ||
	    *c->p == '\r' || *c->p == '\n'))
		c->p++;
}

/* Consumes byte ch after white space; returns whether it was there. */
static bool
expect(struct cursor *c, char ch)
{
	skip_ws(c);
	if (c->p >= c->end || *c->p != ch)
		return false;
	c->p++;
	return true;
}

/* Whether b may appear inside a scalar token. */
static bool
is_token_byte(char b)
{
	return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') ||
	    (b >= '0' && b <= '9') || b == '_' || b == '-' || b == '+' ||
	    b == '.';
}

/*
 * Reads a scalar token after white space: a run of token bytes, bare or
 * between a pair of the same quote (' or ").  An empty run, an unclosed
 * or mismatched quote, or a run longer than TOKEN_MAX is -1.
 */
static int
read_token(struct cursor *c, struct token *t)
{
	char q = '\0';

	t->s = NULL;
	t->n = 0;
	t->quoted = false;
	skip_ws(c);
	if (c->p < c->end && (*c->p == '"' || *c->p == '\'')) {
		q = *c->p++;
		t->quoted = true;
	}
	t->s = c->p;
	while (c->p < c->end && is_token_byte(*c->p) && t->n <= TOKEN_MAX) {
		c->p++;
		t->n++;
	}
	if (t->n == 0 || t->n > TOKEN_MAX)
		return -1;
	if (q != '\0') {
		if (c->p >= c->end || *c->p != q)
			return -1;
		c->p++;
	}
	return 0;
}

/* Whether token t is word w in any letter case. */
static bool
token_is(const struct token *t, const char *w)
{
	return t->n == strlen(w) && strncasecmp(t->s, w, t->n) == 0;
}

/* The id of token t: digits only, 1 to INT32_MAX. */
static int
token_id(const struct token *t, int64_t *id)
{
	size_t i;

	*id = 0;
	for (i = 0; i < t->n; i++)
		if (t->s[i] < '0' || t->s[i] > '9')
			return -1;
	return num_parse_i64n(t->s, t->n, 1, INT32_MAX, id);
}

/* The place type of token t: "Folder" or "Program" in any case. */
static int
token_type(const struct token *t, enum folder_type *type)
{
	int r = -1;

	if (token_is(t, "folder")) {
		*type = FOLDER_T_FOLDER;
		r = 0;
	} else if (token_is(t, "program")) {
		*type = FOLDER_T_PROGRAM;
		r = 0;
	}
	return r;
}

/*
 * Whether s holds a byte the parameter may not carry: a control byte
 * other than the white space between tokens, or DEL.  *len is set to
 * the length of s, or to FOLDER_PARAM_MAX_BYTES + 1 when it is longer.
 */
static bool
has_bad_byte(const char *s, size_t *len)
{
	size_t i;
	unsigned char b;

	for (i = 0; i <= FOLDER_PARAM_MAX_BYTES && s[i] != '\0'; i++) {
		b = (unsigned char)s[i];
		if ((b < 0x20 && b != '\t' && b != '\r' && b != '\n') ||
		    b == 0x7f) {
			*len = i;
			return true;
		}
	}
	*len = i;
	return false;
}

/* See folder.h. */
int
folder_ref_parse(const char *s, struct folder_ref *out)
{
	struct cursor c;
	struct token key, val;
	struct folder_ref ref = { .id = 0, .type = FOLDER_T_FOLDER };
	bool have_id = false, have_type = false;
	size_t len;
	int i, r = -1;

	memset(out, 0, sizeof(*out));
	if (s == NULL || has_bad_byte(s, &len) ||
	    len > FOLDER_PARAM_MAX_BYTES)
		goto out;
	c.p = s;
	c.end = s + len;
	if (!expect(&c, '{'))
		goto out;
	/* Exactly two members, id and type, in either order. */
	for (i = 0; i < 2; i++) {
		if (i > 0 && !expect(&c, ','))
			goto out;
		if (read_token(&c, &key) != 0)
			goto out;
		skip_ws(&c);
		if (c.p >= c.end || (*c.p != ':' && *c.p != '='))
			goto out;
		c.p++;
		if (read_token(&c, &val) != 0)
			goto out;
		if (token_is(&key, "id") && !have_id) {
			if (token_id(&val, &ref.id) != 0)
				goto out;
			have_id = true;
		} else if (token_is(&key, "type") && !have_type) {
			if (token_type(&val, &ref.type) != 0)
				goto out;
			have_type = true;
		} else
			goto out;
	}
	if (!expect(&c, '}'))
		goto out;
	skip_ws(&c);
	if (c.p != c.end)
		goto out;
	*out = ref;
	r = 0;
out:
	return r;
}

/* See folder.h. */
int
folder_ref_pair(const char *id, const char *type, struct folder_ref *out)
{
	int r = -1;

	memset(out, 0, sizeof(*out));
	if (num_parse_i64(id, 1, INT32_MAX, &out->id) != 0)
		goto out;
	if (type == NULL || strcasecmp(type, "folder") == 0)
		out->type = FOLDER_T_FOLDER;
	else if (strcasecmp(type, "program") == 0)
		out->type = FOLDER_T_PROGRAM;
	else
		goto out;
	r = 0;
out:
	if (r != 0)
		memset(out, 0, sizeof(*out));
	return r;
}

/* See folder.h. */
const char *
folder_type_name(enum folder_type t)
{
	return t == FOLDER_T_PROGRAM ? "Program" : "Folder";
}

static const char *const kind_names[FK__MAX] = {
	[FK_MARKETING] = "marketing",
	[FK_EMAIL] = "email",
	[FK_EMAIL_TEMPLATE] = "emailTemplate",
	[FK_LP_TEMPLATE] = "landingPageTemplate",
	[FK_SMART_LIST] = "smartList",
	[FK_STATIC_LIST] = "staticList",
};

/* The asset each kind of folder other than marketing holds. */
static const enum asset_kind kind_assets[FK__MAX] = {
	[FK_MARKETING] = AK_PROGRAM,
	[FK_EMAIL] = AK_EMAIL,
	[FK_EMAIL_TEMPLATE] = AK_EMAIL_TEMPLATE,
	[FK_LP_TEMPLATE] = AK_LP_TEMPLATE,
	[FK_SMART_LIST] = AK_SMART_LIST,
	[FK_STATIC_LIST] = AK_STATIC_LIST,
};

/* See folder.h. */
const char *
folder_kind_name(enum folder_kind k)
{
	return (unsigned)k < FK__MAX ? kind_names[k] : "";
}

/* See folder.h. */
int
folder_kind_parse(const char *word)
{
	int i;

	if (word == NULL)
		return -1;
	for (i = 0; i < FK__MAX; i++)
		if (strcmp(word, kind_names[i]) == 0)
			return i;
	return -1;
}

/* See folder.h. */
bool
folder_may_hold(enum folder_kind fk, bool is_program, enum asset_kind ak)
{
	if ((unsigned)ak >= AK__MAX)
		return false;
	if (is_program)
		return ak == AK_EMAIL || ak == AK_SMART_LIST ||
		    ak == AK_SMART_CAMPAIGN || ak == AK_STATIC_LIST;
	if ((unsigned)fk >= FK__MAX)
		return false;
	/*
	 * Marketing folders hold programs and smart campaigns (Marketing
	 * Activities); the others their own asset.
	 */
	if (fk == FK_MARKETING && ak == AK_SMART_CAMPAIGN)
		return true;
	return ak == AK_FOLDER || ak == kind_assets[fk];
}
