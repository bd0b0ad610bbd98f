/*
 * The flow steps (steps.h).
 *
 * Each step writes the activity the hosted service records for it
 * (docs/behaviour.md §24), with campaignId the running campaign and the
 * run context attributes Campaign Run ID (the run's id), Step ID (the
 * flow step's id) and Choice Number (0: the default choice, else the
 * choice's place from 1); an activity a step writes is offered to the
 * trigger campaigns one cascade level deeper than its run.
 *
 * Choices: a step runs the first of its choices (top-down) whose
 * condition the lead meets, evaluated in the database as a one-rule
 * smart list filter (audience.c), the default choice last.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "engine/audience.h"
#include "engine/mail.h"
#include "engine/steps.h"
#include "model/flowstep.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_engine_steps.h"
#include "repo/repo_leads.h"
#include "repo/repo_lists.h"
#include "util/arena.h"
#include "util/num.h"

#define FLOW_SOURCE	"Marketo Flow Action"

/* The value a choice gives attribute name, or NULL. */
static const char *
attr(const struct campaign_choice *ch, const char *name)
{
	size_t i;

	for (i = 0; i < ch->nattrs; i++)
		if (strcmp(ch->attrs[i].name, name) == 0)
			return ch->attrs[i].value;
	return NULL;
}

/* The lead field a flow value names: its REST name or display name. */
static const struct lead_field *
field_named(const struct lead_schema *s, const char *v)
{
	const struct lead_field *f;
	size_t i;

	if (v == NULL)
		return NULL;
	if ((f = lead_schema_find(s, v)) != NULL)
		return f;
	for (i = 0; i < s->count; i++)
		if (s->fields[i].display_name != NULL &&
		    strcasecmp(s->fields[i].display_name, v) == 0)
			return &s->fields[i];
	return NULL;
}

/* "<program>.<campaign>", or the campaign's name outside a program. */
static const char *
campaign_label(const struct step_ctx *x)
{
	if (x->sc->program_name != NULL)
		return arena_printf(x->a, "%s.%s", x->sc->program_name,
		    x->sc->name);
	return x->sc->name;
}

/* A new attribute object with the run context of step and choice. */
static struct json_object *
context_attrs(const struct step_ctx *x, const struct campaign_step *st,
    int choice)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "Campaign Run ID",
	    json_object_new_int64(x->run->id));
	json_object_object_add(o, "Step ID", json_object_new_int64(st->id));
	json_object_object_add(o, "Choice Number",
	    json_object_new_int(choice));
	return o;
}

static void
add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v != NULL ? json_object_new_string(v) :
	    NULL);
}

/* Records activity type for it's lead with attributes o (consumed). */
static int
record(const struct step_ctx *x, const struct engine_item *it, int type,
    int64_t primary_id, const char *primary_value, struct json_object *o)
{
	struct activity act;
	char *attrs = repo_activity_attrs(o);
	int r;

	memset(&act, 0, sizeof(act));
	act.lead_id = it->lead_id;
	act.type = type;
	act.primary_id = primary_id;
	act.primary_value = primary_value;
	act.attributes = attrs;
	act.campaign_id = x->sc->id;
	act.depth = x->run->depth + 1;
	r = attrs != NULL ? repo_activity_insert(x->db, &act) :
	    -REPO_ERR_INTERNAL;
	free(attrs);
	return r;
}

/* The reason texts of a flow step's data change. */
static const char *
change_reason(const struct step_ctx *x, const char *action)
{
	return arena_printf(x->a, "Changed by Smart Campaign %s action %s",
	    campaign_label(x), action);
}

/*
 * What Change Data Value of choice ch writes: the field into *f and the
 * value (tokens filled; NULL or empty clears) into *v.  1 when the step
 * cannot act (res says why), else 0.
 */
static int
cdv_target(const struct step_ctx *x, const struct campaign_choice *ch,
    const struct lead_field **f, struct lead_value *v,
    struct step_result *res)
{
	const char *raw = attr(ch, "New Value");
	struct json_object *in;
	int r;

