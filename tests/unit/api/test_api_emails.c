/*
 * Emails v1 handlers on mocked repositories: content
 * (api_emails_content.c: Update Email Content Section, Get Email Content,
 * dynamic content), the module operations (api_emails_modules.c: add,
 * delete, duplicate, rename, rearrange and their refusals) and the
 * render paths (api_emails_full.c: Get Email Full Content as HTML and
 * text, for a lead, without a template; Send Sample Email; the rendered
 * version Emails v2 reads), the version changes (api_emails.c: approve
 * with its header check, unapprove, discard, delete and the errors they
 * answer) and Create and Clone Email's refusals (a name taken; a folder
 * or template deleted while they ran).  The email and template store,
 * the folders, the snippet and segmentation stores, the uses, the lead
 * read and the outbox are swapped at link time (Makefile.am); an edit
 * runs the handler's change on a canned draft and keeps what it wrote.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "api/api.h"
#include "api/api_emails.h"
#include "apitest.h"
#include "err.h"
#include "mail/outbox.h"
#include "model/asset.h"
#include "model/folder.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"
#include "repo/repo_leads.h"
#include "repo/repo_segmentations.h"
#include "repo/repo_snippets.h"
#include "repo/repo_usage.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/config.h"

#define EMAIL_ID	11

/* The configuration an answer's url reads (no app_url). */
static struct config app_cfg;
#define TEMPLATE_ID	APITEST_TEMPLATE_ID

static const char tpl_html[] =
    "<html><head>"
    "<meta class=\"mktoString\" id=\"title\" mktoName=\"Title\" "
    "default=\"Hello\">"
    "<meta class=\"mktoString\" id=\"label\" mktoName=\"Label\" "
    "default=\"Go\" mktoModuleScope=\"true\">"
    "</head><body>"
    "<h1>${title}</h1>"
    "<div class=\"mktoText\" id=\"intro\" mktoName=\"Intro\">"
    "Hi {{lead.FIRSTNAME:default=there}}</div>"
    "<div class=\"mktoSnippet\" id=\"snip\" mktoName=\"Snip\"></div>"
    "<table class=\"mktoContainer\" id=\"c\">"
    "<tr class=\"mktoModule\" id=\"m\" mktoName=\"M\"><td>${label}</td></tr>"
    "<tr class=\"mktoModule\" id=\"n\" mktoName=\"N\" "
    "mktoAddByDefault=\"false\"><td>n</td></tr>"
    "</table></body></html>";

/* The email the store holds: its template and content document. */
static struct {
	int32_t	 template_id;	/* 0: not linked */
	char	*content;	/* heap; what the last edit wrote */
	int	 edits;
	bool	 no_lead;	/* the lead read finds none */
	/* What outbox_send was handed, and what it answers. */
	int	 sends;
	char	 subject[256];
	char	 from_name[256];
	char	 to[256];
	char	 text[1024];
	bool	 html;
	enum smtp_status status;
	/* repo_email_change: what it was asked, what it answers. */
	int		 changes;
	enum asset_op	 op;
	bool		 checked;	/* given a check */
	bool		 no_subject;	/* the draft's subject is empty */
	int		 change_err;
	const char	*change_msg;
	/* repo_email_insert: what it was asked, what it answers. */
	int		 inserts;
	int		 insert_err;
	int32_t		 clone_of;
} store;

static void
store_set(int32_t template_id, const char *content)
{
	free(store.content);
	store.content = strdup(content);
	store.template_id = template_id;
	store.edits = 0;
}

static int
setup(void **state)
{
	store_set(TEMPLATE_ID, "");
	store.no_lead = false;
	store.sends = 0;
	store.status = SMTP_NO_RELAY;
	store.changes = store.inserts = 0;
	store.checked = store.no_subject = false;
	store.change_err = store.insert_err = 0;
	store.change_msg = NULL;
	store.clone_of = 0;
	apitest_setup(state);
	apitest_app.cfg = &app_cfg;
	apitest_place.kind = FK_EMAIL;
	apitest_req.path_ints[0] = EMAIL_ID;
	apitest_req.path_params[0] = "11";
	apitest_req.npath_params = 2;
	return 0;
}

static int
teardown(void **state)
{
	free(store.content);
	store.content = NULL;
	return apitest_teardown(state);
}

int	__wrap_repo_email_get(struct db *, struct arena *, int32_t,
	    enum asset_status, bool, struct repo_email *);
