/*
 * Emails v1 (repo_emails.h).  An email row holds the metadata;
 * email_version holds at most a 'draft' and an 'approved' row of what
 * the email says.  Reads join every version of the email with its
 * place's name and workspace and pick the version asked for (one
 * statement, one or two rows).  Every change of versions locks the
 * email row (FOR UPDATE), reads the versions and whether the email is
 * used, and asks model/asset.c whether the change is allowed before it
 * writes, all in one transaction re-run whole on deadlock.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "model/asset.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_emails.h"
#include "repo/repo_folders.h"
#include "repo/repo_programs.h"
#include "repo/repo_usage.h"
#include "repo/repo_versions.h"
#include "util/arena.h"

enum email_stmt {
	EMAIL_STMT_GET,
	EMAIL_STMT_GET_CONTENT,
	EMAIL_STMT_GET_BY_NAME,
	EMAIL_STMT_CONTENT,
	EMAIL_STMT_BROWSE,
	EMAIL_STMT_INSERT,
	EMAIL_STMT_VERSION_NEW,
	EMAIL_STMT_VERSION_COPY,
	EMAIL_STMT_VERSION_DELETE,
	EMAIL_STMT_VERSION_RENAME,
	EMAIL_STMT_LOCK,
	EMAIL_STMT_VERSIONS,
	EMAIL_STMT_TOUCH,
	EMAIL_STMT_META,
	EMAIL_STMT_DELETE,
	EMAIL_STMT_COUNT_PLACE,
	EMAIL_STMT_DRAFT_FROM_APPROVED,
	EMAIL_STMT_DRAFT_PUT,
	EMAIL_STMT_FILTER,
	EMAIL_STMT_FILTER_COUNT,
	EMAIL_STMT_IN_PROGRAM,
	EMAIL_STMT_PROGRAM_USED_OUTSIDE,
	EMAIL_STMT_DELETE_IN_PROGRAM,
	EMAIL_STMT_NAMED_IN_PROGRAM,
	EMAIL_STMT_COPY_ROW,
	EMAIL_STMT_APPROVED_IN_PROGRAM,
	EMAIL_STMT__MAX
};

/*
 * The columns of one email, one version of it, and its place's name and
 * workspace, from EMAIL_FROM.
 */
#define EMAIL_COLS_A \
	"e.id, e.name, e.description, e.place_type, e.place_id, " \
	"e.template_id, e.operational, e.text_only, e.publish_to_msi, " \
	"e.web_view, e.auto_copy_to_text, e.pre_header, e.created_at, " \
	"e.updated_at, COALESCE(f.name, p.name), w.name, "
#define EMAIL_COLS_COUNTS \
	"(SELECT COUNT(*) FROM email_version d WHERE d.email_id = e.id " \
	"AND d.status = 'draft'), " \
	"(SELECT COUNT(*) FROM email_version a WHERE a.email_id = e.id " \
	"AND a.status = 'approved'), "
#define EMAIL_COLS_B \
	"v.status, " \
	"v.subject_type, v.subject, v.from_name_type, v.from_name, " \
	"v.from_email_type, v.from_email, v.reply_email_type, " \
	"v.reply_email, v.open_tracking_disabled"
#define EMAIL_COLS	EMAIL_COLS_A EMAIL_COLS_COUNTS EMAIL_COLS_B
/*
 * By id every version row comes back, so which versions there are is
 * read from the rows, not counted; and the email's own row is read
 * without joins: the place's name and the workspace's come from
 * repo_folders (never renamed, kept per worker), so in place of the two
 * names and the two counts there is the workspace id alone.  Every
 * column costs the server and the client work on every execution.
 */
#define EMAIL_COLS_BY_ID \
	"e.id, e.name, e.description, e.place_type, e.place_id, " \
	"e.template_id, e.operational, e.text_only, e.publish_to_msi, " \
	"e.web_view, e.auto_copy_to_text, e.pre_header, e.created_at, " \
	"e.updated_at, e.workspace_id, " EMAIL_COLS_B
/*
 * No ORDER BY: get_one picks a version by its status, not its place, and
 * MariaDB optimizes a prepared statement again on every execution, where
 * the ordering is work of its own.
 */
#define EMAIL_FROM_BY_ID \
	" FROM email e JOIN email_version v ON v.email_id = e.id "
#define EMAIL_NCOLS	28
#define EMAIL_COL_STATUS	18
#define EMAIL_BY_ID_COL_WORKSPACE	14
#define EMAIL_BY_ID_NCOLS	25
#define EMAIL_BY_ID_COL_STATUS	15
#define EMAIL_FROM \
	" FROM email e JOIN email_version v ON v.email_id = e.id " \
	"JOIN workspace w ON w.id = e.workspace_id " \
	"LEFT JOIN folder f ON e.place_type = 'Folder' AND f.id = e.place_id " \
	"LEFT JOIN program p ON e.place_type = 'Program' AND " \
	"p.id = e.place_id "
/* The version columns after email_id and status. */
#define EMAIL_VCOLS \
	"subject_type, subject, from_name_type, from_name, from_email_type, " \
	"from_email, reply_email_type, reply_email, open_tracking_disabled, " \
	"content"

/*
 * List Emails' conditions.  Parameters: workspace, two statuses, place
 * type (twice), place ids as a comma list (twice), name (twice),
 * template (twice), created from and to, modified from and to (epoch
 * seconds or NULL).
 */
#define FILTER_WHERE \
	"WHERE e.workspace_id = ? AND v.status IN (?, ?) " \
	"AND (? IS NULL OR e.place_type = ?) " \
	"AND (? IS NULL OR FIND_IN_SET(e.place_id, ?) > 0) " \
	"AND (? IS NULL OR LOCATE(LOWER(?), LOWER(e.name)) > 0) " \
	"AND (? IS NULL OR e.template_id = ?) " \
	"AND e.created_at >= COALESCE(DATE_ADD('1970-01-01', " \
	"INTERVAL ? SECOND), '1000-01-01') " \
	"AND e.created_at <= COALESCE(DATE_ADD('1970-01-01', " \
	"INTERVAL ? SECOND), '9999-12-31') " \
	"AND e.updated_at >= COALESCE(DATE_ADD('1970-01-01', " \
	"INTERVAL ? SECOND), '1000-01-01') " \
	"AND e.updated_at <= COALESCE(DATE_ADD('1970-01-01', " \
	"INTERVAL ? SECOND), '9999-12-31') "