	*f = field_named(x->schema, attr(ch, "Attribute"));
	if (*f == NULL || (*f)->read_only) {
		res->note = "Change Data Value: the attribute names no field "
		    "that can be written";
		res->skipped = true;
		return 1;
	}
	raw = flowstep_fill_tokens(x->a, raw, x->tokens, x->ntokens);
	memset(v, 0, sizeof(*v));
	if (raw == NULL || raw[0] == '\0' || strcmp(raw, "NULL") == 0) {
		v->kind = LV_NULL;
		return 0;
	}
	in = json_object_new_string(raw);
	r = lead_value_parse(*f, in, x->a, v);
	json_object_put(in);
	if (r == 0)
		return 0;
	res->note = "Change Data Value: the value is not valid for the field";
	res->skipped = true;
	return 1;
}

/*
 * The attributes of the Change Data Value activity of a field that went
 * from old to now (NULL: the value did not change).
 */
static struct json_object *
cdv_attrs(const struct step_ctx *x, const struct campaign_step *st,
    int choice, const char *old, const char *now)
{
	struct json_object *o;

	if ((old == NULL && now == NULL) || (old != NULL && now != NULL &&
	    strcmp(old, now) == 0))
		return NULL;
	o = context_attrs(x, st, choice);
	add_str(o, "New Value", now);
	add_str(o, "Old Value", old);
	add_str(o, "Reason", change_reason(x, "Change Data Value"));
	add_str(o, "Source", FLOW_SOURCE);
	add_str(o, "Campaign", campaign_label(x));
	return o;
}

/* Change Data Value: sets the field, 13 when the value changed. */
static int
step_change_data(const struct step_ctx *x, const struct engine_item *it,
    const struct campaign_step *st, const struct campaign_choice *ch,
    int choice, struct step_result *res)
{
	const struct lead_field *f;
	const char *old, *now;
	struct lead_value v;
	struct json_object *o;
	int r;

	if (cdv_target(x, ch, &f, &v, res) != 0)
		return 0;
	if ((r = repo_engine_field_get(x->db, x->a, f, it->lead_id,
	    &old)) != 0 || (r = repo_engine_field_set(x->db, f, it->lead_id,
	    &v)) != 0 || (r = repo_engine_field_get(x->db, x->a, f,
	    it->lead_id, &now)) != 0)
		return r;
	if ((o = cdv_attrs(x, st, choice, old, now)) == NULL)
		return 0;
	return record(x, it, ACT_CHANGE_DATA_VALUE, f->attr_id,
	    f->display_name, o);
}

/* Change Score: "+n", "-n", "=n" (or "n": add); 22 and 13. */
static int
step_change_score(const struct step_ctx *x, const struct engine_item *it,
    const struct campaign_step *st, const struct campaign_choice *ch,
    int choice, struct step_result *res)
{
	const struct lead_field *f = field_named(x->schema,
	    attr(ch, "Score Name"));
	const char *chg = flowstep_fill_tokens(x->a, attr(ch, "Change"),
	    x->tokens, x->ntokens), *old, *p;
	struct lead_value v;
	struct json_object *o;
	int64_t delta, was = 0, now;
	bool set = false;
	int r;

	if (f == NULL || f->read_only || (f->type != LF_INTEGER &&
	    f->type != LF_SCORE)) {
		res->note = "Change Score: the score names no integer field";
		return 0;
	}
	p = chg != NULL ? chg : "";
	while (*p == ' ')
		p++;
	if (*p == '=') {
		set = true;
		p++;
	} else if (*p == '+')
		p++;
	if (num_parse_i64(p, -1000000000, 1000000000, &delta) != 0) {
		res->note = "Change Score: the change is not a number";
		return 0;
	}
	if ((r = repo_engine_field_get(x->db, x->a, f, it->lead_id,
	    &old)) != 0)
		return r;
	if (old != NULL && num_parse_i64(old, INT32_MIN, INT32_MAX,
	    &was) != 0)
		was = 0;
	now = set ? delta : was + delta;
	if (now > INT32_MAX || now < INT32_MIN) {
		res->note = "Change Score: the score would overflow";
		return 0;
	}
	memset(&v, 0, sizeof(v));
	v.kind = LV_INT;
	v.i = now;
	if ((r = repo_engine_field_set(x->db, f, it->lead_id, &v)) != 0)
		return r;
	o = context_attrs(x, st, choice);
	add_str(o, "Change Value", chg);
	json_object_object_add(o, "Old Value", json_object_new_int64(was));
	json_object_object_add(o, "New Value", json_object_new_int64(now));
	add_str(o, "Reason", change_reason(x, "Change Score"));
	if ((r = record(x, it, ACT_CHANGE_SCORE, f->attr_id, f->display_name,
	    o)) != 0)
		return r;
	o = context_attrs(x, st, choice);
	add_str(o, "New Value", arena_printf(x->a, "%lld", (long long)now));
	add_str(o, "Old Value", old);
	add_str(o, "Reason", change_reason(x, "Change Score"));
	add_str(o, "Source", FLOW_SOURCE);
	return record(x, it, ACT_CHANGE_DATA_VALUE, f->attr_id,
	    f->display_name, o);
}

