/*
 * The emails repository (repo_emails.c) against a real MariaDB: making
 * emails in folders, the versions and their rules, the approval check
 * run inside the transaction, metadata, clones, browse with its bounds,
 * and the usage of the template.  Other integration tests run at the
 * same time on the same database, so every row here is made under names
 * of this run and nothing is deleted wholesale.  Needs MAUTO_TEST_DB_*;
 * without them it exits 77.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "db/pool.h"
#include "err.h"
#include "model/asset.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"
#include "repo/repo_folder_delete.h"
#include "repo/repo_folders.h"
#include "repo/repo_smart_campaigns.h"
#include "repo/repo_usage.h"
#include "util/arena.h"
#include "util/config.h"
#include "itest.h"

static struct config cfg;
static struct db *db;
static struct arena a;
static char tag[16];
static int32_t tpl;

/* A name of this run. */
static const char *
named(const char *what)
{
	return arena_printf(&a, "%s-%s", what, tag);
}

static int
group_setup(void **state)
{
	struct repo_etpl_new nt;

	(void)state;
	if (itest_open(&db, &cfg, &a, tag, sizeof(tag)) != 0)
		return -1;
	memset(&nt, 0, sizeof(nt));
	nt.name = named("etpl");
	nt.folder_id = 3;
	nt.content = "<html><body><div class=\"mktoText\" id=\"intro\" "
	    "mktoName=\"I\">hi</div></body></html>";
	nt.len = strlen(nt.content);
	return repo_etpl_insert(db, &nt, &tpl) == 0 ? 0 : -1;
}

static int
group_teardown(void **state)
{
	(void)state;
	return itest_close(db, &a);
}

/* An email folder of this run under the Emails root. */
static struct folder_ref
email_folder(const char *what)
{
	struct folder_ref ref = { .type = FOLDER_T_FOLDER };
	int32_t id;

	assert_int_equal(repo_folders_insert(db, named(what), NULL,
	    FK_EMAIL, 2, &id), 0);
	ref.id = id;
	return ref;
}

static int32_t
email_new(struct folder_ref place, const char *what, bool headers,
    int32_t clone_of)
{
	struct repo_email_new e;
	int32_t id;

	memset(&e, 0, sizeof(e));
	e.name = named(what);
	e.place = place;
	e.template_id = tpl;
	e.clone_of = clone_of;
	if (headers) {
		e.hdr[EMAIL_HDR_SUBJECT] = "Subject";
		e.hdr[EMAIL_HDR_FROM_NAME] = "Ann";
		e.hdr[EMAIL_HDR_FROM_EMAIL] = "ann@example.com";
		e.hdr[EMAIL_HDR_REPLY_EMAIL] = "reply@example.com";
	}
	assert_int_equal(repo_email_insert(db, &e, &id), 0);
	return id;
}

/* Refuses a draft without a subject. */
static int
check(const struct repo_email *draft, char *msg)
{
	if (draft->hdr[EMAIL_HDR_SUBJECT].value == NULL) {
		(void)snprintf(msg, REPO_EMAIL_MSG_BYTES, "no subject");
		return -1;
	}
	return 0;
}

static int
change(int32_t id, enum asset_op op, char *msg)
{
	return repo_email_change(db, id, op, check, msg);
}

