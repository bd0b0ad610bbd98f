#!/bin/sh
# Integration: sends through the outbox (src/mail/) to a real SMTP server
# on loopback (tests/harness/smtpd.sh, aiosmtpd), driven by mautoctl
# outbox send-test: the message arrives with its headers and both parts,
# a non-ASCII subject encoded, no header injected through the subject;
# STARTTLS with AUTH; a 550 refusal and a relay that does not answer are
# recorded as failed with the reason; no relay keeps the message; outbox
# list and show.  Needs MAUTO_TEST_DB_* (tests/harness/mariadb.sh) and
# python3-aiosmtpd; skips (77) without them.
set -u
db="mauto_outbox_$$"
# shellcheck source=tests/integration/ctl_lib.sh
. "$(dirname "$0")/ctl_lib.sh"
smtpd="$top/tests/harness/smtpd.sh"
/usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null ||
    { echo "SKIP: python3-aiosmtpd is not installed"; exit 77; }
mail=$(mktemp -d)
trap 'for d in "$mail"/*/; do "$smtpd" stop "$d"; done; cleanup; rm -rf "$mail"' EXIT

sql -e "CREATE DATABASE $db" || { echo "cannot create $db"; exit 99; }
c migrate --dir "$top/db/migrations" || { cat "$tmp.err"; exit 99; }

# relay MODE: starts a server in $mail/MODE, sets $port and $dir.
relay() {
	dir="$mail/$1"
	port=$("$smtpd" start "$dir" "$1") || { echo "smtpd $1 did not start"; exit 99; }
}
# out KEY: the value of KEY= in mautoctl's output.
out() { sed -n "s/^$1=//p" "$tmp.out"; }

# ---- no relay ---------------------------------------------------------------
c outbox send-test --to ada@example.org; rc=$?
[ $rc = 1 ] && [ "$(out status)" = kept ] && grep -q "no relay configured" "$tmp.err"
check $? "no relay: the message is kept in the outbox and mautoctl says so"
kept=$(out id)
[ "$(sql "$db" -e "SELECT status, rcpt_to, finished_at IS NOT NULL FROM outbox WHERE id = $kept")" = \
    "$(printf 'kept\tada@example.org\t1')" ]
check $? "the kept row is final"

# ---- delivered --------------------------------------------------------------
relay accept
subject='Grüße aus Köln – 東京 ✓'
MAUTO_SMTP_URL="smtp://127.0.0.1:$port" MAUTO_SMTP_FROM=bounce@mauto.test \
    c outbox send-test --to ada@example.org --subject "$subject" --from news@mauto.test; rc=$?
[ $rc = 0 ] && [ "$(out status)" = sent ] && out reply | grep -q "^250 2.0.0 Ok: queued as test1"
check $? "a send to a relay is sent, with the relay's reply ($(cat "$tmp.out" "$tmp.err" | tr '\n' ' '))"
sent=$(out id)
grep -qx "from=bounce@mauto.test" "$dir/1.env" && grep -qx "to=ada@example.org" "$dir/1.env" &&
    [ "$(grep -c '^to=' "$dir/1.env")" = 1 ]
check $? "the envelope is smtp_from to the one recipient"
/usr/bin/python3 - "$dir/1.eml" "$subject" <<'PY'
import email, email.policy, sys
raw = open(sys.argv[1], "rb").read()
m = email.message_from_bytes(raw, policy=email.policy.default)
assert m["Subject"] == sys.argv[2], m["Subject"]
assert raw.count(b"\nSubject: =?UTF-8?B?") == 1
assert m["From"].addresses[0].addr_spec == "news@mauto.test"
assert m["From"].addresses[0].display_name == "mauto"
assert m["To"].addresses[0].addr_spec == "ada@example.org"
assert m["Date"] and m["Message-ID"].endswith("@mauto.test>")
assert m["MIME-Version"] == "1.0"
assert m.get_content_type() == "multipart/alternative"
parts = [p.get_content_type() for p in m.iter_parts()]
assert parts == ["text/plain", "text/html"], parts
assert "send-test" in m.get_body(("plain",)).get_content()
assert "<b>mautoctl outbox send-test</b>" in m.get_body(("html",)).get_content()
assert max(len(l) for l in raw.split(b"\r\n")) <= 76
PY
check $? "the message arrives with its headers, an encoded subject and both parts"
c outbox show "$sent"
/usr/bin/python3 - "$tmp.out" "$dir/1.eml" <<'PY'
import sys
shown = open(sys.argv[1], "rb").read()
head, _, msg = shown.partition(b"\n\n")
assert b"X-Mauto-Outbox-Status: sent" in head, head
assert msg == open(sys.argv[2], "rb").read()
PY
check $? "outbox show prints the status and the message exactly as the relay got it"

