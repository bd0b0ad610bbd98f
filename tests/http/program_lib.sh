# shellcheck shell=bash
# Sourced after lib.sh by the scripts that fill a program with assets
# (tests/http/t_programs_delete.sh, t_programs_clone.sh):
#   program_fixture PREFIX    sets prog (a program PREFIX-$tag that mautoctl
#                             makes), in_prog (it as a folder parameter)
#                             and lead (a lead made through SQL)
#   member_of SL KIND TYPE LIST   a rule (KIND filters or triggers) of
#                             rule type TYPE in smart list SL, its first
#                             condition naming LIST
#   step CAMPAIGN TYPE INDEX ATTRIBUTES   a flow step with its attributes
#   new_email NAME PLACE      an email of the first template in PLACE
# Each call's answer is in $work/out (d of expect and py).

# shellcheck disable=SC2034,SC2154 # tag is lib.sh's; the scripts use these
program_fixture()
{
	prog=$(ctl program create --name "$1-$tag")
	in_prog="{\"id\":$prog,\"type\":\"Program\"}"
	lead=$(dbsql "INSERT INTO lead (email, createdAt, updatedAt)
	    VALUES ('$1-$tag@example.com', UTC_TIMESTAMP(), UTC_TIMESTAMP());
	    SELECT LAST_INSERT_ID()")
}

member_of()
{
	local rule
	form POST "/rest/asset/v1/smartList/$1/rules.json" \
	    --data-urlencode "ruleId={\"id\":$3,\"type\":\"activity\"}" \
	    -d index=1 -d "trigger=$([ "$2" = triggers ] && echo true || echo false)"
	rule=$(py "d['result'][0]['rules']['$2'][0]['id']")
	form POST "/rest/asset/v1/smartList/$1/rule/$rule.json" \
	    --data-urlencode 'attributeId={"id":1,"type":"activity"}' \
	    --data-urlencode "values=$4"
}

step()
{
	local s c
	form POST "/rest/asset/v1/smartCampaign/$1/flows.json" \
	    --data-urlencode "activityType={\"id\":$2,\"type\":\"activity\"}" -d "index=$3"
	s=$(py "d['result'][0]['flow']['steps'][$3]['id']")
	c=$(py "d['result'][0]['flow']['steps'][$3]['stepChoice'][-1]['id']")
	form POST "/rest/asset/v1/smartCampaign/$1/flow/$s/choice/$c.json" \
	    --data-urlencode "attributes=$4"
}

new_email()
{
	local etpl
	etpl=$(dbsql "SELECT id FROM email_template ORDER BY id LIMIT 1")
	form POST /rest/asset/v1/emails.json --data-urlencode "name=$1" \
	    --data-urlencode "template=$etpl" --data-urlencode "subject=Hi" \
	    --data-urlencode "fromName=F" --data-urlencode "fromEmail=f@example.com" \
	    --data-urlencode "replyEmail=r@example.com" --data-urlencode "folder=$2"
}
