/*
 * mautoctl template|segmentation|snippet: what emails are made from
 * (docs/assets.md), which no API operation in scope creates.  A template
 * is parsed (model/template.c) and refused with the reason when invalid;
 * --dynamic SECTION=SEGMENTATION makes a rich text or image section of
 * it start as dynamic content in the emails made from it.  Output as the
 * other subcommands: a create prints the new id, a list is tab-separated
 * with a header line, errors go to stderr with exit status 1.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "ctl/ctl.h"
#include "db/pool.h"
#include "model/folder.h"
#include "model/html.h"
#include "model/template.h"
#include "repo/repo.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_folders.h"
#include "repo/repo_segmentations.h"
#include "repo/repo_snippets.h"
#include "util/arena.h"
#include "util/num.h"
#include "util/xmalloc.h"

#define TEMPLATE_USAGE \
	"template create --name NAME --folder ID --file FILE " \
	"[--description TEXT] [--dynamic SECTION=SEGMENTATION]... | list | " \
	"show ID | delete ID"
#define SEGMENTATION_USAGE \
	"segmentation create --name NAME --segment NAME... " \
	"[--description TEXT] | list | delete ID"
#define SNIPPET_USAGE \
	"snippet create --name NAME --file FILE [--text TEXT] " \
	"[--description TEXT] | list | delete ID"

/* Dynamic sections one template create may name. */
#define MAX_DYNAMIC		64

static int
check_names(const char *name, const char *desc)
{
	if (!ctl_good_text(name, ASSET_NAME_CHARS) ||
	    (desc != NULL && !ctl_good_text(desc, ASSET_DESCRIPTION_CHARS))) {
		fprintf(stderr, "mautoctl: a name is 1 to %d and a "
		    "description 1 to %d printable bytes\n", ASSET_NAME_CHARS,
		    ASSET_DESCRIPTION_CHARS);
		return -1;
	}
	return 0;
}

/*
 * The whole of file path (at most HTML_MAX_BYTES), NUL-ended, in *out
 * (the caller frees it) and its length in *len; -1 after a message.
 */