int	__wrap_repo_etpl_get_used(struct db *, struct arena *, int32_t,
	    struct repo_etpl *);
int	__wrap_repo_email_edit(struct db *, int32_t, repo_email_edit_fn,
	    void *, char *);
int	__wrap_repo_snippet_get(struct db *, struct arena *, int32_t,
	    struct repo_snippet *);
int	__wrap_repo_seg_get(struct db *, struct arena *, int32_t,
	    struct repo_seg *);
int	__wrap_repo_usage_add(struct db *, const char *, int32_t,
	    const char *, int32_t);
int	__wrap_outbox_send(struct db *, const struct config *,
	    const struct outbox_send *, struct outbox_result *,
	    const char **);
int	__wrap_repo_leads_get_by_id(struct db *, struct arena *,
	    const struct lead_field *const *, size_t, int64_t,
	    struct lead_rows *);
int	__wrap_repo_email_change(struct db *, int32_t, enum asset_op,
	    repo_email_check_fn, char *);
int	__wrap_repo_email_insert(struct db *, const struct repo_email_new *,
	    int32_t *);

/*
 * As the store: approve runs the handler's check on the draft (the
 * email's headers, the subject emptied with no_subject) and refuses with
 * its reason; else change_err with change_msg.
 */
int
__wrap_repo_email_change(struct db *db, int32_t id, enum asset_op op,
    repo_email_check_fn check, char *msg)
{
	struct repo_email draft;
	struct arena a;
	int r;

	store.changes++;
	store.op = op;
	store.checked = check != NULL;
	msg[0] = '\0';
	if (store.change_msg != NULL)
		(void)snprintf(msg, REPO_EMAIL_MSG_BYTES, "%s",
		    store.change_msg);
	if (store.change_err != 0 || check == NULL)
		return store.change_err;
	arena_init(&a);
	r = __wrap_repo_email_get(db, &a, id, ASSET_ST_DRAFT, false, &draft);
	if (r == 0) {
		draft.hdr[EMAIL_HDR_REPLY_EMAIL].type = "Text";
		draft.hdr[EMAIL_HDR_REPLY_EMAIL].value = "a@example.com";
		if (store.no_subject)
			draft.hdr[EMAIL_HDR_SUBJECT].value = " ";
		if (check(&draft, msg) != 0)
			r = -REPO_ERR_INVALID;
	}
	arena_clear(&a);
	return r;
}

/* The new email is EMAIL_ID, or insert_err. */
int
__wrap_repo_email_insert(struct db *db, const struct repo_email_new *e,
    int32_t *id)
{
	(void)db;
	store.inserts++;
	store.clone_of = e->clone_of;
	*id = store.insert_err == 0 ? EMAIL_ID : 0;
	return store.insert_err;
}

int
__wrap_repo_email_get(struct db *db, struct arena *a, int32_t id,
    enum asset_status want, bool with_content, struct repo_email *out)
{
	(void)db;
	(void)want;
	(void)with_content;
	memset(out, 0, sizeof(*out));
	if (id != EMAIL_ID)
		return -REPO_ERR_NOT_FOUND;
	out->id = id;
	out->name = "Welcome";
	out->workspace = "Default";
	out->template_id = store.template_id;
	out->status = ASSET_ST_DRAFT;
	out->hdr[EMAIL_HDR_SUBJECT].type = "Text";
	out->hdr[EMAIL_HDR_SUBJECT].value = "News for {{lead.firstName}}";
	out->hdr[EMAIL_HDR_FROM_NAME].type = "Text";
	out->hdr[EMAIL_HDR_FROM_NAME].value =
	    "{{lead.lastName:default=The team}}";
	out->hdr[EMAIL_HDR_FROM_EMAIL].type = "DynamicContent";
	out->hdr[EMAIL_HDR_FROM_EMAIL].value = "4";
	out->content = arena_strdup(a, store.content);
	out->content_len = strlen(store.content);
	return 0;
}

int
__wrap_repo_etpl_get_used(struct db *db, struct arena *a, int32_t id,
    struct repo_etpl *out)
{
	(void)db;
	(void)a;
	memset(out, 0, sizeof(*out));
	assert_int_equal(id, TEMPLATE_ID);
	out->id = id;
	out->name = "Basic";
	out->content = tpl_html;
	out->content_len = sizeof(tpl_html) - 1;
	return 0;
}

