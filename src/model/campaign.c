/* Smart campaigns' rules that need no database (model/campaign.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/campaign.h"

/* See campaign.h. */
const char *
campaign_type_name(int64_t ntriggers, int64_t nfilters)
{
	if (ntriggers > 0)
		return "trigger";
	return nfilters > 0 ? "batch" : "default";
}

/* See campaign.h. */
const char *
campaign_status_name(bool active, int64_t ntriggers, enum campaign_runs runs)
{
	if (active)
		return "Active";
	if (ntriggers > 0)
		return "Inactive";
	switch (runs) {
	case CAMPAIGN_RUNS_OPEN:
		return "Single Run";
	case CAMPAIGN_RUNS_DONE:
		return "Inactive";
	case CAMPAIGN_RUNS_NONE:
	default:
		return "Never Run";
	}
}

/* See campaign.h. */
bool
campaign_is_choice(const char *choices, const char *value)
{
	size_t len = strlen(value), k;
	const char *p = choices;

	while (p != NULL && *p != '\0') {
		k = strcspn(p, ",");
		if (k == len && strncmp(p, value, len) == 0)
			return true;
		p = p[k] == ',' ? p + k + 1 : NULL;
	}
	return false;
}

/* See campaign.h. */
int
campaign_move(const int32_t *ids, const bool *is_default, size_t n,
    int32_t id, int to, int32_t *out, char *msg, size_t msg_size)
{
	size_t i, k, plain = 0;

	msg[0] = '\0';
	for (i = 0; i < n; i++) {
		if (ids[i] == id && is_default[i]) {
			(void)snprintf(msg, msg_size, "The default choice is "
			    "always the last");
			return -1;
		}
		if (!is_default[i])
			plain++;
	}
	if (to < 0 || (size_t)to >= plain) {
		(void)snprintf(msg, msg_size, "newSeqNumZeroBased must be from "
		    "0 to %ld", (long)plain - 1);
		return -1;
	}
	/* The others keep their order around the moved one. */
	for (i = 0, k = 0; i < n; i++) {
		if (ids[i] == id)
			continue;
		if (k == (size_t)to)
			out[k++] = id;
		out[k++] = ids[i];
	}
	if (k == (size_t)to)
		out[k++] = id;
	return 0;
}

/* ---- Activation -------------------------------------------------------- */

/* See campaign.h. */
const char *
campaign_ref_kind(const char *data_type)
{
	static const char *const kinds[][2] = {
		{ "email", "email" },
		{ "list", "list" },
		{ "program", "program" },
		{ "campaign", "smart campaign" },
	};
	const char *kind = NULL;
	size_t i;

	for (i = 0; data_type != NULL && i < sizeof(kinds) / sizeof(kinds[0]);
	    i++)
		if (strcmp(data_type, kinds[i][0]) == 0)
			kind = kinds[i][1];
	return kind;
}

/* See campaign.h. */
const struct campaign_ref *
campaign_ref_find(const struct campaign_snapshot *s, const char *data_type,
    const char *value)
{
	const struct campaign_ref *found = NULL;
	size_t i;

	for (i = 0; found == NULL && i < s->nrefs; i++)
		if (strcmp(s->refs[i].data_type, data_type) == 0 &&
		    strcmp(s->refs[i].value, value) == 0)
			found = &s->refs[i];
	return found;
}

/* See campaign.h. */
int32_t
campaign_status_program(const struct campaign_snapshot *s,
    const struct campaign_choice *ch)
{
	const struct campaign_ref *ref;
	int32_t prog = 0;
	size_t i;

	for (i = 0; i < ch->nattrs; i++)
		if (strcmp(ch->attrs[i].data_type, "program") == 0 &&
		    ch->attrs[i].value != NULL && (ref = campaign_ref_find(s,
		    "program", ch->attrs[i].value)) != NULL && ref->id != 0)
			prog = ref->id;
	if (prog == 0 && s->place.type == FOLDER_T_PROGRAM)
		prog = (int32_t)s->place.id;
	return prog;
}

/* Whether program prog has a status named name, as s read it. */
static bool
has_status(const struct campaign_snapshot *s, int32_t prog, const char *name)
{
	size_t i;
	bool yes = false;

	for (i = 0; !yes && i < s->nstatuses; i++)
		yes = s->statuses[i].program_id == prog &&
		    strcmp(s->statuses[i].name, name) == 0 &&
		    s->statuses[i].exists;
	return yes;
}

