#!/usr/bin/env bash
# name: bulk export of 100,000 custom object records, end to end
# docs/behaviour.md §7: create, enqueue, the runner writes the file,
# status Completed with numberOfRecords, fileSize and fileChecksum; the
# file's SHA-256 is checked with sha256sum, its content with Python's csv
# module against the database; a download in ranged pieces (a-b, a-,
# -n) put back together equals the whole file; 416 past the end; TSV and
# SSV; the static list filter; Get Export Jobs paging through every job.
# A stack of its own (runners on, no limits).
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ -z "${MAUTO_TEST_DB_ENV:-}" ]; then
	echo "needs a database server of this run (MAUTO_TEST_DB_ENV)"
	exit 77
fi
command -v sha256sum >/dev/null || { echo "sha256sum is missing"; exit 77; }
work=$(mktemp -d)
trap 'harness_stack_stop "$work/stack"; rm -rf "$work"' EXIT
harness_stack_start "$work/stack" "$MAUTO_TEST_DB_ENV" \
    MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0 MAUTO_EXPORT_DAILY_QUOTA_MB=0
# shellcheck disable=SC1091
. "$work/stack/stack.env"
base=$MAUTO_TEST_BASE_URL
token=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")
N=100000

fail()
{
	echo "FAIL: $*"
	exit 1
}

# call METHOD PATH [JSON]: status on the first line, the body after it.
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

# get PATH KEY: a member of a JSON answer.
get()
{
	call GET "$1" | sed -n '2,$p' | harness_json_get "$2"
}

# db SQL: runs SQL in the stack's database.
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

# create JSON: prints the new job's exportId.
create()
{
	local out
	out=$(call POST /bulk/v1/customobjects/bxe2e/export/create.json "$1")
	printf '%s\n' "$out" | sed -n '2,$p' |
	    harness_json_get 'result[0].exportId' ||
	    fail "create refused: $out"
}

# run ID: enqueues the job and waits until it is Completed.
run()
{
	local id=$1 i s out
	out=$(call POST "/bulk/v1/customobjects/bxe2e/export/$id/enqueue.json")
	[ "$(printf '%s\n' "$out" | sed -n '2,$p' | harness_json_get success)" = true ] ||
	    fail "enqueue refused: $out"
	for ((i = 0; i < 600; i++)); do
		s=$(get "/bulk/v1/customobjects/bxe2e/export/$id/status.json" \
		    'result[0].status')
		case $s in
		Completed) return 0 ;;
		Failed | Cancelled) fail "job $id ended $s" ;;
		esac
		sleep 0.2
	done
	fail "job $id did not complete in 120 s (status $s)"
}

# --- the type and its records ----------------------------------------
call POST /rest/v1/customobjects/schema.json \
    '{"apiName": "bxe2e", "displayName": "BX e2e"}' >/dev/null
call POST /rest/v1/customobjects/schema/bxe2e/addField.json \
    '{"input": [{"name": "vin", "displayName": "VIN", "dataType": "string", "isDedupeField": true},
	{"name": "color", "displayName": "Color", "dataType": "string"},
	{"name": "price", "displayName": "Price", "dataType": "float"},
	{"name": "sold", "displayName": "Sold", "dataType": "boolean"},
	{"name": "leadId", "displayName": "Lead", "dataType": "link",
	"relatedTo": {"name": "lead", "field": "id"}}]}' >/dev/null
out=$(call POST /rest/v1/customobjects/schema/bxe2e/approve.json)
case $out in *'"success":true'*) ;; *) fail "approve: $out" ;; esac
tid=$(db "SELECT id FROM co_type WHERE api_name = 'bxe2e'")
# Record n: updated n seconds after 2024-01-01; every 7th colour NULL,
# every 5th with a comma and quotes, every 11th with a line break and
# non-ASCII text; link to lead n % 1000.
db "INSERT INTO co_rec_$tid (marketoGUID, createdAt, updatedAt, vin, color,
    price, sold, leadId) SELECT
    CONCAT('00000000-0000-4000-8000-', LPAD(seq, 12, '0')),
    '2023-12-31 00:00:00', '2024-01-01 00:00:00' + INTERVAL seq SECOND,
    CONCAT('V', seq), CASE WHEN seq % 7 = 0 THEN NULL
    WHEN seq % 5 = 0 THEN 'red, \"metallic\"'
    WHEN seq % 11 = 0 THEN 'two\nlines, Grün' ELSE 'blue' END,
    seq / 4, seq % 2, seq % 1000 FROM seq_1_to_$N"
[ "$(db "SELECT COUNT(*) FROM co_rec_$tid")" = "$N" ] || fail "fixture rows"

# --- the big export ------------------------------------------------------
id=$(create '{"fields": ["marketoGUID", "vin", "color", "price", "sold", "leadId", "updatedAt"],
	"columnHeaderNames": {"vin": "VIN #", "color": "Colour; \"paint\""},
	"filter": {"updatedAt": {"startAt": "2024-01-01T00:00:00Z", "endAt": "2024-01-31T00:00:00Z"}}}')
