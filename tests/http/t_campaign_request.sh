#!/usr/bin/env bash
# name: Request Campaign end to end: a trigger campaign with a Web Service API "Campaign is Requested" trigger runs its flow for each lead (tokens from the request, then the program), the activities of each step, qualification, and the call's errors
# docs/behaviour.md §24.  Fixtures: a program with a My Token, a static
# list, two leads; a trigger campaign in the program whose flow changes
# firstName to {{my.greeting}}, adds the lead to the list, records an
# interesting moment and moves its program status.  The runs are the
# campaign engine's (src/engine/), which the harness's mautod runs; its
# counters in /metrics move by the request's run.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# acts TYPES LEAD: the activities of TYPES of LEAD since $start, as d.
acts()
{
	pages "$start" "/rest/v1/activities.json?activityTypeIds=$1&leadIds=$2&"
}

# wait_acts DESCRIPTION TYPES LEAD COUNT: waits (up to 20 s) until LEAD
# has COUNT activities of TYPES, then d holds them.
wait_acts()
{
	local i
	for i in $(seq 1 80); do
		acts "$2" "$3"
		[ "$(py "len(d)")" -ge "$4" ] && break
		sleep 0.25
	done
	expect "$1" "len(d) == $4"
}

api GET "/rest/v1/activities/pagingtoken.json?sinceDatetime=$(date -u -d '-1 minute' +%Y-%m-%dT%H:%M:%SZ)"
start=$(py "d['nextPageToken']")

prog=$(ctl program create --name "RC-Prog-$tag")
list=$(ctl list create --name "RC-List-$tag")
form POST "/rest/asset/v1/folder/$prog/tokens.json" -d folderType=Program \
    -d type=text --data-urlencode "name=greeting" \
    --data-urlencode "value=From the program"
expect "a My Token on the program" "d['success']"
api POST /rest/v1/leads.json "{\"input\": [{\"email\": \"a-$tag@example.com\",
    \"firstName\": \"Ann\"}, {\"email\": \"b-$tag@example.com\",
    \"firstName\": \"Bob\"}]}"
a=$(py "d['result'][0]['id']")
b=$(py "d['result'][1]['id']")

