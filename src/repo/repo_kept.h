/*
 * Reply texts kept on their owners' rows (db/migrations/0020_rendered_flows.sql):
 * a smart campaign's flow (repo_smart_campaigns.c) and a smart list's
 * rules (repo_smart_lists.c).  Each owner has the columns <p>_json (the
 * text or NULL), <p>_rev (moved on, and the text dropped, by every
 * change of what the text shows, in that change's transaction) and
 * <p>_lead_ver, <p>_co_ver (the lead_schema and co_schema versions the
 * text was rendered under: the names it shows come from lead fields and
 * custom object types, which change at run time).  A read takes the
 * text when its versions are the current ones; else it reads the rows,
 * renders, and keeps the text only while <p>_rev is still the one it
 * read, so a change made meanwhile wins.
 */
#ifndef MAUTO_REPO_REPO_KEPT_H
#define MAUTO_REPO_REPO_KEPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mysql.h>

struct db;
struct db_text_rows;

/* What a read found of a kept text, and the key a keep names. */
struct repo_kept {
	const char	*json;		/* the kept text; NULL: none */
	size_t		 len;
	bool		 set;		/* no text: a keep may name the key */
	uint32_t	 rev;
	int64_t		 lead_ver;
	int64_t		 co_ver;
};

/*
 * The columns, after an owner's own, that REPO_KEPT_FROM joins: the
 * revision of columns prefix p ("c.flow"), the current versions, and the
 * text when it was rendered under them (NULL otherwise).
 */
#define REPO_KEPT_COLS(p) \
	", " p "_rev, kl.version, kc.version, IF(" p "_lead_ver = " \
	"kl.version AND " p "_co_ver = kc.version, " p "_json, NULL)"
#define REPO_KEPT_NCOLS	4
#define REPO_KEPT_FROM \
	"JOIN lead_schema kl ON kl.id = 1 JOIN co_schema kc ON kc.id = 1 "

/* What every change of an owner's text writes on its row. */
#define REPO_KEPT_MOVED(p) \
	p "_rev = (" p "_rev + 1) & 0xFFFFFFFF, " p "_json = NULL"

/*
 * The keep of table's columns p.  Parameters: text, lead and custom
 * object schema versions, the owner's id, the revision read.  A read
 * does not wait for a change's row lock: it fails at once (1205).
 */
#define REPO_KEPT_UPDATE(table, p) \
	"SET STATEMENT innodb_lock_wait_timeout = 0 FOR UPDATE " table \
	" SET " p "_json = ?, " p "_lead_ver = ?, " p "_co_ver = ? " \
	"WHERE id = ? AND " p "_rev = ?"

/* The REPO_KEPT_COLS of row row of t, from column col, into *k. */
void	repo_kept_fill(const struct db_text_rows *t, size_t row, size_t col,
	    struct repo_kept *k);

/*
 * Keeps json (len bytes, rendered from what was read with k) with st, a
 * REPO_KEPT_UPDATE, on owner id.  Autocommit; the owner's updated_at
 * stays.  0 when kept, -REPO_ERR_NOT_FOUND when the revision moved on
 * (or the owner is gone), -REPO_ERR_DEADLOCK for a lock held or a
 * certification failure (db_exec_keep), or another repo_err.  A caller
 * answering a request ignores the result: a later read keeps the text.
 */
int	repo_kept_store(struct db *db, MYSQL_STMT *st, int32_t id,
	    const struct repo_kept *k, const char *json, size_t len,
	    const char *where);

#endif