static const char *const sql[EMAIL_STMT__MAX] = {
	[EMAIL_STMT_GET] =
	    "SELECT " EMAIL_COLS_BY_ID EMAIL_FROM_BY_ID "WHERE e.id = ?",
	/* The same with each version's content after the columns. */
	[EMAIL_STMT_GET_CONTENT] =
	    "SELECT " EMAIL_COLS_BY_ID ", v.content" EMAIL_FROM_BY_ID
	    "WHERE e.id = ?",
	/* Parameters: name, place type, place type, place id, place id. */
	[EMAIL_STMT_GET_BY_NAME] =
	    "SELECT " EMAIL_COLS EMAIL_FROM "WHERE e.name = ? AND "
	    "(? IS NULL OR e.place_type = ?) AND (? IS NULL OR "
	    "e.place_id = ?) ORDER BY e.id, v.status LIMIT 2",
	[EMAIL_STMT_CONTENT] =
	    "SELECT content FROM email_version WHERE email_id = ? AND "
	    "status = ?",
	/*
	 * Parameters: status, status, place type (twice), place id
	 * (twice), earliest, latest, limit, offset.
	 */
	[EMAIL_STMT_BROWSE] =
	    "SELECT " EMAIL_COLS EMAIL_FROM
	    "WHERE v.status IN (?, ?) AND (? IS NULL OR e.place_type = ?) "
	    "AND (? IS NULL OR e.place_id = ?) "
	    "AND e.updated_at >= COALESCE(DATE_ADD('1970-01-01', "
	    "INTERVAL ? SECOND), '1000-01-01') "
	    "AND e.updated_at <= COALESCE(DATE_ADD('1970-01-01', "
	    "INTERVAL ? SECOND), '9999-12-31') "
	    "ORDER BY e.id, v.status LIMIT ? OFFSET ?",
	/* The place was checked by the caller. */
	[EMAIL_STMT_INSERT] =
	    "INSERT INTO email (name, description, place_type, place_id, "
	    "template_id, operational, text_only, auto_copy_to_text, "
	    "web_view, pre_header, created_at, updated_at) VALUES (?, ?, ?, "
	    "?, ?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	/*
	 * Parameters: email, subject, from name, from email, reply, otd,
	 * content.
	 */
	[EMAIL_STMT_VERSION_NEW] =
	    "INSERT INTO email_version (email_id, status, " EMAIL_VCOLS
	    ", updated_at) VALUES (?, 'draft', 'Text', ?, 'Text', ?, "
	    "'Text', ?, 'Text', ?, ?, ?, UTC_TIMESTAMP())",
	/* A clone's draft: the source's approved version, else its draft. */
	[EMAIL_STMT_VERSION_COPY] =
	    "INSERT INTO email_version (email_id, status, " EMAIL_VCOLS
	    ", updated_at) SELECT ?, 'draft', " EMAIL_VCOLS
	    ", UTC_TIMESTAMP() FROM email_version WHERE email_id = ? "
	    "ORDER BY status = 'approved' DESC LIMIT 1",
	[EMAIL_STMT_VERSION_DELETE] =
	    "DELETE FROM email_version WHERE email_id = ? AND status = ?",
	/* Parameters: new status, email, old status. */
	[EMAIL_STMT_VERSION_RENAME] =
	    "UPDATE email_version SET status = ?, updated_at = "
	    "UTC_TIMESTAMP() WHERE email_id = ? AND status = ?",
	[EMAIL_STMT_LOCK] =
	    "SELECT id FROM email WHERE id = ? FOR UPDATE",
	/*
	 * A locking read: on Galera the email row's lock does not hold back
	 * another node's change of the versions (its touch of the email row
	 * may change nothing, so neither its write set nor its applier meets
	 * our lock).  Locking the version rows makes that change abort us
	 * (1213, run again) instead of leaving this transaction's later
	 * writes to find rows its snapshot still shows.
	 */
	[EMAIL_STMT_VERSIONS] =
	    "SELECT COALESCE(SUM(status = 'draft'), 0), "
	    "COALESCE(SUM(status = 'approved'), 0) FROM email_version "
	    "WHERE email_id = ? FOR UPDATE",
	[EMAIL_STMT_TOUCH] =
	    "UPDATE email SET updated_at = UTC_TIMESTAMP() WHERE id = ?",
	/* NULL leaves a value as it is. */
	[EMAIL_STMT_META] =
	    "UPDATE email SET name = COALESCE(?, name), "
	    "description = COALESCE(?, description), "
	    "pre_header = COALESCE(?, pre_header), "
	    "operational = COALESCE(?, operational), "
	    "publish_to_msi = COALESCE(?, publish_to_msi), "
	    "text_only = COALESCE(?, text_only), "
	    "web_view = COALESCE(?, web_view), "
	    "auto_copy_to_text = COALESCE(?, auto_copy_to_text), "
	    "template_id = COALESCE(?, template_id), "
	    "updated_at = UTC_TIMESTAMP() WHERE id = ?",
	[EMAIL_STMT_DELETE] =
	    "DELETE FROM email WHERE id = ?",
	[EMAIL_STMT_COUNT_PLACE] =
	    "SELECT COUNT(*) FROM email WHERE place_type = ? AND place_id = ?",
	[EMAIL_STMT_DRAFT_FROM_APPROVED] =
	    "INSERT INTO email_version (email_id, status, " EMAIL_VCOLS
	    ", updated_at) SELECT email_id, 'draft', " EMAIL_VCOLS
	    ", UTC_TIMESTAMP() FROM email_version WHERE email_id = ? "
	    "AND status = 'approved'",
	/* Parameters: four (type, value) pairs, otd, content, email. */
	[EMAIL_STMT_DRAFT_PUT] =
	    "UPDATE email_version SET subject_type = ?, subject = ?, "
	    "from_name_type = ?, from_name = ?, from_email_type = ?, "
	    "from_email = ?, reply_email_type = ?, reply_email = ?, "
	    "open_tracking_disabled = ?, content = ?, "
	    "updated_at = UTC_TIMESTAMP() WHERE email_id = ? AND "
	    "status = 'draft'",
	/*
	 * List Emails (v2): FILTER_WHERE's 15 parameters, the sort (seven
	 * times), limit, offset.
	 */
	[EMAIL_STMT_FILTER] =
	    "SELECT " EMAIL_COLS EMAIL_FROM FILTER_WHERE
	    "ORDER BY CASE WHEN ? = 0 THEN e.name END ASC, "
	    "CASE WHEN ? = 1 THEN e.name END DESC, "
	    "CASE WHEN ? = 2 THEN e.created_at END ASC, "
	    "CASE WHEN ? = 3 THEN e.created_at END DESC, "
	    "CASE WHEN ? = 4 THEN e.updated_at END ASC, "
	    "CASE WHEN ? = 5 THEN e.updated_at END DESC, "
	    "CASE WHEN ? = 7 THEN e.id END DESC, e.id, v.status "
	    "LIMIT ? OFFSET ?",
	[EMAIL_STMT_FILTER_COUNT] =
	    "SELECT COUNT(*)" EMAIL_FROM FILTER_WHERE,
	/* The emails of program ?, locked as they are deleted. */
	[EMAIL_STMT_IN_PROGRAM] =
	    "SELECT id FROM email WHERE place_type = 'Program' AND "
	    "place_id = ? ORDER BY id FOR UPDATE",
	/*
	 * The first email of program ? that a flow step (Send Email and
	 * the like) of a campaign standing outside that program (?) sends.
	 */
	[EMAIL_STMT_PROGRAM_USED_OUTSIDE] =
	    "SELECT MIN(e.id) FROM email e JOIN sc_choice_attr a "
	    "ON a.value = e.id JOIN sc_step_choice ch ON ch.id = a.choice_id "
	    "JOIN sc_flow_step s ON s.id = ch.step_id "
	    "JOIN sc_flow_attrib t ON t.flow_type_id = s.flow_type_id "
	    "AND t.id = a.attrib_id JOIN smart_campaign u "
	    "ON u.id = s.campaign_id WHERE e.place_type = 'Program' AND "
	    "e.place_id = ? AND t.data_type = 'email' AND "
	    "NOT (u.program_id <=> ?)",
	[EMAIL_STMT_DELETE_IN_PROGRAM] =
	    "DELETE FROM email WHERE place_type = 'Program' AND place_id = ?",
	[EMAIL_STMT_NAMED_IN_PROGRAM] =
	    "SELECT id, name, description FROM email WHERE "
	    "place_type = 'Program' AND place_id = ? ORDER BY id",
	/* The first email of program ? with an approved version. */
	[EMAIL_STMT_APPROVED_IN_PROGRAM] =
	    "SELECT MIN(e.id) FROM email e WHERE e.place_type = 'Program' "
	    "AND e.place_id = ? AND EXISTS (SELECT 1 FROM email_version v "
	    "WHERE v.email_id = e.id AND v.status = 'approved') "
	    "LOCK IN SHARE MODE",
	/* Parameters: the new place (a program), the source email. */
	[EMAIL_STMT_COPY_ROW] =
	    "INSERT INTO email (name, description, place_type, place_id, "
	    "workspace_id, template_id, operational, text_only, "
	    "publish_to_msi, web_view, auto_copy_to_text, pre_header, "
	    "created_at, updated_at) SELECT name, description, 'Program', ?, "
	    "workspace_id, template_id, operational, text_only, "
	    "publish_to_msi, web_view, auto_copy_to_text, pre_header, "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP() FROM email WHERE id = ?",
};

