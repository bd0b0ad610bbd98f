#!/usr/bin/env bash
# name: emails v2: programs, paging through a folder of 55 emails, used by, bulk delete with ignoreUsedBy, concurrent state transitions
# docs/behaviour.md §9 and docs/assets.md "Emails v2".  An email made by
# v2 in a program (mautoctl program create) and its template use, moved
# to another template by Update; List
# Emails pages a folder of 55 emails (made by v1 and v2) with totalItems,
# each content id once, as v1's browse lists them; the uses of an email
# (asset_usage rows, as smart campaigns will record them) through Get
# Email Used By, Bulk Get Emails Used By, Delete and Bulk Delete; one
# email moved through create_draft, approve, discard and unapprove by
# many clients at once ends in a state the rules allow, v1 and v2
# agreeing on it.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# v2 METHOD PATH [JSON]: an Emails v2 call; the body goes to $work/out.
v2()
{
	local m=$1 p=$2
	shift 2
	curl -sS --max-time 30 -X "$m" -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
	    -H 'x-app-type: marketo' -H 'Content-Type: application/json' \
	    ${1:+--data-binary "$1"} "$base$p" >"$work/out"
}

# id_of: the id of result[0] of the last answer.
id_of()
{
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"][0]["id"])' \
	    "$work/out"
}

cat >"$work/tpl.html" <<'HTML'
<html><body><div class="mktoText" id="intro" mktoName="Intro">Hi v2</div></body></html>
HTML
tpl=$(ctl template create --name "ETPL2-$tag" --folder 3 --file "$work/tpl.html")
folder=$(ctl folder create --name "EM2-$tag" --parent 2)
prog=$(ctl program create --name "EM2-Prog-$tag")
hdrs='"headers": {"subject": "S", "fromName": "F", "fromEmail": "f@example.com", "replyEmail": "r@example.com"}'

# ---- a program, a template ------------------------------------------------
v2 POST /rest/asset/v2/email "{\"name\": \"p-$tag\", \"appData\": {\"programId\": \"$prog\"}, \"templateId\": $tpl, $hdrs}"
expect "an email is made in a program: appData names it" \
    "d['success'] and d['result'][0]['appData'] == {'editorType': 'email', 'workspaceId': '1', 'programId': '$prog', 'programName': 'EM2-Prog-$tag', 'programType': d['result'][0]['appData']['programType']} and 'Hi v2' in d['result'][0]['data']['html']['body']"
inprog=$(id_of)
form GET "/rest/asset/v1/email/$inprog.json"
expect "v1 sees it in the program, made from the template" \
    "d['result'][0]['folder'] == {'type': 'Program', 'value': $prog, 'folderName': 'EM2-Prog-$tag'} and d['result'][0]['template'] == $tpl"
v2 GET "/rest/asset/v2/email/filter?workspaceId=1&folderId=$prog&folderType=Program"
expect "List Emails of the program finds it" \
    "d['result']['totalItems'] == 1 and d['result']['items'][0]['id'] == '$inprog'"
if ctl template delete "$tpl" >/dev/null 2>&1; then
	echo "not ok - a template a v2 email uses is not deleted"
	failed=1
else
	echo "ok - a template a v2 email uses is not deleted"
fi

# Update to another template: the first is no longer used.
tpl2=$(ctl template create --name "ETPL2b-$tag" --folder 3 --file "$work/tpl.html")
v2 POST /rest/asset/v2/email "{\"name\": \"t-$tag\", \"appData\": {\"folderId\": \"$folder\"}, \"templateId\": \"$tpl2\", $hdrs}"
moved=$(id_of)
v2 POST "/rest/asset/v2/email/$moved/update" "{\"templateId\": $tpl}"
expect "Update links another template" "d['result'][0]['templateId'] == '$tpl'"
if ctl template delete "$tpl2" >/dev/null 2>&1; then
	echo "ok - the template the email left can be deleted"
