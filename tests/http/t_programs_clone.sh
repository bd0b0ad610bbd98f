#!/usr/bin/env bash
# name: Clone Program with its assets: static lists (no members), forms, emails (drafts), smart lists with rules, smart campaigns (inactive) with their lists and flows, references to the program's assets pointed at the copies, the copies' names, a copy's name in use or too long refused
# docs/behaviour.md §22.  Fixtures through the API (mautoctl for the
# program, a lead through SQL).
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# shellcheck source=tests/http/program_lib.sh
. "$(dirname "$0")/program_lib.sh"

program_fixture PC
root='{"id":1,"type":"Folder"}'

# flow_values CAMPAIGN: the values of its flow's attributes, in order.
flow_values()
{
	dbsql "SELECT GROUP_CONCAT(a.value ORDER BY s.position, a.attrib_id SEPARATOR '|')
	    FROM sc_flow_step s JOIN sc_step_choice ch ON ch.step_id = s.id
	    JOIN sc_choice_attr a ON a.choice_id = ch.id WHERE s.campaign_id = $1"
}

form POST /rest/asset/v1/staticLists.json --data-urlencode "name=PC-List-$tag" \
    --data-urlencode "folder=$in_prog"
list=$(py "d['result'][0]['id']")
api POST "/rest/v1/lists/$list/leads.json?id=$lead"
expect "a static list of the program with a member" "d['result'][0]['status'] == 'added'"
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=PC-SL-$tag" \
    --data-urlencode "folder=$in_prog" --data-urlencode "description=the audience"
sl=$(py "d['result'][0]['id']")
member_of "$sl" filters 100001 "PC-List-$tag"
expect "a smart list naming the list" "d['success']"
ctl form create --name "PC-Form-$tag" --field email firstName --program "$prog" >/dev/null
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=PC-SLF-$tag" \
    --data-urlencode "folder=$in_prog"
slf=$(py "d['result'][0]['id']")
member_of "$slf" filters 2 "PC-Form-$tag"
expect "a form of the program, a smart list naming it" "d['success']"
new_email "pc-em-$tag" "$in_prog"
em=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/email/$em/approveDraft.json"
expect "an approved email" "d['success']"
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=pc-req-$tag" \
    --data-urlencode "folder=$in_prog"
req=$(py "d['result'][0]['id']")
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=pc-sc-$tag" \
    --data-urlencode "folder=$in_prog"
camp=$(py "d['result'][0]['id']")
csl=$(py "d['result'][0]['smartListId']")
member_of "$csl" triggers 24 "PC-List-$tag"
step "$camp" 6 0 "{\"1\":\"$em\"}"
step "$camp" 24 1 "{\"1\":\"$list\"}"
step "$camp" 47 2 "{\"1\":\"$req\"}"
step "$camp" 104 3 "{\"1\":\"PC-$tag\",\"2\":\"Invited\"}"
expect "a campaign sending the email, adding to the list, requesting the other" "d['success']"
form POST "/rest/asset/v1/smartCampaign/$camp/activate.json" -F "id=$camp"
expect "and active" "d['success']"
dbsql "INSERT INTO folder_token (program_id, name, type, value, created_at,
    updated_at) VALUES ($prog, 'Speaker', 'text', 'Ada', UTC_TIMESTAMP(),
    UTC_TIMESTAMP())"

form POST "/rest/asset/v1/program/$prog/clone.json" --data-urlencode "name=PC2-$tag" \
    --data-urlencode "folder=$root"
expect "Clone Program of a program with assets: the new program" \
    "d['success'] and d['result'][0]['name'] == 'PC2-$tag'"
p2=$(py "d['result'][0]['id']")
in_p2="{\"id\":$p2,\"type\":\"Program\"}"

form GET /rest/asset/v1/staticLists.json -G --data-urlencode "folder=$in_p2"
expect "its static list, renamed with the new program's name" \
    "[x['name'] for x in d['result']] == ['PC-List-$tag (PC2-$tag)']"
list2=$(py "d['result'][0]['id']")
expect_sql "without members" "SELECT COUNT(*) FROM list_member WHERE list_id = $list2" 0
em2=$(dbsql "SELECT id FROM email WHERE place_type = 'Program' AND place_id = $p2")
expect_sql "its email, with the same name, a draft only" \
    "SELECT CONCAT(e.name, ':', GROUP_CONCAT(v.status)) FROM email e
     JOIN email_version v ON v.email_id = e.id WHERE e.id = $em2 GROUP BY e.id" \
    "pc-em-$tag:draft"
expect_sql "and it uses what the source uses (its template)" \
    "SELECT COUNT(*) FROM asset_usage WHERE user_type = 'email'
     AND user_id = $em2 AND asset_type = 'emailTemplate'" 1
expect_sql "its form, renamed, with its fields" \
    "SELECT CONCAT(f.name, ':', GROUP_CONCAT(ff.field_name ORDER BY ff.field_name))
     FROM form f JOIN form_field ff ON ff.form_id = f.id WHERE f.program_id = $p2
     GROUP BY f.id" "PC-Form-$tag (PC2-$tag):email,firstName"
