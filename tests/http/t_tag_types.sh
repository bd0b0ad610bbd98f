#!/usr/bin/env bash
# name: Tag types: browse and by name with their allowed values, as marketorestpython's get_tags and get_tag_by_name call them
# docs/behaviour.md §22.  A new instance has no tag types (an
# administrator makes them, and no operation does): this run's two are
# made by SQL, and the browse is read past the ones other runs made.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

dbsql "INSERT INTO tag_type (name, program_types, required) VALUES
    ('TT-R-$tag', '[program,email_batch,nurture,event,webinar]', 1),
    ('TT-O-$tag', '[program]', 0)"
dbsql "INSERT INTO tag_value (tag_type_id, position, value)
    SELECT id, 1, 'North' FROM tag_type WHERE name = 'TT-R-$tag'
    UNION ALL SELECT id, 2, 'South' FROM tag_type WHERE name = 'TT-R-$tag'"

api GET "/rest/asset/v1/tagType/byName.json?name=TT-R-$tag"
expect "by name: the tag type with its values, as documented" \
    "d['result'] == [{'tagType': 'TT-R-$tag',
      'applicableProgramTypes': '[program,email_batch,nurture,event,webinar]',
      'required': True, 'allowableValues': '[North, South]'}]
     and list(d.keys()) == ['success', 'errors', 'requestId', 'warnings', 'result']"
api GET "/rest/asset/v1/tagType/byName.json?name=TT-O-$tag"
expect "by name: no values is an empty list" \
    "d['result'] == [{'tagType': 'TT-O-$tag', 'applicableProgramTypes': '[program]',
      'required': False, 'allowableValues': '[]'}]"
api GET "/rest/asset/v1/tagType/byName.json?name=tt-r-$tag"
expect "by name: letter case counts" \
    "'result' not in d and d['warnings'] == ['No assets found for the given search criteria.']"
api GET "/rest/asset/v1/tagType/byName.json"
expect "by name without a name: 1002" "d['errors'][0]['code'] == '1002'"

# get_tags pages with maxReturn and offset until nothing comes back.
seen=()
offset=0
while :; do
	api GET "/rest/asset/v1/tagTypes.json?maxReturn=1&offset=$offset"
	[ "$(py "'result' in d")" = True ] || break
	seen+=("$(py "d['result'][0]['tagType']")")
	offset=$((offset + 1))
	[ "$offset" -lt 1000 ] || break
done
if [[ " ${seen[*]} " == *" TT-R-$tag TT-O-$tag "* ]]; then
	echo "ok - browse page by page: this run's two, in order of id"
else
	echo "not ok - browse page by page: got ${seen[*]}"
	failed=1
fi
api GET "/rest/asset/v1/tagTypes.json?maxReturn=200"
expect "browse leaves allowableValues out" \
    "all('allowableValues' not in x for x in d['result'])
     and {'tagType': 'TT-O-$tag', 'applicableProgramTypes': '[program]',
          'required': False} in d['result']"
api GET "/rest/asset/v1/tagTypes.json?maxReturn=201"
expect "maxReturn over 200: 1001" "d['errors'][0]['code'] == '1001'"

dbsql "DELETE FROM tag_type WHERE name IN ('TT-R-$tag', 'TT-O-$tag')"
exit "$failed"
