#!/usr/bin/env bash
# name: bulk export limits: a queue of 10, two Processing at most, the quota
# docs/behaviour.md §4 and §7.1: with the runners paused (SIGSTOP), ten
# jobs queue and the eleventh is refused with 1029 "Too many jobs in
# queue" until one leaves the queue; once the runners go on, the jobs
# complete with never more than two Processing at once; then the files
# of the day pass export_daily_quota_mb (1 MB here) and both create and
# enqueue answer 1029 "Export daily quota 1MB exceeded.".
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ -z "${MAUTO_TEST_DB_ENV:-}" ]; then
	echo "needs a database server of this run (MAUTO_TEST_DB_ENV)"
	exit 77
fi
work=$(mktemp -d)
runners=""
cleanup()
{
	# Never leave a paused runner behind.
	[ -z "$runners" ] || kill -CONT $runners 2>/dev/null || true
	harness_stack_stop "$work/stack"
	rm -rf "$work"
}
trap cleanup EXIT
harness_stack_start "$work/stack" "$MAUTO_TEST_DB_ENV" \
    MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0 MAUTO_EXPORT_DAILY_QUOTA_MB=1
# shellcheck disable=SC1091
. "$work/stack/stack.env"
base=$MAUTO_TEST_BASE_URL
token=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")
master=$(harness_pidfile_pid "$work/stack/mautod.pid")

fail()
{
	echo "FAIL: $*"
	exit 1
}

call()
{
	local m=$1 p=$2
	if [ $# -ge 3 ]; then
		harness_call "$base$p" -X "$m" -H "Authorization: Bearer $token" \
		    -H 'Content-Type: application/json' --data-binary "$3"
	else
		harness_call "$base$p" -X "$m" -H "Authorization: Bearer $token"
	fi
}

db()
{
	(
		# shellcheck disable=SC1091
		. "$work/stack/env"
		MYSQL_PWD=$MAUTO_DB_PASSWORD mariadb --no-defaults \
		    --socket="$MAUTO_DB_SOCKET" --user="$MAUTO_DB_USER" \
		    --batch --skip-column-names "$MAUTO_DB_NAME" -e "$1"
	)
}

# answer OUT KEY: a member of the JSON body of a call's output.
answer()
{
	printf '%s\n' "$1" | sed -n '2,$p' | harness_json_get "$2"
}

# Each job exports records 1..3000, about 190 KB.
job='{"fields": ["marketoGUID", "vin", "color"], "filter": {"updatedAt":
	{"startAt": "2024-01-01T00:00:00Z", "endAt": "2024-01-01T00:50:00Z"}}}'

create()
{
	local out
	out=$(call POST /bulk/v1/customobjects/bxlim/export/create.json "$job")
	answer "$out" 'result[0].exportId' || fail "create: $out"
}

call POST /rest/v1/customobjects/schema.json \
    '{"apiName": "bxlim", "displayName": "BX limits"}' >/dev/null
call POST /rest/v1/customobjects/schema/bxlim/addField.json \
    '{"input": [{"name": "vin", "displayName": "VIN", "dataType": "string", "isDedupeField": true},
	{"name": "color", "displayName": "Color", "dataType": "string"}]}' >/dev/null
out=$(call POST /rest/v1/customobjects/schema/bxlim/approve.json)
case $out in *'"success":true'*) ;; *) fail "approve: $out" ;; esac
tid=$(db "SELECT id FROM co_type WHERE api_name = 'bxlim'")
db "INSERT INTO co_rec_$tid (marketoGUID, createdAt, updatedAt, vin, color)
    SELECT CONCAT('00000000-0000-4000-8000-', LPAD(seq, 12, '0')),
    '2023-12-31', '2024-01-01 00:00:00' + INTERVAL seq SECOND,
    CONCAT('V', seq), 'a colour of some length' FROM seq_1_to_20000"