else
	echo "not ok - the template the email left is still held"
	failed=1
fi
v2 POST "/rest/asset/v2/email/$moved/delete"

# ---- 55 emails in a folder, paged -------------------------------------------
fplace="{\"id\":$folder,\"type\":\"Folder\"}"
# One curl for all 55 (every fifth by v1), one answer a line.
args=()
for i in $(seq 1 55); do
	[ "$i" = 1 ] || args+=(--next)
	args+=(-sS --max-time 30 -w '\n' -H "Authorization: Bearer $MAUTO_TEST_TOKEN")
	if [ $((i % 5)) = 0 ]; then
		args+=(--data-urlencode "name=f$i-$tag" --data-urlencode "folder=$fplace"
		    --data-urlencode "template=$tpl" "$base/rest/asset/v1/emails.json")
	else
		args+=(-H 'x-app-type: marketo' -H 'Content-Type: application/json'
		    --data-binary "{\"name\": \"f$i-$tag\", \"appData\": {\"folderId\": \"$folder\"}, $hdrs}"
		    "$base/rest/asset/v2/email")
	fi
done
curl "${args[@]}" >"$work/made"
made=$(grep -c '"success":true' "$work/made" || true)
if [ "$made" = 55 ]; then
	echo "ok - 55 emails are made in the folder, 44 by v2 and 11 by v1"
else
	echo "not ok - $made of 55 emails made: $(grep -v '"success":true' "$work/made" | head -c 300)"
	failed=1
fi
: >"$work/ids"
for page in 0 1 2; do
	v2 GET "/rest/asset/v2/email/filter?workspaceId=1&folderId=$folder&pageSize=20&pageIndex=$page"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = d["result"]
assert r["totalItems"] == 55 and r["pageSize"] == 20 and r["currentPage"] == int(sys.argv[2]), r
for e in r["items"]:
    print(e["id"])' "$work/out" "$page" >>"$work/ids" ||
	    { echo "not ok - page $page: $(head -c 300 "$work/out")"; failed=1; }
done
v2 GET "/rest/asset/v2/email/filter?workspaceId=1&folderId=$folder&pageSize=50&pageIndex=1"
expect "the second page of 50 holds the last 5" \
    "d['result']['totalItems'] == 55 and len(d['result']['items']) == 5"
form GET "/rest/asset/v1/emails.json?maxReturn=200" --data-urlencode "folder=$fplace" -G
python3 -c 'import json, sys
v1 = sorted(str(e["id"]) for e in json.load(open(sys.argv[1]))["result"])
v2 = sorted(open(sys.argv[2]).read().split())
sys.exit(0 if v1 == v2 and len(v2) == 55 and len(set(v2)) == 55 else 1)' \
    "$work/out" "$work/ids" &&
    echo "ok - three pages of 20 list each of the 55 emails once, as v1's browse does" ||
    { echo "not ok - the pages and v1's browse differ"; failed=1; }

# ---- used by ------------------------------------------------------------
v2 POST /rest/asset/v2/email "{\"name\": \"u-$tag\", \"appData\": {\"folderId\": \"$folder\"}, $hdrs}"
used=$(id_of)
dbsql "INSERT INTO asset_usage (asset_type, asset_id, user_type, user_id) VALUES ('email', $used, 'smartCampaign', 901), ('email', $used, 'smartCampaign', 902)"
v2 POST /rest/asset/v2/email/usedby "{\"assetId\": \"$used\", \"pageIndex\": 1, \"pageSize\": 1, \"type\": \"all\"}"
expect "Get Email Used By pages the uses" \
    "d['success'] and d['pageDetails'] == {'totalItems': 2, 'pageSize': 1, 'currentPage': 1} and d['result'] == [{'id': '902', 'name': None, 'appData': None, 'channel': None, 'contentType': 'smartCampaign', 'externalId': None}]"