int
__wrap_repo_email_edit(struct db *db, int32_t id, repo_email_edit_fn fn,
    void *arg, char *msg)
{
	struct repo_email_draft d;

	(void)db;
	if (id != EMAIL_ID)
		return -REPO_ERR_NOT_FOUND;
	memset(&d, 0, sizeof(d));
	msg[0] = '\0';
	d.content = store.content;
	d.content_len = strlen(store.content);
	if (fn(arg, &d, msg) != 0)
		return -REPO_ERR_INVALID;
	free(store.content);
	store.content = strdup(d.content);
	store.edits++;
	return 0;
}

int
__wrap_repo_snippet_get(struct db *db, struct arena *a, int32_t id,
    struct repo_snippet *out)
{
	(void)db;
	(void)a;
	memset(out, 0, sizeof(*out));
	if (id != 7)
		return -REPO_ERR_NOT_FOUND;
	out->id = id;
	out->content = "<b>seven</b>";
	out->content_len = strlen(out->content);
	return 0;
}

/* Segmentation 4 has the segments Default and Gold. */
int
__wrap_repo_seg_get(struct db *db, struct arena *a, int32_t id,
    struct repo_seg *out)
{
	(void)db;
	memset(out, 0, sizeof(*out));
	if (id != 4)
		return -REPO_ERR_NOT_FOUND;
	out->id = id;
	out->name = "Tier";
	out->segments = arena_zalloc(a, 2 * sizeof(*out->segments));
	out->segments[0].id = 40;
	out->segments[0].name = "Default";
	out->segments[1].id = 41;
	out->segments[1].name = "Gold";
	out->nsegments = 2;
	return 0;
}

int
__wrap_repo_usage_add(struct db *db, const char *type, int32_t id,
    const char *user_type, int32_t user_id)
{
	(void)db;
	(void)type;
	(void)user_type;
	assert_int_equal(user_id, EMAIL_ID);
	assert_true(id == 4 || id == 7);
	return 0;
}

int
__wrap_outbox_send(struct db *db, const struct config *cfg,
    const struct outbox_send *s, struct outbox_result *out,
    const char **why)
{
	(void)db;
	(void)cfg;
	*why = NULL;
	memset(out, 0, sizeof(*out));
	assert_string_equal(s->kind, "sample");
	assert_int_equal(s->email_id, EMAIL_ID);
	assert_null(s->msg.from);	/* dynamic content: unset */
	(void)snprintf(store.subject, sizeof(store.subject), "%s",
	    s->msg.subject != NULL ? s->msg.subject : "(null)");
	(void)snprintf(store.from_name, sizeof(store.from_name), "%s",
	    s->msg.from_name != NULL ? s->msg.from_name : "(null)");
	(void)snprintf(store.to, sizeof(store.to), "%s", s->msg.to);
	(void)snprintf(store.text, sizeof(store.text), "%s", s->msg.text);
	store.html = s->msg.html != NULL;
	store.sends++;
	out->id = 1;
	out->smtp.status = store.status;
	(void)snprintf(out->smtp.reply, sizeof(out->smtp.reply),
	    "550 No such user");
	return 0;
}

/* Lead 3 has first name Ann (the other fields empty). */
int
__wrap_repo_leads_get_by_id(struct db *db, struct arena *a,
    const struct lead_field *const *cols, size_t ncols, int64_t id,
    struct lead_rows *out)
{
	size_t i;

	(void)db;
	memset(out, 0, sizeof(*out));
	if (store.no_lead || id != 3)
		return 0;
	out->rows = arena_zalloc(a, sizeof(*out->rows));
	out->rows[0].id = id;
	out->rows[0].vals = arena_zalloc(a, (ncols + 1) * sizeof(char *));
	for (i = 0; i < ncols; i++)
		if (strcmp(cols[i]->name, "firstName") == 0)
			out->rows[0].vals[i] = "Ann";
	out->count = 1;
	return 0;
}

/*
 * The running test's next call: a new response, no parameters, and part
 * the path's part after the email id (a module, section or dynamic
 * content id).
 */
static void
next_on(const char *part)
{
	apitest_again();
	apitest_req.path_params[1] = part;
}

/* The next call, on an email the store does not have (id 99). */
static void
next_missing(void)
{
	apitest_again();
	apitest_req.path_ints[0] = 99;
}