/* An asset a flow value names: its id as kept, or looked up by name. */
static int
list_named(const struct step_ctx *x, const char *v, int32_t *id)
{
	int64_t n;

	*id = 0;
	if (v == NULL)
		return 0;
	if (num_parse_i64(v, 1, INT32_MAX, &n) == 0) {
		*id = (int32_t)n;
		return 0;
	}
	return repo_lists_get_id_by_name(x->db, v, id) == 0 ? 0 : 0;
}

/* Add to List / Remove from List: 24 or 25 when membership changed. */
static int
step_list(const struct step_ctx *x, const struct engine_item *it,
    const struct campaign_step *st, const struct campaign_choice *ch,
    int choice, bool add, struct step_result *res)
{
	const char *name;
	struct json_object *o;
	int32_t list = 0;
	bool changed;
	int r;

	if ((r = list_named(x, attr(ch, "List"), &list)) != 0)
		return r;
	if (list == 0 || (r = repo_engine_list_name(x->db, x->a, list,
	    &name)) == -REPO_ERR_NOT_FOUND) {
		res->note = "List step: the list does not exist";
		return 0;
	}
	if (r != 0 || (r = repo_engine_list_member(x->db, list, it->lead_id,
	    add, &changed)) != 0)
		return r == -REPO_ERR_GONE ? 0 : r;
	if (!changed)
		return 0;
	o = context_attrs(x, st, choice);
	add_str(o, "Source", FLOW_SOURCE);
	json_object_object_add(o, "List ID", json_object_new_int(list));
	add_str(o, "Campaign", campaign_label(x));
	return record(x, it, add ? ACT_ADD_TO_LIST : ACT_REMOVE_FROM_LIST,
	    list, name, o);
}

/* Interesting Moment: 46 with its type and description (tokens filled). */
static int
step_moment(const struct step_ctx *x, const struct engine_item *it,
    const struct campaign_step *st, const struct campaign_choice *ch,
    int choice)
{
	const char *desc = flowstep_fill_tokens(x->a, attr(ch, "Description"),
	    x->tokens, x->ntokens);
	struct json_object *o = context_attrs(x, st, choice);

	add_str(o, "Type", attr(ch, "Type"));
	add_str(o, "Description", desc);
	add_str(o, "Source", FLOW_SOURCE);
	return record(x, it, ACT_INTERESTING_MOMENT, 0, desc, o);
}

