#!/usr/bin/env bash
# name: mautoctl reset empties the data and keeps clients, roles and schema
# On a stack of its own: data made through the API (leads with their
# activities, a tracking cookie, a custom lead field, a custom object type
# with records, a completed bulk export and its file, a token on a root
# folder) and through mautoctl (partition, program, static list, form,
# smart campaign members, the demo set).  Then: reset without --yes and without a
# terminal refuses and deletes nothing; on a terminal it asks, "no"
# deletes nothing and "yes" goes on; --yes deletes every row of the data tables (the
# Default partition stays), the export file, and keeps the client (its
# credentials still get a token and the API works), the roles, the
# custom lead field and the custom object type.  What goes and what
# stays: src/repo/repo_reset.h.  A client made with fixed credentials
# (client create --id --secret, as CI keeps them) gets a token before
# and after the reset, and the API calls after it are made with that.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

if [ -z "${MAUTO_TEST_DB_ENV:-}" ]; then
	echo "needs a database server of this run (MAUTO_TEST_DB_ENV)"
	exit 77
fi
stack=$work/stack
trap 'harness_stack_stop "$stack"; rm -rf "$work"' EXIT
harness_stack_start "$stack" "$MAUTO_TEST_DB_ENV" MAUTO_RATE_LIMIT_CALLS=0 \
    MAUTO_EXPORT_DIR="$stack/exports"
# shellcheck disable=SC1091
. "$stack/stack.env"
# lib.sh's api, ctl and dbsql, on this stack.
base=$MAUTO_TEST_BASE_URL
envf=$stack/env
MAUTO_TEST_TOKEN=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" \
    "$MAUTO_TEST_CLIENT_SECRET")

# ---- data through the API ------------------------------------------------
api POST /rest/v1/leads/schema/fields.json '{"input": [
    {"displayName": "Reset Code", "name": "resetCode", "dataType": "string"}]}'
expect "a custom lead field is made" "d['result'][0]['status'] == 'created'"
api POST /rest/v1/leads.json '{"input": [
    {"email": "r1@example.com", "resetCode": "x1"},
    {"email": "r2@example.com"}, {"email": "r3@example.com"}]}'
expect "three leads are made" \
    "[r['status'] for r in d['result']] == ['created'] * 3"
lead=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"][0]["id"])' \
    "$work/out")
api POST "/rest/v1/leads/$lead/associate.json?cookie=id:123-ABC-456%26token:_mch-example.com-1396310362214-46169"
expect "a cookie is associated" "d['success']"
api POST /rest/v1/customobjects/schema.json \
    '{"apiName": "resetCar", "displayName": "Reset Car"}'
api POST /rest/v1/customobjects/schema/resetCar/addField.json '{"input": [
    {"name": "vin", "displayName": "VIN", "dataType": "string", "isDedupeField": true},
    {"name": "leadId", "displayName": "Lead", "dataType": "link",
     "relatedTo": {"name": "lead", "field": "id"}}]}'
api POST /rest/v1/customobjects/schema/resetCar/approve.json
expect "a custom object type is approved" "d['success']"
api POST /rest/v1/customobjects/resetCar.json \
    "{\"input\": [{\"vin\": \"V1\", \"leadId\": $lead}, {\"vin\": \"V2\"}]}"
expect "two custom object records are made" \
    "[r['status'] for r in d['result']] == ['created'] * 2"
tid=$(dbsql "SELECT id FROM co_type WHERE api_name = 'resetCar'")
from=$(date -u -d '-1 day' +%Y-%m-%dT%H:%M:%SZ)
to=$(date -u -d '+1 day' +%Y-%m-%dT%H:%M:%SZ)
api POST /bulk/v1/customobjects/resetCar/export/create.json \
    "{\"fields\": [\"vin\"], \"filter\": {\"updatedAt\": {\"startAt\": \"$from\", \"endAt\": \"$to\"}}}"
expect "an export job is made" "d['success']"
export_id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"][0]["exportId"])' \
    "$work/out")
api POST "/bulk/v1/customobjects/resetCar/export/$export_id/enqueue.json"
completed()
{
	api GET "/bulk/v1/customobjects/resetCar/export/$export_id/status.json"
	grep -q '"status":"Completed"' "$work/out"
}
harness_wait 60 "the export job" completed
files()
{
	find "$stack/exports" -type f -name "$export_id-*" | wc -l
}
[ "$(files)" = 1 ] && echo "ok - the export file is written" ||
    { echo "not ok - the export file is written"; failed=1; }

