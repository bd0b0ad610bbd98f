#!/usr/bin/env bash
# name: below the server's max_prepared_stmt_count the workers that cannot start are retried with growing delays, /healthz says degraded and every call gets an envelope
# docs/operating.md, "Sizing the database".  A private MariaDB (its global setting is
# changed here; the run's server is shared by the lanes of tests/run)
# under a stack of six workers.  The server's max_prepared_stmt_count is
# lowered to what about half of them hold once idle, and mautod is started
# again: the workers past the limit log the setting to raise and exit, the
# master starts them again with doubling delays (logged), /healthz answers
# 200 "degraded" with fewer workers than wanted, /metrics counts the
# failed starts, and every call, served or not, is answered in the
# service's envelope, never by the front server's 502.  With the limit
# raised again every worker serves and /healthz says ok, with no restart.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ "${MAUTO_TEST_FRONT:-nginx}" = cluster ]; then
	# One server's limit; cluster.sh sizes every node's.
	echo "a single server's limit (tests/cluster sizes every node's)"
	exit 77
fi
work=$(mktemp -d)
mdb=$work/db
stack=$work/stack
workers=6
cleanup()
{
	harness_stack_stop "$stack"
	"$HARNESS_DIR/mariadb.sh" stop "$mdb" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
failed=0
fail() { echo "not ok - $*"; failed=1; }
pass() { echo "ok - $*"; }

"$HARNESS_DIR/mariadb.sh" start "$mdb" >/dev/null
HARNESS_STACK_FRONT=${MAUTO_TEST_FRONT:-nginx} harness_stack_start \
    "$stack" "$mdb/env" MAUTO_WORKERS=$workers MAUTO_EXPORT_RUNNER=false \
    MAUTO_CAMPAIGN_RUNNERS=0 MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0
# shellcheck disable=SC1091
. "$stack/stack.env"
base=$MAUTO_TEST_BASE_URL

# sql QUERY: as the private server's root (SET GLOBAL).
sql()
{
	mariadb --no-defaults --socket="$mdb/mysqld.sock" --user=root \
	    --batch --skip-column-names -e "$1"
}
stmts() { sql "SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'" | awk '{ print $2 }'; }

metric()
{
	curl -sS --max-time 10 "$base/metrics" |
	    awk -v k="$1" '$1 == k { print $2 }'
}

# health: GET /healthz; sets hstatus, health (its "status") and hbody.
health()
{
	harness_call "$base/healthz" >"$work/health" ||
	    { echo "/healthz failed or hung"; return 1; }
	hstatus=$(head -n 1 "$work/health")
	hbody=$(sed -n '2,$p' "$work/health")
	health=$(harness_json_get status <<<"$hbody" || true)
}

all_ready() { [ "$(metric mautod_workers_ready)" = "$workers" ]; }
healthy() { health && [ "$hstatus:$health" = 200:ok ]; }

# What the idle workers hold: the sets every call uses, per worker.
harness_wait 60 "$workers workers ready" all_ready ||
    harness_die "the workers did not start"
held=$(stmts)
per=$((held / workers))
[ "$per" -gt 0 ] || harness_die "the idle workers hold no statements"
echo "# $workers idle workers hold $held prepared statements"

# Room for three and a half idle workers' sets: the workers past it cannot start.
limit=$((per * 7 / 2))
"$HARNESS_DIR/mautod.sh" stop "$stack"
harness_wait 30 "the old workers' statements freed" \
    test "$(stmts)" -eq 0 || harness_die "statements still held"
sql "SET GLOBAL max_prepared_stmt_count = $limit"
: >"$stack/mautod.log"
"$HARNESS_DIR/mautod.sh" start "$stack"
# The new socket, as apache.sh opens the first to its www-data children.
[ "$(id -u)" -ne 0 ] || chmod o+rw "$stack/mautod.sock"

# ---- the log names the setting, the master backs off -------------------
backed_off()
{
	[ "$(grep -c 'workers die young; next start in' "$stack/mautod.log")" \
	    -ge 4 ]
}
harness_wait 60 "four rounds of back-off" backed_off ||
    fail "the master did not back off four times"
if grep -q 'max_prepared_stmt_count.*raise max_prepared_stmt_count on the database server' \
    "$stack/mautod.log"; then
	pass "a worker that cannot prepare logs the setting to raise"
else
	fail "no log line names max_prepared_stmt_count"
	grep -i 'prepare\|database' "$stack/mautod.log" | head -5
fi
delays=$(sed -n 's/.*workers die young; next start in \([0-9]*\) ms.*/\1/p' \
    "$stack/mautod.log" | head -n 4 | tr '\n' ' ')
if [ "$delays" = "100 200 400 800 " ]; then
	pass "the master starts them again after 100, 200, 400, 800 ms"
else
	fail "back-off delays: $delays"
fi

# ---- health and metrics ------------------------------------------------
ready=$(metric mautod_workers_ready)
failures=$(metric mautod_worker_start_failures_total)
health || true
if [ "$hstatus:$health" = 200:degraded ] &&
    [ "$(harness_json_get wanted <<<"$hbody")" = "$workers" ] &&
    [ "$(harness_json_get workers <<<"$hbody")" -lt "$workers" ]; then
	pass "/healthz answers 200 degraded: $hbody"
else
	fail "/healthz: $hstatus $hbody"
fi
if [ "${ready:-$workers}" -lt "$workers" ] && [ "${failures:-0}" -ge 4 ]; then
	pass "/metrics: $ready of $workers ready, $failures failed starts"
else
	fail "/metrics: ready $ready, start failures $failures"
fi

# ---- every call gets an envelope -------------------------------------
token=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" \
    "$MAUTO_TEST_CLIENT_SECRET") || harness_die "no token"
paths=(
	"/rest/v1/leads.json?filterType=id&filterValues=1"
	"/rest/v1/leads/describe.json"
	"/rest/v1/leads/schema/fields.json"
	"/rest/v1/customobjects/schema.json"
	"/rest/asset/v1/emails.json"
	"/rest/asset/v1/smartLists.json"
	"/rest/asset/v1/landingPageTemplates.json"
	"/rest/asset/v1/smartCampaigns.json"
)
n=0
pids=()
for _ in 1 2 3; do
	for p in "${paths[@]}"; do
		n=$((n + 1))
		harness_call "$base$p" -H "Authorization: Bearer $token" \
		    >"$work/call.$n" 2>&1 &
		pids+=("$!")
	done
done
for p in "${pids[@]}"; do wait "$p" || true; done
served=0 refused=0 bad=0
codes=""
for i in $(seq 1 "$n"); do
	status=$(head -n 1 "$work/call.$i")
	body=$(sed -n '2,$p' "$work/call.$i")
	success=$(harness_json_get success <<<"$body" 2>/dev/null || true)
	if [ "$status" = 200 ] && [ "$success" = true ]; then
		served=$((served + 1))
	elif [ "$status" = 200 ] && [ "$success" = false ] &&
	    harness_json_get requestId <<<"$body" >/dev/null 2>&1; then
		refused=$((refused + 1))
		codes="$codes $(harness_json_get 'errors[0].code' <<<"$body")"
	else
		bad=$((bad + 1))
		echo "# call $i: $status $body"
	fi
done
echo "# $n calls: $served served, $refused answered with an error:$codes"
if [ "$bad" -eq 0 ] && [ "$served" -gt 0 ]; then
	pass "all $n calls answered in the envelope ($served served)"
else
	fail "$bad of $n calls without an envelope"
fi
for c in $codes; do
	[ "$c" = 608 ] || [ "$c" = 611 ] || [ "$c" = 615 ] ||
	    fail "an unexpected error code $c"
done

# ---- room again: every worker serves, no restart ----------------------
pid=$(harness_pidfile_pid "$stack/mautod.pid")
sql "SET GLOBAL max_prepared_stmt_count = 131072"
if harness_wait 120 "every worker ready" all_ready &&
    harness_wait 30 "/healthz ok" healthy &&
    [ "$(harness_pidfile_pid "$stack/mautod.pid")" = "$pid" ]; then
	pass "with room again every worker serves and /healthz says ok"
else
	fail "no recovery: $(metric mautod_workers_ready) ready, $hbody"
fi
call_ok()
{
	harness_call "$base${paths[5]}" -H "Authorization: Bearer $token" \
	    >"$work/out" &&
	    [ "$(sed -n '2,$p' "$work/out" | harness_json_get success)" = true ]
}
call_ok && pass "a call that needed a set past the limit now serves" ||
    fail "after recovery: $(cat "$work/out")"
exit "$failed"
