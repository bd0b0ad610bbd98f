#!/bin/sh
# Integration: the mautoctl commands for programs, static lists, forms,
# smart campaign members, partitions and seed-demo, run as a user runs
# them, on a database of their own: what they print, what they store, and
# that bad input is a message and exit status 1.  Needs MAUTO_TEST_DB_*
# (tests/harness/mariadb.sh); skips (77) without them.
set -u
db="mauto_ctlprog_$$"
# shellcheck source=tests/integration/ctl_lib.sh
. "$(dirname "$0")/ctl_lib.sh"

sql -e "CREATE DATABASE $db" || { echo "cannot create $db"; exit 99; }
c migrate --dir "$top/db/migrations" || { cat "$tmp.err"; exit 99; }
sql "$db" -e "INSERT INTO lead (email, createdAt, updatedAt) VALUES
    ('a@example.com', NOW(), NOW()), ('b@example.com', NOW(), NOW())"
lead_a=$(sql "$db" -e "SELECT id FROM lead WHERE email = 'a@example.com'")
lead_b=$(sql "$db" -e "SELECT id FROM lead WHERE email = 'b@example.com'")

c program create --name "Spring Webinar"; rc=$?
prog=$(cat "$tmp.out")
[ $rc = 0 ] && expr "$prog" : '[1-9][0-9]*$' >/dev/null
check $? "program create prints the new id alone"
got=$(sql "$db" -e "SELECT GROUP_CONCAT(CONCAT(name, IF(success, '+', ''))
    ORDER BY step) FROM program_status WHERE program_id = $prog")
[ "$got" = "Not in Program,Invited,Registered,Attended+,No Show" ]
check $? "the default statuses are the Webinar channel's (got $got)"
[ "$(sql "$db" -e "SELECT CONCAT(type, '/', channel) FROM program WHERE id = $prog")" = program/Webinar ]
check $? "the default type and channel are program and Webinar"
c program create --name "Spring Ads" --channel "Online Advertising"
got=$(sql "$db" -e "SELECT GROUP_CONCAT(CONCAT(name, IF(success, '+', ''))
    ORDER BY step) FROM program_status WHERE program_id = $(cat "$tmp.out")")
[ "$got" = "Not in Program,Clicked+" ]
check $? "without --status a catalogue channel gives its statuses (got $got)"
c program create --name "Spring Radio" --channel "Radio"
got=$(sql "$db" -e "SELECT COUNT(*) FROM program_status WHERE program_id = $(cat "$tmp.out")")
[ "$got" = 5 ]
check $? "a channel outside the catalogue gets the Webinar statuses (got $got)"
fails program create --name "Spring Webinar" && grep -q "exists" "$tmp.err"
check $? "a second program with the same name is refused"
c program create --name Nurture --type engagement --channel "Nurture" \
    --status Member --status "Engaged:success" --status=Done; rc=$?
prog2=$(cat "$tmp.out")
[ $rc = 0 ]
check $? "program create with ordered statuses, type and channel"
c program list
grep -q "^$prog2	Nurture	engagement	Nurture	Member, Engaged:success, Done$" "$tmp.out" &&
    head -n 1 "$tmp.out" | grep -q "^id	name	type	channel	statuses$"
check $? "program list shows the statuses in order with the success mark"
fails program create --name X --type webinar
check $? "a bad --type is refused"
fails program create --name X --status A --status A
check $? "a status given twice is refused"
fails program create --channel C
check $? "program create without --name is refused"
fails program frobnicate
check $? "an unknown program verb is refused"

c program add --program "$prog" --lead "$lead_a" --status Invited
[ $? = 0 ] && [ "$(sql "$db" -e "SELECT status_step FROM program_member
    WHERE program_id = $prog AND lead_id = $lead_a")" = 2 ]
check $? "program add makes a member with the named status"
c program add --program "$prog" --lead "$lead_b"
[ $? = 0 ] && [ "$(sql "$db" -e "SELECT status_step FROM program_member
    WHERE program_id = $prog AND lead_id = $lead_b")" = 1 ]
check $? "program add without --status uses the first status"
fails program add --program "$prog" --lead "$lead_a" --status Nope &&
    grep -q "no status 'Nope'" "$tmp.err"