# ---- a client with the fixed credentials CI keeps ------------------------
ci_id=6c1e0f5a-2b3d-4e7f-8a9b-0c1d2e3f4a5b
ci_secret=ci-$tag-0123456789
ctl client create --name ci --role admin --id "$ci_id" \
    --secret "$ci_secret" >/dev/null
# gets_token TEXT ID SECRET: the credentials get a token (now the one
# api uses).
gets_token()
{
	if MAUTO_TEST_TOKEN=$(harness_token "$base" "$2" "$3") &&
	    [ -n "$MAUTO_TEST_TOKEN" ]; then
		echo "ok - $1"
	else
		echo "not ok - $1"
		failed=1
	fi
}
gets_token "the fixed credentials get a token" "$ci_id" "$ci_secret"

# ---- data through mautoctl ------------------------------------------------
part=$(ctl partition create --name "Reset-Part")
prog=$(ctl program create --name "Reset-Webinar")
list=$(ctl list create --name "Reset-List")
ctl form create --name "Reset-Form" --field email --program "$prog" >/dev/null
ctl program add --program "$prog" --lead "$lead" >/dev/null
ctl list add --list "$list" --lead "$lead" >/dev/null
ctl campaign add --campaign 7 --lead "$lead" >/dev/null
ctl seed-demo >/dev/null
dbsql "UPDATE lead SET leadPartitionId = $part WHERE id = $lead"
# Assets: a folder of our own, a template in it, a use of the template.
lptf=$(ctl folder create --name "Reset-Templates" --parent 4)
curl -sS -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
    --data-urlencode "name=Reset-LPT" \
    --data-urlencode "folder={\"id\":$lptf,\"type\":\"Folder\"}" \
    "$base/rest/asset/v1/landingPageTemplates.json" >"$work/out"
expect "a landing page template is made" "d['success']"
lpt=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"][0]["id"])' \
    "$work/out")
dbsql "INSERT INTO asset_usage VALUES ('landingPageTemplate', $lpt, 'landingPage', 1)"
# A token on the Marketing Activities root, which stays.
curl -sS -H "Authorization: Bearer $MAUTO_TEST_TOKEN" -d folderType=Folder \
    -d type=text -d name=Reset-Token -d value=x \
    "$base/rest/asset/v1/folder/1/tokens.json" >"$work/out"
expect "a token is made on a root folder" "d['success']"
# seed-demo made a segmentation and an email template; a snippet too.
printf '<p>Reset footer</p>' >"$work/snippet.html"
ctl snippet create --name "Reset-Snippet" --file "$work/snippet.html" >/dev/null
# The outbox: no relay in this stack, so the message is kept (exit 1).
ctl outbox send-test --to reset@example.com >/dev/null 2>&1 || true
# A smart list in the program, with a rule and its condition.
curl -sS -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
    --data-urlencode "name=Reset-SL" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}" \
    "$base/rest/asset/v1/smartLists.json" >"$work/out"
expect "a smart list is made" "d['success']"
sl=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"][0]["id"])' \
    "$work/out")
curl -sS -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
    --data-urlencode 'ruleId={"id":2,"type":"activity"}' -d index=1 \
    "$base/rest/asset/v1/smartList/$sl/rules.json" >"$work/out"
expect "with a rule" "d['success'] and len(d['result'][0]['rules']['filters']) == 1"
# An email in the program, made from the demo template.
etpl=$(dbsql "SELECT id FROM email_template WHERE name = 'Demo-Email-Template'")
curl -sS -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
    --data-urlencode "name=Reset-Email" --data-urlencode "template=$etpl" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}" \
    "$base/rest/asset/v1/emails.json" >"$work/out"
expect "an email is made" "d['success']"
# A smart campaign in the program, with a flow step and a value.
curl -sS -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
    --data-urlencode "name=Reset-SC" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}" \
    "$base/rest/asset/v1/smartCampaigns.json" >"$work/out"
expect "a smart campaign is made" "d['success']"
sc=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"][0]["id"])' \
    "$work/out")
curl -sS -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
    --data-urlencode 'activityType={"id":100001,"type":"activity"}' -d index=0 \
    "$base/rest/asset/v1/smartCampaign/$sc/flows.json" >"$work/out"
step=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["result"][0]["flow"]["steps"][0]; print(s["id"], s["stepChoice"][0]["id"])' \
    "$work/out")
