#!/usr/bin/env bash
# name: Durability of campaign runs: a batch run over many leads (Change Data Value, Add to List, Send Email) survives kill -9 of its runner mid-expansion, mid-steps and mid-delivery, a restart of mautod and a crash of MariaDB; every lead gets every step exactly once, counted from the activities, the list, the outbox and at the relay
# docs/behaviour.md §24 and §26.  A stack of its own (harness_stack_start)
# whose mautod sends to a throwaway SMTP relay (tests/harness/smtpd.sh) and
# lets mautoctl move the engine's clock.  MAUTO_TEST_CRASH_LEADS sets the
# number of leads (default 2000; the issue's size is 10000).  A runner
# enters a batch's leads a page of 1000 at a time, and each pass runs the
# leads it claimed through their steps, then hands queued messages to the
# relay: the runner is killed with -9 while it enters the leads (when a
# poll catches that moment), while it holds leads in the middle of their
# flow and while it hands a message over (the master starts another each
# time; what the dead one claimed waits for its lease: a minute for the
# batch, 30 s for leads, smtp_timeout and a minute for the message), then mautod is stopped and started again once half the leads
# are done, and the database server (a private one) is killed with -9
# and started again at three quarters.  Delivery is at most once (§26):
# the message the second kill or the database's crash caught at the relay
# may be failed in doubt, nothing else.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

if [ "${MAUTO_TEST_FRONT:-nginx}" = cluster ]; then
	# A single server's crash; tests/cluster/t70_engine.py kills a host.
	echo "a private server's crash (tests/cluster/t70_engine.py kills a host)"
	exit 77
fi
/usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null ||
    { echo "python3-aiosmtpd is not installed"; exit 77; }
command -v pgrep >/dev/null || { echo "pgrep is missing"; exit 77; }

nleads=${MAUTO_TEST_CRASH_LEADS:-2000}
smtpd="$HARNESS_DIR/smtpd.sh"
stack=$work/stack
relay=$work/relay
mdb=$work/db
# shellcheck disable=SC2317  # run by the trap
cleanup()
{
	harness_stack_stop "$stack"
	"$HARNESS_DIR/mariadb.sh" stop "$mdb" >/dev/null 2>&1 || true
	"$smtpd" stop "$relay"
	rm -rf "$work"
}
trap cleanup EXIT
t0=$SECONDS

# lib.sh's helpers (api, form, py, ctl, dbsql, expect_sql) on this stack.
port=$("$smtpd" start "$relay" accept)
"$HARNESS_DIR/mariadb.sh" start "$mdb" >/dev/null
harness_stack_start "$stack" "$mdb/env" \
    MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0 \
    MAUTO_ENGINE_CLOCK_CONTROL=true MAUTO_CAMPAIGN_RUNNERS=1 \
    MAUTO_SMTP_FROM=bounce@mauto.test MAUTO_SMTP_TIMEOUT=5 \
    "MAUTO_SMTP_URL=smtp://127.0.0.1:$port"
# shellcheck disable=SC1091
. "$stack/stack.env"
base=$MAUTO_TEST_BASE_URL
envf=$stack/env
MAUTO_TEST_TOKEN=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" \
    "$MAUTO_TEST_CLIENT_SECRET")
sql() { dbsql "$1"; }

# check NAME STATUS
check()
{
	if [ "$2" = 0 ]; then echo "ok - $1"; else echo "not ok - $1"; failed=1; fi
}

# ---- the leads, the list, the email ----------------------------------------
for ((i = 0; i < nleads; i += 300)); do
	python3 -c 'import json, sys
