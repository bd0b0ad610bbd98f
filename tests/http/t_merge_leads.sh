#!/usr/bin/env bash
# name: Associate Lead and Merge Leads on real leads
# docs/behaviour.md §5.6, §5.9.  Fixtures by SQL and mautoctl in the
# database of this run's mautod.  Associate stores the cookie (moving it
# from another lead) and answers without a result; Merge fills the
# winner's empty fields from the first loser that has a value, moves
# memberships, cookies and activities, records the merge, deletes the
# losers, and answers without a result; merging a deleted lead is 1004.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# lead NAME [SQL ASSIGNMENTS]: a new lead; prints its id.
lead()
{
	dbsql "INSERT INTO lead SET email = '$1-$tag@example.com',
	    createdAt = UTC_TIMESTAMP(), updatedAt = UTC_TIMESTAMP()${2:+, $2};
	    SELECT LAST_INSERT_ID()"
}

# ---- Associate Lead -----------------------------------------------------
a=$(lead a)
b=$(lead b)
cookie="id:287-GTJ-838&token:_mch-example.com-1396310362214-$((RANDOM + 10000))"
enc=${cookie//&/%26}
api POST "/rest/v1/leads/$a/associate.json?cookie=$enc"
expect "associate answers success without a result" \
    "d == {'requestId': d['requestId'], 'success': True}"
expect_sql "the lead's cookies field is the cookie" \
    "SELECT cookies FROM lead WHERE id = $a" "$cookie"
expect_sql "lead_cookie holds it for the lead" \
    "SELECT lead_id FROM lead_cookie WHERE cookie = '$cookie'" "$a"
api POST "/rest/v1/leads/$b/associate.json?cookie=$enc"
expect "the same cookie on another lead" "d['success'] is True"
expect_sql "moves to that lead" \
    "SELECT CONCAT(lead_id, ':', (SELECT cookies FROM lead WHERE id = $b),
     ':', COALESCE((SELECT cookies FROM lead WHERE id = $a), 'none'))
     FROM lead_cookie WHERE cookie = '$cookie'" "$b:$cookie:none"

# ---- Merge Leads --------------------------------------------------------
w=$(lead w "company = ''")
l1=$(lead l1 "firstName = 'Ann', company = 'Acme', numberOfEmployees = NULL")
l2=$(lead l2 "firstName = 'Bob', city = 'Paris', numberOfEmployees = 12")
list=$(ctl list create --name "Merge-$tag")
ctl list add --list "$list" --lead "$l1" >/dev/null
prog=$(ctl program create --name "Merge-$tag")
ctl program add --program "$prog" --lead "$l2" --status Invited >/dev/null
ctl campaign add --campaign 9100 --lead "$l1" >/dev/null
api POST "/rest/v1/leads/$l1/associate.json?cookie=${enc}9"

api POST "/rest/v1/leads/$w/merge.json?leadIds=$l1,$l2&mergeInCRM=false"
expect "merge answers success without a result" \
    "d == {'requestId': d['requestId'], 'success': True}"
expect_sql "the winner's empty fields took the first loser's values" \
    "SELECT CONCAT_WS('|', email, firstName, company, city, numberOfEmployees)
     FROM lead WHERE id = $w" "w-$tag@example.com|Ann|Acme|Paris|12"
expect_sql "the losers are gone" \
    "SELECT COUNT(*) FROM lead WHERE id IN ($l1, $l2)" "0"
expect_sql "their cookie moved to the winner" \
    "SELECT lead_id FROM lead_cookie WHERE cookie = '${cookie}9'" "$w"
expect_sql "a Merge Leads activity lists the merged ids" \
    "SELECT attributes FROM activity WHERE lead_id = $w AND activity_type_id = 32" \
    "{\"Merge IDs\":[$l1,$l2],\"Merge Source\":\"Web service API\",\"Merged in Sales\":false}"
expect_sql "its primary attribute is the winner, by id and name" \
    "SELECT CONCAT_WS('|', primary_value_id, primary_value) FROM activity
     WHERE lead_id = $w AND activity_type_id = 32" \
    "$w|Ann"
expect_sql "the losers' activities moved too" \
    "SELECT COUNT(*) FROM activity WHERE lead_id IN ($l1, $l2)" "0"
api GET "/rest/v1/leads/$w/listMembership.json"
expect "the winner is in the loser's list" "[x['listId'] for x in d['result']] == [$list]"
api GET "/rest/v1/leads/$w/programMembership.json"
expect "and in the loser's program with its status" \
    "[(x['id'], x['progressionStatus']) for x in d['result']] == [($prog, 'Invited')]"
api GET "/rest/v1/leads/$w/smartCampaignMembership.json"
expect "and in the loser's smart campaign" \
    "[x['smartCampaignId'] for x in d['result']] == [9100]"

api POST "/rest/v1/leads/$w/merge.json?leadId=$l1"
expect "merging a lead already merged away is 1004" \
    "d['success'] is False and d['errors'] == [{'code': '1004',
     'message': \"Lead '$l1' not found\"}]"
x=$(lead x "firstName = 'Xavier'")
api POST "/rest/v1/leads/$w/merge.json?leadId=$x&leadIds=999999991"
expect "one unknown loser refuses the whole merge" \
    "d['errors'][0]['code'] == '1004'"
expect_sql "and nothing was merged" \
    "SELECT CONCAT((SELECT COUNT(*) FROM lead WHERE id = $x), (SELECT
     COUNT(*) FROM activity WHERE lead_id = $w AND activity_type_id = 32))" "11"

[ "$failed" = 0 ]
