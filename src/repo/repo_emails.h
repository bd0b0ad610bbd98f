/*
 * Emails v1 (db/migrations/0013_emails.sql): the only reader and writer
 * of email and email_version.  Every change of versions runs
 * model/asset.c's rules inside the transaction that holds the email's
 * row lock, so concurrent approve, discard and edit calls on one email
 * are serialised.
 */
#ifndef MAUTO_REPO_REPO_EMAILS_H
#define MAUTO_REPO_REPO_EMAILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/asset.h"
#include "model/folder.h"

struct arena;
struct db;

/* Times as the database writes them: "YYYY-MM-DD HH:MM:SS". */
#define REPO_EMAIL_TIME_BYTES	32

/* The longest 709 message of a change, with its terminator. */
#define REPO_EMAIL_MSG_BYTES	256

/*
 * A header of a version (subject, from name, from address, reply-to):
 * its kind ("Text" or "DynamicContent") and value, NULL when not set.
 */
struct repo_email_header {
	const char		*type;
	const char		*value;
};

enum repo_email_hdr {
	EMAIL_HDR_SUBJECT,
	EMAIL_HDR_FROM_NAME,
	EMAIL_HDR_FROM_EMAIL,
	EMAIL_HDR_REPLY_EMAIL,
	EMAIL_HDR__MAX
};

/* One email as one of its versions shows it (strings in the arena). */
struct repo_email {
	int32_t			 id;
	const char		*name;
	const char		*description;	/* NULL when none */
	struct folder_ref	 place;
	const char		*folder_name;
	const char		*workspace;
	int32_t			 template_id;	/* 0: not linked */
	bool			 operational;
	bool			 text_only;
	bool			 publish_to_msi;
	bool			 web_view;
	bool			 auto_copy_to_text;
	const char		*pre_header;	/* NULL when none */
	char			 created_at[REPO_EMAIL_TIME_BYTES];
	char			 updated_at[REPO_EMAIL_TIME_BYTES];
	struct asset_versions	 v;
	enum asset_status	 status;	/* the version shown */
	struct repo_email_header hdr[EMAIL_HDR__MAX];
	bool			 open_tracking_disabled;
	const char		*content;	/* with_content only */
	size_t			 content_len;
};

/*
 * Email id as the version want picks (asset_pick), with that version's
 * content when with_content.  Returns 0, -REPO_ERR_NOT_FOUND (no such
 * email, or no such version) or another negative repo_err.
 */
int	repo_email_get(struct db *db, struct arena *a, int32_t id,
	    enum asset_status want, bool with_content, struct repo_email *out);

/*
 * The email named name exactly (in place when place is not NULL; the
 * lowest id when several places hold one of that name).
 */
int	repo_email_get_by_name(struct db *db, struct arena *a,
	    const char *name, const struct folder_ref *place,
	    enum asset_status want, struct repo_email *out);

/* Browse: one item per version, by id, the approved version first. */
struct repo_email_query {
	const struct folder_ref	*place;		/* NULL: every place */
	enum asset_status	 status;	/* ASSET_ST_ANY: both versions */
	bool			 has_earliest;
	int64_t			 earliest;	/* updated at or after (epoch) */
	bool			 has_latest;
	int64_t			 latest;	/* updated at or before (epoch) */
	int64_t			 offset;
	int			 limit;
};

int	repo_email_browse(struct db *db, struct arena *a,
	    const struct repo_email_query *q, struct repo_email **out,
	    size_t *n);

/* A new email, a draft. */
struct repo_email_new {
	const char		*name;
	const char		*description;	/* NULL: none */
	struct folder_ref	 place;
	int32_t			 template_id;	/* 0: none (a clone's is kept) */
	bool			 operational;
	bool			 text_only;
	bool			 auto_copy_to_text;
	bool			 open_tracking_disabled;
	bool			 web_view;
	const char		*pre_header;	/* NULL: none */
	const char		*hdr[EMAIL_HDR__MAX];	/* Text values or NULL */
	/* The draft's content document (model/email.h); NULL: "". */
	const char		*content;
	int32_t			 clone_of;	/* 0; else its best version is copied */
};

/*
 * Makes an email and records that it uses its template.  Returns 0 and
 * *id, -REPO_ERR_CONFLICT (the place holds an email of that name),
 * -REPO_ERR_NOT_FOUND (clone_of is gone) or another repo_err.
 */
int	repo_email_insert(struct db *db, const struct repo_email_new *e,
	    int32_t *id);

/* The metadata to change; NULL strings and negative flags stay. */
struct repo_email_meta {
	const char		*name;
	const char		*description;
	const char		*pre_header;
	int			 operational;
	int			 publish_to_msi;
	int			 text_only;
	int			 web_view;
	int			 auto_copy_to_text;
	int32_t			 template_id;	/* 0: stays */
};

/* Returns 0, -REPO_ERR_NOT_FOUND, -REPO_ERR_CONFLICT (name taken). */
int	repo_email_update_meta(struct db *db, int32_t id,
	    const struct repo_email_meta *m);

/*
 * Approving runs check on the draft inside the transaction: 0 to go on,
 * or -1 with the reason in msg (REPO_EMAIL_MSG_BYTES).
 */
typedef int (*repo_email_check_fn)(const struct repo_email *draft,
	    char *msg);

