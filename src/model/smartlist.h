/*
 * Smart lists (docs/assets.md, docs/behaviour.md §11): the filter logic
 * of a smart list, "1 and (2 or not 3)", and its rule numbers as rules
 * move and go.  Pure code.
 *
 * The grammar: expr = term {"or" term}; term = factor {"and" factor};
 * factor = "not" factor | "(" expr ")" | number.  Words in any letter
 * case, white space between tokens, "and" binding tighter than "or".
 * Every number is a rule of the list (1 to the number of rules).
 */
#ifndef MAUTO_MODEL_SMARTLIST_H
#define MAUTO_MODEL_SMARTLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest expression taken, in bytes, and the deepest nesting. */
#define SL_LOGIC_MAX_BYTES	2000
#define SL_LOGIC_MAX_DEPTH	64
/* The most rules a smart list has. */
#define SL_MAX_RULES		500
/*
 * The longest refusal message of a list's rules, with its terminator: room
 * for an echoed value (TEXT_ECHO_BYTES and "...") and the constraint's
 * operators, so no message is ever cut.
 */
#define SL_MSG_BYTES		256

/*
 * The rule type ids of custom object filters: this plus the custom object
 * type's id (db/migrations/0019_co_filters.sql), activity-kind.
 */
#define SL_CO_RULE_BASE		200000

/*
 * Checks expr over rules 1..nrules and writes its canonical form (words
 * in lower case, single spaces, only the parentheses the precedence
 * needs) to out (SL_LOGIC_MAX_BYTES + 1 bytes).  Returns 0, or -1 with
 * the reason in msg (SL_MSG_BYTES).
 */
int	sl_logic_parse(const char *expr, int nrules, char *out, char *msg);

/*
 * Rewrites the valid expression expr (of nold rules) after the rules
 * moved: map[i] is the new number of rule i + 1, or 0 when it was
 * deleted; a deleted rule leaves the expression, with the operator that
 * joined it (and a "not" over it).  Writes the canonical form to out
 * (SL_LOGIC_MAX_BYTES + 1 bytes), the empty string when no rule is left;
 * out must not be expr (nor in sl_logic_parse).
 * Returns 0, or -1 when expr does not parse.
 */
int	sl_logic_renumber(const char *expr, const int *map, int nold,
	    char *out);

/*
 * The new order of n rules (ids[i] at position i + 1) when the rules
 * move_ids[k] go to positions move_index[k] (from 1) and the others keep
 * their order in the positions left: map[i] is the new position of rule
 * i + 1.  Returns 0, or -1 with the reason in msg (SL_MSG_BYTES): an id
 * not of the list, an index out of 1..n, an id or index given twice.
 */
int	sl_reorder(const int32_t *ids, int n, const int32_t *move_ids,
	    const int *move_index, int nmoves, int *map, char *msg);

/*
 * A rule's condition, as the repository reads it for every reader (the
 * handlers render it, campaign activation checks it, the campaign
 * engine will evaluate it).
 */
struct smartlist_cond {
	int32_t		 attribute_id;
	const char	*name;
	const char	*op;
	const char	*values_json;	/* a JSON array of strings */
	bool		 primary;
};

/* One rule of a list, by position (from 1). */
struct smartlist_rule {
	int32_t			 id;
	int			 position;
	bool			 activity;	/* else an attribute rule */
	int32_t			 type_id;
	const char		*name;
	bool			 trigger;
	bool			 negative;
	struct smartlist_cond	*conds;
	size_t			 nconds;
};

#endif