static int
read_file(const char *path, char **out, size_t *len)
{
	FILE *f;
	char *buf = xmalloc((size_t)HTML_MAX_BYTES + 2);
	size_t n;
	int r = -1;

	*out = NULL;
	*len = 0;
	if ((f = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "mautoctl: %s: %s\n", path, strerror(errno));
		goto out;
	}
	n = fread(buf, 1, (size_t)HTML_MAX_BYTES + 1, f);
	if (ferror(f)) {
		fprintf(stderr, "mautoctl: %s: cannot read\n", path);
		goto out;
	}
	if (n > HTML_MAX_BYTES) {
		fprintf(stderr, "mautoctl: %s: larger than %d bytes\n", path,
		    HTML_MAX_BYTES);
		goto out;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	buf = NULL;
	r = 0;
out:
	if (f != NULL)
		fclose(f);
	free(buf);
	return r;
}

/* The segmentation id or name word names; -1 after a message. */
static int
segmentation_of(struct db *db, const char *word, int32_t *id)
{
	int64_t v;
	int r;

	if (num_parse_i64(word, 1, INT32_MAX, &v) == 0) {
		*id = (int32_t)v;
		return 0;
	}
	if ((r = repo_seg_get_id_by_name(db, word, id)) == 0)
		return 0;
	fprintf(stderr, r == -REPO_ERR_NOT_FOUND ? "mautoctl: no "
	    "segmentation named '%s'\n" : "mautoctl: cannot read the "
	    "segmentation '%s'\n", word);
	return -1;
}

/* A --dynamic SECTION=SEGMENTATION against the outline; -1 after a message. */
static int
dynamic_of(struct db *db, const struct tpl_outline *o, char *arg,
    struct repo_etpl_dynamic *d)
{
	char *eq = strchr(arg, '=');
	size_t i;

	if (eq == NULL || eq == arg || eq[1] == '\0') {
		fprintf(stderr, "mautoctl: --dynamic takes "
		    "SECTION=SEGMENTATION\n");
		return -1;
	}
	*eq = '\0';
	for (i = 0; i < o->nsections; i++)
		if (strcmp(o->sections[i].id, arg) == 0)
			break;
	if (i == o->nsections || (o->sections[i].kind != TPL_SEC_TEXT &&
	    o->sections[i].kind != TPL_SEC_IMAGE)) {
		fprintf(stderr, "mautoctl: the template has no rich text or "
		    "image section '%s'\n", arg);
		return -1;
	}
	d->html_id = arg;
	return segmentation_of(db, eq + 1, &d->segmentation_id);
}

static int
template_create(int argc, char **argv, struct db **db,
    const struct config *cfg)
{
	struct repo_etpl_new t = { .name = NULL };
	struct repo_etpl_dynamic dyn[MAX_DYNAMIC];
	struct folder_ref ref = { .type = FOLDER_T_FOLDER };
	struct repo_place place;
	struct tpl_outline o;
	char *dynargs[MAX_DYNAMIC], *html = NULL, msg[TPL_MSG_BYTES];
	const char *file = NULL;
	size_t ndyn = 0, len, i;
	int64_t folder = 0;
	int32_t id;
	int ai, r, rc = 1;

	memset(&o, 0, sizeof(o));
	for (ai = 2; ai < argc; ai++) {
		if (ai + 1 >= argc)
			goto usage;
		if (strcmp(argv[ai], "--name") == 0)
			t.name = argv[++ai];
		else if (strcmp(argv[ai], "--description") == 0)
			t.description = argv[++ai];
		else if (strcmp(argv[ai], "--file") == 0)
			file = argv[++ai];
		else if (strcmp(argv[ai], "--dynamic") == 0 &&
		    ndyn < MAX_DYNAMIC)
			dynargs[ndyn++] = argv[++ai];
		else if (strcmp(argv[ai], "--folder") == 0) {
			if (num_parse_i64(argv[++ai], 1, INT32_MAX,
			    &folder) != 0) {
				fprintf(stderr, "mautoctl: --folder takes a "
				    "folder id\n");
				goto out;
			}
		} else
			goto usage;
	}
	if (t.name == NULL || folder == 0 || file == NULL)
		goto usage;
	if (check_names(t.name, t.description) != 0 ||
	    read_file(file, &html, &len) != 0)
		goto out;
	if (tpl_parse(html, len, &o, msg) != 0) {
		fprintf(stderr, "mautoctl: invalid template: %s\n", msg);
		goto out;
	}
	if (ctl_db_open(db, cfg) != 0)
		goto out;
	ref.id = (int32_t)folder;
	r = repo_folders_place(*db, &ref, &place);
	if (r == -REPO_ERR_NOT_FOUND) {
		fprintf(stderr, "mautoctl: no folder %lld\n",
		    (long long)folder);
		goto out;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot read folder %lld\n",
		    (long long)folder);
		goto out;
	}
	if (!folder_may_hold(place.kind, false, AK_EMAIL_TEMPLATE)) {
		fprintf(stderr, "mautoctl: folder %lld holds %s assets, not "
		    "email templates\n", (long long)folder,
		    folder_kind_name(place.kind));
		goto out;
	}
	for (i = 0; i < ndyn; i++)
		if (dynamic_of(*db, &o, dynargs[i], &dyn[i]) != 0)
			goto out;
	t.folder_id = (int32_t)folder;
	t.content = html;
	t.len = len;
	t.dynamic = dyn;
	t.ndynamic = ndyn;
	r = repo_etpl_insert(*db, &t, &id);
	if (r == -REPO_ERR_CONFLICT) {
		fprintf(stderr, "mautoctl: an email template named '%s' "
		    "exists, or a section is named twice in --dynamic\n",
		    t.name);
		goto out;
	}
	if (r == -REPO_ERR_NOT_FOUND) {
		fprintf(stderr, "mautoctl: no such segmentation\n");
		goto out;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot store the template\n");
		goto out;
	}
	printf("%ld\n", (long)id);
	rc = fflush(stdout) == 0 ? 0 : 1;
	goto out;
usage:
	fprintf(stderr, "mautoctl: usage: " TEMPLATE_USAGE "\n");
out:
	tpl_outline_clear(&o);
	free(html);
	return rc;
}

static int
template_list(struct db **db, const struct config *cfg)
{
	struct arena a;
	struct repo_etpl *t;
	size_t n, i;
	int rc = 1;

	arena_init(&a);
	if (ctl_db_open(db, cfg) != 0)
		goto out;
	if (repo_etpl_list(*db, &a, &t, &n) != 0) {
		fprintf(stderr, "mautoctl: cannot read the templates\n");
		goto out;
	}
	printf("id\tfolder\tupdated\tname\n");
	for (i = 0; i < n; i++)
		printf("%ld\t%ld\t%s\t%s\n", (long)t[i].id,
		    (long)t[i].folder_id, t[i].updated_at,
		    t[i].name != NULL ? t[i].name : "");
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	arena_clear(&a);
	return rc;
}

