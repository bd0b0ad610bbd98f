#!/usr/bin/env bash
# name: trigger campaigns: an API write's activity fires the active campaigns whose trigger constraints it meets (and whose filters the lead passes), qualification once, and two campaigns that trigger each other stop at the cascade bound
# docs/behaviour.md §24.  Added to List (24) on one list fires a campaign
# that records an Interesting Moment; the same on another list does not;
# a lead outside the campaign's filter does not run.  Then two campaigns
# that add the lead to each other's list, qualifying every time, run
# until the cascade depth bound stops them.  /metrics counts the trigger
# runs, their first steps' latency and the offers.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

acts()
{
	pages "$start" "/rest/v1/activities.json?activityTypeIds=$1&leadIds=$2&"
}

# settle TYPES LEAD: waits until LEAD's count of TYPES stops growing
# (unchanged for 2 s, at most 30 s); d then holds them.
settle()
{
	local last=-1 same=0 n i
	for i in $(seq 1 60); do
		acts "$1" "$2"
		n=$(py "len(d)")
		if [ "$n" = "$last" ]; then
			same=$((same + 1))
			[ "$same" -ge 4 ] && [ "$n" -gt 0 ] && return 0
		else
			same=0
		fi
		last=$n
		sleep 0.5
	done
}

api GET "/rest/v1/activities/pagingtoken.json?sinceDatetime=$(date -u -d '-1 minute' +%Y-%m-%dT%H:%M:%SZ)"
start=$(py "d['nextPageToken']")

prog=$(ctl program create --name "TC-Prog-$tag")
l1=$(ctl list create --name "TC-L1-$tag")
l2=$(ctl list create --name "TC-L2-$tag")
api POST /rest/v1/leads.json "{\"input\": [
    {\"email\": \"t1-$tag@example.com\", \"company\": \"In-$tag\"},
    {\"email\": \"t2-$tag@example.com\", \"company\": \"Out-$tag\"}]}"
a=$(py "d['result'][0]['id']")
b=$(py "d['result'][1]['id']")
api GET /rest/v1/leads/describe.json
company=$(py "[f['id'] for f in d['result'] if f['rest']['name'] == 'company'][0]")

# campaign NAME: a campaign in the program; sets camp and sl.
campaign()
{
	form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=$1" \
	    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
	camp=$(py "d['result'][0]['id']")
	sl=$(py "d['result'][0]['smartListId']")
}
# trigger_added LIST: the campaign's trigger Added to List LIST.
trigger_added()
{
	local rule
	form POST "/rest/asset/v1/smartList/$sl/rules.json" \
	    --data-urlencode 'ruleId={"id":24,"type":"activity"}' -d index=1 -d trigger=true
	rule=$(py "d['result'][0]['rules']['triggers'][0]['id']")
	form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
	    --data-urlencode 'attributeId={"id":1,"type":"activity"}' \
	    --data-urlencode "values=$1"
}
# step TYPE INDEX ATTRIBUTES
step()
{
	local s c
	form POST "/rest/asset/v1/smartCampaign/$camp/flows.json" \
	    --data-urlencode "activityType={\"id\":$1,\"type\":\"activity\"}" -d "index=$2"
	s=$(py "d['result'][0]['flow']['steps'][$2]['id']")
	c=$(py "d['result'][0]['flow']['steps'][$2]['stepChoice'][-1]['id']")
	form POST "/rest/asset/v1/smartCampaign/$camp/flow/$s/choice/$c.json" \
	    --data-urlencode "attributes=$3"
}
activate()
{
	form POST "/rest/asset/v1/smartCampaign/$camp/activate.json" -F "id=$camp"
	expect "campaign $camp activates" "d['success']"
}

# ---- one trigger, its constraint and the campaign's filter ---------------
campaign "tc-$tag"
moment=$camp
trigger_added "TC-L1-$tag"
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode "ruleId={\"id\":$company,\"type\":\"attribute\"}" -d index=2
rule=$(py "[r for r in d['result'][0]['rules']['filters']][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
    --data-urlencode "attributeId={\"id\":$company,\"type\":\"attribute\"}" \
    --data-urlencode "values=In-$tag" -d operator=is
step 46 0 '{"1":"Milestone","2":"Joined list one"}'
activate

scrape "$work/m0"
api POST "/rest/v1/lists/$l2/leads.json" "{\"input\": [{\"id\": $a}]}"
api POST "/rest/v1/lists/$l1/leads.json" "{\"input\": [{\"id\": $a}, {\"id\": $b}]}"
expect "two leads added to list one through the API" "d['success']"
settle 46 "$a"
expect "Added to List one fired the campaign once for the lead its filter keeps" \
    "len(d) == 1 and d[0]['campaignId'] == $moment and
     d[0]['primaryAttributeValue'] == 'Joined list one'"
acts 46 "$b"
expect "the lead outside the filter did not run" "len(d) == 0"
# Campaigns other scripts left active may take these offers too.
scrape "$work/m1"
metric_moved "$work/m0" "$work/m1" 'mautod_campaign_runs_started_total{kind="trigger"}' +1
metric_moved "$work/m0" "$work/m1" 'mautod_campaign_first_step_seconds_count{kind="trigger"}' +1
metric_moved "$work/m0" "$work/m1" 'mautod_campaign_offers_total{result="fired"}' +1
metric_moved "$work/m0" "$work/m1" 'mautod_campaign_steps_total{type="Interesting Moment",result="done"}' +1
api DELETE "/rest/v1/lists/$l1/leads.json" "{\"input\": [{\"id\": $a}]}"
api POST "/rest/v1/lists/$l1/leads.json" "{\"input\": [{\"id\": $a}]}"
sleep 2
settle 46 "$a"
expect "qualification once: added again, it does not run again" "len(d) == 1"

# ---- a cascade ------------------------------------------------------------
form POST /rest/asset/v1/smartCampaign/$moment/deactivate.json
campaign "tc-x-$tag"
x=$camp
trigger_added "TC-L1-$tag"
step 25 0 "{\"1\":\"TC-L2-$tag\"}"
step 24 1 "{\"1\":\"TC-L2-$tag\"}"
campaign "tc-y-$tag"
y=$camp
trigger_added "TC-L2-$tag"
step 25 0 "{\"1\":\"TC-L1-$tag\"}"
step 24 1 "{\"1\":\"TC-L1-$tag\"}"
dbsql "UPDATE smart_campaign SET qualification_rule_type = 'any' WHERE id IN ($x, $y)"
camp=$x activate
camp=$y activate
api DELETE "/rest/v1/lists/$l1/leads.json" "{\"input\": [{\"id\": $b}]}"
api POST "/rest/v1/lists/$l1/leads.json" "{\"input\": [{\"id\": $b}]}"
settle 24 "$b"
expect "the two campaigns fire each other, and the chain stops at the depth bound (11 runs after the API's add)" \
    "len([x for x in d if x.get('campaignId') in ($x, $y)]) == 11"
expect_sql "eleven runs in all, depth 0 to 10" \
    "SELECT CONCAT(COUNT(*), ':', MIN(depth), ':', MAX(depth)) FROM campaign_run WHERE campaign_id IN ($x, $y)" "11:0:10"
form POST /rest/asset/v1/smartCampaign/$x/deactivate.json
form POST /rest/asset/v1/smartCampaign/$y/deactivate.json

exit "$failed"
