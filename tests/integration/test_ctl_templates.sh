#!/bin/sh
# Integration: mautoctl template|segmentation|snippet, run as a user runs
# them, on a database of their own: what they print, what they store,
# that an invalid template is refused with the parser's reason, and that
# what is used cannot be deleted.  Needs MAUTO_TEST_DB_*
# (tests/harness/mariadb.sh); skips (77) without them.
set -u
db="mauto_ctltpl_$$"
# shellcheck source=tests/integration/ctl_lib.sh
. "$(dirname "$0")/ctl_lib.sh"

sql -e "CREATE DATABASE $db" || { echo "cannot create $db"; exit 99; }
c migrate --dir "$top/db/migrations" || { cat "$tmp.err"; exit 99; }

# ---- segmentations ----------------------------------------------------------
c segmentation create --name Region --segment North --segment South; rc=$?
seg=$(cat "$tmp.out")
[ $rc = 0 ] && expr "$seg" : '[1-9][0-9]*$' >/dev/null &&
    [ "$(sql "$db" -e "SELECT GROUP_CONCAT(CONCAT(position, ':', name) ORDER BY position) FROM segment WHERE segmentation_id = $seg")" = "0:Default,1:North,2:South" ] &&
    [ "$(sql "$db" -e "SELECT status FROM segmentation WHERE id = $seg")" = approved ]
check $? "segmentation create stores Default first, then the segments in order, approved"
c segmentation list
[ $? = 0 ] && head -1 "$tmp.out" | grep -q '^id	status	name	segments$' &&
    grep -q "^$seg	approved	Region	[0-9]*:Default,[0-9]*:North,[0-9]*:South$" "$tmp.out"
check $? "segmentation list shows it with its segments"
fails segmentation create --name Region --segment East && grep -q exists "$tmp.err"
check $? "a second segmentation of one name is refused"
fails segmentation create --name Other --segment A --segment A
check $? "a segment named twice is refused"
fails segmentation create --name Other --segment Default
check $? "a segment named Default is refused (every segmentation has it)"
fails segmentation create --name Other
check $? "a segmentation without segments is refused"

# ---- templates ---------------------------------------------------------------
cat >"$tmp.tpl.html" <<'HTML'
<!DOCTYPE html>
<html><head>
<meta class="mktoString" id="title" mktoName="Title" default="Hi">
<meta class="mktoColor" id="bg" mktoName="Background" default="#ffffff">
</head><body style="background:${bg}">
<div class="mktoText" id="greeting" mktoName="Greeting"><p>${title}</p></div>
<img class="mktoImg" id="logo" mktoName="Logo">
<table class="mktoContainer" id="main">
<tr class="mktoModule" id="one" mktoName="One"><td><div class="mktoSnippet" id="snip" mktoName="Snippet"></div></td></tr>
</table>
</body></html>
HTML
c template create --name "Ctl-Tpl" --folder 3 --file "$tmp.tpl.html" \
    --description "A test template" --dynamic "greeting=Region"; rc=$?
tpl=$(cat "$tmp.out")
[ $rc = 0 ] && expr "$tpl" : '[1-9][0-9]*$' >/dev/null &&
    [ "$(sql "$db" -e "SELECT CONCAT(folder_id, ':', description, ':', LENGTH(content)) FROM email_template WHERE id = $tpl")" = "3:A test template:$(wc -c <"$tmp.tpl.html" | tr -d ' ')" ] &&
    [ "$(sql "$db" -e "SELECT CONCAT(html_id, ':', segmentation_id) FROM email_template_dynamic WHERE template_id = $tpl")" = "greeting:$seg" ]
check $? "template create stores the file, the folder and the dynamic section"
c template show "$tpl"
[ $? = 0 ] && grep -q '^container	main	table$' "$tmp.out" &&
    grep -q '^module	one	One$' "$tmp.out" &&
    grep -q '^section	greeting	Text	Greeting$' "$tmp.out" &&
    grep -q '^section	logo	Image	Logo$' "$tmp.out" &&
    grep -q '^section	snip	Snippet	Snippet	module one$' "$tmp.out" &&
    grep -q '^variable	bg	color	#ffffff$' "$tmp.out" &&
    grep -q "^dynamic	greeting	$seg$" "$tmp.out"
check $? "template show prints the parsed outline"
c template list
[ $? = 0 ] && grep -q "^$tpl	3	.*	Ctl-Tpl$" "$tmp.out"
check $? "template list shows it"
fails template create --name "Ctl-Tpl" --folder 3 --file "$tmp.tpl.html" &&
    grep -q exists "$tmp.err"
check $? "a second template of one name is refused"
fails template create --name "Ctl-Tpl-4" --folder 4 --file "$tmp.tpl.html" &&
    grep -q "not email templates" "$tmp.err"
check $? "a folder of another kind is refused"
fails template create --name "Ctl-Tpl-9" --folder 999999 --file "$tmp.tpl.html" &&
    grep -q "no folder" "$tmp.err"
check $? "a folder that does not exist is refused"
c folder create --name Sub-Templates --parent 3
sub=$(cat "$tmp.out")
c template create --name "Ctl-Tpl-Sub" --folder "$sub" --file "$tmp.tpl.html"
check $? "a template in a folder under the Email Templates root"
fails folder delete "$sub" && grep -q "not empty" "$tmp.err"
check $? "a folder holding an email template cannot be deleted"
fails template create --name "Ctl-Tpl-D" --folder 3 --file "$tmp.tpl.html" \
    --dynamic "logo2=Region" && grep -q "no rich text or image section 'logo2'" "$tmp.err"