const struct db_stmt_set repo_emails_sql = {
	.name = "emails",
	.sql = sql,
	.n = EMAIL_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum email_stmt s)
{
	return db_stmt(db, REPO_EMAILS, (int)s);
}

static const char *
str_or(const struct db_text_rows *t, size_t i, size_t col, const char *dflt)
{
	const char *s = db_text_str(t, i, col);

	return s != NULL ? s : dflt;
}

/*
 * Where fill finds the columns of a row: after the email's own 14, the
 * place's and the workspace's names and the two version counts (names;
 * 0 when the row has none), then from status on the version's columns.
 */
struct email_layout {
	size_t	names;
	size_t	status;
	size_t	ncols;		/* the content, when asked, comes next */
};

static const struct email_layout layout_cols = {
	.names = 14, .status = EMAIL_COL_STATUS, .ncols = EMAIL_NCOLS
};
static const struct email_layout layout_by_id = {
	.names = 0, .status = EMAIL_BY_ID_COL_STATUS,
	.ncols = EMAIL_BY_ID_NCOLS
};

static_assert(EMAIL_COL_STATUS + 1 + 2 * EMAIL_HDR__MAX + 1 == EMAIL_NCOLS,
    "EMAIL_COLS: status, the headers, open tracking");
static_assert(EMAIL_BY_ID_COL_STATUS + 1 + 2 * EMAIL_HDR__MAX + 1 ==
    EMAIL_BY_ID_NCOLS, "EMAIL_COLS_BY_ID: status, the headers, open tracking");

/* Row i of t, laid out as l says, into *out. */
static void
fill(const struct db_text_rows *t, size_t i, const struct email_layout *l,
    struct repo_email *out)
{
	const char *status;
	size_t h, hdr = l->status + 1;

