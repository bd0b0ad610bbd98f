/*
 * The asset handlers' shared answers (src/api/api_asset.c): the one
 * name-taken check, the 702 message and the change-error mapper, the
 * answer to a write whose parent row was deleted while it ran, the one
 * url builder of the hosted service's user interface, and the one browse
 * query.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "api/api_asset.h"
#include "err.h"
#include "http/response.h"
#include "http/validate.h"
#include "repo/repo.h"
#include "repo/repo_folders.h"
#include "util/buf.h"
#include "util/config.h"

#include "apitest.h"

static struct config cfg;

static char app_url[] = "https://app.example.com";

static int
setup(void **state)
{
	apitest_setup(state);
	memset(&cfg, 0, sizeof(cfg));
	apitest_app.cfg = &cfg;
	return 0;
}

/* 709, the name quoted, " in this folder" only where names are per folder. */
static void
test_name_taken(void **state)
{
	char lng[160];

	(void)state;
	assert_int_equal(api_asset_name_taken(&apitest_call, &apitest_resp,
	    "Email", "Welcome", true), -API_ERR_RULE);
	assert_string_equal(apitest_resp.err_msg, "Email name 'Welcome' is "
	    "already in use in this folder");
	apitest_again();
	assert_int_equal(api_asset_name_taken(&apitest_call, &apitest_resp,
	    "Smart list", "All leads", false), -API_ERR_RULE);
	assert_string_equal(apitest_resp.err_msg, "Smart list name 'All "
	    "leads' is already in use");
	/* The echo policy: 100 bytes, then "...". */
	apitest_again();
	memset(lng, 'n', sizeof(lng) - 1);
	lng[sizeof(lng) - 1] = '\0';
	assert_int_equal(api_asset_name_taken(&apitest_call, &apitest_resp,
	    "Smart campaign", lng, false), -API_ERR_RULE);
	assert_non_null(strstr(apitest_resp.err_msg, "nnn...' is already"));
	assert_int_equal(strlen(apitest_resp.err_msg),
	    strlen("Smart campaign name '' is already in use") + 100 + 3);
}

static void
test_not_found(void **state)
{
	(void)state;
	assert_string_equal(api_asset_not_found_msg(&apitest_call,
	    "Landing page template", 286),
	    "286 Landing page template not found");
	assert_int_equal(api_asset_not_found(&apitest_call, &apitest_resp,
	    "Smart list", 12), -API_ERR_NO_DATA);
	assert_string_equal(apitest_resp.err_msg, "12 Smart list not found");
}

/* 702 with the caller's message, 709 with the repository's, else its code. */
static void
test_change_err(void **state)
{
	(void)state;
	assert_int_equal(api_asset_change_err(&apitest_call, &apitest_resp,
	    -REPO_ERR_NOT_FOUND, "ignored", "7 Email not found"),
	    -API_ERR_NO_DATA);
	assert_string_equal(apitest_resp.err_msg, "7 Email not found");
	apitest_again();
	assert_int_equal(api_asset_change_err(&apitest_call, &apitest_resp,
	    -REPO_ERR_INVALID, "Cannot approve: no subject", "x"),
	    -API_ERR_RULE);
	assert_string_equal(apitest_resp.err_msg,
	    "Cannot approve: no subject");
	apitest_again();
	assert_int_equal(api_asset_change_err(&apitest_call, &apitest_resp,
	    -REPO_ERR_INVALID, "", "x"), err_from_repo(-REPO_ERR_INVALID));
	apitest_again();
	assert_int_equal(api_asset_change_err(&apitest_call, &apitest_resp,
	    -REPO_ERR_INVALID, NULL, "x"), err_from_repo(-REPO_ERR_INVALID));
	apitest_again();
	assert_int_equal(api_asset_change_err(&apitest_call, &apitest_resp,
	    -REPO_ERR_CONFLICT, "m", "x"), err_from_repo(-REPO_ERR_CONFLICT));
}

/*
 * A write that named a row deleted while it ran (-REPO_ERR_GONE, MariaDB
 * 1452) is a refusal: 710 when the place is gone since (as a write a
 * moment later would hear), else 709 naming what was deleted; never the
 * 611 of an internal error.
 */
