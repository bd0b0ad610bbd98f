#!/usr/bin/env bash
# name: Send Sample Email through an SMTP relay: delivered with the lead's values, kept without a relay, refused, bad address, missing email
# docs/behaviour.md §8 and the top of src/api/api_emails.c.  Stacks of
# its own whose mautod sends to a throwaway SMTP server
# (tests/harness/smtpd.sh): one that accepts, one that refuses every
# recipient (550), and one with no relay configured.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ -z "${MAUTO_TEST_DB_ENV:-}" ]; then
	echo "needs a database server of this run (MAUTO_TEST_DB_ENV)"
	exit 77
fi
/usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null ||
    { echo "python3-aiosmtpd is not installed"; exit 77; }
smtpd="$HARNESS_DIR/smtpd.sh"
work=$(mktemp -d)
stacks=()
# shellcheck disable=SC2317  # run by the trap
cleanup()
{
	local s
	for s in "${stacks[@]}"; do harness_stack_stop "$s"; done
	for s in "$work"/relay-*/; do [ -d "$s" ] && "$smtpd" stop "$s"; done
	rm -rf "$work"
}
trap cleanup EXIT
failed=0

# stack NAME [NAME=VALUE...]: a stack of its own; sets base, token, envf.
stack()
{
	local dir=$work/$1
	shift
	stacks+=("$dir")
	harness_stack_start "$dir" "$MAUTO_TEST_DB_ENV" \
	    MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0 \
	    MAUTO_SMTP_FROM=bounce@mauto.test "$@"
	# shellcheck disable=SC1091
	. "$dir/stack.env"
	base=$MAUTO_TEST_BASE_URL
	envf=$dir/env
	token=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")
}

# relay MODE: starts an SMTP server in $work/relay-MODE; sets port, mail.
relay()
{
	mail=$work/relay-$1
	port=$("$smtpd" start "$mail" "$1")
}

ctl() { harness_ctl "$envf" "$@"; }

# sql QUERY: QUERY in the stack's database.
sql()
{
	local name
	# shellcheck disable=SC1090
	name=$(. "$envf"; printf '%s' "$MAUTO_DB_NAME")
	harness_sql "$envf" "USE \`$name\`; $1"
}

# form METHOD PATH [curl args...]: a form-style call; body in $work/out.
form()
{
	local m=$1 p=$2
	shift 2
	curl -sS --max-time 30 -X "$m" -H "Authorization: Bearer $token" \
	    "$@" "$base$p" >"$work/out"
}

# expect NAME PYEXPR: checks PYEXPR over d, the last answer.
expect()
{
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$work/out" "$2"; then
		echo "ok: $1"
	else
		echo "FAIL: $1"
		cat "$work/out"
		echo
		failed=1
	fi
}

# check NAME STATUS
check()
{
	if [ "$2" = 0 ]; then echo "ok: $1"; else echo "FAIL: $1"; failed=1; fi
}

cat >"$work/tpl.html" <<'HTML'
<html><body><div class="mktoText" id="intro" mktoName="Intro">Hi {{lead.First Name}}, welcome.</div><p title="{{lead.firstname:default=you}}">Dear {{lead.Last Name:default=Guest}}</p></body></html>
HTML

# setup: a template, an email made from it and a lead Ada; sets email, lead.
setup()
{
	local tpl folder
	tpl=$(ctl template create --name "ETPL-sample" --folder 3 --file "$work/tpl.html")
	folder=$(ctl folder create --name "EM-sample" --parent 2)
	form POST /rest/asset/v1/emails.json --data-urlencode "name=sample" \
	    --data-urlencode "folder={\"id\":$folder,\"type\":\"Folder\"}" \
	    --data-urlencode "template=$tpl" \
	    --data-urlencode "subject=Your sample, {{lead.First Name:default=friend}}" \
	    --data-urlencode "fromName=Ann for {{lead.firstName}}" --data-urlencode "fromEmail=ann@example.com" \
	    --data-urlencode "replyEmail=reply@example.com"
	email=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"][0]["id"])' "$work/out")
	curl -sS --max-time 30 -X POST -H "Authorization: Bearer $token" \
	    -H 'Content-Type: application/json' \
	    --data-binary '{"action":"createOnly","input":[{"email":"ada@example.org","firstName":"Ada"}]}' \
	    "$base/rest/v1/leads.json" >"$work/out"
	lead=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"][0]["id"])' "$work/out")
}

# send [curl args...]: Send Sample Email of $email.
send() { form POST "/rest/asset/v1/email/$email/sendSample.json" "$@"; }

