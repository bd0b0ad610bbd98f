#!/usr/bin/env bash
# name: smart lists: the rules text kept on the list's row is read back byte for byte, every kind of rule change drops it, a lead field's or custom object field's new name is not hidden by it
# db/migrations/0020_rendered_flows.sql, src/repo/repo_smart_lists.c
# (repo_sl_get_reply, repo_sl_keep_rules) and src/api/api_smart_lists.c
# (rules_member), end to end: a read of a list with its rules keeps the
# JSON text of the rules member on the row, a later read answers it; a
# change of the rules moves rules_rev on and drops the text in its
# transaction (a text put back on the row before the change, as a read
# racing it would keep, never shows after it); a lead field's or a custom
# object field's new name shows at the next read.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# kept_is_member: the text kept on list $sl is, byte for byte, the rules
# member of the last answer.
kept_is_member()
{
	kept_in_reply "$1" rules smart_list rules_json "$sl"
}

# stale: a text of no rules put on the row under the current versions,
# as a read that rendered before a change would keep it.
stale()
{
	dbsql "UPDATE smart_list SET rules_json = '{\"stale\":true}' WHERE id = $sl"
}

# after_change WHAT PYEXPR: the change's answer (when it has the rules:
# Delete Rule answers the rule's id) shows PYEXPR and not the stale text,
# rules_rev moved on, and the next read answers the same rules, kept.
after_change()
{
	local rev
	if [ "$(py "'rules' in d['result'][0]")" = True ]; then
		expect "$1: the change's answer shows it" \
		    "d['success'] and 'stale' not in d['result'][0]['rules'] and ($2)"
		kept_is_member "$1: the change's answer kept its rules text"
	else
		expect "$1: the change is made" "d['success']"
		expect_sql "$1: the kept text is dropped" \
		    "SELECT rules_json IS NULL FROM smart_list WHERE id = $sl" 1
	fi
	cp "$work/out" "$work/change"
	rev=$(dbsql "SELECT rules_rev FROM smart_list WHERE id = $sl")
	if [ "$rev" -gt "$lastrev" ]; then
		echo "ok - $1: rules_rev moved on"
	else
		echo "not ok - $1: rules_rev $rev after $lastrev"
		failed=1
	fi
	lastrev=$rev
	form GET "/rest/asset/v1/smartList/$sl.json?includeRules=true"
	expect "$1: the next read shows it" \
	    "'stale' not in d['result'][0]['rules'] and ($2)"
	kept_is_member "$1: the next read kept its rules text"
	if python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))["result"][0]
b = json.load(open(sys.argv[2]))["result"][0]["rules"]
sys.exit(0 if "rules" not in a or a["rules"] == b else 1)' "$work/change" "$work/out"; then
		echo "ok - $1: the read's rules are the change's"
	else
		echo "not ok - $1: the read's rules are not the change's"
		failed=1
	fi
	stale
}

prog=$(ctl program create --name "KR-Prog-$tag")
api POST /rest/v1/leads/schema/fields.json \
    "{\"input\":[{\"name\":\"kr$tag\",\"displayName\":\"KR Field $tag\",\"dataType\":\"string\"}]}"
expect "a custom lead field is created" "d['success'] and d['result'][0]['status'] == 'created'"
form GET /rest/asset/v1/smartList/rules.json
attr=$(py "[f['id'] for f in d['result'][0]['filters'] if f['name'] == 'KR Field $tag'][0]")

form POST /rest/asset/v1/smartLists.json --data-urlencode "name=kr-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
sl=$(py "d['result'][0]['id']")
for t in 2 24 13; do
	form POST "/rest/asset/v1/smartList/$sl/rules.json" \
	    --data-urlencode "ruleId={\"id\":$t,\"type\":\"activity\"}" -d index=1
done
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode "ruleId={\"id\":$attr,\"type\":\"attribute\"}" -d index=4
expect "four rules, the attribute rule last" \
    "[r['ruleTypeId'] for r in d['result'][0]['rules']['filters']] == [13, 24, 2, $attr]"
arule=$(py "d['result'][0]['rules']['filters'][3]['id']")
ids=$(py "','.join(str(r['id']) for r in d['result'][0]['rules']['filters'])")
IFS=, read -r i1 i2 i3 _ <<<"$ids"

# ---- read twice, the text kept, the kept text answered ---------------------
dbsql "UPDATE smart_list SET rules_json = NULL, updated_at = '2020-01-02 03:04:05' WHERE id = $sl"
form GET "/rest/asset/v1/smartList/$sl.json?includeRules=true"
cp "$work/out" "$work/first"
expect_sql "the read keeps the rules text" \
    "SELECT rules_json IS NOT NULL FROM smart_list WHERE id = $sl" 1
kept_is_member "the text kept is the rules member of the answer"
expect_sql "the keep records the schema versions it was rendered under" \
    "SELECT s.rules_lead_ver = l.version AND s.rules_co_ver = c.version FROM smart_list s JOIN lead_schema l ON l.id = 1 JOIN co_schema c ON c.id = 1 WHERE s.id = $sl" 1
