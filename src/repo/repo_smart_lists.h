/*
 * Smart lists (db/migrations/0014_smart_lists.sql): the only reader and
 * writer of smart_list, smart_list_rule and smart_list_condition; the
 * rule types their rules name are repo_sl_catalogue.h's.  Every change of
 * a list's rules runs in one transaction that holds the list's row lock,
 * so the rule positions and the custom logic that numbers them move
 * together; it also moves the list's rules_rev on and drops the JSON text
 * of its rules kept on the row (repo_sl_keep_rules).
 */
#ifndef MAUTO_REPO_REPO_SMART_LISTS_H
#define MAUTO_REPO_REPO_SMART_LISTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/folder.h"
#include "model/smartlist.h"
#include "repo/repo_kept.h"

struct arena;
struct db;

#define REPO_SL_TIME_BYTES	32

/* A list's rules and their conditions are model/smartlist.h's. */

struct repo_sl {
	int32_t			 id;
	const char		*name;
	const char		*description;	/* NULL when none */
	struct folder_ref	 place;
	const char		*workspace;
	const char		*match_type;	/* all, any, custom */
	const char		*custom_logic;	/* NULL unless custom */
	char			 created_at[REPO_SL_TIME_BYTES];
	char			 updated_at[REPO_SL_TIME_BYTES];
	int32_t			 campaign_id;	/* 0: not a campaign's */
	struct smartlist_rule	*rules;		/* with_rules only */
	size_t			 nrules;
	/* repo_sl_get_reply: the kept JSON text of the reply's "rules"
	 * member (no rules read), or the key to keep one by */
	struct repo_kept	 kept;
};

/*
 * List id (or the one named name, exactly), with its rules when
 * with_rules.  0, -REPO_ERR_NOT_FOUND or another negative repo_err.
 */
int	repo_sl_get(struct db *db, struct arena *a, int32_t id,
	    bool with_rules, struct repo_sl *out);
int	repo_sl_get_by_name(struct db *db, struct arena *a, const char *name,
	    bool with_rules, struct repo_sl *out);

/*
 * The id of the first smart list (by id) standing in program program_id,
 * a campaign's own left out.  Returns 0, -REPO_ERR_NOT_FOUND when there
 * is none, or another negative repo_err.
 */
int	repo_sl_in_program(struct db *db, int32_t program_id, int32_t *id);

/*
 * repo_sl_get and repo_sl_get_by_name for a reply: with with_rules, the
 * list with the kept JSON text of its rules member (out->kept.json, no
 * rule read) when the text is there and was rendered under the current
 * lead_schema and co_schema versions; else its rules as repo_sl_get reads
 * them, with out->kept's key, which repo_sl_keep_rules takes with the
 * text the caller renders from them.  One statement when the text is
 * kept, two and the names' reads otherwise.  The same results as
 * repo_sl_get.
 */
int	repo_sl_get_reply(struct db *db, struct arena *a, int32_t id,
	    bool with_rules, struct repo_sl *out);
int	repo_sl_get_reply_by_name(struct db *db, struct arena *a,
	    const char *name, bool with_rules, struct repo_sl *out);

/*
 * Keeps json (len bytes: the JSON of the reply's "rules" member rendered
 * from rules repo_sl_get_reply read with k) on list id: as
 * repo_kept_store.
 */
int	repo_sl_keep_rules(struct db *db, int32_t id,
	    const struct repo_kept *k, const char *json, size_t len);

struct repo_sl_query {
	struct folder_ref	 place;		/* id 0: everywhere */
	const char		*earliest;	/* "YYYY-MM-DD HH:MM:SS" or NULL */
	const char		*latest;
	int64_t			 offset;
	int			 limit;
};

/* Browse by id, without rules. */
int	repo_sl_browse(struct db *db, struct arena *a,
	    const struct repo_sl_query *q, struct repo_sl **out, size_t *n);

struct repo_sl_new {
	const char		*name;
	const char		*description;	/* NULL: none */
	struct folder_ref	 place;		/* checked by the caller */
	int32_t			 clone_of;	/* 0; else its rules and logic */
	int32_t			 campaign_id;	/* 0; else the owning campaign */
};

/* 0 and *id, -REPO_ERR_CONFLICT (name taken), -REPO_ERR_NOT_FOUND
 * (clone_of is gone) or another repo_err. */
int	repo_sl_insert(struct db *db, const struct repo_sl_new *t,
	    int32_t *id);

/*
 * repo_sl_insert inside the caller's transaction (a smart campaign and
 * its list are made together); the same results.
 */
int	repo_sl_insert_in_tx(struct db *db, const struct repo_sl_new *t,
	    int32_t *id);

/* 0, -REPO_ERR_NOT_FOUND (also for a campaign's list) or another
 * repo_err. */
int	repo_sl_delete(struct db *db, int32_t id);

/* Deletes the smart list of campaign campaign_id (in the caller's
 * transaction, after the campaign row). */
