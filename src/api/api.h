/*
 * Handlers, grouped by file.  A handler reads the typed request, calls
 * its repository and fills struct resp; it returns 0 or a negative
 * api_err and never writes an error body (docs/style.md §4).
 */
#ifndef MAUTO_API_API_H
#define MAUTO_API_API_H

#include "call.h"

/*
 * api_health.c: GET /healthz, served by dispatch before routing.  Always
 * returns 0: the answer is 200 {"status":"ok",...} when the worker's
 * database answers a ping, 503 {"status":"unavailable",...} otherwise.
 */
int	api_health_get(struct call *c, struct resp *r);

/* api_identity.c: GET and POST /identity/oauth/token. */
int	api_identity_token(struct call *c, struct resp *r);

/*
 * api_lead_fields.c: Describe Lead (2), the lead field schema, Describe
 * Program Member (both paths).
 */
int	api_lead_fields_describe(struct call *c, struct resp *r);
int	api_lead_fields_describe2(struct call *c, struct resp *r);
int	api_lead_fields_list(struct call *c, struct resp *r);
int	api_lead_fields_get(struct call *c, struct resp *r);
int	api_lead_fields_create(struct call *c, struct resp *r);
int	api_lead_fields_update(struct call *c, struct resp *r);
int	api_lead_fields_describe_members(struct call *c, struct resp *r);

/*
 * api_lead_membership.c: lead partitions, Change Lead Program Status, the
 * list/program/smart campaign membership of a lead, Associate, Merge.
 */
int	api_lead_membership_partitions_list(struct call *c, struct resp *r);
int	api_lead_membership_partitions_update(struct call *c, struct resp *r);
int	api_lead_membership_program_status(struct call *c, struct resp *r);
/*
 * The three membership reads of a lead (its lists, programs and smart
 * campaigns), the route's variant (enum membership_kind) saying which.
 */
enum membership_kind {
	MEMBERSHIP_LISTS,
	MEMBERSHIP_PROGRAMS,
	MEMBERSHIP_CAMPAIGNS,
};
int	api_lead_membership_read(struct call *c, struct resp *r);
int	api_lead_membership_associate(struct call *c, struct resp *r);
int	api_lead_membership_merge(struct call *c, struct resp *r);

/*
 * api_lists.c: the static lists of the lead database: Get Lists, Get
 * List by Id, and Add to List, Remove from List and Member of List, the
 * route's variant (enum list_members_op) saying which of the three.
 */
enum list_members_op {
	LIST_MEMBERS_ADD,
	LIST_MEMBERS_REMOVE,
	LIST_MEMBERS_ISMEMBER,
};
int	api_lists_browse(struct call *c, struct resp *r);
int	api_lists_get(struct call *c, struct resp *r);
int	api_lists_members(struct call *c, struct resp *r);

/*
 * api_campaigns.c: the campaigns of the lead database (the smart
 * campaigns, read as the older API shows them): Get Campaigns, Get
 * Campaign by Id.
 */
int	api_campaigns_browse(struct call *c, struct resp *r);
int	api_campaigns_get(struct call *c, struct resp *r);

/*
 * api_campaigns_run.c: what starts a campaign's runs (the campaign
 * engine, src/engine/): Request Campaign, Schedule Campaign.
 */
int	api_campaigns_request(struct call *c, struct resp *r);
int	api_campaigns_schedule(struct call *c, struct resp *r);

/*
 * api_static_lists.c: static lists as assets: browse, by id, by name,
 * create, update, delete.
 */
int	api_static_lists_browse(struct call *c, struct resp *r);
int	api_static_lists_get(struct call *c, struct resp *r);
int	api_static_lists_get_by_name(struct call *c, struct resp *r);
int	api_static_lists_create(struct call *c, struct resp *r);
int	api_static_lists_update(struct call *c, struct resp *r);
int	api_static_lists_delete(struct call *c, struct resp *r);