inj=$(printf 'Hi\r\nBcc: evil@example.net\r\n\r\nbody')
MAUTO_SMTP_URL="smtp://127.0.0.1:$port" c outbox send-test --to ada@example.org --subject "$inj"
[ $? = 0 ] && ! grep -qi "^bcc:" "$dir/2.eml" && [ "$(grep -c '^to=' "$dir/2.env")" = 1 ] &&
    grep -q "^Subject: Hi  Bcc: evil@example.net    body" "$dir/2.eml"
check $? "CR and LF in the subject add no header and no recipient"

MAUTO_SMTP_URL="smtp://127.0.0.1:$port" c outbox send-test --to "$(printf 'a@b.c\r\nRCPT TO:<x@y.z>')"
[ $? = 1 ] && grep -q "bad to" "$tmp.err" && [ ! -e "$dir/3.eml" ]
check $? "a recipient with a line break is refused before anything is recorded or sent"

# ---- STARTTLS and AUTH ------------------------------------------------------
relay tls
tls() {
	MAUTO_SMTP_URL="smtp://127.0.0.1:$port" MAUTO_SMTP_USER=mauto \
	    MAUTO_SMTP_PASSWORD=s3cret-pw c outbox send-test --to ada@example.org "$@"
}
MAUTO_SMTP_STARTTLS=require MAUTO_SMTP_CA_FILE="$dir/cert.pem" tls; rc=$?
[ $rc = 0 ] && grep -qx "tls=1" "$dir/1.env" && grep -qx "auth=mauto" "$dir/1.env"
check $? "STARTTLS (require, the relay's CA) and AUTH deliver ($(cat "$tmp.err"))"
MAUTO_SMTP_STARTTLS=require tls; rc=$?
[ $rc = 1 ] && [ "$(out status)" = failed ] && [ ! -e "$dir/2.eml" ]
check $? "a certificate the system does not trust fails the send ($(out reply))"
MAUTO_SMTP_STARTTLS=none tls; rc=$?
[ $rc = 1 ] && [ "$(out status)" = failed ] && out reply | grep -q "^530"
check $? "without STARTTLS the relay refuses, and its reply is recorded ($(out reply))"

# ---- refused and unreachable ------------------------------------------------
relay refuse
MAUTO_SMTP_URL="smtp://127.0.0.1:$port" c outbox send-test --to nobody@example.org; rc=$?
id=$(out id)
[ $rc = 1 ] && grep -q "refused it" "$tmp.err" &&
    [ "$(sql "$db" -e "SELECT status, smtp_code, smtp_reply LIKE '550 5.1.1%', finished_at IS NOT NULL FROM outbox WHERE id = $id")" = \
    "$(printf 'failed\t550\t1\t1')" ]
check $? "a 550 refusal is recorded as failed with the relay's reply"

relay hang
MAUTO_SMTP_URL="smtp://127.0.0.1:$port" MAUTO_SMTP_TIMEOUT=1 c outbox send-test --to slow@example.org; rc=$?
id=$(out id)
[ $rc = 1 ] && grep -q "could not be reached" "$tmp.err" &&
    [ "$(sql "$db" -e "SELECT status, smtp_reply LIKE 'timed out:%' FROM outbox WHERE id = $id")" = \
    "$(printf 'failed\t1')" ]
check $? "a relay that does not answer in smtp_timeout fails the send as timed out"
"$smtpd" stop "$dir"
MAUTO_SMTP_URL="smtp://127.0.0.1:$port" c outbox send-test --to a@example.org; rc=$?
[ $rc = 1 ] && [ "$(out status)" = failed ]
check $? "a relay that is not there fails the send ($(out reply))"

# ---- list and show ----------------------------------------------------------
c outbox list
[ $? = 0 ] && [ "$(head -1 "$tmp.out")" = "$(printf 'id\ttime\tto\tsubject\tstatus')" ] &&
    [ "$(sed -n 2p "$tmp.out" | cut -f3,5)" = "$(printf 'a@example.org\tfailed')" ] &&
    grep -q "$(printf '\t%s\tsent$' "$subject")" "$tmp.out" &&
    grep -q "$(printf '\tHi  Bcc: evil@example.net    body\tsent$')" "$tmp.out"
check $? "outbox list shows id, time, to, subject and status, newest first"
c outbox list --limit 1
[ "$(wc -l <"$tmp.out")" = 2 ]
check $? "outbox list --limit"
fails outbox show 999999 && grep -q "no outbox message 999999" "$tmp.err"
check $? "outbox show of an unknown id says so"
fails outbox send-test
check $? "send-test without --to prints the usage"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
