#!/usr/bin/env bash
# name: Programs read: browse with its filters and paging, by id, by name, as marketorestpython and a public connector call them
# docs/behaviour.md §22.  Fixtures: a folder through the API, a Default
# and an Engagement program through mautoctl, the first moved into the
# folder by SQL (no operation in scope moves one).
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

form POST /rest/asset/v1/folders.json --data-urlencode "name=pr-$tag" \
    --data-urlencode 'parent={"id":1,"type":"Folder"}'
expect "a folder for the programs" "d['success']"
f=$(py "d['result'][0]['id']")
p1=$(ctl program create --name "PR-A-$tag" --channel "Online Advertising")
p2=$(ctl program create --name "PR-B-$tag" --type engagement \
    --channel Nurture)
dbsql "UPDATE program SET folder_id = $f WHERE id = $p1"

api GET "/rest/asset/v1/program/$p1.json"
expect "by id: the program object, its keys in order, tags and costs null" \
    "list(d['result'][0].keys()) == ['id', 'name', 'description',
      'createdAt', 'updatedAt', 'url', 'type', 'channel', 'folder',
      'status', 'workspace', 'tags', 'costs']
     and d['result'][0]['id'] == $p1 and d['result'][0]['name'] == 'PR-A-$tag'
     and d['result'][0]['description'] == ''
     and d['result'][0]['type'] == 'Default'
     and d['result'][0]['channel'] == 'Online Advertising'
     and d['result'][0]['folder'] == {'type': 'Folder', 'value': $f,
                                      'folderName': 'pr-$tag'}
     and d['result'][0]['status'] == '' and d['result'][0]['workspace'] == 'Default'
     and d['result'][0]['tags'] is None and d['result'][0]['costs'] is None
     and d['result'][0]['url'].endswith('/#PG${p1}A1')
     and re.match(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\+0000$',
                  d['result'][0]['updatedAt'])
     and list(d.keys()) == ['success', 'errors', 'requestId', 'warnings', 'result']"
api GET "/rest/asset/v1/program/$p2.json"
expect "by id: an engagement program is Engagement, off, in the root" \
    "d['result'][0]['type'] == 'Engagement' and d['result'][0]['status'] == 'off'
     and d['result'][0]['folder']['value'] == 1
     and d['result'][0]['folder']['folderName'] == 'Marketing Activities'"
api GET "/rest/asset/v1/program/999999999.json"
expect "by id: no such program is the warning" \
    "d['success'] and 'result' not in d
     and d['warnings'] == ['No assets found for the given search criteria.']"

api GET "/rest/asset/v1/program/byName.json?name=PR-A-$tag"
expect "by name: no tags or costs unless asked" \
    "d['result'][0]['id'] == $p1 and 'tags' not in d['result'][0]
     and 'costs' not in d['result'][0]"
api GET "/rest/asset/v1/program/byName.json?name=PR-A-$tag&includeTags=true&includeCosts=True"
expect "by name with includeTags and includeCosts (Python's True)" \
    "list(d['result'][0].keys())[-2:] == ['tags', 'costs']"
api GET "/rest/asset/v1/program/byName.json?name=pr-a-$tag"
expect "by name: letter case counts" "'result' not in d and d['warnings']"
api GET "/rest/asset/v1/program/byName.json"
expect "by name without a name: 1002" "d['errors'][0]['code'] == '1002'"

# marketorestpython's browse_programs / get_programs_yield request shapes.
api GET "/rest/asset/v1/programs.json?maxReturn=200&offset=0&filterType=id&filterValues=$p1,$p2"
expect "browse by ids: both, by id, without tags or costs" \
    "[x['id'] for x in d['result']] == [$p1, $p2]
     and all('tags' not in x and 'costs' not in x for x in d['result'])"
api GET "/rest/asset/v1/programs.json?filterType=programId&filterValues=$p2&filterValues=$p1"
expect "browse by programId, values repeated" \
    "[x['id'] for x in d['result']] == [$p1, $p2]"
api GET "/rest/asset/v1/programs.json?filterType=folderId&filterValues=$f"
expect "browse by folderId: the program in that folder" \
    "[x['id'] for x in d['result']] == [$p1]"
api GET "/rest/asset/v1/programs.json?filterType=workspace&filterValues=Default&maxReturn=1&offset=0"
expect "browse by workspace, one a page" "len(d['result']) == 1"
api GET "/rest/asset/v1/programs.json?filterType=id&filterValues=$p1,$p2&maxReturn=1&offset=1"
expect "browse: offset pages" "[x['id'] for x in d['result']] == [$p2]"
api GET "/rest/asset/v1/programs.json?filterType=id&filterValues=$p1,$p2&offset=2"
expect "browse past the end: the warning" "'result' not in d and d['warnings']"
api GET "/rest/asset/v1/programs.json?filterType=id&filterValues=$p1,$p2&status=off"
expect "browse status=off: the engagement program" \
    "[x['id'] for x in d['result']] == [$p2]"
api GET "/rest/asset/v1/programs.json?filterType=id&filterValues=$p1,$p2&status=unlocked"
expect "browse status=unlocked: no email programs" "'result' not in d"

# A connector's incremental read: maxReturn, offset and the updated range.
api GET "/rest/asset/v1/programs.json?maxReturn=200&offset=0&earliestUpdatedAt=2000-01-01T00:00:00Z&latestUpdatedAt=2999-01-01T00:00:00Z&filterType=id&filterValues=$p1"
expect "browse within an updated range" "[x['id'] for x in d['result']] == [$p1]"
api GET "/rest/asset/v1/programs.json?earliestUpdatedAt=2999-01-01T00:00:00Z"
expect "browse after every update: the warning" "'result' not in d"
api GET "/rest/asset/v1/programs.json?latestUpdatedAt=2000-01-01"
expect "browse before every creation: the warning" "'result' not in d"

api GET "/rest/asset/v1/programs.json?filterType=id"
expect "filterType without filterValues: 1003" "d['errors'][0]['code'] == '1003'"
api GET "/rest/asset/v1/programs.json?filterValues=1"
expect "filterValues without filterType: 1003" "d['errors'][0]['code'] == '1003'"
api GET "/rest/asset/v1/programs.json?filterType=id&filterValues=abc"
expect "a filter id that is no number: 1003" "d['errors'][0]['code'] == '1003'"
api GET "/rest/asset/v1/programs.json?filterType=name&filterValues=x"
expect "an unknown filterType: 1001" "d['errors'][0]['code'] == '1001'"
api GET "/rest/asset/v1/programs.json?maxReturn=201"
expect "maxReturn over 200: 1001" "d['errors'][0]['code'] == '1001'"
api GET "/rest/asset/v1/programs.json?earliestUpdatedAt=yesterday"
expect "a date that is not one: 1001" "d['errors'][0]['code'] == '1001'"
exit "$failed"
