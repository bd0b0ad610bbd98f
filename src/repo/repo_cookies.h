/*
 * Tracking cookies (migration 0004 lead_cookie and the lead's `cookies`
 * column): which lead a `_mkto_trk` value belongs to.
 */
#ifndef MAUTO_REPO_REPO_COOKIES_H
#define MAUTO_REPO_REPO_COOKIES_H

#include <stdint.h>

struct db;

/*
 * Associates a tracking cookie with lead_id: stored in lead_cookie (a
 * cookie another lead had moves to this one; that lead's `cookies`
 * column then shows its newest remaining cookie), and set as the lead's
 * `cookies` column.  -REPO_ERR_NOT_FOUND when there is no such lead.
 */
int	repo_cookies_associate(struct db *db, int64_t lead_id,
	    const char *cookie);

/*
 * Inside the caller's transaction (Submit Form): gives lead_id the cookie
 * when no lead has it yet, and shows it in the lead's `cookies` column;
 * a cookie another lead has stays with that lead.
 */
int	repo_cookies_add_new(struct db *db, int64_t lead_id,
	    const char *cookie);

/* Inside the caller's transaction (Merge Leads): from's cookies go to to. */
int	repo_cookies_move(struct db *db, int64_t to, int64_t from);

#endif