	memset(out, 0, sizeof(*out));
	out->id = (int32_t)db_text_i64(t, i, 0);
	out->name = str_or(t, i, 1, "");
	out->description = db_text_str(t, i, 2);
	out->place.type = strcmp(str_or(t, i, 3, ""), "Program") == 0 ?
	    FOLDER_T_PROGRAM : FOLDER_T_FOLDER;
	out->place.id = db_text_i64(t, i, 4);
	out->template_id = (int32_t)db_text_i64(t, i, 5);
	out->operational = db_text_i64(t, i, 6) != 0;
	out->text_only = db_text_i64(t, i, 7) != 0;
	out->publish_to_msi = db_text_i64(t, i, 8) != 0;
	out->web_view = db_text_i64(t, i, 9) != 0;
	out->auto_copy_to_text = db_text_i64(t, i, 10) != 0;
	out->pre_header = db_text_str(t, i, 11);
	db_copy_text(out->created_at, sizeof(out->created_at),
	    db_text_str(t, i, 12), SIZE_MAX);
	db_copy_text(out->updated_at, sizeof(out->updated_at),
	    db_text_str(t, i, 13), SIZE_MAX);
	out->folder_name = "";
	out->workspace = "";
	if (l->names != 0) {
		out->folder_name = str_or(t, i, l->names, "");
		out->workspace = str_or(t, i, l->names + 1, "");
		out->v.has_draft = db_text_i64(t, i, l->names + 2) != 0;
		out->v.has_approved = db_text_i64(t, i, l->names + 3) != 0;
	}
	status = str_or(t, i, l->status, "");
	out->status = strcmp(status, "approved") == 0 ? ASSET_ST_APPROVED :
	    ASSET_ST_DRAFT;
	for (h = 0; h < EMAIL_HDR__MAX; h++) {
		out->hdr[h].type = str_or(t, i, hdr + 2 * h, "Text");
		out->hdr[h].value = db_text_str(t, i, hdr + 2 * h + 1);
	}
	out->open_tracking_disabled = db_text_i64(t, i,
	    hdr + 2 * EMAIL_HDR__MAX) != 0;
}

/* Every row of t into *out (n of them, in the arena a); 0 or an error. */
static int
fill_all(struct arena *a, const struct db_text_rows *t, struct repo_email **out,
    size_t *n)
{
	struct repo_email *items;
	size_t i;

	if (t->count == 0)
		return 0;
	if ((items = arena_zalloc(a, t->count * sizeof(*items))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t->count; i++)
		fill(t, i, &layout_cols, &items[i]);
	*out = items;
	*n = t->count;
	return 0;
}

/* The content of version st of email id into the arena. */
static int
content_of(struct db *db, struct arena *a, int32_t id, enum asset_status st,
    struct repo_email *out)
{
	MYSQL_BIND in[2];
	struct db_text_rows t;
	const char *word = asset_status_name(st);
	unsigned long len = strlen(word);
	int r;

	bind_i32(&in[0], &id);
	bind_str(&in[1], word, &len);
	if ((r = db_exec(db, stmt(db, EMAIL_STMT_CONTENT), in,
	    "repo_email_get")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, EMAIL_STMT_CONTENT), a, 1, 1,
	    "repo_email_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	out->content = str_or(&t, 0, 0, "");
	out->content_len = t.len[0];
	return 0;
}

/*
 * The version want picks among the rows of the executed statement s
 * (one email's versions, in any order), into *out.
 */
static int
get_one(struct db *db, struct arena *a, enum email_stmt s, MYSQL_BIND *in,
    enum asset_status want, bool with_content, struct repo_email *out)
{
	const struct email_layout *l;
	struct db_text_rows t;
	struct repo_email first;
	enum asset_status pick;
	bool by_id;
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	if (s == EMAIL_STMT_GET && with_content)
		s = EMAIL_STMT_GET_CONTENT;
	by_id = s == EMAIL_STMT_GET || s == EMAIL_STMT_GET_CONTENT;
	l = by_id ? &layout_by_id : &layout_cols;
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec(db, stmt(db, s), in, "repo_email_get")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, s), a, l->ncols +
	    (s == EMAIL_STMT_GET_CONTENT), 2, "repo_email_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	fill(&t, 0, l, &first);
	for (i = 0; by_id && i < t.count; i++) {
		if (strcmp(str_or(&t, i, l->status, ""), "approved") == 0)
			first.v.has_approved = true;
		else
			first.v.has_draft = true;
	}
	if ((pick = asset_pick(&first.v, want)) == ASSET_ST_ANY)
		return -REPO_ERR_NOT_FOUND;
	for (i = 0; i < t.count; i++) {
		if (i == 0)
			*out = first;	/* row 0, filled once */
		else
			fill(&t, i, l, out);
		if (out->id == first.id && out->status == pick)
			break;
	}
	if (i == t.count)
		return -REPO_ERR_NOT_FOUND;	/* changed between reads */
	if (by_id) {
		out->v = first.v;
		if ((r = repo_folders_place_name(db, a, &out->place,
		    &out->folder_name)) != 0 ||
		    (r = repo_folders_workspace_name(db, a, (int32_t)db_text_i64(
		    &t, i, EMAIL_BY_ID_COL_WORKSPACE), &out->workspace)) != 0)
			return r == -REPO_ERR_NOT_FOUND ? -REPO_ERR_INTERNAL : r;
	}
	if (s == EMAIL_STMT_GET_CONTENT) {
		out->content = str_or(&t, i, l->ncols, "");
		out->content_len = t.len[i * t.ncol + l->ncols];
		return 0;
	}
	if (with_content)
		return content_of(db, a, out->id, out->status, out);
	return 0;
}

/* See repo_emails.h. */
int
repo_email_get(struct db *db, struct arena *a, int32_t id,
    enum asset_status want, bool with_content, struct repo_email *out)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &id);
	return get_one(db, a, EMAIL_STMT_GET, in, want, with_content, out);
}

/* Binds an optional place as (type, type, id, id) from in[0]. */
static void
bind_place(MYSQL_BIND *in, const struct folder_ref *p, const char **word,
    unsigned long *wlen, int32_t *pid)
{
	if (p == NULL) {
		bind_null(&in[0]);
		bind_null(&in[1]);
		bind_null(&in[2]);
		bind_null(&in[3]);
		return;
	}
	*word = folder_type_name(p->type);
	*wlen = strlen(*word);
	*pid = (int32_t)p->id;
	bind_str(&in[0], *word, wlen);
	bind_str(&in[1], *word, wlen);
	bind_i32(&in[2], pid);
	bind_i32(&in[3], pid);
}

/* See repo_emails.h. */
int
repo_email_get_by_name(struct db *db, struct arena *a, const char *name,
    const struct folder_ref *place, enum asset_status want,
    struct repo_email *out)
{
	MYSQL_BIND in[5];
	unsigned long len = strlen(name), wlen = 0;
	const char *word = NULL;
	int32_t pid = 0;