/* Change Program Status: 104 when the member moved forward. */
static int
step_program_status(const struct step_ctx *x, const struct engine_item *it,
    const struct campaign_step *st, const struct campaign_choice *ch,
    int choice, struct step_result *res)
{
	const struct campaign_ref *ref;
	struct engine_status s;
	struct json_object *o;
	const char *pv = attr(ch, "Program"), *status = attr(ch, "New Status");
	int64_t pid = 0;
	int r;

	if (pv != NULL && num_parse_i64(pv, 1, INT32_MAX, &pid) != 0)
		pid = 0;
	if (pv == NULL && x->sc->place.type == FOLDER_T_PROGRAM)
		pid = x->sc->place.id;
	(void)ref;
	if (pid == 0 || status == NULL) {
		res->note = "Change Program Status: no program or status";
		return 0;
	}
	r = repo_engine_program_status(x->db, x->a, (int32_t)pid,
	    it->lead_id, status, &s);
	if (r == -REPO_ERR_NOT_FOUND) {
		res->note = "Change Program Status: the program or status is "
		    "gone";
		return 0;
	}
	if (r != 0 || !s.changed)
		return r;
	o = context_attrs(x, st, choice);
	json_object_object_add(o, "Old Status ID",
	    json_object_new_int64(s.old_step));
	json_object_object_add(o, "New Status ID",
	    json_object_new_int64(s.new_step));
	add_str(o, "Old Status", s.old_name);
	add_str(o, "New Status", s.new_name);
	json_object_object_add(o, "Acquired By",
	    json_object_new_boolean(s.acquired));
	json_object_object_add(o, "Success",
	    json_object_new_boolean(s.success));
	add_str(o, "Reason", change_reason(x, "Change Program Status"));
	return record(x, it, ACT_CHANGE_PROGRAM_STATUS, pid, s.program, o);
}

/* Whether campaign t may be requested by a flow: active, requested by any
 * source or Marketo Flow Action (its Campaign is Requested trigger). */
static bool
requestable(const struct repo_sc *t)
{
	return t->active && t->ntriggers > 0;
}

/* Request Campaign: 47 on the lead, and a run of the requested one. */
static int
step_request(const struct step_ctx *x, const struct engine_item *it,
    const struct campaign_step *st, const struct campaign_choice *ch,
    int choice, struct step_result *res)
{
	struct engine_start s;
	struct repo_sc t;
	struct json_object *o;
	int64_t id = 0, run;
	int r;

	if (num_parse_i64(attr(ch, "Campaign") != NULL ? attr(ch,
	    "Campaign") : "", 1, INT32_MAX, &id) != 0)
		r = repo_sc_get_by_name(x->db, x->a, attr(ch, "Campaign") !=
		    NULL ? attr(ch, "Campaign") : "", &t);
	else
		r = repo_sc_get(x->db, x->a, (int32_t)id, &t);
	if (r == -REPO_ERR_NOT_FOUND || (r == 0 && !requestable(&t))) {
		res->note = "Request Campaign: the campaign is gone or not "
		    "active";
		return 0;
	}
	if (r != 0)
		return r;
	o = context_attrs(x, st, choice);
	add_str(o, "Source", FLOW_SOURCE);
	json_object_object_add(o, "Campaign ID", json_object_new_int(t.id));
	if ((r = record(x, it, ACT_REQUEST_CAMPAIGN, t.id, t.name, o)) != 0)
		return r;
	if (x->run->depth + 1 > ACTIVITY_MAX_DEPTH) {
		res->note = "Request Campaign: the cascade is too deep";
		return 0;
	}
	memset(&s, 0, sizeof(s));
	s.campaign_id = t.id;
	s.kind = RUN_FLOW;
	s.depth = x->run->depth + 1;
	s.now_ms = x->now_ms;
	s.qual = repo_engine_qual(&t);
	if ((r = repo_engine_start_tx(x->db, &s, &it->lead_id, 1, &run,
	    NULL)) == 0)
		res->started_run = true;
	return r;
}

/* Send Email: the message queued for the lead with activity 6. */
static int
step_send_email(const struct step_ctx *x, const struct engine_item *it,
    const struct campaign_step *st, const struct campaign_choice *ch,
    int choice, struct step_result *res)
{
	struct engine_mail_req q;
	const char **names, **values;
	int64_t email;
	size_t i;
	bool dup;
	int r;

	if (num_parse_i64(attr(ch, "Email") != NULL ? attr(ch, "Email") : "",
	    1, INT32_MAX, &email) != 0) {
		res->note = "Send Email: the step names no email";
		return 0;
	}
	names = arena_zalloc(x->a, (x->ntokens + 1) * sizeof(*names));
	values = arena_zalloc(x->a, (x->ntokens + 1) * sizeof(*values));
	if (names == NULL || values == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < x->ntokens; i++) {
		names[i] = arena_printf(x->a, "{{my.%s}}", x->tokens[i].name);
		values[i] = x->tokens[i].value;
	}
	memset(&q, 0, sizeof(q));
	q.run_id = x->run->id;
	q.lead_id = it->lead_id;
	q.step_id = st->id;
	q.campaign_id = x->sc->id;
	q.choice = choice;
	q.depth = x->run->depth + 1;
	q.email_id = (int32_t)email;
	q.place = &x->sc->place;
	q.tok_names = names;
	q.tok_values = values;
	q.ntok = x->ntokens;
	q.schema = x->schema;
	r = engine_mail_queue(x->db, x->a, x->cfg, &q, &dup);
	if (r == -REPO_ERR_NOT_FOUND || r == -REPO_ERR_INVALID) {
		res->note = "Send Email: the email has no approved version or "
		    "cannot be built";
		return 0;
	}
	return r;
}

