#!/usr/bin/env bash
# deploy/quickstart and a port that is taken (MAUTO_PORT), run beside any
# real quickstart (QUICKSTART_VAR is a temporary directory, QUICKSTART_BUILD
# this build directory):
# 1. the port is taken before the start: the error names MAUTO_PORT and
#    the port, and nothing is started;
# 2. the port is taken while the start runs (after the database and mautod
#    are up, before nginx): the same error, and the database and mautod it
#    started are stopped again;
# 3. a started quickstart: `env` prints only the MAUTO_*= lines, which
#    work with eval; `reset` empties the data, keeps the client and makes
#    the demo set again;
# and README.md names every package that tests/harness/deps.sh installs,
# since the quickstart installs them.
set -u
# shellcheck source=tests/ops/lib.sh
. "$(dirname "$0")/lib.sh"

readme_lists_packages()
{
	local list p bad=0
	list=$(sed -n '/^packages=(/,/^)/p' "$srcdir/tests/harness/deps.sh" |
	    sed -e '1d' -e '$d' | tr -s ' \t' '\n\n' | sed '/^$/d')
	for p in $list; do
		grep -q -- "$p" "$srcdir/README.md" ||
		    { echo "  README.md does not name $p"; bad=1; }
	done
	[ -n "$list" ] && [ "$bad" -eq 0 ]
}
check "README.md names every package of tests/harness/deps.sh" \
    readme_lists_packages

if ! command -v python3 >/dev/null; then
	skip "quickstart with its port taken" "python3 is missing"
	exit 0
fi
if [ "$(id -u)" -ne 0 ] &&
    ! "$srcdir/tests/harness/deps.sh" >/dev/null 2>&1; then
	skip "quickstart with its port taken" "packages are missing and this is not root"
	exit 0
fi

