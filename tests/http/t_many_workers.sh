#!/usr/bin/env bash
# name: three hosts of 64 workers each start and serve on one MariaDB with its default max_prepared_stmt_count
# docs/operating.md, "Sizing the database".  A private MariaDB with the server's own
# default of 16,382 prepared statements (the harness's room would hide
# the question) and three mautod hosts of 64 workers on one database,
# each behind its own nginx.  Every worker of every host must be ready
# (mautod_workers_ready = wanted = 64, /healthz ok, no failed start),
# calls of several repositories through each host must succeed, and the
# server must hold fewer statements than 192 connections with all of
# them prepared would need.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

case ${MAUTO_TEST_FRONT:-nginx} in
cluster) echo "one server (tests/cluster has its nodes)"; exit 77 ;;
apache) echo "the hosts' front does not matter here (the nginx run has it)"
	exit 77 ;;
esac
work=$(mktemp -d)
mdb=$work/db
workers=64
hosts="h1 h2 h3"
cleanup()
{
	local h
	for h in h2 h3; do
		"$HARNESS_DIR/nginx.sh" stop "$work/$h/nginx" || true
		"$HARNESS_DIR/mautod.sh" stop "$work/$h" || true
	done
	harness_stack_stop "$work/h1"
	"$HARNESS_DIR/mariadb.sh" stop "$mdb" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
failed=0
fail() { echo "not ok - $*"; failed=1; }
pass() { echo "ok - $*"; }

mkdir -p "$mdb"
echo "max-prepared-stmt-count = 16382" >"$mdb/extra.cnf"
"$HARNESS_DIR/mariadb.sh" start "$mdb" >/dev/null
limit=$(mariadb --no-defaults --socket="$mdb/mysqld.sock" --user=root \
    --batch --skip-column-names -e "SELECT @@max_prepared_stmt_count")
[ "$limit" = 16382 ] || harness_die "max_prepared_stmt_count is $limit"

# Host 1 makes the database and the client; hosts 2 and 3 share them.
# The limits are off: 28 calls at once through one host are more than
# the default 10 in flight for the instance whenever the machine is slow
# enough that they overlap (t_overload has the limit).
harness_stack_start "$work/h1" "$mdb/env" MAUTO_WORKERS=$workers \
    MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0 MAUTO_CONCURRENCY_LIMIT=0
# shellcheck disable=SC1091
. "$work/h1/stack.env"
declare -A base
base[h1]=$MAUTO_TEST_BASE_URL
for h in h2 h3; do
	mkdir -p "$work/$h"
	sed "s/^export MAUTO_HOST_ID=.*/export MAUTO_HOST_ID=$h$(harness_random_hex 3)/" \
	    "$work/h1/env" >"$work/$h/env"
	"$HARNESS_DIR/mautod.sh" start "$work/$h"
	port=$(harness_free_port)
	(
		# shellcheck disable=SC1090
		. "$work/$h/env"
		"$HARNESS_DIR/nginx.sh" start "$work/$h/nginx" "$port" \
		    "$work/$h/mautod.sock"
	)
	base[$h]=http://127.0.0.1:$port
done

metric()
{
	curl -sS --max-time 10 "$1/metrics" |
	    awk -v k="$2" '$1 == k { print $2 }'
}
all_ready() { [ "$(metric "$1" mautod_workers_ready)" = "$workers" ]; }

for h in $hosts; do
	b=${base[$h]}
	if harness_wait 120 "$h: $workers workers ready" all_ready "$b" &&
	    [ "$(metric "$b" mautod_workers_wanted)" = "$workers" ] &&
	    [ "$(metric "$b" mautod_worker_start_failures_total)" = 0 ]; then
		pass "$h: all $workers workers ready, no failed start"
	else
		fail "$h: $(metric "$b" mautod_workers_ready) of" \
		    "$(metric "$b" mautod_workers_wanted) ready," \
		    "$(metric "$b" mautod_worker_start_failures_total) failed"
	fi
	harness_call "$b/healthz" >"$work/health"
	[ "$(sed -n '2,$p' "$work/health" | harness_json_get status)" = ok ] ||
	    fail "$h: /healthz: $(cat "$work/health")"
done

# Calls through each host, a few at once so that many workers take one.
token=$(harness_token "${base[h1]}" "$MAUTO_TEST_CLIENT_ID" \
    "$MAUTO_TEST_CLIENT_SECRET") || harness_die "no token"
paths=(
	"/rest/v1/leads.json?filterType=id&filterValues=1"
	"/rest/v1/leads/describe.json"
	"/rest/v1/customobjects/schema.json"
	"/rest/asset/v1/emails.json"
	"/rest/asset/v1/smartLists.json"
	"/rest/asset/v1/landingPageTemplates.json"
	"/rest/asset/v1/smartCampaigns.json"
)
for h in $hosts; do
	n=0
	pids=()
	for _ in 1 2 3 4; do
		for p in "${paths[@]}"; do
			n=$((n + 1))
			harness_call "${base[$h]}$p" \
			    -H "Authorization: Bearer $token" \
			    >"$work/$h.call.$n" 2>&1 &
			pids+=("$!")
		done
	done
	for p in "${pids[@]}"; do wait "$p" || true; done
	ok=0
	for i in $(seq 1 "$n"); do
		if [ "$(head -n 1 "$work/$h.call.$i")" = 200 ] &&
		    [ "$(sed -n '2,$p' "$work/$h.call.$i" |
		    harness_json_get success 2>/dev/null)" = true ]; then
			ok=$((ok + 1))
		else
			echo "# $h call $i: $(cat "$work/$h.call.$i")"
		fi
	done
	[ "$ok" = "$n" ] && pass "$h: $n calls at once all succeed" ||
	    fail "$h: $ok of $n calls succeeded"
done

held=$(mariadb --no-defaults --socket="$mdb/mysqld.sock" --user=root \
    --batch --skip-column-names \
    -e "SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'" | awk '{ print $2 }')
echo "# 3 x $workers workers hold $held of $limit prepared statements"
[ "$held" -lt "$limit" ] ||
    fail "the server holds $held statements, its limit $limit"
exit "$failed"
