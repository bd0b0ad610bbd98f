#!/bin/sh
# Integration: mautoctl tag-type create|list|delete, run as a user runs
# them, on a database of their own: what they print and store (the rows
# Get Tag Types and the program operations read), and that bad input is
# a message and exit status 1.  Needs MAUTO_TEST_DB_*
# (tests/harness/mariadb.sh); skips (77) without them.
set -u
db="mauto_ctltag_$$"
# shellcheck source=tests/integration/ctl_lib.sh
. "$(dirname "$0")/ctl_lib.sh"

sql -e "CREATE DATABASE $db" || { echo "cannot create $db"; exit 99; }
c migrate --dir "$top/db/migrations" || { cat "$tmp.err"; exit 99; }

c tag-type create --name Region --value North --value=South --required \
    --program-type event --program-type=program; rc=$?
region=$(cat "$tmp.out")
[ $rc = 0 ] && expr "$region" : '[1-9][0-9]*$' >/dev/null
check $? "tag-type create prints the new id alone"
[ "$(sql "$db" -e "SELECT CONCAT(name, '|', program_types, '|', required)
    FROM tag_type WHERE id = $region")" = "Region|[program,event]|1" ]
check $? "the program types in the catalogue's order, required"
[ "$(sql "$db" -e "SELECT GROUP_CONCAT(value ORDER BY position)
    FROM tag_value WHERE tag_type_id = $region")" = "North,South" ]
check $? "the allowed values in the order given"
c tag-type create --name "Cost Centre"; rc=$?
cc=$(cat "$tmp.out")
[ $rc = 0 ] && [ "$(sql "$db" -e "SELECT CONCAT(program_types, '|', required,
    '|', (SELECT COUNT(*) FROM tag_value WHERE tag_type_id = $cc))
    FROM tag_type WHERE id = $cc")" = "[program,email_batch,nurture,event,webinar]|0|0" ]
check $? "without options: every program type, not required, any value"
c tag-type list
head -n 1 "$tmp.out" | grep -q "^id	name	required	program types	values$" &&
    grep -q "^$region	Region	yes	\[program,event\]	North, South$" "$tmp.out" &&
    grep -q "^$cc	Cost Centre	no	\[program,email_batch,nurture,event,webinar\]	$" "$tmp.out"
check $? "tag-type list shows each with its values"

fails tag-type create --name Region && grep -q "exists" "$tmp.err"
check $? "a second tag type of that name is refused"
fails tag-type create --name X --value A --value A
check $? "a value given twice is refused"
fails tag-type create --name X --program-type campaign
check $? "a program type that is none is refused"
fails tag-type create --value A
check $? "create without --name is refused"
fails tag-type create --name X --colour red
check $? "an unknown option is refused"
[ "$(sql "$db" -e "SELECT COUNT(*) FROM tag_type WHERE name = 'X'")" = 0 ]
check $? "and nothing refused is stored"

c program create --name Tagged
prog=$(cat "$tmp.out")
sql "$db" -e "INSERT INTO program_tag (program_id, tag_type_id, value)
    VALUES ($prog, $region, 'North')"
fails tag-type delete "$region" && grep -q "programs carry" "$tmp.err"
check $? "a tag type a program carries is not deleted"
sql "$db" -e "DELETE FROM program_tag WHERE program_id = $prog"
c tag-type delete "$region" &&
    [ "$(sql "$db" -e "SELECT (SELECT COUNT(*) FROM tag_type WHERE id = $region)
        + (SELECT COUNT(*) FROM tag_value WHERE tag_type_id = $region)")" = 0 ]
check $? "then it is deleted with its values"
fails tag-type delete "$region"
check $? "deleting it twice is refused"
fails tag-type delete x
check $? "an id that is no number is refused"
fails tag-type frobnicate
check $? "an unknown tag-type verb is refused"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
