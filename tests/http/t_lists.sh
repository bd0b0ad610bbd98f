#!/usr/bin/env bash
# name: static lists of the lead database on real leads and lists
# docs/behaviour.md §20.  Fixtures: leads by SQL, lists through mautoctl
# (one made in a program), in the database of this run's mautod.  Then
# through HTTP: Add to List (query ids, JSON body, both), Remove from List (DELETE
# and POST ?_method=DELETE, 1015 and 1004), Member of List (GET with query
# ids, POST ?_method=GET with a JSON body), Get Leads by List Id on both
# paths with paging, Get Lists with each filter and paging, Get List by
# Id, the activities 24 and 25, and Get Lists by Lead Id agreeing.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

lead()
{
	dbsql "INSERT INTO lead (email, firstName, createdAt, updatedAt)
	    VALUES ('$1-$tag@example.com', '$1', UTC_TIMESTAMP(), UTC_TIMESTAMP());
	    SELECT LAST_INSERT_ID()"
}

a=$(lead a)
b=$(lead b)
c=$(lead c)
none=999999991

l1=$(ctl list create --name "L1-$tag")
prog=$(ctl program create --name "Prog-$tag")
l2=$(ctl list create --name "L2-$tag" --program "$prog")
dbsql "UPDATE static_list SET description = 'of a program' WHERE id = $l2"
if ctl list create --name "L3-$tag" --program 999999991 2>"$work/err"; then
	echo "not ok - mautoctl list create in no program succeeded"
	failed=1
else
	echo "ok - mautoctl list create in no program fails: $(cat "$work/err")"
fi

# ---- Add to List --------------------------------------------------------
api POST "/rest/v1/lists/$l1/leads.json?id=$a&id=$none"
expect "add by query ids: added, and 1004 for no such lead" \
    "d['success'] and d['result'] == [{'id': $a, 'status': 'added'},
     {'id': $none, 'status': 'skipped', 'reasons': [{'code': '1004',
      'message': 'Lead not found'}]}] and list(d) == ['requestId', 'result',
     'success']"
api POST "/rest/v1/lists/$l1/leads.json" "{\"input\": [{\"id\": $a}, {\"id\": \"$b\"}]}"
expect "add by JSON body (an id as a string too); a member is added again" \
    "d['result'] == [{'id': $a, 'status': 'added'}, {'id': $b, 'status': 'added'}]"
expect_sql "one Add to List activity per lead that joined" \
    "SELECT COUNT(*) FROM activity WHERE activity_type_id = 24 AND
     primary_value_id = $l1 AND primary_value = 'L1-$tag' AND
     attributes LIKE '%\"List ID\":$l1%' AND
     attributes LIKE '%\"Source\":\"Web service API\"%'" "2"
api POST "/rest/v1/lists/$l2/leads.json?id=$a" "{\"input\": [{\"id\": $c}]}"
expect "query and body ids together, query first" \
    "[x['id'] for x in d['result']] == [$a, $c]"
expect_sql "a list of a program is named <program>.<list> in the activity" \
    "SELECT COUNT(*) FROM activity WHERE activity_type_id = 24 AND
     primary_value = 'Prog-$tag.L2-$tag'" "2"
api POST "/rest/v1/lists/$none/leads.json?id=$a"
expect "an unknown list is 1013" \
    "not d['success'] and d['errors'] == [{'code': '1013',
     'message': 'Static list not found'}]"
api POST "/rest/v1/lists/$l1/leads.json"
expect "no ids is 1003" "d['errors'][0]['code'] == '1003'"
api POST "/rest/v1/lists/$l1/leads.json?id=x1"
expect "an id that is not a number is 1001" "d['errors'][0]['code'] == '1001'"
ids=$(python3 -c 'print("&".join("id=%d" % i for i in range(1, 302)))')
api POST "/rest/v1/lists/$l1/leads.json?$ids"
expect "301 ids is 1003" "d['errors'][0]['code'] == '1003'"

# ---- Member of List -----------------------------------------------------
api GET "/rest/v1/lists/$l1/leads/ismember.json?id=$a,$c&id=$none"
expect "member of: memberof, notmemberof, 1004" \
    "d['result'] == [{'id': $a, 'status': 'memberof'},
     {'id': $c, 'status': 'notmemberof'}, {'id': $none, 'status': 'skipped',
      'reasons': [{'code': '1004', 'message': 'Lead not found'}]}]"
api POST "/rest/v1/lists/$l1/leads/ismember.json?_method=GET" "{\"input\": [{\"id\": $b}]}"
expect "member of through POST ?_method=GET with a JSON body" \
    "d['result'] == [{'id': $b, 'status': 'memberof'}]"

# ---- Get Leads by List Id -----------------------------------------------
api GET "/rest/v1/lists/$l1/leads.json?batchSize=1"
expect "first page: one lead with the default fields, moreResult, token" \
    "[x['id'] for x in d['result']] == [$a] and d['moreResult'] is True and
     sorted(d['result'][0]) == ['createdAt', 'email', 'firstName', 'id',
     'lastName', 'updatedAt'] and re.match(r'^[A-Z2-7]+=*$', d['nextPageToken'])"
