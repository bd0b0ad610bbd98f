#!/usr/bin/env bash
# name: emails v1: in folders and programs, the lifecycle of versions, approval checks, clone, template use, folder deletion, concurrent approve and unapprove
# docs/behaviour.md §8 and docs/assets.md "Emails".  Emails made in an
# email folder and in a program (mautoctl program create), read back by id,
# name and browse; approve, unapprove, clone and delete through the API;
# the template and the folder an email uses cannot be deleted; one email
# approved and unapproved by many clients at once ends in a state the
# rules allow.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# form METHOD PATH [curl args...]: a form-style call; body in $work/out.
form()
{
	local m=$1 p=$2
	shift 2
	curl -sS --max-time 30 -X "$m" -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
	    "$@" "$base$p" >"$work/out"
}

# id_of: the id of result[0] of the last answer.
id_of()
{
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"][0]["id"])' \
	    "$work/out"
}

cat >"$work/tpl.html" <<'HTML'
<html><body><div class="mktoText" id="intro" mktoName="Intro">Hi</div></body></html>
HTML
tpl=$(ctl template create --name "ETPL-$tag" --folder 3 --file "$work/tpl.html")
folder=$(ctl folder create --name "EM-$tag" --parent 2)
prog=$(ctl program create --name "EM-Prog-$tag")
fplace="{\"id\":$folder,\"type\":\"Folder\"}"
pplace="{\"id\":$prog,\"type\":\"Program\"}"
headers=(--data-urlencode "subject=Hello {{lead.First Name}}"
    --data-urlencode "fromName=Ann" --data-urlencode "fromEmail=ann@example.com"
    --data-urlencode "replyEmail=reply@example.com")

# ---- folders and programs ----------------------------------------------
form POST /rest/asset/v1/emails.json --data-urlencode "name=one-$tag" \
    --data-urlencode "folder=$fplace" --data-urlencode "template=$tpl" "${headers[@]}"
expect "an email is made in an email folder, a draft" \
    "d['success'] and d['result'][0]['status'] == 'draft' and d['result'][0]['folder'] == {'type': 'Folder', 'value': $folder, 'folderName': 'EM-$tag'}"
one=$(id_of)
form POST /rest/asset/v1/emails.json --data-urlencode "name=one-$tag" \
    --data-urlencode "folder=$pplace" --data-urlencode "template=$tpl" "${headers[@]}"
expect "the same name in a program: a program holds emails" \
    "d['success'] and d['result'][0]['folder'] == {'type': 'Program', 'value': $prog, 'folderName': 'EM-Prog-$tag'}"
inprog=$(id_of)
form GET "/rest/asset/v1/email/byName.json?name=one-$tag" \
    --data-urlencode "folder=$pplace" -G
expect "by name in the program finds the program's email" \
    "d['result'][0]['id'] == $inprog"
form GET "/rest/asset/v1/emails.json?maxReturn=200" --data-urlencode "folder=$pplace" -G
expect "browse of the program lists its email only" \
    "[e['id'] for e in d['result']] == [$inprog]"
expect_sql "the email uses its template" \
    "SELECT COUNT(*) FROM asset_usage WHERE asset_type = 'emailTemplate' AND asset_id = $tpl AND user_type = 'email'" "2"

# ---- what an email holds back --------------------------------------------
if ctl template delete "$tpl" >/dev/null 2>&1; then
	echo "not ok - a template an email uses is not deleted"
	failed=1
else
	echo "ok - a template an email uses is not deleted"
fi
if ctl folder delete "$folder" >/dev/null 2>&1; then
	echo "not ok - a folder that holds an email is not deleted"
	failed=1
else
	echo "ok - a folder that holds an email is not deleted"
fi

# ---- lifecycle -------------------------------------------------------------
form POST "/rest/asset/v1/email/$one/approveDraft.json"
expect "approve answers the id" "d['success'] and d['result'] == [{'id': $one}]"
form GET "/rest/asset/v1/email/$one.json"
expect "read by id shows the approved version" \
    "d['result'][0]['status'] == 'approved' and d['result'][0]['subject'] == {'type': 'Text', 'value': 'Hello {{lead.First Name}}'}"
