/*
 * Programs and their ordered statuses, program members, smart campaign
 * members, and the memberships of one lead in programs, lists and smart
 * campaigns (migration 0004).  Partitions, lists, forms, cookies and
 * Merge Leads have repositories of their own.  Used by api_leads.c,
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

#include "repo/repo.h"

struct db;
struct db_text_rows;
struct lead_field;

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
/*
 * Inside the caller's transaction: locks program id in share mode (it
 * cannot be deleted meanwhile); -REPO_ERR_NOT_FOUND.
 */
int	repo_programs_lock(struct db *db, int32_t id);
/*
 * Inside the caller's transaction (Merge Leads): the program and smart
 * campaign memberships of lead from become lead to's (to's row wins).
 */
int	repo_programs_members_move(struct db *db, int64_t to, int64_t from);
/* The program named name (exactly) with its statuses; as get_by_id. */
int	repo_programs_get_by_name(struct db *db, const char *name,
	    struct repo_program *out);
/* The number of programs in folder folder_id (mautoctl folder delete). */
int	repo_programs_count_in_folder(struct db *db, int32_t folder_id,
	    int64_t *n);
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

/* A lead a batch makes a member of a program (Push Lead). */
struct program_member_new {
	int64_t	 lead_id;
	bool	 acquired_by;	/* the batch created the lead */
};

/*
 * Inside the caller's transaction, makes the n leads members of
 * program_id in one multi-row statement: a new member at status step
 * (0: none) with reached_success success, acquiredBy as each says; with
 * forward, an existing member moves forward to step (never back, and a
 * success once reached stays), otherwise it is left as it is.  Returns 0
 * or a negative repo_err.
 */
int	repo_programs_members_upsert(struct db *db, int32_t program_id,
	    const struct program_member_new *m, size_t n, int64_t step,
	    bool success, bool forward);

/* "YYYY-MM-DD HH:MM:SS" and a NUL. */
#define LEAD_TIME_BYTES	20

/* A lead's membership of one program (Get Leads by Program Id, Push). */
struct lead_membership {
	int64_t		 program_id;
	const char	*status;	/* progression status; NULL: none */
	bool		 acquired_by;
	bool		 reached_success;
	bool		 is_exhausted;
	const char	*stream;	/* NULL when none */
	const char	*cadence;	/* NULL when none */
	char		 membership_date[LEAD_TIME_BYTES];
	char		 updated_at[LEAD_TIME_BYTES];
};

/*
 * The columns of a lead's membership, for the lead store's reads that
 * join program_member pm (PROGRAM_MEMBERSHIP_JOIN is the FROM clause),
 * and the filler of one from them.
 */
#define PROGRAM_MEMBERSHIP_COLUMNS \
	"ps.name, pm.acquired_by, pm.reached_success, pm.is_exhausted, " \
	"pm.stream, pm.nurture_cadence, pm.membership_date, pm.updated_at, " \
	"pm.program_id"
#define PROGRAM_MEMBERSHIP_NCOLS	9
#define PROGRAM_MEMBERSHIP_JOIN \
	" FROM program_member pm LEFT JOIN program_status ps ON " \
	"ps.program_id = pm.program_id AND ps.step = pm.status_step"

/*
 * Fills *m from the PROGRAM_MEMBERSHIP_COLUMNS that start at column c of
 * row of t; its strings are t's.
 */
void	repo_programs_membership_fill(const struct db_text_rows *t,
	    size_t row, size_t c, struct lead_membership *m);

/* ---- Smart campaign members ------------------------------------- */

/*
 * Makes leads members of smart campaign campaign_id (members already
 * there are kept).  -REPO_ERR_NOT_FOUND with *miss (first unknown lead).
 */
int	repo_programs_campaign_member_add(struct db *db, int32_t campaign_id,
	    const int64_t *leads, size_t n, struct repo_missing *miss);

/*
 * Forgets every member of smart campaign campaign_id (in the caller's
 * transaction, when the campaign is deleted).
 */
int	repo_programs_campaign_members_delete(struct db *db,
	    int32_t campaign_id);

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

#endif
