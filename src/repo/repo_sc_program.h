/*
 * Smart campaigns in a program: the reads and writes Clone Program and
 * Delete Program make of a program's campaigns inside their own
 * transactions (the campaigns themselves are repo_smart_campaigns.h's).
 */
#ifndef MAUTO_REPO_REPO_SC_PROGRAM_H
#define MAUTO_REPO_REPO_SC_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;
struct db;
struct repo_named;

/*
 * The campaigns of program program, by id, into *out (*n) in the arena
 * a (Clone Program).  0 or a negative repo_err.
 */
int	repo_sc_in_program(struct db *db, struct arena *a, int32_t program,
	    struct repo_named **out, size_t *n);

/*
 * Inside the caller's transaction (Clone Program): the flow attributes
 * of data type data_type ("email", "list", "campaign", "program") of
 * program program's campaigns whose value is from get the value to.  0
 * or a negative repo_err.
 */
int	repo_sc_remap(struct db *db, int32_t program, const char *data_type,
	    const char *from, const char *to);

/*
 * What keeps program program from being deleted (Delete Program), inside
 * the caller's transaction: *id is the first of its campaigns that is
 * active (*active true) or, failing that, that a flow step of a campaign
 * outside the program names (Request Campaign); 0 when none.  Returns 0
 * or a negative repo_err.
 */
int	repo_sc_program_blocker(struct db *db, int32_t program, int32_t *id,
	    bool *active);

/*
 * Inside the caller's transaction (Delete Program): *id is the first
 * campaign outside program program whose flow or own smart list names
 * it (by name or id), 0 when none.  0 or a negative repo_err.
 */
int	repo_sc_names_program(struct db *db, int32_t program, int32_t *id);

/*
 * Deletes every campaign of program program with its list, flow and
 * members, inside the caller's transaction (after
 * repo_sc_program_blocker found none active).  0 or a negative repo_err.
 */
int	repo_sc_delete_in_program(struct db *db, int32_t program);

#endif