int	repo_sl_delete_owned(struct db *db, int32_t campaign_id);

/*
 * Inside the caller's transaction (Delete Program): *id is the first
 * smart list (not a campaign's) outside program program whose conditions
 * name it (by name or id), 0 when none.  0 or a negative repo_err.
 */
int	repo_sl_names_program(struct db *db, int32_t program, int32_t *id);

/*
 * Deletes the smart lists standing in program program with their rules,
 * inside the caller's transaction (Delete Program, after the program's
 * campaigns).  0 or a negative repo_err.
 */
int	repo_sl_delete_in_program(struct db *db, int32_t program);

/*
 * The smart lists standing in program program (a campaign's own left
 * out), by id, into *out (*n) in the arena a (Clone Program).  0 or a
 * negative repo_err.
 */
struct repo_named;
int	repo_sl_named_in_program(struct db *db, struct arena *a,
	    int32_t program, struct repo_named **out, size_t *n);

/*
 * Inside the caller's transaction (Clone Program): the conditions of
 * data type data_type ("list": Member of List and the like; "form":
 * Fills Out Form; "program": Member of Program, Program Status) of the smart lists of program program, its campaigns'
 * own too, that name from (an asset's name or id) name to instead.  0 or
 * a negative repo_err.
 */
int	repo_sl_remap(struct db *db, int32_t program, const char *data_type,
	    const char *from, const char *to);

/* Renames the smart list of campaign campaign_id (its campaign's name). */
int	repo_sl_rename_owned(struct db *db, int32_t campaign_id,
	    const char *name);

/* How many smart lists stand in folder folder_id (folder delete). */
int	repo_sl_count_in_folder(struct db *db, int32_t folder_id, int64_t *n);

/* ---- Rule changes ----------------------------------------------------- */

/* The longest message a rule change writes, with its terminator. */
#define REPO_SL_MSG_BYTES	SL_MSG_BYTES

/* What a rule change does (one of). */
enum repo_sl_op {
	SL_OP_ADD,		/* rule type, index, negative */
	SL_OP_DELETE,		/* rule_id */
	SL_OP_DELETE_ALL,
	SL_OP_REORDER,		/* moves */
	SL_OP_LOGIC,		/* match_type, logic */
	SL_OP_SET_COND,		/* rule_id, attribute_id, op, values_json */
	SL_OP_REMOVE_COND,	/* rule_id, attribute_id */
};

struct repo_sl_change {
	enum repo_sl_op		 op;
	/* SL_OP_ADD: the rule type (checked), where, its flags */
	bool			 activity;
	int32_t			 type_id;
	int			 index;
	bool			 negative;
	bool			 trigger;	/* checked: a campaign's list */
	const char		*default_op;	/* of the primary constraint */
	int32_t			 primary_id;	/* 0: none */
	/* SL_OP_DELETE, _SET_COND, _REMOVE_COND */
	int32_t			 rule_id;
	int32_t			 attribute_id;
	const char		*cond_op;	/* NULL: keep or default */
	const char		*values_json;
	/* SL_OP_REORDER: rule ids and their new positions */
	const int32_t		*move_ids;
	const int		*move_index;
	int			 nmoves;
	/* SL_OP_LOGIC */
	const char		*match_type;
	const char		*logic;		/* custom only */
	/* out: why a change was refused (-REPO_ERR_INVALID) */
	char			 msg[REPO_SL_MSG_BYTES];
};

/*
 * Applies c to list id.  0, -REPO_ERR_NOT_FOUND (no list: msg empty; no
 * such rule or condition: msg says which), -REPO_ERR_INVALID (msg says
 * why) or another repo_err.
 */
int	repo_sl_change(struct db *db, int32_t id, struct repo_sl_change *c);

/* ---- Uses of custom object types -------------------------------------- */

/* The most rows repo_sl_co_uses reads. */
#define REPO_SL_CO_USES_MAX	100000

/*
 * One use of a custom object type: a condition of a rule that is the
 * type's filter (or the rule, when it has no condition).  Strings in the
 * arena.
 */
struct repo_sl_co_use {
	int32_t		 list_id;
	int32_t		 campaign_id;	/* 0: a smart list of its own */
	const char	*name;		/* the list's (a campaign's: its name) */
	const char	*program;	/* the program it stands in, or NULL */
	const char	*field;		/* the field's API name, or NULL */
};

/*
 * The uses of custom object type co_type_id (co_type.id) by the rules of
 * smart lists and of the smart lists of smart campaigns, by list id then
 * field, into *out (n of them, in the arena a).  The rules are the record
 * of the use: nothing else is kept.  lock: a locking read in the
 * caller's transaction, which holds the type's row FOR UPDATE (a rule
 * change holds it in share mode), with list_id and field only.  Returns
 * 0 or a negative repo_err.
 */
int	repo_sl_co_uses(struct db *db, struct arena *a, int32_t co_type_id,
	    bool lock, struct repo_sl_co_use **out, size_t *n);

#endif