out=$(call GET "/bulk/v1/customobjects/bxe2e/export/$id/file.json")
[ "$(printf '%s\n' "$out" | head -n 1)" = 404 ] ||
    fail "file of a Created job: expected 404, got $out"
t0=$(date +%s%N)
run "$id"
t1=$(date +%s%N)
st=$(call GET "/bulk/v1/customobjects/bxe2e/export/$id/status.json" | sed -n '2,$p')
records=$(printf '%s' "$st" | harness_json_get 'result[0].numberOfRecords')
size=$(printf '%s' "$st" | harness_json_get 'result[0].fileSize')
sum=$(printf '%s' "$st" | harness_json_get 'result[0].fileChecksum')
[ "$records" = "$N" ] || fail "numberOfRecords $records, expected $N"
echo "  $N records exported in $(((t1 - t0) / 1000000)) ms (enqueue to Completed), $size bytes"

curl -sS --max-time 120 -D "$work/head" -o "$work/full" \
    -H "Authorization: Bearer $token" \
    "$base/bulk/v1/customobjects/bxe2e/export/$id/file.json"
grep -q '^HTTP/1.1 200' "$work/head" || fail "download: $(head -n 1 "$work/head")"
grep -qi '^Accept-Ranges: bytes' "$work/head" || fail "no Accept-Ranges"
grep -qi '^Content-Type: text/csv' "$work/head" || fail "not text/csv"
grep -qi "^Content-Length: $size" "$work/head" || fail "Content-Length"
[ "$(stat -c %s "$work/full")" = "$size" ] || fail "file size differs from fileSize"
got=$(sha256sum "$work/full" | cut -d' ' -f1)
[ "sha256:$got" = "$sum" ] || fail "sha256sum $got, fileChecksum $sum"
echo "  sha256sum of the download equals fileChecksum"

# The content, read back with a CSV parser, against the database.
db "SELECT SUM(color IS NULL), SUM(color LIKE '%metallic%'),
    SUM(color LIKE 'two%'), SUM(sold = 1) FROM co_rec_$tid" >"$work/counts"
python3 - "$work/full" "$work/counts" "$N" <<'PY' || fail "file content"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))
want = [int(x) for x in open(sys.argv[2]).read().split()]
n = int(sys.argv[3])
assert rows[0] == ['marketoGUID', 'VIN #', 'Colour; "paint"', 'price',
                   'sold', 'leadId', 'updatedAt'], rows[0]
body = rows[1:]
assert len(body) == n, len(body)
assert body[0] == ['00000000-0000-4000-8000-000000000001', 'V1', 'blue',
                   '0.25', 'true', '1', '2024-01-01T00:00:01Z'], body[0]
by_vin = {r[1]: r for r in body}
assert by_vin['V5'][2] == 'red, "metallic"', by_vin['V5']
assert by_vin['V7'][2] == 'null', by_vin['V7']
assert by_vin['V22'][2] == 'two\nlines, Grün', by_vin['V22']
assert by_vin['V1000'][5] == '0' and by_vin['V1000'][4] == 'false'
counts = [sum(r[2] == 'null' for r in body),
          sum('metallic' in r[2] for r in body),
          sum(r[2].startswith('two') for r in body),
          sum(r[4] == 'true' for r in body)]
assert counts == want, (counts, want)
# In updatedAt order: record n is line n.
assert all(body[i][1] == 'V%d' % (i + 1) for i in range(n))
PY
echo "  content matches the database (nulls, quotes, line breaks, order)"

# --- ranged download, put back together -----------------------------------
piece=$((size / 7 + 13))
: >"$work/joined"
off=0
while [ "$off" -lt "$size" ]; do
	last=$((off + piece - 1))
	if [ "$last" -ge "$((size - 1))" ]; then
		spec="$off-"		# the open form for the last piece
		last=$((size - 1))
	else
		spec="$off-$last"
	fi
	curl -sS -D "$work/h" -o "$work/part" -H "Authorization: Bearer $token" \
	    -H "Range: bytes=$spec" \
	    "$base/bulk/v1/customobjects/bxe2e/export/$id/file.json"
	grep -q '^HTTP/1.1 206' "$work/h" || fail "range $spec: $(head -n 1 "$work/h")"
	grep -qi "^Content-Range: bytes $off-$last/$size" "$work/h" ||
	    fail "range $spec: $(grep -i content-range "$work/h")"
	grep -qi "^Content-Length: $((last - off + 1))" "$work/h" ||
	    fail "range $spec: Content-Length"
	cat "$work/part" >>"$work/joined"
	off=$((last + 1))
done
cmp -s "$work/joined" "$work/full" || fail "the pieces differ from the file"
curl -sS -D "$work/h" -o "$work/part" -H "Authorization: Bearer $token" \
    -H "Range: bytes=-1000" "$base/bulk/v1/customobjects/bxe2e/export/$id/file.json"
