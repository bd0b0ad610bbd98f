/*
 * Smart campaigns (db/migrations/0015_smart_campaigns.sql): the only
 * reader and writer of smart_campaign, sc_flow_step, sc_step_choice and
 * sc_choice_attr, and the reader of the flow step type catalogue
 * (sc_flow_type, sc_flow_attrib).  A campaign's smart list is made and
 * dropped with it through repo_smart_lists.c.  Every change of a flow
 * runs in one transaction holding the campaign's row lock; the emails an
 * active campaign's flow sends are its uses in asset_usage
 * (repo_usage.c), rewritten with every change of its flow or state.
 * Activation, which writes a campaign's state, is repo_sc_activation.h's;
 * a program's campaigns in Clone and Delete Program, repo_sc_program.h's.
 */
#ifndef MAUTO_REPO_REPO_SMART_CAMPAIGNS_H
#define MAUTO_REPO_REPO_SMART_CAMPAIGNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/campaign.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_kept.h"

struct arena;
struct db;

#define REPO_SC_TIME_BYTES	32
#define REPO_SC_MSG_BYTES	256

/* The most steps a flow has, and choices a step has. */
#define SC_MAX_STEPS		100
#define SC_MAX_CHOICES		50

/* The API's asset type word of a smart campaign in asset_usage. */
#define USAGE_SMART_CAMPAIGN	"smartCampaign"

/*
 * The values of the flow's attributes of data type ?, with their step:
 * a FROM clause of the statements of repo_smart_campaigns.c and
 * repo_sc_program.c.
 */
#define SC_VALUES_OF \
	"FROM sc_flow_step s JOIN sc_step_choice ch ON ch.step_id = s.id " \
	"JOIN sc_choice_attr a ON a.choice_id = ch.id JOIN sc_flow_attrib t " \
	"ON t.flow_type_id = s.flow_type_id AND t.id = a.attrib_id "

struct repo_sc {
	int32_t		 id;
	const char	*name;
	const char	*description;		/* NULL when none */
	struct folder_ref place;
	const char	*workspace;
	int32_t		 workspace_id;
	int32_t		 smart_list_id;
	bool		 active;
	bool		 system;
	bool		 comm_limit;
	const char	*qual_type;		/* once, any, interval */
	int64_t		 qual_interval;		/* 0: none */
	const char	*qual_unit;		/* NULL: none */
	int64_t		 max_members;		/* 0: none */
	int64_t		 ntriggers;		/* rules of its smart list */
	int64_t		 nfilters;
	bool		 requested_by_api;	/* a Web Service API trigger */
	const char	*program_name;		/* NULL: not in a program */
	enum campaign_runs batch_runs;		/* none for a trigger one */
	char		 created_at[REPO_SC_TIME_BYTES];
	char		 updated_at[REPO_SC_TIME_BYTES];
};

/* Campaign id (or the one named name).  0, -REPO_ERR_NOT_FOUND or
 * another negative repo_err; strings in the arena. */
int	repo_sc_get(struct db *db, struct arena *a, int32_t id,
	    struct repo_sc *out);
int	repo_sc_get_by_name(struct db *db, struct arena *a, const char *name,
	    struct repo_sc *out);

struct repo_sc_query {
	struct folder_ref	 place;		/* id 0: everywhere */
	const char		*earliest;	/* "YYYY-MM-DD HH:MM:SS" or NULL */
	const char		*latest;
	bool			 active_only;
	int64_t			 offset;
	int			 limit;
};

/* Browse by id. */
int	repo_sc_browse(struct db *db, struct arena *a,
	    const struct repo_sc_query *q, struct repo_sc **out, size_t *n);

/*
 * The campaigns f selects (repo.h), and when triggerable only the
 * active ones a Web Service API "Campaign is Requested" trigger starts,
 * by id after after, at most limit (>= 1) of them: the lead database's
 * Get Campaigns.  0 or a negative repo_err; strings in the arena.
 */
int	repo_sc_find(struct db *db, struct arena *a,
	    const struct repo_filter *f, bool triggerable, int64_t after,
	    int limit, struct repo_sc **out, size_t *n);

/* The campaigns whose flow requests campaign id (Request Campaign). */
int	repo_sc_used_by(struct db *db, struct arena *a, int32_t id,
	    struct repo_sc **out, size_t *n);

struct repo_sc_new {
	const char		*name;
	const char		*description;	/* NULL: none */
	struct folder_ref	 place;		/* checked by the caller */
	int32_t			 clone_of;	/* 0; else its list and flow */
	int32_t			 list_of;	/* 0; else that smart list's
						 * rules copied (no clone_of) */
};

/* A new campaign with its smart list: 0 and *id, -REPO_ERR_CONFLICT (name
 * taken), -REPO_ERR_NOT_FOUND (clone_of is gone) or another repo_err. */
int	repo_sc_insert(struct db *db, const struct repo_sc_new *t,
	    int32_t *id);

/* repo_sc_insert inside the caller's transaction (Clone Program). */
int	repo_sc_insert_in_tx(struct db *db, const struct repo_sc_new *t,
	    int32_t *id);

/* name and description (NULL: kept).  0, -REPO_ERR_NOT_FOUND,
 * -REPO_ERR_CONFLICT or another repo_err. */
int	repo_sc_update(struct db *db, int32_t id, const char *name,
	    const char *description);

