#!/usr/bin/env bash
# name: programs as folders of type Program: by id, by name, browse, contents, their tokens, and the refusals of the folder changes
# docs/behaviour.md §19, §21.  Fixtures: a folder through the API, a
# program through mautoctl moved into it by SQL (no operation in scope
# moves one), a smart list in the program through the API.  Then the
# Folders and Tokens operations on the program.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

form POST /rest/asset/v1/folders.json --data-urlencode "name=fp-$tag" \
    --data-urlencode 'parent={"id":1,"type":"Folder"}'
expect "a folder for the program" "d['success']"
f=$(py "d['result'][0]['id']")
prog=$(ctl program create --name "FP-$tag")
dbsql "UPDATE program SET folder_id = $f WHERE id = $prog"

api GET "/rest/asset/v1/folder/$prog.json?type=Program"
expect "by id with type=Program: the program as a folder" \
    "d['result'] == [{'name': 'FP-$tag', 'description': None,
      'createdAt': d['result'][0]['createdAt'],
      'updatedAt': d['result'][0]['updatedAt'],
      'url': d['result'][0]['url'],
      'folderId': {'id': $prog, 'type': 'Program'},
      'folderType': 'Program', 'parent': {'id': $f, 'type': 'Folder'},
      'path': '/Marketing Activities/fp-$tag/FP-$tag',
      'isArchive': False, 'isSystem': False, 'accessZoneId': 1,
      'workspace': 'Default', 'id': $prog}]
     and d['result'][0]['url'].endswith('/#PG${prog}A1')
     and re.match(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\+0000$',
                  d['result'][0]['createdAt'])"

api GET "/rest/asset/v1/folder/byName.json?name=FP-$tag&type=Program"
expect "by name with type=Program" "[x['id'] for x in d['result']] == [$prog]"
api GET "/rest/asset/v1/folder/byName.json?name=FP-$tag&type=Folder"
expect "by name with type=Folder: not a folder" \
    "'result' not in d and d['warnings'] == ['No assets found for the given search criteria.']"

api GET "/rest/asset/v1/folders.json?root=%7B%22id%22%3A$f%2C%22type%22%3A%22Folder%22%7D"
expect "browse from the folder: it, then its program" \
    "[(x['id'], x['folderId']['type']) for x in d['result']] ==
     [($f, 'Folder'), ($prog, 'Program')]"
api GET "/rest/asset/v1/folders.json?root=%7B%22id%22%3A$prog%2C%22type%22%3A%22Program%22%7D"
expect "browse from the program: the program alone" \
    "[x['id'] for x in d['result']] == [$prog]"

api GET "/rest/asset/v1/folder/$f/content.json?type=Folder"
expect "the folder's content is the program" \
    "d['result'] == [{'id': $prog, 'type': 'Program'}]"
form POST /rest/asset/v1/smartLists.json --data-urlencode "name=fp-sl-$tag" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
expect "a smart list in the program" "d['success']"
sl=$(py "d['result'][0]['id']")
api GET "/rest/asset/v1/folder/$prog/content.json?type=Program&maxReturn=20&offset=0"
expect "the program's content is its smart list" \
    "d['result'] == [{'id': $sl, 'type': 'Smart List'}]"

# Tokens on the program, as marketorestpython and a public connector
# (folderType=Program) call them.
form POST "/rest/asset/v1/folder/$prog/tokens.json" -d folderType=Program \
    -d type=text --data-urlencode "name=Speaker" --data-urlencode "value=Ada"
expect "a token on the program" \
    "d['result'] == [{'folder': {'type': 'Program', 'value': $prog},
      'tokens': [{'name': 'Speaker', 'type': 'text', 'value': 'Ada',
                  'computedUrl': d['result'][0]['tokens'][0]['computedUrl']}]}]
     and d['result'][0]['tokens'][0]['computedUrl'].endswith('/#PG${prog}C3')"
api GET "/rest/asset/v1/folder/$prog/tokens.json?folderType=Program"
expect "Get Tokens of the program" \
    "[t['name'] for r in d['result'] for t in r['tokens']] == ['Speaker']"
api GET "/rest/asset/v1/folder/$prog/tokens.json?folderType=Folder"
expect "the folder of the same id is another place" \
    "'Speaker' not in [t['name'] for r in d.get('result', []) for t in r['tokens']]"

# The folder changes refuse programs; the folder holds one.
form POST "/rest/asset/v1/folder/$prog.json?type=Program" -d description=x
expect "Update Folder of a program: 709" \
    "d['errors'] == [{'code': '709', 'message': 'Program Programs cant be updated with Folder API'}]"
form POST "/rest/asset/v1/folder/$prog/delete.json?type=Program"
expect "Delete Folder of a program: 709" \
    "d['errors'] == [{'code': '709', 'message': 'Program Programs cant be deleted with Folder API'}]"
form POST "/rest/asset/v1/folders.json" --data-urlencode "name=fp-in-$tag" \
    --data-urlencode "parent={\"id\":$prog,\"type\":\"Program\"}"
expect "Create Folder in a program: 711" "d['errors'][0]['code'] == '711'"
form POST "/rest/asset/v1/folder/$f/delete.json?type=Folder"
expect "Delete Folder of a folder that holds a program: 709" \
    "d['errors'] == [{'code': '709', 'message': 'Folder $f is not empty: delete its folders and assets first'}]"

form POST "/rest/asset/v1/smartList/$sl/delete.json"
expect "the smart list deleted" "d['success']"
exit "$failed"