/* The module instances the store's document holds, as JSON text. */
static const char *
stored_modules(void)
{
	static char text[1024];
	struct json_object *doc = json_tokener_parse(store.content), *m;

	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "modules", &m));
	(void)snprintf(text, sizeof(text), "%s",
	    json_object_to_json_string_ext(m, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
	return text;
}

/* Add: the template's module by its name, at an index; ids made free. */
static void
test_module_add(void **state)
{
	(void)state;
	next_on("N");
	apitest_param("index", "0");
	assert_int_equal(apitest_run(api_emails_module_add), 0);
	assert_string_equal(apitest_result(), "[{\"id\":11}]");
	assert_string_equal(stored_modules(), "[{\"id\":\"n\",\"module\":"
	    "\"n\"},{\"id\":\"m\",\"module\":\"m\"}]");
	/* Past the end appends; a taken id becomes <id>-2. */
	next_on("m");
	apitest_param("index", "9");
	assert_int_equal(apitest_run(api_emails_module_add), 0);
	assert_string_equal(stored_modules(), "[{\"id\":\"n\",\"module\":"
	    "\"n\"},{\"id\":\"m\",\"module\":\"m\"},{\"id\":\"m-2\","
	    "\"module\":\"m\"}]");
	/* A module the template does not have. */
	next_on("zz");
	apitest_param("index", "0");
	apitest_fails(api_emails_module_add, NULL, -API_ERR_NO_DATA,
	    "Module 'zz' not found in the template");
	/* A name that is not an id. */
	next_on("m");
	apitest_param("index", "0");
	apitest_param("name", "a b");
	apitest_fails(api_emails_module_add, NULL, -API_ERR_RULE,
	    "Invalid module id 'a b'");
	assert_int_equal(store.edits, 2);
}

/* Delete, duplicate and rename of the instances the email has. */
static void
test_module_change(void **state)
{
	(void)state;
	store_set(TEMPLATE_ID, "{\"variables\":{\"m:label\":\"Buy\"}}");
	next_on("m");
	assert_int_equal(apitest_run(api_emails_module_duplicate), 0);
	assert_string_equal(stored_modules(), "[{\"id\":\"m\",\"module\":"
	    "\"m\"},{\"id\":\"m-2\",\"module\":\"m\"}]");
	/* Rename keeps the module-scoped values. */
	next_on("m");
	apitest_param("name", "hero");
	assert_int_equal(apitest_run(api_emails_module_rename), 0);
	assert_string_equal(stored_modules(), "[{\"id\":\"hero\",\"module\":"
	    "\"m\"},{\"id\":\"m-2\",\"module\":\"m\"}]");
	assert_non_null(strstr(store.content, "\"hero:label\":\"Buy\""));
	assert_null(strstr(store.content, "\"m:label\""));
	next_on("hero");
	apitest_param("name", "m-2");
	apitest_fails(api_emails_module_rename, NULL, -API_ERR_RULE,
	    "Module 'm-2' already exists");
	next_on("hero");
	apitest_fails(api_emails_module_rename, NULL, -API_ERR_MISSING_PARAM,
	    NULL);
	next_on("m-2");
	assert_int_equal(apitest_run(api_emails_module_delete), 0);
	assert_string_equal(stored_modules(), "[{\"id\":\"hero\",\"module\":"
	    "\"m\"}]");
	next_on("m-2");
	apitest_fails(api_emails_module_delete, NULL, -API_ERR_NO_DATA,
	    "Module 'm-2' not found");
	assert_int_equal(store.edits, 3);
}

/* Rearrange places every instance once. */
static void
test_module_rearrange(void **state)
{
	(void)state;
	store_set(TEMPLATE_ID, "{\"modules\":[{\"id\":\"a\",\"module\":\"m\"},"
	    "{\"id\":\"b\",\"module\":\"n\"}]}");
	apitest_param("positions", "[{\"index\":0,\"moduleId\":\"b\"},"
	    "{\"index\":1,\"moduleId\":\"a\"}]");
	assert_int_equal(apitest_run(api_emails_module_rearrange), 0);
	assert_string_equal(stored_modules(), "[{\"id\":\"b\",\"module\":"
	    "\"n\"},{\"id\":\"a\",\"module\":\"m\"}]");
	apitest_again();
	apitest_param("positions", "[{\"index\":0,\"moduleId\":\"b\"}]");
	assert_int_equal(apitest_run(api_emails_module_rearrange),
	    -API_ERR_RULE);
	assert_non_null(strstr(apitest_resp.err_msg, "Rearrange must place "
	    "every module exactly once"));
	apitest_again();
	apitest_param("positions", "{}");
	assert_int_equal(apitest_run(api_emails_module_rearrange),
	    -API_ERR_INVALID_VALUE);
	assert_int_equal(store.edits, 1);
}

/* Module operations on an email with no container, or no email. */
static void
test_module_refused(void **state)
{
	(void)state;
	store_set(0, "{\"html\":\"<p>own</p>\"}");
	next_on("m");
	apitest_fails(api_emails_module_delete, NULL, -API_ERR_RULE,
	    "The email has no module container");
	next_on("m");
	apitest_req.path_ints[0] = 99;
	apitest_fails(api_emails_module_delete, NULL, -API_ERR_NO_DATA,
	    "99 Email not found");
	assert_int_equal(store.edits, 0);
}

/* The content member of the one result. */
static const char *
full_content(void)
{
	static char text[4096];
	struct json_object *res = json_tokener_parse(apitest_result()), *c;

	assert_non_null(res);
	assert_true(json_object_object_get_ex(json_object_array_get_idx(res,
	    0), "content", &c));
	(void)snprintf(text, sizeof(text), "%s", json_object_get_string(c));
	json_object_put(res);
	return text;
}

/* The result items written as JSON text (resp_add_text). */
static const char *
items_text(void)
{
	static char text[4096];

	assert_true(apitest_resp.items.len > 0);
	assert_true(apitest_resp.items.len < sizeof(text));
	memcpy(text, apitest_resp.items.data, apitest_resp.items.len);
	text[apitest_resp.items.len] = '\0';
	return text;
}

/* The section htmlId of the store's document as JSON text. */
static const char *
stored_section(const char *html_id)
{
	static char text[1024];
	struct json_object *doc = json_tokener_parse(store.content), *secs;
	struct json_object *sec;

	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "sections", &secs));
	assert_true(json_object_object_get_ex(secs, html_id, &sec));
	(void)snprintf(text, sizeof(text), "%s",
	    json_object_to_json_string_ext(sec, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
	return text;
}

/* Update Email Content Section: Text, a snippet, and the refusals. */
static void
test_section_update(void **state)
{
	(void)state;
	next_on("intro");
	apitest_param("type", "Text");
	apitest_param("value", "<p>New <b>intro</b></p>");
	assert_int_equal(apitest_run(api_emails_section_update), 0);
	assert_string_equal(apitest_result(), "[{\"id\":11}]");
	assert_string_equal(stored_section("intro"), "{\"type\":\"Text\","
	    "\"html\":\"<p>New <b>intro<\\/b><\\/p>\","
	    "\"text\":\"New intro\"}");
	next_on("snip");
	apitest_param("type", "Snippet");
	apitest_param("value", "7");
	assert_int_equal(apitest_run(api_emails_section_update), 0);
	assert_string_equal(stored_section("snip"), "{\"type\":\"Snippet\","
	    "\"snippet\":\"7\"}");
	next_on("snip");
	apitest_param("type", "Snippet");
	apitest_param("value", "8");
	apitest_fails(api_emails_section_update, NULL, -API_ERR_RULE,
	    "Snippet 8 not found");
	next_on("intro");
	apitest_param("type", "Text");
	apitest_param("value", "<script>x()</script>");
	assert_int_equal(apitest_run(api_emails_section_update),
	    -API_ERR_RULE);
	next_on("nope");
	apitest_param("type", "Text");
	apitest_param("value", "x");
	apitest_fails(api_emails_section_update, NULL, -API_ERR_NO_DATA,
	    "Content section 'nope' not found");
	assert_int_equal(store.edits, 2);
	/* Get Email Content shows what was set, the template's otherwise. */
	apitest_again();
	assert_int_equal(apitest_run(api_emails_content_get), 0);
	assert_non_null(strstr(items_text(), "{\"htmlId\":\"intro\","
	    "\"contentType\":\"Text\",\"value\":[{\"type\":\"HTML\","
	    "\"value\":\"<p>New <b>intro</b></p>\"},"));
	assert_non_null(strstr(items_text(), "{\"htmlId\":\"snip\","
	    "\"contentType\":\"Snippet\",\"value\":\"7\"}"));
	assert_non_null(strstr(items_text(), "{\"htmlId\":\"m\","
	    "\"contentType\":\"Module\",\"index\":0,"
	    "\"parentHtmlId\":\"c\",\"isLocked\":false}"));
}

/* Dynamic content: a section made dynamic, then a segment set. */
static void
test_dynamic(void **state)
{
	(void)state;
	next_on("intro");
	apitest_param("type", "DynamicContent");
	apitest_param("value", "4");
	assert_int_equal(apitest_run(api_emails_section_update), 0);
	next_on("intro");
	apitest_param("segment", "Gold");
	apitest_param("value", "<i>gold</i>");
	assert_int_equal(apitest_run(api_emails_dynamic_update), 0);
	assert_string_equal(stored_section("intro"), "{\"type\":"
	    "\"DynamicContent\",\"segmentation\":\"4\",\"segments\":"
	    "{\"Gold\":{\"type\":\"HTML\",\"content\":\"<i>gold<\\/i>\"}}}");
	next_on("intro");
	apitest_param("segment", "Silver");
	apitest_param("value", "s");
	apitest_fails(api_emails_dynamic_update, NULL, -API_ERR_RULE,
	    "Segment 'Silver' not found in segmentation 4");
	next_on("snip");
	apitest_param("segment", "Gold");
	apitest_param("value", "s");
	apitest_fails(api_emails_dynamic_update, NULL, -API_ERR_BAD_DATE,
	    "Invalid dynamic content id 'snip'");
	/* Get lists every segment: the one set, the template's HTML. */
	next_on("intro");
	assert_int_equal(apitest_run(api_emails_dynamic_get), 0);
	assert_non_null(strstr(apitest_result(), "\"segmentName\":"
	    "\"Default\",\"type\":\"HTML\",\"content\":"
	    "\"Hi {{lead.FIRSTNAME:default=there}}\"}"));
	assert_non_null(strstr(apitest_result(), "\"segmentName\":\"Gold\","
	    "\"type\":\"HTML\",\"content\":\"<i>gold<\\/i>\"}"));
	/* Full content renders the Default segment: the template's here. */
	apitest_again();
	assert_int_equal(apitest_run(api_emails_full_get), 0);
	assert_non_null(strstr(full_content(), "id=\"intro\""));
}

/* Get Email Full Content: every default, then what the version sets. */
static void
test_full_get(void **state)
{
	const char *html;

	(void)state;
	assert_int_equal(apitest_run(api_emails_full_get), 0);
	html = full_content();
	assert_non_null(strstr(html, "<h1>Hello</h1>"));
	assert_non_null(strstr(html, "<td>Go</td>"));
	/* Without a lead, tokens stay as they are. */
	assert_non_null(strstr(html, "{{lead.FIRSTNAME:default=there}}"));
	assert_non_null(strstr(apitest_result(), "\"status\":\"draft\""));
	store_set(TEMPLATE_ID, "{\"sections\":{\"snip\":{\"type\":\"Snippet\","
	    "\"snippet\":\"7\"}},\"variables\":{\"title\":\"Hi\","
	    "\"m:label\":\"Buy\"}}");
	apitest_again();
	assert_int_equal(apitest_run(api_emails_full_get), 0);
	html = full_content();
	assert_non_null(strstr(html, "<h1>Hi</h1>"));
	assert_non_null(strstr(html, "<b>seven</b>"));
	assert_non_null(strstr(html, "<td>Buy</td>"));
	/* type=Text: the text of the rendered HTML. */
	apitest_again();
	apitest_param("type", "Text");
	assert_int_equal(apitest_run(api_emails_full_get), 0);
	html = full_content();
	assert_null(strstr(html, "<"));
	assert_non_null(strstr(html, "Hi"));
	assert_non_null(strstr(html, "Buy"));
}

/* With leadId: the lead's values, a token's default, 1004. */
static void
test_full_get_lead(void **state)
{
	(void)state;
	apitest_param("leadId", "3");
	assert_int_equal(apitest_run(api_emails_full_get), 0);
	assert_non_null(strstr(full_content(), "Hi Ann"));
	apitest_again();
	apitest_param("leadId", "4");
	apitest_fails(api_emails_full_get, NULL, -API_ERR_LEAD_NOT_FOUND,
	    NULL);
	store.no_lead = true;
	apitest_again();
	apitest_param("leadId", "3");
	apitest_fails(api_emails_full_get, NULL, -API_ERR_LEAD_NOT_FOUND,
	    NULL);
}

/* An email not linked to a template; an email that does not exist. */
static void
test_full_get_own(void **state)
{
	(void)state;
	store_set(0, "{\"html\":\"<p>own {{lead.First Name}}</p>\"}");
	assert_int_equal(apitest_run(api_emails_full_get), 0);
	assert_string_equal(full_content(), "<p>own {{lead.First Name}}</p>");
	next_missing();
	assert_int_equal(apitest_run(api_emails_full_get), 0);
	assert_string_equal(apitest_result(), "(none)");
	assert_non_null(apitest_resp.warnings);
}

/* Send Sample Email: rendered for the lead, headers filled, outcomes. */
static void
test_send_sample(void **state)
{
	(void)state;
	apitest_param("emailAddress", "to@example.com");
	apitest_param("leadId", "3");
	assert_int_equal(apitest_run(api_emails_send_sample), 0);
	assert_string_equal(apitest_result(), "[{\"id\":11}]");
	assert_non_null(apitest_resp.warnings);
	assert_string_equal(store.subject, "News for Ann");
	assert_string_equal(store.from_name, "The team");
	assert_string_equal(store.to, "to@example.com");
	assert_non_null(strstr(store.text, "Hi Ann"));
	assert_true(store.html);
	/* Without a lead every token takes its default; text only. */
	apitest_again();
	apitest_param("emailAddress", "to@example.com");
	apitest_param("textOnly", "true");
	assert_int_equal(apitest_run(api_emails_send_sample), 0);
	assert_string_equal(store.subject, "News for ");
	assert_non_null(strstr(store.text, "Hi there"));
	assert_false(store.html);
	/* The relay refuses: 709 with its reply. */
	store.status = SMTP_REFUSED;
	apitest_again();
	apitest_param("emailAddress", "to@example.com");
	apitest_fails(api_emails_send_sample, NULL, -API_ERR_RULE,
	    "Sample email not sent: the SMTP relay refused it: 550 No such "
	    "user");
	/* Refused before any send. */
	apitest_again();
	apitest_param("emailAddress", "not an address");
	apitest_fails(api_emails_send_sample, NULL, -API_ERR_INVALID_VALUE,
	    "Invalid value 'not an address'. Required of type 'email "
	    "address'");
	apitest_again();
	apitest_param("emailAddress", "to@example.com");
	apitest_param("leadId", "4");
	apitest_fails(api_emails_send_sample, NULL, -API_ERR_LEAD_NOT_FOUND,
	    NULL);
	next_missing();
	apitest_param("emailAddress", "to@example.com");
	apitest_fails(api_emails_send_sample, NULL, -API_ERR_NO_DATA,
	    "99 Email not found");
	assert_int_equal(store.sends, 3);
}

/* What Emails v2 reads: the HTML, and the text given or made. */
static void
test_render_version(void **state)
{
	char *html, *text;
	size_t len;
	bool own;

	(void)state;
	store_set(0, "{\"html\":\"<p>One <b>two</b></p>\"}");
	assert_int_equal(api_emails_render_version(&apitest_call,
	    &apitest_resp, EMAIL_ID, ASSET_ST_ANY, &html, &len, &text,
	    &own), 0);
	assert_string_equal(html, "<p>One <b>two</b></p>");
	assert_int_equal(len, strlen(html));
	assert_string_equal(text, "One two");
	assert_false(own);
	free(html);
	free(text);
	store_set(0, "{\"html\":\"<p>x</p>\",\"text\":\"given\"}");
	assert_int_equal(api_emails_render_version(&apitest_call,
	    &apitest_resp, EMAIL_ID, ASSET_ST_ANY, &html, &len, &text,
	    &own), 0);
	assert_string_equal(text, "given");
	assert_true(own);
	free(html);
	free(text);
	assert_int_equal(api_emails_render_version(&apitest_call,
	    &apitest_resp, 99, ASSET_ST_ANY, &html, &len, &text, &own),
	    -API_ERR_NO_DATA);
	assert_null(html);
	assert_null(text);
}

/* The four version changes: the op each hands the store, the id back. */
static void
test_versions(void **state)
{
	static const enum asset_op ops[] = { ASSET_APPROVE, ASSET_UNAPPROVE,
	    ASSET_DISCARD, ASSET_DELETE };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		apitest_again();
		apitest_variant(ops[i]);
		assert_int_equal(apitest_run(api_emails_change), 0);
		assert_string_equal(apitest_result(), "[{\"id\":11}]");
		assert_int_equal(store.op, ops[i]);
		/* Only approving checks the draft. */
		assert_int_equal(store.checked, ops[i] == ASSET_APPROVE);
	}
	assert_int_equal(store.changes, 4);
}

