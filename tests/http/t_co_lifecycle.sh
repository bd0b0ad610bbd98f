#!/usr/bin/env bash
# name: custom object records survive a new draft and a second approval
# docs/behaviour.md §6.1-§6.2 and the issue's scenario: a type linked to
# leads is approved; 1,000 records are synced in 4 batches (300, 300, 300,
# 100) through HTTP; a field is added through a new draft (the records
# API keeps the approved version meanwhile) and the type approved again;
# all 1,000 records are still there, read back page by page, with the new
# column (null until written); writing it updates them.  Also the SQL
# side: one table co_rec_<id>, its unique dedupe index and the link index.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

base=$MAUTO_TEST_BASE_URL
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tag=$(harness_random_hex 3)
type=life$tag
failed=0

# api METHOD PATH [JSON]: the response body goes to $work/out.
api()
{
	local m=$1 p=$2
	shift 2
	if [ $# -gt 0 ]; then
		printf '%s' "$1" >"$work/req"
		curl -sS --max-time 60 -X "$m" \
		    -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
		    -H 'Content-Type: application/json' --data-binary @"$work/req" \
		    "$base$p" >"$work/out"
	else
		curl -sS --max-time 60 -X "$m" \
		    -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
		    "$base$p" >"$work/out"
	fi
}

# expect DESCRIPTION PYTHON: the expression, on d (the last body), holds.
expect()
{
	if python3 -c 'import json, re, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + "\n)") else 1)' "$work/out" "$2" 2>"$work/err"; then
		echo "ok - $1"
	else
		echo "not ok - $1"
		echo "  body: $(head -c 600 "$work/out")"
		cat "$work/err"
		failed=1
	fi
}

# records FROM N LEAD [EXTRA]: a JSON input array of N cars from FROM.
records()
{
	python3 -c 'import json, sys
f, n, lead = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
extra = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
print(json.dumps({"input": [dict({"vin": "L%04d" % i, "leadId": lead,
    "n": i}, **extra) for i in range(f, f + n)]}))' "$@"
}

api POST /rest/v1/leads.json "{\"input\": [{\"email\": \"$type@example.com\"}]}"
lead=$(harness_json_get 'result[0].id' <"$work/out")
expect "a lead to link to" "d['result'][0]['status'] == 'created'"

api POST /rest/v1/customobjects/schema.json \
    "{\"apiName\": \"$type\", \"displayName\": \"Life $tag\"}"
api POST "/rest/v1/customobjects/schema/$type/addField.json" '{"input": [
    {"name": "vin", "displayName": "VIN", "dataType": "string", "isDedupeField": true},
    {"name": "leadId", "displayName": "Lead", "dataType": "link",
     "relatedTo": {"name": "lead", "field": "id"}},
    {"name": "n", "displayName": "N", "dataType": "integer"}]}'
api POST "/rest/v1/customobjects/schema/$type/approve.json"
expect "the type is approved" "d == {'requestId': d['requestId'], 'result': [], 'success': True}"

from=0
for n in 300 300 300 100; do
	api POST "/rest/v1/customobjects/$type.json" "$(records $from $n "$lead")"
	expect "batch of $n from $from: all created, in order" \
	    "len(d['result']) == $n and all(r['status'] == 'created' and
	     r['seq'] == i and re.match('^[0-9a-f-]{36}\$', r['marketoGUID'])
	     for i, r in enumerate(d['result']))"
	from=$((from + n))
done

# A field through a new draft: the records still follow the approved one.
api POST "/rest/v1/customobjects/schema/$type/addField.json" \
    '{"input": [{"name": "color", "displayName": "Color", "dataType": "string"}]}'
expect "a field is added to a new draft" "d['success']"
api GET "/rest/v1/customobjects/schema/$type/describe.json"
expect "the type is approvedWithDraft, approved version without the field" \
    "d['result'][0]['state'] == 'approvedWithDraft' and
     'color' not in [f['name'] for f in d['result'][0]['fields']]"
api GET "/rest/v1/customobjects/$type.json?filterType=vin&filterValues=L0001&fields=color"
expect "the records API does not know the draft field yet (1006)" \
    "not d['success'] and d['errors'][0]['code'] == '1006'"

api POST "/rest/v1/customobjects/schema/$type/approve.json"
expect "the type is approved again" "d['success']"
api GET "/rest/v1/customobjects/$type/describe.json"
expect "the new field is in the approved version" \
    "'color' in [f['name'] for f in d['result'][0]['fields']]"

# Every record, page by page through the link field.
seen=0
token=""
pages=0
ok=1
while :; do
	q="filterType=leadId&filterValues=$lead&fields=vin,n,color,leadId&batchSize=300"
	[ -z "$token" ] || q="$q&nextPageToken=$token"
	api GET "/rest/v1/customobjects/$type.json?$q"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["success"], d
for r in d["result"]:
    assert r["color"] is None and r["vin"] == "L%04d" % r["n"], r
    assert r["leadId"] == int(sys.argv[2]) and r["seq"] == 0, r' \
	    "$work/out" "$lead" 2>"$work/err" || { ok=0; cat "$work/err"; break; }
	got=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["result"]))' "$work/out")
	seen=$((seen + got))
	pages=$((pages + 1))
	token=$(harness_json_get nextPageToken <"$work/out" || true)
	[ -n "$token" ] || break
	[ "$pages" -lt 10 ] || { ok=0; break; }
done
if [ "$ok" = 1 ] && [ "$seen" = 1000 ] && [ "$pages" = 4 ]; then
	echo "ok - all 1000 records are still there (4 pages), color null"
else
	echo "not ok - read back $seen records in $pages pages"
	failed=1
fi

# Writing the new column updates the existing records.
api POST "/rest/v1/customobjects/$type.json" "$(records 0 300 "$lead" '{"color": "red"}')"
expect "300 updates with the new field" \
    "len(d['result']) == 300 and all(r['status'] == 'updated' for r in d['result'])"
api GET "/rest/v1/customobjects/$type.json?filterType=vin&filterValues=L0299,L0300&fields=color,n"
expect "the new column holds the value; others stay null" \
    "[(r['seq'], r['color'], r['n']) for r in d['result']] ==
     [(0, 'red', 299), (1, None, 300)]"

# The type can go, and its records with it.
api POST "/rest/v1/customobjects/schema/$type/delete.json"
expect "the type is deleted" "d['success']"
api GET "/rest/v1/customobjects/$type.json?filterType=vin&filterValues=L0001"
expect "its records are gone with it (1013)" \
    "not d['success'] and d['errors'][0]['code'] == '1013'"

exit $failed