token=$(harness_json_get nextPageToken <"$work/out")
api GET "/rest/v1/list/$l1/leads.json?batchSize=1&nextPageToken=$token&fields=email"
expect "the older path continues the same read, with fields" \
    "d['result'] == [{'id': $b, 'email': 'b-$tag@example.com'}] and
     'nextPageToken' not in d"
api GET "/rest/v1/lists/$l2/leads.json?nextPageToken=$token"
expect "a token of another list is refused" "d['errors'][0]['code'] == '1003'"
api GET "/rest/v1/list/$none/leads.json"
expect "an unknown list is 1013" "d['errors'][0]['code'] == '1013'"
form POST "/rest/v1/list/$l2/leads.json" -d _method=GET -d fields=firstName -d batchSize=5
expect "POST _method=GET with a form body (as clients page)" \
    "[x['firstName'] for x in d['result']] == ['a', 'c']"

# ---- Remove from List ---------------------------------------------------
api DELETE "/rest/v1/lists/$l1/leads.json?id=$a&id=$c&id=$none"
expect "remove: removed, 1015 not in list, 1004" \
    "d['result'] == [{'id': $a, 'status': 'removed'},
     {'id': $c, 'status': 'skipped', 'reasons': [{'code': '1015',
      'message': 'Lead not in list'}]}, {'id': $none, 'status': 'skipped',
      'reasons': [{'code': '1004', 'message': 'Lead not found'}]}]"
api POST "/rest/v1/lists/$l1/leads.json?_method=DELETE" "{\"input\": [{\"id\": $b}]}"
expect "remove through POST ?_method=DELETE with a JSON body" \
    "d['result'] == [{'id': $b, 'status': 'removed'}]"
expect_sql "one Remove from List activity per lead that left" \
    "SELECT COUNT(*) FROM activity WHERE activity_type_id = 25 AND
     primary_value_id = $l1 AND attributes LIKE '%\"List ID\":$l1%'" "2"
api GET "/rest/v1/lists/$l1/leads.json"
expect "the list is empty" "d['success'] and d['result'] == []"

# ---- Get Lists by Lead Id agrees ----------------------------------------
api GET "/rest/v1/leads/$a/listMembership.json"
expect "the lead is in the list of the program only" \
    "[x['listId'] for x in d['result']] == [$l2]"

api DELETE "/rest/v1/lists/$l2/leads.json" "{\"input\": [{\"id\": $c}]}"
expect "DELETE with a JSON body (as marketorestpython and mrkt send it)" \
    "d['result'] == [{'id': $c, 'status': 'removed'}]"

# ---- Get Lists, Get List by Id ------------------------------------------
api GET "/rest/v1/lists/$l2.json"
expect "list by id: program, workspace, dates, in the service's key order" \
    "list(d['result'][0]) == ['id', 'name', 'description', 'programName',
     'workspaceId', 'workspaceName', 'createdAt', 'updatedAt'] and
     d['result'][0]['programName'] == 'Prog-$tag' and
     d['result'][0]['workspaceName'] == 'Default' and
     re.match(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$', d['result'][0]['createdAt'])"
api GET "/rest/v1/lists/$l1.json"
expect "a list without program or description leaves them out" \
    "'programName' not in d['result'][0] and 'description' not in d['result'][0]"
api GET "/rest/v1/lists/$none.json"
expect "an unknown list is 1013" "d['errors'][0]['code'] == '1013'"
api GET "/rest/v1/lists.json?id=$l1&id=$l2&batchSize=1"
expect "Get Lists by id pages" \
    "[x['id'] for x in d['result']] == [$l1] and d['moreResult'] is True"
token=$(harness_json_get nextPageToken <"$work/out")
api GET "/rest/v1/lists.json?id=$l1&id=$l2&batchSize=1&nextPageToken=$token"
expect "and the next page has the other" \
    "[x['id'] for x in d['result']] == [$l2] and 'nextPageToken' not in d"
api GET "/rest/v1/lists.json?name=L1-$tag,nothing"
expect "by name" "[x['id'] for x in d['result']] == [$l1]"
api GET "/rest/v1/lists.json?programName=Prog-$tag"
expect "by program name" "[x['id'] for x in d['result']] == [$l2]"
api GET "/rest/v1/lists.json?workspaceName=Default&id=$l1,$l2"
expect "by workspace, with ids" "[x['id'] for x in d['result']] == [$l1, $l2]"
api GET "/rest/v1/lists.json?workspaceName=Elsewhere&id=$l1"
expect "a workspace with none of them finds nothing" "d['result'] == []"
form POST "/rest/v1/lists.json" -d _method=GET -d "id=$l1,$l2" -d "name=L2-$tag"
expect "POST _method=GET with a form body, filters combined" \
    "[x['id'] for x in d['result']] == [$l2]"
api GET "/rest/v1/lists.json?id=abc"
expect "an id that is not a number is 1001" "d['errors'][0]['code'] == '1001'"

[ "$failed" = 0 ]
