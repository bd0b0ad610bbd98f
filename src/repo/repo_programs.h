/*
 * Programs and their ordered statuses, static lists, forms, lead
 * partitions, the memberships of leads in programs, lists and smart
 * campaigns, tracking cookies, and Merge Leads (migration 0004).  Used by
 * api_lead_membership.c and mautoctl (ctl_program.c).
 *
 * Every write runs in one transaction (db_run_tx: retried as a whole on
 * a Galera certification conflict), so a failure changes nothing.
 * Results of batch operations are per record, in input order; a record
 * the caller has already refused is marked skip and left alone.
 */
#ifndef MAUTO_REPO_REPO_PROGRAMS_H
#define MAUTO_REPO_REPO_PROGRAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct db;
struct lead_field;

/* The outcome of one record of a batch. */
enum repo_rec {
	REPO_REC_UPDATED,	/* changed (or already as asked) */
	REPO_REC_NO_LEAD,	/* no lead with that id */
	REPO_REC_NO_PARTITION,	/* no partition with that name */
	REPO_REC_NOT_MEMBER,	/* the lead is not a member of the program */
	REPO_REC_NOT_FORWARD,	/* already in or past the status */
	REPO_REC__MAX
};

/* What a -REPO_ERR_NOT_FOUND of a mautoctl write was missing. */
enum repo_what {
	REPO_WHAT_NONE,
	REPO_WHAT_LEAD,
	REPO_WHAT_PROGRAM,
	REPO_WHAT_STATUS,
	REPO_WHAT_LIST,
	REPO_WHAT_FIELD,
	REPO_WHAT__MAX
};

struct repo_missing {
	enum repo_what	 what;
	int64_t		 id;		/* the lead, program or list id */
	size_t		 index;		/* which input (field, status) */
};

/* ---- Partitions -------------------------------------------------- */

struct repo_partition {
	int32_t		 id;
	char		*name;		/* owned */
	char		*description;	/* owned; NULL when none */
};

struct repo_partition_list {
	struct repo_partition	*items;
	size_t			 count;
};

/* Every partition, by id, into *out (free with ..._list_free). */
int	repo_programs_partition_list(struct db *db,
	    struct repo_partition_list *out);
void	repo_programs_partition_list_free(struct repo_partition_list *l);

/*
 * Creates a partition; *id is its id.  -REPO_ERR_CONFLICT when the name
 * is taken.  description may be NULL.
 */
int	repo_programs_partition_insert(struct db *db, const char *name,
	    const char *description, int32_t *id);

/* One record of Update Lead Partition. */
struct repo_partition_move {
	int64_t		 lead_id;
	const char	*partition;	/* name, case-sensitive; borrowed */
	bool		 skip;		/* refused by the caller: left alone */
	enum repo_rec	 result;	/* out: UPDATED, NO_LEAD, */
					/* NO_PARTITION */
};

/*
 * Moves leads to the named partitions in one transaction: leadPartitionId
 * and updatedAt are set and a "Change Lead Partition" activity (100) is
 * recorded when the partition changes.  Returns 0 with every result set,
 * or a negative repo_err (nothing changed).
 */
int	repo_programs_lead_partition_update(struct db *db,
	    struct repo_partition_move *moves, size_t n);

/* ---- Programs ---------------------------------------------------- */

struct repo_program_status {
	int32_t		 step;		/* order: higher is further */
	char		*name;		/* owned */
	bool		 success;
};

/*
 * The first status of every channel's progression: a lead at it is not a
 * member of the program.
 */
#define PROGRAM_NOT_MEMBER	"Not in Program"

/* A program; every string and the statuses (by step) are owned. */
struct repo_program {
	int32_t				 id;
	char				*name;
	char				*type;	/* program, engagement */
	char				*channel;
	struct repo_program_status	*statuses;
	size_t				 nstatuses;
};

struct repo_program_list {
	struct repo_program	*items;
	size_t			 count;
};

/* The program id with its statuses into *out; -REPO_ERR_NOT_FOUND. */
int	repo_programs_get_by_id(struct db *db, int32_t id,
	    struct repo_program *out);
/* The id of the program named name; -REPO_ERR_NOT_FOUND. */
int	repo_programs_get_id_by_name(struct db *db, const char *name,
	    int32_t *id);
/* The program named name (exactly) with its statuses; as get_by_id. */
int	repo_programs_get_by_name(struct db *db, const char *name,
	    struct repo_program *out);
/* Frees what p owns and zeroes it. */
void	repo_programs_program_clear(struct repo_program *p);

/* Every program with its statuses, by id. */
int	repo_programs_list(struct db *db, struct repo_program_list *out);
void	repo_programs_list_free(struct repo_program_list *l);

/* A program to create; statuses in progression order. */
struct repo_program_new {
	const char		*name;
	const char		*type;
	const char		*channel;
	const char *const	*statuses;
	const bool		*success;	/* per status */
	size_t			 nstatuses;	/* 1..MAX_PROGRAM_STATUSES */
};

/*
 * Creates a program and its statuses (steps 1..n in the order given);
 * *id is its id.  -REPO_ERR_CONFLICT when the name (or a status name
 * within it) is taken.
 */
int	repo_programs_insert(struct db *db, const struct repo_program_new *p,
	    int32_t *id);

/*
 * Makes lead_id a member of program_id with the named status (NULL: the
 * first step), or sets the status of an existing member.  reachedSuccess
 * is set when the status is a success step.  -REPO_ERR_NOT_FOUND with
 * *miss saying which of program, lead, status is missing.
 */
int	repo_programs_member_add(struct db *db, int32_t program_id,
	    int64_t lead_id, const char *status, struct repo_missing *miss);