/*
 * api_leads.c: Get Lead by Id, Get Leads by Filter Type, Get Leads by
 * Program Id, Get Leads by List Id (both paths), Sync Leads, Delete
 * Leads (POST delete.json and DELETE leads.json), Push Lead to Marketo,
 * Submit Form.
 */
int	api_leads_get(struct call *c, struct resp *r);
int	api_leads_list(struct call *c, struct resp *r);
int	api_leads_list_by_program(struct call *c, struct resp *r);
int	api_leads_list_by_list(struct call *c, struct resp *r);
int	api_leads_sync(struct call *c, struct resp *r);
int	api_leads_delete(struct call *c, struct resp *r);
int	api_leads_push(struct call *c, struct resp *r);
int	api_leads_submit_form(struct call *c, struct resp *r);

/*
 * api_lp_templates.c: Landing Page Templates, all 12 operations.
 */
int	api_lp_templates_get(struct call *c, struct resp *r);
int	api_lp_templates_get_by_name(struct call *c, struct resp *r);
int	api_lp_templates_browse(struct call *c, struct resp *r);
int	api_lp_templates_content_get(struct call *c, struct resp *r);
int	api_lp_templates_create(struct call *c, struct resp *r);
int	api_lp_templates_clone(struct call *c, struct resp *r);
int	api_lp_templates_update(struct call *c, struct resp *r);
int	api_lp_templates_content_update(struct call *c, struct resp *r);
/* Approve, unapprove, discard, delete: the route's variant an asset_op. */
int	api_lp_templates_change(struct call *c, struct resp *r);

/*
 * api_smart_lists.c: Smart Lists, all 15 operations.
 */
int	api_smart_lists_get(struct call *c, struct resp *r);
int	api_smart_lists_get_by_name(struct call *c, struct resp *r);
int	api_smart_lists_browse(struct call *c, struct resp *r);
int	api_smart_lists_rule_types(struct call *c, struct resp *r);
int	api_smart_lists_auto_suggest(struct call *c, struct resp *r);
int	api_smart_lists_create(struct call *c, struct resp *r);
int	api_smart_lists_clone(struct call *c, struct resp *r);
int	api_smart_lists_delete(struct call *c, struct resp *r);
int	api_smart_lists_add_rule(struct call *c, struct resp *r);
int	api_smart_lists_delete_rule(struct call *c, struct resp *r);
int	api_smart_lists_delete_all_rules(struct call *c, struct resp *r);
int	api_smart_lists_reorder(struct call *c, struct resp *r);
int	api_smart_lists_filter_logic(struct call *c, struct resp *r);
int	api_smart_lists_update_rule(struct call *c, struct resp *r);
int	api_smart_lists_remove_constraint(struct call *c, struct resp *r);

/*
 * api_smart_campaigns.c: Smart Campaigns, all 21 operations.
 */
int	api_smart_campaigns_get(struct call *c, struct resp *r);
int	api_smart_campaigns_get_by_name(struct call *c, struct resp *r);
int	api_smart_campaigns_browse(struct call *c, struct resp *r);
int	api_smart_campaigns_smart_list(struct call *c, struct resp *r);
int	api_smart_campaigns_rule_types(struct call *c, struct resp *r);
int	api_smart_campaigns_flow_step_types(struct call *c, struct resp *r);
int	api_smart_campaigns_flow_steps(struct call *c, struct resp *r);
int	api_smart_campaigns_auto_suggest(struct call *c, struct resp *r);
int	api_smart_campaigns_used_by(struct call *c, struct resp *r);
int	api_smart_campaigns_create(struct call *c, struct resp *r);
int	api_smart_campaigns_clone(struct call *c, struct resp *r);
int	api_smart_campaigns_update(struct call *c, struct resp *r);
int	api_smart_campaigns_delete(struct call *c, struct resp *r);
int	api_smart_campaigns_add_step(struct call *c, struct resp *r);
/*
 * Remove Flow Step, Add and Remove Choice: the route's variant a
 * repo_sc_op.
 */
