#!/usr/bin/env bash
# name: the activity each write path records, read back through Get Lead Activities and Get Lead Changes
# docs/behaviour.md §17.  One lead goes through every write the API has
# (Sync Leads create and update, Push Lead, Submit Form, Add to List,
# Change Lead Program Status, Merge Leads) and a second one is deleted;
# the reads from a date token taken before show each activity with its
# primary attribute and attributes as §A.4.4 and §B.1.6 describe them.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# acts TYPES LEAD: the activities of TYPES of LEAD since $start, as d.
acts()
{
	pages "$start" "/rest/v1/activities.json?activityTypeIds=$1&leadIds=$2&batchSize=2&"
}

api GET "/rest/v1/activities/pagingtoken.json?sinceDatetime=$(date -u -d '-1 minute' +%Y-%m-%dT%H:%M:%SZ)"
start=$(py "d['nextPageToken']")
a_mail=a-$tag@example.com

# ---- Sync Leads: create, then update ------------------------------------
api POST /rest/v1/leads.json "{\"input\": [{\"email\": \"$a_mail\",
    \"firstName\": \"Ann\", \"lastName\": \"Lee\"}, {\"email\": \"b-$tag@example.com\",
    \"firstName\": \"Bob\"}, {\"email\": \"c-$tag@example.com\"}]}"
a=$(py "d['result'][0]['id']")
b=$(py "d['result'][1]['id']")
c=$(py "d['result'][2]['id']")
api POST /rest/v1/leads.json "{\"action\": \"updateOnly\", \"input\": [
    {\"email\": \"$a_mail\", \"firstName\": \"Anna\", \"lastName\": \"Lee\",
     \"title\": \"CTO\"}]}"
expect "the update answers updated" "d['result'] == [{'id': $a, 'status': 'updated'}]"
acts 12 "$a"
expect "New Lead: the lead by id and full name, Source Type Web service API" \
    "len(d) == 1 and d[0]['activityTypeId'] == 12 and
     d[0]['primaryAttributeValueId'] == $a and
     d[0]['primaryAttributeValue'] == 'Ann Lee' and
     {'name': 'Source Type', 'value': 'Web service API'} in d[0]['attributes']"
acts 13 "$a"
expect "Change Data Value for firstName and title only (lastName did not change)" \
    "[x['primaryAttributeValue'] for x in d] == ['First Name', 'Job Title']"
expect "with Old Value, New Value, Reason and Source" \
    "sorted((x['name'], x['value']) for x in d[0]['attributes']) == [
     ('New Value', 'Anna'), ('Old Value', 'Ann'),
     ('Reason', 'Web service API'), ('Source', 'Web service API')]"
expect "an empty old value is left out" \
    "sorted(x['name'] for x in d[1]['attributes']) == ['New Value', 'Reason', 'Source']"
api GET "/rest/v1/activities/leadchanges.json?nextPageToken=$start&fields=firstName,title&leadIds=$a"
expect "Get Lead Changes: New Lead, then the two fields with old and new values" \
    "[(x['activityTypeId'], [(f['name'], f['oldValue'], f['newValue']) for f in x['fields']])
      for x in d['result']] == [(12, []), (13, [('firstName', 'Ann', 'Anna')]),
      (13, [('title', None, 'CTO')])]"

# ---- Push Lead -------------------------------------------------------------
prog=$(ctl program create --name "Acts-$tag")
api POST /rest/v1/leads/push.json "{\"programName\": \"Acts-$tag\",
    \"source\": \"Site\", \"reason\": \"Trial\",
    \"input\": [{\"email\": \"$a_mail\", \"city\": \"Oslo\"}]}"
expect "push answers updated" "d['result'][0]['status'] == 'updated'"
acts 145 "$a"
expect "Push Lead to Marketo: the program, with Reason and Source" \
    "len(d) == 1 and d[0]['primaryAttributeValueId'] == $prog and
     d[0]['primaryAttributeValue'] == 'Acts-$tag' and
     {'name': 'Source', 'value': 'Site'} in d[0]['attributes'] and
     {'name': 'Reason', 'value': 'Trial'} in d[0]['attributes']"
