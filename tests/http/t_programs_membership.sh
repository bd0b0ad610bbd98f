#!/usr/bin/env bash
# name: partitions, program status changes and membership reads on real leads
# docs/behaviour.md §5.10, §5.13, §4.6.  Fixtures: leads by SQL, a
# partition, a program, lists and a smart campaign membership through
# mautoctl, in the database of this run's mautod.  Then through HTTP:
# Update Lead Partition (updated, 1008 for a name in the wrong case, the
# activity), Change Lead Program Status (updated, 1013, 1037, 1004, 1025,
# success step, the activity), and the three membership reads with
# paging tokens and filters.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

lead()
{
	dbsql "INSERT INTO lead (email, createdAt, updatedAt)
	    VALUES ('$1-$tag@example.com', UTC_TIMESTAMP(), UTC_TIMESTAMP());
	    SELECT LAST_INSERT_ID()"
}

a=$(lead a)
b=$(lead b)
c=$(lead c)

# ---- Update Lead Partition ----------------------------------------------
pname=Part-$tag
pid=$(ctl partition create --name "$pname" --description "made by $tag")
api POST /rest/v1/leads/partitions.json "{\"input\": [
    {\"id\": $a, \"partitionName\": \"$pname\"},
    {\"id\": $b, \"partitionName\": \"part-$tag\"}]}"
expect "partition update: updated, and 1008 for a name in another case" \
    "d['success'] and d['result'] == [{'id': $a, 'status': 'updated'},
     {'id': $b, 'status': 'skipped', 'reasons': [{'code': '1008',
      'message': \"Access denied to partition 'part-$tag'\"}]}]"
expect_sql "the lead is in the new partition" \
    "SELECT leadPartitionId FROM lead WHERE id = $a" "$pid"
expect_sql "the other lead was not moved" \
    "SELECT leadPartitionId FROM lead WHERE id = $b" "1"
expect_sql "a Change Lead Partition activity was recorded" \
    "SELECT COUNT(*) FROM activity WHERE lead_id = $a AND
     activity_type_id = 100 AND primary_value_id = $pid AND
     attributes LIKE '%\"New Partition\":\"$pname\"%'" "1"
api GET /rest/v1/leads/partitions.json
expect "the new partition is listed with its description" \
    "{'id': $pid, 'name': '$pname', 'description': 'made by $tag'} in d['result']"

# ---- Change Lead Program Status -----------------------------------------
prog=$(ctl program create --name "Webinar-$tag")
ctl program add --program "$prog" --lead "$a" >/dev/null
ctl program add --program "$prog" --lead "$c" --status Registered >/dev/null
api POST "/rest/v1/leads/programs/$prog/status.json" "{\"status\": \"Registered\",
    \"input\": [{\"id\": $a}, {\"id\": $b}, {\"id\": $c}, {\"id\": 999999991}]}"
expect "status change: updated, not a member, already there, no lead" \
    "d['result'] == [{'id': $a, 'status': 'updated'},
     {'id': $b, 'status': 'skipped', 'reasons': [{'code': '1013',
      'message': 'Lead is not a member of the program'}]},
     {'id': $c, 'status': 'skipped', 'reasons': [{'code': '1037',
      'message': 'Lead skipped because it is already in or past this status'}]},
     {'id': 999999991, 'status': 'skipped', 'reasons': [{'code': '1004',
      'message': 'Lead not found'}]}]"
expect_sql "the member's status step moved to Registered (3)" \
    "SELECT status_step FROM program_member WHERE program_id = $prog AND lead_id = $a" "3"
expect_sql "a Change Status in Progression activity names old and new status" \
    "SELECT COUNT(*) FROM activity WHERE lead_id = $a AND activity_type_id = 104
     AND primary_value_id = $prog AND attributes LIKE
     '%\"Old Status\":\"Not in Program\",\"New Status ID\":3,\"New Status\":\"Registered\"%'" "1"
api POST "/rest/v1/leads/programs/$prog/status.json" "{\"status\": \"Invited\",
    \"input\": [{\"id\": $a}]}"
expect "an earlier status is 1037" \
    "d['result'][0]['reasons'][0]['code'] == '1037'"
api POST "/rest/v1/leads/programs/$prog/status.json" "{\"status\": \"registered\",
    \"input\": [{\"id\": $a}, {\"id\": \"x\"}]}"
expect "a status the program lacks (names are exact) is 1025 per record" \
    "d['success'] and d['result'] == [{'id': $a, 'status': 'skipped',
     'reasons': [{'code': '1025', 'message': 'Program status not found'}]},
     {'status': 'skipped', 'reasons': [{'code': '1001',
      'message': \"Invalid value 'x'. Required of type 'integer'\"}]}]"
api POST "/rest/v1/leads/programs/$prog/status.json" "{\"status\": \"Attended\",
    \"input\": [{\"id\": $a}]}"
expect "moving on to the success step" "d['result'] == [{'id': $a, 'status': 'updated'}]"

# ---- Membership reads ---------------------------------------------------
api GET "/rest/v1/leads/$a/programMembership.json"
expect "programMembership shows status and reachedSuccess in the documented order" \
    "len(d['result']) == 1 and list(d['result'][0]) == ['id',
     'progressionStatus', 'isExhausted', 'acquiredBy', 'reachedSuccess',
     'membershipDate', 'updatedAt'] and d['result'][0]['id'] == $prog and
     d['result'][0]['progressionStatus'] == 'Attended' and
     d['result'][0]['reachedSuccess'] is True and
     re.match(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$', d['result'][0]['updatedAt'])
     and d['moreResult'] is False"
api GET "/rest/v1/leads/$a/programMembership.json?filterType=programId&filterValues=999999,$prog"
expect "the programId filter keeps the program" "[p['id'] for p in d['result']] == [$prog]"
api GET "/rest/v1/leads/$a/programMembership.json?filterType=programId&filterValues=999999"
expect "and drops what it does not name" "d['result'] == []"
api GET "/rest/v1/leads/$a/programMembership.json?earliestUpdatedAt=2999-01-01T00:00:00Z"
expect "earliestUpdatedAt in the future leaves nothing" "d['result'] == []"
api GET "/rest/v1/leads/$a/programMembership.json?latestUpdatedAt=2999-01-01&earliestUpdatedAt=2000-01-01T00:00:00%2B02:00"
expect "a window around now keeps it" "len(d['result']) == 1"

l1=$(ctl list create --name "L1-$tag")
l2=$(ctl list create --name "L2-$tag")
l3=$(ctl list create --name "L3-$tag")
ctl list add --list "$l1" --lead "$a" >/dev/null
ctl list add --list "$l2" --lead "$a" "$b" >/dev/null
ctl list add --list "$l3" --lead "$a" >/dev/null
expect_sql "list add recorded an Add to List activity per membership" \
    "SELECT COUNT(*) FROM activity WHERE lead_id = $a AND activity_type_id = 24" "3"
api GET "/rest/v1/leads/$a/listMembership.json?batchSize=2"
expect "first page: two lists, moreResult and a base32 token" \
    "[x['listId'] for x in d['result']] == [$l1, $l2] and
     d['moreResult'] is True and
     re.match(r'^[A-Z2-7]+=*$', d['nextPageToken']) and
     len(d['nextPageToken']) % 8 == 0 and
     list(d['result'][0]) == ['listId', 'createdAt', 'updatedAt']"
token=$(harness_json_get nextPageToken <"$work/out")
api GET "/rest/v1/leads/$a/listMembership.json?batchSize=2&nextPageToken=$token"
expect "second page: the last list, no more" \
    "[x['listId'] for x in d['result']] == [$l3] and d['moreResult'] is False
     and 'nextPageToken' not in d"
api GET "/rest/v1/leads/$b/listMembership.json?nextPageToken=$token"
expect "a token of another lead is refused" "d['errors'][0]['code'] == '1001'"
api GET "/rest/v1/leads/$a/smartCampaignMembership.json?nextPageToken=$token"
expect "a token of another read is refused" "d['errors'][0]['code'] == '1001'"
api GET "/rest/v1/leads/$b/listMembership.json"
expect "the other lead is in one list" "[x['listId'] for x in d['result']] == [$l2]"

ctl campaign add --campaign 7001 --lead "$a" >/dev/null
ctl campaign add --campaign 7000 --lead "$a" >/dev/null
api GET "/rest/v1/leads/$a/smartCampaignMembership.json?batchSize=1"
expect "smartCampaignMembership pages by campaign id" \
    "[x['smartCampaignId'] for x in d['result']] == [7000] and d['moreResult'] is True"
token=$(harness_json_get nextPageToken <"$work/out")
api GET "/rest/v1/leads/$a/smartCampaignMembership.json?batchSize=1&nextPageToken=$token"
expect "and the next page has the other" \
    "[x['smartCampaignId'] for x in d['result']] == [7001] and d['moreResult'] is False"
api GET "/rest/v1/leads/$a/smartCampaignMembership.json?batchSize=1&nextPageToken=$token&earliestUpdatedAt=2000-01-01"
expect "a token used with other filters is refused" "d['errors'][0]['code'] == '1001'"
api GET "/rest/v1/leads/$a/smartCampaignMembership.json?latestUpdatedAt=2000-01-01"
expect "latestUpdatedAt in the past leaves nothing" "d['result'] == []"

[ "$failed" = 0 ]
