/*
 * What the campaign engine's flow steps change (docs/behaviour.md §24):
 * a lead's field, a static list's members, a program member's status.
 * Every function runs inside the engine's step transaction, so a change,
 * the activity recording it and the lead's move to its next step commit
 * together; the API's own writes of these rows live in repo_leads*.c,
 * repo_lists.c and repo_programs.c.
 */
#ifndef MAUTO_REPO_REPO_ENGINE_STEPS_H
#define MAUTO_REPO_REPO_ENGINE_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;
struct db;
struct lead_field;
struct lead_value;

/*
 * Locks lead lead_id's row and reads field f as text into *val (arena a;
 * NULL for SQL NULL).  -REPO_ERR_NOT_FOUND when there is no such lead.
 */
int	repo_engine_field_get(struct db *db, struct arena *a,
	    const struct lead_field *f, int64_t lead_id, const char **val);

/* Writes v to field f of lead lead_id (and its updatedAt). */
int	repo_engine_field_set(struct db *db, const struct lead_field *f,
	    int64_t lead_id, const struct lead_value *v);

/*
 * Adds lead_id to (add) or removes it from static list list_id; *changed
 * says whether membership changed.  -REPO_ERR_GONE when the list is gone.
 */
int	repo_engine_list_member(struct db *db, int32_t list_id,
	    int64_t lead_id, bool add, bool *changed);

/*
 * The name activities give list list_id ("<program>.<list>" for a list
 * in a program, else its name) into *name (arena a).
 * -REPO_ERR_NOT_FOUND when there is no such list.
 */
int	repo_engine_list_name(struct db *db, struct arena *a, int32_t list_id,
	    const char **name);

/* A program status change as activity 104 records it. */
struct engine_status {
	const char	*program;	/* the program's name */
	int64_t		 old_step;	/* 0: not a member before */
	const char	*old_name;	/* "Not in Program" when not */
	int64_t		 new_step;
	const char	*new_name;
	bool		 success;
	bool		 acquired;	/* the change made it a member */
	bool		 changed;	/* false: already there or past it */
};

/*
 * Moves lead_id in program program_id to the status named status (a
 * member at that status when it was not one; never backwards), into
 * *out (strings in a).  -REPO_ERR_NOT_FOUND when the program or the
 * status does not exist.
 */
int	repo_engine_program_status(struct db *db, struct arena *a,
	    int32_t program_id, int64_t lead_id, const char *status,
	    struct engine_status *out);

/* ---- Many leads at once (a batch run's leads at one step) ------------- */

/*
 * The most leads one of these calls takes (an IN list of bound ids).
 */
#define ENGINE_GROUP_MAX	300

/*
 * Locks the rows of leads[0..n) that exist, in one statement; found[i]
 * says whether leads[i] does.  0 or a negative repo_err.
 */
int	repo_engine_leads_lock(struct db *db, const int64_t *leads, size_t n,
	    bool *found);

/*
 * Field f of leads[0..n) as text into vals[i] (arena a; NULL for SQL
 * NULL or a lead that does not exist), one statement.
 */
int	repo_engine_field_get_many(struct db *db, struct arena *a,
	    const struct lead_field *f, const int64_t *leads, size_t n,
	    const char **vals);

/* Writes v to field f of leads[0..n) (and their updatedAt). */
int	repo_engine_field_set_many(struct db *db, const struct lead_field *f,
	    const int64_t *leads, size_t n, const struct lead_value *v);

/*
 * Adds leads[0..n) to (add) or removes them from static list list_id;
 * changed[i] says whether leads[i]'s membership changed (for a lead
 * given twice, the first).  One statement whatever n.  -REPO_ERR_GONE
 * when the list is gone.
 */
int	repo_engine_list_members(struct db *db, int32_t list_id,
	    const int64_t *leads, size_t n, bool add, bool *changed);

#endif