static void
test_versions(void **state)
{
	struct folder_ref place = email_folder("v-folder");
	struct repo_email e;
	char msg[REPO_EMAIL_MSG_BYTES];
	int32_t bare, id;
	int64_t used;

	(void)state;
	bare = email_new(place, "v-bare", false, 0);
	assert_int_equal(change(bare, ASSET_APPROVE, msg), -REPO_ERR_INVALID);
	assert_string_equal(msg, "no subject");
	assert_int_equal(repo_email_get(db, &a, bare, ASSET_ST_APPROVED,
	    false, &e), -REPO_ERR_NOT_FOUND);
	id = email_new(place, "v-full", true, 0);
	assert_int_equal(repo_email_get(db, &a, id, ASSET_ST_ANY, true, &e),
	    0);
	assert_int_equal(e.status, ASSET_ST_DRAFT);
	assert_true(e.v.has_draft && !e.v.has_approved);
	assert_string_equal(e.folder_name, named("v-folder"));
	assert_int_equal(e.place.type, FOLDER_T_FOLDER);
	assert_int_equal(e.place.id, place.id);
	assert_string_equal(e.workspace, "Default");
	assert_int_equal(e.template_id, tpl);
	assert_string_equal(e.hdr[EMAIL_HDR_REPLY_EMAIL].value,
	    "reply@example.com");
	assert_string_equal(e.hdr[EMAIL_HDR_SUBJECT].type, "Text");
	assert_string_equal(e.content, "");
	/* The email uses its template. */
	assert_int_equal(repo_usage_count(db, USAGE_EMAIL_TEMPLATE, tpl,
	    &used), 0);
	assert_true(used >= 2);
	assert_int_equal(change(id, ASSET_DISCARD, msg), -REPO_ERR_INVALID);
	assert_int_equal(change(id, ASSET_APPROVE, msg), 0);
	assert_int_equal(repo_email_get(db, &a, id, ASSET_ST_ANY, false, &e),
	    0);
	assert_int_equal(e.status, ASSET_ST_APPROVED);
	assert_int_equal(change(id, ASSET_APPROVE, msg), -REPO_ERR_INVALID);
	assert_int_equal(change(id, ASSET_DELETE, msg), -REPO_ERR_INVALID);
	/* In use: no unapprove. */
	assert_int_equal(repo_usage_add(db, USAGE_EMAIL, id, "flowStep", 1),
	    0);
	assert_int_equal(change(id, ASSET_UNAPPROVE, msg), -REPO_ERR_INVALID);
	assert_int_equal(repo_usage_forget(db, USAGE_EMAIL, id), 0);
	assert_int_equal(change(id, ASSET_UNAPPROVE, msg), 0);
	assert_int_equal(repo_email_get(db, &a, id, ASSET_ST_ANY, false, &e),
	    0);
	assert_int_equal(e.status, ASSET_ST_DRAFT);
	assert_int_equal(change(id, ASSET_DELETE, msg), 0);
	assert_int_equal(repo_email_get(db, &a, id, ASSET_ST_ANY, false, &e),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(change(id, ASSET_DELETE, msg), -REPO_ERR_NOT_FOUND);
}

static void
test_meta_clone_browse(void **state)
{
	struct folder_ref place = email_folder("b-folder"),
	    other = email_folder("b-other");
	struct repo_email e, *items;
	struct repo_email_query q;
	struct repo_email_meta m = { NULL, NULL, NULL, -1, -1, -1, -1, -1, 0 };
	char msg[REPO_EMAIL_MSG_BYTES];
	int32_t one, two, copy, same;
	int64_t n64;
	size_t n;

	(void)state;
	one = email_new(place, "b-one", true, 0);
	two = email_new(place, "b-two", false, 0);
	assert_int_equal(change(one, ASSET_APPROVE, msg), 0);
	/* A name is unique within its place only. */
	same = email_new(other, "b-one", false, 0);
	assert_true(same != one);
	m.name = named("b-one");
	assert_int_equal(repo_email_update_meta(db, two, &m),
	    -REPO_ERR_CONFLICT);
	m.name = NULL;
	m.pre_header = "pre";
	m.web_view = 1;
	assert_int_equal(repo_email_update_meta(db, two, &m), 0);
	assert_int_equal(repo_email_update_meta(db, 99999999, &m),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_email_get_by_name(db, &a, named("b-two"), NULL,
	    ASSET_ST_ANY, &e), 0);
	assert_int_equal(e.id, two);
	assert_string_equal(e.pre_header, "pre");
	assert_true(e.web_view);
	assert_false(e.operational);
	assert_int_equal(repo_email_get_by_name(db, &a, named("b-one"),
	    &other, ASSET_ST_ANY, &e), 0);
	assert_int_equal(e.id, same);
	assert_int_equal(repo_email_get_by_name(db, &a, named("b-one"), NULL,
	    ASSET_ST_ANY, &e), 0);
	assert_int_equal(e.id, one);
	/* A clone takes the approved version as its draft. */
	copy = email_new(place, "b-copy", false, one);
	assert_int_equal(repo_email_get(db, &a, copy, ASSET_ST_ANY, false,
	    &e), 0);
	assert_int_equal(e.status, ASSET_ST_DRAFT);
	assert_string_equal(e.hdr[EMAIL_HDR_SUBJECT].value, "Subject");
	assert_int_equal(e.template_id, tpl);
	/* Browse the folder: one, two, copy. */
	memset(&q, 0, sizeof(q));
	q.place = &place;
	q.limit = 200;
	assert_int_equal(repo_email_browse(db, &a, &q, &items, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(items[0].id, one);
	assert_int_equal(items[0].status, ASSET_ST_APPROVED);
	assert_int_equal(items[1].id, two);
	assert_int_equal(items[2].id, copy);
	q.status = ASSET_ST_DRAFT;
	q.offset = 1;
	q.limit = 1;
	assert_int_equal(repo_email_browse(db, &a, &q, &items, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(items[0].id, copy);
	q.offset = 0;
	q.limit = 200;
	q.has_latest = true;
	q.latest = 0;
	assert_int_equal(repo_email_browse(db, &a, &q, &items, &n), 0);
	assert_int_equal(n, 0);
	q.has_latest = false;
	q.has_earliest = true;
	q.earliest = (int64_t)time(NULL) - 3600;
	assert_int_equal(repo_email_browse(db, &a, &q, &items, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(repo_email_count_in_place(db, &place, &n64), 0);
	assert_int_equal(n64, 3);
	/* A folder that holds an email is not deleted. */
	assert_int_equal(repo_folder_delete(db, (int32_t)other.id),
	    -REPO_ERR_CONFLICT);
}

/* An edit that sets the subject and the content to what arg says. */
static int
edit_fn(void *arg, struct repo_email_draft *d, char *msg)
{
	const char *content = arg;

	if (strcmp(content, "refuse") == 0) {
		(void)snprintf(msg, REPO_EMAIL_MSG_BYTES, "refused");
		return -1;
	}
	d->hdr[EMAIL_HDR_SUBJECT].type = "Text";
	d->hdr[EMAIL_HDR_SUBJECT].value = "Edited";
	d->content = content;
	d->content_len = strlen(content);
	return 0;
}

static void
test_edit(void **state)
{
	struct folder_ref place = email_folder("e-folder");
	struct repo_email e;
	char msg[REPO_EMAIL_MSG_BYTES];
	int32_t id;

	(void)state;
	id = email_new(place, "e-one", true, 0);
	assert_int_equal(change(id, ASSET_APPROVE, msg), 0);
	/* An edit of an approved email makes the draft beside it. */
	assert_int_equal(repo_email_edit(db, id, edit_fn, (void *)"{}", msg),
	    0);
	assert_int_equal(repo_email_get(db, &a, id, ASSET_ST_DRAFT, true, &e),
	    0);
	assert_true(e.v.has_draft && e.v.has_approved);
	assert_string_equal(e.hdr[EMAIL_HDR_SUBJECT].value, "Edited");
	assert_string_equal(e.hdr[EMAIL_HDR_FROM_NAME].value, "Ann");
	assert_string_equal(e.content, "{}");
	assert_int_equal(repo_email_get(db, &a, id, ASSET_ST_APPROVED, true,
	    &e), 0);
	assert_string_equal(e.hdr[EMAIL_HDR_SUBJECT].value, "Subject");
	assert_string_equal(e.content, "");
	/* A second edit changes the same draft; a refusal changes nothing. */
	assert_int_equal(repo_email_edit(db, id, edit_fn, (void *)"{\"x\":1}",
	    msg), 0);
	assert_int_equal(repo_email_edit(db, id, edit_fn, (void *)"refuse",
	    msg), -REPO_ERR_INVALID);
	assert_string_equal(msg, "refused");
	assert_int_equal(repo_email_get(db, &a, id, ASSET_ST_DRAFT, true, &e),
	    0);
	assert_string_equal(e.content, "{\"x\":1}");
	assert_int_equal(repo_email_edit(db, 99999999, edit_fn, (void *)"{}",
	    msg), -REPO_ERR_NOT_FOUND);
	/* Approving the draft replaces the approved version. */
	assert_int_equal(change(id, ASSET_APPROVE, msg), 0);
	assert_int_equal(repo_email_get(db, &a, id, ASSET_ST_ANY, true, &e),
	    0);
	assert_true(!e.v.has_draft && e.v.has_approved);
	assert_string_equal(e.content, "{\"x\":1}");
}

/*
 * One transaction for a whole Update (v2) and a whole Bulk Delete: a
 * refused edit leaves the metadata as it was; a bulk delete with one
 * refused step deletes nothing; force forgets the uses it deletes.
 */
static void
test_update_and_many(void **state)
{
	struct folder_ref place = email_folder("m-folder");
	struct repo_email_meta m;
	struct repo_email_step steps[4];
	struct repo_email e;
	char msg[REPO_EMAIL_MSG_BYTES];
	int64_t n64;
	int32_t one, two, three;
	size_t failed = 99;

	(void)state;
	one = email_new(place, "m-one", true, 0);
	two = email_new(place, "m-two", true, 0);
	three = email_new(place, "m-three", true, 0);
	memset(&m, 0, sizeof(m));
	m.operational = m.publish_to_msi = m.text_only = m.web_view =
	    m.auto_copy_to_text = -1;
	m.description = "changed";
	assert_int_equal(repo_email_update(db, one, &m, tpl, edit_fn,
	    (void *)"refuse", msg), -REPO_ERR_INVALID);
	assert_string_equal(msg, "refused");
	assert_int_equal(repo_email_get(db, &a, one, ASSET_ST_ANY, false, &e),
	    0);
	assert_null(e.description);
	assert_int_equal(repo_email_update(db, one, &m, tpl, edit_fn,
	    (void *)"{}", msg), 0);
	assert_int_equal(repo_email_get(db, &a, one, ASSET_ST_DRAFT, true, &e),
	    0);
	assert_string_equal(e.description, "changed");
	assert_string_equal(e.hdr[EMAIL_HDR_SUBJECT].value, "Edited");
	/* Metadata alone, and a name taken. */
	m.name = named("m-two");
	assert_int_equal(repo_email_update(db, one, &m, tpl, NULL, NULL, msg),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(repo_email_update(db, 99999999, &m, tpl, NULL, NULL,
	    msg), -REPO_ERR_NOT_FOUND);

	/* two is approved: the step that deletes it fails, and one and
	 * three stay although their steps came first. */
	assert_int_equal(change(two, ASSET_APPROVE, msg), 0);
	steps[0] = (struct repo_email_step){ three, ASSET_DELETE };
	steps[1] = (struct repo_email_step){ one, ASSET_DELETE };
	steps[2] = (struct repo_email_step){ two, ASSET_DELETE };
	assert_int_equal(repo_email_change_many(db, steps, 3, false, &failed,
	    msg), -REPO_ERR_INVALID);
	assert_int_equal(failed, 2);
	assert_int_equal(repo_email_get(db, &a, one, ASSET_ST_ANY, false, &e),
	    0);
	assert_int_equal(repo_email_get(db, &a, three, ASSET_ST_ANY, false,
	    &e), 0);
	/* In use: refused without force, forgotten and deleted with it. */
	assert_int_equal(repo_usage_add(db, USAGE_EMAIL, three,
	    USAGE_SMART_CAMPAIGN, 424242), 0);
	steps[0] = (struct repo_email_step){ one, ASSET_DELETE };
	steps[1] = (struct repo_email_step){ three, ASSET_DELETE };
	steps[2] = (struct repo_email_step){ one, ASSET_DELETE };
	steps[3] = (struct repo_email_step){ two, ASSET_DISCARD };
	/* two gets a draft beside its approved version, to discard. */
	assert_int_equal(repo_email_edit(db, two, edit_fn, (void *)"{}", msg),
	    0);
	assert_int_not_equal(repo_email_change_many(db, steps, 3, false,
	    &failed, msg), 0);
	assert_int_equal(failed, 1);
	assert_int_equal(repo_email_get(db, &a, one, ASSET_ST_ANY, false, &e),
	    0);
	assert_int_equal(repo_email_change_many(db, steps, 4, true, &failed,
	    msg), 0);
	assert_int_equal(repo_email_get(db, &a, one, ASSET_ST_ANY, false, &e),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_email_get(db, &a, three, ASSET_ST_ANY, false,
	    &e), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_usage_count(db, USAGE_EMAIL, three, &n64), 0);
	assert_int_equal(n64, 0);
	assert_int_equal(repo_email_get(db, &a, two, ASSET_ST_ANY, false, &e),
	    0);
	assert_true(!e.v.has_draft && e.v.has_approved);
}

/*
 * Emails v2's reads and writes: List Emails (filters, sort, paging with
 * the total), the content and metadata Create takes, a template linked
 * by Update, and the uses of an email listed.
 */
static void
test_filter_v2(void **state)
{
	struct folder_ref place = email_folder("v2-folder");
	struct repo_email_filter q;
	struct repo_email_new n;
	struct repo_email_meta m;
	struct repo_email *items, e;
	struct repo_usage_user *users;
	char msg[REPO_EMAIL_MSG_BYTES];
	int64_t total;
	int32_t one, two, three;
	size_t k;

	(void)state;
	memset(&n, 0, sizeof(n));
	n.name = named("v2-b");
	n.place = place;
	n.web_view = true;
	n.pre_header = "Pre";
	n.hdr[EMAIL_HDR_SUBJECT] = "S";
	n.content = "{\"html\":\"<p>x</p>\"}";
	assert_int_equal(repo_email_insert(db, &n, &one), 0);
	assert_int_equal(repo_email_get(db, &a, one, ASSET_ST_ANY, true, &e),
	    0);
	assert_int_equal(e.template_id, 0);
	assert_true(e.web_view);
	assert_string_equal(e.pre_header, "Pre");
	assert_string_equal(e.content, "{\"html\":\"<p>x</p>\"}");
	two = email_new(place, "v2-a", true, 0);
	three = email_new(place, "v2-c", true, 0);
	assert_int_equal(change(three, ASSET_APPROVE, msg), 0);
	assert_int_equal(repo_email_edit(db, three, edit_fn, (void *)"{}",
	    msg), 0);

	memset(&q, 0, sizeof(q));
	q.workspace_id = 1;
	q.place_type = FOLDER_T_FOLDER;
	q.place_ids = arena_printf(&a, "%ld,999999", (long)place.id);
	q.sort = 6;
	q.limit = 2;
	assert_int_equal(repo_email_filter(db, &a, &q, &items, &k, &total), 0);
	/* One item per version: three has two. */
	assert_int_equal(total, 4);
	assert_int_equal(k, 2);
	assert_int_equal(items[0].id, one);
	assert_int_equal(items[1].id, two);
	q.offset = 2;
	assert_int_equal(repo_email_filter(db, &a, &q, &items, &k, &total), 0);
	assert_int_equal(k, 2);
	assert_int_equal(items[0].id, three);
	assert_int_equal(items[0].status, ASSET_ST_APPROVED);
	assert_int_equal(items[1].status, ASSET_ST_DRAFT);
	/* Names that contain the text in any case, sorted by name down. */
	q.offset = 0;
	q.limit = 50;
	q.name = "V2-";
	q.sort = 1;
	q.status = ASSET_ST_DRAFT;
	assert_int_equal(repo_email_filter(db, &a, &q, &items, &k, &total), 0);
	assert_int_equal(total, 3);
	assert_int_equal(items[0].id, three);
	assert_int_equal(items[1].id, one);
	assert_int_equal(items[2].id, two);
	q.template_id = tpl;
	assert_int_equal(repo_email_filter(db, &a, &q, &items, &k, &total), 0);
	assert_int_equal(total, 2);
	q.template_id = 0;
	q.has_created_to = true;
	q.created_to = 0;
	assert_int_equal(repo_email_filter(db, &a, &q, &items, &k, &total), 0);
	assert_int_equal(total, 0);
	assert_int_equal(k, 0);
	q.has_created_to = false;
	q.workspace_id = 2;
	assert_int_equal(repo_email_filter(db, &a, &q, &items, &k, &total), 0);
	assert_int_equal(total, 0);

	/* Update links a template; other metadata stays. */
	memset(&m, 0, sizeof(m));
	m.operational = m.publish_to_msi = m.text_only = m.web_view =
	    m.auto_copy_to_text = -1;
	m.template_id = tpl;
	assert_int_equal(repo_email_update_meta(db, one, &m), 0);
	assert_int_equal(repo_email_get(db, &a, one, ASSET_ST_ANY, false, &e),
	    0);
	assert_int_equal(e.template_id, tpl);
	assert_true(e.web_view);

	/* The uses of an email, a page at a time. */
	assert_int_equal(repo_usage_add(db, USAGE_EMAIL, two, "smartCampaign",
	    7), 0);
	assert_int_equal(repo_usage_add(db, USAGE_EMAIL, two, "smartCampaign",
	    3), 0);
	assert_int_equal(repo_usage_list(db, &a, USAGE_EMAIL, two, 1, 1,
	    &users, &k), 0);
	assert_int_equal(k, 1);
	assert_string_equal(users[0].type, "smartCampaign");
	assert_int_equal(users[0].id, 7);
	assert_int_equal(repo_usage_list(db, &a, USAGE_EMAIL, two, 10, 2,
	    &users, &k), 0);
	assert_int_equal(k, 0);
	assert_int_equal(repo_usage_forget(db, USAGE_EMAIL, two), 0);
}

/*
 * A Create Email racing a folder delete cannot leave the email in no
 * folder (migration 0023): another session has deleted the empty folder
 * and not committed; the insert, which read the folder from its snapshot,
 * waits on the folder's row for its foreign key (this session's lock
 * waits last a second, so the transaction runner gives up) and once the
 * delete commits the folder is gone for it too: the key refuses it
 * (1452), a refusal the handler answers, not an internal error.
 */
static void
test_folder_delete_race(void **state)
{
	struct repo_email_new e;
	struct folder_ref ref;
	struct db *other = NULL;
	int32_t id = 0;
	int64_t n = -1;

	(void)state;
	ref = email_folder("race");
	assert_int_equal(db_open(&other, &cfg, &repo_schema, true), 0);
	itest_sql(other, "START TRANSACTION");
	itest_sql(other, arena_printf(&a, "DELETE FROM folder WHERE id = %ld",
	    (long)ref.id));
	itest_sql(db, "SET SESSION innodb_lock_wait_timeout = 1");
	memset(&e, 0, sizeof(e));
	e.name = named("raced");
	e.place = ref;
	assert_int_not_equal(repo_email_insert(db, &e, &id), 0);
	itest_sql(other, "COMMIT");
	db_close(other);
	itest_sql(db, "SET SESSION innodb_lock_wait_timeout = DEFAULT");
	assert_int_equal(repo_email_insert(db, &e, &id), -REPO_ERR_GONE);
	assert_int_equal(repo_email_count_in_place(db, &ref, &n), 0);
	assert_int_equal(n, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_meta_clone_browse),
		cmocka_unit_test(test_edit),
		cmocka_unit_test(test_update_and_many),
		cmocka_unit_test(test_filter_v2),
		cmocka_unit_test(test_folder_delete_race),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
