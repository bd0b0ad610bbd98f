#!/usr/bin/env bash
# name: Delete Program with its assets: smart campaigns (flows, own lists, members), smart lists, static lists (members), forms, emails (approved too), tokens; refused while a campaign of it is active or an asset outside uses one of its assets or names it, naming that asset
# docs/behaviour.md §22.  Fixtures through the API (and mautoctl for the
# programs, a lead through SQL).
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# shellcheck source=tests/http/program_lib.sh
. "$(dirname "$0")/program_lib.sh"

program_fixture PD

# The program's assets.
form POST /rest/asset/v1/staticLists.json --data-urlencode "name=PD-List-$tag" \
    --data-urlencode "folder=$in_prog"
expect "a static list in the program" "d['success']"
list=$(py "d['result'][0]['id']")
api POST "/rest/v1/lists/$list/leads.json?id=$lead"
expect "with a member" "d['result'] == [{'id': $lead, 'status': 'added'}]"
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=PD-SL-$tag" \
    --data-urlencode "folder=$in_prog"
sl=$(py "d['result'][0]['id']")
member_of "$sl" filters 100001 "PD-List-$tag"
expect "a smart list of the program names its list" "d['success']"
form_id=$(ctl form create --name "PD-Form-$tag" --field email --program "$prog")
new_email "pd-em-$tag" "$in_prog"
expect "an email in the program" "d['success']"
em=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/email/$em/approveDraft.json"
expect "approved" "d['success']"
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=pd-sc-$tag" \
    --data-urlencode "folder=$in_prog"
camp=$(py "d['result'][0]['id']")
csl=$(py "d['result'][0]['smartListId']")

member_of "$csl" triggers 24 "PD-List-$tag"
expect "the campaign's trigger: Added to the program's list" "d['success']"
step "$camp" 6 0 "{\"1\":\"$em\"}"
expect "the campaign's flow sends the program's email" "d['success']"
step "$camp" 24 1 "{\"1\":\"$list\"}"
expect "and adds to the program's list" "d['success']"
dbsql "INSERT INTO folder_token (program_id, name, type, value, created_at,
    updated_at) VALUES ($prog, 'Speaker', 'text', 'Ada', UTC_TIMESTAMP(),
    UTC_TIMESTAMP())"

# Refusals, each naming the asset.
form POST "/rest/asset/v1/smartCampaign/$camp/activate.json" -F "id=$camp"
expect "the campaign activates" "d['success']"
form POST "/rest/asset/v1/program/$prog/delete.json"
expect "an active campaign in the program: 709 naming it" \
    "d['errors'] == [{'code': '709', 'message': 'Program $prog cannot be deleted: smart campaign $camp is active: deactivate it first'}]"
form POST "/rest/asset/v1/smartCampaign/$camp/deactivate.json"
expect "deactivated" "d['success']"

form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=pd-out-$tag" \
    --data-urlencode 'folder={"id":1,"type":"Folder"}'
out=$(py "d['result'][0]['id']")
step "$out" 6 0 "{\"1\":\"$em\"}"
form POST "/rest/asset/v1/program/$prog/delete.json"
expect "a campaign outside sends its email: 709 naming the email" \
    "d['errors'] == [{'code': '709', 'message': 'Program $prog cannot be deleted: email $em is sent by a campaign outside the program'}]"
form POST "/rest/asset/v1/smartCampaign/$out/delete.json"

form POST /rest/asset/v1/smartLists.json --data-urlencode "name=PD-OutSL-$tag" \
    --data-urlencode 'folder={"id":5,"type":"Folder"}'
osl=$(py "d['result'][0]['id']")
member_of "$osl" filters 100001 "PD-List-$tag"
form POST "/rest/asset/v1/program/$prog/delete.json"
expect "a smart list outside names its list: 709 naming the list" \
    "d['errors'] == [{'code': '709', 'message': 'Program $prog cannot be deleted: static list $list is used by an asset outside the program'}]"
form POST "/rest/asset/v1/smartList/$osl/delete.json"

form POST /rest/asset/v1/smartLists.json --data-urlencode "name=PD-OutSLF-$tag" \
    --data-urlencode 'folder={"id":5,"type":"Folder"}'
osl=$(py "d['result'][0]['id']")
member_of "$osl" filters 2 "PD-Form-$tag"
form POST "/rest/asset/v1/program/$prog/delete.json"
expect "a smart list outside names its form: 709 naming the form" \
    "d['errors'] == [{'code': '709', 'message': 'Program $prog cannot be deleted: form $form_id is used by a smart list outside the program'}]"
