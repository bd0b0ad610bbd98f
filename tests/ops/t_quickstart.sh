#!/usr/bin/env bash
# deploy/quickstart and a port that is taken (MAUTO_PORT), run beside any
# real quickstart (QUICKSTART_VAR is a temporary directory, QUICKSTART_BUILD
# this build directory):
# 1. the port is taken before the start: the error names MAUTO_PORT and
#    the port, and nothing is started;
# 2. the port is taken while the start runs (after the database and mautod
#    are up, before nginx): the same error, and the database and mautod it
#    started are stopped again;
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