/* One record of Change Lead Program Status. */
struct repo_status_change {
	int64_t		 lead_id;
	bool		 skip;		/* refused by the caller: left alone */
	enum repo_rec	 result;	/* out: UPDATED, NO_LEAD, NOT_MEMBER, */
					/* NOT_FORWARD */
};

/*
 * Moves existing members of program p to the status at index st of
 * p->statuses, in one transaction.  A member already in or past that
 * step is NOT_FORWARD.  Each change sets status_step, reached_success
 * (when the step is a success step), updated_at, and records a "Change
 * Status in Progression" activity (104, primary value the program).
 */
int	repo_programs_member_status_update(struct db *db,
	    const struct repo_program *p, size_t st,
	    struct repo_status_change *recs, size_t n);

/* ---- Static lists, forms, smart campaign members ----------------- */

/* Creates a static list; -REPO_ERR_CONFLICT when the name is taken. */
int	repo_programs_static_list_insert(struct db *db, const char *name,
	    int32_t *id);
/* The id of the static list named name; -REPO_ERR_NOT_FOUND. */
int	repo_programs_static_list_get_id_by_name(struct db *db,
	    const char *name, int32_t *id);

/*
 * Adds leads to a static list (members already there are kept), with an
 * "Add to List" activity (24) for each lead added.  -REPO_ERR_NOT_FOUND
 * with *miss (the list, or the first unknown lead): nothing is added.
 */
int	repo_programs_list_member_add(struct db *db, int32_t list_id,
	    const int64_t *leads, size_t n, struct repo_missing *miss);

/*
 * Creates a form carrying the named lead fields (names resolved without
 * case against lead_field; stored as the catalogue spells them) and
 * belonging to program_id (0: none).  -REPO_ERR_CONFLICT when the name is
 * taken; -REPO_ERR_NOT_FOUND with *miss (the program, or FIELD and the
 * index of the first unknown field).
 */
int	repo_programs_form_insert(struct db *db, const char *name,
	    int32_t program_id, const char *const *fields, size_t nfields,
	    int32_t *id, struct repo_missing *miss);
/* The id of the form named name; -REPO_ERR_NOT_FOUND. */
int	repo_programs_form_get_id_by_name(struct db *db, const char *name,
	    int32_t *id);

/*
 * Makes leads members of smart campaign campaign_id (members already
 * there are kept).  -REPO_ERR_NOT_FOUND with *miss (first unknown lead).
 */
int	repo_programs_campaign_member_add(struct db *db, int32_t campaign_id,
	    const int64_t *leads, size_t n, struct repo_missing *miss);

/* ---- Membership reads (one lead) --------------------------------- */

#define REPO_TIME_BYTES	21	/* "YYYY-MM-DDTHH:MM:SSZ" and a NUL */

/* One membership of a lead. */
struct repo_member_row {
	int32_t	 id;			/* list, program or campaign id */
	char	 created_at[REPO_TIME_BYTES];	/* programs: membershipDate */
	char	 updated_at[REPO_TIME_BYTES];
	/* Programs only. */
	char	*status;		/* progression status; owned */
	bool	 acquired_by;
	bool	 reached_success;
	bool	 is_exhausted;
	char	*stream;		/* owned; NULL when none */
	char	*cadence;		/* owned; NULL when none */
};

struct repo_member_list {
	struct repo_member_row	*items;
	size_t			 count;
};

/*
 * A page of a lead's memberships, by id.  Strings are borrowed for the
 * call.  earliest/latest: "YYYY-MM-DD HH:MM:SS" bounds on updated_at, or
 * NULL; program_ids: a comma-separated list of ids to keep, or NULL.
 */
struct repo_member_query {
	int64_t		 lead_id;
	int32_t		 after;		/* ids greater than this */
	int		 limit;		/* rows at most (1..) */
	const char	*earliest;
	const char	*latest;
	const char	*program_ids;	/* programs only */
};

/* The page into *out (free with repo_programs_member_list_free). */
int	repo_programs_list_membership(struct db *db,
	    const struct repo_member_query *q, struct repo_member_list *out);
int	repo_programs_program_membership(struct db *db,
	    const struct repo_member_query *q, struct repo_member_list *out);
int	repo_programs_campaign_membership(struct db *db,
	    const struct repo_member_query *q, struct repo_member_list *out);
void	repo_programs_member_list_free(struct repo_member_list *l);

/* ---- Cookies and merge ------------------------------------------- */

/*
 * Associates a tracking cookie with lead_id: stored in lead_cookie (a
 * cookie another lead had moves to this one; that lead's `cookies`
 * column then shows its newest remaining cookie), and set as the lead's
 * `cookies` column.  -REPO_ERR_NOT_FOUND when there is no such lead.
 */
int	repo_programs_cookie_associate(struct db *db, int64_t lead_id,
	    const char *cookie);

/*
 * Merges the losers into the winner in one transaction: each field of
 * fields (the catalogue) that is NULL (or '' for text) on the winner
 * takes the first loser's non-empty value (id, createdAt, updatedAt and
 * the generated mktoName and leadPerson are never copied); the losers'
 * activities, list, program and smart campaign memberships and cookies
 * move to the winner (the winner's row wins a conflict); a "Merge Leads"
 * activity (32) listing the loser ids is recorded on the winner; the
 * losers are deleted.  -REPO_ERR_NOT_FOUND with *missing the first
 * unknown id (winner first): nothing changed.
 */
int	repo_programs_merge(struct db *db, int64_t winner,
	    const int64_t *losers, size_t nlosers,
	    const struct lead_field *fields, size_t nfields, int64_t *missing);

#endif