	bind_str(&in[0], name, &len);
	bind_place(&in[1], place, &word, &wlen, &pid);
	return get_one(db, a, EMAIL_STMT_GET_BY_NAME, in, want, false, out);
}

/* See repo_emails.h. */
int
repo_email_browse(struct db *db, struct arena *a,
    const struct repo_email_query *q, struct repo_email **out, size_t *n)
{
	struct db_text_rows t;
	MYSQL_BIND in[10];
	const char *s1 = "draft", *s2 = "approved", *word = NULL;
	unsigned long l1, l2, wlen = 0;
	int32_t pid = 0, limit = q->limit;
	int64_t offset = q->offset, earliest = q->earliest,
	    latest = q->latest;
	int r;

	*out = NULL;
	*n = 0;
	if (q->status != ASSET_ST_ANY)
		s1 = s2 = asset_status_name(q->status);
	l1 = strlen(s1);
	l2 = strlen(s2);
	bind_str(&in[0], s1, &l1);
	bind_str(&in[1], s2, &l2);
	bind_place(&in[2], q->place, &word, &wlen, &pid);
	if (q->has_earliest)
		bind_i64(&in[6], &earliest);
	else
		bind_null(&in[6]);
	if (q->has_latest)
		bind_i64(&in[7], &latest);
	else
		bind_null(&in[7]);
	bind_i32(&in[8], &limit);
	bind_i64(&in[9], &offset);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec(db, stmt(db, EMAIL_STMT_BROWSE), in,
	    "repo_email_browse")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, EMAIL_STMT_BROWSE), a,
	    EMAIL_NCOLS, (size_t)limit, "repo_email_browse", &t)) != 0)
		return r;
	return fill_all(a, &t, out, n);
}

struct email_insert {
	const struct repo_email_new	*e;
	struct arena			*a;
	int32_t				 id;
};

/* A clone's template: the source's (0 when it has none). */
static int
template_of(struct db *db, struct arena *a, int32_t id, int32_t *tpl)
{
	struct repo_email src;
	MYSQL_BIND in[1];
	int r;

	bind_i32(&in[0], &id);
	if ((r = get_one(db, a, EMAIL_STMT_GET, in, ASSET_ST_ANY, false,
	    &src)) != 0)
		return r;
	*tpl = src.template_id;
	return 0;
}

static int
email_insert_tx(struct db *db, void *arg)
{
	struct email_insert *x = arg;
	const struct repo_email_new *e = x->e;
	MYSQL_BIND in[10];
	const char *ptype = folder_type_name(e->place.type);
	unsigned long nlen = strlen(e->name), dlen = 0, plen = strlen(ptype);
	unsigned long hlen[EMAIL_HDR__MAX], phlen = 0, clen = 0;
	int32_t pid = (int32_t)e->place.id, tpl = e->template_id;
	int32_t op = e->operational, to = e->text_only,
	    ac = e->auto_copy_to_text, otd = e->open_tracking_disabled,
	    wv = e->web_view;
	uint64_t rows;
	size_t h;
	int r;

	/* A program has no key to hold an email: its row lock is taken, so
	 * that a program's delete waits or is waited for. */
	if (e->place.type == FOLDER_T_PROGRAM &&
	    (r = repo_programs_lock(db, pid)) != 0)
		return r;
	if (e->clone_of != 0 &&
	    (r = template_of(db, x->a, e->clone_of, &tpl)) != 0)
		return r;
	bind_str(&in[0], e->name, &nlen);
	if (e->description != NULL) {
		dlen = strlen(e->description);
		bind_str(&in[1], e->description, &dlen);
	} else
		bind_null(&in[1]);
	bind_str(&in[2], ptype, &plen);
	bind_i32(&in[3], &pid);
	if (tpl != 0)
		bind_i32(&in[4], &tpl);
	else
		bind_null(&in[4]);
	bind_i32(&in[5], &op);
	bind_i32(&in[6], &to);
	bind_i32(&in[7], &ac);
	bind_i32(&in[8], &wv);
	if (e->pre_header != NULL) {
		phlen = strlen(e->pre_header);
		bind_str(&in[9], e->pre_header, &phlen);
	} else
		bind_null(&in[9]);
	if ((r = db_exec(db, stmt(db, EMAIL_STMT_INSERT), in,
	    "repo_email_insert")) != 0)
		return r;
	x->id = (int32_t)mysql_stmt_insert_id(stmt(db, EMAIL_STMT_INSERT));
	if (e->clone_of != 0) {
		bind_i32(&in[0], &x->id);
		bind_i32(&in[1], &e->clone_of);
		if ((r = db_exec_n(db, stmt(db, EMAIL_STMT_VERSION_COPY), in,
		    &rows, "repo_email_insert")) != 0)
			return r;
		if (rows == 0)
			return -REPO_ERR_NOT_FOUND;
	} else {
		bind_i32(&in[0], &x->id);
		for (h = 0; h < EMAIL_HDR__MAX; h++) {
			if (e->hdr[h] == NULL) {
				bind_null(&in[1 + h]);
				continue;
			}
			hlen[h] = strlen(e->hdr[h]);
			bind_str(&in[1 + h], e->hdr[h], &hlen[h]);
		}
		bind_i32(&in[5], &otd);
		clen = e->content != NULL ? strlen(e->content) : 0;
		bind_str(&in[6], e->content != NULL ? e->content : "", &clen);
		if ((r = db_exec(db, stmt(db, EMAIL_STMT_VERSION_NEW), in,
		    "repo_email_insert")) != 0)
			return r;
	}
	if (tpl == 0)
		return 0;
	return repo_usage_add(db, USAGE_EMAIL_TEMPLATE, tpl, USAGE_EMAIL,
	    x->id);
}

/* See repo_emails.h. */
int
repo_email_insert(struct db *db, const struct repo_email_new *e, int32_t *id)
{
	struct arena a;
	struct email_insert x = { .e = e, .a = &a, .id = 0 };
	int r;

	*id = 0;
	arena_init(&a);
	if ((r = db_run_tx(db, email_insert_tx, &x, false)) == 0)
		*id = x.id;
	arena_clear(&a);
	return r;
}