/* See steps.h. */
int
engine_step_before(const struct step_ctx *x, const struct engine_item *it)
{
	const struct campaign_step *st;
	struct lead_del d;

	if (it->step_pos < 0 || (size_t)it->step_pos >= x->nsteps)
		return 0;
	st = &x->steps[it->step_pos];
	if (st->type_id != FLOW_DELETE_PERSON)
		return 0;
	memset(&d, 0, sizeof(d));
	d.id = it->lead_id;
	return repo_leads_delete(x->db, &d, 1);
}

/* See steps.h. */
int
engine_step(const struct step_ctx *x, const struct engine_item *it,
    struct step_result *res)
{
	const struct campaign_step *st;
	const struct campaign_choice *ch;
	const struct lead_field *idf = lead_schema_find(x->schema, "id");
	const char *v, *idv;
	int64_t ms, at;
	size_t k;
	int choice, r;

	memset(res, 0, sizeof(res[0]));
	res->next_pos = it->step_pos + 1;
	res->state = RUN_LEAD_READY;
	res->due_ms = x->now_ms;
	if (it->step_pos < 0 || (size_t)it->step_pos >= x->nsteps) {
		res->state = RUN_LEAD_DONE;
		res->next_pos = it->step_pos;
		return 0;
	}
	st = &x->steps[it->step_pos];
	/* The lead's row, locked: a lead deleted meanwhile leaves the run. */
	if (idf == NULL)
		return -REPO_ERR_INTERNAL;
	if (st->type_id != FLOW_DELETE_PERSON) {
		r = repo_engine_field_get(x->db, x->a, idf, it->lead_id, &idv);
		if (r == -REPO_ERR_NOT_FOUND) {
			res->state = RUN_LEAD_REMOVED;
			res->next_pos = it->step_pos;
			res->note = "the person was deleted";
			res->skipped = true;
			return 0;
		}
		if (r != 0)
			return r;
	}
	if (st->nchoices == 0)
		return 0;
	if ((r = audience_pick(x->db, x->cats, st, it->lead_id, x->now_ms,
	    &k)) != 0)
		return r;
	ch = &st->choices[k];
	choice = ch->is_default ? 0 : (int)k + 1;
	switch (st->type_id) {
	case FLOW_SEND_EMAIL:
		r = step_send_email(x, it, st, ch, choice, res);
		break;
	case FLOW_CHANGE_DATA_VALUE:
		r = step_change_data(x, it, st, ch, choice, res);
		break;
	case FLOW_CHANGE_SCORE:
		r = step_change_score(x, it, st, ch, choice, res);
		break;
	case FLOW_ADD_TO_LIST:
	case FLOW_REMOVE_FROM_LIST:
		r = step_list(x, it, st, ch, choice,
		    st->type_id == FLOW_ADD_TO_LIST, res);
		break;
	case FLOW_INTERESTING_MOMENT:
		r = step_moment(x, it, st, ch, choice);
		break;
	case FLOW_CHANGE_PROGRAM_STATUS:
		r = step_program_status(x, it, st, ch, choice, res);
		break;
	case FLOW_REQUEST_CAMPAIGN:
		r = step_request(x, it, st, ch, choice, res);
		break;
	case FLOW_DELETE_PERSON:
		/* engine_step_before deleted it; its runs end. */
		res->state = RUN_LEAD_REMOVED;
		res->note = "Delete Person";
		r = repo_engine_remove_lead(x->db, it->lead_id, 0, it->run_id);
		break;
	case FLOW_REMOVE_FROM_FLOW:
		v = attr(ch, "Campaigns");
		r = repo_engine_remove_lead(x->db, it->lead_id,
		    v != NULL && strcmp(v, "All Campaigns") == 0 ? 0 :
		    x->sc->id, it->run_id);
		res->state = RUN_LEAD_REMOVED;
		res->note = "Remove from Flow";
		break;
	case FLOW_WAIT:
		if (flowstep_wait_parse(attr(ch, "Wait Duration"), &ms,
		    &at) != 0) {
			res->note = "Wait: the duration is not valid";
			r = 0;
			break;
		}
		res->due_ms = at != 0 ? at : x->now_ms + ms;
		res->release = true;
		r = 0;
		break;
	default:
		res->state = RUN_LEAD_FAILED;
		res->next_pos = it->step_pos;
		res->note = arena_printf(x->a, "the step type %s is not run "
		    "by mauto", st->type_name != NULL ? st->type_name : "?");
		r = 0;
		break;
	}
	/* A note on a lead that goes on says what the step could not do. */
	if (r == 0 && res->note != NULL &&
	    strcmp(res->state, RUN_LEAD_READY) == 0)
		res->skipped = true;
	return r;
}

