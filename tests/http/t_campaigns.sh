#!/usr/bin/env bash
# name: campaigns of the lead database: a smart campaign of a program made through the asset API, read back with its programName and programId in the members and order of real replies, and the request shapes marketorestpython sends
# docs/behaviour.md §23.  Fixtures: a program through mautoctl, smart
# campaigns in it and in a folder through the asset API.  Then Get
# Campaign by Id as get_campaign_by_id sends it (the id in the path and
# the query), Get Campaigns as get_multiple_campaigns does (POST
# ?_method=GET with names, programName and paging in the query, ids in a
# form body) page by page until no nextPageToken, each filter, and the
# campaign permissions.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

prog=$(ctl program create --name "CP-$tag")

mk()
{
	form POST /rest/asset/v1/smartCampaigns.json \
	    --data-urlencode "name=$1" --data-urlencode "folder=$2" \
	    --data-urlencode "description=$3"
	py "d['result'][0]['id']"
}

p1=$(mk "cp1-$tag" "{\"id\":$prog,\"type\":\"Program\"}" "in the program")
p2=$(mk "cp2-$tag" "{\"id\":$prog,\"type\":\"Program\"}" "second")
f1=$(mk "cf1-$tag" '{"id":1,"type":"Folder"}' "in a folder")

api GET "/rest/v1/campaigns/$p1.json?id=$p1"
expect "by id (marketorestpython's shape): the object in the members and order of real replies" \
    "d['success'] and list(d) == ['requestId', 'result', 'success'] and
     len(d['result']) == 1 and list(d['result'][0]) == ['id', 'name',
     'description', 'type', 'programName', 'programId', 'workspaceName',
     'createdAt', 'updatedAt', 'active'] and
     d['result'][0]['id'] == $p1 and d['result'][0]['name'] == 'cp1-$tag' and
     d['result'][0]['description'] == 'in the program' and
     d['result'][0]['type'] == 'batch' and
     d['result'][0]['programName'] == 'CP-$tag' and
     d['result'][0]['programId'] == $prog and
     d['result'][0]['workspaceName'] == 'Default' and
     d['result'][0]['active'] is False and
     re.match(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$', d['result'][0]['createdAt'])"
api GET "/rest/v1/campaigns/$f1.json"
expect "a campaign in a folder has no programName or programId" \
    "list(d['result'][0]) == ['id', 'name', 'description', 'type',
     'workspaceName', 'createdAt', 'updatedAt', 'active']"

api GET "/rest/v1/campaigns.json?programName=CP-$tag"
expect "programName keeps the campaigns of that program, by id" \
    "[x['id'] for x in d['result']] == [$p1, $p2] and 'nextPageToken' not in d"

# get_multiple_campaigns: POST ?_method=GET, names and paging in the
# query, ids in a form body, looping while a nextPageToken comes back.
seen=()
token=
for page in 1 2 3 4; do
	q="_method=GET&name=cp1-$tag&name=cp2-$tag&name=cf1-$tag&workspaceName=Default&batchSize=1"
	[ -n "$token" ] && q="$q&nextPageToken=$(python3 -c 'import sys, urllib.parse
print(urllib.parse.quote(sys.argv[1], safe=""))' "$token")"
	form POST "/rest/v1/campaigns.json?$q" \
	    -H 'Content-Type: application/x-www-form-urlencoded; charset=utf-8' \
	    -d "id=$p1&id=$p2&id=$f1"
	expect "get_multiple_campaigns page $page: one campaign" \
	    "d['success'] and len(d['result']) == 1"
	seen+=("$(py "d['result'][0]['id']")")
	token=$(py "d.get('nextPageToken', '')")
	[ -z "$token" ] && break
done
if [ "${seen[*]}" = "$p1 $p2 $f1" ]; then
	echo "ok - get_multiple_campaigns pages through the three campaigns in id order, then no token"
else
	echo "not ok - get_multiple_campaigns pages: got '${seen[*]}'"
	failed=1
fi

form POST "/rest/v1/campaigns.json?_method=GET&programName=CP-$tag" \
    -H 'Content-Type: application/x-www-form-urlencoded; charset=utf-8' \
    -d "id=$p2&id=$f1"
expect "ids of the form body and programName of the query both filter" \
    "[x['id'] for x in d['result']] == [$p2]"

# Renamed and deleted through the asset API: seen here at once.
form POST "/rest/asset/v1/smartCampaign/$p2.json" \
    --data-urlencode "name=cp2-renamed-$tag"
api GET "/rest/v1/campaigns/$p2.json"
expect "a rename through the asset API shows here" \
    "d['result'][0]['name'] == 'cp2-renamed-$tag'"
form POST "/rest/asset/v1/smartCampaign/$p2/delete.json"
api GET "/rest/v1/campaigns/$p2.json"
expect "a deleted campaign is 1013" \
    "not d['success'] and d['errors'] == [{'code': '1013',
     'message': 'Campaign not found'}]"
api GET "/rest/v1/campaigns.json?programName=CP-$tag"
expect "and is no longer listed" "[x['id'] for x in d['result']] == [$p1]"

# Permissions: a role without Read-Only Campaigns is refused (603); one
# with Read-Write Campaigns alone reads (it implies the read).
for perms in "Read-Only Lead" "Read-Write Campaigns"; do
	role="cr-$tag-${perms// /-}"
	ctl role create "$role" --permission "$perms" >/dev/null
	harness_client_create "$envf" "cr-$tag-${perms// /-}" "$role" \
	    "$work/client"
	# shellcheck disable=SC1091
	tok=$(. "$work/client"; harness_token "$base" "$MAUTO_CLIENT_ID" \
	    "$MAUTO_CLIENT_SECRET")
	curl -sS --max-time 30 -H "Authorization: Bearer $tok" \
	    "$base/rest/v1/campaigns/$p1.json" >"$work/out"
	if [ "$perms" = "Read-Only Lead" ]; then
		expect "a client without a campaign permission is refused (603)" \
		    "not d['success'] and d['errors'][0]['code'] == '603'"
	else
		expect "Read-Write Campaigns alone reads campaigns" \
		    "d['success'] and d['result'][0]['id'] == $p1"
	fi
done

exit "$failed"
