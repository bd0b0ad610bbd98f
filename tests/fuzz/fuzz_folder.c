/*
 * libFuzzer target for the folder parameter (model/folder.c).  The input
 * up to its first NUL is the folder parameter; when a NUL follows, the
 * bytes after it are split once more on NUL into the folderId and
 * folderType of the browse operations.  Invariants: parsing is
 * deterministic; a refused parameter leaves a zeroed reference; an
 * accepted one has an id in 1..INT32_MAX and a known type, came from at
 * most FOLDER_PARAM_MAX_BYTES bytes framed by braces, and parses again
 * to the same reference once written out as JSON, as Python's repr and
 * as Java's Map.toString.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/folder.h"

#define INPUT_MAX	8192

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether a and b are the same reference. */
static bool
same(const struct folder_ref *a, const struct folder_ref *b)
{
	return a->id == b->id && a->type == b->type;
}

/* Whether r is a reference the parsers may hand out. */
static bool
valid(const struct folder_ref *r)
{
	return r->id >= 1 && r->id <= INT32_MAX &&
	    (r->type == FOLDER_T_FOLDER || r->type == FOLDER_T_PROGRAM);
}

/* Whether r is the zeroed reference of a refusal. */
static bool
zeroed(const struct folder_ref *r)
{
	return r->id == 0 && r->type == FOLDER_T_FOLDER;
}

/*
 * The checks of two runs on one input (results ra and rb, references a
 * and b): the same outcome, a zeroed reference on refusal, a valid one
 * on success.  Returns whether the input was accepted.
 */
static bool
accepted(int ra, int rb, const struct folder_ref *a,
    const struct folder_ref *b)
{
	if (ra != rb || !same(a, b) || (ra != 0 && ra != -1))
		__builtin_trap();
	if (ra != 0 && !zeroed(a))
		__builtin_trap();
	if (ra == 0 && !valid(a))
		__builtin_trap();
	return ra == 0;
}

/* Parses buf (n bytes written by snprintf) back; it must give r. */
static void
parse_back(const char *buf, int n, const struct folder_ref *r)
{
	struct folder_ref back;

	if (n < 0 || n >= FOLDER_PARAM_MAX_BYTES)
		__builtin_trap();
	if (folder_ref_parse(buf, &back) != 0 || !same(&back, r))
		__builtin_trap();
}

/* Writes r out in the three forms clients send and parses each back. */
static void
round_trip(const struct folder_ref *r)
{
	char buf[FOLDER_PARAM_MAX_BYTES];
	const char *t = folder_type_name(r->type);
	long long id = (long long)r->id;

	parse_back(buf, snprintf(buf, sizeof(buf),
	    "{\"id\":%lld,\"type\":\"%s\"}", id, t), r);
	parse_back(buf, snprintf(buf, sizeof(buf),
	    "{'id': %lld, 'type': %s}", id, t), r);
	parse_back(buf, snprintf(buf, sizeof(buf),
	    "{id=%lld, type=%s}", id, t), r);
}

/* The checks of folder_ref_parse on the NUL-terminated s. */
static void
check_parse(const char *s)
{
	struct folder_ref a, b;
	size_t len, i, j;
	int ra, rb;

	ra = folder_ref_parse(s, &a);
	rb = folder_ref_parse(s, &b);
	if (!accepted(ra, rb, &a, &b))
		return;
	len = strlen(s);
	if (len > FOLDER_PARAM_MAX_BYTES)
		__builtin_trap();
	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] < 0x20 && strchr("\t\r\n", s[i]) ==
		    NULL) || (unsigned char)s[i] >= 0x7f)
			__builtin_trap();
	i = strspn(s, " \t\r\n");
	for (j = len; j > i && strchr(" \t\r\n", s[j - 1]) != NULL; j--)
		;
	if (j - i < 2 || s[i] != '{' || s[j - 1] != '}')
		__builtin_trap();
	round_trip(&a);
}

/* The checks of folder_ref_pair. */
static void
check_pair(const char *id, const char *type)
{
	struct folder_ref a, b;
	char buf[32];
	int ra, rb;

	ra = folder_ref_pair(id, type, &a);
	rb = folder_ref_pair(id, type, &b);
	if (!accepted(ra, rb, &a, &b))
		return;
	if (strspn(id, "0123456789") != strlen(id))
		__builtin_trap();
	(void)snprintf(buf, sizeof(buf), "%lld", (long long)a.id);
	if (folder_ref_pair(buf, folder_type_name(a.type), &b) != 0 ||
	    !same(&a, &b))
		__builtin_trap();
	round_trip(&a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char copy[INPUT_MAX + 1];
	char *id, *type, *nul;

	if (size > INPUT_MAX)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	check_parse(copy);
	if ((nul = memchr(copy, '\0', size)) == NULL)
		return 0;
	id = nul + 1;
	type = NULL;
	if ((nul = memchr(id, '\0', (size_t)(copy + size - id))) != NULL &&
	    nul + 1 < copy + size)
		type = nul + 1;
	check_pair(id, type);
	return 0;
}
