/*
 * Flow steps as the campaign engine runs them (docs/behaviour.md §24):
 * the step types it knows, a Wait step's duration or date, and the My
 * Tokens filled into a step's values.  Pure rules, no SQL; the runner
 * (src/engine/steps.c) applies them and GET /metrics counts steps by
 * the kinds named here.
 */
#ifndef MAUTO_MODEL_FLOWSTEP_H
#define MAUTO_MODEL_FLOWSTEP_H

#include <stddef.h>
#include <stdint.h>

struct arena;

/* The flow step type ids (migration 0015, sc_flow_type). */
enum {
	FLOW_SEND_EMAIL = 6,
	FLOW_CHANGE_DATA_VALUE = 13,
	FLOW_CHANGE_SCORE = 22,
	FLOW_ADD_TO_LIST = 24,
	FLOW_REMOVE_FROM_LIST = 25,
	FLOW_DELETE_PERSON = 37,
	FLOW_INTERESTING_MOMENT = 46,
	FLOW_REQUEST_CAMPAIGN = 47,
	FLOW_CHANGE_PROGRAM_STATUS = 104,
	FLOW_WAIT = 100001,
	FLOW_REMOVE_FROM_FLOW = 100002
};

/*
 * The step types by a dense index, for counting (util/metrics.h): one
 * per type above, FLOWSTEP_OTHER for a type the engine does not run.
 */
enum flowstep {
	FLOWSTEP_SEND_EMAIL,
	FLOWSTEP_CHANGE_DATA_VALUE,
	FLOWSTEP_CHANGE_SCORE,
	FLOWSTEP_ADD_TO_LIST,
	FLOWSTEP_REMOVE_FROM_LIST,
	FLOWSTEP_DELETE_PERSON,
	FLOWSTEP_INTERESTING_MOMENT,
	FLOWSTEP_REQUEST_CAMPAIGN,
	FLOWSTEP_CHANGE_PROGRAM_STATUS,
	FLOWSTEP_WAIT,
	FLOWSTEP_REMOVE_FROM_FLOW,
	FLOWSTEP_OTHER,
	FLOWSTEP__MAX
};

/* The index of flow step type id type_id (FLOWSTEP_OTHER: unknown). */
enum flowstep	 flowstep_of(int32_t type_id);
/* The type's name as sc_flow_type has it ("Other" for FLOWSTEP_OTHER). */
const char	*flowstep_name(enum flowstep k);

/* A My Token in effect for a run: the run's overrides first. */
struct flow_token {
	const char	*name;		/* without "{{my." and "}}" */
	const char	*value;		/* NULL: empty */
};

/*
 * The text s with each {{my.<name>}} of tokens[0..n) replaced by its
 * value (the first token of the name, names without case, "{{my." in
 * any case), a token not among them and braces that name no token left
 * as they are.  s itself when it holds nothing to fill (or is NULL),
 * else a string in the arena a.
 */
const char	*flowstep_fill_tokens(struct arena *a, const char *s,
		    const struct flow_token *tokens, size_t n);

/*
 * A Wait step's duration: a whole number from 1 to 100000 and a unit
 * (minute, hour, day, week, month: 30 days; singular or plural, any
 * case; "4 hours", "2days") in ms into *ms; or a date ("YYYY-MM-DD",
 * "YYYY-MM-DD HH:MM[:SS]" or with "T", an optional "Z", UTC) as the time
 * it ends, ms since the epoch, into *at_ms.  The other is set to 0.
 * Leading blanks are skipped, and so is what follows the unit after a
 * blank.  Returns 0, or -1 when s is neither (both set to 0).
 */
int	flowstep_wait_parse(const char *s, int64_t *ms, int64_t *at_ms);

#endif
