/*
 * An Email program's send (repo_program_send.h).  Each check reads under
 * a lock of the transaction that writes (the program's row, the email's
 * approved version in share mode), so what approve found is what it
 * schedules; the batch run's claim by a runner and Unapprove's delete
 * of the run take the same row lock, so one of them wins.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "db/pool.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_emails.h"
#include "repo/repo_engine.h"
#include "repo/repo_program_assets.h"
#include "repo/repo_program_send.h"
#include "repo/repo_smart_campaigns.h"
#include "repo/repo_smart_lists.h"

struct send_tx {
	struct arena			*a;
	struct repo_program_send	*s;
};

/* Approve Program's transaction. */
static int
approve_tx(struct db *db, void *arg)
{
	struct send_tx *x = arg;
	struct repo_program_send *s = x->s;
	struct repo_program_send_row p;
	struct repo_sc_new t;
	struct engine_start st;
	int32_t email = 0, list = 0;
	int r;

	s->why = RPS_OK;
	s->campaign_id = 0;
	s->run_id = 0;
	if ((r = repo_program_assets_send_lock(db, x->a, s->id, &p)) != 0)
		return r;
	if (p.type == NULL || strcmp(p.type, PROGRAM_TYPE_EMAIL) != 0)
		s->why = RPS_NOT_EMAIL;
	else if (p.locked)
		s->why = RPS_APPROVED;
	else if (p.start_date == 0)
		s->why = RPS_NO_START;
	else if (p.start_date * 1000 <= s->now_ms)
		s->why = RPS_START_PAST;
	if (s->why != RPS_OK)
		return 0;
	if ((r = repo_email_approved_in_program(db, s->id, &email)) != 0)
		return r;
	if (email == 0) {
		s->why = RPS_NO_EMAIL;
		return 0;
	}
	r = repo_sl_in_program(db, s->id, &list);
	if (r == -REPO_ERR_NOT_FOUND || (r == 0 && list == 0)) {
		s->why = RPS_NO_LIST;
		return 0;
	}
	if (r != 0)
		return r;
	memset(&t, 0, sizeof(t));
	t.name = s->campaign_name;
	t.place.type = FOLDER_T_PROGRAM;
	t.place.id = s->id;
	t.list_of = list;
	if ((r = repo_sc_send_insert_in_tx(db, &t, email,
	    &s->campaign_id)) != 0)
		return r;
	memset(&st, 0, sizeof(st));
	st.campaign_id = s->campaign_id;
	st.kind = RUN_BATCH;
	st.now_ms = s->now_ms;
	st.run_at_ms = p.start_date * 1000;
	st.qual.type = "once";
	if ((r = repo_engine_start_tx(db, &st, NULL, 0, &s->run_id,
	    NULL)) != 0)
		return r;
	return repo_program_assets_send_set(db, s->id, true, s->campaign_id,
	    s->run_id);
}

/* Runs fn, approve_tx or unapprove_tx, over s in a transaction. */
static int
send_run(struct db *db, int (*fn)(struct db *, void *), struct arena *a,
    struct repo_program_send *s)
{
	struct send_tx x = { a, s };
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	return db_run_tx(db, fn, &x, false);
}

/* See repo_program_send.h. */
int
repo_program_send_approve(struct db *db, struct arena *a,
    struct repo_program_send *s)
{
	int r = send_run(db, approve_tx, a, s);

	if (r == -REPO_ERR_CONFLICT) {
		s->why = RPS_NAME_TAKEN;
		r = 0;
	}
	return r;
}

/* Unapprove Program's transaction. */
static int
unapprove_tx(struct db *db, void *arg)
{
	struct send_tx *x = arg;
	struct repo_program_send *s = x->s;
	struct repo_program_send_row p;
	bool cancelled = false;
	int r;

	s->why = RPS_OK;
	if ((r = repo_program_assets_send_lock(db, x->a, s->id, &p)) != 0)
		return r;
	s->campaign_id = p.campaign_id;
	s->run_id = p.run_id;
	if (p.type == NULL || strcmp(p.type, PROGRAM_TYPE_EMAIL) != 0)
		s->why = RPS_NOT_EMAIL;
	else if (!p.locked)
		s->why = RPS_NOT_APPROVED;
	if (s->why != RPS_OK)
		return 0;
	if ((r = repo_engine_cancel_tx(db, p.run_id, &cancelled)) != 0)
		return r;
	if (!cancelled) {
		s->why = RPS_STARTED;
		return 0;
	}
	/* A send campaign deleted through the asset API is gone already. */
	if (p.campaign_id != 0 && (r = repo_sc_delete_in_tx(db,
	    p.campaign_id)) != 0 && r != -REPO_ERR_NOT_FOUND)
		return r;
	return repo_program_assets_send_set(db, s->id, false, 0, 0);
}

/* See repo_program_send.h. */
int
repo_program_send_unapprove(struct db *db, struct arena *a,
    struct repo_program_send *s)
{
	return send_run(db, unapprove_tx, a, s);
}