curl -sS -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
    --data-urlencode 'attributes={"101":"1 day"}' \
    "$base/rest/asset/v1/smartCampaign/$sc/flow/${step% *}/choice/${step#* }.json" >"$work/out"
expect "with a flow step and a value" \
    "d['result'][0]['flow']['steps'][0]['stepChoice'][0]['attributes'][0]['value'] == '1 day'"
# The campaign engine's work: a run with a lead in it, its qualification,
# an activity offered to trigger campaigns, and the engine's clock moved.
dbsql "INSERT INTO campaign_run (campaign_id, kind, status, run_at,
    created_at) VALUES ($sc, 'request', 'running', UTC_TIMESTAMP(3),
    UTC_TIMESTAMP(3))"
run=$(dbsql "SELECT MAX(id) FROM campaign_run WHERE campaign_id = $sc")
lead1=$(dbsql "SELECT MIN(id) FROM lead")
dbsql "INSERT INTO campaign_run_lead (run_id, lead_id, campaign_id, state,
    due_at, updated_at) VALUES ($run, $lead1, $sc, 'ready',
    UTC_TIMESTAMP(3) + INTERVAL 30 DAY, UTC_TIMESTAMP(3))"
dbsql "INSERT INTO campaign_qualification (campaign_id, lead_id, last_at)
    VALUES ($sc, $lead1, UTC_TIMESTAMP(3))"
dbsql "INSERT INTO activity_offer (lead_id, activity_type_id, attributes,
    created_at, claim, lease_until) VALUES ($lead1, 1, '{}',
    UTC_TIMESTAMP(3), 'reset-test', UTC_TIMESTAMP(3) + INTERVAL 1 DAY)"
dbsql "UPDATE engine_clock SET offset_ms = 3600000"

# A landing page template in the root folder, whose browse every worker
# keeps (the root stays after the reset; its kept pages must not).
root='{"id":4,"type":"Folder"}'
curl -sS -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
    --data-urlencode "name=Reset-Root-LPT" --data-urlencode "folder=$root" \
    "$base/rest/asset/v1/landingPageTemplates.json" >"$work/out"
expect "a landing page template is made in the root folder" "d['success']"
# browse_root: every one of 16 browses of the root folder answers COND.
browse_root()
{
	local i ok=0
	for i in $(seq 16); do
		curl -sS -G -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
		    --data-urlencode "folder=$root" \
		    "$base/rest/asset/v1/landingPageTemplates.json" >"$work/out"
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$work/out" "$2" && ok=$((ok + 1))
	done
	[ "$ok" = 16 ] && echo "ok - $1" ||
	    { echo "not ok - $1: $ok of 16: $(head -c 300 "$work/out")"; failed=1; }
}
browse_root "the root folder's browse shows it" \
    "[r['name'] for r in d['result']] == ['Reset-Root-LPT']"

data_tables="activity_offer campaign_run_lead campaign_run
    campaign_qualification activity lead_cookie campaign_member list_member program_member
    form_field form static_list asset_usage email_version email
    lp_template_version lp_template
    email_template_dynamic email_template segment segmentation snippet
    folder_token sc_choice_attr sc_step_choice sc_flow_step smart_campaign
    smart_list_condition smart_list_rule smart_list
    program_status program lead export_job outbox"
# counts: "table=rows ..." of the data tables, partitions and records.
counts()
{
	local t q=""
	for t in $data_tables; do
		q="$q SELECT '$t', COUNT(*) FROM $t UNION ALL"
	done
	dbsql "$q SELECT 'lead_partition', COUNT(*) FROM lead_partition
	    UNION ALL SELECT 'folder', COUNT(*) FROM folder
	    UNION ALL SELECT 'co_rec', COUNT(*) FROM co_rec_$tid" |
	    tr '\t\n' '= '
}
before=$(counts)
full()
{
	local t
	for t in $data_tables lead_partition folder co_rec; do
		case " $before" in
		*" $t=0 "*) echo "  no rows in $t before the reset"; return 1 ;;
		esac
	done
}
if full; then
	echo "ok - every data table has rows before the reset"
else
	echo "not ok - every data table has rows before the reset: $before"
	failed=1
fi

# ---- refusals -------------------------------------------------------------
if ctl reset </dev/null >"$work/reset.out" 2>"$work/reset.err"; then
	echo "not ok - reset without --yes and without a terminal refuses"
	failed=1
