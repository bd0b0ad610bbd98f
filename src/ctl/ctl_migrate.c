/*
 * mautoctl migrate: applies db/migrations/NNNN_<what>.sql in order.
 * Each file is checksummed; an applied file that changed, a version left
 * half-applied, or a recorded version whose file is gone stops the run
 * before anything is changed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sodium.h>

#include "ctl/ctl.h"
#include "db/pool.h"
#include "repo/repo.h"
#include "repo/repo_migrate.h"
#include "util/config.h"
#include "util/num.h"
#include "util/xmalloc.h"

#define MAX_MIGRATION_BYTES	(4 * 1024 * 1024)

struct mfile {
	int	 version;
	char	*name;		/* file name */
	char	*path;
	char	*text;
	size_t	 len;
	char	 sum[MIGRATION_SUM_BYTES + 1];
};

static int
mfile_cmp(const void *a, const void *b)
{
	const struct mfile *x = a, *y = b;

	return (x->version > y->version) - (x->version < y->version);
}

static void
mfiles_free(struct mfile *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].path);
		free(v[i].text);
	}
	free(v);
}

static int
read_file(const char *path, char **text, size_t *len)
{
	FILE *f;
	struct stat st;
	int r = -1;

	*text = NULL;
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	if (fstat(fileno(f), &st) == 0 && st.st_size >= 0 &&
	    st.st_size <= MAX_MIGRATION_BYTES) {
		*len = (size_t)st.st_size;
		*text = xmalloc(*len + 1);
		if (fread(*text, 1, *len, f) == *len) {
			(*text)[*len] = '\0';
			r = 0;
		}
	}
	fclose(f);
	if (r != 0) {
		free(*text);
		*text = NULL;
	}
	return r;
}

static void
sha256_hex(const char *text, size_t len, char *out)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char h[crypto_hash_sha256_BYTES];
	size_t i;

	crypto_hash_sha256(h, (const unsigned char *)text, len);
	for (i = 0; i < sizeof(h); i++) {
		out[2 * i] = hex[h[i] >> 4];
		out[2 * i + 1] = hex[h[i] & 15];
	}
	out[2 * sizeof(h)] = '\0';
}

/* Lists NNNN_*.sql files of dir, sorted by version. */
static int
scan_dir(const char *dir, struct mfile **out, size_t *n)
{
	DIR *d;
	struct dirent *e;
	struct mfile *v = NULL, m;
	size_t cnt = 0, i, nlen;
	int64_t ver;

	*out = NULL;
	*n = 0;
	if ((d = opendir(dir)) == NULL) {
		fprintf(stderr, "mautoctl: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		nlen = strlen(e->d_name);
		if (nlen < 9 || e->d_name[4] != '_' ||
		    strcmp(e->d_name + nlen - 4, ".sql") != 0 ||
		    num_parse_i64n(e->d_name, 4, 1, 9999, &ver) != 0)
			continue;
		memset(&m, 0, sizeof(m));
		m.version = (int)ver;
		m.name = xstrdup(e->d_name);
		m.path = xmalloc(strlen(dir) + nlen + 2);
		memcpy(m.path, dir, strlen(dir));
		m.path[strlen(dir)] = '/';
		memcpy(m.path + strlen(dir) + 1, e->d_name, nlen + 1);
		v = xrealloc(v, (cnt + 1) * sizeof(*v));
		v[cnt++] = m;
	}
	closedir(d);
	qsort(v, cnt, sizeof(*v), mfile_cmp);
	for (i = 0; i < cnt; i++) {
		if (i > 0 && v[i].version == v[i - 1].version) {
			fprintf(stderr, "mautoctl: two migrations numbered %04d\n",
			    v[i].version);
			mfiles_free(v, cnt);
			return -1;
		}
		if (read_file(v[i].path, &v[i].text, &v[i].len) != 0) {
			fprintf(stderr, "mautoctl: cannot read %s\n", v[i].path);
			mfiles_free(v, cnt);
			return -1;
		}
		sha256_hex(v[i].text, v[i].len, v[i].sum);
	}
	*out = v;
	*n = cnt;
	return 0;
}

/*
 * Runs the statements of one file.  A statement ends with a line whose
 * last non-blank character is ';'; lines starting with "--" are comments.
 */
static int
apply_file(struct db *db, const struct mfile *m)
{
	const char *p = m->text, *end = m->text + m->len, *eol, *stmt = NULL;
	const char *q;
	int r;

	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		for (q = p; q < eol && (*q == ' ' || *q == '\t'); q++)
			;
		if (q + 1 < eol && q[0] == '-' && q[1] == '-') {
			p = eol + 1;
			continue;
		}
		if (stmt == NULL && q < eol)
			stmt = p;
		for (q = eol; q > p && (q[-1] == ' ' || q[-1] == '\t' ||
		    q[-1] == '\r'); q--)
			;
		if (stmt != NULL && q > p && q[-1] == ';') {
			if ((r = repo_migrate_exec(db, stmt,
			    (size_t)(q - 1 - stmt))) != 0) {
				fprintf(stderr, "mautoctl: %s: statement at "
				    "offset %zu failed\n", m->name,
				    (size_t)(stmt - m->text));
				return r;
			}
			stmt = NULL;
		}
		p = eol + 1;
	}
	if (stmt != NULL) {
		fprintf(stderr, "mautoctl: %s: last statement has no ';'\n",
		    m->name);
		return -1;
	}
	return 0;
}

