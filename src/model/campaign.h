/*
 * Smart campaigns' rules that need no database (docs/assets.md, "Smart
 * campaigns"): the type and status words a campaign shows, the values an
 * attribute with choices takes, the order of a step's choices after
 * Reorder Flow Step Choice (top-down, the default choice always last),
 * and the rules of activation over one snapshot of a campaign (its smart
 * list's rules, its flow, what the flow's values name and their states),
 * which the repository reads under the campaign's locks.  The flow and
 * rule structures are the ones the repository fills for every reader:
 * the handlers render them, activation checks them, and the campaign
 * engine will evaluate them.
 */
#ifndef MAUTO_MODEL_CAMPAIGN_H
#define MAUTO_MODEL_CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/folder.h"
#include "model/smartlist.h"

/* The longest refusal campaign_move writes, with its terminator. */
#define CAMPAIGN_MSG_BYTES	128

/*
 * "trigger" with a trigger, "batch" with filters only, "default" with no
 * rules (docs/behaviour.md §10.1).
 */
const char	*campaign_type_name(int64_t ntriggers, int64_t nfilters);

/* Where a campaign's batch runs (Schedule Campaign) stand. */
enum campaign_runs {
	CAMPAIGN_RUNS_NONE,	/* never scheduled */
	CAMPAIGN_RUNS_OPEN,	/* one scheduled, being entered or running */
	CAMPAIGN_RUNS_DONE	/* every one has run to its end */
};

/*
 * The status word (docs/behaviour.md §24): "Active" while active,
 * "Inactive" for an inactive trigger campaign; for any other, from its
 * batch runs: "Single Run" while one is open, "Inactive" once all have
 * run, "Never Run" when it has none.
 */
const char	*campaign_status_name(bool active, int64_t ntriggers,
		    enum campaign_runs runs);

/* Whether value is one of choices, a comma-separated list (exactly). */
bool	campaign_is_choice(const char *choices, const char *value);

/*
 * The new order of a step's n choices (ids, with is_default) when choice
 * id moves to position to (0-based) among the non-default ones: 0 and
 * out (n ids), or -1 with msg (msg_size bytes) when id is the default
 * choice or to is beyond the non-default choices.  id must be one of ids.
 */
int	campaign_move(const int32_t *ids, const bool *is_default, size_t n,
	    int32_t id, int to, int32_t *out, char *msg, size_t msg_size);

/* ---- A campaign's structures ------------------------------------------ */

/* An attribute of a flow step type, with a choice's value. */
struct campaign_attr {
	int32_t		 id;
	const char	*name;
	const char	*data_type;
	bool		 primary;
	bool		 required;
	const char	*choices;	/* comma-separated, or NULL: any */
	const char	*value;		/* NULL: not set */
};

/* A choice of a flow step: its condition and the values it gives. */
struct campaign_choice {
	int32_t			 id;
	int			 position;	/* from 0; the default is last */
	bool			 is_default;
	const char		*cond_kind;	/* activity, attribute, NULL */
	int32_t			 cond_type_id;
	const char		*cond_name;
	const char		*cond_op;
	const char		*cond_vals;	/* JSON array of strings */
	struct campaign_attr	*attrs;
	size_t			 nattrs;
};

/* A step of a flow, its choices top-down. */
struct campaign_step {
	int32_t			 id;
	int			 position;	/* from 0 */
	int32_t			 type_id;
	const char		*type_name;
	struct campaign_choice	*choices;
	size_t			 nchoices;
};

/*
 * What a flow value of a reference data type (campaign_ref_kind) names:
 * the asset's id, 0 when it names none; for an email, whether it has an
 * approved version (read under a shared lock of the email's row).
 */
struct campaign_ref {
	const char	*data_type;
	const char	*value;
	int32_t		 id;
	bool		 approved;
};

/* Whether program program_id has a status named name. */
struct campaign_status {
	int32_t		 program_id;
	const char	*name;
	bool		 exists;
};

