/*
 * The Send Email step (engine/mail.h).
 *
 * Choices where the real service is silent (docs/behaviour.md §26):
 *   - the send is keyed by (run, lead, step) in the outbox's UNIQUE key:
 *     the key is looked up before anything is rendered, and an insert
 *     that meets it anyway (two runners on one step) is a replay too;
 *   - a lead is not mailed, and nothing is written, when its Email
 *     Address is empty or not one address, when Email Invalid is set, or
 *     when Unsubscribed is set and the email is not operational;
 *   - 8 Email Bounced names the relay's refusal: Category "2" (a
 *     permanent refusal, 5xx) or "3" (a temporary one, 4xx),
 *     Subcategory the reply code, Email the recipient, Details the
 *     reply; a relay that cannot be reached is no bounce (nothing reached
 *     a mail server), the message is failed without an activity;
 *   - a My Token that neither the run's tokens nor the place define is
 *     left blank, as the real service is seen to leave one its program
 *     lacks; the run's tokens win over the place's;
 *   - Choice Number is the step's choice on 6, 7 and 8 alike; Has
 *     Predictive is false and Test Variant 0 (no predictive content, no
 *     A/B test).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <sodium.h>

#include "db/pool.h"
#include "engine/mail.h"
#include "mail/compose.h"
#include "mail/message.h"
#include "mail/outbox.h"
#include "mail/smtp.h"
#include "model/asset.h"
#include "model/email.h"
#include "model/email_render.h"
#include "model/html.h"
#include "model/leadfield.h"
#include "model/template.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"
#include "repo/repo_outbox.h"
#include "repo/repo_tokens.h"
#include "util/arena.h"
#include "util/config.h"
#include "util/log.h"
#include "util/timeutil.h"

/* The value of lead field name (REST name) in t, or NULL. */
static const char *
lead_value(const struct email_lead *t, const char *name)
{
	const struct lead_field *f = lead_schema_find(t->s, name);

	if (f == NULL || t->vals == NULL)
		return NULL;
	return t->vals[f - t->s->fields];
}

/* Whether a boolean field's value v is set. */
static bool
is_set(const char *v)
{
	return v != NULL && (strcmp(v, "1") == 0 || strcmp(v, "true") == 0);
}

/* The address lead t is mailed at, or NULL when it is not mailed. */
static const char *
mail_to(const struct email_lead *t, bool operational)
{
	const char *to = lead_value(t, "email");

	if (to == NULL || !mail_address_ok(to) ||
	    is_set(lead_value(t, "emailInvalid")) ||
	    (!operational && is_set(lead_value(t, "unsubscribed"))))
		return NULL;
	return to;
}

/* The run context every email activity carries. */
static struct json_object *
run_attrs(int64_t run, int32_t step, int32_t choice)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "Campaign Run ID",
	    json_object_new_int64(run));
	json_object_object_add(o, "Step ID", json_object_new_int(step));
	json_object_object_add(o, "Choice Number",
	    json_object_new_int(choice));
	json_object_object_add(o, "Has Predictive",
	    json_object_new_boolean(0));
	json_object_object_add(o, "Test Variant", json_object_new_int(0));
	return o;
}

/*
 * Writes activity type of the email send row r with attributes o (put),
 * offered to trigger campaigns at cascade depth depth.
 */
static int
email_activity(struct db *db, int type, const struct repo_outbox_row *r,
    int depth, struct json_object *o)
{
	struct activity act;
	char *attrs = repo_activity_attrs(o);
	int e;

	memset(&act, 0, sizeof(act));
	act.lead_id = r->lead_id;
	act.type = type;
	act.primary_id = r->email_id;
	act.primary_value = r->asset_name;
	act.attributes = attrs;
	act.campaign_id = r->campaign_id;
	act.depth = depth;
	e = repo_activity_insert(db, &act);
	free(attrs);
	return e;
}

/* The most characters of an activity's primary value (its column). */
#define PRIMARY_VALUE_CHARS	255

/*
 * "<program>.<email name>" of e (its folder's name for an email in a
 * folder), cut to PRIMARY_VALUE_CHARS characters, in the arena a.
 */
static const char *
asset_name(struct arena *a, const struct repo_email *e)
{
	char *s = arena_printf(a, "%s.%s", e->folder_name != NULL ?
	    e->folder_name : "", e->name);
	size_t i, chars = 0;

	for (i = 0; s != NULL && s[i] != '\0'; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 &&
		    ++chars > PRIMARY_VALUE_CHARS) {
			s[i] = '\0';
			break;
		}
	return s;
}

/* What one queue holds while it renders. */
struct queue_work {
	struct repo_email	 em;
	struct repo_etpl	 tpl;
	bool			 has_tpl;
	struct tpl_outline	 o;
	struct html_doc		*doc;
	struct json_object	*content;
	char			*html;
	char			*text;
	char			*own[2];	/* the filled headers */
};