/* Binds an optional string (NULL: SQL NULL). */
static void
bind_opt_str(MYSQL_BIND *b, const char *s, unsigned long *len)
{
	if (s == NULL) {
		bind_null(b);
		return;
	}
	*len = strlen(s);
	bind_str(b, s, len);
}

/* Binds an optional flag (negative: SQL NULL). */
static void
bind_opt_flag(MYSQL_BIND *b, const int32_t *v)
{
	if (*v < 0)
		bind_null(b);
	else
		bind_i32(b, v);
}

/* The metadata statement of repo_email_update_meta, on db as it is. */
static int
meta_exec(struct db *db, int32_t id, const struct repo_email_meta *m)
{
	MYSQL_BIND in[10];
	unsigned long len[3] = { 0, 0, 0 };
	int32_t flags[5] = { m->operational, m->publish_to_msi, m->text_only,
	    m->web_view, m->auto_copy_to_text }, tpl = m->template_id;
	uint64_t rows;
	size_t k;
	int r;

	bind_opt_str(&in[0], m->name, &len[0]);
	bind_opt_str(&in[1], m->description, &len[1]);
	bind_opt_str(&in[2], m->pre_header, &len[2]);
	for (k = 0; k < 5; k++)
		bind_opt_flag(&in[3 + k], &flags[k]);
	if (tpl > 0)
		bind_i32(&in[8], &tpl);
	else
		bind_null(&in[8]);
	bind_i32(&in[9], &id);
	if ((r = db_exec_n(db, stmt(db, EMAIL_STMT_META), in, &rows,
	    "repo_email_update_meta")) != 0)
		return r;
	return rows == 0 ? -REPO_ERR_NOT_FOUND : 0;
}

/* See repo_emails.h. */
int
repo_email_update_meta(struct db *db, int32_t id,
    const struct repo_email_meta *m)
{
	int r;

	return (r = db_ensure(db)) != 0 ? r : meta_exec(db, id, m);
}

struct email_change {
	int32_t			 id;
	enum asset_op		 op;
	repo_email_check_fn	 check;		/* ASSET_APPROVE */
	repo_email_edit_fn	 edit;		/* ASSET_EDIT */
	void			*arg;
	char			*msg;
	struct arena		*a;
};

/* The statements repo_versions.c runs on email_version. */
static struct repo_versions_sql
versions_sql(struct db *db)
{
	struct repo_versions_sql v = {
		.versions = stmt(db, EMAIL_STMT_VERSIONS),
		.del = stmt(db, EMAIL_STMT_VERSION_DELETE),
		.rename = stmt(db, EMAIL_STMT_VERSION_RENAME),
		.usage_type = USAGE_EMAIL,
		.where = "repo_email_change",
	};

	return v;
}

/* Writes d as email id's draft. */
static int
draft_put(struct db *db, int32_t id, const struct repo_email_draft *d)
{
	MYSQL_BIND in[11];
	unsigned long len[2 * EMAIL_HDR__MAX + 1];
	int32_t otd = d->open_tracking_disabled;
	size_t h;

	for (h = 0; h < EMAIL_HDR__MAX; h++) {
		bind_opt_str(&in[2 * h], d->hdr[h].type != NULL ?
		    d->hdr[h].type : "Text", &len[2 * h]);
		bind_opt_str(&in[2 * h + 1], d->hdr[h].value, &len[2 * h + 1]);
	}
	bind_i32(&in[8], &otd);
	len[8] = (unsigned long)d->content_len;
	bind_str(&in[9], d->content != NULL ? d->content : "", &len[8]);
	bind_i32(&in[10], &id);
	return db_exec(db, stmt(db, EMAIL_STMT_DRAFT_PUT), in,
	    "repo_email_edit");
}

/*
 * Locks email id's row and checks op against its versions (*before):
 * -REPO_ERR_NOT_FOUND, -REPO_ERR_INVALID with msg, or 0.
 */
static int
lock_check(struct db *db, const struct repo_versions_sql *vs, int32_t id,
    enum asset_op op, struct asset_versions *before, char *msg)
{
	MYSQL_BIND in[1];
	int64_t locked = 0;
	int r;

	msg[0] = '\0';
	bind_i32(&in[0], &id);
	if ((r = db_query_i64(db, stmt(db, EMAIL_STMT_LOCK), in, &locked,
	    vs->where)) != 0)
		return r;
	if (locked == 0)
		return -REPO_ERR_NOT_FOUND;
	return repo_versions_check(db, vs, id, op, before, msg,
	    REPO_EMAIL_MSG_BYTES);
}

/*
 * ASSET_EDIT of x->id (locked, checked; before is what it had): the
 * draft, made from the approved version when missing, through x->edit.
 */
static int
edit_draft(struct db *db, struct email_change *x, MYSQL_BIND *in,
    const struct asset_versions *before)
{
	struct repo_email draft;
	struct repo_email_draft d;
	size_t h;
	int r;

	if (!before->has_draft && (r = db_exec(db,
	    stmt(db, EMAIL_STMT_DRAFT_FROM_APPROVED), in,
	    "repo_email_edit")) != 0)
		return r;
	if ((r = get_one(db, x->a, EMAIL_STMT_GET, in, ASSET_ST_DRAFT, true,
	    &draft)) != 0)
		return r;
	memset(&d, 0, sizeof(d));
	for (h = 0; h < EMAIL_HDR__MAX; h++)
		d.hdr[h] = draft.hdr[h];
	d.open_tracking_disabled = draft.open_tracking_disabled;
	d.content = draft.content;
	d.content_len = draft.content_len;
	if (x->edit(x->arg, &d, x->msg) != 0)
		return -REPO_ERR_INVALID;
	return draft_put(db, x->id, &d);
}