/* Deletes an inactive campaign with its list and flow: 0,
 * -REPO_ERR_NOT_FOUND, -REPO_ERR_INVALID (active) or another repo_err. */
int	repo_sc_delete(struct db *db, int32_t id);

/* repo_sc_delete inside the caller's transaction (Delete Program,
 * Unapprove Program): the same results. */
int	repo_sc_delete_in_tx(struct db *db, int32_t id);

/*
 * Inside the caller's transaction (Approve Program): the send campaign
 * of an Email program, a system campaign made as repo_sc_insert makes t
 * (t->list_of: the program's smart list, whose rules its own list gets)
 * whose flow is one Send Email step of email email_id, the email
 * recorded in use by it; its id into *id.  0, -REPO_ERR_CONFLICT (the
 * name is taken) or another negative repo_err.
 */
int	repo_sc_send_insert_in_tx(struct db *db, const struct repo_sc_new *t,
	    int32_t email_id, int32_t *id);

/* How many smart campaigns stand in folder folder_id (folder delete). */
int	repo_sc_count_in_folder(struct db *db, int32_t folder_id, int64_t *n);

/*
 * Inside the caller's transaction: locks campaign id's row (FOR UPDATE)
 * and reads whether it is active into *active.  -REPO_ERR_NOT_FOUND
 * when there is no such campaign.  Every change of a campaign, its flow
 * or its state takes it first.
 */
int	repo_sc_lock(struct db *db, int32_t id, bool *active);

/*
 * Inside the caller's transaction: rewrites the email uses of campaign
 * id in asset_usage, the emails its flow sends while active (none when
 * not).
 */
int	repo_sc_usage_refresh(struct db *db, int32_t id, bool active);

/* ---- Flows ------------------------------------------------------------ */

/* A flow's steps, choices and attributes are model/campaign.h's. */

/* The flow of campaign id, steps in order (none: 0 and *n 0). */
int	repo_sc_flow(struct db *db, struct arena *a, int32_t id,
	    struct campaign_step **out, size_t *n);

/*
 * Campaign id (or the one named name, when not NULL) as repo_sc_get,
 * with its flow: kept->json when the row keeps the flow's text for the
 * schemas there are now (*steps NULL, *n 0), else the steps as
 * repo_sc_flow reads them, read after the campaign.  0,
 * -REPO_ERR_NOT_FOUND or another negative repo_err; strings in the
 * arena.
 */
int	repo_sc_get_with_flow(struct db *db, struct arena *a, int32_t id,
	    const char *name, struct repo_sc *out, struct campaign_step **steps,
	    size_t *n, struct repo_kept *kept);

/*
 * Keeps json (len bytes), the flow's reply text rendered from what
 * repo_sc_get_with_flow read with k, on campaign id's row: as
 * repo_kept_store.
 */
int	repo_sc_keep_flow(struct db *db, int32_t id,
	    const struct repo_kept *k, const char *json, size_t len);

/* A flow step type and its attributes (values NULL). */
struct repo_sc_flow_type {
	int32_t			 id;
	const char		*name;
	struct campaign_attr	*attrs;
	size_t			 nattrs;
};

/* Every flow step type, by id. */
int	repo_sc_flow_types(struct db *db, struct arena *a,
	    struct repo_sc_flow_type **out, size_t *n);

/* Flow step type id; -REPO_ERR_NOT_FOUND when there is none. */
int	repo_sc_flow_type(struct db *db, struct arena *a, int32_t id,
	    struct repo_sc_flow_type *out);

enum repo_sc_op {
	SC_OP_ADD_STEP,		/* type_id (checked), index */
	SC_OP_REMOVE_STEP,	/* step_id */
	SC_OP_ADD_CHOICE,	/* step_id */
	SC_OP_SET_CHOICE,	/* step_id, choice_id, condition, values */
	SC_OP_REMOVE_CHOICE,	/* step_id, choice_id */
	SC_OP_MOVE_CHOICE,	/* step_id, choice_id, index */
};

/* A value for attribute id ("" removes it). */
struct repo_sc_value {
	int32_t		 id;
	const char	*value;
};

struct repo_sc_change {
	enum repo_sc_op			 op;
	int32_t				 type_id;
	int				 index;
	int32_t				 step_id;
	int32_t				 choice_id;
	bool				 set_cond;
	const char			*cond_kind;
	int32_t				 cond_type_id;
	const char			*cond_op;
	const char			*cond_vals;
	const struct repo_sc_value	*values;
	size_t				 nvalues;
	/* out: why it was refused or what was missing */
	char				 msg[REPO_SC_MSG_BYTES];
};

/*
 * Applies c to campaign id's flow.  0, -REPO_ERR_NOT_FOUND (no campaign:
 * msg empty; no such step or choice: msg says which), -REPO_ERR_INVALID
 * (msg says why) or another repo_err.
 */
int	repo_sc_change(struct db *db, int32_t id, struct repo_sc_change *c);

/* ---- References ------------------------------------------------------- */

/*
 * The id of the asset of data type data_type (email, list, program,
 * campaign) value names, by id (digits) or else by exact name: 0 and *id,
 * or -REPO_ERR_NOT_FOUND (also for a data type that names no asset).
 */
int	repo_sc_resolve(struct db *db, const char *data_type,
	    const char *value, int32_t *id);

#endif
