/*
 * Deleting a program with everything in it (Delete Program): the one
 * operation that asks every store what it keeps in a program and what
 * of that, or of the program, is used from outside.  It stands above
 * the stores, as repo_folder_delete.h does for folders.
 */
#ifndef MAUTO_REPO_REPO_PROGRAM_DELETE_H
#define MAUTO_REPO_REPO_PROGRAM_DELETE_H

#include <stdint.h>

struct db;

/* The kinds of asset that keep a program from being deleted. */
enum repo_program_block_kind {
	RPB_NONE,
	RPB_ACTIVE_CAMPAIGN,	/* a campaign of the program is active */
	RPB_CAMPAIGN,		/* a flow outside requests its campaign */
	RPB_EMAIL,		/* a flow outside sends its email */
	RPB_LIST,		/* an asset outside names its static list */
	RPB_FORM,		/* a smart list outside names its form */
	RPB_NAMED_BY_CAMPAIGN,	/* a campaign outside names the program */
	RPB_NAMED_BY_LIST,	/* a smart list outside names the program */
	RPB__MAX
};

/* What blocked a delete: the kind and the blocking asset's id. */
struct repo_program_block {
	enum repo_program_block_kind	 kind;
	int32_t				 id;
};

/*
 * Deletes program id in a transaction of its own, under the program's
 * row lock: its smart campaigns (with their lists, flows and members),
 * smart lists, static lists (with their members), forms (with their
 * fields), emails (approved or not), then the program with its statuses,
 * tags, costs, tokens and members.  Returns 0, -REPO_ERR_NOT_FOUND,
 * -REPO_ERR_CONFLICT with *b naming the first asset that blocks (checked
 * in the order of the kinds above), or another negative repo_err; *b is
 * RPB_NONE otherwise.
 */
int	repo_program_delete(struct db *db, int32_t id,
	    struct repo_program_block *b);

#endif