/* Frees what w holds. */
static void
queue_work_clear(struct queue_work *w)
{
	if (w->has_tpl)
		tpl_outline_clear(&w->o);
	html_free(w->doc);
	json_object_put(w->content);
	free(w->html);
	free(w->text);
	free(w->own[0]);
	free(w->own[1]);
}

/*
 * Renders w's version for the tokens tk into w's html, text, subject and
 * From name, and fills the message s.  0 or a negative repo_err.
 */
static int
render(struct db *db, struct arena *a, struct queue_work *w,
    const struct compose_tokens *tk, struct outbox_send *s)
{
	size_t len = 0;

	if ((w->html = compose_render(db, a, w->has_tpl ? &w->o : NULL,
	    w->doc, w->content, tk, &len)) == NULL ||
	    (w->text = email_render_text(w->html, len)) == NULL)
		return -REPO_ERR_INTERNAL;
	compose_headers(&w->em, tk, &s->msg, w->own);
	s->msg.text = w->text;
	if (!w->em.text_only)
		s->msg.html = w->html;
	return 0;
}

/* See mail.h. */
int
engine_mail_queue(struct db *db, struct arena *a, const struct config *cfg,
    const struct engine_mail_req *req, bool *dup)
{
	struct queue_work w;
	struct email_lead lead;
	struct compose_tokens tk;
	struct outbox_send s;
	struct repo_outbox_row row;
	struct repo_token *my = NULL;
	const char *to, *why = NULL;
	size_t nmy = 0;
	int64_t id = 0;
	int r;

	*dup = false;
	memset(&w, 0, sizeof(w));
	r = -REPO_ERR_INVALID;
	if (req->schema == NULL || (r = repo_outbox_find_step(db,
	    req->run_id, req->lead_id, req->step_id, &id)) != 0)
		goto out;
	if (id != 0) {
		*dup = true;
		goto out;
	}
	if ((r = repo_email_get(db, a, req->email_id, ASSET_ST_APPROVED, true,
	    &w.em)) != 0 ||
	    (r = compose_lead(db, a, req->schema, req->lead_id, &lead)) != 0)
		goto out;
	if ((to = mail_to(&lead, w.em.operational)) == NULL)
		goto out;
	r = -REPO_ERR_INTERNAL;
	if ((w.content = email_doc_parse(w.em.content,
	    w.em.content_len)) == NULL)
		goto out;
	if (w.em.template_id != 0) {
		if ((r = compose_template(db, a, w.em.template_id, &w.tpl,
		    &w.o, &w.doc)) != 0)
			goto out;
		w.has_tpl = true;
	}
	if (req->place != NULL && (r = repo_tokens_effective(db, a,
	    req->place, &my, &nmy)) != 0)
		goto out;
	memset(&tk, 0, sizeof(tk));
	tk.lead = &lead;
	tk.names = req->tok_names;
	tk.values = req->tok_values;
	tk.n = req->ntok;
	tk.my = my;
	tk.nmy = nmy;
	tk.unknown_blank = true;
	memset(&s, 0, sizeof(s));
	if ((r = render(db, a, &w, &tk, &s)) != 0)
		goto out;
	s.kind = OUTBOX_KIND_CAMPAIGN;
	s.email_id = w.em.id;
	s.lead_id = (int32_t)req->lead_id;
	s.campaign_id = req->campaign_id;
	s.run_id = req->run_id;
	s.step_id = req->step_id;
	s.choice = req->choice;
	s.asset_name = asset_name(a, &w.em);
	s.msg.to = to;
	r = outbox_queue(db, cfg, &s, &id, &why);
	if (r == -REPO_ERR_CONFLICT) {
		*dup = true;
		r = 0;
		goto out;
	}
	if (r != 0) {
		if (why != NULL)
			log_msg(LOG_LVL_WARN, "engine_mail_queue: email %d "
			    "for lead %lld: its %s is not valid",
			    (int)req->email_id, (long long)req->lead_id, why);
		goto out;
	}
	memset(&row, 0, sizeof(row));
	row.lead_id = s.lead_id;
	row.email_id = s.email_id;
	row.campaign_id = s.campaign_id;
	row.asset_name = s.asset_name;
	r = email_activity(db, ACT_SEND_EMAIL, &row, req->depth, run_attrs(req->run_id,
	    req->step_id, req->choice));
out:
	queue_work_clear(&w);
	return r;
}

/* What one delivered message records. */
struct delivery {
	const struct repo_outbox_row	*row;
	const struct smtp_result	*res;
	const char			*owner;
};