lo, n, tag = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
print(json.dumps({"action": "createOnly", "input": [
    {"email": "c%d-%s@example.com" % (k, tag), "company": "Crash-" + tag}
    for k in range(lo, min(lo + 300, n))]}))' "$i" "$nleads" "$tag" >"$work/leads.json"
	api POST /rest/v1/leads.json "$(cat "$work/leads.json")"
	[ "$(py "sum(1 for x in d['result'] if x['status'] == 'created')")" = \
	    "$(( nleads - i < 300 ? nleads - i : 300 ))" ] ||
	    { echo "not ok - leads created: $(head -c 300 "$work/out")"; exit 1; }
done
echo "ok - $nleads leads created ($((SECONDS - t0)) s)"

prog=$(ctl program create --name "CR-Prog-$tag")
list=$(ctl list create --name "CR-List-$tag")
tpl=$(ctl template create --name "CR-Tpl-$tag" --folder 3 \
    --file "$(dirname "$0")/data/email-template.html")
form POST /rest/asset/v1/emails.json --data-urlencode "name=cr-em-$tag" \
    --data-urlencode "template=$tpl" --data-urlencode "subject=Crash $tag" \
    --data-urlencode "fromName=F" --data-urlencode "fromEmail=f@example.com" \
    --data-urlencode "replyEmail=r@example.com" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
em=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/email/$em/approveDraft.json"
[ "$(py "d['success']")" = True ] || { echo "not ok - approve: $(cat "$work/out")"; exit 1; }

