#!/usr/bin/env bash
# The overload suite of tests/bench/run (BENCH_SUITE=overload): what a
# client sees when it opens far more connections than the service takes
# (README "Overload").
#
#   tests/bench/overload_bench.sh        (tests/bench/run calls it)
#
# A private MariaDB and a stack as the HTTP tests build it
# (tests/harness: mautod with its default workers, concurrency_limit + 6
# = 16 on a small host, behind deploy/nginx/mautod.conf with its bound on
# the requests in flight, limit_conn, at the workers), rate limit and
# daily quota off, MAUTO_LOG_LEVEL=error.  Two shapes, each on a stack of
# its own:
#   defaults  concurrency_limit at its default (10) and nginx's bound;
#   off       concurrency_limit = 0: only nginx's bound (the workers).
# In each, BENCH_OVERLOAD_LEADS leads (default 10,000, by SQL), then at
# each of BENCH_OVERLOAD_CONNS connections (default "256 1000") one wrk
# pass of BENCH_DURATION (default 10s, after a 1 s warm-up; 2 wrk
# threads, wrk's timeout 10 s) of each of:
#   read      GET /rest/v1/lead/<random id>.json
#   sync      POST /rest/v1/leads.json, 300 new leads a request
# (tests/bench/overload.lua).  Reported per pass: requests, answered
# (200 and success), 615s (mautod's or nginx's), other errors, socket
# errors (connect, read, write, timeout: a reset shows here), p50, p99
# and max latency of every answer.  Targets (issue "Overload"): with the
# defaults p99 under 100 ms and no socket error at 1,000 connections;
# with the limit off no answer slower than 1 s.
#
# Prints markdown on stdout.  Exits 1 when a setup step fails.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/env.sh
. "$here/../harness/env.sh"

leads=${BENCH_OVERLOAD_LEADS:-10000}
conns=${BENCH_OVERLOAD_CONNS:-256 1000}
duration=${BENCH_DURATION:-10s}

work=$(mktemp -d "${TMPDIR:-/tmp}/mauto-overload-bench.XXXXXX")
chmod 755 "$work"
cleanup()
{
	harness_stack_stop "$work/stack" >/dev/null 2>&1 || true
	"$HARNESS_DIR/mariadb.sh" stop "$work/db" >/dev/null 2>&1 || true
	[ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
for v in $(compgen -e | grep -E '^MAUTO_(TEST_)?DB_'); do
	unset "$v"
done

"$HARNESS_DIR/mariadb.sh" start "$work/db" >/dev/null

# stack SHAPE: a new stack (and database) for the shape, its leads loaded;
# sets url and token.
stack()
{
	local limit=()
	harness_stack_stop "$work/stack" >/dev/null 2>&1 || true
	rm -rf "$work/stack"
	[ "$1" = defaults ] || limit=(MAUTO_CONCURRENCY_LIMIT=0)
	harness_stack_start "$work/stack" "$work/db/env" MAUTO_WORKERS=0 \
	    MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0 \
	    MAUTO_LOG_LEVEL=error "${limit[@]}"
	harness_sql "$work/stack/env" "USE \`$(. "$work/stack/env"
	    echo "$MAUTO_DB_NAME")\`; INSERT INTO lead (id, email,
	    firstName, lastName, company, createdAt, updatedAt)
	    SELECT seq, CONCAT('lead', LPAD(seq, 7, '0'), '@bench.example.com'),
	    CONCAT('First', seq), CONCAT('Last', seq),
	    CONCAT('Company ', seq % 500), TIMESTAMP'2024-01-01 00:00:00',
	    TIMESTAMP'2024-06-01 00:00:00' FROM seq_1_to_$leads" ||
	    harness_die "cannot load the leads"
	url=$(. "$work/stack/stack.env"; echo "$MAUTO_TEST_BASE_URL")
	token=$(
		# shellcheck disable=SC1091
		. "$work/stack/stack.env"
		harness_token "$url" "$MAUTO_TEST_CLIENT_ID" \
		    "$MAUTO_TEST_CLIENT_SECRET"
	) || harness_die "no token"
	workers=$(. "$work/stack/env"; MAUTO_WORKERS=0 harness_mautod_workers)
}

field() { sed -n "s/.* $1=\\([^ ]*\\).*/\\1/p" <<<"$2"; }
ms() { awk -v us="$1" 'BEGIN { printf "%.1f", us / 1000 }'; }

# pass SHAPE WHAT CONNS: one wrk pass; prints its table row.
pass()
{
	local shape=$1 what=$2 c=$3 args line x
	case $what in
	read) args=(read "$leads") ;;
	sync) args=(sync "$(harness_random_hex 3)") ;;
	esac
	wrk -t2 -c"$c" -d1s -H "Authorization: Bearer $token" \
	    -s "$here/overload.lua" "$url/" -- "${args[@]}" >/dev/null 2>&1 ||
	    true
	[ "$what" = read ] || args=(sync "$(harness_random_hex 3)")
	wrk -t2 -c"$c" -d"$duration" --timeout 10s --latency \
	    -H "Authorization: Bearer $token" -s "$here/overload.lua" \
	    "$url/" -- "${args[@]}" >"$work/wrk.out" 2>&1 ||
	    harness_die "wrk failed: $(tail -n 3 "$work/wrk.out")"
	line=$(grep '^BENCH ' "$work/wrk.out") ||
	    harness_die "wrk printed no result: $(tail -n 3 "$work/wrk.out")"
	x=$(grep '^BENCHX ' "$work/wrk.out")
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
	    "$shape" "$what" "$c" "$(field requests "$line")" \
	    "$(field answered "$x ")" "$(field refused "$x ")" \
	    "$(field other "$x ")" "$(field socket_errors "$line")" \
	    "$(ms "$(field p50_us "$line")")" \
	    "$(ms "$(field p99_us "$line")")" \
	    "$(ms "$(field max_us "$line")")"
	harness_log "$shape $what c=$c: $line $x"
}

rows=()
for shape in defaults off; do
	harness_log "stack: $shape"
	stack "$shape"
	for what in read sync; do
		for c in $conns; do
			rows+=("$(pass "$shape" "$what" "$c")")
		done
	done
done

echo "Overload: mautod's default workers ($workers), nginx's bound on"
echo "calls in flight at the workers, rate limit and daily quota off;"
echo "\"defaults\": concurrency_limit 10; \"off\": concurrency_limit 0."
echo "$duration wrk passes, 2 threads, $leads leads; read: Get Lead by Id"
echo "of a random lead; sync: Sync Leads of 300 new leads.  Latencies in ms"
echo "of every answer, served or refused."
echo
echo "| limits | call | conns | requests | answered | 615 | other errors | socket errors | p50 | p99 | max |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