/* ---- Many leads at once ------------------------------------------------ */

/* See steps.h. */
bool
engine_step_groups(const struct campaign_step *st)
{
	if (st->nchoices != 1 || !st->choices[0].is_default)
		return false;
	switch (st->type_id) {
	case FLOW_CHANGE_DATA_VALUE:
	case FLOW_ADD_TO_LIST:
	case FLOW_REMOVE_FROM_LIST:
	case FLOW_INTERESTING_MOMENT:
	case FLOW_WAIT:
		return true;
	default:
		return false;
	}
}

/* Adds activity type of lead with attrs (kept in x's arena) to acts. */
static void
group_act(const struct step_ctx *x, struct activity *acts, size_t *k,
    int64_t lead, int type, int64_t primary_id, const char *primary_value,
    const char *attrs)
{
	struct activity *a = &acts[(*k)++];

	memset(a, 0, sizeof(*a));
	a->lead_id = lead;
	a->type = type;
	a->primary_id = primary_id;
	a->primary_value = primary_value;
	a->attributes = attrs;
	a->campaign_id = x->sc->id;
	a->depth = x->run->depth + 1;
}

/* o (consumed) as attribute text in x's arena, or NULL. */
static const char *
group_attrs(const struct step_ctx *x, struct json_object *o)
{
	char *t = repo_activity_attrs(o);
	const char *kept = t != NULL ? arena_strdup(x->a, t) : NULL;

	free(t);
	return kept;
}

/* Change Data Value for leads[0..n), as step_change_data for each. */
static int
group_change_data(const struct step_ctx *x, const struct campaign_step *st,
    const struct campaign_choice *ch, const int64_t *leads, size_t n,
    struct activity *acts, size_t *k, struct step_result *res)
{
	const struct lead_field *f;
	const char **old, **now, *attrs;
	struct lead_value v;
	struct json_object *o;
	size_t i;
	int r;

	if (cdv_target(x, ch, &f, &v, res) != 0)
		return 0;
	old = arena_zalloc(x->a, n * sizeof(*old));
	now = arena_zalloc(x->a, n * sizeof(*now));
	if (old == NULL || now == NULL)
		return -REPO_ERR_INTERNAL;
	if ((r = repo_engine_field_get_many(x->db, x->a, f, leads, n,
	    old)) != 0 || (r = repo_engine_field_set_many(x->db, f, leads, n,
	    &v)) != 0 || (r = repo_engine_field_get_many(x->db, x->a, f,
	    leads, n, now)) != 0)
		return r;
	for (i = 0; i < n; i++) {
		if ((o = cdv_attrs(x, st, 0, old[i], now[i])) == NULL)
			continue;
		if ((attrs = group_attrs(x, o)) == NULL)
			return -REPO_ERR_INTERNAL;
		group_act(x, acts, k, leads[i], ACT_CHANGE_DATA_VALUE,
		    f->attr_id, f->display_name, attrs);
	}
	return 0;
}