# ---- a relay that accepts -------------------------------------------------
relay accept
stack accept "MAUTO_SMTP_URL=smtp://127.0.0.1:$port"
setup
send --data-urlencode "emailAddress=tester@example.net" --data-urlencode "leadId=$lead"
expect "a sample is sent and answers [{id}] without a warning" \
    "d['success'] and d['result'] == [{'id': $email}] and not d.get('warnings')"
grep -qx "to=tester@example.net" "$mail/1.env" && [ "$(grep -c '^to=' "$mail/1.env")" = 1 ] &&
    grep -qx "from=bounce@mauto.test" "$mail/1.env"
check "the relay got it for the one recipient, from smtp_from" $?
/usr/bin/python3 - "$mail/1.eml" <<'PY'
import email, email.policy, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
assert m["Subject"] == "Your sample, Ada", m["Subject"]
assert m["To"].addresses[0].addr_spec == "tester@example.net"
assert m["From"].addresses[0].addr_spec == "ann@example.com"
assert m["From"].addresses[0].display_name == "Ann for Ada"
assert m["Reply-To"].addresses[0].addr_spec == "reply@example.com"
parts = [p.get_content_type() for p in m.iter_parts()]
assert parts == ["text/plain", "text/html"], parts
assert "Hi Ada, welcome." in m.get_body(("plain",)).get_content()
html = m.get_body(("html",)).get_content()
assert "Hi Ada, welcome." in html and "{{lead." not in html, html
assert 'title="Ada"' in html and "Dear Guest" in html, html
PY
check "the message has the email's subject, From, Reply-To and the lead's values (or the tokens' defaults) in the subject, the From name and both parts" $?
ctl outbox list >"$work/list"
grep -q "sent" "$work/list" && grep -q "sample" "$work/list" && grep -q "tester@example.net" "$work/list"
check "outbox list shows the sample sent ($(tr '\n' ' ' <"$work/list"))" $?
[ "$(sql "SELECT kind, email_id, lead_id, status FROM outbox")" = \
    "$(printf 'sample\t%s\t%s\tsent' "$email" "$lead")" ]
check "the outbox row is kind sample with the email and the lead" $?

send --data-urlencode "emailAddress=tester@example.net" --data-urlencode "textOnly=true"
expect "textOnly without a lead is sent" "d['success'] and d['result'] == [{'id': $email}]"
/usr/bin/python3 - "$mail/2.eml" <<'PY'
import email, email.policy, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
assert m.get_content_type() == "text/plain", m.get_content_type()
assert "Hi , welcome." in m.get_content(), m.get_content()
assert "Dear Guest" in m.get_content(), m.get_content()
assert m["Subject"] == "Your sample, friend", m["Subject"]
assert m["From"].addresses[0].display_name.strip() == "Ann for", m["From"]
PY
check "textOnly sends the text part only; without leadId the tokens take their defaults, else nothing" $?

send --data-urlencode "emailAddress=not an address"
expect "a bad address is 1001" "not d['success'] and d['errors'][0]['code'] == '1001'"
send
expect "no address is 1002" "not d['success'] and d['errors'][0]['code'] == '1002'"
form POST "/rest/asset/v1/email/999999/sendSample.json" --data-urlencode "emailAddress=tester@example.net"
expect "a missing email is 702" "not d['success'] and d['errors'][0]['code'] == '702'"
send --data-urlencode "emailAddress=tester@example.net" --data-urlencode "leadId=999999"
expect "a missing lead is 1004" "not d['success'] and d['errors'][0]['code'] == '1004'"
[ ! -e "$mail/3.eml" ] && [ "$(sql "SELECT COUNT(*) FROM outbox")" = 2 ]
check "refused requests send and record nothing" $?

# ---- a relay that refuses -------------------------------------------------
relay refuse
stack refuse "MAUTO_SMTP_URL=smtp://127.0.0.1:$port"
setup
send --data-urlencode "emailAddress=nobody@example.net"
expect "a 550 refusal is 709 with the relay's reply" \
    "not d['success'] and d['errors'][0]['code'] == '709' and d['errors'][0]['message'].startswith('Sample email not sent: the SMTP relay refused it: 550 5.1.1')"
[ "$(sql "SELECT kind, status, smtp_code FROM outbox")" = "$(printf 'sample\tfailed\t550')" ]
check "the refused sample is failed in the outbox" $?

# ---- no relay -------------------------------------------------------------
stack norelay
setup
send --data-urlencode "emailAddress=tester@example.net"
expect "without a relay the sample is kept, with the warning" \
    "d['success'] and d['result'] == [{'id': $email}] and d['warnings'] == ['Sample email kept in the outbox: no SMTP relay is configured (smtp_url)']"
[ "$(sql "SELECT kind, status, rcpt_to FROM outbox")" = "$(printf 'sample\tkept\ttester@example.net')" ]
check "the outbox keeps it" $?

exit $failed
