/*
 * The tags and costs parameters of Create Program and Update Program
 * Metadata (docs/behaviour.md §22): JSON arrays, or the same written as
 * Python writes a list (marketorestpython sends repr(): single quotes,
 * True/False/None), parsed into typed items.  Pure code: no SQL, no
 * HTTP.
 */
#ifndef MAUTO_MODEL_PROGMETA_H
#define MAUTO_MODEL_PROGMETA_H

#include <stddef.h>
#include <stdint.h>

struct arena;

/* The most tags or costs one parameter may carry. */
#define PROGMETA_MAX_ITEMS	50
/* The longest tag type, tag value or cost note, in bytes. */
#define PROGMETA_TEXT_BYTES	255

struct progmeta_tag {
	const char	*type;		/* tagType */
	const char	*value;		/* tagValue */
};

struct progmeta_cost {
	char		 start_date[11];	/* "YYYY-MM-DD" */
	int64_t		 cost;			/* 0 or more */
	const char	*note;			/* NULL when none */
};

/*
 * Text s (JSON, or Python's list text) as JSON text in the arena a:
 * single-quoted strings become double-quoted ones, True, False and None
 * true, false and null, and other bare words strings.  NULL when out of
 * memory.
 */
char	*progmeta_json(struct arena *a, const char *s);

/*
 * The tags parameter s into *out (*n items, in the arena a): an array of
 * {"tagType": text, "tagValue": text}.  0, or -1 with *why saying what
 * is wrong (a static text).
 */
int	progmeta_tags(struct arena *a, const char *s,
	    struct progmeta_tag **out, size_t *n, const char **why);

/*
 * The costs parameter s into *out (*n items, in the arena a): an array
 * of {"startDate": "YYYY-MM-DD", "cost": integer 0 or more, "note":
 * text (optional)}.  0, or -1 with *why.
 */
int	progmeta_costs(struct arena *a, const char *s,
	    struct progmeta_cost **out, size_t *n, const char **why);

/* The longest asset name, in characters (the name columns). */
#define PROGMETA_NAME_CHARS	255

/*
 * The name Clone Program gives the copy of an asset named name whose
 * kind has names unique in the instance (docs/behaviour.md §22): name
 * without a last " (<from>)", then " (<to>)", from and to being the
 * source and new programs' names; in the arena a.  NULL when the name
 * would pass PROGMETA_NAME_CHARS characters, or out of memory.
 */
char	*progmeta_copy_name(struct arena *a, const char *name,
	    const char *from, const char *to);

#endif
