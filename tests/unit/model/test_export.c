/*
 * The export model (export/export.c) and the file writer
 * (export/csv.c): names, ids, paths, and the bytes, count and checksum
 * of delimited files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>

#include "export/csv.h"
#include "model/export.h"
#include "util/timeutil.h"

static void
test_status_names(void **state)
{
	enum export_status s;
	int i;

	(void)state;
	for (i = 0; i < EXPORT_STATUS__MAX; i++) {
		assert_int_equal(export_status_parse(export_status_name(
		    (enum export_status)i), false, &s), 0);
		assert_int_equal(s, i);
	}
	assert_string_equal(export_status_name(EXPORT_CANCELLED), "Cancelled");
	/* The filter takes any case and the swagger's spelling. */
	assert_int_equal(export_status_parse("canceled", true, &s), 0);
	assert_int_equal(s, EXPORT_CANCELLED);
	assert_int_equal(export_status_parse("COMPLETED", true, &s), 0);
	assert_int_equal(s, EXPORT_COMPLETED);
	/* The database's text is exact. */
	assert_int_equal(export_status_parse("completed", false, &s), -1);
	assert_int_equal(export_status_parse("Canceled", false, &s), -1);
	assert_int_equal(export_status_parse("Done", true, &s), -1);
	assert_true(export_status_is_final(EXPORT_COMPLETED));
	assert_true(export_status_is_final(EXPORT_FAILED));
	assert_true(export_status_is_final(EXPORT_CANCELLED));
	assert_false(export_status_is_final(EXPORT_PROCESSING));
	assert_false(export_status_is_final(EXPORT_QUEUED));
	assert_false(export_status_is_final(EXPORT_CREATED));
}

static void
test_formats(void **state)
{
	enum export_format f;

	(void)state;
	assert_int_equal(export_format_parse("csv", &f), 0);
	assert_int_equal(f, EXPORT_CSV);
	assert_int_equal(export_format_parse("TSV", &f), 0);
	assert_int_equal(export_format_delim(f), '\t');
	assert_int_equal(export_format_parse("Ssv", &f), 0);
	assert_int_equal(export_format_delim(f), ';');
	assert_string_equal(export_format_name(f), "SSV");
	assert_int_equal(export_format_parse("XLS", &f), -1);
	assert_int_equal(export_format_parse("", &f), -1);
	assert_non_null(strstr(export_format_ctype(EXPORT_CSV), "text/csv"));
	assert_non_null(strstr(export_format_ctype(EXPORT_TSV),
	    "text/plain"));
}

static void
test_ids_paths_times(void **state)
{
	char path[128], iso[TIME_ISO_BYTES];
	enum export_filter fl;

	(void)state;
	assert_true(export_id_valid("f2c03f1d-226f-47c1-a557-357af8c2b32a"));
	assert_false(export_id_valid("F2C03F1D-226F-47C1-A557-357AF8C2B32A"));
	assert_false(export_id_valid("f2c03f1d-226f-47c1-a557-357af8c2b32"));
	assert_false(export_id_valid("f2c03f1d-226f-47c1-a557-357af8c2b32aa"));
	assert_false(export_id_valid("f2c03f1d+226f-47c1-a557-357af8c2b32a"));
	assert_false(export_id_valid("../../../../etc/passwd-0000000000000"));
	assert_int_equal(export_file_path(path, sizeof(path), "/x",
	    "f2c03f1d-226f-47c1-a557-357af8c2b32a", 2, EXPORT_SSV), 0);
	assert_string_equal(path,
	    "/x/f2c03f1d-226f-47c1-a557-357af8c2b32a-2.ssv");
	assert_int_equal(export_file_path(path, 20, "/x",
	    "f2c03f1d-226f-47c1-a557-357af8c2b32a", 2, EXPORT_SSV), -1);
	assert_string_equal(time_iso_from_db("2021-05-05 20:12:01.123456",
	    iso), "2021-05-05T20:12:01Z");
	assert_int_equal(export_filter_parse("staticList", &fl), 0);
	assert_int_equal(fl, EXPORT_FILTER_STATIC_LIST);
	assert_int_equal(export_filter_parse("smartList", &fl), -1);
}

/* Writes rows through a writer into a temporary file; returns its text. */
static char *
write_rows(char delim, const char *const *cells, size_t ncols, size_t nrows,
    struct csv_writer *w, char checksum[EXPORT_CHECKSUM_LEN + 1], int *rc)
{
	char tmpl[] = "/tmp/mauto-test-csv-XXXXXX", *text;
	long size;
	size_t i, j;
	FILE *fp;
	int fd;

	fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	csv_writer_init(w, fd, delim);
	for (i = 0; i < nrows; i++) {
		for (j = 0; j < ncols; j++) {
			const char *v = cells[i * ncols + j];

			csv_field(w, v, v != NULL ? strlen(v) : 0);
		}
		csv_row_end(w);
	}
	*rc = csv_writer_finish(w, checksum);
	(void)close(fd);
	fp = fopen(tmpl, "rb");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	size = ftell(fp);
	rewind(fp);
	text = calloc(1, (size_t)size + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)size, fp), (size_t)size);
	(void)fclose(fp);
	(void)unlink(tmpl);
	return text;
}

/* "sha256:" and the hex SHA-256 of text. */
static void
sha_of(const char *text, char out[EXPORT_CHECKSUM_LEN + 1])
{
	unsigned char md[crypto_hash_sha256_BYTES];

	crypto_hash_sha256(md, (const unsigned char *)text, strlen(text));
	memcpy(out, "sha256:", 7);
	sodium_bin2hex(out + 7, EXPORT_CHECKSUM_LEN + 1 - 7, md, sizeof(md));
}

static void
test_csv_quoting(void **state)
{
	static const char *const cells[] = {
		"a", "b c", "d",
		"x,y", "say \"hi\"", NULL,
		"", "null", "line\nbreak",
		"semi;colon", "tab\there", "cr\rx",
	};
	struct csv_writer *w = malloc(sizeof(*w));
	char sum[EXPORT_CHECKSUM_LEN + 1], want[EXPORT_CHECKSUM_LEN + 1];
	char *text;
	int rc;

	(void)state;
	assert_non_null(w);
	text = write_rows(',', cells, 3, 4, w, sum, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(text,
	    "a,b c,d\n"
	    "\"x,y\",\"say \"\"hi\"\"\",null\n"
	    "null,\"null\",\"line\nbreak\"\n"
	    "semi;colon,tab\there,\"cr\rx\"\n");
	assert_int_equal(w->rows, 4);
	assert_int_equal(w->bytes, (int64_t)strlen(text));
	sha_of(text, want);
	assert_string_equal(sum, want);
	free(text);
	/* SSV quotes the semicolon, TSV the tab; commas are plain there. */
	text = write_rows(';', cells + 9, 3, 1, w, sum, &rc);
	assert_string_equal(text, "\"semi;colon\";tab\there;\"cr\rx\"\n");
	free(text);
	text = write_rows('\t', cells + 9, 3, 1, w, sum, &rc);
	assert_string_equal(text, "semi;colon\t\"tab\there\"\t\"cr\rx\"\n");
	free(text);
	text = write_rows('\t', cells + 3, 3, 1, w, sum, &rc);
	assert_string_equal(text, "x,y\t\"say \"\"hi\"\"\"\tnull\n");
	free(text);
	free(w);
}

/* Far more than one buffer: counts and checksum still match the file. */
static void
test_csv_large(void **state)
{
	enum { NROWS = 20000, NCOLS = 3 };
	const char **cells;
	struct csv_writer *w = malloc(sizeof(*w));
	char sum[EXPORT_CHECKSUM_LEN + 1], want[EXPORT_CHECKSUM_LEN + 1];
	char *text;
	size_t i;
	int rc;

	(void)state;
	assert_non_null(w);
	cells = calloc(NROWS * NCOLS, sizeof(*cells));
	assert_non_null(cells);
	for (i = 0; i < NROWS * NCOLS; i++)
		cells[i] = i % 3 == 0 ? "a \"quoted\", value" :
		    i % 3 == 1 ? "12345.678" : NULL;
	text = write_rows(',', cells, NCOLS, NROWS, w, sum, &rc);
	assert_int_equal(rc, 0);
	assert_true(strlen(text) > 4 * EXPORT_IO_BYTES);
	assert_int_equal(w->bytes, (int64_t)strlen(text));
	assert_int_equal(w->rows, NROWS);
	sha_of(text, want);
	assert_string_equal(sum, want);
	free(text);
	free(cells);
	free(w);
}

/* A failed write is reported by finish, not lost. */
static void
test_csv_write_error(void **state)
{
	struct csv_writer *w = malloc(sizeof(*w));
	char sum[EXPORT_CHECKSUM_LEN + 1];
	int fds[2];

	(void)state;
	assert_non_null(w);
	assert_int_equal(pipe(fds), 0);
	(void)close(fds[1]);
	/* The read end cannot be written: EBADF. */
	csv_writer_init(w, fds[0], ',');
	csv_field(w, "x", 1);
	csv_row_end(w);
	assert_int_equal(csv_writer_finish(w, sum), -1);
	assert_int_not_equal(w->err, 0);
	(void)close(fds[0]);
	free(w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_names),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_ids_paths_times),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_csv_large),
		cmocka_unit_test(test_csv_write_error),
	};

	if (sodium_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