elif grep -q -- "--yes" "$work/reset.err" && [ "$(counts)" = "$before" ]; then
	echo "ok - reset without --yes and without a terminal refuses, nothing deleted"
else
	echo "not ok - reset without a terminal: $(cat "$work/reset.err")"
	failed=1
fi
# on_tty ANSWER: runs mautoctl reset on a pseudo-terminal, answers the
# question with ANSWER; prints what it wrote and exits with its status.
on_tty()
{
	(
		# shellcheck disable=SC1090
		. "$envf"
		python3 - "$(harness_bin mautoctl)" "$1" <<'PY'
import os, pty, sys
def read(fd, until):
    out = b""
    while until is None or until not in out:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    return out
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "reset"])
out = read(fd, b"Type yes")
os.write(fd, sys.argv[2].encode() + b"\n")
out += read(fd, None)
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status))
PY
	)
}
if on_tty no >"$work/tty.out"; then
	echo "not ok - on a terminal, answering no cancels"
	failed=1
elif grep -q "Type yes" "$work/tty.out" && grep -q "cancelled" "$work/tty.out" &&
    [ "$(counts)" = "$before" ]; then
	echo "ok - on a terminal it asks; answering no deletes nothing"
else
	echo "not ok - on a terminal, answering no: $(cat "$work/tty.out")"
	failed=1
fi

# ---- the reset -----------------------------------------------------------
if ctl reset --yes >"$work/reset.out" 2>"$work/reset.err"; then
	echo "ok - reset --yes succeeds"
else
	echo "not ok - reset --yes: $(cat "$work/reset.err")"
	failed=1
fi
grep -q "^lead	3$" "$work/reset.out" &&
    grep -q "^custom object records (1 tables)	2$" "$work/reset.out" &&
    grep -q "^export files	1$" "$work/reset.out" &&
    echo "ok - it says what it deleted" ||
    { echo "not ok - what it says: $(cat "$work/reset.out")"; failed=1; }
after=$(counts)
want=""
for t in $data_tables; do
	want="$want$t=0 "
done
want="${want}lead_partition=1 folder=6 co_rec=0 "
if [ "$after" = "$want" ]; then
	echo "ok - the data tables are empty, the Default partition and the six root folders stay"
	expect_sql "the engine's clock is back to real time" \
	    "SELECT offset_ms FROM engine_clock" 0
else
	echo "not ok - after the reset: $after"
	failed=1
fi
if on_tty yes >"$work/tty.out" && grep -q "^lead	0" "$work/tty.out"; then
	echo "ok - on a terminal, answering yes resets"
else
	echo "not ok - on a terminal, answering yes: $(cat "$work/tty.out")"
	failed=1
fi
browse_root "no worker answers the root folder's page kept before the reset" \
    "'result' not in d and d['warnings'] == ['No assets found for the given search criteria.']"
expect_sql "the Default partition is the one left" \
    "SELECT name FROM lead_partition" "Default"
[ "$(files)" = 0 ] && echo "ok - the export file is removed" ||
    { echo "not ok - the export file is removed"; failed=1; }
expect_sql "the clients and roles stay" \
    "SELECT CONCAT((SELECT COUNT(*) FROM auth_client), '/',
     (SELECT COUNT(*) FROM auth_role WHERE name IN ('admin', 'readonly')))" "2/2"
expect_sql "the custom lead field stays" \
    "SELECT COUNT(*) FROM lead_field WHERE name = 'resetCode'" "1"
expect_sql "the custom object type stays" \
    "SELECT state FROM co_type WHERE id = $tid" "approved"

# ---- the client still works ---------------------------------------------
gets_token "the client's credentials still get a token" \
    "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET"
gets_token "the fixed credentials still get a token" "$ci_id" "$ci_secret"
api GET "/rest/v1/leads.json?filterType=email&filterValues=r1@example.com"
expect "the leads are gone" "d['success'] and 'result' not in d or d['result'] == []"
api POST /rest/v1/leads.json '{"input": [{"email": "r1@example.com", "resetCode": "y"}]}'
expect "a lead is made again, with the custom field" \
    "d['result'][0]['status'] == 'created'"
api POST /rest/v1/customobjects/resetCar.json '{"input": [{"vin": "V1"}]}'
expect "a record of the kept type is made again" \
    "d['result'][0]['status'] == 'created'"
exit "$failed"