# ---- the campaign ---------------------------------------------------------
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=rc-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
camp=$(py "d['result'][0]['id']")
sl=$(py "d['result'][0]['smartListId']")
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode 'ruleId={"id":100004,"type":"activity"}' -d index=1 -d trigger=true
rule=$(py "d['result'][0]['rules']['triggers'][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
    --data-urlencode 'attributeId={"id":1,"type":"activity"}' \
    --data-urlencode "values=Web Service API"
expect "a trigger Campaign is Requested, source Web Service API" "d['success']"

# step TYPE INDEX ATTRIBUTES: a flow step at INDEX with its default
# choice's attributes.
step()
{
	local s c
	form POST "/rest/asset/v1/smartCampaign/$camp/flows.json" \
	    --data-urlencode "activityType={\"id\":$1,\"type\":\"activity\"}" -d "index=$2"
	s=$(py "d['result'][0]['flow']['steps'][$2]['id']")
	c=$(py "d['result'][0]['flow']['steps'][$2]['stepChoice'][-1]['id']")
	form POST "/rest/asset/v1/smartCampaign/$camp/flow/$s/choice/$c.json" \
	    --data-urlencode "attributes=$3"
	expect "flow step $(($2 + 1)) (type $1)" "d['success']"
}
step 13 0 '{"1":"First Name","2":"{{my.greeting}}"}'
step 24 1 "{\"1\":\"RC-List-$tag\"}"
step 46 2 '{"1":"Milestone","2":"Said {{my.greeting}}"}'
step 104 3 "{\"1\":\"$prog\",\"2\":\"Attended\"}"
step 22 4 '{"1":"Lead Score","2":"+10"}'

api POST "/rest/v1/campaigns/$camp/trigger.json" "{\"input\": {\"leads\": [{\"id\": $a}]}}"
expect "an inactive campaign cannot be requested (1003)" \
    "not d['success'] and d['errors'][0]['code'] == '1003' and 'not active' in d['errors'][0]['message']"
form POST "/rest/asset/v1/smartCampaign/$camp/activate.json" -F "id=$camp"
expect "the campaign activates" "d['success']"
api GET "/rest/v1/campaigns.json?isTriggerable=true&id=$camp"
expect "it is triggerable" "[x['id'] for x in d['result']] == [$camp]"

# ---- Request Campaign ----------------------------------------------------
scrape "$work/m0"
api POST "/rest/v1/campaigns/$camp/trigger.json" \
    "{\"input\": {\"leads\": [{\"id\": $a}], \"tokens\": [{\"name\": \"{{my.greeting}}\", \"value\": \"Hello there\"}]}}"
expect "Request Campaign answers the campaign's id" \
    "d['success'] and d['result'] == [{'id': $camp}] and list(d) == ['requestId', 'result', 'success']"
wait_acts "the flow ran: Interesting Moment" 46 "$a" 1
expect "Interesting Moment with the request's token, the run context and the campaign" \
    "d[0]['campaignId'] == $camp and d[0]['primaryAttributeValue'] == 'Said Hello there' and
     {'name': 'Type', 'value': 'Milestone'} in d[0]['attributes'] and
     {'name': 'Source', 'value': 'Marketo Flow Action'} in d[0]['attributes'] and
     [x['value'] for x in d[0]['attributes'] if x['name'] == 'Choice Number'] == [0]"
acts 47 "$a"
expect "Request Campaign activity: the campaign, source Web Service API, no campaignId" \
    "len(d) == 1 and d[0]['primaryAttributeValueId'] == $camp and
     d[0]['primaryAttributeValue'] == 'rc-$tag' and 'campaignId' not in d[0] and
     {'name': 'Source', 'value': 'Web Service API'} in d[0]['attributes']"
acts 13 "$a"
expect "Change Data Value: First Name to the token, with the flow's reason and source" \
    "[x for x in d if x.get('campaignId') == $camp and x['primaryAttributeValue'] == 'First Name'] != [] and
     {'name': 'New Value', 'value': 'Hello there'} in [x for x in d if x['primaryAttributeValue'] == 'First Name'][0]['attributes'] and
     {'name': 'Old Value', 'value': 'Ann'} in [x for x in d if x['primaryAttributeValue'] == 'First Name'][0]['attributes'] and
     {'name': 'Reason', 'value': 'Changed by Smart Campaign RC-Prog-$tag.rc-$tag action Change Data Value'} in [x for x in d if x['primaryAttributeValue'] == 'First Name'][0]['attributes'] and
     {'name': 'Source', 'value': 'Marketo Flow Action'} in [x for x in d if x['primaryAttributeValue'] == 'First Name'][0]['attributes']"
api GET "/rest/v1/lead/$a.json?fields=firstName,leadScore"
expect "the lead's firstName and score changed" \
    "d['result'][0]['firstName'] == 'Hello there' and d['result'][0]['leadScore'] == 10"
acts 24 "$a"
expect "Add to List: the list, source Marketo Flow Action" \
    "len(d) == 1 and d[0]['primaryAttributeValueId'] == $list and d[0]['campaignId'] == $camp and
     {'name': 'Source', 'value': 'Marketo Flow Action'} in d[0]['attributes']"
api GET "/rest/v1/lists/$list/leads/ismember.json?id=$a"
expect "the lead is a member of the list" "d['result'] == [{'id': $a, 'status': 'memberof'}]"
acts 104 "$a"
expect "Change Status in Progression to Attended, acquired by the step" \
    "len(d) == 1 and d[0]['primaryAttributeValueId'] == $prog and
     {'name': 'New Status', 'value': 'Attended'} in d[0]['attributes'] and
     {'name': 'Old Status', 'value': 'Not in Program'} in d[0]['attributes']"
acts 22 "$a"
expect "Change Score: +10 from 0" \
    "len(d) == 1 and {'name': 'Change Value', 'value': '+10'} in d[0]['attributes'] and
     {'name': 'New Value', 'value': 10} in d[0]['attributes']"
api GET "/rest/v1/leads/$a/smartCampaignMembership.json"
expect "the lead is a member of the campaign" \
    "$camp in [x['smartCampaignId'] for x in d.get('result', [])]"
scrape "$work/m1"
metric_moved "$work/m0" "$work/m1" 'mautod_campaign_runs_started_total{kind="request"}' 1
metric_moved "$work/m0" "$work/m1" 'mautod_campaign_first_step_seconds_count{kind="request"}' 1
metric_moved "$work/m0" "$work/m1" 'mautod_campaign_steps_total{type="Change Score",result="done"}' 1
metric_moved "$work/m0" "$work/m1" 'mautod_campaign_steps_total{type="Interesting Moment",result="done"}' 1

# ---- qualification: once (the default) ------------------------------------
api POST "/rest/v1/campaigns/$camp/trigger.json" "{\"input\": {\"leads\": [{\"id\": $a}, {\"id\": $b}]}}"
expect "a second request succeeds" "d['success']"
expect_sql "the lead that ran before does not qualify again; the other enters" \
    "SELECT GROUP_CONCAT(CONCAT(lead_id, ':', IF(state = 'skipped', 'skipped', 'entered')) ORDER BY lead_id) FROM campaign_run_lead WHERE run_id = (SELECT MAX(id) FROM campaign_run WHERE campaign_id = $camp)" "$a:skipped,$b:entered"
wait_acts "the second lead ran, with the program's token" 46 "$b" 1
expect "the program's My Token fills what the request does not" \
    "d[0]['primaryAttributeValue'] == 'Said From the program'"
acts 47 "$a"
expect "the lead that did not qualify still has its Request Campaign activity" "len(d) == 2"

# ---- Send Email ------------------------------------------------------------
etpl=$(dbsql "SELECT id FROM email_template ORDER BY id LIMIT 1")
form POST /rest/asset/v1/emails.json --data-urlencode "name=rc-em-$tag" \
    --data-urlencode "template=$etpl" --data-urlencode "subject=News: {{my.greeting}}" \
    --data-urlencode "fromName=F" --data-urlencode "fromEmail=f@example.com" \
    --data-urlencode "replyEmail=r@example.com" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
em=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/email/$em/approveDraft.json"
expect "an email of the program is approved" "d['success']"
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=rc-mail-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
camp=$(py "d['result'][0]['id']")
mailcamp=$camp
sl=$(py "d['result'][0]['smartListId']")
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode 'ruleId={"id":100004,"type":"activity"}' -d index=1 -d trigger=true
rule=$(py "d['result'][0]['rules']['triggers'][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
    --data-urlencode 'attributeId={"id":1,"type":"activity"}' \
    --data-urlencode "values=Web Service API"
step 6 0 "{\"1\":\"$em\"}"
form POST "/rest/asset/v1/smartCampaign/$camp/activate.json" -F "id=$camp"
expect "the mailing campaign activates" "d['success']"
api POST "/rest/v1/campaigns/$camp/trigger.json" \
    "{\"input\": {\"leads\": [{\"id\": $a}], \"tokens\": [{\"name\": \"{{my.greeting}}\", \"value\": \"Mail day\"}]}}"
expect "the mailing campaign is requested" "d['success']"
wait_acts "Send Email (6) for the lead" 6 "$a" 1
expect "Send Email: the email, the campaign, the run context" \
    "d[0]['primaryAttributeValueId'] == $em and d[0]['campaignId'] == $camp and
     d[0]['primaryAttributeValue'] == 'RC-Prog-$tag.rc-em-$tag'"
for i in $(seq 1 40); do
	curl -sS "$base/outbox.json?campaignId=$camp" >"$work/out"
	[ "$(py "len(d.get('result', d if isinstance(d, list) else []))")" -ge 1 ] && break
	sleep 0.25
done
expect "the outbox read shows one message to the lead, its subject with the request's token" \
    "len(d['result']) == 1 and d['result'][0]['to'] == 'a-$tag@example.com' and
     d['result'][0]['subject'] == 'News: Mail day' and d['result'][0]['leadId'] == $a"

# ---- errors ---------------------------------------------------------------
api POST "/rest/v1/campaigns/999999/trigger.json" "{\"input\": {\"leads\": [{\"id\": $a}]}}"
expect "unknown campaign: 1013 Campaign not found" \
    "not d['success'] and d['errors'] == [{'code': '1013', 'message': 'Campaign not found'}]"
api POST "/rest/v1/campaigns/$camp/trigger.json" "{\"input\": {\"leads\": [{\"id\": $a}, {\"id\": 999999999}]}}"
expect "an unknown lead fails the whole call: 1004 Lead [id] not found" \
    "not d['success'] and d['errors'] == [{'code': '1004', 'message': 'Lead [999999999] not found'}]"
api POST "/rest/v1/campaigns/$camp/trigger.json" '{"input": {}}'
expect "no leads: 701" "not d['success'] and d['errors'][0]['code'] == '701'"
api POST "/rest/v1/campaigns/$camp/trigger.json" \
    "{\"input\": {\"leads\": [$(python3 -c 'print(",".join("{\"id\": %d}" % i for i in range(1, 102)))')]}}"
expect "101 leads: 1003" "not d['success'] and d['errors'][0]['code'] == '1003'"
api POST "/rest/v1/campaigns/$camp/trigger.json" \
    "{\"input\": {\"leads\": [{\"id\": $a}], \"tokens\": [{\"name\": \"greeting\", \"value\": \"x\"}]}}"
expect "a token not named {{my.name}}: 1003" \
    "not d['success'] and d['errors'][0]['code'] == '1003' and 'greeting' in d['errors'][0]['message']"
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=rc-batch-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
batch=$(py "d['result'][0]['id']")
api POST "/rest/v1/campaigns/$batch/trigger.json" "{\"input\": {\"leads\": [{\"id\": $a}]}}"
expect "a batch campaign cannot be requested: 1003" \
    "not d['success'] and d['errors'][0]['code'] == '1003' and 'batch' in d['errors'][0]['message']"
api POST "/rest/v1/campaigns/$camp/schedule.json" '{}'
expect "a trigger campaign cannot be scheduled: 1003" \
    "not d['success'] and d['errors'][0]['code'] == '1003' and 'trigger campaign' in d['errors'][0]['message']"

exit "$failed"
