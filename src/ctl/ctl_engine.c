/*
 * mautoctl clock and campaign runs|trace: the campaign engine seen and
 * driven from the shell (docs/operating.md, "The campaign engine").
 *
 *   clock show              the engine clock's offset and its time
 *   clock advance DURATION  moves it (engine_clock_control must be on):
 *                           90s, 30m, 4h, 2d, 1w
 *   campaign runs ID        the latest runs of a campaign with counts of
 *                           their leads by state
 *   campaign trace ID LEAD  why the lead ran or did not: its
 *                           qualification, each run it was offered to
 *                           with where it stands (or why it was
 *                           skipped), and each step's activity with
 *                           its time
 * Lists are tab-separated with a header line; errors go to stderr.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ctl/ctl.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_engine.h"
#include "util/arena.h"
#include "util/config.h"
#include "util/num.h"
#include "util/timeutil.h"

#define CLOCK_USAGE	"clock show | clock advance DURATION (90s, 30m, 4h, 2d, 1w)"
#define RUNS_MAX	50
#define TRACE_MAX	200

/* "<n><unit>" with unit s, m, h, d or w, in ms into *ms: 0 or -1. */
static int
duration_ms(const char *s, int64_t *ms)
{
	static const struct { char unit; int64_t ms; } units[] = {
		{ 's', 1000 }, { 'm', 60000 }, { 'h', 3600000 },
		{ 'd', 86400000 }, { 'w', 7 * 86400000LL },
	};
	size_t len = strlen(s), i;
	int64_t n;

	if (len < 2 || num_parse_i64n(s, len - 1, 1, 100000000, &n) != 0)
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (s[len - 1] == units[i].unit) {
			*ms = n * units[i].ms;
			return *ms <= 100LL * 365 * 86400000 ? 0 : -1;
		}
	return -1;
}

static void
print_clock(int64_t offset)
{
	char iso[TIME_ISO_BYTES];
	int64_t now = time_now_ms() + offset;

	printf("offset_ms\t%lld\nengine_time\t%s\n", (long long)offset,
	    time_iso_from_epoch(now / 1000, iso) != NULL ? iso : "?");
}

/* mautoctl clock show | advance DURATION. */
int
ctl_clock(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	int64_t off = 0, ms = 0;
	int rc = 1;

	if (argc == 2 && strcmp(argv[1], "show") == 0) {
		if (ctl_db_open(&db, cfg) != 0)
			goto out;
		if (repo_engine_clock(db, &off) != 0) {
			fprintf(stderr, "mautoctl: cannot read the clock\n");
			goto out;
		}
	} else if (argc == 3 && strcmp(argv[1], "advance") == 0) {
		if (duration_ms(argv[2], &ms) != 0) {
			fprintf(stderr, "mautoctl: usage: " CLOCK_USAGE "\n");
			goto out;
		}
		if (!cfg->engine_clock_control) {
			fprintf(stderr, "mautoctl: engine_clock_control is off: "
			    "the engine's clock moves only in development "
			    "(mautod.conf(5))\n");
			goto out;
		}
		if (ctl_db_open(&db, cfg) != 0)
			goto out;
		if (repo_engine_clock_advance(db, ms, &off) != 0) {
			fprintf(stderr, "mautoctl: cannot move the clock\n");
			goto out;
		}
	} else {
		fprintf(stderr, "mautoctl: usage: " CLOCK_USAGE "\n");
		goto out;
	}
	print_clock(off);
	rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	return rc;
}

static int
campaign_runs(struct db *db, int32_t campaign)
{
	struct engine_run_row rows[RUNS_MAX];
	size_t n, i;

	if (repo_engine_runs(db, campaign, rows, RUNS_MAX, &n) != 0) {
		fprintf(stderr, "mautoctl: cannot read the runs\n");
		return 1;
	}
	printf("run\tkind\tstatus\trun_at\tcreated\tleads\tready\tdone\t"
	    "removed\tfailed\n");
	for (i = 0; i < n; i++)
		printf("%lld\t%s\t%s\t%s\t%s\t%lld\t%lld\t%lld\t%lld\t%lld\n",
		    (long long)rows[i].id, rows[i].kind, rows[i].status,
		    rows[i].run_at, rows[i].created_at,
		    (long long)rows[i].leads, (long long)rows[i].ready,
		    (long long)rows[i].done, (long long)rows[i].removed,
		    (long long)rows[i].failed);
	return 0;
}

static int
campaign_trace(struct db *db, int32_t campaign, int64_t lead)
{
	struct engine_trace_row rows[RUNS_MAX];
	struct db_text_rows t;
	struct arena a;
	char iso[TIME_ISO_BYTES];
	int64_t last, times;
	size_t n, i, k;
	int rc = 1;

	arena_init(&a);
	if (repo_engine_qualified(db, campaign, lead, &last, &times) != 0 ||
	    repo_engine_trace(db, campaign, lead, rows, RUNS_MAX, &n) != 0 ||
	    repo_engine_trace_acts(db, &a, campaign, lead, TRACE_MAX,
	    &t) != 0) {
		fprintf(stderr, "mautoctl: cannot read the campaign's work\n");
		goto out;
	}
	if (times == 0)
		printf("qualified\tnever\n");
	else
		printf("qualified\t%lld times, last %s\n", (long long)times,
		    time_iso_from_epoch(last / 1000, iso) != NULL ? iso : "?");
	printf("\nrun\tkind\tstate\tnext_step\tdue\tupdated\tnote\n");
	for (i = 0; i < n; i++)
		printf("%lld\t%s\t%s\t%d\t%s\t%s\t%s\n",
		    (long long)rows[i].run_id, rows[i].kind, rows[i].state,
		    rows[i].step_pos + 1, rows[i].due_at, rows[i].updated_at,
		    rows[i].note);
	printf("\ntime\trun\tstep\tactivity\tprimary\n");
	for (i = 0; i < t.count; i++) {
		for (k = 0; k < ENGINE_TRACE_NCOLS; k++) {
			const char *v = db_text_str(&t, i, k);

			printf("%s%s", k > 0 ? "\t" : "", v != NULL ? v : "-");
		}
		putchar('\n');
	}
	rc = 0;
out:
	arena_clear(&a);
	return rc;
}

/* mautoctl campaign runs ID | trace ID LEAD (ctl_campaign passes them). */
int
ctl_campaign_engine(int argc, char **argv, const struct config *cfg)
{
	struct db *db = NULL;
	int64_t campaign, lead = 0;
	int rc = 1;

	if (!((argc == 3 && strcmp(argv[1], "runs") == 0) ||
	    (argc == 4 && strcmp(argv[1], "trace") == 0)) ||
	    num_parse_i64(argv[2], 1, INT32_MAX, &campaign) != 0 ||
	    (argc == 4 && num_parse_i64(argv[3], 1, INT32_MAX, &lead) != 0)) {
		fprintf(stderr, "mautoctl: usage: campaign runs CAMPAIGN | "
		    "campaign trace CAMPAIGN LEAD\n");
		return 1;
	}
	if (ctl_db_open(&db, cfg) != 0)
		goto out;
	rc = argc == 3 ? campaign_runs(db, (int32_t)campaign) :
	    campaign_trace(db, (int32_t)campaign, lead);
	if (rc == 0)
		rc = fflush(stdout) == 0 ? 0 : 1;
out:
	db_close(db);
	return rc;
}