/* An id argument (argv[2]) of a show or delete; -1 after the usage. */
static int
id_arg(int argc, char **argv, const char *usage, int32_t *id)
{
	int64_t v;

	if (argc != 3 || num_parse_i64(argv[2], 1, INT32_MAX, &v) != 0) {
		fprintf(stderr, "mautoctl: usage: %s\n", usage);
		return -1;
	}
	*id = (int32_t)v;
	return 0;
}

/*
 * template show ID: the outline, one line per declaration:
 * "section ID KIND NAME [module M]", "module ID NAME [uses V,...]",
 * "variable ID TYPE VALUE [module-scoped]", "container ID TAG",
 * "dynamic SECTION SEGMENTATION", tab-separated.
 */
static int
template_show(int argc, char **argv, struct db **db,
    const struct config *cfg)
{
	struct arena a;
	struct repo_etpl t;
	struct tpl_outline o;
	char msg[TPL_MSG_BYTES];
	int32_t id;
	size_t i, k;
	int r, rc = 1;

	arena_init(&a);
	memset(&o, 0, sizeof(o));
	if (id_arg(argc, argv, "template show ID", &id) != 0 ||
	    ctl_db_open(db, cfg) != 0)
		goto out;
	if ((r = repo_etpl_get(*db, &a, id, true, &t)) != 0) {
		fprintf(stderr, r == -REPO_ERR_NOT_FOUND ? "mautoctl: no "
		    "template %ld\n" : "mautoctl: cannot read template %ld\n",
		    (long)id);
		goto out;
	}
	if (tpl_parse(t.content, t.content_len, &o, msg) != 0) {
		fprintf(stderr, "mautoctl: template %ld: %s\n", (long)id,
		    msg);
		goto out;
	}
	printf("template\t%ld\t%ld\t%s\n", (long)t.id, (long)t.folder_id,
	    t.name);
	if (o.container_id != NULL)
		printf("container\t%s\t%s\n", o.container_id, o.container_tag);
	for (i = 0; i < o.nmodules; i++) {
		printf("module\t%s\t%s", o.modules[i].id, o.modules[i].name);
		for (k = 0; k < o.modules[i].nvars; k++)
			printf("%s%s", k == 0 ? "\tuses " : ",",
			    o.variables[o.modules[i].vars[k]].id);
		printf("\n");
	}
	for (i = 0; i < o.nsections; i++) {
		printf("section\t%s\t%s\t%s", o.sections[i].id,
		    tpl_section_kind_name(o.sections[i].kind),
		    o.sections[i].name);
		if (o.sections[i].module >= 0)
			printf("\tmodule %s",
			    o.modules[o.sections[i].module].id);
		printf("\n");
	}
	for (i = 0; i < o.nvariables; i++)
		printf("variable\t%s\t%s\t%s%s\n", o.variables[i].id,
		    tpl_var_type_name(o.variables[i].type),
		    o.variables[i].value,
		    o.variables[i].module_scope ? "\tmodule-scoped" : "");
	for (i = 0; i < t.ndynamic; i++)
		printf("dynamic\t%s\t%ld\n", t.dynamic[i].html_id,
		    (long)t.dynamic[i].segmentation_id);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	tpl_outline_clear(&o);
	arena_clear(&a);
	return rc;
}

/* Says what a delete's result r means; the exit status. */
static int
deleted(int r, const char *what, int32_t id)
{
	if (r == 0)
		return 0;
	if (r == -REPO_ERR_NOT_FOUND)
		fprintf(stderr, "mautoctl: no %s %ld\n", what, (long)id);
	else if (r == -REPO_ERR_CONFLICT)
		fprintf(stderr, "mautoctl: %s %ld is in use\n", what,
		    (long)id);
	else
		fprintf(stderr, "mautoctl: cannot delete %s %ld\n", what,
		    (long)id);
	return 1;
}

/* See ctl.h. */
int
ctl_template(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	int32_t id;
	int rc = 1;

	if (argc >= 2 && strcmp(argv[1], "create") == 0)
		rc = template_create(argc, argv, &db, cfg);
	else if (argc == 2 && strcmp(argv[1], "list") == 0)
		rc = template_list(&db, cfg);
	else if (argc >= 2 && strcmp(argv[1], "show") == 0)
		rc = template_show(argc, argv, &db, cfg);
	else if (argc >= 2 && strcmp(argv[1], "delete") == 0) {
		if (id_arg(argc, argv, "template delete ID", &id) == 0 &&
		    ctl_db_open(&db, cfg) == 0)
			rc = deleted(repo_etpl_delete(db, id), "template", id);
	} else
		fprintf(stderr, "mautoctl: usage: " TEMPLATE_USAGE "\n");
	db_close(db);
	return rc;
}