static int
email_change_tx(struct db *db, void *arg)
{
	struct email_change *x = arg;
	struct repo_versions_sql vs = versions_sql(db);
	struct asset_versions before;
	struct repo_email draft;
	MYSQL_BIND in[1];
	int r;

	bind_i32(&in[0], &x->id);
	if ((r = lock_check(db, &vs, x->id, x->op, &before, x->msg)) != 0)
		return r;
	switch (x->op) {
	case ASSET_EDIT:
		r = edit_draft(db, x, in, &before);
		break;
	case ASSET_APPROVE:
		if ((r = get_one(db, x->a, EMAIL_STMT_GET, in, ASSET_ST_DRAFT,
		    false, &draft)) != 0)
			return r;
		if (x->check != NULL && x->check(&draft, x->msg) != 0)
			return -REPO_ERR_INVALID;
		r = repo_versions_write(db, &vs, x->id, x->op, &before);
		break;
	case ASSET_DELETE:
		if ((r = repo_usage_forget(db, USAGE_EMAIL, x->id)) != 0)
			return r;
		return db_exec(db, stmt(db, EMAIL_STMT_DELETE), in,
		    "repo_email_change");
	default:
		r = repo_versions_write(db, &vs, x->id, x->op, &before);
		break;
	}
	if (r != 0)
		return r;
	return db_exec(db, stmt(db, EMAIL_STMT_TOUCH), in,
	    "repo_email_change");
}

/* Runs fn(db, arg) in one transaction, *slot an arena for its time. */
static int
run_tx_arena(struct db *db, int (*fn)(struct db *, void *), void *arg,
    struct arena **slot)
{
	struct arena a;
	int r;

	arena_init(&a);
	*slot = &a;
	r = db_run_tx(db, fn, arg, false);
	arena_clear(&a);
	*slot = NULL;
	return r;
}

/* Runs op on email id in one transaction (repo_email_change, _edit). */
static int
run_change(struct db *db, struct email_change *x)
{
	x->msg[0] = '\0';
	return run_tx_arena(db, email_change_tx, x, &x->a);
}

/* See repo_emails.h. */
int
repo_email_change(struct db *db, int32_t id, enum asset_op op,
    repo_email_check_fn check, char *msg)
{
	struct email_change x = { id, op, check, NULL, NULL, msg, NULL };

	return run_change(db, &x);
}

/* See repo_emails.h. */
int
repo_email_edit(struct db *db, int32_t id, repo_email_edit_fn fn, void *arg,
    char *msg)
{
	struct email_change x = { id, ASSET_EDIT, NULL, fn, arg, msg, NULL };

	return run_change(db, &x);
}

/* An Update (v2): metadata, the template's use, then the draft. */
struct email_update {
	const struct repo_email_meta	*m;
	int32_t				 old_template_id;
	struct email_change		 x;	/* x.edit NULL: no draft edit */
};

static int
email_update_tx(struct db *db, void *arg)
{
	struct email_update *u = arg;
	int32_t tpl = u->m->template_id, id = u->x.id;
	int r;

	if ((r = meta_exec(db, id, u->m)) != 0)
		return r;
	/* The email uses its new template, no longer its old one. */
	if (tpl > 0 && ((r = repo_usage_add(db, USAGE_EMAIL_TEMPLATE, tpl,
	    USAGE_EMAIL, id)) != 0 || (u->old_template_id > 0 &&
	    u->old_template_id != tpl && (r = repo_usage_drop(db,
	    USAGE_EMAIL_TEMPLATE, u->old_template_id, USAGE_EMAIL, id)) != 0)))
		return r;
	return u->x.edit != NULL ? email_change_tx(db, &u->x) : 0;
}

/* See repo_emails.h. */
int
repo_email_update(struct db *db, int32_t id, const struct repo_email_meta *m,
    int32_t old_template_id, repo_email_edit_fn fn, void *arg, char *msg)
{
	struct email_update u = { m, old_template_id,
	    { id, ASSET_EDIT, NULL, fn, arg, msg, NULL } };

	msg[0] = '\0';
	return run_tx_arena(db, email_update_tx, &u, &u.x.a);
}

/* Deletes or discards every email of steps, in id order, or none. */
struct email_many {
	const struct repo_email_step	*steps;
	size_t				*order;	/* steps by id */
	size_t				 n;
	bool				 force;
	size_t				*failed;
	char				*msg;
	struct arena			*a;
};

static int
email_many_tx(struct db *db, void *arg)
{
	struct email_many *m = arg;
	const struct repo_email_step *st;
	size_t i;
	int r;

	for (i = 0; i < m->n; i++) {
		struct email_change x = { 0, ASSET_DELETE, NULL, NULL, NULL,
		    m->msg, m->a };

		st = &m->steps[m->order[i]];
		*m->failed = m->order[i];
		x.id = st->id;
		x.op = st->op;
		if (m->force && st->op == ASSET_DELETE &&
		    (r = repo_usage_forget(db, USAGE_EMAIL, st->id)) != 0)
			return r;
		if ((r = email_change_tx(db, &x)) != 0)
			return r;
	}
	return 0;
}

/* See repo_emails.h. */
int
repo_email_change_many(struct db *db, const struct repo_email_step *steps,
    size_t n, bool force, size_t *failed, char *msg)
{
	struct email_many m = { steps, NULL, n, force, failed, msg, NULL };
	struct arena a;
	size_t i, j, k;
	int r;

	msg[0] = '\0';
	*failed = 0;
	arena_init(&a);
	/* Rows are locked in id order, so that two of these never wait on
	 * each other. */
	if ((m.order = arena_alloc(&a, (n > 0 ? n : 1) *
	    sizeof(*m.order))) == NULL) {
		arena_clear(&a);
		return -REPO_ERR_INTERNAL;
	}
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && steps[m.order[j - 1]].id > steps[i].id;
		    j--)
			m.order[j] = m.order[j - 1];
		m.order[j] = i;
	}
	/* An id twice is changed once: deleted when either step deletes. */
	for (i = k = 0; i < n; i++)
		if (k == 0 || steps[m.order[i]].id != steps[m.order[k - 1]].id)
			m.order[k++] = m.order[i];
		else if (steps[m.order[i]].op == ASSET_DELETE)
			m.order[k - 1] = m.order[i];
	m.n = k;
	m.a = &a;
	r = db_run_tx(db, email_many_tx, &m, false);
	arena_clear(&a);
	return r;
}