/* The attributes of 8 Email Bounced for the refusal d (put by the caller). */
static struct json_object *
bounce_attrs(const struct delivery *d)
{
	struct json_object *o = run_attrs(d->row->run_id, d->row->step_id,
	    d->row->choice);
	char code[16];

	(void)snprintf(code, sizeof(code), "%d", d->res->code);
	json_object_object_add(o, "Category", json_object_new_string(
	    d->res->code >= 500 ? "2" : "3"));
	json_object_object_add(o, "Subcategory", json_object_new_string(code));
	json_object_object_add(o, "Email",
	    json_object_new_string(d->row->rcpt_to));
	json_object_object_add(o, "Details",
	    json_object_new_string(d->res->reply));
	return o;
}

/* db_run_tx: records the outcome of d and its activity, if still ours. */
static int
delivery_tx(struct db *db, void *arg)
{
	const struct delivery *d = arg;
	bool done = false;
	int r;

	if ((r = repo_outbox_finish_claimed(db, d->row->id, d->owner,
	    outbox_status(d->res->status), d->res->code, d->res->reply,
	    &done)) != 0 || !done)
		return r;
	if (d->res->status == SMTP_SENT)
		return email_activity(db, ACT_EMAIL_DELIVERED, d->row, 0,
		    run_attrs(d->row->run_id, d->row->step_id,
		    d->row->choice));
	if (d->res->status == SMTP_REFUSED)
		return email_activity(db, ACT_EMAIL_BOUNCED, d->row, 0,
		    bounce_attrs(d));
	return 0;
}

/*
 * Claims the oldest queued message for a new owner word (into owner) with
 * a lease of one send, smtp_timeout and a minute more, from now_ms; *row
 * is it, or NULL when none is queued.
 */
static int
claim_one(struct db *db, struct arena *a, const struct config *cfg,
    int64_t now_ms, char *owner, struct repo_outbox_row **row)
{
	struct repo_outbox_row *rows = NULL;
	unsigned char rnd[OUTBOX_OWNER_BYTES / 2];
	int64_t lease = now_ms + ((int64_t)cfg->smtp_timeout + 60) * 1000;
	size_t n = 0;
	int r;

	*row = NULL;
	randombytes_buf(rnd, sizeof(rnd));
	(void)sodium_bin2hex(owner, OUTBOX_OWNER_BYTES + 1, rnd, sizeof(rnd));
	if ((r = repo_outbox_claim(db, owner, lease, 1, &n)) != 0 || n == 0 ||
	    (r = repo_outbox_claimed(db, a, owner, 1, &rows, &n)) != 0)
		return r;
	if (n == 1)
		*row = &rows[0];
	return 0;
}

/* See mail.h. */
int
engine_mail_deliver(struct db *db, const struct config *cfg, int64_t now_ms,
    size_t max, size_t *sent)
{
	struct arena a, ma;
	struct repo_outbox_row *row = NULL, msg;
	struct smtp_result res;
	struct delivery d;
	char owner[OUTBOX_OWNER_BYTES + 1];
	int64_t t0 = time_now_ms();
	size_t i, n = 0;
	int r, e;

	*sent = 0;
	arena_init(&a);
	arena_init(&ma);
	if ((r = repo_outbox_expire(db, now_ms, ENGINE_MAIL_LOST, &n)) != 0)
		goto out;
	if (n > 0)
		log_msg(LOG_LVL_WARN, "engine_mail_deliver: %zu message(s) "
		    "left sending past their lease failed", n);
	/*
	 * One message claimed at a time: a pass that dies leaves only the
	 * message it was handing over in doubt, not the rest of a claim.
	 */
	for (i = 0; i < max; i++) {
		arena_reset(&a);
		if ((r = claim_one(db, &a, cfg, now_ms + (time_now_ms() - t0),
		    owner, &row)) != 0 || row == NULL)
			break;
		/* One message in memory at a time: each may be 16 MiB. */
		arena_reset(&ma);
		if ((e = repo_outbox_get(db, &ma, row->id, &msg)) != 0) {
			/* Left sending: the lease's end fails it. */
			r = e;
			break;
		}
		(void)smtp_send(cfg, msg.mail_from, msg.rcpt_to, msg.message,
		    msg.message_len, &res);
		if (res.status != SMTP_NO_RELAY)
			(*sent)++;
		d.row = row;
		d.res = &res;
		d.owner = owner;
		if ((e = db_run_tx(db, delivery_tx, &d, false)) != 0) {
			/* Left sending: the lease's end fails it. */
			log_msg(LOG_LVL_ERR, "engine_mail_deliver: message "
			    "%lld was %s but the outbox could not record it",
			    (long long)row->id, smtp_status_name(res.status));
			r = e;
			break;
		}
	}
out:
	arena_clear(&ma);
	arena_clear(&a);
	return r;
}
