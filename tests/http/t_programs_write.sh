#!/usr/bin/env bash
# name: Programs write: Create Program as marketorestpython and the documentation send it, Update Program Metadata, Delete Program, and their refusals
# docs/behaviour.md §22.  Fixtures: a folder through the API; a smart
# list in a program to show that Delete refuses a program with assets.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

form POST /rest/asset/v1/folders.json --data-urlencode "name=pw-$tag" \
    --data-urlencode 'parent={"id":1,"type":"Folder"}'
expect "a folder for the programs" "d['success']"
f=$(py "d['result'][0]['id']")

# marketorestpython: every parameter in the query string, an empty body,
# the folder in Python's words.
q="folder=%7B%27id%27%3A%20$f%2C%20%27type%27%3A%20Folder%7D"
q="$q&name=PW-A-$tag&type=Default&channel=Online%20Advertising"
q="$q&description=made%20by%20the%20API"
form POST "/rest/asset/v1/programs.json?$q"
expect "create from the query string: the program object" \
    "d['success'] and list(d['result'][0].keys()) == ['id', 'name',
      'description', 'createdAt', 'updatedAt', 'url', 'type', 'channel',
      'folder', 'status', 'workspace', 'tags', 'costs']
     and d['result'][0]['name'] == 'PW-A-$tag'
     and d['result'][0]['description'] == 'made by the API'
     and d['result'][0]['type'] == 'Default'
     and d['result'][0]['channel'] == 'Online Advertising'
     and d['result'][0]['folder'] == {'type': 'Folder', 'value': $f,
                                      'folderName': 'pw-$tag'}
     and d['result'][0]['status'] == ''"
pa=$(py "d['result'][0]['id']")
expect_sql "the program has its channel's statuses" \
    "SELECT GROUP_CONCAT(name ORDER BY step SEPARATOR '|') FROM program_status
     WHERE program_id = $pa" "Not in Program|Clicked"

# The documentation's form body with strict JSON.
form POST /rest/asset/v1/programs.json --data-urlencode "name=PW-B-$tag" \
    --data-urlencode "folder={\"id\":$f,\"type\":\"Folder\"}" \
    -d type=Engagement -d channel=Nurture -d 'costs=[]'
expect "create an engagement program" \
    "d['result'][0]['type'] == 'Engagement' and d['result'][0]['status'] == 'off'"
pb=$(py "d['result'][0]['id']")

form POST /rest/asset/v1/programs.json --data-urlencode "name=PW-A-$tag" \
    --data-urlencode "folder={\"id\":$f,\"type\":\"Folder\"}" \
    -d type=Default -d channel=Content
expect "a name in use: 709" \
    "d['errors'] == [{'code': '709', 'message': \"Program name 'PW-A-$tag' is already in use\"}]"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PW-C-$tag" \
    --data-urlencode "folder={\"id\":$f,\"type\":\"Folder\"}" \
    -d type=Default -d channel=Radio
expect "a channel that does not exist: 709" \
    "d['errors'] == [{'code': '709', 'message': \"Channel 'Radio' not found\"}]"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PW-C-$tag" \
    --data-urlencode "folder={\"id\":$f,\"type\":\"Folder\"}" \
    -d type=Default -d channel=Webinar
expect "a channel of another type: 709" \
    "d['errors'] == [{'code': '709', 'message': \"Channel 'Webinar' is not for Default programs\"}]"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PW-C-$tag" \
    --data-urlencode "folder={\"id\":$f,\"type\":\"Folder\"}" \
    -d type=Email -d channel='Email Send'
expect "an Email program: 1001" "d['errors'][0]['code'] == '1001'"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PW-C-$tag" \
    --data-urlencode "folder={\"id\":$f,\"type\":\"Folder\"}" \
    -d type=Default -d channel=Content \
    --data-urlencode "tags=[{'tagType': 'Region', 'tagValue': 'North'}]"
expect "tags: 709" \
    "d['errors'] == [{'code': '709', 'message': 'Program tags are not supported'}]"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PW-C-$tag" \
    --data-urlencode 'folder={"id":999999999,"type":"Folder"}' \
    -d type=Default -d channel=Content
expect "a folder that does not exist: 710" "d['errors'][0]['code'] == '710'"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PW-C-$tag" \
    --data-urlencode "folder={\"id\":$pa,\"type\":\"Program\"}" \
    -d type=Default -d channel=Content
expect "a program in a program: 711" "d['errors'][0]['code'] == '711'"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PW-C-$tag" \
    --data-urlencode 'folder={"id":2,"type":"Folder"}' \
    -d type=Default -d channel=Content
expect "a program among the emails: 711" "d['errors'][0]['code'] == '711'"
form POST /rest/asset/v1/programs.json -d type=Default -d channel=Content \
    --data-urlencode "folder={\"id\":$f,\"type\":\"Folder\"}"
expect "no name: 701" "d['errors'][0]['code'] == '701'"

# Update Program Metadata.
form POST "/rest/asset/v1/program/$pa.json" --data-urlencode "name=PW-A2-$tag" \
    --data-urlencode "description=renamed"
expect "update: the new name and description" \
    "d['result'][0]['id'] == $pa and d['result'][0]['name'] == 'PW-A2-$tag'
     and d['result'][0]['description'] == 'renamed'
     and d['result'][0]['channel'] == 'Online Advertising'"
form POST "/rest/asset/v1/program/$pa.json" -d description=again
expect "update: a name left out is kept" \
    "d['result'][0]['name'] == 'PW-A2-$tag' and d['result'][0]['description'] == 'again'"
api GET "/rest/asset/v1/program/byName.json?name=PW-A2-$tag"
expect "by name finds the new name" "d['result'][0]['id'] == $pa"
form POST "/rest/asset/v1/program/$pa.json" --data-urlencode "name=PW-B-$tag"
expect "update to a name in use: 709" "d['errors'][0]['code'] == '709'"
form POST "/rest/asset/v1/program/999999999.json" -d description=x
expect "update of no program: 702" \
    "d['errors'] == [{'code': '702', 'message': '999999999 Program not found'}]"

# Delete Program.
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=pw-sl-$tag" \
    --data-urlencode "folder={\"id\":$pb,\"type\":\"Program\"}"
expect "a smart list in the engagement program" "d['success']"
sl=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/program/$pb/delete.json"
expect "delete of a program with an asset: 709" \
    "d['errors'] == [{'code': '709', 'message': 'Program $pb is not empty: delete its assets first'}]"
form POST "/rest/asset/v1/smartList/$sl/delete.json"
expect "the smart list deleted" "d['success']"
form POST "/rest/asset/v1/program/$pb/delete.json"
expect "delete: the id" "d['result'] == [{'id': $pb}]"
api GET "/rest/asset/v1/program/$pb.json"
expect "the program is gone" "'result' not in d and d['warnings']"
expect_sql "its statuses are gone" \
    "SELECT COUNT(*) FROM program_status WHERE program_id = $pb" "0"
form POST "/rest/asset/v1/program/$pb/delete.json"
expect "delete again: 702" \
    "d['errors'] == [{'code': '702', 'message': '$pb Program not found'}]"
form POST "/rest/asset/v1/program/$pa/delete.json"
expect "the other program deleted" "d['result'] == [{'id': $pa}]"
exit "$failed"