grep -q '^HTTP/1.1 206' "$work/h" || fail "suffix range"
tail -c 1000 "$work/full" | cmp -s - "$work/part" || fail "suffix range content"
out=$(curl -sS -D - -o /dev/null -H "Authorization: Bearer $token" \
    -H "Range: bytes=$size-" "$base/bulk/v1/customobjects/bxe2e/export/$id/file.json")
case $out in
*"HTTP/1.1 416"*"Content-Range: bytes */$size"*) ;;
*) fail "range past the end: $out" ;;
esac
echo "  8 ranged pieces put back together equal the file; -n and 416 right"

# --- formats and the static list filter ---------------------------------
db "INSERT INTO static_list (name, created_at, updated_at)
    VALUES ('bx e2e list', UTC_TIMESTAMP(), UTC_TIMESTAMP())"
lid=$(db "SELECT id FROM static_list WHERE name = 'bx e2e list'")
db "INSERT INTO list_member (list_id, lead_id, created_at, updated_at)
    SELECT $lid, seq, UTC_TIMESTAMP(), UTC_TIMESTAMP() FROM seq_1_to_3"
want=$(db "SELECT COUNT(*) FROM co_rec_$tid WHERE leadId IN (1, 2, 3)")
db "SELECT SUM(color IS NULL), SUM(color LIKE 'two%') FROM co_rec_$tid
    WHERE leadId IN (1, 2, 3)" >"$work/lcounts"
for fmt in TSV SSV; do
	id2=$(create "{\"fields\": [\"leadId\", \"vin\", \"color\"], \"format\": \"$fmt\",
	    \"filter\": {\"staticListName\": \"bx e2e list\"}}")
	run "$id2"
	n=$(get "/bulk/v1/customobjects/bxe2e/export/$id2/status.json" \
	    'result[0].numberOfRecords')
	[ "$n" = "$want" ] || fail "$fmt static list: $n records, expected $want"
	curl -sS -D "$work/h" -o "$work/f" -H "Authorization: Bearer $token" \
	    "$base/bulk/v1/customobjects/bxe2e/export/$id2/file.json"
	grep -qi '^Content-Type: text/plain' "$work/h" || fail "$fmt content type"
	sep=$'\t'
	[ "$fmt" = SSV ] && sep=';'
	[ "$(head -n 1 "$work/f")" = "leadId${sep}vin${sep}color" ] ||
	    fail "$fmt header: $(head -n 1 "$work/f")"
	python3 - "$work/f" "$sep" "$want" "$work/lcounts" <<'PY' ||
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8'),
                       delimiter=sys.argv[2]))
assert len(rows) == int(sys.argv[3]) + 1, len(rows)
assert all(r[0] in ('1', '2', '3') for r in rows[1:])
want = [int(x) for x in open(sys.argv[4]).read().split()]
got = [sum(r[2] == 'null' for r in rows[1:]),
       sum(r[2] == 'two\nlines, Grün' for r in rows[1:])]
assert got == want and want[0] > 0 and want[1] > 0, (got, want)
PY
	    fail "$fmt content"
done
echo "  TSV and SSV with staticListName: $want records each"

# An empty selection: a header row only.
id3=$(create '{"fields": ["vin"], "filter": {"updatedAt": {"startAt": "2030-01-01T00:00:00Z", "endAt": "2030-01-02T00:00:00Z"}}}')
run "$id3"
[ "$(get "/bulk/v1/customobjects/bxe2e/export/$id3/status.json" 'result[0].numberOfRecords')" = 0 ] ||
    fail "empty export"
[ "$(call GET "/bulk/v1/customobjects/bxe2e/export/$id3/file.json" | sed -n '2,$p')" = vin ] ||
    fail "empty export file"

# --- Get Export Jobs: every job, two at a time ---------------------------
tok=""
seen=0
pages=0
while :; do
	q="batchSize=2"
	[ -n "$tok" ] && q="$q&nextPageToken=$tok"
	page=$(call GET "/bulk/v1/customobjects/bxe2e/export.json?$q" | sed -n '2,$p')
	n=$(printf '%s' "$page" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["result"]))')
	seen=$((seen + n))
	pages=$((pages + 1))
	more=$(printf '%s' "$page" | harness_json_get moreResult)
	[ "$more" = true ] || break
	tok=$(printf '%s' "$page" | harness_json_get nextPageToken)
	[ "$pages" -lt 10 ] || fail "paging does not end"
done
[ "$seen" = 4 ] && [ "$pages" = 2 ] || fail "paging: $seen jobs in $pages pages"
n=$(call GET "/bulk/v1/customobjects/bxe2e/export.json?status=completed" |
    sed -n '2,$p' | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["result"]))')
[ "$n" = 4 ] || fail "status=completed: $n jobs"
n=$(call GET "/bulk/v1/customobjects/bxe2e/export.json?status=Queued,Failed" |
    sed -n '2,$p' | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["result"]))')
[ "$n" = 0 ] || fail "status=Queued,Failed: $n jobs"
echo "  Get Export Jobs pages 4 jobs 2 by 2; status filters right"
grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$work/stack/mautod.log" &&
    fail "sanitizer report in the daemon log"
echo "100,000-record export: checksum, content, ranges, formats, lists right"