tmp=$(mktemp -d /tmp/mauto-qs.XXXXXX)
var=$tmp/var
listener=""
cleanup()
{
	[ -z "$listener" ] || kill "$listener" 2>/dev/null
	# Whatever a failed check left running, by its pid file.
	QUICKSTART_VAR=$var QUICKSTART_BUILD=$builddir \
	    "$srcdir/deploy/quickstart" stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

# listen PORT [FILE]: a python listener on 127.0.0.1:PORT; with FILE it
# binds only once FILE exists (the path comes through the environment, so
# that the listener's command line does not name $var).
listen()
{
	QS_WAIT_FOR=${2:-} python3 -c '
import os, socket, sys, time
path = os.environ.get("QS_WAIT_FOR")
while path and not os.path.exists(path):
    time.sleep(0.05)
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(8)
open(os.environ.get("QS_READY", "/dev/null"), "w").close()
while True:
    c, _ = s.accept()
    c.close()
' "$1" &
	listener=$!
}

# Processes whose command line names the temporary var directory:
# mariadbd (--defaults-file), mautod (--config), nginx (-p), and the
# systemd-socket-activate in front of mautod.
left_running()
{
	local left
	left=$(pgrep -a -f -- "$var/")
	[ -z "$left" ] || printf '  still running: %s\n' "$left"
	[ -n "$left" ]
}

quickstart()
{
	QUICKSTART_VAR=$var QUICKSTART_BUILD=$builddir MAUTO_PORT=$1 \
	    MAUTO_WORKERS=2 timeout 300 "$srcdir/deploy/quickstart" start \
	    >"$tmp/out" 2>&1
}

names_port()
{
	grep -q "MAUTO_PORT" "$tmp/out" && grep -q "127.0.0.1:$1" "$tmp/out" ||
	    { tail -n 15 "$tmp/out" | sed 's/^/  /'; return 1; }
}

# --- 1. taken before the start ---------------------------------------------------
port=$(harness_free_port)
QS_READY=$tmp/ready1 listen "$port"
harness_wait 10 "the listener" test -e "$tmp/ready1"
check "a taken port fails the start" eval '! quickstart "$port"'
check "the error names MAUTO_PORT and 127.0.0.1:$port" names_port "$port"
check "nothing was started (no database made)" \
    eval '! left_running && [ ! -e "$var/mariadb/data" ]'
kill "$listener" 2>/dev/null
wait "$listener" 2>/dev/null
listener=""

# --- 2. taken while the start runs -------------------------------------------
# The listener binds once mautod's pid file exists, i.e. after the
# database and mautod are started and before nginx is.
QS_READY=$tmp/ready2 listen "$port" "$var/mautod/mautod.pid"
check "a port taken during the start fails it" eval '! quickstart "$port"'
check "the port was taken after mautod started" test -e "$tmp/ready2"
check "the error names MAUTO_PORT and 127.0.0.1:$port" names_port "$port"
check "the database and mautod it started were stopped" \
    grep -q "stopped what it had started: mariadb mautod" "$tmp/out"
check "no mariadbd, mautod or nginx of it is left running" \
    harness_wait 30 "the stack to stop" eval '! left_running'
if left_running >/dev/null; then
	left_running
fi

# --- 3. env and reset on a started quickstart --------------------------------
# A start on a free port, then `env` (only MAUTO_*= lines, usable with
# eval: the credentials get a token), a lead made through the API,
# `reset` (the lead is gone, the client and its secret stay, the demo set
# is made again with new ids, which `env` then prints).
port=$(harness_free_port)
check "the quickstart starts on a free port" quickstart "$port"
qs()
{
	QUICKSTART_VAR=$var QUICKSTART_BUILD=$builddir MAUTO_PORT=$port \
	    timeout 120 "$srcdir/deploy/quickstart" "$@"
}
only_env_lines()
{
	qs env >"$tmp/env" 2>"$tmp/env.err" && [ ! -s "$tmp/env.err" ] &&
	    ! grep -v '^MAUTO_[A-Z_]*=[^ ]*$' "$tmp/env" &&
	    grep -q "^MAUTO_BASE_URL=http://127.0.0.1:$port$" "$tmp/env" &&
	    [ "$(grep -c '^MAUTO_\(CLIENT_ID\|CLIENT_SECRET\|DEMO_PROGRAM_ID\|DEMO_LIST_ID\|DEMO_FORM_ID\)=.' "$tmp/env")" = 5 ]
}
check "quickstart env prints only the MAUTO_*= lines" only_env_lines
check "they are the last lines of start's output" \
    eval '[ "$(tail -n "$(wc -l <"$tmp/env")" "$tmp/out")" = "$(cat "$tmp/env")" ]'
# api PATH [JSON]: a call with the credentials of env; the body in $tmp/body.
api()
{
	local -a body=()
	[ $# -lt 2 ] || body=(-X POST -H 'Content-Type: application/json' --data-binary "$2")
	(
		eval "$(cat "$tmp/env")"
		token=$(harness_token "$MAUTO_BASE_URL" "$MAUTO_CLIENT_ID" \
		    "$MAUTO_CLIENT_SECRET") || exit 1
		curl -sS --max-time 30 -H "Authorization: Bearer $token" \
		    "${body[@]}" "$MAUTO_BASE_URL$1"
	) >"$tmp/body"
}
check "a lead is made with the credentials of env" eval \
    'api /rest/v1/leads.json "{\"input\": [{\"email\": \"qs@example.com\"}]}" &&
    grep -q "\"status\":\"created\"" "$tmp/body"'
cp "$tmp/env" "$tmp/env.before"
check "quickstart reset succeeds" eval 'qs reset >"$tmp/reset" 2>&1 ||
    { tail -n 15 "$tmp/reset" | sed "s/^/  /"; false; }'
check "the lead is gone" eval \
    'api "/rest/v1/leads.json?filterType=email&filterValues=qs@example.com" &&
    grep -q "\"success\":true" "$tmp/body" && ! grep -q "qs@example.com" "$tmp/body"'
check "the client and its secret stay" eval \
    'qs env >"$tmp/env" &&
    [ "$(grep "^MAUTO_CLIENT" "$tmp/env")" = "$(grep "^MAUTO_CLIENT" "$tmp/env.before")" ]'
check "the demo set is made again, with new ids" eval \
    '! cmp -s "$tmp/env" "$tmp/env.before" &&
    [ "$(tail -n "$(wc -l <"$tmp/env")" "$tmp/reset")" = "$(cat "$tmp/env")" ]'
demo_program_exists()
{
	local id
	id=$(sed -n 's/^MAUTO_DEMO_PROGRAM_ID=//p' "$tmp/env")
	[ "$(harness_sql "$var/mariadb/env" "SELECT name FROM mauto.program WHERE id = $id")" = Demo-Webinar ]
}
check "the new demo program id is the Demo-Webinar program" demo_program_exists
check "the credentials still get a token and the API answers" eval \
    'api "/rest/v1/leads.json?filterType=email&filterValues=qs@example.com" &&
    grep -q "\"success\":true" "$tmp/body"'
