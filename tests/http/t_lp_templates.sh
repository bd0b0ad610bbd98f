#!/usr/bin/env bash
# name: landing page templates: multipart content, draft and approved versions, approval checks, clone, metadata, use, paging, concurrent approve and discard
# docs/behaviour.md §12, §13 and docs/assets.md.  Every version change
# through the API, each refusal with its 709 message, the versions as the
# reads and the browse show them, and one template approved and
# discarded by many clients at once, which must end in a state the rules
# allow, with no version lost or doubled.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# id_of: the id of result[0] of the last answer.
id_of()
{
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"][0]["id"])' \
	    "$work/out"
}

folder=$(ctl folder create --name "LPT-$tag" --parent 4)
place="{\"id\":$folder,\"type\":\"Folder\"}"

# ---- create and content ------------------------------------------------
form POST /rest/asset/v1/landingPageTemplates.json \
    --data-urlencode "name=free-$tag" --data-urlencode "folder=$place"
expect "a free-form template is made, a draft" \
    "d['success'] and d['result'][0]['status'] == 'draft' and d['result'][0]['folder']['value'] == $folder"
free=$(id_of)

form GET "/rest/asset/v1/landingPageTemplate/$free/content.json"
expect "a new template's content is empty" \
    "d['result'] == [{'id': $free, 'status': 'draft', 'content': '', 'templateType': 'freeForm', 'enableMunchkin': False}]"

printf '<html><head><title>T</title></head><body><p>one</p></body></html>' >"$work/one.html"
form POST "/rest/asset/v1/landingPageTemplate/$free/content.json" \
    -F "content=@$work/one.html;type=text/html"
expect "Update Content takes a multipart file and answers the id" \
    "d['success'] and d['result'] == [{'id': $free}]"
form GET "/rest/asset/v1/landingPageTemplate/$free/content.json?status=draft"
expect "the draft holds the uploaded HTML" \
    "d['result'][0]['content'] == open('$work/one.html').read()"

form POST "/rest/asset/v1/landingPageTemplate/$free/content.json" \
    -F "other=x"
expect "Update Content without content is 1002" \
    "not d['success'] and d['errors'][0]['code'] == '1002'"
form POST /rest/asset/v1/landingPageTemplate/999999/content.json \
    -F "content=@$work/one.html"
expect "Update Content of a template that does not exist is 702" \
    "not d['success'] and d['errors'][0]['code'] == '702' and d['warnings'] == []"

# ---- versions ------------------------------------------------------------
form POST "/rest/asset/v1/landingPageTemplate/$free/discardDraft.json"
expect "a draft-only template cannot be discarded (709)" \
    "not d['success'] and d['errors'][0]['code'] == '709'"
form POST "/rest/asset/v1/landingPageTemplate/$free/unapprove.json"
expect "a draft cannot be unapproved (709)" \
    "d['errors'][0]['code'] == '709'"
form POST "/rest/asset/v1/landingPageTemplate/$free/approveDraft.json"
expect "approving makes the approved version and answers it" \
    "d['success'] and d['result'][0]['status'] == 'approved' and d['result'][0]['id'] == $free"
form POST "/rest/asset/v1/landingPageTemplate/$free/approveDraft.json"
expect "approving again, without a draft, is 709" \
    "d['errors'][0]['code'] == '709'"
form GET "/rest/asset/v1/landingPageTemplate/$free.json?status=draft"
expect "after approval there is no draft" \
    "d['success'] and 'result' not in d and d['warnings'] == ['No assets found for the given search criteria.']"

printf '<html><body><p>two</p></body></html>' >"$work/two.html"
form POST "/rest/asset/v1/landingPageTemplate/$free/content.json" \
    -F "content=@$work/two.html"
form GET "/rest/asset/v1/landingPageTemplate/$free.json"
expect "an edited approved template reads as approved by default" \
    "d['result'][0]['status'] == 'approved'"
form GET "/rest/asset/v1/landingPageTemplate/$free/content.json"
expect "its approved content is unchanged" \
    "d['result'][0]['content'] == open('$work/one.html').read()"
form GET "/rest/asset/v1/landingPageTemplate/$free/content.json?status=draft"
expect "and the edit is the draft beside it" \
    "d['result'][0]['content'] == open('$work/two.html').read() and d['result'][0]['status'] == 'draft'"
form GET "/rest/asset/v1/landingPageTemplates.json?folder=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$place")"
expect "browse without status lists both versions, approved first" \
    "[(t['id'], t['status']) for t in d['result']] == [($free, 'approved'), ($free, 'draft')]"
form POST "/rest/asset/v1/landingPageTemplate/$free/delete.json"
expect "an approved template cannot be deleted (709)" \
    "d['errors'][0]['code'] == '709'"
