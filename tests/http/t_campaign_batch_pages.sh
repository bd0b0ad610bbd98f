#!/usr/bin/env bash
# name: batch runs over more than a page: 1,205 leads enter a page and a chunk at a time; qualification once skips the leads that ran (each recorded with why) and enters the new ones; any lets every lead run again; run counts, campaign members and qualifications stay exact
# docs/behaviour.md §24, §25.  The leads are written by SQL (the API's
# 300 a call would be five calls); a batch campaign keeps them by
# company and records an Interesting Moment.  src/repo/repo_engine.c
# enters a batch page in chunks of MAX_BATCH_RECORDS (300): 1,205 leads
# are two pages of the engine's 1,000 and five chunks.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# leads FROM TO: leads FROM..TO of this run's company, by SQL.
leads()
{
	dbsql "INSERT INTO lead (email, firstName, company, createdAt, updatedAt)
	    SELECT CONCAT('pg', seq, '-$tag@example.com'), CONCAT('P', seq),
	    'Pg-$tag', UTC_TIMESTAMP(), UTC_TIMESTAMP() FROM seq_$1_to_$2"
}

# run_batch: schedules the campaign, moves the engine's clock past its
# runAt and waits (at most 2 minutes) until the newest run is done; sets
# run to its id.
run_batch()
{
	local s
	api POST "/rest/v1/campaigns/$camp/schedule.json" ''
	expect "Schedule Campaign" "d['success']"
	run=$(dbsql "SELECT MAX(id) FROM campaign_run WHERE campaign_id = $camp")
	ctl clock advance 6m >/dev/null
	for _ in $(seq 1 240); do
		s=$(dbsql "SELECT status FROM campaign_run WHERE id = $run")
		[ "$s" = "done" ] && return 0
		sleep 0.5
	done
	echo "not ok - run $run is not done after 2 minutes: $s"
	failed=1
}

# states RUN: the run's leads by state, "state:count" sorted by state.
states()
{
	dbsql "SELECT GROUP_CONCAT(CONCAT(state, ':', n) ORDER BY state)
	    FROM (SELECT state, COUNT(*) n FROM campaign_run_lead
	    WHERE run_id = $1 GROUP BY state) x"
}

leads 1 1205
prog=$(ctl program create --name "PG-Prog-$tag")
api GET /rest/v1/leads/describe.json
company=$(py "[f['id'] for f in d['result'] if f['rest']['name'] == 'company'][0]")
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=pg-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
camp=$(py "d['result'][0]['id']")
sl=$(py "d['result'][0]['smartListId']")
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode "ruleId={\"id\":$company,\"type\":\"attribute\"}" -d index=1
rule=$(py "d['result'][0]['rules']['filters'][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
    --data-urlencode "attributeId={\"id\":$company,\"type\":\"attribute\"}" \
    --data-urlencode "values=Pg-$tag" -d operator=is
form POST "/rest/asset/v1/smartCampaign/$camp/flows.json" \
    --data-urlencode 'activityType={"id":46,"type":"activity"}' -d index=0
s=$(py "d['result'][0]['flow']['steps'][0]['id']")
c=$(py "d['result'][0]['flow']['steps'][0]['stepChoice'][-1]['id']")
form POST "/rest/asset/v1/smartCampaign/$camp/flow/$s/choice/$c.json" \
    --data-urlencode 'attributes={"1":"Milestone","2":"Paged"}'
expect "a batch campaign: Company is Pg, one Interesting Moment" "d['success']"

# ---- first run: every lead ------------------------------------------------
run_batch
expect_sql "the first run entered the 1,205 leads and ran them all" \
    "SELECT CONCAT(nleads, ' ', '$(states "$run")') FROM campaign_run WHERE id = $run" \
    "1205 done:1205"
expect_sql "each lead is a member of the campaign and qualified once" \
    "SELECT CONCAT((SELECT COUNT(*) FROM campaign_member WHERE campaign_id = $camp), ' ',
     COUNT(*), ' ', SUM(times)) FROM campaign_qualification WHERE campaign_id = $camp" \
    "1205 1205 1205"

# ---- second run: once -----------------------------------------------------
leads 1206 1305
run_batch
expect_sql "qualification once: the 100 new leads enter, the 1,205 that ran are skipped" \
    "SELECT CONCAT(nleads, ' ', '$(states "$run")') FROM campaign_run WHERE id = $run" \
    "100 done:100,skipped:1205"
expect_sql "each skipped lead is recorded with why" \
    "SELECT COUNT(*) FROM campaign_run_lead WHERE run_id = $run AND state = 'skipped'
     AND note = 'did not qualify: the qualification rule lets a person run through the flow once'" \
    1205
expect_sql "members and qualifications: 1,305 leads, each once" \
    "SELECT CONCAT((SELECT COUNT(*) FROM campaign_member WHERE campaign_id = $camp), ' ',
     COUNT(*), ' ', SUM(times)) FROM campaign_qualification WHERE campaign_id = $camp" \
    "1305 1305 1305"

# ---- third run: every time ------------------------------------------------
dbsql "UPDATE smart_campaign SET qualification_rule_type = 'any' WHERE id = $camp"
run_batch
expect_sql "qualification any: every lead runs again" \
    "SELECT CONCAT(nleads, ' ', '$(states "$run")') FROM campaign_run WHERE id = $run" \
    "1305 done:1305"
expect_sql "each qualification counts two runs" \
    "SELECT CONCAT(COUNT(*), ' ', MIN(times), ' ', MAX(times)) FROM campaign_qualification
     WHERE campaign_id = $camp" "1305 2 2"
expect_sql "an Interesting Moment for every lead of every run" \
    "SELECT COUNT(*) FROM activity WHERE campaign_id = $camp AND activity_type_id = 46" \
    2610

exit "$failed"
