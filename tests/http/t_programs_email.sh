#!/usr/bin/env bash
# name: Email programs: Create Program of type Email with startDate and endDate, their reads, Approve Program's preconditions (709 naming what is missing), the send at startDate on the engine's clock (each lead of the smart list mailed once, through the outbox, with Send Email activities), Unapprove before and after the send, and the refusals for other programs
# docs/behaviour.md §22, §24, §26.  Fixtures: a folder through the API;
# four leads, three of one company; in the Email program, an email and
# a smart list keeping that company.  The send is the campaign engine's
# batch run of the program's send campaign; the engine's clock is read
# from the database (other scripts move it) and moved by mautoctl clock.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/http/program_lib.sh
. "$(dirname "$0")/program_lib.sh"

# iso SECONDS: the UTC time SECONDS after the epoch as ISO-8601.
iso()
{
	date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ
}

# refused DESCRIPTION MESSAGE: the last answer is 709 with MESSAGE.
refused()
{
	expect "$1" "not d['success'] and d['errors'] == [{'code': '709', 'message': '''$2'''}]"
}

api GET "/rest/v1/activities/pagingtoken.json?sinceDatetime=$(date -u -d '-1 minute' +%Y-%m-%dT%H:%M:%SZ)"
start_tok=$(py "d['nextPageToken']")

form POST /rest/asset/v1/folders.json --data-urlencode "name=pe-$tag" \
    --data-urlencode 'parent={"id":1,"type":"Folder"}'
expect "a folder for the programs" "d['success']"
f=$(py "d['result'][0]['id']")
in_f="{\"id\":$f,\"type\":\"Folder\"}"

# The engine's clock, in seconds: real time plus its offset.
offset=$(dbsql "SELECT offset_ms DIV 1000 FROM engine_clock WHERE id = 1")
now=$(( $(date +%s) + offset ))
start=$(( now + 3600 ))
end=$(( start + 86400 ))

# ---- Create and read --------------------------------------------------------
form POST /rest/asset/v1/programs.json --data-urlencode "name=PE-$tag" \
    --data-urlencode "folder=$in_f" -d type=Email --data-urlencode "channel=Email Send" \
    --data-urlencode "startDate=$(iso "$start")" --data-urlencode "endDate=$(iso "$end")"
expect "create an Email program: its object with startDate, endDate and headStart" \
    "d['success'] and list(d['result'][0].keys()) == ['id', 'name',
      'description', 'createdAt', 'updatedAt', 'url', 'type', 'channel',
      'folder', 'status', 'workspace', 'startDate', 'endDate', 'tags',
      'costs', 'headStart']
     and d['result'][0]['type'] == 'Email'
     and d['result'][0]['channel'] == 'Email Send'
     and d['result'][0]['status'] == 'unlocked'
     and d['result'][0]['startDate'] == '$(date -u -d "@$start" +%Y-%m-%dT%H:%M:%S).000Z'
     and d['result'][0]['endDate'] == '$(date -u -d "@$end" +%Y-%m-%dT%H:%M:%S).000Z'
     and d['result'][0]['headStart'] is False"
prog=$(py "d['result'][0]['id']")
in_prog="{\"id\":$prog,\"type\":\"Program\"}"

form POST /rest/asset/v1/programs.json --data-urlencode "name=PE-X-$tag" \
    --data-urlencode "folder=$in_f" -d type=email --data-urlencode "channel=Email Blast"
refused "an Email program's channel is one for Email programs (Email Blast is for Default ones)" \
    "Channel 'Email Blast' is not for Email programs"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PE-X-$tag" \
    --data-urlencode "folder=$in_f" -d type=Default -d channel=Content \
    --data-urlencode "startDate=$(iso "$start")"
refused "startDate on a Default program" \
    "startDate and endDate are for Email programs only"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PE-X-$tag" \
    --data-urlencode "folder=$in_f" -d type=Email --data-urlencode "channel=Email Send" \
    --data-urlencode "startDate=$(iso "$end")" --data-urlencode "endDate=$(iso "$start")"
refused "endDate before startDate" "endDate is before startDate"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PE-X-$tag" \
    --data-urlencode "folder=$in_f" -d type=Email --data-urlencode "channel=Email Send" \
    --data-urlencode "startDate=1969-07-20"
expect "a startDate before 1970: 1003" \
    "not d['success'] and d['errors'][0]['code'] == '1003'"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PE-2-$tag" \
    --data-urlencode "folder=$in_f" -d type=Email --data-urlencode "channel=Email Send"
expect "an Email program without dates" \
    "d['success'] and 'startDate' not in d['result'][0] and d['result'][0]['headStart'] is False"
prog2=$(py "d['result'][0]['id']")
form POST /rest/asset/v1/programs.json --data-urlencode "name=PE-D-$tag" \
    --data-urlencode "folder=$in_f" -d type=Default -d channel=Content