form POST "/rest/asset/v1/landingPageTemplate/$free/discardDraft.json"
expect "Discard Draft drops the draft beside the approved version" \
    "d['success'] and d['result'] == [{'id': $free}]"
form GET "/rest/asset/v1/landingPageTemplate/$free/content.json?status=draft"
expect "the draft is gone" "'result' not in d"

# In use: unapprove and delete are refused.
dbsql "INSERT INTO asset_usage VALUES ('landingPageTemplate', $free, 'landingPage', 7)"
form POST "/rest/asset/v1/landingPageTemplate/$free/unapprove.json"
expect "a template in use cannot be unapproved (709)" \
    "d['errors'][0]['code'] == '709'"
dbsql "DELETE FROM asset_usage WHERE asset_id = $free"
form POST "/rest/asset/v1/landingPageTemplate/$free/unapprove.json"
expect "unapprove makes it a draft again and answers it" \
    "d['success'] and d['result'][0]['status'] == 'draft'"
form GET "/rest/asset/v1/landingPageTemplate/$free/content.json"
expect "the unapproved draft keeps the approved content" \
    "d['result'][0]['content'] == open('$work/one.html').read()"

# ---- metadata and clone --------------------------------------------------
form POST "/rest/asset/v1/landingPageTemplate/$free.json" \
    --data-urlencode "name=free2-$tag" --data-urlencode "description=desc" \
    --data-urlencode "enableMunchkin=yes"
expect "Update Metadata changes name, description and enableMunchkin" \
    "d['result'][0]['name'] == 'free2-$tag' and d['result'][0]['description'] == 'desc' and d['result'][0]['enableMunchkin'] is True"
form POST /rest/asset/v1/landingPageTemplates.json \
    --data-urlencode "name=other-$tag" --data-urlencode "folder=$place"
other=$(id_of)
form POST "/rest/asset/v1/landingPageTemplate/$other.json" \
    --data-urlencode "name=free2-$tag"
expect "a name another template has is 709" \
    "d['errors'][0]['code'] == '709'"
form POST "/rest/asset/v1/landingPageTemplate/999999.json" \
    --data-urlencode "name=x-$tag"
expect "Update Metadata of a missing template is 702" \
    "d['errors'][0]['code'] == '702'"

form POST "/rest/asset/v1/landingPageTemplate/$free/clone.json" \
    --data-urlencode "name=clone-$tag" --data-urlencode "folder=$place" \
    --data-urlencode "description=copy"
expect "clone makes a new draft template" \
    "d['success'] and d['result'][0]['id'] != $free and d['result'][0]['status'] == 'draft' and d['result'][0]['enableMunchkin'] is True"
clone=$(id_of)
form GET "/rest/asset/v1/landingPageTemplate/$clone/content.json"
expect "the clone has the source's content" \
    "d['result'][0]['content'] == open('$work/one.html').read()"
form POST "/rest/asset/v1/landingPageTemplate/$free/clone.json" \
    --data-urlencode "name=clone2-$tag" --data-urlencode 'folder={"id":2,"type":"Folder"}'
expect "a clone into an email folder is 711" "d['errors'][0]['code'] == '711'"
form POST "/rest/asset/v1/landingPageTemplate/999999/clone.json" \
    --data-urlencode "name=clone3-$tag" --data-urlencode "folder=$place"
expect "a clone of a missing template is 702" "d['errors'][0]['code'] == '702'"

form POST "/rest/asset/v1/landingPageTemplate/$clone/delete.json"
expect "a draft is deleted; the answer is its id" \
    "d['success'] and d['result'] == [{'id': $clone}]"
form GET "/rest/asset/v1/landingPageTemplate/$clone.json"
expect "a deleted template is not found" "'result' not in d"
form POST "/rest/asset/v1/landingPageTemplate/$clone/delete.json"
expect "deleting it again is 702" "d['errors'][0]['code'] == '702'"

# ---- guided templates: what approval checks -------------------------------
form POST /rest/asset/v1/landingPageTemplates.json \
    --data-urlencode "name=guided-$tag" --data-urlencode "folder=$place" \
    --data-urlencode "templateType=guided"
guided=$(id_of)
approve_with()
{
	printf '%s' "$1" >"$work/g.html"
	form POST "/rest/asset/v1/landingPageTemplate/$guided/content.json" \
	    -F "content=@$work/g.html"
	form POST "/rest/asset/v1/landingPageTemplate/$guided/approveDraft.json"
}
approve_with '<html><head></head><body><div class="mktoText" id="a">x</div></body></html>'
expect "a guided editable element without mktoName is refused" \
    "d['errors'][0]['code'] == '709' and 'mktoName' in d['errors'][0]['message']"