check $? "an unknown status is refused"
fails program add --program 999999 --lead "$lead_a" && grep -q "no program" "$tmp.err"
check $? "an unknown program is refused"
fails program add --program "$prog" --lead 999999 && grep -q "no lead 999999" "$tmp.err"
check $? "an unknown lead is refused"

c list create --name "Newsletter"; rc=$?
list=$(cat "$tmp.out")
[ $rc = 0 ] && expr "$list" : '[1-9][0-9]*$' >/dev/null
check $? "list create prints the new id"
fails list create --name "Newsletter"
check $? "a second list with the same name is refused"
c list add --list "$list" --lead "$lead_a" "$lead_b"
[ $? = 0 ] && [ "$(sql "$db" -e "SELECT COUNT(*) FROM list_member WHERE list_id = $list")" = 2 ]
check $? "list add --lead ID ID adds both"
fails list add --list "$list" --lead 999999 && grep -q "no lead 999999" "$tmp.err"
check $? "list add with an unknown lead is refused"
fails list add --list 999999 --lead "$lead_a" && grep -q "no static list" "$tmp.err"
check $? "list add to an unknown list is refused"
fails list add --list abc --lead "$lead_a" && grep -q "not an id" "$tmp.err"
check $? "a list id that is not a number is refused"

c form create --name "Contact Us" --field email FirstName --field lastName \
    --program "$prog"; rc=$?
form=$(cat "$tmp.out")
[ $rc = 0 ] && [ "$(sql "$db" -e "SELECT GROUP_CONCAT(field_name ORDER BY
    field_name) FROM form_field WHERE form_id = $form")" = "email,firstName,lastName" ]
check $? "form create stores the fields as the catalogue names them"
fails form create --name "Other" --field email --field noSuchField &&
    grep -q "no lead field 'noSuchField'" "$tmp.err"
check $? "a form with an unknown field is refused"
[ "$(sql "$db" -e "SELECT COUNT(*) FROM form WHERE name = 'Other'")" = 0 ]
check $? "and nothing of it is stored"
fails form create --name "Other"
check $? "a form without --field is refused"

c campaign add --campaign 42 --lead "$lead_a"
[ $? = 0 ] && [ "$(sql "$db" -e "SELECT COUNT(*) FROM campaign_member WHERE campaign_id = 42")" = 1 ]
check $? "campaign add makes a smart campaign member"
fails campaign add --campaign 42
check $? "campaign add without --lead is refused"

c partition create --name Mexico --description "Leads in Mexico"; rc=$?
part=$(cat "$tmp.out")
[ $rc = 0 ] && [ "$(sql "$db" -e "SELECT description FROM lead_partition WHERE id = $part")" = "Leads in Mexico" ]
check $? "partition create stores name and description"
fails partition create --name Mexico
check $? "a second partition with the same name is refused"

c seed-demo; rc=$?
cp "$tmp.out" "$tmp.demo1"
c seed-demo
[ $rc = 0 ] && cmp -s "$tmp.out" "$tmp.demo1" &&
    [ "$(grep -c '^MAUTO_DEMO_[A-Z_]*=..*$' "$tmp.out")" = 10 ]
check $? "seed-demo prints the same ten MAUTO_DEMO_* lines twice"
demo_form=$(sed -n 's/^MAUTO_DEMO_FORM_ID=//p' "$tmp.out")
demo_prog=$(sed -n 's/^MAUTO_DEMO_PROGRAM_ID=//p' "$tmp.out")
[ "$(sql "$db" -e "SELECT CONCAT(f.program_id, ':', GROUP_CONCAT(ff.field_name
    ORDER BY ff.field_name)) FROM form f JOIN form_field ff ON ff.form_id = f.id
    WHERE f.id = $demo_form GROUP BY f.id")" = "$demo_prog:company,email,firstName,lastName" ]
check $? "the demo form has email, firstName, lastName, company in the demo program"
[ "$(sql "$db" -e "SELECT COUNT(*) FROM program WHERE name = 'Demo-Webinar'")" = 1 ]
check $? "seed-demo made one demo program"
demo_lptf=$(sed -n 's/^MAUTO_DEMO_LPT_FOLDER_ID=//p' "$tmp.out")
[ "$(sed -n 's/^MAUTO_DEMO_FOLDER_ID=//p' "$tmp.out")" = "$demo_prog" ] &&
    grep -q '^MAUTO_DEMO_FOLDER_TYPE=Program$' "$tmp.out" &&
    grep -q '^MAUTO_DEMO_WORKSPACE_ID=1$' "$tmp.out" &&
    [ "$(sql "$db" -e "SELECT CONCAT(kind, ':', parent_id) FROM folder WHERE id = $demo_lptf")" = "landingPageTemplate:4" ]
