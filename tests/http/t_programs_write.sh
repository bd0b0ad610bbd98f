#!/usr/bin/env bash
# name: Programs write: Create Program as marketorestpython and the documentation send it, tags and costs, by tag, Update Program Metadata, Clone Program, Delete Program, the program tag operations, Approve and Unapprove Program of other programs (refused: for Email programs, t_programs_email.sh), and their refusals
# docs/behaviour.md §22.  Fixtures: a folder through the API; a smart
# list in a program, which Delete takes with it.
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
    -d type=Email -d channel=Webinar
expect "an Email program of a channel of another type: 709" \
    "d['errors'] == [{'code': '709', 'message': \"Channel 'Webinar' is not for Email programs\"}]"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PW-C-$tag" \
    --data-urlencode "folder={\"id\":$f,\"type\":\"Folder\"}" \
    -d type=Nurture -d channel=Nurture
expect "a type that is none of the five: 1001" "d['errors'][0]['code'] == '1001'"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PW-C-$tag" \
    --data-urlencode "folder={\"id\":$f,\"type\":\"Folder\"}" \
    -d type=Default -d channel=Content \
    --data-urlencode "tags=[{'tagType': 'Region', 'tagValue': 'North'}]"
expect "a tag type that does not exist: 709" \
    "d['errors'] == [{'code': '709', 'message': \"Tag type 'Region' not found\"}]"
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

# Tags and costs: tag types made by SQL (no operation makes them).
dbsql "INSERT INTO tag_type (name, program_types, required) VALUES
    ('TW-$tag', '[program,event,webinar,nurture]', 0)"
dbsql "INSERT INTO tag_value (tag_type_id, position, value)
    SELECT id, 1, 'North' FROM tag_type WHERE name = 'TW-$tag'
    UNION ALL SELECT id, 2, 'South' FROM tag_type WHERE name = 'TW-$tag'"
q="folder=%7B%27id%27%3A%20$f%2C%20%27type%27%3A%20Folder%7D"
q="$q&name=PW-T-$tag&type=Event&channel=Tradeshow"
form POST "/rest/asset/v1/programs.json?$q" \
    --data-urlencode "tags=[{'tagType': 'TW-$tag', 'tagValue': 'North'}]" \
    --data-urlencode "costs=[{'startDate': '2026-01-01', 'cost': 200, 'note': 'Booth'}]"
expect "create with tags and costs in Python's words" \
    "d['result'][0]['type'] == 'Event'
     and d['result'][0]['tags'] == [{'tagType': 'TW-$tag', 'tagValue': 'North'}]
     and d['result'][0]['costs'] == [{'startDate': '2026-01-01', 'cost': 200, 'note': 'Booth'}]"
pt=$(py "d['result'][0]['id']")
api GET "/rest/asset/v1/program/byName.json?name=PW-T-$tag&includeTags=true"
expect "by name with includeTags: the tags, no costs" \
    "d['result'][0]['tags'] == [{'tagType': 'TW-$tag', 'tagValue': 'North'}]
     and 'costs' not in d['result'][0]"
api GET "/rest/asset/v1/program/byTag.json?tagType=TW-$tag&tagValue=North&maxReturn=20&offset=0"
expect "by tag: the program, with its tags and costs" \
    "[x['id'] for x in d['result']] == [$pt] and d['result'][0]['costs'][0]['cost'] == 200"
api GET "/rest/asset/v1/program/byTag.json?tagType=TW-$tag&tagValue=South"
expect "by tag, another value: the warning" "'result' not in d and d['warnings']"
api GET "/rest/asset/v1/program/byTag.json?tagType=TW-$tag"
expect "by tag without tagValue: 1002" "d['errors'][0]['code'] == '1002'"
form POST "/rest/asset/v1/program/$pt.json" \
    --data-urlencode "tags=[{\"tagType\":\"TW-$tag\",\"tagValue\":\"South\"}]" \
    --data-urlencode 'costs=[{"startDate":"2026-02-01","cost":50}]'
expect "update: the new tag value, the cost added" \
    "d['result'][0]['tags'] == [{'tagType': 'TW-$tag', 'tagValue': 'South'}]
     and d['result'][0]['costs'] == [{'startDate': '2026-01-01', 'cost': 200, 'note': 'Booth'},
                                     {'startDate': '2026-02-01', 'cost': 50}]"
form POST "/rest/asset/v1/program/$pt.json" -d costsDestructiveUpdate=true
expect "costsDestructiveUpdate without costs clears them" \
    "d['result'][0]['costs'] is None and d['result'][0]['tags'] is not None"
form POST "/rest/asset/v1/program/$pt.json" \
    --data-urlencode "tags=[{'tagType': 'TW-$tag', 'tagValue': 'East'}]"
expect "a value the tag type does not allow: 709" \
    "d['errors'] == [{'code': '709', 'message': \"Tag value 'East' is not allowed for tag type 'TW-$tag'\"}]"
form POST "/rest/asset/v1/program/$pt.json" --data-urlencode "costs=[{'cost': 1}]"
expect "costs without a startDate: 1003" "d['errors'][0]['code'] == '1003'"
dbsql "INSERT INTO tag_type (name, program_types, required) VALUES
    ('TW-REQ-$tag', '[program]', 1)"
form POST /rest/asset/v1/programs.json --data-urlencode "name=PW-R-$tag" \
    --data-urlencode "folder={\"id\":$f,\"type\":\"Folder\"}" \
    -d type=Default -d channel=Content
expect "a required tag type left out: 709" \
    "d['errors'] == [{'code': '709', 'message': \"Tag type 'TW-REQ-$tag' is required\"}]"
dbsql "DELETE FROM tag_type WHERE name = 'TW-REQ-$tag'"
# Clone Program as marketorestpython sends it: the query string.
dbsql "INSERT INTO folder_token (program_id, name, type, value, created_at,
    updated_at) VALUES ($pt, 'Speaker', 'text', 'Ada', UTC_TIMESTAMP(),
    UTC_TIMESTAMP())"
form POST "/rest/asset/v1/program/$pt/clone.json?name=PW-K-$tag&folder=%7B%27id%27%3A%201%2C%20%27type%27%3A%20Folder%7D"
expect "clone: type, channel, tags kept; the new folder; the description kept" \
    "d['result'][0]['name'] == 'PW-K-$tag' and d['result'][0]['id'] != $pt
     and d['result'][0]['type'] == 'Event' and d['result'][0]['channel'] == 'Tradeshow'
     and d['result'][0]['folder']['value'] == 1
     and d['result'][0]['tags'] == [{'tagType': 'TW-$tag', 'tagValue': 'South'}]"
pk=$(py "d['result'][0]['id']")
expect_sql "the clone has the statuses" \
    "SELECT GROUP_CONCAT(name ORDER BY step SEPARATOR '|') FROM program_status
     WHERE program_id = $pk" "Not in Program|Invited|Visited Booth"
api GET "/rest/asset/v1/folder/$pk/tokens.json?folderType=Program"
expect "the clone has the tokens" \
    "[t['name'] for x in d['result'] for t in x['tokens']] == ['Speaker']"
form POST "/rest/asset/v1/program/$pt/clone.json" --data-urlencode "name=PW-K-$tag" \
    --data-urlencode 'folder={"id":1,"type":"Folder"}'
expect "clone to a name in use: 709" "d['errors'][0]['code'] == '709'"
form POST "/rest/asset/v1/program/$pt/clone.json" --data-urlencode "name=PW-K2-$tag" \
    --data-urlencode "folder={\"id\":$pk,\"type\":\"Program\"}"
expect "clone into a program: 711" "d['errors'][0]['code'] == '711'"
form POST "/rest/asset/v1/program/999999999/clone.json" --data-urlencode "name=PW-K3-$tag" \
    --data-urlencode 'folder={"id":1,"type":"Folder"}'
expect "clone of no program: 702" "d['errors'][0]['code'] == '702'"
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=pw-k-sl-$tag" \
    --data-urlencode "folder={\"id\":$pk,\"type\":\"Program\"}"
form POST "/rest/asset/v1/program/$pk/clone.json" --data-urlencode "name=PW-K4-$tag" \
    --data-urlencode 'folder={"id":1,"type":"Folder"}'
expect "clone of a program with assets (t_programs_clone.sh has more)" "d['success']"
pk4=$(py "d['result'][0]['id']")
form POST "/rest/asset/v1/program/$pk4/delete.json"
form POST "/rest/asset/v1/program/$pk/delete.json"
expect "the clone deleted" "d['result'] == [{'id': $pk}]"
# Update and Delete Program Tag (the tag type in the path).
form POST "/rest/asset/v1/program/$pt/tag/TW-$tag.json?tagValue=North"
expect "Update Program Tag: the id" "d['result'] == [{'id': $pt}]"
api GET "/rest/asset/v1/program/$pt.json"
expect "the new value" "d['result'][0]['tags'] == [{'tagType': 'TW-$tag', 'tagValue': 'North'}]"
form POST "/rest/asset/v1/program/$pt/tag/TW-$tag.json?tagValue=East"
expect "Update Program Tag with a value not allowed: 709" "d['errors'][0]['code'] == '709'"
form POST "/rest/asset/v1/program/$pt/tag/TW-$tag.json"
expect "Update Program Tag without tagValue: 701" "d['errors'][0]['code'] == '701'"
form POST "/rest/asset/v1/program/$pt/tag/No%20Such%20Type.json?tagValue=x"
expect "Update Program Tag of a tag type that does not exist: 709" \
    "d['errors'] == [{'code': '709', 'message': \"Tag type 'No Such Type' not found\"}]"
form POST "/rest/asset/v1/program/$pt/tag/TW-$tag/delete.json"
expect "Delete Program Tag: the id" "d['result'] == [{'id': $pt}]"
api GET "/rest/asset/v1/program/$pt.json"
expect "no tags left" "d['result'][0]['tags'] is None"
dbsql "INSERT INTO tag_type (name, program_types, required) VALUES
    ('TW-REQ2-$tag', '[program]', 1)"
form POST "/rest/asset/v1/program/$pt/tag/TW-REQ2-$tag/delete.json"
expect "Delete Program Tag of a required tag type: 709" \
    "d['errors'] == [{'code': '709', 'message': \"Tag type 'TW-REQ2-$tag' is required\"}]"
dbsql "DELETE FROM tag_type WHERE name = 'TW-REQ2-$tag'"
form POST "/rest/asset/v1/program/999999999/tag/TW-$tag/delete.json"
expect "Delete Program Tag of no program: 702" "d['errors'][0]['code'] == '702'"

form POST "/rest/asset/v1/program/$pt/delete.json"
expect "the tagged program deleted" "d['result'] == [{'id': $pt}]"
dbsql "DELETE FROM tag_type WHERE name = 'TW-$tag'"

# Approve and Unapprove Program: Email programs only (t_programs_email.sh).
for op in approve unapprove; do
	form POST "/rest/asset/v1/program/$pa/$op.json"
	expect "$op of a Default program: 709" \
	    "d['errors'] == [{'code': '709', 'message': 'Program $pa is not an Email program: ${op^} Program is for Email programs only'}]"
	form POST "/rest/asset/v1/program/999999999/$op.json"
	expect "$op of no program: 702" \
	    "d['errors'] == [{'code': '702', 'message': '999999999 Program not found'}]"
done

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
expect "delete: the id" "d['result'] == [{'id': $pb}]"
expect_sql "its smart list went with it (t_programs_delete.sh has more)" \
    "SELECT COUNT(*) FROM smart_list WHERE id = $sl" "0"
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