/*
 * One campaign as activation sees it, read in one transaction under the
 * campaign's row lock and its smart list's: every pointer borrowed from
 * the reader.
 */
struct campaign_snapshot {
	int32_t				 id;
	bool				 active;
	struct folder_ref		 place;
	int64_t				 ntriggers;
	const struct smartlist_rule	*rules;
	size_t				 nrules;
	const struct campaign_step	*steps;
	size_t				 nsteps;
	const struct campaign_ref	*refs;
	size_t				 nrefs;
	const struct campaign_status	*statuses;
	size_t				 nstatuses;
	/* Why its filters cannot be evaluated (repo/repo_sl_filter.h's
	 * message naming the filter), or NULL when they can. */
	const char			*filter_refusal;
};

/*
 * The asset word of a flow attribute's data type that names an asset
 * ("email", "list", "program", "smart campaign"), or NULL when the data
 * type names none.
 */
const char	*campaign_ref_kind(const char *data_type);

/* What value of data_type names in s, or NULL when s did not read it. */
const struct campaign_ref *campaign_ref_find(
	    const struct campaign_snapshot *s, const char *data_type,
	    const char *value);

/*
 * The program whose statuses a Change Program Status value of choice ch
 * is checked against: the last program among ch's values that names one
 * (by s's references), else the program s stands in; 0 when neither.
 */
int32_t	campaign_status_program(const struct campaign_snapshot *s,
	    const struct campaign_choice *ch);

/* Why activation is refused (CAMPAIGN_ACT_OK: it is not). */
enum campaign_act {
	CAMPAIGN_ACT_OK,
	CAMPAIGN_ACT_ACTIVE,		/* it is already active */
	CAMPAIGN_ACT_NO_TRIGGER,	/* its smart list has no trigger */
	CAMPAIGN_ACT_RULE_VALUE,	/* rule: a primary condition, no value */
	CAMPAIGN_ACT_FILTER,		/* filter: one mauto cannot evaluate */
	CAMPAIGN_ACT_NO_STEP,		/* its flow has no step */
	CAMPAIGN_ACT_NO_CONDITION,	/* step, choice: no condition */
	CAMPAIGN_ACT_NO_VALUE,		/* step, attr: required, not set */
	CAMPAIGN_ACT_NOT_FOUND,		/* step, attr, kind: names nothing */
	CAMPAIGN_ACT_NOT_APPROVED,	/* step, attr, ref: email ref */
	CAMPAIGN_ACT_NO_PROGRAM,	/* step: no program for a status */
	CAMPAIGN_ACT_NO_STATUS,		/* step, attr, ref: program ref */
	CAMPAIGN_ACT__MAX
};

/* The first rule activation breaks, and where. */
struct campaign_refusal {
	enum campaign_act		 why;
	const struct smartlist_rule	*rule;
	int				 rule_index;	/* from 1 */
	const struct campaign_step	*step;
	int				 choice;	/* from 1 */
	const struct campaign_attr	*attr;
	const char			*kind;		/* campaign_ref_kind */
	int32_t				 ref;		/* email or program */
	const char			*filter;	/* filter_refusal */
};

/*
 * The rules of activation (docs/behaviour.md §10.2), in this order: s is
 * inactive; its smart list has a trigger; every primary condition of its
 * rules has a value (or an operator of emptiness); its filters can be
 * evaluated (no filter_refusal); its flow has a step;
 * then step by step and choice by choice, top-down: a choice other than
 * the default has a condition, and each of its attributes in order: a
 * required one has a value, a value of a reference data type names an
 * asset, an email is approved, a status has a program
 * (campaign_status_program) that has it.  true when s may be activated;
 * else false and *out the first rule broken.  Pure: s holds everything
 * read (a reference or status s did not read counts as naming nothing).
 */
bool	campaign_check_activation(const struct campaign_snapshot *s,
	    struct campaign_refusal *out);

#endif