/*
 * Applies op (ASSET_APPROVE, ASSET_UNAPPROVE, ASSET_DISCARD,
 * ASSET_DELETE) to email id as model/asset.h says, approving after check
 * passes on the draft.  Returns 0, -REPO_ERR_NOT_FOUND, -REPO_ERR_INVALID
 * with the 709 message in msg (REPO_EMAIL_MSG_BYTES) when a rule or the
 * check refuses, or another repo_err.
 */
int	repo_email_change(struct db *db, int32_t id, enum asset_op op,
	    repo_email_check_fn check, char *msg);

/* What an edit changes in the draft: the headers, open tracking, content. */
struct repo_email_draft {
	struct repo_email_header hdr[EMAIL_HDR__MAX];
	bool			 open_tracking_disabled;
	const char		*content;
	size_t			 content_len;
};

/*
 * Changes *d, the draft as it is, into what it is to be (strings that
 * live until repo_email_edit returns), inside the transaction; 0, or -1
 * with the 709 message in msg (REPO_EMAIL_MSG_BYTES).
 */
typedef int (*repo_email_edit_fn)(void *arg, struct repo_email_draft *d,
	    char *msg);

/*
 * Edits email id's draft with fn: the draft is made first, a copy of
 * the approved version, when the email has none (an edit of an approved
 * email makes the draft beside it).  Returns 0, -REPO_ERR_NOT_FOUND,
 * -REPO_ERR_INVALID with msg set when fn refuses, or another repo_err.
 */
int	repo_email_edit(struct db *db, int32_t id, repo_email_edit_fn fn,
	    void *arg, char *msg);

/*
 * An Update (Emails v2) in one transaction: the metadata m (as
 * repo_email_update_meta), the use of m's template instead of
 * old_template_id (0: none) when m names one, then, when fn is not NULL,
 * the draft edit of repo_email_edit.  Returns what those return.
 */
int	repo_email_update(struct db *db, int32_t id,
	    const struct repo_email_meta *m, int32_t old_template_id,
	    repo_email_edit_fn fn, void *arg, char *msg);

/* One email of repo_email_change_many and what to do to it. */
struct repo_email_step {
	int32_t		 id;
	enum asset_op	 op;	/* ASSET_DELETE or ASSET_DISCARD */
};

/*
 * Applies every step (n of them) as repo_email_change does, all in one
 * transaction: all are done or none.  With force, a deleted email's
 * uses are forgotten first.  On an error *failed is the index of the
 * step that failed (msg set as repo_email_change sets it).
 */
int	repo_email_change_many(struct db *db,
	    const struct repo_email_step *steps, size_t n, bool force,
	    size_t *failed, char *msg);

/*
 * List Emails (v2): one item per version, as List Emails sorts them.
 * sort: 0 name, 1 name descending, 2 created, 3 created descending, 4
 * modified, 5 modified descending, 6 id, 7 id descending (then id and
 * the approved version first).
 */
struct repo_email_filter {
	int32_t			 workspace_id;
	enum asset_status	 status;	/* ASSET_ST_ANY: both */
	enum folder_type	 place_type;	/* with place_ids */
	const char		*place_ids;	/* "12,13", or NULL: any */
	const char		*name;		/* contained, any case; NULL */
	int32_t			 template_id;	/* 0: any */
	bool			 has_created_from, has_created_to;
	bool			 has_modified_from, has_modified_to;
	int64_t			 created_from, created_to;	/* epoch */
	int64_t			 modified_from, modified_to;
	int			 sort;
	int64_t			 offset;
	int			 limit;
};

/*
 * The page of q into *out (n items, in the arena) and the number of
 * items of every page into *total.  Returns 0 or a negative repo_err.
 */
int	repo_email_filter(struct db *db, struct arena *a,
	    const struct repo_email_filter *q, struct repo_email **out,
	    size_t *n, int64_t *total);

/* The number of emails in place (mautoctl folder delete). */
int	repo_email_count_in_place(struct db *db, const struct folder_ref *p,
	    int64_t *n);

/*
 * Inside the caller's transaction (Delete Program): *id is the first
 * email of program program that a flow step of a campaign outside the
 * program sends, 0 when none.  Returns 0 or a negative repo_err.
 */
int	repo_email_program_blocker(struct db *db, int32_t program,
	    int32_t *id);

/*
 * Deletes the emails of program program, approved or not, with their
 * versions and uses, inside the caller's transaction.  0 or a negative
 * repo_err.
 */
int	repo_email_delete_in_program(struct db *db, int32_t program);

/*
 * The emails of program program, by id, into *out (*n) in the arena a
 * (Clone Program).  0 or a negative repo_err.
 */
struct repo_named;
int	repo_email_in_program(struct db *db, struct arena *a,
	    int32_t program, struct repo_named **out, size_t *n);

/*
 * The first email standing in program program (by id) that has an
 * approved version, into *id (0: none), read under a shared lock inside
 * the caller's transaction (Approve Program).  0 or a negative repo_err.
 */
int	repo_email_approved_in_program(struct db *db, int32_t program,
	    int32_t *id);

/*
 * Inside the caller's transaction (Clone Program): a copy of email from,
 * of the same name and settings, in program program, its draft the
 * source's approved version or else its draft (as Clone Email makes
 * it), using what the source uses (repo_usage_copy_user); the copy's id
 * into *id.  Returns 0, -REPO_ERR_NOT_FOUND or
 * another negative repo_err.
 */
int	repo_email_copy_in_tx(struct db *db, int32_t from, int32_t program,
	    int32_t *id);

#endif
