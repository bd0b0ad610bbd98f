/*
 * "My Tokens" of folders and programs (docs/behaviour.md §21): the token
 * types the API creates, the check of a value against its type, and the
 * name as a client may send it.  Pure code: no SQL, no HTTP.
 */
#ifndef MAUTO_MODEL_TOKEN_H
#define MAUTO_MODEL_TOKEN_H

#include <stddef.h>
#include <stdint.h>

/* The longest token name, in characters (the documented bound). */
#define TOKEN_NAME_CHARS	50
/* The longest value, in bytes (the column's size). */
#define TOKEN_VALUE_MAX_BYTES	65535

enum token_type {
	TOKEN_DATE,		/* yyyy-MM-dd */
	TOKEN_NUMBER,		/* an integer or a decimal fraction */
	TOKEN_RICH_TEXT,	/* HTML */
	TOKEN_SCORE,		/* a signed 32-bit integer */
	TOKEN_SFDC_CAMPAIGN,	/* a Salesforce campaign's name */
	TOKEN_TEXT,
	TOKEN__MAX
};

/* The type's word as the API writes it ("rich text"). */
const char	*token_type_name(enum token_type t);

/*
 * The type of a word, in any letter case; -1 when it is none of the six.
 */
int	token_type_parse(const char *word);

/*
 * Whether value fits type t: a real calendar date for date, a decimal
 * number (sign, digits, an optional fraction and exponent; no hex, no
 * infinity) for number, an integer from -2147483648 to 2147483647 (an
 * optional sign) for score, any text for the others; never longer than
 * TOKEN_VALUE_MAX_BYTES.  Returns 0, or -1.
 */
int	token_value_check(enum token_type t, const char *value);

/*
 * The name as it is kept: a name sent as "{{my.Name}}" or "my.Name" is
 * Name (clients copy names out of content); written into out (size
 * bytes).  Returns 0, or -1 when the name is empty after that, longer
 * than TOKEN_NAME_CHARS characters, or holds "{{" or "}}" (it could not
 * stand in content as {{my.<name>}}).
 */
int	token_name_normalize(const char *name, char *out, size_t size);

/*
 * One definition of a token seen from a place: its name, how far up the
 * tree it stands (0: the place itself; a program's folder 1, that
 * folder's parent 2, ...) and the caller's index of it.
 */
struct token_def {
	const char	*name;
	int64_t		 depth;
	size_t		 index;
};

/*
 * The definitions in effect at the place, of the n given in any order:
 * for each name the nearest (the smallest depth; of two as near, the one
 * given first), by name (bytewise).  Rearranges defs so that those come
 * first and returns how many they are.
 */
size_t	token_nearest(struct token_def *defs, size_t n);

#endif
