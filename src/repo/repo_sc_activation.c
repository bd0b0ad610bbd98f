/*
 * Smart campaign activation (repo_sc_activation.h): in one transaction
 * the campaign's row lock (repo_smart_campaigns.c), its list's shared,
 * one snapshot read, checked by model/campaign.c, then the state and the
 * email uses written.  The snapshot says whether the list's filters can
 * be evaluated (repo_sl_filter.c compiles them), so a campaign whose
 * filter mauto cannot evaluate is never activated.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "model/campaign.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_lead_fields.h"
#include "repo/repo_sc_activation.h"
#include "repo/repo_sl_filter.h"
#include "repo/repo_smart_campaigns.h"
#include "repo/repo_smart_lists.h"
#include "util/arena.h"
#include "util/timeutil.h"

enum sc_stmt {
	SC_STMT_LOCK_LIST,
	SC_STMT_ACTIVE,
	SC_STMT_EMAIL_LOCK,
	SC_STMT_STATUS,
	SC_STMT_LISTEN_CLEAR,
	SC_STMT_LISTEN_FILL,
	SC_STMT__MAX
};

static const char *const sql[SC_STMT__MAX] = {
	/* The smart list of campaign ?, locked shared: its row, where a
	 * rule change locks it (a column the index of campaign_id does not
	 * hold, else only that index's entry would be locked). */
	[SC_STMT_LOCK_LIST] =
	    "SELECT trigger_count FROM smart_list WHERE campaign_id = ? "
	    "LOCK IN SHARE MODE",
	[SC_STMT_ACTIVE] =
	    "UPDATE smart_campaign SET is_active = ?, updated_at = "
	    "UTC_TIMESTAMP() WHERE id = ?",
	/* Email ?, locked, with whether it is approved. */
	[SC_STMT_EMAIL_LOCK] =
	    "SELECT EXISTS (SELECT 1 FROM email_version v WHERE "
	    "v.email_id = e.id AND v.status = 'approved') FROM email e WHERE "
	    "e.id = ? LOCK IN SHARE MODE",
	[SC_STMT_STATUS] =
	    "SELECT COUNT(*) FROM program_status WHERE program_id = ? AND "
	    "name = ?",
	/*
	 * The activity types the active trigger campaigns listen for
	 * (migration 0032), rewritten whole: the triggers named by an
	 * activity type id (Campaign is Requested, 100004, is the engine's
	 * own and offers nothing).
	 */
	[SC_STMT_LISTEN_CLEAR] = "DELETE FROM trigger_listen",
	[SC_STMT_LISTEN_FILL] =
	    "INSERT INTO trigger_listen (activity_type_id) "
	    "SELECT DISTINCT r.rule_type_id FROM smart_campaign c "
	    "JOIN smart_list_rule r ON r.smart_list_id = c.smart_list_id "
	    "WHERE c.is_active = 1 AND r.is_trigger = 1 AND "
	    "r.kind = 'activity' AND r.rule_type_id < 100000",
};

const struct db_stmt_set repo_sc_activation_sql = {
	.name = "sc_activation",
	.sql = sql,
	.n = SC_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum sc_stmt s)
{
	return db_stmt(db, REPO_SC_ACTIVATION, (int)s);
}

/* The catalogues the filters of a list are compiled under. */
struct sc_cats {
	struct lead_schema	 leads;
	struct slf_co		 co;
};

/*
 * The rules of the smart list of campaign s (none when it has none), and
 * whether its filters can be evaluated (repo_sl_filter.h) under cats.
 */
static int
snap_rules(struct db *db, struct arena *a, const struct sc_cats *cats,
    const struct repo_sc *s, struct campaign_snapshot *snap)
{
	struct sl_filter f;
	struct repo_sl sl;
	char msg[SL_MSG_BYTES];
	char *why;
	int r;

	if ((r = repo_sl_get(db, a, s->smart_list_id, true, &sl)) != 0)
		return r == -REPO_ERR_NOT_FOUND ? 0 : r;
	snap->rules = sl.rules;
	snap->nrules = sl.nrules;
	if (sl_filter_build_co(&cats->leads, &cats->co, sl.rules, sl.nrules,
	    sl.match_type, sl.custom_logic, time_now_ms(), &f, msg,
	    sizeof(msg)) != 0) {
		if ((why = arena_alloc(a, strlen(msg) + 1)) == NULL)
			r = -REPO_ERR_INTERNAL;
		else
			snap->filter_refusal = memcpy(why, msg,
			    strlen(msg) + 1);
	}
	sl_filter_clear(&f);
	return r;
}

