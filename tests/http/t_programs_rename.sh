#!/usr/bin/env bash
# name: a program renamed by Update Program Metadata is named so in the replies of the emails it holds within the workers' bounded name cache time
# docs/behaviour.md §19 and §22: each worker keeps the program names it
# read for 5 seconds.  Fixtures: an email template through mautoctl, a
# program and an email in it through the API.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$work/tpl.html" <<'HTML'
<html><body><div class="mktoText" id="intro" mktoName="Intro">Hi</div></body></html>
HTML
tpl=$(ctl template create --name "PRN-TPL-$tag" --folder 3 --file "$work/tpl.html")
form POST /rest/asset/v1/programs.json --data-urlencode "name=PRN-$tag" \
    --data-urlencode 'folder={"id":1,"type":"Folder"}' -d type=Default \
    -d channel=Content
expect "a program" "d['success']"
prog=$(py "d['result'][0]['id']")
form POST /rest/asset/v1/emails.json --data-urlencode "name=prn-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}" \
    --data-urlencode "template=$tpl" --data-urlencode "subject=Hi" \
    --data-urlencode "fromName=Ann" --data-urlencode "fromEmail=ann@example.com" \
    --data-urlencode "replyEmail=ann@example.com"
expect "an email in the program" "d['success']"
em=$(py "d['result'][0]['id']")
# Every worker reads the name now.
for _ in 1 2 3 4 5 6 7 8; do
	api GET "/rest/asset/v1/email/$em.json"
done
expect "the email names its program" \
    "d['result'][0]['folder'] == {'type': 'Program', 'value': $prog, 'folderName': 'PRN-$tag'}"
form POST "/rest/asset/v1/program/$prog.json" --data-urlencode "name=PRN2-$tag"
expect "the program renamed" "d['result'][0]['name'] == 'PRN2-$tag'"
sleep 6
ok=1
for _ in 1 2 3 4 5 6 7 8; do
	api GET "/rest/asset/v1/email/$em.json"
	[ "$(py "d['result'][0]['folder']['folderName']")" = "PRN2-$tag" ] || ok=0
done
if [ "$ok" = 1 ]; then
	echo "ok - after the cache time every reply names the new name"
else
	echo "not ok - a reply still named the old name after the cache time"
	failed=1
fi
form POST "/rest/asset/v1/email/$em/delete.json"
expect "the email deleted" "d['success']"
form POST "/rest/asset/v1/program/$prog/delete.json"
expect "the program deleted" "d['result'] == [{'id': $prog}]"
exit "$failed"
