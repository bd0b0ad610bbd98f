#!/usr/bin/env bash
# name: smart campaigns: the flow's reply text kept on the campaign's row is what a read answers while the flow and the names it shows are unchanged; every flow change, lead field rename and custom object schema change stops its use
# db/migrations/0020_rendered_flows.sql and repo_sc_get_with_flow
# (src/repo/repo_smart_campaigns.h).  A marker text written into the row
# shows when a read answers from it.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

folder=$(ctl folder create --name "KF-$tag" --parent 1)
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=kf-$tag" \
    --data-urlencode "folder={\"id\":$folder,\"type\":\"Folder\"}"
expect "a campaign is made" "d['success']"
camp=$(py "d['result'][0]['id']")
path=/rest/asset/v1/smartCampaign/$camp

api POST /rest/v1/leads/schema/fields.json \
    "{\"input\":[{\"name\":\"kf$tag\",\"displayName\":\"KF Field $tag\",\"dataType\":\"string\"}]}"
expect "a custom lead field is made" "d['success'] and d['result'][0]['status'] == 'created'"
form GET /rest/asset/v1/smartList/rules.json
attr=$(py "[f['id'] for f in d['result'][0]['filters'] if f['name'] == 'KF Field $tag'][0]")

# A Change Data Value step whose first choice's condition is the field.
form POST "$path/flows.json" \
    --data-urlencode 'activityType={"id":13,"type":"activity"}' -d index=0
step=$(py "d['result'][0]['flow']['steps'][0]['id']")
form POST "$path/flow/$step/addChoice.json"
ch=$(py "d['result'][0]['flow']['steps'][0]['stepChoice'][0]['id']")
form POST "$path/flow/$step/choice/$ch.json" \
    --data-urlencode "conditionTypeId={\"id\":$attr,\"type\":\"attribute\"}" \
    -d conditionValues=x --data-urlencode 'attributes={"1":"firstName","2":"A"}'
expect "the choice's condition is the field, by its display name" \
    "d['result'][0]['flow']['steps'][0]['stepChoice'][0]['rule']['name'] == 'KF Field $tag'"

# ---- kept and used -------------------------------------------------------
form GET "$path.json"
cp "$work/out" "$work/first"
expect_sql "a read keeps the flow's text on the row" \
    "SELECT flow_json IS NOT NULL FROM smart_campaign WHERE id = $camp" 1
kept_in_reply "the kept text is the reply's flow member, byte for byte" \
    flow smart_campaign flow_json "$camp"
# same DESCRIPTION: the last answer's result is the first read's.
same()
{
	if python3 -c 'import json, sys
a, b = (json.load(open(p))["result"] for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)' "$work/first" "$work/out"; then
		echo "ok - $1"
	else
		echo "not ok - $1"
		failed=1
	fi
}
form GET "$path.json"
same "a read from the kept text answers what the first read did"
form GET "/rest/asset/v1/smartCampaign/byName.json" -G \
    --data-urlencode "name=kf-$tag"
same "and so does Get by Name"

# mark: replaces the kept text (under the current versions) with a marker.
mark()
{
	dbsql "UPDATE smart_campaign SET flow_json = '{\"steps\":[],\"marker\":1}' WHERE id = $camp"
}
mark
form GET "$path.json"
expect "a read answers the row's kept text" \
    "d['result'][0]['flow'] == {'steps': [], 'marker': 1}"
form GET "$path.json" -G -d includeFlowSteps=false
expect "includeFlowSteps=false shows no flow" "'flow' not in d['result'][0]"

# ---- what stops its use ---------------------------------------------------
api POST "/rest/v1/leads/schema/fields/kf$tag.json" \
    "{\"input\":[{\"displayName\":\"KF Renamed $tag\"}]}"
expect "the field is renamed" "d['success'] and d['result'][0]['status'] == 'updated'"
form GET "$path.json"
expect "after a lead field rename the flow is read again, with the new name" \
    "'marker' not in d['result'][0]['flow'] and d['result'][0]['flow']['steps'][0]['stepChoice'][0]['rule']['name'] == 'KF Renamed $tag'"

mark
dbsql "UPDATE co_schema SET version = version + 1 WHERE id = 1"
form GET "$path.json"
expect "after a custom object schema change the flow is read again" \
    "'marker' not in d['result'][0]['flow'] and d['result'][0]['flow']['steps'][0]['id'] == $step"

# change DESCRIPTION PYEXPR METHOD PATH ARGS...: a flow change over a
# marker; the next read shows the change, not the marker.
change()
{
	local what=$1 want=$2 rev
	shift 2
	mark
	rev=$(dbsql "SELECT flow_rev FROM smart_campaign WHERE id = $camp")
	form "$@"
	expect "$what is made" "d['success']"
	expect_sql "$what moves the flow's revision on" \
	    "SELECT flow_rev > $rev FROM smart_campaign WHERE id = $camp" 1
	form GET "$path.json"
	expect "$what is read back, not the marker" \
	    "'marker' not in d['result'][0]['flow'] and ($want)"
}
change "a new step" "len(d['result'][0]['flow']['steps']) == 2" \
    POST "$path/flows.json" \
    --data-urlencode 'activityType={"id":100001,"type":"activity"}' -d index=1
wait=$(py "d['result'][0]['flow']['steps'][1]['id']")
change "a choice's attributes" \
    "d['result'][0]['flow']['steps'][0]['stepChoice'][0]['attributes'][1]['value'] == 'B'" \
    POST "$path/flow/$step/choice/$ch.json" \
    --data-urlencode 'attributes={"2":"B"}'
change "a new choice" "len(d['result'][0]['flow']['steps'][0]['stepChoice']) == 3" \
    POST "$path/flow/$step/addChoice.json"
change "a reordered choice" "d['result'][0]['flow']['steps'][0]['stepChoice'][1]['id'] == $ch" \
    POST "$path/flow/$step/choice/$ch/reorder.json?newSeqNumZeroBased=1"
change "a removed choice" "$ch not in [c['id'] for c in d['result'][0]['flow']['steps'][0]['stepChoice']]" \
    POST "$path/flow/$step/choice/$ch/remove.json"
change "a removed step" "[s['id'] for s in d['result'][0]['flow']['steps']] == [$step]" \
    POST "$path/flow/$wait/remove.json"

form POST "/rest/asset/v1/smartCampaign/$camp/clone.json" \
    --data-urlencode "name=kf-clone-$tag" \
    --data-urlencode "folder={\"id\":$folder,\"type\":\"Folder\"}"
expect "the campaign is cloned" "d['success']"
clone=$(py "d['result'][0]['id']")
form GET "/rest/asset/v1/smartCampaign/$clone.json"
expect "a clone's flow is its own copy, not the source's kept text" \
    "'marker' not in d['result'][0]['flow'] and len(d['result'][0]['flow']['steps']) == 1 and d['result'][0]['flow']['steps'][0]['id'] != $step"
exit "$failed"
