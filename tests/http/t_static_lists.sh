#!/usr/bin/env bash
# name: static lists as assets: create in the Lead Database tree or a program, read, update, delete
# docs/behaviour.md §20.  The Lead Database root's id comes from the
# database (migration 0025 made it).  Then through HTTP: Create Static
# List (form body as grouparoo sends it, the query string with a Python
# folder as marketorestpython sends it, into a program), 709 for a taken
# name, 711 for a folder of another kind; by id, by name, browse by
# folder and program with offset paging; Update (rename, description,
# 709); the lead database's operations on a list made so; Delete (its
# members go, 702 after).
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

root=$(dbsql "SELECT id FROM folder WHERE kind = 'staticList' AND parent_id IS NULL")
prog=$(ctl program create --name "SLProg-$tag")
lead=$(dbsql "INSERT INTO lead (email, createdAt, updatedAt)
    VALUES ('sl-$tag@example.com', UTC_TIMESTAMP(), UTC_TIMESTAMP());
    SELECT LAST_INSERT_ID()")

form POST /rest/asset/v1/staticLists.json --data-urlencode "name=(test) High Value $tag" \
    --data-urlencode "folder={\"type\":\"Folder\",\"id\":$root}"
expect "create in the root: the recorded reply's members and order" \
    "d['success'] and d['errors'] == [] and d['warnings'] == [] and
     list(d) == ['success', 'errors', 'requestId', 'warnings', 'result'] and
     list(d['result'][0]) == ['id', 'name', 'createdAt', 'updatedAt',
      'folder', 'computedUrl', 'workspace'] and
     d['result'][0]['folder'] == {'id': $root, 'type': 'Folder'} and
     d['result'][0]['workspace'] == 'Default' and
     re.search(r'/#ST%dA1$' % d['result'][0]['id'], d['result'][0]['computedUrl']) and
     re.match(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\+0000$', d['result'][0]['createdAt'])"
a=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/staticLists.json?name=B-$tag&description=second&folder=%7B%27id%27%3A%20$prog%2C%20%27type%27%3A%20%27Program%27%7D"
expect "create in a program from the query string (a Python folder)" \
    "d['result'][0]['folder'] == {'id': $prog, 'type': 'Program'} and
     d['result'][0]['description'] == 'second'"
b=$(py "d['result'][0]['id']")
form POST /rest/asset/v1/staticLists.json -d "name=B-$tag" --data-urlencode "folder={\"id\":$root,\"type\":\"Folder\"}"
expect "a taken name is 709" \
    "d['errors'] == [{'code': '709', 'message': \"Static list name 'B-$tag' is already in use\"}]"
form POST /rest/asset/v1/staticLists.json -d "name=C-$tag" --data-urlencode 'folder={"id":5,"type":"Folder"}'
expect "a smart list folder is 711" "d['errors'][0]['code'] == '711'"

form GET "/rest/asset/v1/staticList/$b.json"
expect "by id" "d['result'][0]['name'] == 'B-$tag'"
form GET /rest/asset/v1/staticList/byName.json -G --data-urlencode "name=(test) High Value $tag"
expect "by name, exactly" "[x['id'] for x in d['result']] == [$a]"
form GET /rest/asset/v1/staticList/byName.json -G --data-urlencode "name=b-$tag"
expect "another letter case finds nothing" \
    "d['success'] and 'result' not in d and
     d['warnings'] == ['No assets found for the given search criteria.']"
form GET /rest/asset/v1/staticLists.json -G --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
expect "browse a program" "[x['id'] for x in d['result']] == [$b]"
form GET /rest/asset/v1/staticLists.json -G --data-urlencode "folder={\"id\":$root,\"type\":\"Folder\"}" \
    -d maxReturn=200
expect "browse the root" "$a in [x['id'] for x in d['result']] and $b not in [x['id'] for x in d['result']]"
form GET "/rest/asset/v1/folder/$root/content.json" -G -d type=Folder -d maxReturn=200
expect "Get Folder Contents of the root lists it as a Static List" \
    "{'id': $a, 'type': 'Static List'} in d['result']"
form GET "/rest/asset/v1/folder/$prog/content.json" -G -d type=Program -d maxReturn=200
expect "and of the program" "{'id': $b, 'type': 'Static List'} in d['result']"
form GET /rest/asset/v1/staticLists.json -G -d maxReturn=1 -d offset=0 -d earliestUpdatedAt=2000-01-01T00:00:00Z
expect "maxReturn 1" "len(d['result']) == 1"

form POST "/rest/asset/v1/staticList/$b.json" -d "name=B2-$tag" -d "description=changed"
expect "update: renamed, described" \
    "d['result'][0]['name'] == 'B2-$tag' and d['result'][0]['description'] == 'changed'"
form POST "/rest/asset/v1/staticList/$b.json" --data-urlencode "name=(test) High Value $tag"
expect "renaming onto a taken name is 709" "d['errors'][0]['code'] == '709'"
form POST /rest/asset/v1/staticList/999999991.json -d name=x
expect "update of no list is 702" "d['errors'][0]['code'] == '702'"

api POST "/rest/v1/lists/$b/leads.json?id=$lead"
expect "the lead database adds to a list made so" "d['result'] == [{'id': $lead, 'status': 'added'}]"
api GET "/rest/v1/lists/$b.json"
expect "and shows it with its program" \
    "d['result'][0]['programName'] == 'SLProg-$tag' and d['result'][0]['name'] == 'B2-$tag'"
expect_sql "Add to List names the program's list <program>.<list>" \
    "SELECT primary_value FROM activity WHERE activity_type_id = 24 AND primary_value_id = $b" \
    "SLProg-$tag.B2-$tag"

# A list an asset names cannot be deleted: a smart list's Member of List
# condition naming it, a flow step's list naming it by id.
form POST /rest/asset/v1/staticLists.json --data-urlencode "name=Used-$tag" \
    --data-urlencode "folder={\"type\":\"Folder\",\"id\":$root}"
u=$(py "d['result'][0]['id']")
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=SLU-$tag" \
    --data-urlencode 'folder={"id":5,"type":"Folder"}'
sl=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode 'ruleId={"id":100001,"type":"activity"}' -d index=1
rule=$(py "d['result'][0]['rules']['filters'][0]['id']")
form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
    --data-urlencode 'attributeId={"id":1,"type":"activity"}' \
    --data-urlencode "values=Used-$tag"
expect "a Member of List condition names the list" \
    "d['success'] and d['result'][0]['rules']['filters'][0]['conditions'][0]['values'] == ['Used-$tag']"
form POST "/rest/asset/v1/staticList/$u/delete.json"
expect "so deleting it is 709" \
    "d['errors'] == [{'code': '709', 'message': 'Static list $u is used by another asset and cannot be deleted'}]"
form POST "/rest/asset/v1/smartList/$sl/delete.json"
form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=SCU-$tag" \
    --data-urlencode 'folder={"id":1,"type":"Folder"}'
sc=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/smartCampaign/$sc/flows.json" \
    --data-urlencode 'activityType={"id":24,"type":"activity"}' -d index=0
step=$(py "d['result'][0]['flow']['steps'][0]['id']")
choice=$(py "d['result'][0]['flow']['steps'][0]['stepChoice'][0]['id']")
form POST "/rest/asset/v1/smartCampaign/$sc/flow/$step/choice/$choice.json" \
    --data-urlencode "attributes={\"1\":\"$u\"}"
expect "an Add to List step names it by id" "d['success']"
form POST "/rest/asset/v1/staticList/$u/delete.json"
expect "so deleting it is 709 again" "d['errors'][0]['code'] == '709'"
form POST "/rest/asset/v1/smartCampaign/$sc/delete.json"
form POST "/rest/asset/v1/staticList/$u/delete.json"
expect "once no asset names it, it is deleted" "d['success'] and d['result'] == [{'id': $u}]"

form POST "/rest/asset/v1/staticList/$b/delete.json"
expect "delete answers the id" "d['success'] and d['result'] == [{'id': $b}]"
expect_sql "its members went with it" "SELECT COUNT(*) FROM list_member WHERE list_id = $b" "0"
form GET "/rest/asset/v1/staticList/$b.json"
expect "then by id is 702" \
    "d['errors'] == [{'code': '702', 'message': 'Static List not found or it has been deleted'}]"
form POST "/rest/asset/v1/staticList/$b/delete.json"
expect "and a second delete is 702" "d['errors'][0]['code'] == '702'"

[ "$failed" = 0 ]