static void
test_gone(void **state)
{
	struct folder_ref ref = { .type = FOLDER_T_FOLDER, .id = 41 };

	(void)state;
	assert_int_equal(err_from_repo(-REPO_ERR_GONE), -API_ERR_RULE);
	apitest_place.err = -REPO_ERR_NOT_FOUND;
	assert_int_equal(api_asset_gone(&apitest_call, &apitest_resp, &ref,
	    AK_EMAIL, "The email's template"), -API_ERR_NO_PARENT);
	assert_int_equal(apitest_place.asked, 41);
	apitest_again();
	apitest_place.err = 0;
	apitest_place.kind = FK_EMAIL;
	assert_int_equal(api_asset_gone(&apitest_call, &apitest_resp, &ref,
	    AK_EMAIL, "The email's template"), -API_ERR_RULE);
	assert_string_equal(apitest_resp.err_msg, "The email's template was "
	    "deleted while the request ran");
	apitest_again();
	assert_int_equal(api_asset_gone(&apitest_call, &apitest_resp, &ref,
	    AK_EMAIL, NULL), -API_ERR_RULE);
	assert_string_equal(apitest_resp.err_msg, "A record the request "
	    "refers to was deleted while the request ran");
}

/* app_url (or http://localhost), "/#", code, id, tail; JSON as the envelope. */
static void
test_url(void **state)
{
	char url[64], tiny[12];
	struct json_object *o;
	struct buf b;
	const char *j;

	(void)state;
	assert_string_equal(api_asset_url(&apitest_call, "EM", 12, "A1LA1",
	    url, sizeof(url)), "http://localhost/#EM12A1LA1");
	cfg.app_url = app_url;
	assert_string_equal(api_asset_url(&apitest_call, "SC", 1001, "A1",
	    url, sizeof(url)), "https://app.example.com/#SC1001A1");
	/* Cut to fit, never past the buffer. */
	assert_string_equal(api_asset_url(&apitest_call, "SC", 1001, "A1",
	    tiny, sizeof(tiny)), "https://app");
	o = api_asset_url_json(&apitest_call, "LT", 286);
	assert_string_equal(json_object_get_string(o),
	    "https://app.example.com/#LT286B2");
	buf_init(&b, 1024);
	api_asset_url_write(&b, &apitest_call, "LT", 286, "B2");
	/* The bytes the envelope writes of the json-c string. */
	j = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE);
	assert_int_equal(b.len, strlen(j));
	assert_memory_equal(b.data, j, b.len);
	buf_clear(&b);
	json_object_put(o);
}

/* maxReturn, offset and the folder with its place, checked for the kind. */
static void
test_browse_query(void **state)
{
	struct vvalue none = { .present = false };
	struct vvalue max = { .present = true, .i = 50 };
	struct vvalue off = { .present = true, .i = 100 };
	struct vvalue folder = { .present = true,
	    .s = "{\"id\":12,\"type\":\"Folder\"}" };
	struct vvalue bad = { .present = true, .s = "twelve" };
	struct api_asset_browse b;

	(void)state;
	assert_int_equal(api_asset_browse_query(&apitest_call, &apitest_resp,
	    AK_SMART_LIST, &none, &none, &none, &b), 0);
	assert_int_equal(b.limit, ASSET_MAX_RETURN_DEFAULT);
	assert_int_equal(b.offset, 0);
	assert_false(b.has_folder);
	assert_int_equal(b.folder.id, 0);
	assert_int_equal(apitest_place.asked, 0);
	apitest_place.kind = FK_SMART_LIST;
	assert_int_equal(api_asset_browse_query(&apitest_call, &apitest_resp,
	    AK_SMART_LIST, &max, &off, &folder, &b), 0);
	assert_int_equal(b.limit, 50);
	assert_int_equal(b.offset, 100);
	assert_true(b.has_folder);
	assert_int_equal(b.folder.id, 12);
	assert_int_equal(b.folder.type, FOLDER_T_FOLDER);
	assert_int_equal(b.place.gen, 7);
	assert_int_equal(apitest_place.asked, 12);
	/* The folder's answers: 1001, 710, 711. */
	assert_int_equal(api_asset_browse_query(&apitest_call, &apitest_resp,
	    AK_SMART_LIST, &none, &none, &bad, &b), -API_ERR_INVALID_VALUE);
	apitest_again();
	apitest_place.err = -REPO_ERR_NOT_FOUND;
	assert_int_equal(api_asset_browse_query(&apitest_call, &apitest_resp,
	    AK_SMART_LIST, &none, &none, &folder, &b), -API_ERR_NO_PARENT);
	apitest_place.err = 0;
	apitest_place.kind = FK_EMAIL;
	assert_int_equal(api_asset_browse_query(&apitest_call, &apitest_resp,
	    AK_SMART_LIST, &none, &none, &folder, &b), -API_ERR_FOLDER_TYPE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_name_taken, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_not_found, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_change_err, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_gone, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_url, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_browse_query, setup,
		    apitest_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