form GET "/rest/asset/v1/email/$one.json?status=draft"
expect "an approved email without a draft has no draft to read" \
    "d['success'] and 'result' not in d and d['warnings'] == ['No assets found for the given search criteria.']"
dbsql "INSERT INTO asset_usage VALUES ('email', $one, 'flowStep', 1)"
form POST "/rest/asset/v1/email/$one/unapprove.json"
expect "an email in use is not unapproved" \
    "not d['success'] and d['errors'][0]['code'] == '709'"
dbsql "DELETE FROM asset_usage WHERE asset_type = 'email' AND asset_id = $one"
form POST "/rest/asset/v1/email/$one/clone.json" --data-urlencode "name=copy-$tag" \
    --data-urlencode "folder=$pplace"
expect "a clone of the approved email lands in the program as a draft" \
    "d['success'] and d['result'][0]['status'] == 'draft' and d['result'][0]['folder']['type'] == 'Program' and d['result'][0]['fromEmail']['value'] == 'ann@example.com'"
copy=$(id_of)
form POST "/rest/asset/v1/email/$copy/delete.json"
expect "the clone, a draft, is deleted" "d['success'] and d['result'] == [{'id': $copy}]"

# ---- full content of an email not linked to a template ---------------------
# No operation unlinks an email from its template; the database does, as
# for an email made in the editor without one.
form POST /rest/asset/v1/emails.json --data-urlencode "name=free-$tag" \
    --data-urlencode "folder=$fplace" --data-urlencode "template=$tpl" "${headers[@]}"
free=$(id_of)
dbsql "UPDATE email SET template_id = NULL WHERE id = $free"
printf '<html><head><title>T</title></head><body><p>Full ${x} &amp; more</p></body></html>' \
    >"$work/full.html"
form POST "/rest/asset/v1/email/$free/fullContent.json" \
    -F "content=@$work/full.html;type=text/html"
expect "Update Email Full Content takes a multipart file and answers the id" \
    "d['success'] and d['result'] == [{'id': $free}]"
form GET "/rest/asset/v1/email/$free/fullContent.json"
expect "the full content reads back as it was sent" \
    "d['result'] == [{'id': $free, 'status': 'draft', 'content': open('$work/full.html').read()}]"
form GET "/rest/asset/v1/email/$free/fullContent.json?type=Text"
expect "its text version has no markup" \
    "d['result'][0]['content'] == 'TFull \${x} & more'"
form GET "/rest/asset/v1/email/$free/content.json"
expect "an email without a template has no sections" \
    "d['success'] and 'result' not in d or d['result'] == []"
printf '<html><body><SCRIPT src="x.js"></SCRIPT></body></html>' >"$work/script.html"
form POST "/rest/asset/v1/email/$free/fullContent.json" \
    -F "content=@$work/script.html;type=text/html"
expect "full content with a <script> is refused" \
    "not d['success'] and d['errors'][0]['code'] == '709'"
form POST "/rest/asset/v1/email/$free/approveDraft.json"
expect "an email with full content is approved" "d['success']"
form GET "/rest/asset/v1/email/$free/fullContent.json?status=approved"
expect "the approved version holds the full content" \
    "d['result'][0]['status'] == 'approved' and d['result'][0]['content'] == open('$work/full.html').read()"

# ---- templates parsed once per worker --------------------------------------
# Content reads keep a worker's parse of the template; emails of two
# templates read in turn, with renders and edits between them, must each
# show their own template's sections every time, on every worker.
cat >"$work/tpl2.html" <<'HTML'
<html><body><div class="mktoText" id="lede" mktoName="Lede">One</div><div class="mktoText" id="foot" mktoName="Foot">Two</div></body></html>
HTML
tpl2=$(ctl template create --name "ETPL2-$tag" --folder 3 --file "$work/tpl2.html")
form POST /rest/asset/v1/emails.json --data-urlencode "name=two-$tag" \
    --data-urlencode "folder=$fplace" --data-urlencode "template=$tpl2" "${headers[@]}"
