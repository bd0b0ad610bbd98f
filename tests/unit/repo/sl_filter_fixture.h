/*
 * The lead schema and custom object catalogue the filter compiler's unit
 * tests (test_sl_filter.c) and fuzzer (tests/fuzz/fuzz_slfilter.c) compile
 * against: a field of every family of data type, one with a name that
 * cannot be quoted, a custom object type linked to leads and one that is
 * not.  Definitions, for one translation unit each.
 */
#ifndef MAUTO_TESTS_SL_FILTER_FIXTURE_H
#define MAUTO_TESTS_SL_FILTER_FIXTURE_H

#include "model/leadfield.h"
#include "repo/repo_sl_filter.h"

static char n_company[] = "company", n_size[] = "numberOfEmployees",
    n_partner[] = "mktoIsPartner", n_birth[] = "dateOfBirth",
    n_seen[] = "lastSeen", n_email[] = "email", n_bad[] = "a`b";
static char d_company[] = "Company Name", d_size[] = "Employees",
    d_partner[] = "Is Partner", d_birth[] = "Date of Birth",
    d_seen[] = "Last Seen", d_email[] = "Email Address", d_bad[] = "Bad";

/* The fields by attr_id, as lead_schema_index leaves them. */
static struct lead_field fields[] = {
	{ .name = n_company, .attr_id = 4, .display_name = d_company,
	  .type = LF_STRING },
	{ .name = n_size, .attr_id = 20, .display_name = d_size,
	  .type = LF_INTEGER },
	{ .name = n_partner, .attr_id = 30, .display_name = d_partner,
	  .type = LF_BOOLEAN },
	{ .name = n_email, .attr_id = 48, .display_name = d_email,
	  .type = LF_EMAIL },
	{ .name = n_birth, .attr_id = 60, .display_name = d_birth,
	  .type = LF_DATE },
	{ .name = n_seen, .attr_id = 61, .display_name = d_seen,
	  .type = LF_DATETIME },
	{ .name = n_bad, .attr_id = 99, .display_name = d_bad,
	  .type = LF_STRING },
};
static const struct lead_schema schema = { .fields = fields, .count = 7 };

/* Type 3 links leads by email; type 5 links another type only. */
static const struct slf_co_field co_fields[] = {
	{ .type_id = 3, .ref_id = 11, .name = "vin", .data_type = "string" },
	{ .type_id = 3, .ref_id = 12, .name = "price",
	  .data_type = "float" },
	{ .type_id = 3, .ref_id = 13, .name = "owner", .data_type = "link",
	  .related_object = "lead", .related_field = "email" },
	{ .type_id = 3, .ref_id = 14, .name = "sold", .data_type = "date" },
	{ .type_id = 5, .ref_id = 21, .name = "car", .data_type = "link",
	  .related_object = "car_c", .related_field = "vin" },
};
static const struct slf_co co = { .fields = co_fields, .n = 5 };

#endif
