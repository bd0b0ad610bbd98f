/*
 * Merge Leads (migration 0004): the losers' data, memberships, cookies
 * and activities go to the winner, and the losers are deleted.
 */
#ifndef MAUTO_REPO_REPO_MERGE_H
#define MAUTO_REPO_REPO_MERGE_H

#include <stddef.h>
#include <stdint.h>

struct db;
struct lead_field;

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
int	repo_merge(struct db *db, int64_t winner, const int64_t *losers,
	    size_t nlosers, const struct lead_field *fields, size_t nfields,
	    int64_t *missing);

#endif