static int
segmentation_create(int argc, char **argv, struct db **db,
    const struct config *cfg)
{
	const char *name = NULL, *desc = NULL, *segs[MAX_SEGMENTS];
	size_t n = 0, i, k;
	int32_t id;
	int ai, r;

	for (ai = 2; ai < argc; ai++) {
		if (ai + 1 >= argc)
			goto usage;
		if (strcmp(argv[ai], "--name") == 0)
			name = argv[++ai];
		else if (strcmp(argv[ai], "--description") == 0)
			desc = argv[++ai];
		else if (strcmp(argv[ai], "--segment") == 0) {
			if (n + 1 >= MAX_SEGMENTS) {
				fprintf(stderr, "mautoctl: at most %d "
				    "segments besides Default\n",
				    MAX_SEGMENTS - 1);
				return 1;
			}
			segs[n++] = argv[++ai];
		} else
			goto usage;
	}
	if (name == NULL || n == 0)
		goto usage;
	if (check_names(name, desc) != 0)
		return 1;
	for (i = 0; i < n; i++) {
		if (!ctl_good_text(segs[i], ASSET_NAME_CHARS) ||
		    strcmp(segs[i], SEGMENT_DEFAULT) == 0) {
			fprintf(stderr, "mautoctl: a segment name is 1 to %d "
			    "printable bytes, and not '%s' (every "
			    "segmentation has it)\n", ASSET_NAME_CHARS,
			    SEGMENT_DEFAULT);
			return 1;
		}
		for (k = 0; k < i; k++)
			if (strcmp(segs[k], segs[i]) == 0) {
				fprintf(stderr, "mautoctl: segment '%s' is "
				    "named twice\n", segs[i]);
				return 1;
			}
	}
	if (ctl_db_open(db, cfg) != 0)
		return 1;
	r = repo_seg_insert(*db, name, desc, segs, n, &id);
	if (r == -REPO_ERR_CONFLICT) {
		fprintf(stderr, "mautoctl: a segmentation named '%s' "
		    "exists\n", name);
		return 1;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot store the segmentation\n");
		return 1;
	}
	printf("%ld\n", (long)id);
	return fflush(stdout) == 0 ? 0 : 1;
usage:
	fprintf(stderr, "mautoctl: usage: " SEGMENTATION_USAGE "\n");
	return 1;
}

static int
segmentation_list(struct db **db, const struct config *cfg)
{
	struct arena a;
	struct repo_seg *s;
	size_t n, i, k;
	int rc = 1;

	arena_init(&a);
	if (ctl_db_open(db, cfg) != 0)
		goto out;
	if (repo_seg_list(*db, &a, &s, &n) != 0) {
		fprintf(stderr, "mautoctl: cannot read the segmentations\n");
		goto out;
	}
	printf("id\tstatus\tname\tsegments\n");
	for (i = 0; i < n; i++) {
		printf("%ld\t%s\t%s\t", (long)s[i].id,
		    s[i].status != NULL ? s[i].status : "",
		    s[i].name != NULL ? s[i].name : "");
		for (k = 0; k < s[i].nsegments; k++)
			printf("%s%ld:%s", k == 0 ? "" : ",",
			    (long)s[i].segments[k].id,
			    s[i].segments[k].name != NULL ?
			    s[i].segments[k].name : "");
		printf("\n");
	}
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	arena_clear(&a);
	return rc;
}

/* See ctl.h. */
int
ctl_segmentation(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	int32_t id;
	int rc = 1;

	if (argc >= 2 && strcmp(argv[1], "create") == 0)
		rc = segmentation_create(argc, argv, &db, cfg);
	else if (argc == 2 && strcmp(argv[1], "list") == 0)
		rc = segmentation_list(&db, cfg);
	else if (argc >= 2 && strcmp(argv[1], "delete") == 0) {
		if (id_arg(argc, argv, "segmentation delete ID", &id) == 0 &&
		    ctl_db_open(&db, cfg) == 0)
			rc = deleted(repo_seg_delete(db, id), "segmentation",
			    id);
	} else
		fprintf(stderr, "mautoctl: usage: " SEGMENTATION_USAGE "\n");
	db_close(db);
	return rc;
}