/* See repo_emails.h. */
int
repo_email_count_in_place(struct db *db, const struct folder_ref *p,
    int64_t *n)
{
	MYSQL_BIND in[2];
	const char *word = folder_type_name(p->type);
	unsigned long wlen = strlen(word);
	int32_t pid = (int32_t)p->id;

	bind_str(&in[0], word, &wlen);
	bind_i32(&in[1], &pid);
	return db_query_i64(db, stmt(db, EMAIL_STMT_COUNT_PLACE), in, n,
	    "repo_email_count_in_place");
}

/* See repo_emails.h. */
int
repo_email_program_blocker(struct db *db, int32_t program, int32_t *id)
{
	return repo_program_first_id(db, stmt(db,
	    EMAIL_STMT_PROGRAM_USED_OUTSIDE), program, 2, id,
	    "repo_email_program_blocker");
}

/* See repo_emails.h. */
int
repo_email_in_program(struct db *db, struct arena *a, int32_t program,
    struct repo_named **out, size_t *n)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &program);
	return repo_named_select(db, stmt(db, EMAIL_STMT_NAMED_IN_PROGRAM), in,
	    a, 100000, out, n, "repo_email_in_program");
}

/* See repo_emails.h. */
int
repo_email_approved_in_program(struct db *db, int32_t program, int32_t *id)
{
	return repo_program_first_id(db, stmt(db,
	    EMAIL_STMT_APPROVED_IN_PROGRAM), program, 1, id,
	    "repo_email_approved_in_program");
}

/* See repo_emails.h. */
int
repo_email_copy_in_tx(struct db *db, int32_t from, int32_t program,
    int32_t *id)
{
	MYSQL_BIND in[2];
	uint64_t rows = 0;
	int r;

	*id = 0;
	bind_i32(&in[0], &program);
	bind_i32(&in[1], &from);
	if ((r = db_exec_n(db, stmt(db, EMAIL_STMT_COPY_ROW), in, &rows,
	    "repo_email_copy_in_tx")) != 0)
		return r;
	if (rows == 0)
		return -REPO_ERR_NOT_FOUND;
	*id = (int32_t)mysql_stmt_insert_id(stmt(db, EMAIL_STMT_COPY_ROW));
	bind_i32(&in[0], id);
	bind_i32(&in[1], &from);
	if ((r = db_exec(db, stmt(db, EMAIL_STMT_VERSION_COPY), in,
	    "repo_email_copy_in_tx")) != 0)
		return r;
	return repo_usage_copy_user(db, USAGE_EMAIL, from, *id);
}

/* Forgets the uses of email id and by it (db_each_id). */
static int
forget_uses(struct db *db, int32_t id, void *arg)
{
	(void)arg;
	return repo_usage_forget(db, USAGE_EMAIL, id);
}

/* See repo_emails.h. */
int
repo_email_delete_in_program(struct db *db, int32_t program)
{
	MYSQL_BIND in[1];
	int r;

	bind_i32(&in[0], &program);
	if ((r = db_each_id(db, stmt(db, EMAIL_STMT_IN_PROGRAM), in, 100000,
	    forget_uses, NULL, "repo_email_delete_in_program")) != 0)
		return r;
	return db_exec(db, stmt(db, EMAIL_STMT_DELETE_IN_PROGRAM), in,
	    "repo_email_delete_in_program");
}

/* Binds an optional epoch time (has false: SQL NULL). */
static void
bind_opt_time(MYSQL_BIND *b, bool has, const int64_t *t)
{
	if (has)
		bind_i64(b, t);
	else
		bind_null(b);
}

/* See repo_emails.h. */
int
repo_email_filter(struct db *db, struct arena *a,
    const struct repo_email_filter *q, struct repo_email **out, size_t *n,
    int64_t *total)
{
	struct db_text_rows t;
	MYSQL_BIND in[24];
	const char *s1 = "draft", *s2 = "approved", *ptype = NULL;
	unsigned long l1, l2, plen = 0, idlen = 0, nlen = 0;
	int32_t ws = q->workspace_id, tpl = q->template_id, limit = q->limit;
	int32_t sort = q->sort;
	int64_t offset = q->offset;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	*total = 0;
	if (q->status != ASSET_ST_ANY)
		s1 = s2 = asset_status_name(q->status);
	l1 = strlen(s1);
	l2 = strlen(s2);
	bind_i32(&in[0], &ws);
	bind_str(&in[1], s1, &l1);
	bind_str(&in[2], s2, &l2);
	if (q->place_ids != NULL) {
		ptype = folder_type_name(q->place_type);
		plen = strlen(ptype);
		idlen = strlen(q->place_ids);
		bind_str(&in[3], ptype, &plen);
		bind_str(&in[4], ptype, &plen);
		bind_str(&in[5], q->place_ids, &idlen);
		bind_str(&in[6], q->place_ids, &idlen);
	} else
		for (i = 3; i < 7; i++)
			bind_null(&in[i]);
	if (q->name != NULL) {
		nlen = strlen(q->name);
		bind_str(&in[7], q->name, &nlen);
		bind_str(&in[8], q->name, &nlen);
	} else {
		bind_null(&in[7]);
		bind_null(&in[8]);
	}
	if (tpl > 0) {
		bind_i32(&in[9], &tpl);
		bind_i32(&in[10], &tpl);
	} else {
		bind_null(&in[9]);
		bind_null(&in[10]);
	}
	bind_opt_time(&in[11], q->has_created_from, &q->created_from);
	bind_opt_time(&in[12], q->has_created_to, &q->created_to);
	bind_opt_time(&in[13], q->has_modified_from, &q->modified_from);
	bind_opt_time(&in[14], q->has_modified_to, &q->modified_to);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_query_i64(db, stmt(db, EMAIL_STMT_FILTER_COUNT), in, total,
	    "repo_email_filter")) != 0)
		return r;
	for (i = 15; i < 22; i++)
		bind_i32(&in[i], &sort);
	bind_i32(&in[22], &limit);
	bind_i64(&in[23], &offset);
	if ((r = db_exec(db, stmt(db, EMAIL_STMT_FILTER), in,
	    "repo_email_filter")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, EMAIL_STMT_FILTER), a,
	    EMAIL_NCOLS, (size_t)limit, "repo_email_filter", &t)) != 0)
		return r;
	return fill_all(a, &t, out, n);
}