int	api_smart_campaigns_path_change(struct call *c, struct resp *r);
int	api_smart_campaigns_update_choice(struct call *c, struct resp *r);
int	api_smart_campaigns_reorder_choice(struct call *c, struct resp *r);
int	api_smart_campaigns_activate(struct call *c, struct resp *r);
int	api_smart_campaigns_deactivate(struct call *c, struct resp *r);

/*
 * api_emails2.c: Emails (New), the asset v2 operations, over the email
 * store of Emails v1.
 */
int	api_emails2_create(struct call *c, struct resp *r);
int	api_emails2_get(struct call *c, struct resp *r);
int	api_emails2_filter(struct call *c, struct resp *r);
int	api_emails2_update(struct call *c, struct resp *r);
int	api_emails2_state(struct call *c, struct resp *r);
int	api_emails2_clone(struct call *c, struct resp *r);
int	api_emails2_delete(struct call *c, struct resp *r);
int	api_emails2_bulk_get(struct call *c, struct resp *r);
int	api_emails2_bulk_delete(struct call *c, struct resp *r);
int	api_emails2_used_by(struct call *c, struct resp *r);
int	api_emails2_bulk_used_by(struct call *c, struct resp *r);

/*
 * api_emails.c (the email and its versions), api_emails_content.c,
 * api_emails_modules.c, api_emails_full.c: Emails v1.
 */
int	api_emails_get(struct call *c, struct resp *r);
int	api_emails_get_by_name(struct call *c, struct resp *r);
int	api_emails_browse(struct call *c, struct resp *r);
int	api_emails_create(struct call *c, struct resp *r);
int	api_emails_clone(struct call *c, struct resp *r);
int	api_emails_update(struct call *c, struct resp *r);
/* Approve, unapprove, discard, delete: the route's variant an asset_op. */
int	api_emails_change(struct call *c, struct resp *r);
int	api_emails_content_get(struct call *c, struct resp *r);
int	api_emails_content_update(struct call *c, struct resp *r);
int	api_emails_section_update(struct call *c, struct resp *r);
int	api_emails_variables_get(struct call *c, struct resp *r);
int	api_emails_variable_update(struct call *c, struct resp *r);
int	api_emails_cc_fields(struct call *c, struct resp *r);
int	api_emails_module_add(struct call *c, struct resp *r);
int	api_emails_module_delete(struct call *c, struct resp *r);
int	api_emails_module_duplicate(struct call *c, struct resp *r);
int	api_emails_module_rename(struct call *c, struct resp *r);
int	api_emails_module_rearrange(struct call *c, struct resp *r);
int	api_emails_dynamic_get(struct call *c, struct resp *r);
int	api_emails_dynamic_update(struct call *c, struct resp *r);
int	api_emails_full_get(struct call *c, struct resp *r);
int	api_emails_full_update(struct call *c, struct resp *r);
int	api_emails_send_sample(struct call *c, struct resp *r);

/*
 * api_bulk_export.c: Bulk Export Custom Objects (create, enqueue, status,
 * cancel, file, the job list); the jobs run in src/export/runner.c.
 */
int	api_bulk_export_create(struct call *c, struct resp *r);
int	api_bulk_export_enqueue(struct call *c, struct resp *r);
int	api_bulk_export_status(struct call *c, struct resp *r);
int	api_bulk_export_cancel(struct call *c, struct resp *r);
int	api_bulk_export_file(struct call *c, struct resp *r);
int	api_bulk_export_list(struct call *c, struct resp *r);

/*
 * api_custom_objects.c: Custom Objects (docs/behaviour.md §6): the type
 * metadata API (schema...) and the records API.
 */
int	api_co_types_list(struct call *c, struct resp *r);
int	api_co_types_sync(struct call *c, struct resp *r);
int	api_co_types_data_types(struct call *c, struct resp *r);
int	api_co_types_linkable(struct call *c, struct resp *r);
int	api_co_types_add_fields(struct call *c, struct resp *r);
int	api_co_types_approve(struct call *c, struct resp *r);
int	api_co_types_delete(struct call *c, struct resp *r);
int	api_co_types_delete_fields(struct call *c, struct resp *r);
int	api_co_types_dependents(struct call *c, struct resp *r);
int	api_co_types_describe(struct call *c, struct resp *r);
int	api_co_types_discard(struct call *c, struct resp *r);
int	api_co_types_update_field(struct call *c, struct resp *r);
int	api_co_records_list(struct call *c, struct resp *r);
int	api_co_records_describe(struct call *c, struct resp *r);
int	api_co_records_get(struct call *c, struct resp *r);
int	api_co_records_sync(struct call *c, struct resp *r);
int	api_co_records_delete(struct call *c, struct resp *r);

