#!/usr/bin/env bash
# name: export runners die, stop and are cancelled mid-job; no job is stuck
# src/export/runner.c: a runner SIGKILLed in the middle of a job is
# respawned by the master and the job is taken over at once (queued
# again, attempt 2) and completes with a correct file; a job whose
# runner dies three times fails with errorMsg; a cancel while
# Processing stops the runner's work (no file, the slot freed); SIGHUP
# replaces the runners and the job in progress is given back without
# counting an attempt; the file is HTTP 404 while the job is Queued.
# A runner is held at a known point, as it starts a job it claimed
# (fault_export_hold: it stops itself), so the test does not depend on the
# machine's speed.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ -z "${MAUTO_TEST_DB_ENV:-}" ]; then
	echo "needs a database server of this run (MAUTO_TEST_DB_ENV)"
	exit 77
fi
work=$(mktemp -d)
hold=$work/hold
paused=""
master=""
cleanup()
{
	rm -f "$hold"
	# shellcheck disable=SC2086
	[ -z "$paused" ] || kill -CONT $paused 2>/dev/null || true
	[ -z "$master" ] || pkill -CONT -P "$master" -x mautod-export || true
	harness_stack_stop "$work/stack"
	rm -rf "$work"
}
trap cleanup EXIT
harness_stack_start "$work/stack" "$MAUTO_TEST_DB_ENV" \
    MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0 MAUTO_EXPORT_DAILY_QUOTA_MB=0 \
    MAUTO_FAULT_EXPORT_HOLD="$hold"
# shellcheck disable=SC1091
. "$work/stack/stack.env"
base=$MAUTO_TEST_BASE_URL
token=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")
master=$(harness_pidfile_pid "$work/stack/mautod.pid")
log=$work/stack/mautod.log
exports=$work/stack/exports
N=200000

# The daemon's last plain lines (request events left out), then why; on
# stderr, so that a failure inside $(...) (catch) is seen too.
fail()
{
	grep -v '^{' "$log" | tail -n 15 >&2
	echo "FAIL: $*" >&2
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

answer()
{
	printf '%s\n' "$1" | sed -n '2,$p' | harness_json_get "$2"
}

# A job of every record; enqueued; prints its exportId.
start_job()
{
	local out id
	out=$(call POST /bulk/v1/customobjects/bxrun/export/create.json \
	    '{"fields": ["marketoGUID", "vin", "color"], "filter": {"updatedAt":
	    {"startAt": "2024-01-01T00:00:00Z", "endAt": "2024-01-20T00:00:00Z"}}}')
	id=$(answer "$out" 'result[0].exportId') || fail "create: $out"
	out=$(call POST "/bulk/v1/customobjects/bxrun/export/$id/enqueue.json")
	[ "$(answer "$out" 'result[0].status')" = Queued ] || fail "enqueue: $out"
	printf '%s\n' "$id"
}

# status_of ID: "<status> <attempts>" from the database.
status_of()
{
	db "SELECT status, attempts FROM export_job WHERE export_id = '$1'"
}