# --- the queue: 10 places for the whole instance ---------------------------
for _ in 1 2 3 4 5 6 7 8 9 10; do
	runners=$(pgrep -P "$master" -x mautod-export | tr '\n' ' ')
	[ "$(echo $runners | wc -w)" = 2 ] && break
	sleep 0.2
done
[ "$(echo $runners | wc -w)" = 2 ] || fail "expected 2 export runners, got '$runners'"
# shellcheck disable=SC2086
kill -STOP $runners
ids=()
for i in $(seq 1 12); do
	ids+=("$(create)")
done
for i in $(seq 0 9); do
	out=$(call POST "/bulk/v1/customobjects/bxlim/export/${ids[$i]}/enqueue.json")
	[ "$(answer "$out" success)" = true ] || fail "enqueue $i: $out"
done
out=$(call POST "/bulk/v1/customobjects/bxlim/export/${ids[10]}/enqueue.json")
[ "$(answer "$out" 'errors[0].code')" = 1029 ] &&
    [ "$(answer "$out" 'errors[0].message')" = "Too many jobs in queue" ] ||
    fail "the 11th enqueue: $out"
out=$(call GET "/bulk/v1/customobjects/bxlim/export/${ids[10]}/status.json")
[ "$(answer "$out" 'result[0].status')" = Created ] || fail "refused job: $out"
# Cancelling a queued job frees its place.
call POST "/bulk/v1/customobjects/bxlim/export/${ids[0]}/cancel.json" >/dev/null
out=$(call POST "/bulk/v1/customobjects/bxlim/export/${ids[10]}/enqueue.json")
[ "$(answer "$out" 'result[0].status')" = Queued ] || fail "enqueue after a cancel: $out"
echo "  10 jobs queued, the 11th refused (1029 Too many jobs in queue), then let in"

# --- never more than two Processing ---------------------------------------
# shellcheck disable=SC2086
kill -CONT $runners
max=0
for ((i = 0; i < 600; i++)); do
	read -r p left < <(db "SELECT SUM(status = 'Processing'),
	    SUM(status IN ('Queued', 'Processing')) FROM export_job")
	[ "${p:-0}" -gt "$max" ] && max=$p
	[ "${left:-0}" = 0 ] && break
	sleep 0.05
done
[ "${left:-1}" = 0 ] || fail "the queue did not drain in 30 s"
[ "$max" -le 2 ] || fail "$max jobs were Processing at once"
done_n=$(db "SELECT COUNT(*) FROM export_job WHERE status = 'Completed'")
[ "$done_n" = 10 ] || fail "$done_n jobs Completed, expected 10"
echo "  10 jobs completed with at most $max Processing at once"

# --- the daily quota ---------------------------------------------------------
bytes=$(db "SELECT SUM(file_size) FROM export_job WHERE status = 'Completed'")
[ "$bytes" -ge 1048576 ] || fail "the files total $bytes bytes, under 1 MB"
out=$(call POST /bulk/v1/customobjects/bxlim/export/create.json "$job")
[ "$(answer "$out" 'errors[0].code')" = 1029 ] &&
    [ "$(answer "$out" 'errors[0].message')" = "Export daily quota 1MB exceeded." ] ||
    fail "create over the quota: $out"
out=$(call POST "/bulk/v1/customobjects/bxlim/export/${ids[11]}/enqueue.json")
[ "$(answer "$out" 'errors[0].message')" = "Export daily quota 1MB exceeded." ] ||
    fail "enqueue over the quota: $out"
# The quota is per US Central day: yesterday's files do not count.
db "UPDATE export_job SET day_key = 19990101"
out=$(call POST "/bulk/v1/customobjects/bxlim/export/${ids[11]}/enqueue.json")
[ "$(answer "$out" 'result[0].status')" = Queued ] ||
    fail "enqueue on a new day: $out"
echo "  $bytes bytes today: create and enqueue answer 1029 Export daily quota 1MB exceeded."
grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$work/stack/mautod.log" &&
    fail "sanitizer report in the daemon log"
echo "queue limit, two slots and the daily quota hold"