# ---- the campaign: Company is Crash-<tag>; three steps ---------------------
api GET /rest/v1/leads/describe.json
company=$(py "[f['id'] for f in d['result'] if f['rest']['name'] == 'company'][0]")
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=cr-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
camp=$(py "d['result'][0]['id']")
sl=$(py "d['result'][0]['smartListId']")
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode "ruleId={\"id\":$company,\"type\":\"attribute\"}" -d index=1
rule=$(py "d['result'][0]['rules']['filters'][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
    --data-urlencode "attributeId={\"id\":$company,\"type\":\"attribute\"}" \
    --data-urlencode "values=Crash-$tag" -d operator=is
[ "$(py "d['success']")" = True ] || { echo "not ok - filter: $(cat "$work/out")"; exit 1; }

flow_step "$camp" 13 0 '{"1":"Job Title","2":"Crashed"}'
flow_step "$camp" 24 1 "{\"1\":\"CR-List-$tag\"}"
flow_step "$camp" 6 2 "{\"1\":\"$em\"}"

# ---- the run, interrupted ----------------------------------------------------------
api POST "/rest/v1/campaigns/$camp/schedule.json" ''
[ "$(py "d['success']")" = True ] || { echo "not ok - schedule: $(cat "$work/out")"; exit 1; }
run=$(sql "SELECT MAX(id) FROM campaign_run WHERE campaign_id = $camp")
ctl clock advance 6m >/dev/null
t1=$SECONDS

# poll QUERY [SECS]: polls QUERY (fast) until it answers 1, for at most
# SECS (default 300) seconds.
poll()
{
	local deadline=$((SECONDS + ${2:-300}))
	while [ "$SECONDS" -lt "$deadline" ]; do
		[ "$(sql "$1")" = 1 ] && return 0
		sleep 0.02
	done
	return 1
}

# A runner's pass runs the leads it claimed (ENGINE_LEADS of them), then
# hands queued messages to the relay: the first kill lands while it holds
# leads in the middle of their flow, the second while it hands a message
# over.
leads="FROM campaign_run_lead WHERE run_id = $run"
held="SELECT COUNT(*) $leads AND state = 'ready' AND claim IS NOT NULL AND lease_until > UTC_TIMESTAMP(3)"
done_n="SELECT COUNT(*) $leads AND state = 'done'"
master_group=$(cat "$stack/mautod.pid")

# kill_runner WHAT CONDITION LEFT [SECS]: kills the runner with -9 once
# CONDITION holds; the count LEFT (what the dead runner left claimed) must
# be above 0.  With SECS, a CONDITION that does not hold within SECS
# seconds is noted and nothing is killed.
kill_runner()
{
	local runner again left
	runner=$(pgrep -g "$master_group" -x mautod-campaign | head -n 1 || true)
	[ -n "$runner" ] || { echo "not ok - no campaign runner in group $master_group"; exit 1; }
	if ! poll "$2" "${4:-300}"; then
		[ -n "${4:-}" ] ||
		    { echo "not ok - the runner was never $1"; failed=1; }
		[ -z "${4:-}" ] ||
		    echo "# no kill $1: the moment passed before a poll saw it"
		return 0
	fi
	kill -9 "$runner"
	left=$(sql "$3")
	[ "$left" -gt 0 ]
	check "the runner (pid $runner) was killed with -9 $1: $(sql "$done_n") of $nleads leads done, $left held under a claim" $?
	sleep 1
	again=$(pgrep -g "$master_group" -x mautod-campaign | head -n 1 || true)
	[ -n "$again" ] && [ "$again" != "$runner" ]
	check "the master started another runner (pid ${again:-none})" $?
}
kill_runner "while it entered the batch's leads a page at a time" \
    "SELECT (SELECT status FROM campaign_run WHERE id = $run) = 'expanding' AND (SELECT COUNT(*) $leads) BETWEEN 1 AND $((nleads - 1))" \
    "SELECT COUNT(*) FROM campaign_run WHERE id = $run AND status = 'expanding' AND claim IS NOT NULL" 20
kill_runner "while it ran leads through their steps" \
    "SELECT ($done_n) >= $((nleads / 10)) AND ($done_n) < $nleads AND ($held) > 0 AND (SELECT COUNT(*) $leads AND state = 'ready' AND step_pos > 0) > 0" \
    "$held"
kill_runner "while it handed a message to the relay" \
    "SELECT ($done_n) >= $((nleads / 4)) AND ($done_n) < $nleads AND (SELECT COUNT(*) FROM outbox WHERE run_id = $run AND status = 'sending' AND lease_until > $(date +%s)000) > 0" \
    "SELECT COUNT(*) FROM outbox WHERE run_id = $run AND status = 'sending'"
poll "SELECT ($done_n) >= $((nleads / 2))"
"$HARNESS_DIR/mautod.sh" stop "$stack"
at=$(sql "$done_n")
[ "$at" -lt "$nleads" ]
check "mautod was stopped (SIGTERM) mid-run, $at of $nleads leads done" $?
"$HARNESS_DIR/mautod.sh" start "$stack"
poll "SELECT ($done_n) >= $((nleads * 3 / 4))"
"$HARNESS_DIR/mariadb.sh" kill "$mdb" >/dev/null
"$HARNESS_DIR/mariadb.sh" start "$mdb" >/dev/null
at=$(sql "$done_n")
[ "$at" -lt "$nleads" ]
check "the database server was killed with -9 and started again mid-run, $at of $nleads leads done" $?

# finished: the run is done and no message of it waits for delivery.
finished()
{
	[ "$(sql "SELECT status FROM campaign_run WHERE id = $run")" = done ] &&
	    [ "$(sql "SELECT COUNT(*) FROM outbox WHERE run_id = $run AND status IN ('queued', 'sending')")" = 0 ]
}
harness_wait 480 "the run to finish" finished
check "the run finished after the interruptions ($((SECONDS - t1)) s from the clock's move; $nleads leads)" $?

# ---- every lead, every step, exactly once ----------------------------------
lead_sel="SELECT id FROM lead WHERE company = 'Crash-$tag'"
expect_sql "every lead of the run is done, none failed or left" \
    "SELECT state, COUNT(*) FROM campaign_run_lead WHERE run_id = $run GROUP BY state" \
    "$(printf 'done\t%s' "$nleads")"
for t in 13 24 6; do
	expect_sql "activity $t: exactly one for each of the $nleads leads, of this campaign and run" \
	    "SELECT COUNT(*), COUNT(DISTINCT lead_id), SUM(lead_id IN ($lead_sel)) FROM activity WHERE activity_type_id = $t AND campaign_id = $camp AND JSON_VALUE(attributes, '\$.\"Campaign Run ID\"') = $run" \
	    "$(printf '%s\t%s\t%s' "$nleads" "$nleads" "$nleads")"
done
expect_sql "no activity of the campaign outside the run, and no bounce" \
    "SELECT COUNT(*) FROM activity WHERE campaign_id = $camp AND (activity_type_id = 8 OR JSON_VALUE(attributes, '\$.\"Campaign Run ID\"') <> $run)" 0
expect_sql "every lead's Job Title changed" \
    "SELECT COUNT(*) FROM lead WHERE company = 'Crash-$tag' AND title = 'Crashed'" "$nleads"
expect_sql "the list holds exactly the $nleads leads" \
    "SELECT COUNT(*), SUM(lead_id IN ($lead_sel)) FROM list_member WHERE list_id = $list" \
    "$(printf '%s\t%s' "$nleads" "$nleads")"
# Delivery is at most once (docs/behaviour.md §26): the message a runner
# was handing to the relay when it was killed, or when the database went
# away before the outcome was recorded, is failed when its lease ends,
# without 7, whether or not the relay took it.  Only those may be in doubt:
# one for the kill during delivery, one for the database's crash (the
# first kill holds no message).  Every other lead has one 7 and one
# message at the relay.
lost=$(sql "SELECT COUNT(*) FROM outbox WHERE run_id = $run AND status = 'failed' AND smtp_reply LIKE 'not delivered: the delivery pass%'")
expect_sql "the outbox has one message per lead: sent, or failed as in doubt after the kill" \
    "SELECT COUNT(*), COUNT(DISTINCT lead_id), SUM(status = 'sent') + $lost FROM outbox WHERE run_id = $run" \
    "$(printf '%s\t%s\t%s' "$nleads" "$nleads" "$nleads")"
[ "$lost" -le 2 ]
check "at most the messages being handed over at the kill and the database's crash are in doubt ($lost)" $?
expect_sql "activity 7: exactly one for each lead whose message was sent" \
    "SELECT COUNT(*), COUNT(DISTINCT a.lead_id), SUM(o.status = 'sent') FROM activity a JOIN outbox o ON o.run_id = $run AND o.lead_id = a.lead_id WHERE a.activity_type_id = 7 AND a.campaign_id = $camp AND JSON_VALUE(a.attributes, '\$.\"Campaign Run ID\"') = $run" \
    "$(printf '%s\t%s\t%s' "$((nleads - lost))" "$((nleads - lost))" "$((nleads - lost))")"
sql "SELECT rcpt_to FROM outbox WHERE run_id = $run AND status = 'sent'" >"$work/sent"
/usr/bin/python3 - "$relay" "$work/sent" "$tag" "$nleads" <<'PY'
import collections, glob, os, sys
d, sent, tag, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
got = collections.Counter()
for f in glob.glob(os.path.join(d, "*.env")):
    for line in open(f):
        if line.startswith("to="):
            got[line[3:].strip()] += 1
want = {line.strip() for line in open(sent) if line.strip()}
every = {"c%d-%s@example.com" % (k, tag) for k in range(n)}
twice = [a for a, c in got.items() if c > 1]
assert not twice, "received more than once: %s" % twice[:5]
assert want <= set(got), "sent but not received: %s" % sorted(want - set(got))[:5]
assert set(got) <= every, "unknown: %s" % sorted(set(got) - every)[:5]
assert len(set(got) - want) <= 2, "received, not recorded: %s" % sorted(set(got) - want)
print("# relay: %d messages, %d of them in doubt in the outbox" % (
    sum(got.values()), len(set(got) - want)))
PY
check "the relay received one message for each lead whose message was sent, none twice" $?
echo "# $nleads leads: $((SECONDS - t0)) s in all"

exit "$failed"