# catch ID ATTEMPT: waits until the job's runner has held it in that
# attempt (fault_export_hold: the runner stops itself as it starts the
# job while $hold exists) and prints the runner's pid.  The job cannot
# move on while its runner is stopped, so nothing here races it.
catch()
{
	local id=$1 attempt=$2 s a owner pid st i
	for ((i = 0; i < 1200; i++)); do
		IFS=$'\t' read -r s a owner < <(db "SELECT j.status, j.attempts,
		    IFNULL(s.owner, '-') FROM export_job j
		    LEFT JOIN export_slot s ON s.job_id = j.id
		    WHERE j.export_id = '$id'")
		if [ "$s" = Processing ] && [ "$a" = "$attempt" ] &&
		    [ "$owner" != - ]; then
			pid=${owner#*:}	# host:pid:nonce
			pid=${pid%%:*}
			st=$(ps -o state= -p "$pid" 2>/dev/null || true)
			if [ "$st" = T ]; then
				printf '%s\n' "$pid"
				return 0
			fi
		fi
		case $s in
		Completed | Failed | Cancelled)
			fail "job $id ended $s; its runner was not held in attempt $attempt" ;;
		esac
		sleep 0.1
	done
	fail "job $id not held in attempt $attempt after 120 s ($s, attempt $a)"
}

# hold_on, hold_off: runners stop themselves after each claim, or not.
hold_on()
{
	: >"$hold"
}

hold_off()
{
	rm -f "$hold"
}

# wait_status ID STATUS: waits up to 120 s.
wait_status()
{
	local i s a
	for ((i = 0; i < 1200; i++)); do
		read -r s a < <(status_of "$1")
		[ "$s" = "$2" ] && return 0
		sleep 0.1
	done
	fail "job $1 is $s, not $2, after 120 s"
}

runner_pids()
{
	pgrep -P "$master" -x mautod-export | sort | tr '\n' ' '
}

call POST /rest/v1/customobjects/schema.json \
    '{"apiName": "bxrun", "displayName": "BX runner"}' >/dev/null
call POST /rest/v1/customobjects/schema/bxrun/addField.json \
    '{"input": [{"name": "vin", "displayName": "VIN", "dataType": "string", "isDedupeField": true},
	{"name": "color", "displayName": "Color", "dataType": "string"}]}' >/dev/null
out=$(call POST /rest/v1/customobjects/schema/bxrun/approve.json)
case $out in *'"success":true'*) ;; *) fail "approve: $out" ;; esac
tid=$(db "SELECT id FROM co_type WHERE api_name = 'bxrun'")
db "INSERT INTO co_rec_$tid (marketoGUID, createdAt, updatedAt, vin, color)
    SELECT CONCAT('00000000-0000-4000-8000-', LPAD(seq, 12, '0')),
    '2023-12-31', '2024-01-01 00:00:00' + INTERVAL seq SECOND,
    CONCAT('V', seq), IF(seq % 3 = 0, NULL, 'green, \"dark\"')
    FROM seq_1_to_$N"
for _ in $(seq 50); do
	[ "$(runner_pids | wc -w)" = 2 ] && break
	sleep 0.2
done
[ "$(runner_pids | wc -w)" = 2 ] || fail "expected 2 runners: $(runner_pids)"

# --- 1. a runner killed mid-job: the job is redone and completes -----------
hold_on
id=$(start_job)
pid=$(catch "$id" 1)
kill -KILL "$pid"
again=$(catch "$id" 2)
hold_off
kill -CONT "$again"
wait_status "$id" Completed
read -r s a < <(status_of "$id")
[ "$a" = 2 ] || fail "job $id completed in attempt $a, expected 2"
grep -q "export runner $pid died unexpectedly: killed by signal 9" "$log" ||
    fail "the runner's death is not logged"
grep -q "took over job .* from [^ ]*:$pid:[0-9a-f]*, whose process is gone; queued it again" "$log" ||
    fail "the take-over is not logged"
out=$(call GET "/bulk/v1/customobjects/bxrun/export/$id/status.json")
sum=$(answer "$out" 'result[0].fileChecksum')
[ "$(answer "$out" 'result[0].numberOfRecords')" = "$N" ] || fail "records: $out"
curl -sS -o "$work/f" -H "Authorization: Bearer $token" \
    "$base/bulk/v1/customobjects/bxrun/export/$id/file.json"
[ "sha256:$(sha256sum "$work/f" | cut -d' ' -f1)" = "$sum" ] ||
    fail "the file of the redone job does not match its checksum"
ls "$exports" | grep -q '\.part$' && fail "partial files left: $(ls "$exports")"
[ ! -e "$exports/$id-1.csv" ] || fail "a file of the dead attempt exists"
for _ in $(seq 50); do
	[ "$(runner_pids | wc -w)" = 2 ] && break
	sleep 0.2
done
[ "$(runner_pids | wc -w)" = 2 ] || fail "the runner was not respawned"
echo "  a runner killed mid-job: respawned, job taken over, completed in attempt 2, checksum right"

# --- 2. three deaths: the job fails, never stuck in Processing -----------
hold_on
id=$(start_job)
for attempt in 1 2 3; do
	pid=$(catch "$id" "$attempt")
	kill -KILL "$pid"
	done