approve_with '<html><head></head><body><div class="mktoText" id="a" mktoName="A">x</div><div class="mktoImg" id="a" mktoName="B"></div></body></html>'
expect "a duplicated id is refused" \
    "d['errors'][0]['code'] == '709' and \"'a'\" in d['errors'][0]['message']"
approve_with '<html><head><meta class="mktoColor" id="c" mktoName="C" default="blue"></head><body></body></html>'
expect "a color variable with a bad default is refused" \
    "d['errors'][0]['code'] == '709'"
approve_with '<html><head><meta class="mktoString" id="s" mktoName="S" default="hi"></head><body><div class="mktoText" id="t" mktoName="T">x</div></body></html>'
expect "a valid guided template is approved" \
    "d['success'] and d['result'][0]['status'] == 'approved' and d['result'][0]['templateType'] == 'guided'"

# ---- paging: offset and maxReturn over the versions ------------------------
for i in 1 2 3 4 5; do
	form POST /rest/asset/v1/landingPageTemplates.json \
	    --data-urlencode "name=page$i-$tag" --data-urlencode "folder=$place"
done
q=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$place")
seen=""
for off in 0 3 6; do
	form GET "/rest/asset/v1/landingPageTemplates.json?folder=$q&maxReturn=3&offset=$off&status=draft"
	seen="$seen$(python3 -c 'import json, sys; print(" ".join(str(t["id"]) for t in json.load(open(sys.argv[1])).get("result", [])))' "$work/out") "
done
want=$(dbsql "SELECT GROUP_CONCAT(t.id ORDER BY t.id SEPARATOR ' ') FROM lp_template t
    JOIN lp_template_version v ON v.template_id = t.id AND v.status = 'draft'
    WHERE t.folder_id = $folder")
if [ "$(echo $seen)" = "$want" ]; then
	echo "ok - three pages of three list every draft of the folder once, in id order"
else
	echo "not ok - pages: '$seen', drafts: '$want'"
	failed=1
fi
form GET "/rest/asset/v1/landingPageTemplates.json?folder=$q&maxReturn=3&offset=9&status=draft"
expect "past the end: the warning and no result" \
    "d['success'] and 'result' not in d and d['warnings'] == ['No assets found for the given search criteria.']"

# ---- many clients approve, edit and discard one template at once ---------
form POST /rest/asset/v1/landingPageTemplates.json \
    --data-urlencode "name=race-$tag" --data-urlencode "folder=$place"
race=$(id_of)
printf '<html><body>race</body></html>' >"$work/race.html"
python3 - "$base" "$MAUTO_TEST_TOKEN" "$race" "$work/race.html" >"$work/race.out" <<'EOF'
import sys, threading, urllib.request, uuid
base, token, tid, path = sys.argv[1:5]
html = open(path, 'rb').read()
codes, lock = [], threading.Lock()

def call(p, body=None, ctype=None):
    req = urllib.request.Request(base + p, data=body if body is not None else b'',
                                 method='POST')
    req.add_header('Authorization', 'Bearer ' + token)
    if ctype:
        req.add_header('Content-Type', ctype)
    import json
    d = json.load(urllib.request.urlopen(req, timeout=30))
    with lock:
        codes.append('ok' if d['success'] else d['errors'][0]['code'])

def edit():
    b = uuid.uuid4().hex
    body = (('--%s\r\nContent-Disposition: form-data; name="content"; '
             'filename="t.html"\r\nContent-Type: text/html\r\n\r\n' % b).encode()
            + html + ('\r\n--%s--\r\n' % b).encode())
    call('/rest/asset/v1/landingPageTemplate/%s/content.json' % tid, body,
         'multipart/form-data; boundary=' + b)

def worker(n):
    for i in range(8):
        [edit, lambda: call('/rest/asset/v1/landingPageTemplate/%s/approveDraft.json' % tid),
         lambda: call('/rest/asset/v1/landingPageTemplate/%s/discardDraft.json' % tid)][(n + i) % 3]()

ts = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
[t.start() for t in ts]
[t.join() for t in ts]
print(' '.join(sorted(set(codes))), len(codes))
EOF
read -r -a got <"$work/race.out"
case " ${got[*]} " in
*" 611 "* | *" 604 "* | *" 608 "*) echo "not ok - concurrent version changes: ${got[*]}"; failed=1 ;;
*) echo "ok - 48 concurrent edits, approvals and discards answer success or 709 only (${got[*]})" ;;
esac
expect_sql "the template has at most one draft and one approved version" \
    "SELECT COUNT(*) <= 2 AND COUNT(DISTINCT status) = COUNT(*) FROM lp_template_version WHERE template_id = $race" 1
form GET "/rest/asset/v1/landingPageTemplate/$race/content.json"
expect "and reads back as one of its versions with the uploaded content" \
    "d['success'] and d['result'][0]['content'] == open('$work/race.html').read()"

exit "$failed"
