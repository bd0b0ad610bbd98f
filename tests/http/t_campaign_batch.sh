#!/usr/bin/env bash
# name: Schedule Campaign and batch runs: the leads a smart list's filters select run a flow with choices and a Wait, on the engine's clock moved by mautoctl clock; the schedule's tokens; runAt, filter and trigger-campaign errors; mautoctl campaign runs and trace; the campaign's status (Never Run, Single Run, Inactive), the leads' smart campaign membership and the engine's /metrics
# docs/behaviour.md §24, §25, docs/operating.md (Metrics).  Five leads,
# three of one company; a batch campaign whose smart list keeps that
# company runs Change Data Value (title from the schedule's token), a step
# with a choice (Lead Score at least 50 or the default) and a Wait of two
# days before Add to List.  The scripts run one at a time, so the
# engine's counters move by this script's run only.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# status WANT: the campaign's status word (Get Smart Campaign by Id).
status()
{
	form GET "/rest/asset/v1/smartCampaign/$camp.json"
	[ "$(py "d['result'][0]['status']")" = "$1" ]
}

# until_ok TRIES CMD...: runs CMD every 0.25 s until it succeeds.
until_ok()
{
	local n=$1 i
	shift
	for i in $(seq 1 "$n"); do
		"$@" && return 0
		sleep 0.25
	done
	return 1
}