expect_sql "keeping it does not move updated_at" \
    "SELECT updated_at FROM smart_list WHERE id = $sl" "2020-01-02 03:04:05"
form GET "/rest/asset/v1/smartList/$sl.json?includeRules=true"
if cmp -s <(sed 's/"requestId":"[^"]*"//' "$work/first") \
    <(sed 's/"requestId":"[^"]*"//' "$work/out"); then
	echo "ok - a second read answers the same bytes"
else
	echo "not ok - a second read answers other bytes"
	failed=1
fi
stale
form GET "/rest/asset/v1/smartList/$sl.json?includeRules=true"
expect "a read answers the kept text, not the rule rows" \
    "d['result'][0]['rules'] == {'stale': True}"
form GET "/rest/asset/v1/smartList/byName.json" -G \
    --data-urlencode "name=kr-$tag" -d includeRules=true
expect "and so does a read by name" \
    "d['result'][0]['rules'] == {'stale': True}"
form GET "/rest/asset/v1/smartList/$sl.json"
expect "a read without rules has none" "'rules' not in d['result'][0]"

# ---- every kind of change drops it -----------------------------------------
lastrev=$(dbsql "SELECT rules_rev FROM smart_list WHERE id = $sl")
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode "ruleId={\"id\":12,\"type\":\"activity\"}" -d index=2
after_change "Add Rule" \
    "[r['ruleTypeId'] for r in d['result'][0]['rules']['filters']] == [13, 12, 24, 2, $attr]"
i12=$(py "d['result'][0]['rules']['filters'][1]['id']")
form POST "/rest/asset/v1/smartList/$sl/rule/$arule.json" \
    --data-urlencode "attributeId={\"id\":$attr,\"type\":\"attribute\"}" \
    -d values=kept --data-urlencode "operator=contains"
after_change "Update Rule" \
    "d['result'][0]['rules']['filters'][4]['conditions'][0]['values'] == ['kept'] and d['result'][0]['rules']['filters'][4]['operator'] == 'contains'"
form GET /rest/asset/v1/smartList/rules.json
k2=$(py "[k['id'] for f in d['result'][0]['filters'] if f['id'] == 2 and f['type'] == 'activity' for k in f['constraints'] if not k['primary']][0]")
form POST "/rest/asset/v1/smartList/$sl/rule/$i3.json" \
    --data-urlencode "attributeId={\"id\":$k2,\"type\":\"activity\"}" -d values=x
after_change "Update Rule of a second constraint" \
    "len(d['result'][0]['rules']['filters'][3]['conditions']) == 2"
form POST "/rest/asset/v1/smartList/$sl/rule/$i3/removeConstraint.json" \
    --data-urlencode "attributeId={\"id\":$k2,\"type\":\"activity\"}"
after_change "Remove Rule Constraint" \
    "len(d['result'][0]['rules']['filters'][3]['conditions']) == 1"
form POST "/rest/asset/v1/smartList/$sl/reorder.json" \
    --data-urlencode "order=[{\"id\":$i1,\"index\":5}]"
after_change "Reorder Rules" \
    "[r['id'] for r in d['result'][0]['rules']['filters']][4] == $i1"
form POST "/rest/asset/v1/smartList/$sl/filterLogic.json" -d matchType=custom \
    --data-urlencode "customRuleLogic=1 and (2 or 3)"
after_change "Update Filter Logic" \
    "d['result'][0]['rules']['filterMatchType'] == 'custom' and d['result'][0]['rules']['filterCustomRuleLogic'] == '1 and (2 or 3)'"
form POST "/rest/asset/v1/smartList/$sl/rule/$i12/delete.json"
after_change "Delete Rule" \
    "[r['ruleTypeId'] for r in d['result'][0]['rules']['filters']] == [24, 2, $attr, 13] and d['result'][0]['rules']['filterMatchType'] == 'custom'"
logic=$(py "d['result'][0]['rules']['filterCustomRuleLogic']")

# ---- a clone starts with no text of its own --------------------------------
form POST "/rest/asset/v1/smartList/$sl/clone.json" --data-urlencode "name=kr-clone-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
clone=$(py "d['result'][0]['id']")
expect_sql "the clone has no kept text" \
    "SELECT COUNT(*) FROM smart_list WHERE id = $clone AND rules_json IS NULL" 1
form GET "/rest/asset/v1/smartList/$clone.json?includeRules=true"
expect "the clone's rules are the list's" \
    "[r['ruleTypeId'] for r in d['result'][0]['rules']['filters']] == [24, 2, $attr, 13] and d['result'][0]['rules']['filterCustomRuleLogic'] == '$logic'"

# ---- a lead field's name ---------------------------------------------------
form GET "/rest/asset/v1/smartList/$sl.json?includeRules=true"
expect "before the field changes, the text kept is answered" \
    "d['result'][0]['rules'] == {'stale': True}"