check $? "the demo's asset places: its program, a template folder under the templates root"
demo_seg=$(sed -n 's/^MAUTO_DEMO_SEGMENTATION_ID=//p' "$tmp.out")
demo_etpl=$(sed -n 's/^MAUTO_DEMO_EMAIL_TEMPLATE_ID=//p' "$tmp.out")
[ "$(sql "$db" -e "SELECT GROUP_CONCAT(name ORDER BY position) FROM segment WHERE segmentation_id = $demo_seg")" = "Default,English,French" ] &&
    [ "$(sql "$db" -e "SELECT name FROM segmentation WHERE id = $demo_seg")" = Demo-Language ]
check $? "the demo segmentation is Demo-Language: Default, English, French"
c template show "$demo_etpl"; rc=$?
[ $rc = 0 ] && grep -q "^template	$demo_etpl	3	Demo-Email-Template$" "$tmp.out" &&
    [ "$(grep -c '^module	' "$tmp.out")" -ge 3 ] &&
    grep -q '^container	' "$tmp.out" &&
    grep -q '^section	[^	]*	Image	' "$tmp.out" &&
    [ "$(grep -c '^section	[^	]*	Text	' "$tmp.out")" -ge 2 ] &&
    grep -q '^variable	[^	]*	string	' "$tmp.out" &&
    grep -q '^variable	[^	]*	color	' "$tmp.out" &&
    grep -q '^variable	[^	]*	boolean	' "$tmp.out" &&
    grep -q '^variable	[^	]*	number	' "$tmp.out" &&
    grep -q "^dynamic	intro	$demo_seg$" "$tmp.out"
check $? "the demo email template: text sections, an image, three modules, four variable types, a dynamic section"

# ---- folders ----------------------------------------------------------------
c folder create --name Campaigns --parent 1; rc=$?
f1=$(cat "$tmp.out")
[ $rc = 0 ] && [ "$(sql "$db" -e "SELECT CONCAT(kind, ':', parent_id, ':', is_system) FROM folder WHERE id = $f1")" = "marketing:1:0" ]
check $? "folder create under a parent takes its kind"
c folder create --name Sub --parent "$f1"; rc=$?
f2=$(cat "$tmp.out")
[ $rc = 0 ]
check $? "a folder in a folder"
fails folder create --name Sub --parent "$f1"
check $? "a second folder of one name under one parent is refused"
fails folder create --name Orphan --parent 999999
check $? "a folder under a parent that does not exist is refused"
fails folder create --name Both --parent 1 --kind email
check $? "--parent and --kind together are refused"
fails folder create --name Odd --kind shelves
check $? "an unknown kind is refused"
c folder create --name Other --kind email; rc=$?
[ $rc = 0 ] && [ "$(sql "$db" -e "SELECT CONCAT(kind, ':', COALESCE(parent_id, 0)) FROM folder WHERE id = $(cat "$tmp.out")")" = "email:0" ]
check $? "--kind makes a root of that kind"
c folder list; rc=$?
[ $rc = 0 ] && head -n 1 "$tmp.out" | grep -q '^id	parent	kind	workspace	system	name$' &&
    grep -q "^$f2	$f1	marketing	Default	no	Sub$" "$tmp.out" &&
    grep -q '^4	0	landingPageTemplate	Default	yes	Landing Page Templates$' "$tmp.out"
check $? "folder list shows the tree, the roots as system folders"
fails folder delete "$f1"
check $? "a folder that holds a folder is not deleted"
fails folder delete 1
check $? "a root is not deleted"
c folder delete "$f2" && c folder delete "$f1" &&
    [ "$(sql "$db" -e "SELECT COUNT(*) FROM folder WHERE id IN ($f1, $f2)")" = 0 ]
check $? "empty folders are deleted, children first"
fails folder delete "$f1"
check $? "deleting a folder twice is refused"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