two=$(id_of)
bad=0
for i in $(seq 1 16); do
	form GET "/rest/asset/v1/email/$one/content.json"
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if [s["htmlId"] for s in d["result"]] == ["intro"] else 1)' "$work/out" || bad=1
	form GET "/rest/asset/v1/email/$two/fullContent.json"
	form GET "/rest/asset/v1/email/$two/content.json"
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if [s["htmlId"] for s in d["result"]] == ["lede", "foot"] and d["result"][0]["value"][0]["value"] in ("One", "L%s" % sys.argv[2]) else 1)' "$work/out" "$i" || bad=1
	form POST "/rest/asset/v1/email/$two/content/lede.json" \
	    --data-urlencode "type=Text" --data-urlencode "value=L$((i + 1))"
done
if [ "$bad" = 0 ]; then
	echo "ok - 16 rounds of content reads of two templates' emails each show their own sections"
else
	echo "not ok - a content read showed another template's sections or a stale value"
	failed=1
fi
form GET "/rest/asset/v1/email/$two/content.json"
expect "the last edit reads back" \
    "[s['value'][0]['value'] for s in d['result'] if s['htmlId'] == 'lede'] == ['L17']"

# ---- a template's dynamic sections, read from a kept parse -----------------
# A section the template makes dynamic (mautoctl template create --dynamic)
# reads as DynamicContent every time, also once a worker keeps the parse
# of the template: more reads than workers, so some worker reads it again.
seg=$(ctl segmentation create --name "ESEG-$tag" --segment English)
tpl3=$(ctl template create --name "ETPL3-$tag" --folder 3 \
    --file "$work/tpl.html" --dynamic "intro=$seg")
form POST /rest/asset/v1/emails.json --data-urlencode "name=three-$tag" \
    --data-urlencode "folder=$fplace" --data-urlencode "template=$tpl3" "${headers[@]}"
three=$(id_of)
bad=0
for i in $(seq 1 12); do
	form GET "/rest/asset/v1/email/$three/content.json"
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); s = d["result"][0]; sys.exit(0 if (s["contentType"], s["value"]) == ("DynamicContent", "intro") else 1)' "$work/out" || bad=1
	form GET "/rest/asset/v1/email/$three/dynamicContent/intro.json"
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["success"] and d["result"][0]["segmentation"] == int(sys.argv[2]) else 1)' "$work/out" "$seg" || bad=1
done
if [ "$bad" = 0 ]; then
	echo "ok - 12 reads of a template's dynamic section each show it dynamic"
else
	echo "not ok - a read of a template's dynamic section lost it: $(head -c 300 "$work/out")"
	failed=1
fi

# ---- concurrent approve and unapprove --------------------------------------
# Six clients (under the concurrent access limit of 10), four calls each.
# A call that answers 608 is made once more: t_db_outage.sh stops this
# run's MariaDB, and a worker's first call after it may find its
# connection gone (the service answers 608 and reconnects).
pids=()
for w in $(seq 1 6); do
	(
		for i in 1 2 3 4; do
			if [ $(((w + i) % 2)) = 0 ]; then op=approveDraft; else op=unapprove; fi
			for _ in 1 2; do
				curl -sS --max-time 30 -X POST \
				    -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
				    "$base/rest/asset/v1/email/$one/$op.json" >"$work/c$w-$i"
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
	echo "ok - 24 concurrent approve and unapprove calls each succeed or answer 709"
else
	echo "not ok - concurrent calls answered something else"
	failed=1
fi
expect_sql "the email ends with exactly one version" \
    "SELECT COUNT(*) FROM email_version WHERE email_id = $one" "1"

exit "$failed"