form POST "/rest/asset/v1/smartList/$osl/delete.json"

# The program itself named outside: a Member of Program filter, a Change
# Program Status step.
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=PD-OutSLP-$tag" \
    --data-urlencode 'folder={"id":5,"type":"Folder"}'
osl=$(py "d['result'][0]['id']")
member_of "$osl" filters 100003 "PD-$tag"
expect "a smart list outside names the program" "d['success']"
form POST "/rest/asset/v1/program/$prog/delete.json"
expect "a smart list outside names the program: 709 naming the list" \
    "d['errors'] == [{'code': '709', 'message': 'Program $prog cannot be deleted: smart list $osl outside the program names it'}]"
form POST "/rest/asset/v1/smartList/$osl/delete.json"
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=pd-cps-$tag" \
    --data-urlencode 'folder={"id":1,"type":"Folder"}'
cps=$(py "d['result'][0]['id']")
step "$cps" 104 0 "{\"1\":\"PD-$tag\",\"2\":\"Invited\"}"
expect "a campaign outside changes the program's status" "d['success']"
form POST "/rest/asset/v1/program/$prog/delete.json"
expect "a campaign outside names the program: 709 naming the campaign" \
    "d['errors'] == [{'code': '709', 'message': 'Program $prog cannot be deleted: smart campaign $cps outside the program names it'}]"
form POST "/rest/asset/v1/smartCampaign/$cps/delete.json"

form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=pd-req-$tag" \
    --data-urlencode 'folder={"id":1,"type":"Folder"}'
req=$(py "d['result'][0]['id']")
step "$req" 47 0 "{\"1\":\"$camp\"}"
form POST "/rest/asset/v1/program/$prog/delete.json"
expect "a campaign outside requests its campaign: 709 naming the campaign" \
    "d['errors'] == [{'code': '709', 'message': 'Program $prog cannot be deleted: smart campaign $camp is requested by a campaign outside the program'}]"
expect_sql "a refused delete leaves everything" \
    "SELECT (SELECT COUNT(*) FROM program WHERE id = $prog)
     + (SELECT COUNT(*) FROM email WHERE id = $em)
     + (SELECT COUNT(*) FROM static_list WHERE id = $list)
     + (SELECT COUNT(*) FROM smart_list WHERE id IN ($sl, $csl))
     + (SELECT COUNT(*) FROM smart_campaign WHERE id = $camp)" 6
form POST "/rest/asset/v1/smartCampaign/$req/delete.json"

# The delete.
form POST "/rest/asset/v1/program/$prog/delete.json"
expect "Delete Program with its assets: the id" "d['result'] == [{'id': $prog}]"
expect_sql "the program and everything in it are gone" \
    "SELECT (SELECT COUNT(*) FROM program WHERE id = $prog)
     + (SELECT COUNT(*) FROM email WHERE id = $em)
     + (SELECT COUNT(*) FROM email_version WHERE email_id = $em)
     + (SELECT COUNT(*) FROM static_list WHERE id = $list)
     + (SELECT COUNT(*) FROM list_member WHERE list_id = $list)
     + (SELECT COUNT(*) FROM smart_list WHERE id IN ($sl, $csl))
     + (SELECT COUNT(*) FROM smart_list_rule WHERE smart_list_id IN ($sl, $csl))
     + (SELECT COUNT(*) FROM smart_campaign WHERE id = $camp)
     + (SELECT COUNT(*) FROM sc_flow_step WHERE campaign_id = $camp)
     + (SELECT COUNT(*) FROM folder_token WHERE program_id = $prog)
     + (SELECT COUNT(*) FROM form WHERE id = $form_id)
     + (SELECT COUNT(*) FROM form_field WHERE form_id = $form_id)
     + (SELECT COUNT(*) FROM program_status WHERE program_id = $prog)
     + (SELECT COUNT(*) FROM asset_usage WHERE asset_type = 'email'
        AND asset_id = $em)" 0
api GET "/rest/asset/v1/email/$em.json"
expect "its email is no more" "'result' not in d or not d['result']"
form POST "/rest/asset/v1/program/$prog/delete.json"
expect "delete again: 702" \
    "d['errors'] == [{'code': '702', 'message': '$prog Program not found'}]"
exit "$failed"