/* api_activities.c: Activities (docs/behaviour.md §17). */
int	api_activities_types(struct call *c, struct resp *r);
int	api_activities_paging_token(struct call *c, struct resp *r);
/*
 * Get Lead Activities, Get Lead Changes and Get Deleted Leads, the
 * route's variant (enum activities_read) saying which.
 */
enum activities_read {
	ACTIVITIES_READ_LIST,
	ACTIVITIES_READ_CHANGES,
	ACTIVITIES_READ_DELETED,
};
int	api_activities_read(struct call *c, struct resp *r);

/*
 * api_stats.c: Get Daily Usage, Get Weekly Usage, Get Daily Errors and
 * Get Weekly Errors (docs/behaviour.md §18), the route's variant (enum
 * stats_read) saying which.
 */
enum stats_read {
	STATS_READ_USAGE,
	STATS_READ_USAGE_WEEK,
	STATS_READ_ERRORS,
	STATS_READ_ERRORS_WEEK,
};
int	api_stats_get(struct call *c, struct resp *r);

/*
 * api_pending.c: the answer of every registered route whose group is not
 * built yet: code 703, "Not implemented: <operation name> (<operationId>)".
 */
int	api_pending(struct call *c, struct resp *r);

/*
 * api_folders.c: Folders (Get Folders, by id, by name, Get Folder
 * Contents, Create, Update Metadata, Delete).
 */
int	api_folders_browse(struct call *c, struct resp *r);
int	api_folders_get(struct call *c, struct resp *r);
int	api_folders_get_by_name(struct call *c, struct resp *r);
int	api_folders_content(struct call *c, struct resp *r);
int	api_folders_create(struct call *c, struct resp *r);
int	api_folders_update(struct call *c, struct resp *r);
int	api_folders_delete(struct call *c, struct resp *r);

/* api_tokens.c: Tokens of folders and programs (get, create, delete). */
int	api_tokens_get(struct call *c, struct resp *r);
int	api_tokens_create(struct call *c, struct resp *r);
int	api_tokens_delete(struct call *c, struct resp *r);

/*
 * api_programs.c: Programs (Get Programs, by id, by name, by tag, Create,
 * Update Metadata, Clone, Delete; Update and Delete Program Tag; Get
 * Smart List by Program Id).
 */
int	api_programs_browse(struct call *c, struct resp *r);
int	api_programs_smart_list(struct call *c, struct resp *r);
int	api_programs_get(struct call *c, struct resp *r);
int	api_programs_get_by_name(struct call *c, struct resp *r);
int	api_programs_create(struct call *c, struct resp *r);
int	api_programs_update(struct call *c, struct resp *r);
int	api_programs_delete(struct call *c, struct resp *r);
int	api_programs_get_by_tag(struct call *c, struct resp *r);
int	api_programs_clone(struct call *c, struct resp *r);
int	api_programs_tag_update(struct call *c, struct resp *r);
int	api_programs_tag_delete(struct call *c, struct resp *r);
int	api_programs_approve(struct call *c, struct resp *r);
int	api_programs_unapprove(struct call *c, struct resp *r);

/* api_program_catalogue.c: Channels and Tag Types (browse, by name). */
int	api_program_catalogue_channels(struct call *c, struct resp *r);
int	api_program_catalogue_channel_by_name(struct call *c, struct resp *r);
int	api_program_catalogue_tag_types(struct call *c, struct resp *r);
int	api_program_catalogue_tag_type_by_name(struct call *c,
	    struct resp *r);

#endif