/* Approve refuses a draft without the headers a sent email needs. */
static void
test_approve_check(void **state)
{
	(void)state;
	store.no_subject = true;
	apitest_variant(ASSET_APPROVE);
	apitest_fails(api_emails_change, NULL, -API_ERR_RULE,
	    "Cannot approve email: Subject is empty");
}

/* A change's errors: 702 with the email's id, 709 with the reason. */
static void
test_version_errors(void **state)
{
	(void)state;
	apitest_variant(ASSET_DELETE);
	store.change_err = -REPO_ERR_NOT_FOUND;
	apitest_fails(api_emails_change, NULL, -API_ERR_NO_DATA,
	    "11 Email not found");
	store.change_err = -REPO_ERR_INVALID;
	store.change_msg = "Cannot delete email 11: it is in use";
	apitest_fails(api_emails_change, NULL, -API_ERR_RULE,
	    "Cannot delete email 11: it is in use");
	store.change_err = -REPO_ERR_DEADLOCK;
	store.change_msg = NULL;
	assert_int_equal(apitest_run(api_emails_change),
	    err_from_repo(-REPO_ERR_DEADLOCK));
}

/* Create Email's parameters: a name in folder 3, template TEMPLATE_ID. */
static void
create_params(void)
{
	apitest_param("name", "Welcome");
	apitest_param("folder", "{\"id\":3,\"type\":\"Folder\"}");
	apitest_param("template", "5");
}