/* Add to / Remove from List for leads[0..n), as step_list for each. */
static int
group_list(const struct step_ctx *x, const struct campaign_step *st,
    const struct campaign_choice *ch, bool add, const int64_t *leads,
    size_t n, struct activity *acts, size_t *k, struct step_result *res)
{
	const char *name, *attrs;
	struct json_object *o;
	int32_t list = 0;
	bool *changed;
	size_t i;
	int r;

	if ((r = list_named(x, attr(ch, "List"), &list)) != 0)
		return r;
	if (list == 0 || (r = repo_engine_list_name(x->db, x->a, list,
	    &name)) == -REPO_ERR_NOT_FOUND) {
		res->note = "List step: the list does not exist";
		res->skipped = true;
		return 0;
	}
	if (r != 0)
		return r;
	if ((changed = arena_zalloc(x->a, n * sizeof(*changed))) == NULL)
		return -REPO_ERR_INTERNAL;
	if ((r = repo_engine_list_members(x->db, list, leads, n, add,
	    changed)) != 0)
		return r;
	o = context_attrs(x, st, 0);
	add_str(o, "Source", FLOW_SOURCE);
	json_object_object_add(o, "List ID", json_object_new_int(list));
	add_str(o, "Campaign", campaign_label(x));
	if ((attrs = group_attrs(x, o)) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < n; i++)
		if (changed[i])
			group_act(x, acts, k, leads[i], add ? ACT_ADD_TO_LIST :
			    ACT_REMOVE_FROM_LIST, list, name, attrs);
	return 0;
}

/* See steps.h. */
int
engine_step_group(const struct step_ctx *x, int pos, const int64_t *leads,
    size_t n, struct step_result *res)
{
	const struct campaign_step *st = &x->steps[pos];
	const struct campaign_choice *ch = &st->choices[0];
	struct activity *acts;
	struct json_object *o;
	const char *desc, *attrs;
	int64_t ms, at;
	size_t i, k = 0;
	int r = 0;

	memset(res, 0, sizeof(*res));
	res->next_pos = pos + 1;
	res->state = RUN_LEAD_READY;
	res->due_ms = x->now_ms;
	if ((acts = arena_zalloc(x->a, (n + 1) * sizeof(*acts))) == NULL)
		return -REPO_ERR_INTERNAL;
	switch (st->type_id) {
	case FLOW_CHANGE_DATA_VALUE:
		r = group_change_data(x, st, ch, leads, n, acts, &k, res);
		break;
	case FLOW_ADD_TO_LIST:
	case FLOW_REMOVE_FROM_LIST:
		r = group_list(x, st, ch, st->type_id == FLOW_ADD_TO_LIST,
		    leads, n, acts, &k, res);
		break;
	case FLOW_INTERESTING_MOMENT:
		desc = flowstep_fill_tokens(x->a, attr(ch, "Description"),
		    x->tokens, x->ntokens);
		o = context_attrs(x, st, 0);
		add_str(o, "Type", attr(ch, "Type"));
		add_str(o, "Description", desc);
		add_str(o, "Source", FLOW_SOURCE);
		if ((attrs = group_attrs(x, o)) == NULL)
			return -REPO_ERR_INTERNAL;
		for (i = 0; i < n; i++)
			group_act(x, acts, &k, leads[i],
			    ACT_INTERESTING_MOMENT, 0, desc, attrs);
		break;
	case FLOW_WAIT:
		if (flowstep_wait_parse(attr(ch, "Wait Duration"), &ms,
		    &at) != 0) {
			res->note = "Wait: the duration is not valid";
			res->skipped = true;
			break;
		}
		res->due_ms = at != 0 ? at : x->now_ms + ms;
		res->release = true;
		break;
	default:
		return -REPO_ERR_INVALID;
	}
	if (r == 0 && k > 0)
		r = repo_activity_insert_batch(x->db, acts, k);
	return r;
}