static const struct migration_rec *
find_rec(const struct migration_list *l, int version)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		if (l->items[i].version == version)
			return &l->items[i];
	return NULL;
}

/* Refuses a partial or inconsistent state before changing anything. */
static int
check_state(const struct migration_list *l, const struct mfile *v, size_t n)
{
	const struct migration_rec *rec;
	size_t i, j;

	for (i = 0; i < l->count; i++) {
		rec = &l->items[i];
		if (!rec->done) {
			fprintf(stderr, "mautoctl: migration %04d (%s) was "
			    "interrupted and left half-applied; repair the "
			    "schema by hand, then delete its row from "
			    "schema_migrations\n", rec->version, rec->name);
			return -1;
		}
		for (j = 0; j < n && v[j].version != rec->version; j++)
			;
		if (j == n) {
			fprintf(stderr, "mautoctl: migration %04d (%s) is "
			    "recorded but its file is missing\n", rec->version,
			    rec->name);
			return -1;
		}
		if (strcmp(v[j].sum, rec->checksum) != 0) {
			fprintf(stderr, "mautoctl: %s changed after it was "
			    "applied (checksum differs)\n", v[j].name);
			return -1;
		}
	}
	return 0;
}

static const char *
default_dir(void)
{
	static const char *const dirs[] = {
		PKGDATADIR "/migrations", MAUTO_SRCDIR "/db/migrations",
	};
	const char *env = getenv("MAUTO_MIGRATIONS_DIR");
	struct stat st;
	size_t i;

	if (env != NULL && *env != '\0')
		return env;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (stat(dirs[i], &st) == 0 && S_ISDIR(st.st_mode))
			return dirs[i];
	return dirs[0];
}

int
ctl_migrate(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	struct migration_list l = { NULL, 0 };
	struct mfile *v = NULL;
	size_t n = 0, i, applied = 0;
	const char *dir = default_dir();
	bool status = false;
	int ai, rc = 1;

	for (ai = 1; ai < argc; ai++) {
		if (strcmp(argv[ai], "--status") == 0)
			status = true;
		else if (strcmp(argv[ai], "--dir") == 0 && ai + 1 < argc)
			dir = argv[++ai];
		else {
			fprintf(stderr, "usage: mautoctl migrate [--dir DIR] "
			    "[--status]\n");
			return 2;
		}
	}
	if (scan_dir(dir, &v, &n) != 0)
		goto out;
	if (db_open(&db, cfg, &repo_schema, DB_PREPARE_NONE) != 0) {
		fprintf(stderr, "mautoctl: cannot connect to the database\n");
		goto out;
	}
	if (repo_migrate_init(db) != 0 || repo_migrate_list(db, &l) != 0) {
		fprintf(stderr, "mautoctl: cannot read schema_migrations\n");
		goto out;
	}
	if (check_state(&l, v, n) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (find_rec(&l, v[i].version) != NULL)
			continue;
		if (status) {
			printf("pending %s\n", v[i].name);
			continue;
		}
		if (repo_migrate_begin(db, v[i].version, v[i].name,
		    v[i].sum) != 0) {
			fprintf(stderr, "mautoctl: cannot record %s (another "
			    "migrate running?)\n", v[i].name);
			goto out;
		}
		if (apply_file(db, &v[i]) != 0 ||
		    repo_migrate_finish(db, v[i].version) != 0) {
			fprintf(stderr, "mautoctl: %s failed; the database "
			    "is left at a partial state of it\n", v[i].name);
			goto out;
		}
		printf("applied %s\n", v[i].name);
		applied++;
	}
	if (status)
		printf("%zu applied, %zu known\n", l.count, n);
	else
		printf("schema up to date (%zu applied now, %zu in all)\n",
		    applied, n);
	rc = 0;
out:
	repo_migrate_list_free(&l);
	mfiles_free(v, n);
	db_close(db);
	return rc;
}