/*
 * Create Email: made and answered; a name taken; a folder or template
 * deleted while it ran (-REPO_ERR_GONE), answered as a moment later.
 */
static void
test_create(void **state)
{
	(void)state;
	create_params();
	assert_int_equal(apitest_run(api_emails_create), 0);
	assert_non_null(strstr(items_text(), "\"name\":\"Welcome\""));
	apitest_again();
	create_params();
	store.insert_err = -REPO_ERR_CONFLICT;
	apitest_fails(api_emails_create, NULL, -API_ERR_RULE,
	    "Email name 'Welcome' is already in use in this folder");
	apitest_again();
	create_params();
	store.insert_err = -REPO_ERR_GONE;
	apitest_fails(api_emails_create, NULL, -API_ERR_RULE,
	    "The email's template was deleted while the request ran");
	/* The folder was there for the check, gone at the insert. */
	apitest_again();
	create_params();
	apitest_place.calls = 0;
	apitest_place.err = -REPO_ERR_NOT_FOUND;
	apitest_place.err_from = 2;
	apitest_fails(api_emails_create, NULL, -API_ERR_NO_PARENT, NULL);
	assert_int_equal(apitest_place.calls, 2);
	assert_int_equal(store.inserts, 4);
}

/* Clone Email's parameters: a name in folder 3. */
static void
clone_params(void)
{
	apitest_param("name", "Copy");
	apitest_param("folder", "{\"id\":3,\"type\":\"Folder\"}");
}

/* Clone Email: a copy of the email, and the same refusals. */
static void
test_clone(void **state)
{
	(void)state;
	clone_params();
	assert_int_equal(apitest_run(api_emails_clone), 0);
	assert_int_equal(store.clone_of, EMAIL_ID);
	apitest_again();
	clone_params();
	store.insert_err = -REPO_ERR_GONE;
	apitest_place.calls = 0;
	apitest_place.err = -REPO_ERR_NOT_FOUND;
	apitest_place.err_from = 2;
	apitest_fails(api_emails_clone, NULL, -API_ERR_NO_PARENT, NULL);
	next_missing();
	clone_params();
	apitest_fails(api_emails_clone, NULL, -API_ERR_NO_DATA,
	    "99 Email not found");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_versions, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_approve_check, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_version_errors, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_create, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_module_add, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_module_change, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_module_rearrange, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_module_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_section_update, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dynamic, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_full_get, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_full_get_lead, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_full_get_own, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_send_sample, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_render_version, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