wait_status "$id" Failed
hold_off
out=$(call GET "/bulk/v1/customobjects/bxrun/export/$id/status.json")
case $(answer "$out" 'result[0].errorMsg') in
*"stopped unexpectedly 3 times"*) ;;
*) fail "errorMsg: $out" ;;
esac
answer "$out" 'result[0].finishedAt' >/dev/null || fail "no finishedAt: $out"
out=$(call GET "/bulk/v1/customobjects/bxrun/export/$id/file.json")
[ "$(printf '%s\n' "$out" | head -n 1)" = 404 ] || fail "file of a Failed job: $out"
echo "  three deaths in a row: Failed with errorMsg, file 404"

# --- 3. cancel while Processing -------------------------------------------
hold_on
id=$(start_job)
pid=$(catch "$id" 1)
hold_off
out=$(call POST "/bulk/v1/customobjects/bxrun/export/$id/cancel.json")
[ "$(answer "$out" 'result[0].status')" = Cancelled ] || fail "cancel: $out"
# Past a heartbeat interval: the runner's next check asks the database.
sleep 1.5
kill -CONT "$pid"
for ((i = 0; i < 100; i++)); do
	held=$(db "SELECT COUNT(*) FROM export_slot s JOIN export_job j
	    ON j.id = s.job_id WHERE j.export_id = '$id'")
	[ "$held" = 0 ] && break
	sleep 0.1
done
[ "$held" = 0 ] || fail "the cancelled job still holds a slot after 10 s"
grep -q "export runner [01]: job [0-9]* was cancelled or taken over; stopped" "$log" ||
    fail "the runner did not stop its work on the cancelled job"
sleep 0.5
ls "$exports" | grep -q "^$id" && fail "files of the cancelled job: $(ls "$exports")"
[ "$(status_of "$id" | cut -f1)" = Cancelled ] || fail "status changed after cancel"
out=$(call GET "/bulk/v1/customobjects/bxrun/export/$id/file.json")
[ "$(printf '%s\n' "$out" | head -n 1)" = 404 ] || fail "file of a cancelled job: $out"
echo "  cancel while Processing: the runner stopped, no file, slot free"

# --- 4. 404 while Queued, 200 once Completed ---------------------------------
pids=$(runner_pids)
# shellcheck disable=SC2086
kill -STOP $pids
paused="$paused $pids"
id=$(start_job)
out=$(call GET "/bulk/v1/customobjects/bxrun/export/$id/file.json")
case $out in
404*"is Queued: its file is not ready"*) ;;
*) fail "file of a Queued job: $out" ;;
esac
# shellcheck disable=SC2086
kill -CONT $pids
paused=""
wait_status "$id" Completed
out=$(curl -sS -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" \
    "$base/bulk/v1/customobjects/bxrun/export/$id/file.json")
[ "$out" = 200 ] || fail "file of the completed job: $out"
echo "  the file is 404 while Queued and 200 once Completed"

# --- 5. SIGHUP mid-job: runners replaced, the job given back -------------
before=$(runner_pids)
hold_on
id=$(start_job)
pid=$(catch "$id" 1)
kill -HUP "$master"
sleep 0.3
hold_off
kill -CONT "$pid"
paused=""
wait_status "$id" Completed
read -r s a < <(status_of "$id")
[ "$a" = 1 ] || fail "after SIGHUP the job completed in attempt $a, expected 1"
grep -q "export runner [01]: stopping; job [0-9]* queued again" "$log" ||
    fail "the stopping runner did not give the job back"
for _ in $(seq 50); do
	after=$(runner_pids)
	[ "$(echo $after | wc -w)" = 2 ] && [ -z "$(comm -12 <(echo $before | tr ' ' '\n') <(echo $after | tr ' ' '\n'))" ] && break
	sleep 0.2
done
[ -z "$(comm -12 <(echo $before | tr ' ' '\n') <(echo $after | tr ' ' '\n'))" ] ||
    fail "SIGHUP did not replace the runners ($before / $after)"
echo "  SIGHUP: runners replaced, the job given back and completed in attempt 1"
grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log" &&
    fail "sanitizer report in the daemon log"
echo "runner deaths, cancels and reloads never leave a job stuck"
