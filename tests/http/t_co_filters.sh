#!/usr/bin/env bash
# name: custom object filters: an approved type is a smart list filter at once, its rules are the type's dependent assets and hold back deleting the type or a field they read
# docs/assets.md (custom object filters), db/migrations/0019_co_filters.sql
# and the choices at the top of src/api/api_smart_lists.c and
# src/api/api_co_types.c, end to end through the API: a type with fields
# is approved; its "Has" filter is in the catalogue with the fields as
# constraints; a smart list and a smart campaign use it; Get Custom
# Object Dependent Assets lists both with the fields they read; deleting
# the type or a field in use is refused (1003) until the rules are gone.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

co=cof$tag
prog=$(ctl program create --name "COF-Prog-$tag")

# ---- the type, through the API -----------------------------------------
api POST /rest/v1/customobjects/schema.json \
    "{\"apiName\":\"$co\",\"displayName\":\"Cof $tag\",\"pluralName\":\"Cofs $tag\"}"
expect "a custom object type is created" "d['success']"
api POST "/rest/v1/customobjects/schema/$co/addField.json" \
    "{\"input\":[{\"name\":\"vin\",\"displayName\":\"VIN\",\"dataType\":\"string\",\"isDedupeField\":true},{\"name\":\"color\",\"displayName\":\"Color\",\"dataType\":\"string\"},{\"name\":\"miles\",\"displayName\":\"Miles\",\"dataType\":\"integer\"}]}"
expect "its fields are added" "d['success']"
form GET /rest/asset/v1/smartList/rules.json
expect "a draft type is no filter yet" \
    "not [f for f in d['result'][0]['filters'] if f['name'] == 'Has Cof $tag']"
api POST "/rest/v1/customobjects/schema/$co/approve.json"
expect "the type is approved" "d['success']"

# ---- the filter and its constraints --------------------------------------
form GET /rest/asset/v1/smartList/rules.json
expect "the approved type is the filter 'Has <display name>', activity-kind" \
    "[(f['type'], f['id'] > 200000) for f in d['result'][0]['filters'] if f['name'] == 'Has Cof $tag'] == [('activity', True)]"
expect "its constraints are the fields, the dedupe field primary and first, with their operators and object" \
    "[(k['name'], k['dataType'], k['primary'], k['operator'], k['dbObject']) for f in d['result'][0]['filters'] if f['name'] == 'Has Cof $tag' for k in f['constraints']] == [('VIN', 'string', True, 'is', '$co'), ('Color', 'string', False, 'is', '$co'), ('Miles', 'integer', False, 'is', '$co')]"
rt=$(py "[f['id'] for f in d['result'][0]['filters'] if f['name'] == 'Has Cof $tag'][0]")
kcolor=$(py "[k['id'] for f in d['result'][0]['filters'] if f['name'] == 'Has Cof $tag' for k in f['constraints'] if k['name'] == 'Color'][0]")
form GET /rest/asset/v1/smartCampaign/flowStepTypes.json
expect "it is not a flow step choice condition" \
    "not [f for f in d['result'][0]['flowStepTypes'] if f['name'] == 'Has Cof $tag']"

# ---- a smart list and a smart campaign use it ----------------------------
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=cof-list-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
sl=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode "ruleId={\"id\":$rt,\"type\":\"activity\"}" -d index=1
expect "the filter is added to a smart list, its primary constraint set up" \
    "[(r['name'], r['ruleTypeId'], [c['activityAttributeName'] for c in r['conditions']]) for r in d['result'][0]['rules']['filters']] == [('Has Cof $tag', $rt, ['VIN'])]"