expect "a Default program has no headStart" \
    "d['success'] and 'headStart' not in d['result'][0] and 'startDate' not in d['result'][0]"
pd=$(py "d['result'][0]['id']")

api GET "/rest/asset/v1/programs.json?filterType=id&filterValues=$prog,$prog2,$pd"
expect "browse: Email programs with headStart, the Default one without" \
    "[(x['id'], x['status'], 'headStart' in x) for x in d['result']] ==
     [($prog, 'unlocked', True), ($prog2, 'unlocked', True), ($pd, '', False)]"
api GET "/rest/asset/v1/programs.json?filterType=id&filterValues=$prog,$prog2,$pd&status=unlocked"
expect "browse status=unlocked: the two Email programs" \
    "[x['id'] for x in d['result']] == [$prog, $prog2]"
api GET "/rest/asset/v1/programs.json?filterType=id&filterValues=$prog,$prog2,$pd&status=locked"
expect "browse status=locked: none yet" "'result' not in d"

# ---- Approve: what it needs ---------------------------------------------
form POST "/rest/asset/v1/program/$prog2/approve.json"
refused "approve without startDate" \
    "Program $prog2 has no startDate: set it with Update Program"
form POST "/rest/asset/v1/program/$prog2.json" \
    --data-urlencode "startDate=$(iso $(( now - 3600 )))"
expect "Update Program sets startDate" \
    "d['success'] and d['result'][0]['startDate'].endswith('.000Z')"
form POST "/rest/asset/v1/program/$prog2/approve.json"
refused "approve with a startDate that has passed" \
    "Program $prog2 has a startDate that has passed: set a later one"
form POST "/rest/asset/v1/program/$pd.json" --data-urlencode "endDate=$(iso "$end")"
refused "Update Program: dates on a Default program" \
    "startDate and endDate are for Email programs only"
form POST "/rest/asset/v1/program/$prog.json" --data-urlencode "endDate=$(iso $(( start - 60 )))"
refused "Update Program: an endDate before the program's startDate" \
    "endDate is before startDate"

form POST "/rest/asset/v1/program/$prog/approve.json"
refused "approve without an email" \
    "Program $prog has no approved email: approve its email first"
new_email "pe-em-$tag" "$in_prog"
em=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/program/$prog/approve.json"
refused "approve with an email not approved" \
    "Program $prog has no approved email: approve its email first"
form POST "/rest/asset/v1/email/$em/approveDraft.json"
expect "the program's email approved" "d['success']"

form POST "/rest/asset/v1/program/$prog/approve.json"
refused "approve without a smart list" \
    "Program $prog has no smart list to choose whom its email goes to"
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=pe-sl-$tag" \
    --data-urlencode "folder=$in_prog"
expect "a smart list in the program" "d['success']"
sl=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/program/$prog/approve.json"
refused "approve with a smart list without filters" \
    "Program $prog: smart list $sl cannot choose whom its email goes to: it has no filter to select its people"