/* Orders email references by id (0, the unresolved, first). */
static int
ref_by_id(const void *pa, const void *pb)
{
	const struct campaign_ref *const *x = pa, *const *y = pb;

	return ((*x)->id > (*y)->id) - ((*x)->id < (*y)->id);
}

/*
 * Locks each email snap's references name (shared, by id: the order of
 * every activation) and reads whether it is approved; an email gone
 * since it was resolved names nothing.
 */
static int
snap_emails(struct db *db, struct arena *a, struct campaign_ref *refs,
    size_t n)
{
	struct campaign_ref **emails;
	MYSQL_BIND in[1];
	size_t i, k = 0;
	int64_t v;
	int32_t id;
	int r = 0;

	if (n == 0)
		return 0;
	if ((emails = arena_zalloc(a, n * sizeof(*emails))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < n; i++)
		if (strcmp(refs[i].data_type, "email") == 0 && refs[i].id != 0)
			emails[k++] = &refs[i];
	qsort(emails, k, sizeof(*emails), ref_by_id);
	for (i = 0; r == 0 && i < k; i++) {
		id = emails[i]->id;
		v = 0;
		bind_i32(&in[0], &id);
		r = db_query_i64(db, stmt(db, SC_STMT_EMAIL_LOCK), in, &v,
		    "repo_sc_activate");
		if (r == -REPO_ERR_NOT_FOUND) {
			emails[i]->id = 0;
			r = 0;
		}
		emails[i]->approved = v != 0;
	}
	return r;
}

/* How many attribute values the choices of snap's flow have at most. */
static size_t
flow_nattrs(const struct campaign_snapshot *snap)
{
	size_t i, j, n = 0;

	for (i = 0; i < snap->nsteps; i++)
		for (j = 0; j < snap->steps[i].nchoices; j++)
			n += snap->steps[i].choices[j].nattrs;
	return n;
}

/*
 * What the values of snap's flow name: every distinct value of a
 * reference data type (model/campaign.h, campaign_ref_kind), resolved.
 */
static int
snap_refs(struct db *db, struct arena *a, struct campaign_snapshot *snap)
{
	const struct campaign_step *st;
	const struct campaign_attr *k;
	struct campaign_ref *refs;
	size_t i, j, m, n = 0, max;
	int r;

	if ((max = flow_nattrs(snap)) == 0)
		return 0;
	if ((refs = arena_zalloc(a, max * sizeof(*refs))) == NULL)
		return -REPO_ERR_INTERNAL;
	snap->refs = refs;
	for (i = 0; i < snap->nsteps; i++) {
		st = &snap->steps[i];
		for (j = 0; j < st->nchoices; j++)
			for (m = 0; m < st->choices[j].nattrs; m++) {
				k = &st->choices[j].attrs[m];
				if (k->value == NULL ||
				    campaign_ref_kind(k->data_type) == NULL ||
				    campaign_ref_find(snap, k->data_type,
				    k->value) != NULL)
					continue;
				refs[n].data_type = k->data_type;
				refs[n].value = k->value;
				r = repo_sc_resolve(db, k->data_type, k->value,
				    &refs[n].id);
				if (r != 0 && r != -REPO_ERR_NOT_FOUND)
					return r;
				snap->nrefs = ++n;
			}
	}
	return snap_emails(db, a, refs, n);
}

/*
 * Whether each program the flow's Change Program Status values are
 * checked against (campaign_status_program) has the status.
 */
static int
snap_statuses(struct db *db, struct arena *a, struct campaign_snapshot *snap)
{
	const struct campaign_choice *ch;
	struct campaign_status *sts;
	MYSQL_BIND in[2];
	unsigned long len;
	size_t i, j, m, n;
	int64_t v;
	int r = 0;

	if ((n = flow_nattrs(snap)) == 0)
		return 0;
	if ((sts = arena_zalloc(a, n * sizeof(*sts))) == NULL)
		return -REPO_ERR_INTERNAL;
	snap->statuses = sts;
	for (i = 0; r == 0 && i < snap->nsteps; i++)
		for (j = 0; r == 0 && j < snap->steps[i].nchoices; j++) {
			ch = &snap->steps[i].choices[j];
			for (m = 0; r == 0 && m < ch->nattrs; m++) {
				struct campaign_status *st =
				    &sts[snap->nstatuses];

				if (ch->attrs[m].value == NULL ||
				    strcmp(ch->attrs[m].data_type, "status") !=
				    0 || (st->program_id =
				    campaign_status_program(snap, ch)) == 0)
					continue;
				st->name = ch->attrs[m].value;
				len = strlen(st->name);
				v = 0;
				bind_i32(&in[0], &st->program_id);
				bind_str(&in[1], st->name, &len);
				r = db_query_i64(db, stmt(db, SC_STMT_STATUS), in,
				    &v, "repo_sc_activate");
				st->exists = v > 0;
				snap->nstatuses++;
			}
		}
	return r;
}

/*
 * The snapshot of campaign id activation checks, read after the locks
 * (sc_activate_tx): strings and arrays in a.
 */
static int
snap_read(struct db *db, struct arena *a, const struct sc_cats *cats,
    int32_t id, bool active, struct campaign_snapshot *snap)
{
	struct campaign_step *steps;
	struct repo_sc s;
	size_t n;
	int r;

	memset(snap, 0, sizeof(*snap));
	if ((r = repo_sc_get(db, a, id, &s)) != 0 ||
	    (r = repo_sc_flow(db, a, id, &steps, &n)) != 0)
		return r;
	snap->id = id;
	snap->active = active;
	snap->place = s.place;
	snap->ntriggers = s.ntriggers;
	snap->steps = steps;
	snap->nsteps = n;
	if ((r = snap_rules(db, a, cats, &s, snap)) != 0 ||
	    (r = snap_refs(db, a, snap)) != 0)
		return r;
	return snap_statuses(db, a, snap);
}

struct sc_active {
	int32_t			 id;
	bool			 active;
	struct arena		*a;
	struct campaign_refusal	*why;
	/* The catalogues, read before the transaction. */
	const struct sc_cats	*cats;
};

static int
sc_active_tx(struct db *db, void *arg)
{
	struct sc_active *x = arg;
	struct campaign_snapshot snap;
	MYSQL_BIND in[2];
	int64_t list = 0;
	int32_t v = x->active;
	bool now;
	int r;

	if ((r = repo_sc_lock(db, x->id, &now)) != 0)
		return r;
	if (!x->active) {
		if (!now)
			return -REPO_ERR_INVALID;
	} else {
		bind_i32(&in[0], &x->id);
		if ((r = db_query_i64(db, stmt(db, SC_STMT_LOCK_LIST), in,
		    &list, "repo_sc_activate")) != 0 && r !=
		    -REPO_ERR_NOT_FOUND)
			return r;
		if ((r = snap_read(db, x->a, x->cats, x->id, now,
		    &snap)) != 0)
			return r;
		if (!campaign_check_activation(&snap, x->why))
			return -REPO_ERR_INVALID;
	}
	bind_i32(&in[0], &v);
	bind_i32(&in[1], &x->id);
	if ((r = db_exec(db, stmt(db, SC_STMT_ACTIVE), in,
	    "repo_sc_activate")) != 0 ||
	    (r = db_exec(db, stmt(db, SC_STMT_LISTEN_CLEAR), NULL,
	    "repo_sc_activate")) != 0 ||
	    (r = db_exec(db, stmt(db, SC_STMT_LISTEN_FILL), NULL,
	    "repo_sc_activate")) != 0)
		return r;
	return repo_sc_usage_refresh(db, x->id, x->active);
}

/* See repo_sc_activation.h. */
int
repo_sc_activate(struct db *db, struct arena *a, int32_t id,
    struct campaign_refusal *why)
{
	struct sc_cats cats;
	struct sc_active x = { id, true, a, why, &cats };
	int r;

	memset(why, 0, sizeof(*why));
	memset(&cats, 0, sizeof(cats));
	/* Before the transaction (the lead schema's read is one of its
	 * own): catalogues whose changes are rare. */
	if ((r = repo_lead_fields_load(db, &cats.leads)) == 0 &&
	    (r = repo_sl_filter_co_load(db, a, &cats.co)) == 0)
		r = db_run_tx(db, sc_active_tx, &x, false);
	lead_schema_clear(&cats.leads);
	return r;
}

/* See repo_sc_activation.h. */
int
repo_sc_deactivate(struct db *db, int32_t id)
{
	struct sc_active x = { id, false, NULL, NULL, NULL };

	return db_run_tx(db, sc_active_tx, &x, false);
}
