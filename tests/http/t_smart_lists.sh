#!/usr/bin/env bash
# name: smart lists: lifecycle in a program and a folder, a custom lead field as a filter at once, auto-suggest from real data, rules through clone and delete, reset
# docs/behaviour.md §11, docs/assets.md and the choices at the top of
# src/api/api_smart_lists.c, end to end: the places a smart list may
# stand in, the catalogue made from lead_field, suggestions from the
# forms, lists and programs mautoctl makes, and the rule numbering of
# custom logic across every rule change.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

prog=$(ctl program create --name "SL-Prog-$tag")
ctl list create --name "SL-List-$tag" >/dev/null
ctl form create --name "SL-Form-$tag" --field email --program "$prog" >/dev/null
folder=$(ctl folder create --name "SL-$tag" --parent 5)

# ---- places ------------------------------------------------------------
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=sl-prog-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
expect "a smart list is made in a program" \
    "d['success'] and d['result'][0]['folder'] == {'id': $prog, 'type': 'Program'}"
inprog=$(py "d['result'][0]['id']")
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=sl-fold-$tag" \
    --data-urlencode "folder={\"id\":$folder,\"type\":\"Folder\"}"
expect "and in a smart list folder below the root" \
    "d['success'] and d['result'][0]['folder'] == {'id': $folder, 'type': 'Folder'}"
infold=$(py "d['result'][0]['id']")
form GET "/rest/asset/v1/smartLists.json" -G \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
expect "browsing the program finds only its list" \
    "[x['id'] for x in d['result']] == [$inprog]"
form GET "/rest/asset/v1/smartLists.json" -G \
    --data-urlencode "folder={\"id\":$folder,\"type\":\"Folder\"}"
expect "browsing the folder finds only its list" \
    "[x['id'] for x in d['result']] == [$infold]"

# ---- a custom lead field is a filter at once ----------------------------
api POST /rest/v1/leads/schema/fields.json \
    "{\"input\":[{\"name\":\"sl$tag\",\"displayName\":\"SL Field $tag\",\"dataType\":\"integer\"}]}"
expect "a custom lead field is created" "d['success'] and d['result'][0]['status'] == 'created'"
form GET /rest/asset/v1/smartList/rules.json
expect "the rule catalogue has it as an attribute filter, with the integer operators" \
    "[(f['type'], f['constraints'][0]['dataType'], f['constraints'][0]['operator']) for f in d['result'][0]['filters'] if f['name'] == 'SL Field $tag'] == [('attribute', 'integer', 'is')]"
attr=$(py "[f['id'] for f in d['result'][0]['filters'] if f['name'] == 'SL Field $tag'][0]")
form POST "/rest/asset/v1/smartList/$inprog/rules.json" \
    --data-urlencode "ruleId={\"id\":$attr,\"type\":\"attribute\"}" -d index=1
expect "it is added to a smart list as an attribute rule" \
    "d['result'][0]['rules']['filters'][0]['ruleType'] == 'Attribute' and d['result'][0]['rules']['filters'][0]['conditions'][0]['attributeName'] == 'SL Field $tag'"
arule=$(py "d['result'][0]['rules']['filters'][0]['id']")
form POST "/rest/asset/v1/smartList/$inprog/rule/$arule.json" \
    --data-urlencode "attributeId={\"id\":$attr,\"type\":\"attribute\"}" \
    -d values=10 --data-urlencode "operator=greater than"
expect "its condition takes an operator of its data type and a value" \
    "d['result'][0]['rules']['filters'][0]['operator'] == 'greater than' and d['result'][0]['rules']['filters'][0]['conditions'][0]['values'] == ['10']"
form POST "/rest/asset/v1/smartList/$inprog/rule/$arule.json" \
    --data-urlencode "attributeId={\"id\":$attr,\"type\":\"attribute\"}" \
    -d values=x --data-urlencode "operator=contains"
expect "but not one of another type" \
    "not d['success'] and d['errors'][0]['code'] == '709'"

# ---- auto-suggest from real data -----------------------------------------
for spec in "2:SL-Form-$tag" "24:SL-List-$tag" "104:SL-Prog-$tag"; do
	type=${spec%%:*}
	name=${spec#*:}
	form GET "/rest/asset/v1/smartList/$inprog/autoSuggest.json" -G \
	    --data-urlencode "ruleTypeId={\"id\":$type,\"type\":\"activity\"}" \
	    --data-urlencode "primaryAttributeValue=$name"
	expect "auto-suggest for rule type $type finds $name" \
	    "[x['name'] for x in d['result'][0]] == ['$name']"
done

# ---- rules through many changes, then clone ----------------------------
for t in 2 24 13 12; do
	form POST "/rest/asset/v1/smartList/$inprog/rules.json" \
	    --data-urlencode "ruleId={\"id\":$t,\"type\":\"activity\"}" -d index=1
done
expect "five rules, the last added first" \
    "[r['ruleTypeId'] for r in d['result'][0]['rules']['filters']] == [12, 13, 24, 2, $attr]"
form POST "/rest/asset/v1/smartList/$inprog/filterLogic.json" -d matchType=custom \
    --data-urlencode "customRuleLogic=(1 or 2) and not (3 or 4) and 5"
expect "custom logic over the five" \
    "d['result'][0]['rules']['filterCustomRuleLogic'] == '(1 or 2) and not (3 or 4) and 5'"
ids=$(py "','.join(str(r['id']) for r in d['result'][0]['rules']['filters'])")
IFS=, read -r i1 i2 i3 i4 i5 <<<"$ids"
form POST "/rest/asset/v1/smartList/$inprog/reorder.json" \
    --data-urlencode "order=[{\"id\":$i5,\"index\":1},{\"id\":$i1,\"index\":5}]"
expect "a reorder of two renumbers the logic" \
    "[r['id'] for r in d['result'][0]['rules']['filters']] == [$i5, $i2, $i3, $i4, $i1] and d['result'][0]['rules']['filterCustomRuleLogic'] == '(5 or 2) and not (3 or 4) and 1'"
form POST "/rest/asset/v1/smartList/$inprog/rule/$i3/delete.json"
form GET "/rest/asset/v1/smartList/$inprog.json?includeRules=true"
expect "a deleted rule leaves the logic" \
    "d['result'][0]['rules']['filterCustomRuleLogic'] == '(4 or 2) and not 3 and 1'"
form POST "/rest/asset/v1/smartList/$inprog/clone.json" --data-urlencode "name=sl-clone-$tag" \
    --data-urlencode "folder={\"id\":$folder,\"type\":\"Folder\"}"
clone=$(py "d['result'][0]['id']")
form GET "/rest/asset/v1/smartList/$clone.json?includeRules=true"
expect "the clone has the rules in order, with new ids, and the logic" \
    "[r['ruleTypeId'] for r in d['result'][0]['rules']['filters']] == [$attr, 13, 2, 12] and $i5 not in [r['id'] for r in d['result'][0]['rules']['filters']] and d['result'][0]['rules']['filterCustomRuleLogic'] == '(4 or 2) and not 3 and 1' and d['result'][0]['rules']['filters'][0]['conditions'][0]['values'] == ['10']"

# A folder that holds a smart list cannot be deleted; empty, it can.
if ctl folder delete "$folder" >/dev/null 2>&1; then
	echo "not ok - a folder holding a smart list is deleted"
	failed=1
else
	echo "ok - a folder holding a smart list is not deleted"
fi
form POST "/rest/asset/v1/smartList/$infold/delete.json"
form POST "/rest/asset/v1/smartList/$clone/delete.json"
expect "its lists are deleted" "d['success'] and d['result'] == [{'id': $clone}]"
expect_sql "rules and conditions of deleted lists are gone" \
    "SELECT COUNT(*) FROM smart_list_rule WHERE smart_list_id IN ($infold, $clone)" 0

exit "$failed"