api GET /rest/v1/leads/describe.json
company=$(py "[f['id'] for f in d['result'] if f['rest']['name'] == 'company'][0]")
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode "ruleId={\"id\":$company,\"type\":\"attribute\"}" -d index=1
rule=$(py "d['result'][0]['rules']['filters'][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
    --data-urlencode "attributeId={\"id\":$company,\"type\":\"attribute\"}" \
    --data-urlencode "values=EP-$tag" -d operator=is
expect "a filter: Company is EP-<tag>" "d['success']"
api POST /rest/v1/leads.json "{\"input\": [
    {\"email\": \"e1-$tag@example.com\", \"company\": \"EP-$tag\"},
    {\"email\": \"e2-$tag@example.com\", \"company\": \"EP-$tag\"},
    {\"email\": \"e3-$tag@example.com\", \"company\": \"ep-$tag\"},
    {\"email\": \"e4-$tag@example.com\", \"company\": \"Other-$tag\"}]}"
ids=($(py "' '.join(str(x['id']) for x in d['result'])"))

# ---- Approve, Unapprove before the send, approve again ---------------------
form POST "/rest/asset/v1/program/$prog/approve.json"
expect "approve: the id" "d['success'] and d['result'] == [{'id': $prog}]"
form GET "/rest/asset/v1/program/$prog.json"
expect "the approved program is locked" "d['result'][0]['status'] == 'locked'"
api GET "/rest/asset/v1/programs.json?filterType=id&filterValues=$prog,$prog2,$pd&status=locked"
expect "browse status=locked: the approved program" "[x['id'] for x in d['result']] == [$prog]"
form POST "/rest/asset/v1/program/$prog/approve.json"
refused "approve twice" "Program $prog is approved already"
form POST "/rest/asset/v1/program/$prog.json" --data-urlencode "startDate=$(iso $(( start + 60 )))"
refused "the schedule of an approved program does not change" \
    "Program $prog is approved: unapprove it to change startDate or endDate"
form POST "/rest/asset/v1/program/$prog.json" -d "description=locked but described"
expect "an approved program's description changes" \
    "d['success'] and d['result'][0]['description'] == 'locked but described'"
form POST "/rest/asset/v1/email/$em/unapprove.json"
expect "its email cannot be unapproved while the program is approved" \
    "not d['success'] and d['errors'][0]['code'] == '709'"
form GET "/rest/asset/v1/smartCampaign/byName.json" --get \
    --data-urlencode "name=Email program $prog send"
expect "the send campaign: a system campaign in the program, Single Run" \
    "d['result'][0]['isSystem'] is True and d['result'][0]['status'] == 'Single Run'
     and d['result'][0]['folder'] == {'id': $prog, 'type': 'Program'}"
camp1=$(py "d['result'][0]['id']")

form POST "/rest/asset/v1/program/$prog/unapprove.json"
expect "unapprove before the send: the id" "d['success'] and d['result'] == [{'id': $prog}]"
form GET "/rest/asset/v1/program/$prog.json"
expect "unapproved: unlocked" "d['result'][0]['status'] == 'unlocked'"
expect_sql "the cancelled send's campaign and run are gone" \
    "SELECT (SELECT COUNT(*) FROM smart_campaign WHERE id = $camp1) +
        (SELECT COUNT(*) FROM campaign_run WHERE campaign_id = $camp1)" 0
form POST "/rest/asset/v1/program/$prog/unapprove.json"
refused "unapprove what is not approved" "Program $prog is not approved"

form POST "/rest/asset/v1/program/$prog/approve.json"
expect "approve again" "d['success'] and d['result'] == [{'id': $prog}]"
form GET "/rest/asset/v1/smartCampaign/byName.json" --get \
    --data-urlencode "name=Email program $prog send"
camp=$(py "d['result'][0]['id']")

# ---- The send at startDate -------------------------------------------------
sleep 1
curl -sS "$base/outbox.json?campaignId=$camp" >"$work/out"
expect "nothing is sent before startDate" "d['result'] == []"
ctl clock advance 2h >/dev/null

# sent N: the outbox holds N messages of the send.
sent()
{
	curl -sS "$base/outbox.json?campaignId=$camp" >"$work/out"
	[ "$(py "len(d['result'])")" -ge "$1" ]
}
for i in $(seq 1 80); do
	sent 3 && break
	sleep 0.25
done
expect "at startDate the email goes to the three leads of the company (any letter case), once each" \
    "sorted(x['leadId'] for x in d['result']) == sorted([${ids[0]}, ${ids[1]}, ${ids[2]}])
     and sorted(x['to'] for x in d['result']) ==
         ['e1-$tag@example.com', 'e2-$tag@example.com', 'e3-$tag@example.com']"

form POST "/rest/asset/v1/program/$prog/unapprove.json"
refused "unapprove after the send began" \
    "Program $prog cannot be unapproved: its send has begun"

for i in $(seq 1 80); do
	pages "$start_tok" "/rest/v1/activities.json?activityTypeIds=6&leadIds=$(IFS=,; echo "${ids[*]}")&"
	[ "$(py "len(d)")" -ge 3 ] && break
	sleep 0.25
done
expect "Send Email (6) once on each of the three leads, naming the program's email and the send campaign" \
    "sorted(x['leadId'] for x in d) == sorted([${ids[0]}, ${ids[1]}, ${ids[2]}])
     and all(x['primaryAttributeValueId'] == $em and x['campaignId'] == $camp
             and x['primaryAttributeValue'] == 'PE-$tag.pe-em-$tag' for x in d)"
sleep 2
pages "$start_tok" "/rest/v1/activities.json?activityTypeIds=6&leadIds=$(IFS=,; echo "${ids[*]}")&"
expect "still once each a while later" "len(d) == 3"
curl -sS "$base/outbox.json?campaignId=$camp" >"$work/out"
expect "the outbox still holds three messages" "len(d['result']) == 3"
form GET "/rest/asset/v1/program/$prog.json"
expect "after the send the program stays locked" "d['result'][0]['status'] == 'locked'"

# ---- Other programs ----------------------------------------------------------
for op in approve unapprove; do
	form POST "/rest/asset/v1/program/$pd/$op.json"
	refused "$op of a Default program" \
	    "Program $pd is not an Email program: ${op^} Program is for Email programs only"
	form POST "/rest/asset/v1/program/999999999/$op.json"
	expect "$op of no program: 702" \
	    "d['errors'] == [{'code': '702', 'message': '999999999 Program not found'}]"
done

exit "$failed"