static int
snippet_create(int argc, char **argv, struct db **db,
    const struct config *cfg)
{
	struct repo_snippet_new s = { .name = NULL, .text = "" };
	const char *file = NULL;
	char *html = NULL, msg[TPL_MSG_BYTES];
	size_t len;
	int32_t id;
	int ai, r, rc = 1;

	for (ai = 2; ai < argc; ai++) {
		if (ai + 1 >= argc)
			goto usage;
		if (strcmp(argv[ai], "--name") == 0)
			s.name = argv[++ai];
		else if (strcmp(argv[ai], "--description") == 0)
			s.description = argv[++ai];
		else if (strcmp(argv[ai], "--file") == 0)
			file = argv[++ai];
		else if (strcmp(argv[ai], "--text") == 0)
			s.text = argv[++ai];
		else
			goto usage;
	}
	if (s.name == NULL || file == NULL)
		goto usage;
	if (check_names(s.name, s.description) != 0 ||
	    read_file(file, &html, &len) != 0)
		goto out;
	if (tpl_check_snippet(html, len, msg) != 0) {
		fprintf(stderr, "mautoctl: invalid snippet: %s\n", msg);
		goto out;
	}
	if (ctl_db_open(db, cfg) != 0)
		goto out;
	s.content = html;
	s.content_len = len;
	s.text_len = strlen(s.text);
	r = repo_snippet_insert(*db, &s, &id);
	if (r == -REPO_ERR_CONFLICT) {
		fprintf(stderr, "mautoctl: a snippet named '%s' exists\n",
		    s.name);
		goto out;
	}
	if (r != 0) {
		fprintf(stderr, "mautoctl: cannot store the snippet\n");
		goto out;
	}
	printf("%ld\n", (long)id);
	rc = fflush(stdout) == 0 ? 0 : 1;
	goto out;
usage:
	fprintf(stderr, "mautoctl: usage: " SNIPPET_USAGE "\n");
out:
	free(html);
	return rc;
}

static int
snippet_list(struct db **db, const struct config *cfg)
{
	struct arena a;
	struct repo_snippet *s;
	size_t n, i;
	int rc = 1;

	arena_init(&a);
	if (ctl_db_open(db, cfg) != 0)
		goto out;
	if (repo_snippet_list(*db, &a, &s, &n) != 0) {
		fprintf(stderr, "mautoctl: cannot read the snippets\n");
		goto out;
	}
	printf("id\tstatus\tupdated\tname\n");
	for (i = 0; i < n; i++)
		printf("%ld\t%s\t%s\t%s\n", (long)s[i].id,
		    s[i].status != NULL ? s[i].status : "", s[i].updated_at,
		    s[i].name != NULL ? s[i].name : "");
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	arena_clear(&a);
	return rc;
}

/* See ctl.h. */
int
ctl_snippet(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	int32_t id;
	int rc = 1;

	if (argc >= 2 && strcmp(argv[1], "create") == 0)
		rc = snippet_create(argc, argv, &db, cfg);
	else if (argc == 2 && strcmp(argv[1], "list") == 0)
		rc = snippet_list(&db, cfg);
	else if (argc >= 2 && strcmp(argv[1], "delete") == 0) {
		if (id_arg(argc, argv, "snippet delete ID", &id) == 0 &&
		    ctl_db_open(&db, cfg) == 0)
			rc = deleted(repo_snippet_delete(db, id), "snippet",
			    id);
	} else
		fprintf(stderr, "mautoctl: usage: " SNIPPET_USAGE "\n");
	db_close(db);
	return rc;
}

#define DEMO_SEGMENTATION	"Demo-Language"
#define DEMO_EMAIL_TEMPLATE	"Demo-Email-Template"
/* The Email Templates root (migration 0010). */
#define EMAIL_TEMPLATE_ROOT	3

static const char *const demo_segments[] = { "English", "French" };

/*
 * The demo template: two rich text sections (intro, made dynamic by the
 * demo segmentation, and signature), an image, three modules in a
 * container (one with its own text, one with a button whose label is a
 * module-scoped variable, one with a snippet), and string, color,
 * boolean, number and list variables used in the HTML.
 */