prog=$(ctl program create --name "BC-Prog-$tag")
list=$(ctl list create --name "BC-List-$tag")
api POST /rest/v1/leads.json "{\"input\": [
    {\"email\": \"b1-$tag@example.com\", \"company\": \"Acme-$tag\", \"leadScore\": 80},
    {\"email\": \"b2-$tag@example.com\", \"company\": \"Acme-$tag\"},
    {\"email\": \"b3-$tag@example.com\", \"company\": \"acme-$tag\"},
    {\"email\": \"b4-$tag@example.com\", \"company\": \"Other-$tag\"},
    {\"email\": \"b5-$tag@example.com\"}]}"
ids=($(py "' '.join(str(x['id']) for x in d['result'])"))
api GET /rest/v1/leads/describe.json
company=$(py "[f['id'] for f in d['result'] if f['rest']['name'] == 'company'][0]")
score=$(py "[f['id'] for f in d['result'] if f['rest']['name'] == 'leadScore'][0]")

form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=bc-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
camp=$(py "d['result'][0]['id']")
sl=$(py "d['result'][0]['smartListId']")
form GET "/rest/asset/v1/smartCampaign/$camp.json"
expect "a new batch campaign: Never Run" "d['result'][0]['status'] == 'Never Run'"

api POST "/rest/v1/campaigns/$camp/schedule.json" ''
expect "a campaign without filters is not scheduled (709)" \
    "not d['success'] and d['errors'][0]['code'] == '709'"

form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode "ruleId={\"id\":$company,\"type\":\"attribute\"}" -d index=1
rule=$(py "d['result'][0]['rules']['filters'][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
    --data-urlencode "attributeId={\"id\":$company,\"type\":\"attribute\"}" \
    --data-urlencode "values=Acme-$tag" -d operator=is
expect "a filter: Company is Acme" "d['success']"

# step TYPE INDEX ATTRIBUTES: a flow step with its default choice's
# attributes; prints the step's id.
step()
{
	local s c
	form POST "/rest/asset/v1/smartCampaign/$camp/flows.json" \
	    --data-urlencode "activityType={\"id\":$1,\"type\":\"activity\"}" -d "index=$2"
	s=$(py "d['result'][0]['flow']['steps'][$2]['id']")
	c=$(py "d['result'][0]['flow']['steps'][$2]['stepChoice'][-1]['id']")
	form POST "/rest/asset/v1/smartCampaign/$camp/flow/$s/choice/$c.json" \
	    --data-urlencode "attributes=$3" >/dev/null
	echo "$s"
}
step 13 0 '{"1":"Job Title","2":"Batch {{my.word}}"}' >/dev/null
s2=$(step 13 1 '{"1":"Rating","2":"Ordinary"}')
form POST "/rest/asset/v1/smartCampaign/$camp/flow/$s2/addChoice.json"
c2=$(py "d['result'][0]['flow']['steps'][1]['stepChoice'][0]['id']")
form POST "/rest/asset/v1/smartCampaign/$camp/flow/$s2/choice/$c2.json" \
    --data-urlencode "conditionTypeId={\"id\":$score,\"type\":\"attribute\"}" \
    -d operator=at%20least --data-urlencode "conditionValues=50" \
    --data-urlencode 'attributes={"1":"Rating","2":"Hot"}'
expect "a choice: Lead Score at least 50 sets Rating Hot" "d['success']"
step 100001 2 '{"101":"2 days"}' >/dev/null
step 24 3 "{\"1\":\"BC-List-$tag\"}" >/dev/null

# ---- errors ---------------------------------------------------------------
api POST "/rest/v1/campaigns/$camp/schedule.json" \
    "{\"input\": {\"runAt\": \"$(date -u -d '+3 years' +%Y-%m-%dT%H:%M:%S+0000)\"}}"
expect "runAt more than two years ahead: 1042" \
    "not d['success'] and d['errors'] == [{'code': '1042', 'message': 'Invalid runAt date'}]"
api POST "/rest/v1/campaigns/$camp/schedule.json" '{"input": {"runAt": "tomorrow"}}'
expect "a runAt that is not a date: 1042" \
    "not d['success'] and d['errors'][0]['code'] == '1042'"
api POST "/rest/v1/campaigns/999999/schedule.json" ''
expect "unknown campaign: 1013" "not d['success'] and d['errors'][0]['code'] == '1013'"

# ---- the run --------------------------------------------------------------
scrape "$work/m0"
api POST "/rest/v1/campaigns/$camp/schedule.json" \
    '{"input": {"tokens": [{"name": "{{my.word}}", "value": "hello"}]}}'
expect "Schedule Campaign answers the campaign's id" \
    "d['success'] and d['result'] == [{'id': $camp}]"
ctl campaign runs "$camp" >"$work/runs"
if grep -q "	batch	scheduled	" "$work/runs"; then
	echo "ok - the run waits, scheduled five minutes ahead"
else
	echo "not ok - the run waits, scheduled: $(cat "$work/runs")"
	failed=1
fi
form GET "/rest/asset/v1/smartCampaign/$camp.json"
expect "scheduled: Single Run" "d['result'][0]['status'] == 'Single Run'"
sleep 1
api GET "/rest/v1/lead/${ids[0]}.json?fields=title"
expect "nothing ran before its time" "d['result'][0].get('title') is None"

ctl clock advance 6m >/dev/null
titled()
{
	api GET "/rest/v1/leads.json?filterType=id&filterValues=$(IFS=,; echo "${ids[*]}")&fields=title,rating"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if sum(1 for x in d["result"] if x.get("title")) == 3 else 1)' "$work/out"
}
until_ok 80 titled || true
expect "after the clock moved past runAt, the three leads of the company (any letter case) ran, with the schedule's token" \
    "sorted((x['id'], x.get('title')) for x in d['result'] if x.get('title')) ==
     sorted([(${ids[0]}, 'Batch hello'), (${ids[1]}, 'Batch hello'), (${ids[2]}, 'Batch hello')])"
rated()
{
	api GET "/rest/v1/leads.json?filterType=id&filterValues=$(IFS=,; echo "${ids[*]}")&fields=rating"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if sum(1 for x in d["result"] if x.get("rating")) == 3 else 1)' "$work/out"
}
until_ok 80 rated || true
expect "the choice: the lead of score 80 took it, the others the default" \
    "sorted((x['id'], x.get('rating')) for x in d['result'] if x.get('rating')) ==
     sorted([(${ids[0]}, 'Hot'), (${ids[1]}, 'Ordinary'), (${ids[2]}, 'Ordinary')])"
api GET "/rest/v1/lists/$list/leads.json"
expect "they wait: not in the list yet" "len(d.get('result', [])) == 0"
form GET "/rest/asset/v1/smartCampaign/$camp.json"
expect "while its leads wait: Single Run" "d['result'][0]['status'] == 'Single Run'"
api GET "/rest/v1/leads/${ids[0]}/smartCampaignMembership.json"
expect "the lead that ran is a member of the campaign" \
    "[x['smartCampaignId'] for x in d.get('result', [])] == [$camp]"
api GET "/rest/v1/leads/${ids[3]}/smartCampaignMembership.json"
expect "a lead the filter left out is not" \
    "all(x['smartCampaignId'] != $camp for x in d.get('result', []))"
# The queue's gauges are sampled every few seconds.
waiting()
{
	scrape "$work/m1"
	[ "$(metric "$work/m1" 'mautod_campaign_queue{queue="waiting"}')" -ge 3 ]
}
if until_ok 80 waiting; then
	echo "ok - /metrics: the three leads wait in the queue"
else
	echo "not ok - /metrics: queue: $(grep mautod_campaign_queue "$work/m1")"
	failed=1
fi

ctl clock advance 2d >/dev/null
listed()
{
	api GET "/rest/v1/lists/$list/leads.json"
	[ "$(py "len(d.get('result', []))")" = 3 ]
}
until_ok 80 listed || true
expect "two days later on the engine's clock they are added to the list" \
    "sorted(x['id'] for x in d.get('result', [])) == sorted([${ids[0]}, ${ids[1]}, ${ids[2]}])"

until_ok 40 status Inactive || true
expect "the run done: Inactive" "d['result'][0]['status'] == 'Inactive'"
scrape "$work/m2"
metric_moved "$work/m0" "$work/m2" 'mautod_campaign_runs_started_total{kind="batch"}' 1
metric_moved "$work/m0" "$work/m2" 'mautod_campaign_steps_total{type="Change Data Value",result="done"}' 6
metric_moved "$work/m0" "$work/m2" 'mautod_campaign_steps_total{type="Wait",result="done"}' 3
metric_moved "$work/m0" "$work/m2" 'mautod_campaign_steps_total{type="Add to List",result="done"}' 3
metric_moved "$work/m0" "$work/m2" 'mautod_campaign_first_step_seconds_count{kind="batch"}' 0

ctl campaign runs "$camp" >"$work/runs"
if grep -qE "	batch	(running|done)	.*	3	0	3	0	0$" "$work/runs"; then
	echo "ok - mautoctl campaign runs: one batch run, three leads done"
else
	echo "not ok - mautoctl campaign runs: $(cat "$work/runs")"
	failed=1
fi
ctl campaign trace "$camp" "${ids[0]}" >"$work/trace"
if grep -q "Change Data Value" "$work/trace" && grep -q "Add to List" "$work/trace" &&
    grep -q "	done	" "$work/trace"; then
	echo "ok - mautoctl campaign trace: the lead's run and each step's activity"
else
	echo "not ok - mautoctl campaign trace: $(cat "$work/trace")"
	failed=1
fi

# ---- a trigger campaign cannot be scheduled; a batch one not requested --
api POST "/rest/v1/campaigns/$camp/trigger.json" "{\"input\": {\"leads\": [{\"id\": ${ids[0]}}]}}"
expect "a batch campaign cannot be requested: 1003" \
    "not d['success'] and d['errors'][0]['code'] == '1003'"

# ---- runAt later, and a qualification interval, on the engine's clock ----
# Once a day: the three leads ran two days ago (engine time), so they
# qualify again; a run at runAt one hour ahead waits for it.
dbsql "UPDATE smart_campaign SET qualification_rule_type = 'interval',
    qualification_rule_interval = 1, qualification_rule_unit = 'day'
    WHERE id = $camp"
later=$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%S+0000)
api POST "/rest/v1/campaigns/$camp/schedule.json" "{\"input\": {\"runAt\": \"$later\"}}"
expect "scheduled an hour ahead" "d['success']"
ctl clock advance 30m >/dev/null
sleep 1
expect_sql "half an hour on, the run still waits" \
    "SELECT status FROM campaign_run WHERE campaign_id = $camp ORDER BY id DESC LIMIT 1" "scheduled"
ctl clock advance 40m >/dev/null
ran_again()
{
	[ "$(dbsql "SELECT status FROM campaign_run WHERE campaign_id = $camp ORDER BY id DESC LIMIT 1")" = running ]
}
until_ok 120 ran_again || true
expect_sql "past runAt it runs (its leads at the Wait), and the once-a-day rule let the three leads in again" \
    "SELECT CONCAT(status, ':', nleads) FROM campaign_run WHERE campaign_id = $camp ORDER BY id DESC LIMIT 1" "running:3"
dbsql "UPDATE smart_campaign SET qualification_rule_type = 'once',
    qualification_rule_interval = NULL, qualification_rule_unit = NULL
    WHERE id = $camp"

# ---- cloneToProgramName ----------------------------------------------------
api POST "/rest/v1/campaigns/$camp/schedule.json" \
    "{\"input\": {\"cloneToProgramName\": \"BC-Copy-$tag\"}}"
expect "cloneToProgramName: the copy of the campaign is scheduled and its id answered" \
    "d['success'] and d['result'][0]['id'] != $camp"
copy=$(py "d['result'][0]['id']")
api GET "/rest/v1/campaigns/$copy.json"
expect "the copy stands in the new program, named after it" \
    "d['result'][0]['programName'] == 'BC-Copy-$tag' and
     d['result'][0]['name'] == 'bc-$tag (BC-Copy-$tag)'"
expect_sql "its run is scheduled, marked as a clone of the campaign" \
    "SELECT CONCAT(status, ':', cloned_from) FROM campaign_run WHERE campaign_id = $copy" "scheduled:$camp"
api POST "/rest/v1/campaigns/$camp/schedule.json" \
    "{\"input\": {\"cloneToProgramName\": \"BC-Copy-$tag\"}}"
expect "a program name in use: 709, nothing scheduled" \
    "not d['success'] and d['errors'][0]['code'] == '709'"
dbsql "UPDATE campaign_run SET clone_day = $(TZ=America/Chicago date +%Y%m%d) WHERE campaign_id = $copy"
for i in $(seq 2 20); do
	dbsql "INSERT INTO campaign_run (campaign_id, kind, status, run_at,
	    cloned_from, clone_day, created_at) VALUES ($copy, 'batch', 'done',
	    UTC_TIMESTAMP(3), $camp, $(TZ=America/Chicago date +%Y%m%d),
	    UTC_TIMESTAMP(3))"
done
api POST "/rest/v1/campaigns/$camp/schedule.json" \
    "{\"input\": {\"cloneToProgramName\": \"BC-Copy2-$tag\"}}"
expect "the 21st clone of the day: 1020" \
    "not d['success'] and d['errors'] == [{'code': '1020', 'message': 'Too many clones to program: 20 a day'}]"
dbsql "DELETE FROM campaign_run WHERE campaign_id = $copy AND status = 'done'"

exit "$failed"