check $? "--dynamic naming no section of the template is refused"
fails template create --name "Ctl-Tpl-D" --folder 3 --file "$tmp.tpl.html" \
    --dynamic "snip=Region"
check $? "--dynamic on a snippet section is refused"
fails template create --name "Ctl-Tpl-D" --folder 3 --file "$tmp.tpl.html" \
    --dynamic "greeting=Nowhere" && grep -q "no segmentation named 'Nowhere'" "$tmp.err"
check $? "--dynamic naming no segmentation is refused"
fails template create --name "Ctl-Tpl-D" --folder 3 --file "$tmp.tpl.html" \
    --dynamic "greeting=999999"
check $? "--dynamic with a segmentation id that does not exist is refused"
printf '<html><body><div class="mktoText" id="a">x</div></body></html>' >"$tmp.bad.html"
fails template create --name "Ctl-Bad" --folder 3 --file "$tmp.bad.html" &&
    grep -q "invalid template: Element 'div' with class 'mktoText' is missing attribute 'mktoName'" "$tmp.err"
check $? "an invalid template is refused with the reason"
printf '<html><body><div class="mktoText" id="a" mktoName="A">x</div><script>1</script></body></html>' >"$tmp.bad.html"
fails template create --name "Ctl-Bad" --folder 3 --file "$tmp.bad.html" &&
    grep -q "<script> is not allowed" "$tmp.err"
check $? "a template with a script is refused"
fails template create --name "Ctl-Bad" --folder 3 --file "$tmp.missing.html"
check $? "a file that cannot be read is refused"
[ "$(sql "$db" -e "SELECT COUNT(*) FROM email_template WHERE name LIKE 'Ctl-Bad%' OR name LIKE 'Ctl-Tpl-D%'")" = 0 ]
check $? "nothing is stored for a refused template"

fails segmentation delete "$seg" && grep -q "in use" "$tmp.err"
check $? "a segmentation a template section uses cannot be deleted"
sql "$db" -e "INSERT INTO asset_usage VALUES ('emailTemplate', $tpl, 'email', 1)"
fails template delete "$tpl" && grep -q "in use" "$tmp.err"
check $? "a template an email uses cannot be deleted"
sql "$db" -e "DELETE FROM asset_usage WHERE asset_id = $tpl"
c template delete "$tpl" && [ ! -s "$tmp.out" ] &&
    [ "$(sql "$db" -e "SELECT COUNT(*) FROM email_template_dynamic WHERE template_id = $tpl")" = 0 ]
check $? "template delete removes it and its dynamic sections"
fails template delete "$tpl" && grep -q "no template" "$tmp.err"
check $? "deleting it again: no such template"
c segmentation delete "$seg" &&
    [ "$(sql "$db" -e "SELECT COUNT(*) FROM segment WHERE segmentation_id = $seg")" = 0 ]
check $? "segmentation delete removes it and its segments"

# ---- snippets ----------------------------------------------------------------
printf '<p>Unsubscribe <a href="#">here</a></p>' >"$tmp.snip.html"
c snippet create --name Footer --file "$tmp.snip.html" --text "Unsubscribe here"; rc=$?
snip=$(cat "$tmp.out")
[ $rc = 0 ] && [ "$(sql "$db" -e "SELECT CONCAT(status, ':', text_content, ':', content) FROM snippet WHERE id = $snip")" = 'approved:Unsubscribe here:<p>Unsubscribe <a href="#">here</a></p>' ]
check $? "snippet create stores the HTML and the text, approved"
c snippet list
[ $? = 0 ] && grep -q "^$snip	approved	.*	Footer$" "$tmp.out"
check $? "snippet list shows it"
fails snippet create --name Footer --file "$tmp.snip.html" && grep -q exists "$tmp.err"
check $? "a second snippet of one name is refused"
printf '<p>x</p><SCRIPT>alert(1)</SCRIPT>' >"$tmp.bad.html"
fails snippet create --name Bad --file "$tmp.bad.html" && grep -q "<script> is not allowed" "$tmp.err"
check $? "a snippet with a script is refused"
sql "$db" -e "INSERT INTO asset_usage VALUES ('snippet', $snip, 'email', 1)"
fails snippet delete "$snip" && grep -q "in use" "$tmp.err"
check $? "a snippet an email uses cannot be deleted"
sql "$db" -e "DELETE FROM asset_usage WHERE asset_id = $snip"
c snippet delete "$snip" && [ "$(sql "$db" -e "SELECT COUNT(*) FROM snippet")" = 0 ]
check $? "snippet delete removes it"

# ---- reset keeps nothing of them -----------------------------------------------
c seed-demo
c reset --yes
[ "$(sql "$db" -e "SELECT (SELECT COUNT(*) FROM email_template) + (SELECT COUNT(*) FROM segmentation) + (SELECT COUNT(*) FROM segment) + (SELECT COUNT(*) FROM snippet) + (SELECT COUNT(*) FROM email_template_dynamic)")" = 0 ] &&
    [ "$(sql "$db" -e "SELECT COUNT(*) FROM folder WHERE id = 3")" = 1 ]
check $? "reset empties templates, segmentations and snippets, and keeps the roots"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