static const char demo_template[] =
    "<!DOCTYPE html>\n"
    "<html>\n"
    "<head>\n"
    "<meta charset=\"utf-8\">\n"
    "<title>${headline}</title>\n"
    "<meta class=\"mktoString\" id=\"headline\" mktoName=\"Headline\" "
    "default=\"Welcome to the demo\">\n"
    "<meta class=\"mktoColor\" id=\"accentColor\" mktoName=\"Accent color\" "
    "default=\"#336699\">\n"
    "<meta class=\"mktoBoolean\" id=\"showFooter\" mktoName=\"Show footer\" "
    "default=\"true\" true_value=\"block\" false_value=\"none\">\n"
    "<meta class=\"mktoNumber\" id=\"fontSize\" mktoName=\"Font size\" "
    "default=\"16\" min=\"10\" max=\"24\" units=\"px\">\n"
    "<meta class=\"mktoList\" id=\"fontFamily\" mktoName=\"Font\" "
    "values=\"Arial,Georgia,Verdana\" default=\"Arial\">\n"
    "<meta class=\"mktoString\" id=\"buttonLabel\" mktoName=\"Button label\" "
    "default=\"Read more\" mktoModuleScope=\"true\">\n"
    "</head>\n"
    "<body style=\"font-family:${fontFamily};font-size:${fontSize}px\">\n"
    "<h1 style=\"color:${accentColor}\">${headline}</h1>\n"
    "<div class=\"mktoText\" id=\"intro\" mktoName=\"Introduction\">"
    "<p>Hello {{lead.First Name:default=there}},</p></div>\n"
    "<div class=\"mktoImg\" id=\"heroImage\" mktoName=\"Hero image\" "
    "mktoImgSrc=\"https://www.example.com/hero.png\"><img alt=\"Hero\">"
    "</div>\n"
    "<table class=\"mktoContainer\" id=\"modules\">\n"
    "<tr class=\"mktoModule\" id=\"textBlock\" mktoName=\"Text block\"><td>"
    "<div class=\"mktoText\" id=\"textBlockBody\" mktoName=\"Text\">"
    "<p>Some news for you.</p></div></td></tr>\n"
    "<tr class=\"mktoModule\" id=\"callToAction\" mktoName=\"Call to "
    "action\"><td><a href=\"https://www.example.com/\" "
    "style=\"background:${accentColor}\">${buttonLabel}</a></td></tr>\n"
    "<tr class=\"mktoModule\" id=\"footerBlock\" mktoName=\"Footer\">"
    "<td style=\"display:${showFooter}\"><div class=\"mktoSnippet\" "
    "id=\"footerSnippet\" mktoName=\"Footer snippet\"></div></td></tr>\n"
    "</table>\n"
    "<div class=\"mktoText\" id=\"signature\" mktoName=\"Signature\">"
    "<p>The demo team</p></div>\n"
    "</body>\n"
    "</html>\n";

static int
demo_segmentation(struct db *db, int32_t *id)
{
	int r;

	if ((r = repo_seg_get_id_by_name(db, DEMO_SEGMENTATION, id)) !=
	    -REPO_ERR_NOT_FOUND)
		return r;
	r = repo_seg_insert(db, DEMO_SEGMENTATION, NULL, demo_segments,
	    sizeof(demo_segments) / sizeof(demo_segments[0]), id);
	/* Another seed-demo created it first. */
	if (r == -REPO_ERR_CONFLICT)
		r = repo_seg_get_id_by_name(db, DEMO_SEGMENTATION, id);
	return r;
}

/* See ctl.h. */
int
ctl_demo_email(struct db *db, int32_t *segmentation,
    int32_t *email_template)
{
	struct repo_etpl_dynamic dyn = { .html_id = "intro" };
	struct repo_etpl_new t = {
		.name = DEMO_EMAIL_TEMPLATE,
		.description = "The demo set's email template",
		.folder_id = EMAIL_TEMPLATE_ROOT,
		.content = demo_template,
		.len = sizeof(demo_template) - 1,
		.dynamic = &dyn,
		.ndynamic = 1,
	};
	int r;

	if ((r = demo_segmentation(db, segmentation)) != 0)
		return r;
	if ((r = repo_etpl_get_id_by_name(db, DEMO_EMAIL_TEMPLATE,
	    email_template)) != -REPO_ERR_NOT_FOUND)
		return r;
	dyn.segmentation_id = *segmentation;
	r = repo_etpl_insert(db, &t, email_template);
	if (r == -REPO_ERR_CONFLICT)
		r = repo_etpl_get_id_by_name(db, DEMO_EMAIL_TEMPLATE,
		    email_template);
	return r;
}
