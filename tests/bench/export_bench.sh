#!/usr/bin/env bash
# Bulk export benchmark (src/export/runner.c): the records per second of
# an export of N custom object records (default 1,000,000) and the peak
# resident memory of the runner that wrote it, next to the same for N/10
# records, so that memory independent of the record count shows.
#
#   MAUTOD=build/mautod MAUTOCTL=build/mautoctl tests/bench/export_bench.sh [N]
#
# Needs a MariaDB server: MAUTO_TEST_DB_* (tests/harness/mariadb.sh, or
# /work/devdb/env); a stack of its own is started on it (new database,
# mautod with its runners, nginx) and removed at the end.  Use a build
# without sanitizers for figures that mean anything.  Each type of record
# has seven columns: a GUID, a dedupe string, a text with quotes and
# NULLs, a float, a boolean, a lead link and updatedAt.
#
# Prints one line per export: records, bytes, the runner's time (from
# its log), records/s, the time from enqueue to Completed, and the
# runner's VmHWM (peak RSS since the runner started; each export runs in
# a fresh runner).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/env.sh
. "$here/../harness/env.sh"

N=${1:-1000000}
[ -n "${MAUTO_TEST_DB_SOCKET:-}" ] || harness_die "set MAUTO_TEST_DB_* (a MariaDB server)"
work=$(mktemp -d "${TMPDIR:-/tmp}/mauto-export-bench.XXXXXX")
trap 'harness_stack_stop "$work/stack"; rm -rf "$work"' EXIT
harness_db_env "$work/server.env" "$MAUTO_TEST_DB_SOCKET" "$MAUTO_TEST_DB_NAME" \
    "$MAUTO_TEST_DB_USER" "$MAUTO_TEST_DB_PASSWORD"
harness_stack_start "$work/stack" "$work/server.env" MAUTO_RATE_LIMIT_CALLS=0 \
    MAUTO_DAILY_QUOTA=0 MAUTO_EXPORT_DAILY_QUOTA_MB=0 MAUTO_LOG_LEVEL=info
# shellcheck disable=SC1091
. "$work/stack/stack.env"
base=$MAUTO_TEST_BASE_URL
token=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")
master=$(harness_pidfile_pid "$work/stack/mautod.pid")
log=$work/stack/mautod.log

call()
{
	curl -sS --max-time 60 -X "$1" -H "Authorization: Bearer $token" \
	    -H 'Content-Type: application/json' ${3:+--data-binary "$3"} "$base$2"
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

call POST /rest/v1/customobjects/schema.json \
    '{"apiName": "bench", "displayName": "Bench"}' >/dev/null
call POST /rest/v1/customobjects/schema/bench/addField.json \
    '{"input": [{"name": "vin", "displayName": "VIN", "dataType": "string", "isDedupeField": true},
	{"name": "color", "displayName": "Color", "dataType": "string"},
	{"name": "price", "displayName": "Price", "dataType": "float"},
	{"name": "sold", "displayName": "Sold", "dataType": "boolean"},
	{"name": "leadId", "displayName": "Lead", "dataType": "link",
	"relatedTo": {"name": "lead", "field": "id"}}]}' >/dev/null
call POST /rest/v1/customobjects/schema/bench/approve.json >/dev/null
tid=$(db "SELECT id FROM co_type WHERE api_name = 'bench'")
[ -n "$tid" ] || harness_die "the bench type was not made"
harness_log "inserting $N records"
left=$N
start=1
while [ "$left" -gt 0 ]; do
	n=$((left > 200000 ? 200000 : left))
	db "INSERT INTO co_rec_$tid (marketoGUID, createdAt, updatedAt, vin,
	    color, price, sold, leadId) SELECT
	    CONCAT('00000000-0000-4000-8000-', LPAD(seq, 12, '0')),
	    '2023-12-31', '2024-01-01 00:00:00' + INTERVAL seq SECOND,
	    CONCAT('VIN-', seq), IF(seq % 7 = 0, NULL,
	    IF(seq % 5 = 0, 'red, \"metallic\"', 'deep blue')), seq / 4,
	    seq % 2, seq % 5000 FROM seq_${start}_to_$((start + n - 1))"
	start=$((start + n))
	left=$((left - n))
done

# export COUNT: exports records 1..COUNT in a fresh runner and prints a line.
export_run()
{
	local count=$1 end id t0 t1 s line pid ms bytes hwm i
	end=$(date -u -d "2024-01-01 00:00:00 UTC + $count seconds" +%Y-%m-%dT%H:%M:%SZ)
	# A fresh pair of runners: their peak RSS covers this export only.
	kill -HUP "$master"
	sleep 2
	id=$(call POST /bulk/v1/customobjects/bench/export/create.json \
	    "{\"fields\": [\"marketoGUID\", \"vin\", \"color\", \"price\", \"sold\", \"leadId\", \"updatedAt\"],
	    \"filter\": {\"updatedAt\": {\"startAt\": \"2024-01-01T00:00:01Z\", \"endAt\": \"$end\"}}}" |
	    harness_json_get 'result[0].exportId')
	t0=$(date +%s%N)
	call POST "/bulk/v1/customobjects/bench/export/$id/enqueue.json" >/dev/null
	for ((i = 0; i < 6000; i++)); do
		s=$(call GET "/bulk/v1/customobjects/bench/export/$id/status.json" |
		    harness_json_get 'result[0].status')
		[ "$s" = Completed ] && break
		[ "$s" = Failed ] && harness_die "the export failed"
		sleep 0.1
	done
	t1=$(date +%s%N)
	line=$(grep "job $id: " "$log" | tail -n 1)
	pid=$(printf '%s' "$line" | sed -n 's/^mautod\[\([0-9]*\)\].*/\1/p')
	ms=$(printf '%s' "$line" | sed -n 's/.* in \([0-9]*\) ms$/\1/p')
	bytes=$(printf '%s' "$line" | sed -n 's/.*records, \([0-9]*\) bytes.*/\1/p')
	hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
	printf '%9d records  %11d bytes  runner %6d ms  %9d records/s  enqueue->Completed %6d ms  runner peak RSS %6d KiB\n' \
	    "$count" "$bytes" "$ms" "$((count * 1000 / (ms > 0 ? ms : 1)))" \
	    "$(((t1 - t0) / 1000000))" "$hwm"
}

echo "mautod: $(harness_bin mautod)"
export_run $((N / 10))
export_run "$N"
