#!/usr/bin/env bash
# name: smart campaigns: in a program, the activation rules of each flow step's references (list, campaign, program status), the emails an active campaign sends, memberships of leads in the one campaign numbering, delete
# docs/behaviour.md §10, docs/assets.md and the choices at the top of
# src/api/api_smart_campaigns.c, end to end with the programs, lists and
# campaign members mautoctl makes.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# refused WHAT: the last answer is activation's 709 naming WHAT.
refused()
{
	expect "activation is refused: $1" \
	    "not d['success'] and d['errors'][0]['code'] == '709' and \"\"\"$1\"\"\" in d['errors'][0]['message']"
}

prog=$(ctl program create --name "SC-Prog-$tag")
list=$(ctl list create --name "SC-List-$tag")
folder=$(ctl folder create --name "SC-$tag" --parent 1)

# ---- places ------------------------------------------------------------
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=sc-prog-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
expect "a smart campaign is made in a program, its parent program" \
    "d['success'] and d['result'][0]['folder'] == {'id': $prog, 'type': 'Program'} and d['result'][0]['parentProgramId'] == $prog"
camp=$(py "d['result'][0]['id']")
sl=$(py "d['result'][0]['smartListId']")
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=sc-fold-$tag" \
    --data-urlencode "folder={\"id\":$folder,\"type\":\"Folder\"}"
expect "and in a marketing folder below Marketing Activities" \
    "d['success'] and d['result'][0]['folder'] == {'id': $folder, 'type': 'Folder'} and 'parentProgramId' not in d['result'][0]"
infold=$(py "d['result'][0]['id']")
form GET /rest/asset/v1/smartCampaigns.json -G \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
expect "browsing the program finds only its campaign" \
    "[x['id'] for x in d['result']] == [$camp]"
form GET "/rest/asset/v1/smartCampaign/$camp/smartList.json"
expect "its smart list stands in the program too" \
    "d['result'][0]['id'] == $sl and d['result'][0]['folder'] == {'id': $prog, 'type': 'Program'}"
if ctl folder delete "$folder" >/dev/null 2>"$work/folder.err"; then
	echo "not ok - a folder holding a smart campaign is deleted"
	failed=1
else
	echo "ok - a folder holding a smart campaign is not deleted"
fi
if grep -q "is not empty" "$work/folder.err"; then
	echo "ok - and the delete is refused as a folder not empty"
else
	echo "not ok - and the delete is refused as a folder not empty: $(cat "$work/folder.err")"
	failed=1
fi

# ---- activation: each reference in turn ----------------------------------
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode 'ruleId={"id":24,"type":"activity"}' -d index=1 -d trigger=true
rule=$(py "d['result'][0]['rules']['triggers'][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
    --data-urlencode 'attributeId={"id":1,"type":"activity"}' \
    --data-urlencode "values=SC-List-$tag"
expect "a trigger 'Added to List' with its list" \
    "d['result'][0]['rules']['triggers'][0]['conditions'][0]['values'] == ['SC-List-$tag']"

# step: TYPE INDEX -> prints the new step's id and its default choice's.
step()
{
	form POST "/rest/asset/v1/smartCampaign/$camp/flows.json" \
	    --data-urlencode "activityType={\"id\":$1,\"type\":\"activity\"}" -d "index=$2"
	py "'%d %d' % (d['result'][0]['flow']['steps'][$2]['id'], d['result'][0]['flow']['steps'][$2]['stepChoice'][-1]['id'])"
}
# set STEP CHOICE JSON: sets the choice's attributes.
set_attrs()
{
	form POST "/rest/asset/v1/smartCampaign/$camp/flow/$1/choice/$2.json" \
	    --data-urlencode "attributes=$3"
}
# Activate as the reference sends it: a multipart body.
activate()
{
	form POST "/rest/asset/v1/smartCampaign/$camp/activate.json" -F "id=$camp"
}

read -r s1 c1 <<<"$(step 24 0)"
activate
refused "flow step 1 'Add to List' has no 'List'"
set_attrs "$s1" "$c1" '{"1":"SC-No-Such-List"}'
activate
refused "flow step 1 'Add to List': list 'SC-No-Such-List' not found"
set_attrs "$s1" "$c1" "{\"1\":\"SC-List-$tag\"}"
expect "a list named by its name is kept as its id" \
    "d['result'][0]['flow']['steps'][0]['stepChoice'][0]['attributes'][0]['value'] == '$list'"

read -r s2 c2 <<<"$(step 47 1)"
set_attrs "$s2" "$c2" '{"1":"999999"}'
activate
refused "flow step 2 'Request Campaign': smart campaign '999999' not found"
set_attrs "$s2" "$c2" "{\"1\":\"$infold\"}"

read -r s3 c3 <<<"$(step 104 2)"
set_attrs "$s3" "$c3" '{"2":"Partied"}'
activate
refused "flow step 3 'Change Program Status' has no 'Program'"
set_attrs "$s3" "$c3" "{\"1\":\"SC-Prog-$tag\"}"
activate
refused "flow step 3 'Change Program Status': program $prog has no status 'Partied'"
set_attrs "$s3" "$c3" '{"2":"Attended"}'

read -r s4 c4 <<<"$(step 46 3)"
set_attrs "$s4" "$c4" '{"1":"Telepathy"}'
expect "a value outside an attribute's choices is refused" \
    "not d['success'] and d['errors'][0]['code'] == '709' and 'Web,Email,Milestone' in d['errors'][0]['message']"
set_attrs "$s4" "$c4" '{"1":"Milestone","2":"Went far"}'

activate
expect "with every reference resolved it activates" "d['success'] and d['result'] == [{'id': $camp}]"
form GET "/rest/asset/v1/smartCampaign/$camp.json?includeFlowSteps=false"
expect "active trigger campaign, not requestable (no Web Service API trigger)" \
    "d['result'][0]['isActive'] and d['result'][0]['status'] == 'Active' and d['result'][0]['type'] == 'trigger' and not d['result'][0]['isRequestable']"

# Used by: the campaign the flow requests is used by this one.
form GET "/rest/asset/v1/smartCampaign/$infold/usedBy.json"
expect "the requested campaign is used by the active one" \
    "d['result'][0]['usedByCount'] == '1' and d['result'][0]['usedBy'][0]['id'] == $camp and d['result'][0]['usedBy'][0]['programId'] == $prog and d['result'][0]['usedBy'][0]['status'] == 'Active'"

# ---- the emails an active campaign sends ---------------------------------
etpl=$(dbsql "SELECT id FROM email_template ORDER BY id LIMIT 1")
form POST /rest/asset/v1/emails.json --data-urlencode "name=sc-em-$tag" \
    --data-urlencode "template=$etpl" --data-urlencode "subject=Hi" \
    --data-urlencode "fromName=F" --data-urlencode "fromEmail=f@example.com" \
    --data-urlencode "replyEmail=r@example.com" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
em=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/email/$em/approveDraft.json"
expect "an email is approved" "d['success']"
read -r s5 c5 <<<"$(step 6 4)"
set_attrs "$s5" "$c5" "{\"1\":\"$em\"}"
expect "an active campaign's flow takes a Send Email step" "d['success']"
expect_sql "the active campaign's email is recorded as used by it" \
    "SELECT COUNT(*) FROM asset_usage WHERE asset_type = 'email' AND asset_id = $em AND user_type = 'smartCampaign' AND user_id = $camp" 1
form POST "/rest/asset/v1/email/$em/unapprove.json"
expect "the email it sends cannot be unapproved" \
    "not d['success'] and d['errors'][0]['code'] == '709'"
form POST "/rest/asset/v1/email/$em/delete.json"
expect "nor deleted" "not d['success'] and d['errors'][0]['code'] == '709'"
form POST "/rest/asset/v1/smartCampaign/$camp/flow/$s5/remove.json"
expect_sql "removing the step forgets the use" \
    "SELECT COUNT(*) FROM asset_usage WHERE asset_type = 'email' AND asset_id = $em" 0
form POST "/rest/asset/v1/email/$em/unapprove.json"
expect "then the email is unapproved" "d['success']"

# ---- clone, deactivate, memberships, delete ------------------------------
form POST "/rest/asset/v1/smartCampaign/$camp/clone.json" \
    --data-urlencode "name=sc-clone-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
expect "the clone of an active campaign is inactive, with the flow and the trigger" \
    "not d['result'][0]['isActive'] and d['result'][0]['type'] == 'trigger' and [s['activityTypeId'] for s in d['result'][0]['flow']['steps']] == [24, 47, 104, 46]"
clone=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/smartCampaign/$camp/deactivate.json"
expect "deactivated" "d['success']"
form POST "/rest/asset/v1/smartCampaign/$camp/deactivate.json"
expect "deactivating again is refused" \
    "not d['success'] and d['errors'][0]['code'] == '709'"

api POST /rest/v1/leads.json "{\"input\":[{\"email\":\"sc-$tag@example.com\"}]}"
lead=$(py "d['result'][0]['id']")
ctl campaign add --campaign "$camp" --lead "$lead" >/dev/null
api GET "/rest/v1/leads/$lead/smartCampaignMembership.json"
expect "a lead's membership names the campaign by its id" \
    "[x['smartCampaignId'] for x in d['result']] == [$camp]"

for id in "$clone" "$camp" "$infold"; do
	form POST "/rest/asset/v1/smartCampaign/$id/delete.json"
	expect "campaign $id is deleted" "d['success'] and d['result'] == [{'id': $id}]"
done
api GET "/rest/v1/leads/$lead/smartCampaignMembership.json"
expect "a deleted campaign's members go with it" \
    "d['success'] and not d.get('result')"
expect_sql "flows and smart lists of deleted campaigns are gone" \
    "SELECT (SELECT COUNT(*) FROM sc_flow_step WHERE campaign_id IN ($clone, $camp, $infold)) + (SELECT COUNT(*) FROM smart_list WHERE campaign_id IN ($clone, $camp, $infold))" 0
if ctl folder delete "$folder" >/dev/null 2>&1; then
	echo "ok - the empty folder is deleted"
else
	echo "not ok - the empty folder is deleted"
	failed=1
fi

exit "$failed"