acts 13 "$a"
expect "and Change Data Value for the city it changed" \
    "[x['primaryAttributeValue'] for x in d][-1] == 'City' and
     {'name': 'New Value', 'value': 'Oslo'} in d[-1]['attributes']"

# ---- Submit Form -----------------------------------------------------------
fid=$(dbsql "INSERT INTO form (name, created_at, updated_at)
    VALUES ('Acts form $tag', UTC_TIMESTAMP(), UTC_TIMESTAMP());
    SELECT LAST_INSERT_ID()")
dbsql "INSERT INTO form_field VALUES ($fid, 'firstName'), ($fid, 'email')"
api POST /rest/v1/leads/submitForm.json "{\"formId\": $fid, \"input\": [
    {\"leadFormFields\": {\"email\": \"$a_mail\", \"firstName\": \"Annie\"},
     \"visitorData\": {\"pageURL\": \"https://example.com/p\"}}]}"
expect "the form answers updated" "d['result'][0]['status'] == 'updated'"
acts 2 "$a"
expect "Fill Out Form: the form, with the page" \
    "len(d) == 1 and d[0]['primaryAttributeValueId'] == $fid and
     {'name': 'Web Page', 'value': 'https://example.com/p'} in d[0]['attributes']"
acts 13 "$a"
expect "and Change Data Value with the form's Reason and Source" \
    "{'name': 'New Value', 'value': 'Annie'} in d[-1]['attributes'] and
     {'name': 'Reason', 'value': 'Form fill-out, URL: https://example.com/p'}
       in d[-1]['attributes'] and
     {'name': 'Source', 'value': 'Web form fillout'} in d[-1]['attributes']"

# ---- Add to List -----------------------------------------------------------
list=$(ctl list create --name "Acts list $tag")
ctl list add --list "$list" --lead "$a" >/dev/null
acts 24 "$a"
expect "Add to List: the list by id and name, List ID and Source" \
    "len(d) == 1 and d[0]['primaryAttributeValueId'] == $list and
     d[0]['primaryAttributeValue'] == 'Acts list $tag' and
     sorted((x['name'], x['value']) for x in d[0]['attributes']) == [
     ('List ID', $list), ('Source', 'Web service API')]"

# ---- Change Lead Program Status ---------------------------------------------
api POST "/rest/v1/leads/programs/$prog/status.json" \
    "{\"status\": \"Registered\", \"input\": [{\"id\": $a}]}"
expect "the status change answers updated" "d['result'][0]['status'] == 'updated'"
acts 104 "$a"
expect "Change Status in Progression: the program, old and new status" \
    "len(d) == 1 and d[0]['primaryAttributeValueId'] == $prog and
     {(x['name'], x['value']) for x in d[0]['attributes']} >= {
     ('Old Status', 'Invited'), ('New Status', 'Registered'),
     ('Acquired By', False), ('Success', False), ('Program ID', $prog)}"

# ---- Merge Leads -----------------------------------------------------------
api POST "/rest/v1/leads/$a/merge.json?leadIds=$b"
expect "merge answers success" "d['success'] is True"
acts 32 "$a"
expect "Merge Leads: the winner by id and name, the merged ids" \
    "len(d) == 1 and d[0]['primaryAttributeValueId'] == $a and
     d[0]['primaryAttributeValue'] == 'Annie Lee' and
     {'name': 'Merge IDs', 'value': [$b]} in d[0]['attributes']"
acts 12 "$a"
expect "the loser's New Lead moved to the winner" \
    "sorted(x['primaryAttributeValueId'] for x in d) == sorted([$a, $b])"

# ---- Delete Leads ----------------------------------------------------------
api POST /rest/v1/leads/delete.json "{\"input\": [{\"id\": $c}]}"
expect "delete answers deleted" "d['result'] == [{'id': $c, 'status': 'deleted'}]"
pages "$start" "/rest/v1/activities/deletedleads.json?"
expect "Get Deleted Leads shows Delete Lead of the lead, by id" \
    "[x['primaryAttributeValueId'] for x in d if x['leadId'] == $c] == [$c] and
     all(x['activityTypeId'] == 37 for x in d)"

exit "$failed"
