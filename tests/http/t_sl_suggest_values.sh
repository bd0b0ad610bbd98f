#!/usr/bin/env bash
# name: Auto Suggest of a free-text constraint answers the existing values of a lead field or a custom object field, prefix-filtered (wildcards literal, the column's case rules), distinct, sorted, at most 200
# docs/assets.md (Auto Suggest) and the choices at the top of
# src/api/api_smart_lists.c: a custom lead field and a custom object type
# made through the API, leads and records written through the API, then
# the values their smart list rules suggest, through a smart list and a
# smart campaign.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# suggest PATH RULETYPE [OPTION] [PREFIX]: Auto Suggest of the list or
# campaign at PATH (smartList/N or smartCampaign/N).
suggest()
{
	local p=$1 rt=$2 opt=${3:-} pre=${4-}
	local args=(-G --data-urlencode "ruleTypeId=$rt")
	[ -z "$opt" ] || args+=(--data-urlencode "optionTypeId=$opt")
	[ $# -lt 4 ] || args+=(--data-urlencode "primaryAttributeValue=$pre")
	form GET "/rest/asset/v1/$p/autoSuggest.json" "${args[@]}"
}

# The names of the suggestions in the last answer, as Python text.
names="[s['name'] for s in d['result'][0]]"
none="d['success'] and d['warnings'] == ['No assets found for the given search criteria.']"

fld=sug$tag
prog=$(ctl program create --name "SUG-Prog-$tag")
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=sug-list-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
sl=$(py "d['result'][0]['id']")
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=sug-camp-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
camp=$(py "d['result'][0]['id']")

# ---- a custom lead field and its values ------------------------------------
api POST /rest/v1/leads/schema/fields.json \
    "{\"input\":[{\"name\":\"$fld\",\"displayName\":\"Sug $tag\",\"dataType\":\"string\"}]}"
expect "a custom lead field is created" "d['result'][0]['status'] == 'created'"
api GET /rest/v1/leads/describe.json
attr=$(py "[f['id'] for f in d['result'] if f['rest']['name'] == '$fld'][0]")
rt_attr="{\"id\":$attr,\"type\":\"attribute\"}"
city=$(py "[f['id'] for f in d['result'] if f['rest']['name'] == 'city'][0]")
email=$(py "[f['id'] for f in d['result'] if f['rest']['name'] == 'email'][0]")
api POST /rest/v1/leads.json "{\"action\":\"createOnly\",\"input\":[
 {\"email\":\"sug$tag-1@example.com\",\"$fld\":\"Alpha\",\"city\":\"Sug$tag Town\"},
 {\"email\":\"sug$tag-2@example.com\",\"$fld\":\"Alpha\",\"city\":\"Sug$tag Town\"},
 {\"email\":\"sug$tag-3@example.com\",\"$fld\":\"alpha\",\"city\":\"sug$tag village\"},
 {\"email\":\"sug$tag-4@example.com\",\"$fld\":\"Alp%ha\"},
 {\"email\":\"sug$tag-5@example.com\",\"$fld\":\"Al_x\"},
 {\"email\":\"sug$tag-6@example.com\",\"$fld\":\"Beta\"},
 {\"email\":\"sug$tag-7@example.com\",\"$fld\":\"\"}]}"
expect "leads with values of the field are created" \
    "[r['status'] for r in d['result']] == ['created'] * 7"

suggest "smartList/$sl" "$rt_attr"
expect "without a prefix: every distinct value, not empty ones, sorted as the column's binary collation, ids their positions, names and display names the values" \
    "d['result'] == [[{'id': i + 1, 'displayName': v, 'name': v, 'workspace': 'Default', 'workspaceId': 1} for i, v in enumerate(['Al_x', 'Alp%ha', 'Alpha', 'Beta', 'alpha'])]]"
suggest "smartList/$sl" "$rt_attr" "" Al
expect "a prefix keeps the values starting with it, case as the column compares (binary)" \
    "$names == ['Al_x', 'Alp%ha', 'Alpha']"
suggest "smartList/$sl" "$rt_attr" "" 'Alp%'
expect "% in the prefix is taken literally" "$names == ['Alp%ha']"
suggest "smartList/$sl" "$rt_attr" "" 'Al_'
expect "_ in the prefix is taken literally" "$names == ['Al_x']"
suggest "smartList/$sl" "$rt_attr" "" 'Gamma'
expect "a prefix no value has: No assets found" "$none"
suggest "smartCampaign/$camp" "$rt_attr" "" al
expect "a smart campaign suggests the same values" "$names == ['alpha']"

suggest "smartList/$sl" "{\"id\":$city,\"type\":\"attribute\"}" "" "Sug$tag"
expect "a standard field's values (city)" "$names == ['Sug$tag Town']"
suggest "smartList/$sl" "{\"id\":$email,\"type\":\"attribute\"}" "" "SUG$tag-"
expect "email compares without case as its column does" \
    "$names == ['sug$tag-%d@example.com' % i for i in range(1, 8)]"

# The limit: 205 more distinct values, 200 answered, the first by order.
input=$(python3 -c 'import json, sys
print(json.dumps({"action": "createOnly", "input": [{"email": "sug%s-l%d@example.com" % (sys.argv[1], i), sys.argv[2]: "L%03d" % i} for i in range(205)]}))' "$tag" "$fld")
api POST /rest/v1/leads.json "$input"
expect "205 leads more are created" \
    "[r['status'] for r in d['result']] == ['created'] * 205"
suggest "smartList/$sl" "$rt_attr" "" L
expect "at most 200 values, the first 200 in order" \
    "$names == ['L%03d' % i for i in range(200)] and d['result'][0][-1]['id'] == 200"

# ---- a custom object type and its records ---------------------------------
co=sug$tag
api POST /rest/v1/customobjects/schema.json \
    "{\"apiName\":\"$co\",\"displayName\":\"Sug $tag\"}"
api POST "/rest/v1/customobjects/schema/$co/addField.json" \
    "{\"input\":[{\"name\":\"vin\",\"displayName\":\"VIN\",\"dataType\":\"string\",\"isDedupeField\":true},{\"name\":\"color\",\"displayName\":\"Color\",\"dataType\":\"string\"},{\"name\":\"miles\",\"displayName\":\"Miles\",\"dataType\":\"integer\"}]}"
api POST "/rest/v1/customobjects/schema/$co/approve.json"
expect "a custom object type is approved" "d['success']"
form GET /rest/asset/v1/smartList/rules.json
rt=$(py "[f['id'] for f in d['result'][0]['filters'] if f['name'] == 'Has Sug $tag'][0]")
rt_co="{\"id\":$rt,\"type\":\"activity\"}"
kcolor=$(py "[k['id'] for f in d['result'][0]['filters'] if f['name'] == 'Has Sug $tag' for k in f['constraints'] if k['name'] == 'Color'][0]")
kmiles=$(py "[k['id'] for f in d['result'][0]['filters'] if f['name'] == 'Has Sug $tag' for k in f['constraints'] if k['name'] == 'Miles'][0]")
opt_color="{\"id\":$kcolor,\"type\":\"activity\"}"

suggest "smartList/$sl" "$rt_co" "$opt_color"
expect "a type without records: No assets found" "$none"
api POST "/rest/v1/customobjects/$co.json" "{\"input\":[
 {\"vin\":\"V1\",\"color\":\"red\",\"miles\":10},
 {\"vin\":\"V2\",\"color\":\"red\",\"miles\":20},
 {\"vin\":\"V3\",\"color\":\"Red\"},
 {\"vin\":\"V4\",\"color\":\"rose\"},
 {\"vin\":\"V5\",\"color\":\"r%x\"},
 {\"vin\":\"V6\",\"color\":\"r_y\"},
 {\"vin\":\"W7\"}]}"
expect "records are written" \
    "[r['status'] for r in d['result']] == ['created'] * 7"

suggest "smartList/$sl" "$rt_co"
expect "the primary constraint (the dedupe field) suggests its values" \
    "$names == ['V1', 'V2', 'V3', 'V4', 'V5', 'V6', 'W7']"
suggest "smartList/$sl" "$rt_co" "" V
expect "filtered by the prefix" "$names == ['V1', 'V2', 'V3', 'V4', 'V5', 'V6']"
suggest "smartList/$sl" "$rt_co" "$opt_color" r
expect "a field's constraint (optionTypeId) suggests that field's distinct values, binary order and case" \
    "$names == ['r%x', 'r_y', 'red', 'rose']"
suggest "smartList/$sl" "$rt_co" "$opt_color" 'r%'
expect "% taken literally" "$names == ['r%x']"
suggest "smartList/$sl" "$rt_co" "$opt_color" 'r_'
expect "_ taken literally" "$names == ['r_y']"
suggest "smartCampaign/$camp" "$rt_co" "$opt_color" R
expect "through a smart campaign" "$names == ['Red']"
suggest "smartList/$sl" "$rt_co" "{\"id\":$kmiles,\"type\":\"activity\"}"
expect "a number field has no suggestions" "$none"

form POST "/rest/asset/v1/smartCampaign/$camp/delete.json"
form POST "/rest/asset/v1/smartList/$sl/delete.json"
api POST "/rest/v1/customobjects/schema/$co/delete.json"
expect "the type is deleted" "d['success']"

exit "$failed"