api POST "/rest/v1/leads/schema/fields/kr$tag.json" \
    "{\"input\":[{\"displayName\":\"KR Renamed $tag\"}]}"
expect "the lead field is renamed" "d['success'] and d['result'][0]['status'] == 'updated'"
form GET "/rest/asset/v1/smartList/$sl.json?includeRules=true"
expect "the next read names the attribute rule and its condition by the new name" \
    "[(r['name'], r['conditions'][0]['attributeName']) for r in d['result'][0]['rules']['filters'] if r['ruleTypeId'] == $attr] == [('KR Renamed $tag', 'KR Renamed $tag')]"
kept_is_member "and keeps that text"
expect_sql "under the new lead schema version" \
    "SELECT s.rules_lead_ver = l.version FROM smart_list s JOIN lead_schema l ON l.id = 1 WHERE s.id = $sl" 1

# ---- a custom object field's name -------------------------------------
# (The display name of an approved type does not change; its fields'
# display names do, through a draft and its approval.)
co=kr$tag
api POST /rest/v1/customobjects/schema.json \
    "{\"apiName\":\"$co\",\"displayName\":\"Kr $tag\",\"pluralName\":\"Krs $tag\"}"
api POST "/rest/v1/customobjects/schema/$co/addField.json" \
    "{\"input\":[{\"name\":\"vin\",\"displayName\":\"VIN\",\"dataType\":\"string\",\"isDedupeField\":true},{\"name\":\"color\",\"displayName\":\"Color\",\"dataType\":\"string\"}]}"
api POST "/rest/v1/customobjects/schema/$co/approve.json"
expect "a custom object type is approved" "d['success']"
form GET /rest/asset/v1/smartList/rules.json
rt=$(py "[f['id'] for f in d['result'][0]['filters'] if f['name'] == 'Has Kr $tag'][0]")
kcolor=$(py "[k['id'] for f in d['result'][0]['filters'] if f['name'] == 'Has Kr $tag' for k in f['constraints'] if k['name'] == 'Color'][0]")
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode "ruleId={\"id\":$rt,\"type\":\"activity\"}" -d index=1
expect "its filter is added" \
    "d['result'][0]['rules']['filters'][0]['name'] == 'Has Kr $tag'"
corule=$(py "d['result'][0]['rules']['filters'][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rule/$corule.json" \
    --data-urlencode "attributeId={\"id\":$kcolor,\"type\":\"activity\"}" -d values=red
expect "a condition on a field of the type is set" \
    "[c['activityAttributeName'] for c in d['result'][0]['rules']['filters'][0]['conditions']] == ['VIN', 'Color']"
form GET "/rest/asset/v1/smartList/$sl.json?includeRules=true"
kept_is_member "the rules with the filter are kept"
api POST /rest/v1/customobjects/schema.json \
    "{\"action\":\"updateOnly\",\"apiName\":\"$co\",\"pluralName\":\"Kr Many $tag\"}"
expect "a draft of the type is made" "d['success']"
api POST "/rest/v1/customobjects/schema/$co/color/updateField.json" \
    '{"displayName": "Colour"}'
expect "the field's display name is changed in the draft" "d['success']"
form GET "/rest/asset/v1/smartList/$sl.json?includeRules=true"
expect "the draft does not rename the condition" \
    "[c['activityAttributeName'] for c in d['result'][0]['rules']['filters'][0]['conditions']] == ['VIN', 'Color']"
api POST "/rest/v1/customobjects/schema/$co/approve.json"
expect "the draft is approved" "d['success']"
form GET "/rest/asset/v1/smartList/$sl.json?includeRules=true"
expect "the next read names the condition by the approved name" \
    "[c['activityAttributeName'] for c in d['result'][0]['rules']['filters'][0]['conditions']] == ['VIN', 'Colour']"
kept_is_member "and keeps that text"
expect_sql "under the new custom object schema version" \
    "SELECT s.rules_co_ver = c.version FROM smart_list s JOIN co_schema c ON c.id = 1 WHERE s.id = $sl" 1
form POST "/rest/asset/v1/smartList/$sl/rule/$corule/delete.json"
expect "the filter's rule is deleted" "d['success']"

# ---- Delete All Rules ------------------------------------------------------
stale
lastrev=$(dbsql "SELECT rules_rev FROM smart_list WHERE id = $sl")
form POST "/rest/asset/v1/smartList/$sl/rules/delete.json"
after_change "Delete All Rules" \
    "d['result'][0]['rules']['filters'] == [] and d['result'][0]['rules']['filterMatchType'] == 'all'"

form POST "/rest/asset/v1/smartList/$clone/delete.json"
form POST "/rest/asset/v1/smartList/$sl/delete.json"
expect "the list is deleted" "d['success'] and d['result'] == [{'id': $sl}]"

exit "$failed"
