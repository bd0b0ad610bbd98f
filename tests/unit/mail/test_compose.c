/*
 * Token filling of mail/compose.c without a database: My Tokens from the
 * overrides (names as a campaign request sends them) before those in
 * effect at the place, exact names, an unknown one kept or blank, lead
 * tokens after My Tokens (so one a My Token's value holds is filled),
 * and the headers a message takes from a version.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mail/compose.h"
#include "mail/message.h"
#include "model/email_render.h"
#include "model/leadfield.h"
#include "repo/repo_emails.h"
#include "repo/repo_tokens.h"

static struct lead_field fields[] = {
	{ .name = (char *)"firstName", .display_name = (char *)"First Name" },
	{ .name = (char *)"email", .display_name = (char *)"Email Address" },
};
static struct lead_schema schema = { .fields = fields, .count = 2 };
static const char *vals[] = { "Ana", "ana@example.com" };
static struct email_lead lead = { .s = &schema, .vals = vals };
static const char *const names[] = { "{{my.Greeting}}", "my.Offer" };
static const char *const values[] = { "Hola", "10% off" };
static struct repo_token my[] = {
	{ .name = "Greeting", .value = "Hello" },
	{ .name = "Place", .value = "Lisbon, {{lead.First Name}}" },
	{ .name = "Empty", .value = "" },
};

static struct compose_tokens
tokens(bool blank)
{
	struct compose_tokens tk;

	memset(&tk, 0, sizeof(tk));
	tk.lead = &lead;
	tk.names = names;
	tk.values = values;
	tk.n = 2;
	tk.my = my;
	tk.nmy = 3;
	tk.unknown_blank = blank;
	return tk;
}

/* Fills s with tk and checks the result is want (NULL: nothing filled). */
static void
fills(const struct compose_tokens *tk, const char *s, const char *want)
{
	char *got = compose_fill(s, tk);

	if (want == NULL)
		assert_null(got);
	else
		assert_string_equal(got, want);
	free(got);
}

static void
test_overrides_win(void **state)
{
	struct compose_tokens tk = tokens(false);

	(void)state;
	fills(&tk, "{{my.Greeting}} {{my.Offer}}", "Hola 10% off");
	tk.n = 0;
	fills(&tk, "{{my.Greeting}} {{my.Offer}}", "Hello {{my.Offer}}");
}

static void
test_place_and_lead(void **state)
{
	struct compose_tokens tk = tokens(false);

	(void)state;
	/* A lead token a My Token's value holds is filled too. */
	fills(&tk, "At {{my.Place}}!", "At Lisbon, Ana!");
	fills(&tk, "Hi {{lead.First Name}}", "Hi Ana");
	fills(&tk, "[{{my.Empty}}]", "[]");
	fills(&tk, "no tokens here", NULL);
}

static void
test_names_exact(void **state)
{
	struct compose_tokens tk = tokens(false);
	bool known;

	(void)state;
	assert_string_equal(compose_my_value("Greeting", &tk, &known), "Hola");
	assert_true(known);
	assert_null(compose_my_value("greeting", &tk, &known));
	assert_false(known);
	fills(&tk, "{{my.greeting}}", NULL);
}

static void
test_unknown(void **state)
{
	struct compose_tokens tk = tokens(false);

	(void)state;
	fills(&tk, "a {{my.Nope}} b {{my.Greeting}}", "a {{my.Nope}} b Hola");
	tk = tokens(true);
	fills(&tk, "a {{my.Nope}} b {{my.Greeting}}", "a  b Hola");
	/* Without a lead, lead tokens stay. */
	tk.lead = NULL;
	fills(&tk, "{{lead.First Name}} {{my.Offer}}",
	    "{{lead.First Name}} 10% off");
}

static void
test_headers(void **state)
{
	struct compose_tokens tk = tokens(true);
	struct repo_email e;
	struct mail_message m;
	char *own[2];

	(void)state;
	memset(&e, 0, sizeof(e));
	memset(&m, 0, sizeof(m));
	e.hdr[EMAIL_HDR_SUBJECT].type = "Text";
	e.hdr[EMAIL_HDR_SUBJECT].value = "{{my.Greeting}}, {{lead.First Name}}";
	e.hdr[EMAIL_HDR_FROM_NAME].type = "Text";
	e.hdr[EMAIL_HDR_FROM_NAME].value = "Team";
	e.hdr[EMAIL_HDR_FROM_EMAIL].type = "Dynamic Content";
	e.hdr[EMAIL_HDR_FROM_EMAIL].value = "12";
	e.hdr[EMAIL_HDR_REPLY_EMAIL].type = "Text";
	e.hdr[EMAIL_HDR_REPLY_EMAIL].value = "r@example.com";
	compose_headers(&e, &tk, &m, own);
	assert_string_equal(m.subject, "Hola, Ana");
	assert_ptr_equal(m.subject, own[0]);
	assert_string_equal(m.from_name, "Team");
	assert_null(own[1]);
	/* A header set to dynamic content is taken as unset. */
	assert_null(m.from);
	assert_string_equal(m.reply_to, "r@example.com");
	free(own[0]);
	free(own[1]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overrides_win),
		cmocka_unit_test(test_place_and_lead),
		cmocka_unit_test(test_names_exact),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_headers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