/*
 * The rule attribute k of choice ch breaks, or CAMPAIGN_ACT_OK; out
 * says where (the attribute, the asset word of its data type, the email
 * or program).
 */
static enum campaign_act
check_attr(const struct campaign_snapshot *s, const struct campaign_choice *ch,
    const struct campaign_attr *k, struct campaign_refusal *out)
{
	const struct campaign_ref *ref;
	enum campaign_act why = CAMPAIGN_ACT_OK;

	out->attr = k;
	out->kind = campaign_ref_kind(k->data_type);
	out->ref = 0;
	if (k->value == NULL) {
		if (k->required)
			why = CAMPAIGN_ACT_NO_VALUE;
	} else if (out->kind != NULL) {
		ref = campaign_ref_find(s, k->data_type, k->value);
		if (ref == NULL || ref->id == 0)
			why = CAMPAIGN_ACT_NOT_FOUND;
		else if (strcmp(k->data_type, "email") == 0 && !ref->approved)
			why = CAMPAIGN_ACT_NOT_APPROVED;
		out->ref = ref != NULL ? ref->id : 0;
	} else if (strcmp(k->data_type, "status") == 0) {
		/* The status of the step's program, else the campaign's. */
		if ((out->ref = campaign_status_program(s, ch)) == 0)
			why = CAMPAIGN_ACT_NO_PROGRAM;
		else if (!has_status(s, out->ref, k->value))
			why = CAMPAIGN_ACT_NO_STATUS;
	}
	return why;
}

/* Whether condition cd is primary with no value and an operator that
 * needs one. */
static bool
lacks_value(const struct smartlist_cond *cd)
{
	return cd->primary && (cd->values_json == NULL ||
	    strcmp(cd->values_json, "[]") == 0) &&
	    strstr(cd->op != NULL ? cd->op : "", "empty") == NULL;
}

/* The first rule of the flow of s broken, or CAMPAIGN_ACT_OK; *out. */
static enum campaign_act
check_flow(const struct campaign_snapshot *s, struct campaign_refusal *out)
{
	const struct campaign_choice *ch;
	enum campaign_act why = CAMPAIGN_ACT_OK;
	size_t i, j, k;

	for (i = 0; why == CAMPAIGN_ACT_OK && i < s->nsteps; i++) {
		out->step = &s->steps[i];
		for (j = 0; why == CAMPAIGN_ACT_OK &&
		    j < s->steps[i].nchoices; j++) {
			ch = &s->steps[i].choices[j];
			out->choice = (int)j + 1;
			if (!ch->is_default && ch->cond_kind == NULL)
				why = CAMPAIGN_ACT_NO_CONDITION;
			for (k = 0; why == CAMPAIGN_ACT_OK && k < ch->nattrs;
			    k++)
				why = check_attr(s, ch, &ch->attrs[k], out);
		}
	}
	return why;
}

/* See campaign.h. */
bool
campaign_check_activation(const struct campaign_snapshot *s,
    struct campaign_refusal *out)
{
	size_t i, j;

	memset(out, 0, sizeof(*out));
	if (s->active)
		out->why = CAMPAIGN_ACT_ACTIVE;
	else if (s->ntriggers == 0)
		out->why = CAMPAIGN_ACT_NO_TRIGGER;
	for (i = 0; out->why == CAMPAIGN_ACT_OK && i < s->nrules; i++)
		for (j = 0; out->why == CAMPAIGN_ACT_OK &&
		    j < s->rules[i].nconds; j++)
			if (lacks_value(&s->rules[i].conds[j])) {
				out->rule = &s->rules[i];
				out->rule_index = (int)i + 1;
				out->why = CAMPAIGN_ACT_RULE_VALUE;
			}
	if (out->why == CAMPAIGN_ACT_OK && s->filter_refusal != NULL) {
		out->filter = s->filter_refusal;
		out->why = CAMPAIGN_ACT_FILTER;
	}
	if (out->why == CAMPAIGN_ACT_OK && s->nsteps == 0)
		out->why = CAMPAIGN_ACT_NO_STEP;
	if (out->why == CAMPAIGN_ACT_OK)
		out->why = check_flow(s, out);
	if (out->why == CAMPAIGN_ACT_OK)
		memset(out, 0, sizeof(*out));
	return out->why == CAMPAIGN_ACT_OK;
}