rule=$(py "d['result'][0]['rules']['filters'][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
    --data-urlencode "attributeId={\"id\":$kcolor,\"type\":\"activity\"}" \
    -d values=red,blue
expect "a field's constraint is set on the rule" \
    "[(c['activityAttributeName'], c['operator'], c['values']) for c in d['result'][0]['rules']['filters'][0]['conditions']] == [('VIN', 'is', []), ('Color', 'is', ['red', 'blue'])]"
form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
    --data-urlencode "attributeId={\"id\":999999,\"type\":\"activity\"}" -d values=x
expect "a constraint the type does not have is 702" \
    "not d['success'] and d['errors'][0]['code'] == '702'"

form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=cof-camp-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
camp=$(py "d['result'][0]['id']")
csl=$(py "d['result'][0]['smartListId']")
form POST "/rest/asset/v1/smartList/$csl/rules.json" \
    --data-urlencode "ruleId={\"id\":$rt,\"type\":\"activity\"}" -d index=1
expect "and to a smart campaign's smart list" "d['success']"

# ---- dependent assets ----------------------------------------------------
api GET "/rest/v1/customobjects/schema/$co/dependentAssets.json"
expect "Dependent Assets lists the smart list and the smart campaign with the fields they read" \
    "sorted((a['assetType'], a['assetId'], a['assetName'], a['usedFields']) for a in d['result']) == sorted([('Smart List', $sl, 'COF-Prog-$tag.cof-list-$tag', ['color', 'vin']), ('Smart Campaign', $camp, 'COF-Prog-$tag.cof-camp-$tag (Smart List)', ['vin'])])"

# ---- refusals while in use -----------------------------------------------
api POST "/rest/v1/customobjects/schema/$co/delete.json"
expect "deleting the type is refused while rules use it" \
    "not d['success'] and d['errors'][0]['code'] == '1003' and 'used by 2 smart lists or smart campaigns' in d['errors'][0]['message']"
api POST /rest/v1/customobjects/schema.json \
    "{\"action\":\"updateOnly\",\"apiName\":\"$co\",\"description\":\"draft\"}"
expect "a draft of the approved type is made" "d['success']"
api POST "/rest/v1/customobjects/schema/$co/deleteField.json" \
    "{\"input\":[{\"name\":\"color\"}]}"
expect "deleting a field a rule reads is refused" \
    "not d['success'] and d['errors'][0]['code'] == '1003' and d['errors'][0]['message'].startswith(\"Field 'color' of custom object type '$co' is used by 1 \")"
api POST "/rest/v1/customobjects/schema/$co/deleteField.json" \
    "{\"input\":[{\"name\":\"miles\"}]}"
expect "a field no rule reads is deleted" "d['success']"
api POST "/rest/v1/customobjects/schema/$co/approve.json"
expect "and the draft without it approved" "d['success']"
form GET /rest/asset/v1/smartList/rules.json
expect "the filter's constraints follow the approved fields" \
    "[k['name'] for f in d['result'][0]['filters'] if f['name'] == 'Has Cof $tag' for k in f['constraints']] == ['VIN', 'Color']"

# ---- the rules go, the type goes -----------------------------------------
form POST "/rest/asset/v1/smartList/$sl/rule/$rule/delete.json"
expect "the smart list's rule is deleted" "d['success']"
api GET "/rest/v1/customobjects/schema/$co/dependentAssets.json"
expect "Dependent Assets now lists the campaign alone" \
    "[(a['assetType'], a['assetId']) for a in d['result']] == [('Smart Campaign', $camp)]"
form POST "/rest/asset/v1/smartCampaign/$camp/delete.json"
expect "the smart campaign is deleted" "d['success']"
api GET "/rest/v1/customobjects/schema/$co/dependentAssets.json"
expect "Dependent Assets lists nothing" "d['success'] and d.get('result', []) == []"
api POST "/rest/v1/customobjects/schema/$co/delete.json"
expect "the type is deleted" "d['success']"
form GET /rest/asset/v1/smartList/rules.json
expect "and its filter is gone from the catalogue" \
    "not [f for f in d['result'][0]['filters'] if f['name'] == 'Has Cof $tag']"
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode "ruleId={\"id\":$rt,\"type\":\"activity\"}" -d index=1
expect "adding the deleted type's filter is 709" \
    "not d['success'] and d['errors'][0]['code'] == '709'"

exit "$failed"
