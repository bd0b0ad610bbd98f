/*
 * Emptying an instance of its data, for mautoctl reset: what clients and
 * the demo set made goes, what the instance is made of stays.
 *
 * Deleted, children before parents, in one transaction: the campaign
 * engine's work (runs, the leads in them, qualifications, activity
 * offers; its clock set back to real time), the activity log, tracking cookies, smart campaign, static list and program
 * members, forms and their fields, static lists, asset usage, smart
 * campaigns with their flows, smart lists, emails, landing
 * page templates and their versions, email templates and their dynamic
 * sections, segmentations and their segments, snippets, the tokens of
 * folders and programs (the roots' too), program statuses, programs, the
 * folders made after the migrations (the six roots stay), the records
 * of every custom object type (the rows of each co_rec_<id> table),
 * leads, the partitions made after the migrations (all but Default, id
 * 1), every bulk export job and the outbox.
 *
 * Kept: API clients, roles, access tokens and the auth epoch; the
 * instance row, the hosts' limit counters, the export slots and gate;
 * the lead field catalogue with its custom fields, and the custom object
 * types with their fields.  Custom lead fields and custom object types
 * are schema (a column of lead, a table of its own), set up once like
 * the tables of the migrations: removing them would take DDL that cannot
 * be part of the transaction, and a client that set them up expects them
 * after a reset as it expects the standard fields.  Their data goes with
 * the leads and the records.
 *
 * Ids are not reused: DELETE keeps the tables' AUTO_INCREMENT counters
 * (TRUNCATE would reset them, but it is DDL, ends the transaction and
 * needs the DROP privilege).
 */
#ifndef MAUTO_REPO_REPO_RESET_H
#define MAUTO_REPO_REPO_RESET_H

#include <stddef.h>
#include <stdint.h>

#include "repo/repo_bulk_export.h"

struct db;

/* The tables emptied by name, in the order they are emptied. */
enum repo_reset_table {
	RESET_ACTIVITY_OFFER,
	RESET_CAMPAIGN_RUN_LEAD,
	RESET_CAMPAIGN_RUN,
	RESET_CAMPAIGN_QUALIFICATION,
	RESET_ENGINE_CLOCK,
	RESET_ACTIVITY,
	RESET_LEAD_COOKIE,
	RESET_CAMPAIGN_MEMBER,
	RESET_LIST_MEMBER,
	RESET_PROGRAM_MEMBER,
	RESET_FORM_FIELD,
	RESET_FORM,
	RESET_STATIC_LIST,
	RESET_ASSET_USAGE,
	RESET_SC_CHOICE_ATTR,
	RESET_SC_STEP_CHOICE,
	RESET_SC_FLOW_STEP,
	RESET_SMART_CAMPAIGN,
	RESET_SMART_LIST_CONDITION,
	RESET_SMART_LIST_RULE,
	RESET_SMART_LIST,
	RESET_EMAIL_VERSION,
	RESET_EMAIL,
	RESET_LP_TEMPLATE_VERSION,
	RESET_LP_TEMPLATE,
	RESET_EMAIL_TEMPLATE_DYNAMIC,
	RESET_EMAIL_TEMPLATE,
	RESET_SEGMENT,
	RESET_SEGMENTATION,
	RESET_SNIPPET,
	RESET_FOLDER_TOKEN,
	RESET_PROGRAM_STATUS,
	RESET_PROGRAM,
	RESET_FOLDER,
	RESET_LEAD,
	RESET_LEAD_PARTITION,
	RESET_EXPORT_JOB,
	RESET_OUTBOX,
	RESET__MAX
};

/* What repo_reset_delete_all removed. */
struct repo_reset_result {
	uint64_t		 rows[RESET__MAX];	/* per table */
	uint64_t		 co_rows;	/* custom object records */
	size_t			 co_tables;	/* co_rec_<id> tables emptied */
	struct export_file_ref	*files;		/* the deleted jobs' files */
	size_t			 nfiles;
};

/* The name of table t ("lead", "static_list", ...). */
const char	*repo_reset_table_name(enum repo_reset_table t);

/*
 * Deletes the data listed above in one transaction (re-run whole on a
 * deadlock).  Fills *out (owned by the caller; free with
 * repo_reset_result_free): rows deleted per table and, in files, the
 * export file of every deleted job that had started (its path comes from
 * export_file_path; removing the files is the caller's, after this
 * returns).  Returns 0 or a negative repo_err; nothing is deleted then.
 */
int	repo_reset_delete_all(struct db *db, struct repo_reset_result *out);
void	repo_reset_result_free(struct repo_reset_result *r);

#endif