v2 POST /rest/asset/v2/email/bulk/usedby "{\"assetIds\": [\"$used\", \"$inprog\"]}"
expect "Bulk Get Emails Used By counts them" \
    "d['result'] == [{'id': '$used', 'name': 'u-$tag', 'used': True, 'count': 2}, {'id': '$inprog', 'name': 'p-$tag', 'used': False, 'count': 0}]"
v2 POST "/rest/asset/v2/email/$used/delete"
expect "a used email is not deleted" \
    "not d['success'] and d['errors'][0]['code'] == '709'"
v2 POST /rest/asset/v2/email/bulk/delete "{\"assetIds\": [\"$inprog\", \"$used\"]}"
expect "Bulk Delete of a used email is refused" \
    "not d['success'] and d['errors'][0]['code'] == '709' and d['errors'][0]['message'] == 'Email $used is in use'"
expect_sql "and deletes nothing" \
    "SELECT COUNT(*) FROM email WHERE id IN ($inprog, $used)" "2"
v2 POST /rest/asset/v2/email/bulk/delete "{\"assetIds\": [\"$inprog\", \"$used\"], \"ignoreUsedBy\": true}"
expect "Bulk Delete with ignoreUsedBy deletes it" "d['success'] and 'result' not in d"
expect_sql "the emails and their uses are gone" \
    "SELECT (SELECT COUNT(*) FROM email WHERE id IN ($inprog, $used)) + (SELECT COUNT(*) FROM asset_usage WHERE asset_type = 'email' AND asset_id = $used)" "0"
expect_sql "the deleted email no longer uses the template (the 11 of v1 do)" \
    "SELECT COUNT(*) FROM asset_usage WHERE asset_type = 'emailTemplate' AND asset_id = $tpl" "11"

# ---- concurrent state transitions ------------------------------------------
# Six clients (under the concurrent access limit of 10), four calls each;
# a 608 is made once more (see t_emails.sh).
v2 POST /rest/asset/v2/email "{\"name\": \"c-$tag\", \"appData\": {\"folderId\": \"$folder\"}, $hdrs}"
one=$(id_of)
actions=(approve create_draft discard unapprove)
pids=()
for w in $(seq 1 6); do
	(
		for i in 0 1 2 3; do
			a=${actions[$(((w + i) % 4))]}
			for _ in 1 2; do
				curl -sS --max-time 30 -X POST \
				    -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
				    -H 'x-app-type: marketo' -H 'Content-Type: application/json' \
				    --data-binary "{\"contentId\": \"$one\", \"action\": \"$a\"}" \
				    "$base/rest/asset/v2/email/state/transition" >"$work/c$w-$i"
				grep -q '"608"' "$work/c$w-$i" || break
			done
		done
	) &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
bad=0
for f in "$work"/c*-*; do
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
ok = d["success"] or d["errors"][0]["code"] == "709"
sys.exit(0 if ok else 1)' "$f" || { bad=1; head -c 300 "$f"; echo; }
done
if [ "$bad" = 0 ]; then
	echo "ok - 24 concurrent state transitions each succeed or answer 709"
else
	echo "not ok - concurrent transitions answered something else"
	failed=1
fi
v2 GET "/rest/asset/v2/email/$one"
states=$(python3 -c 'import json, sys
e = json.load(open(sys.argv[1]))["result"][0]
print(e["state"], " ".join(s["state"] for s in e["associatedStates"]))' "$work/out")
want=$(dbsql "SELECT CASE WHEN COUNT(*) = 2 THEN 'approvedWithDraft approved draft' ELSE CONCAT(MIN(status), ' ', MIN(status)) END FROM email_version WHERE email_id = $one")
if [ "$states" = "$want" ]; then
	echo "ok - v2 shows the versions the email is left with ($states)"
else
	echo "not ok - v2 shows '$states', the table holds '$want'"
	failed=1
fi

exit "$failed"