form GET /rest/asset/v1/smartLists.json -G --data-urlencode "folder=$in_p2"
expect "its smart lists, renamed, described" \
    "[(x['name'], x['description']) for x in d['result']] == [('PC-SL-$tag (PC2-$tag)', 'the audience'), ('PC-SLF-$tag (PC2-$tag)', None)]"
sl2=$(py "d['result'][0]['id']")
slf2=$(py "d['result'][1]['id']")
form GET "/rest/asset/v1/smartList/$slf2.json?includeRules=true"
expect "whose Fills Out Form names the copy of the form" \
    "d['result'][0]['rules']['filters'][0]['conditions'][0]['values'] == ['PC-Form-$tag (PC2-$tag)']"
form GET "/rest/asset/v1/smartList/$sl2.json?includeRules=true"
expect "whose rule names the copy of the list" \
    "d['result'][0]['rules']['filters'][0]['conditions'][0]['values'] == ['PC-List-$tag (PC2-$tag)']"
form GET /rest/asset/v1/smartCampaigns.json -G --data-urlencode "folder=$in_p2"
expect "its campaigns, renamed, inactive" \
    "sorted((x['name'], x['isActive']) for x in d['result']) == [('pc-req-$tag (PC2-$tag)', False), ('pc-sc-$tag (PC2-$tag)', False)]"
camp2=$(py "[x['id'] for x in d['result'] if x['name'].startswith('pc-sc-')][0]")
req2=$(py "[x['id'] for x in d['result'] if x['name'].startswith('pc-req-')][0]")
csl2=$(py "[x['smartListId'] for x in d['result'] if x['name'].startswith('pc-sc-')][0]")
v=$(flow_values "$camp2")
if [ "$v" = "$em2|$list2|$req2|$p2|Invited" ]; then
	echo "ok - the copy's flow sends the copied email, adds to the copied list, requests the copied campaign, changes the new program's status"
else
	echo "not ok - the copy's flow: $v, not $em2|$list2|$req2|$p2|Invited"
	failed=1
fi
form GET "/rest/asset/v1/smartList/$csl2.json?includeRules=true"
expect "the copy's trigger names the copied list" \
    "d['result'][0]['rules']['triggers'][0]['conditions'][0]['values'] == ['PC-List-$tag (PC2-$tag)']"
v=$(flow_values "$camp")
if [ "$v" = "$em|$list|$req|$prog|Invited" ]; then
	echo "ok - the source's flow is unchanged"
else
	echo "not ok - the source's flow: $v"
	failed=1
fi
form GET "/rest/asset/v1/smartList/$sl.json?includeRules=true"
expect "the source's rule is unchanged" \
    "d['result'][0]['rules']['filters'][0]['conditions'][0]['values'] == ['PC-List-$tag']"
api GET "/rest/asset/v1/folder/$p2/tokens.json?folderType=Program"
expect "the tokens went with it" \
    "[t['name'] for x in d['result'] for t in x['tokens']] == ['Speaker']"

# The copy of a copy carries one suffix, the newest program's.
form POST "/rest/asset/v1/program/$p2/clone.json" --data-urlencode "name=PC3-$tag" \
    --data-urlencode "folder=$root"
p3=$(py "d['result'][0]['id']")
form GET /rest/asset/v1/staticLists.json -G --data-urlencode "folder={\"id\":$p3,\"type\":\"Program\"}"
expect "a clone of the clone names its list with one suffix" \
    "[x['name'] for x in d['result']] == ['PC-List-$tag (PC3-$tag)']"

# A copy's name in use: 709 naming it, and nothing made.
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=PC-SL-$tag (PC4-$tag)" \
    --data-urlencode 'folder={"id":5,"type":"Folder"}'
taken=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/program/$prog/clone.json" --data-urlencode "name=PC4-$tag" \
    --data-urlencode "folder=$root"
expect "a copy's name in use: 709 naming it" \
    "d['errors'] == [{'code': '709', 'message': \"Smart list name 'PC-SL-$tag (PC4-$tag)' is already in use\"}]"
expect_sql "and nothing is made" \
    "SELECT (SELECT COUNT(*) FROM program WHERE name = 'PC4-$tag')
     + (SELECT COUNT(*) FROM static_list WHERE name = 'PC-List-$tag (PC4-$tag)')" 0
form POST "/rest/asset/v1/smartList/$taken/delete.json"

# A copy's name past 255 characters: 709, and nothing made.
long=$(printf 'L%.0s' $(seq 1 250))
form POST /rest/asset/v1/staticLists.json --data-urlencode "name=$long" \
    --data-urlencode "folder=$in_prog"
ll=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/program/$prog/clone.json" --data-urlencode "name=PC5-$tag" \
    --data-urlencode "folder=$root"
expect "a copy's name too long: 709" \
    "d['errors'][0]['code'] == '709' and d['errors'][0]['message'].startswith('Static list ')
     and d['errors'][0]['message'].endswith(\"cannot be copied: its copy's name would be longer than 255 characters\")"
expect_sql "and nothing is made" "SELECT COUNT(*) FROM program WHERE name = 'PC5-$tag'" 0
form POST "/rest/asset/v1/staticList/$ll/delete.json"

for p in "$p3" "$p2"; do
	form POST "/rest/asset/v1/program/$p/delete.json"
	expect "a clone is deleted with its assets" "d['result'] == [{'id': $p}]"
done
exit "$failed"
