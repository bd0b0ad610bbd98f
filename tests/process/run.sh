#!/usr/bin/env bash
# Black-box test of mautod's process model (man/mautod.8): FastCGI straight
# to the socket with cgi-fcgi, no web server.
#
#   MAUTOD=./mautod MAUTOCTL=./mautoctl tests/process/run.sh
#
# Needs a database (tests/harness/mariadb.sh exports MAUTO_TEST_DB_SOCKET,
# _NAME, _USER, _PASSWORD); without one it exits 77 (skip).  Each check
# prints one line; the last line is "N passed, N failed".  The exit status
# is 0 when every check passed, 1 otherwise.
#
# Every request is GET /identity/oauth/token without parameters: it needs
# no token and is not rate-limited, and whatever the answer (an OAuth error
# today), a healthy worker writes a complete response with a Content-Type
# header and a JSON body whose length matches Content-Length.
set -u

MAUTOD=${MAUTOD:-./mautod}
MAUTOCTL=${MAUTOCTL:-./mautoctl}
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
WORKERS=2
TIMEOUT=20		# seconds any one wait may take

skip()
{
	echo "SKIP: $*"
	exit 77
}

[ -n "${MAUTO_TEST_DB_SOCKET:-}" ] ||
    skip "no database (MAUTO_TEST_DB_SOCKET is unset)"
for tool in cgi-fcgi systemd-socket-activate timeout; do
	command -v "$tool" >/dev/null || skip "$tool is missing"
done
[ -x "$MAUTOD" ] || skip "no mautod at $MAUTOD"

# The daemon and mautoctl read the database settings from MAUTO_DB_*.
export MAUTO_DB_SOCKET=$MAUTO_TEST_DB_SOCKET
export MAUTO_DB_NAME=${MAUTO_TEST_DB_NAME:-mauto_test}
export MAUTO_DB_USER=${MAUTO_TEST_DB_USER:-mauto}
export MAUTO_DB_PASSWORD=${MAUTO_TEST_DB_PASSWORD:-}
unset MAUTO_WORKERS MAUTO_LISTEN MAUTO_MAX_REQUESTS
# The checks below count workers as the master's children: the export
# runners and the activity pruner are off, except in their own sections
# at the end.
export MAUTO_EXPORT_RUNNER=off
export MAUTO_ACTIVITY_PRUNER=off
export MAUTO_CAMPAIGN_RUNNERS=0

tmp=$(mktemp -d /tmp/mauto-process.XXXXXX)
conf=$tmp/mautod.conf
echo "# empty: settings come from the environment and flags" >"$conf"
declare -a started=()
passed=0
failed=0

cleanup()
{
	local pid
	for pid in "${started[@]}"; do
		kill -KILL "$pid" 2>/dev/null
		pkill -KILL -P "$pid" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

check()
{
	local name=$1
	shift
	if "$@"; then
		echo "ok - $name"
		passed=$((passed + 1))
	else
		echo "FAIL - $name"
		failed=$((failed + 1))
	fi
}

# request SOCKET [extra cgi-fcgi env...]: one FastCGI request; prints the
# raw response.  stdin is the request body.
request()
{
	local sock=$1
	shift
	env -i PATH="$PATH" REQUEST_METHOD=GET PATH_INFO=/identity/oauth/token \
	    REQUEST_URI=/identity/oauth/token QUERY_STRING= CONTENT_LENGTH=0 \
	    SCRIPT_NAME= SERVER_PROTOCOL=HTTP/1.1 GATEWAY_INTERFACE=CGI/1.1 \
	    REMOTE_ADDR=127.0.0.1 "$@" \
	    timeout "$TIMEOUT" cgi-fcgi -bind -connect "$sock" 2>/dev/null
}

# complete RESPONSE: headers with a Content-Type, a blank line, and a JSON
# body of exactly Content-Length bytes when that header is present.
complete()
{
	local resp=$1 head body len
	case $resp in
	*$'\r\n\r\n'*) head=${resp%%$'\r\n\r\n'*}; body=${resp#*$'\r\n\r\n'} ;;
	*$'\n\n'*) head=${resp%%$'\n\n'*}; body=${resp#*$'\n\n'} ;;
	*) return 1 ;;
	esac
	grep -qi '^content-type:' <<<"$head" || return 1
	case $body in
	'{'*'}'|'{'*'}'$'\n') ;;
	*) return 1 ;;
	esac
	len=$(grep -i '^content-length:' <<<"$head" | tr -dc '0-9')
	[ -z "$len" ] || [ "$(printf '%s' "$body" | wc -c)" -eq "$len" ]
}

answers()
{
	local out
	[ -S "$1" ] || return 1
	out=$(request "$1" </dev/null) && complete "$out"
}

# wait_for SECONDS COMMAND...: true once COMMAND succeeds.
wait_for()
{
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.1
	done
}

workers_of()
{
	pgrep -P "$1" | sort
}

count_is()
{
	[ "$(workers_of "$1" | wc -l)" -eq "$2" ]
}

# start_unix NAME [flags...]: mautod on unix:$tmp/NAME.sock; sets $master.
start_unix()
{
	local name=$1
	shift
	"$MAUTOD" --config "$conf" --listen "unix:$tmp/$name.sock" "$@" \
	    </dev/null >>"$tmp/$name.log" 2>&1 &
	master=$!
	started+=("$master")
}

# stop PID: SIGTERM, then the exit status (or 255 after TIMEOUT).
stop()
{
	local pid=$1 i
	kill -TERM "$pid" 2>/dev/null
	for ((i = 0; i < TIMEOUT * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && return 255
	wait "$pid"
}

# Request loop in the background until $tmp/stop-NAME exists; the result
# "ok bad" lands in $tmp/loop-NAME.
loop_start()
{
	local name=$1 sock=$2
	rm -f "$tmp/stop-$name" "$tmp/loop-$name"
	(
		ok=0 bad=0
		until [ -e "$tmp/stop-$name" ]; do
			out=$(request "$sock" </dev/null)
			if complete "$out"; then
				ok=$((ok + 1))
			else
				bad=$((bad + 1))
				printf '%s\n---\n' "$out" >>"$tmp/bad-$name"
			fi
		done
		echo "$ok $bad" >"$tmp/loop-$name"
	) &
}

loop_stop()
{
	touch "$tmp/stop-$1"
	wait_for "$TIMEOUT" test -s "$tmp/loop-$1"
	cat "$tmp/loop-$1"
}

no_failures()
{
	local ok bad
	read -r ok bad <<<"$1"
	echo "  requests: $ok complete, $bad broken"
	[ "${bad:-1}" -eq 0 ] && [ "${ok:-0}" -gt 0 ]
}

disjoint()
{
	[ -z "$(comm -12 <(echo "$1") <(echo "$2"))" ]
}

# The schema must exist: workers prepare every statement at start.
if [ -x "$MAUTOCTL" ]; then
	"$MAUTOCTL" --config "$conf" migrate --dir "$srcdir/db/migrations" \
	    >"$tmp/migrate.log" 2>&1 ||
	    { cat "$tmp/migrate.log"; skip "cannot migrate the test database"; }
fi

# --- listen unix:, worker count, respawn, SIGHUP -------------------------
sock=$tmp/u.sock
start_unix u --workers "$WORKERS"
m=$master
check "--listen unix: serves requests" wait_for "$TIMEOUT" answers "$sock"
check "socket file has mode 0660" \
    test "$(stat -c %a "$sock" 2>/dev/null)" = 660
check "$WORKERS workers run" wait_for "$TIMEOUT" count_is "$m" "$WORKERS"

victim=$(workers_of "$m" | head -n 1)
kill -KILL "$victim" 2>/dev/null
respawned()
{
	count_is "$m" "$WORKERS" && ! workers_of "$m" | grep -qx "$victim"
}
check "a killed worker is respawned" wait_for "$TIMEOUT" respawned
check "the unexpected death is logged" \
    grep -q "worker $victim died unexpectedly: killed by signal 9" "$tmp/u.log"
check "requests work after the respawn" wait_for "$TIMEOUT" answers "$sock"

old=$(workers_of "$m")
loop_start hup "$sock"
loop_start hup2 "$sock"
sleep 0.5
kill -HUP "$m"
replaced()
{
	local now
	now=$(workers_of "$m")
	count_is "$m" "$WORKERS" && disjoint "$old" "$now" &&
	    grep -q "reload done" "$tmp/u.log"
}
check "SIGHUP replaces every worker" wait_for "$TIMEOUT" replaced
sleep 0.5
r1=$(loop_stop hup)
r2=$(loop_stop hup2)
check "no request failed during the SIGHUP restart" no_failures "$r1"
check "no request failed in a second concurrent loop" no_failures "$r2"

# --- SIGTERM drains an in-flight request ----------------------------------
# The body is held back until the test lets it go, and SIGTERM comes once a
# worker has accepted the connection (it holds one more descriptor): the
# worker is inside the request, reading the body, whatever the machine's
# speed; it must finish and write the response.
slow=$tmp/slow.out
fds_of_workers()
{
	local w n=0
	for w in $(workers_of "$m"); do
		n=$((n + $(find "/proc/$w/fd" -mindepth 1 2>/dev/null | wc -l)))
	done
	echo "$n"
}
accepted()
{
	[ "$(fds_of_workers)" -gt "$fds0" ]
}
fds0=$(fds_of_workers)
mkfifo "$tmp/slow.body"
( read -r _ <"$tmp/slow.body"; printf 'grant_type=none' ) |
    request "$sock" REQUEST_METHOD=POST CONTENT_LENGTH=15 \
    CONTENT_TYPE=application/x-www-form-urlencoded >"$slow" &
slowpid=$!
check "a worker accepts the request whose body is held back" \
    wait_for "$TIMEOUT" accepted
kill -TERM "$m"
sleep 0.6
check "the master waits while a request is in flight" kill -0 "$m"
echo go >"$tmp/slow.body"
wait "$slowpid"
check "the in-flight request completes after SIGTERM" complete "$(cat "$slow")"
stop "$m"
rc=$?
check "exit status 0 after SIGTERM (got $rc)" test "$rc" -eq 0
check "no worker is left behind" test -z "$(workers_of "$m")"
check "the socket file is removed at exit" test ! -e "$sock"

# --- socket activation (LISTEN_FDS) ---------------------------------------
sock=$tmp/sa.sock
declare -a setenv=()
for name in $(compgen -e | grep -E '^(MAUTO_|ASAN_OPTIONS$|UBSAN_OPTIONS$|LSAN_OPTIONS$)'); do
	setenv+=("-E" "$name")
done
systemd-socket-activate -l "$sock" "${setenv[@]}" -- \
    "$MAUTOD" --config "$conf" --workers "$WORKERS" \
    </dev/null >>"$tmp/sa.log" 2>&1 &
m=$!
started+=("$m")
check "socket activation (LISTEN_FDS) serves requests" \
    wait_for "$TIMEOUT" answers "$sock"
check "the inherited socket (fd 3) is used" \
    grep -q "socket inherited on fd 3" "$tmp/sa.log"
check "$WORKERS workers run under socket activation" \
    wait_for "$TIMEOUT" count_is "$m" "$WORKERS"
stop "$m"
rc=$?
check "exit status 0 after SIGTERM under socket activation (got $rc)" \
    test "$rc" -eq 0

# --- a listening socket on fd 0 --------------------------------------------
if command -v python3 >/dev/null; then
	sock=$tmp/fd0.sock
	python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(64)
os.dup2(s.fileno(), 0)
os.execv(sys.argv[2], sys.argv[2:])
' "$sock" "$MAUTOD" --config "$conf" --workers 1 >>"$tmp/fd0.log" 2>&1 &
	m=$!
	started+=("$m")
	check "a listening socket on fd 0 is served" \
	    wait_for "$TIMEOUT" answers "$sock"
	check "fd 0 is used" grep -q "socket inherited on fd 0" "$tmp/fd0.log"
	stop "$m"
	check "exit status 0 after SIGTERM with fd 0" test "$?" -eq 0
fi

# --- a body left unsent does not hold the worker ---------------------------
# The web server may forward a body as the client sends it (Apache does):
# a request refused before its body is read (here 413, a body over the
# limit) must get its response and free the worker although the rest of
# the body never comes.  The client sends the parameters, no body, and
# keeps the connection open while it waits for FCGI_END_REQUEST.
if command -v python3 >/dev/null; then
	sock=$tmp/b.sock
	start_unix b --workers 1
	m=$master
	wait_for "$TIMEOUT" answers "$sock"
	held()
	{
		python3 - "$sock" "$TIMEOUT" <<'PY'
import socket, struct, sys

def rec(t, body=b""):
    return struct.pack(">BBHHBx", 1, t, 1, len(body), 0) + body

def pair(k, v):
    return bytes([len(k), len(v)]) + k + v

params = b"".join(pair(k.encode(), v.encode()) for k, v in [
    ("REQUEST_METHOD", "POST"), ("PATH_INFO", "/identity/oauth/token"),
    ("REQUEST_URI", "/identity/oauth/token"), ("QUERY_STRING", ""),
    ("CONTENT_LENGTH", "1000000000000"),
    ("CONTENT_TYPE", "application/x-www-form-urlencoded"),
    ("SCRIPT_NAME", ""), ("SERVER_PROTOCOL", "HTTP/1.1"),
    ("GATEWAY_INTERFACE", "CGI/1.1"), ("REMOTE_ADDR", "127.0.0.1")])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(float(sys.argv[2]))
s.connect(sys.argv[1])
s.sendall(rec(1, struct.pack(">HB5x", 1, 0)) + rec(4, params) + rec(4))
data, out = b"", b""
try:
    while True:
        while len(data) >= 8:
            _, t, _, n, pad = struct.unpack(">BBHHB", data[:7])
            if len(data) < 8 + n + pad:
                break
            if t == 6:
                out += data[8:8 + n]
            if t == 3:
                ok = b"Status: 413" in out
                print("ended", "413" if ok else out[:80])
                sys.exit(0 if ok else 1)
            data = data[8 + n + pad:]
        chunk = s.recv(65536)
        if not chunk:
            print("closed without FCGI_END_REQUEST")
            sys.exit(1)
        data += chunk
except socket.timeout:
    print("no FCGI_END_REQUEST while the body was held back")
    sys.exit(1)
PY
	}
	check "a 413 is answered while the rest of its body never comes" held
	check "the one worker serves the next request" \
	    wait_for "$TIMEOUT" answers "$sock"
	stop "$m"
fi

# --- an idle kept connection does not hold the worker ----------------------
# A web server keeps connections (FCGI_KEEP_CONN) and may keep more than
# the host has workers ready.  The one worker has served a request on a
# connection the client keeps open and idle: a request on a new
# connection must still be served (the idle kept one is given up).
if command -v python3 >/dev/null; then
	sock=$tmp/k.sock
	start_unix k --workers 1
	m=$master
	wait_for "$TIMEOUT" answers "$sock"
	python3 - "$sock" "$TIMEOUT" "$tmp/k.held" <<'PY' &
import os, socket, struct, sys, time

def rec(t, body=b""):
    return struct.pack(">BBHHBx", 1, t, 1, len(body), 0) + body

def pair(k, v):
    return bytes([len(k), len(v)]) + k + v

params = b"".join(pair(k.encode(), v.encode()) for k, v in [
    ("REQUEST_METHOD", "GET"), ("PATH_INFO", "/healthz"),
    ("REQUEST_URI", "/healthz"), ("QUERY_STRING", ""),
    ("CONTENT_LENGTH", ""), ("SCRIPT_NAME", ""),
    ("SERVER_PROTOCOL", "HTTP/1.1"), ("GATEWAY_INTERFACE", "CGI/1.1"),
    ("REMOTE_ADDR", "127.0.0.1")])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(float(sys.argv[2]))
s.connect(sys.argv[1])
# FCGI_BEGIN_REQUEST, role responder, flags FCGI_KEEP_CONN.
s.sendall(rec(1, struct.pack(">HB5x", 1, 1)) + rec(4, params) + rec(4) +
          rec(5))
data = b""
while True:
    chunk = s.recv(65536)
    if not chunk:
        sys.exit(1)
    data += chunk
    done = False
    while len(data) >= 8:
        _, t, _, n, pad = struct.unpack(">BBHHB", data[:7])
        if len(data) < 8 + n + pad:
            break
        if t == 3:
            done = True
        data = data[8 + n + pad:]
    if done:
        break
open(sys.argv[3], "w").close()
# Hold the connection, idle, until the worker gives it up or a while.
s.settimeout(float(sys.argv[2]) * 2)
try:
    s.recv(1)
except socket.timeout:
    pass
PY
	keeper=$!
	check "a request on a kept connection is served" \
	    wait_for "$TIMEOUT" test -e "$tmp/k.held"
	check "a new connection is served while the kept one is idle" \
	    answers "$sock"
	kill "$keeper" 2>/dev/null || true
	wait "$keeper" 2>/dev/null || true
	stop "$m"
fi

# --- max_requests recycles a worker without failures ----------------------
sock=$tmp/r.sock
MAUTO_MAX_REQUESTS=3 start_unix r --workers 1
m=$master
wait_for "$TIMEOUT" answers "$sock"
first=$(workers_of "$m")
loop_start rec "$sock"
recycled()
{
	[ "$(grep -c "recycled itself" "$tmp/r.log")" -ge 2 ]
}
check "max_requests recycles the worker" wait_for "$TIMEOUT" recycled
r1=$(loop_stop rec)
check "no request failed across recycling" no_failures "$r1"
check "the worker was replaced" test "$(workers_of "$m")" != "$first"
stop "$m"

# --- database down at start: back-off, not a fork storm -------------------
MAUTO_DB_SOCKET=$tmp/no-such-db.sock start_unix d --workers 2
m=$master
# The fourth step of the back-off (100, 200, 400, 800 ms) is reached
# however long each failed start takes on this machine.
backed_off()
{
	grep -q "next start in 800 ms" "$tmp/d.log"
}
check "respawns back off exponentially" wait_for "$TIMEOUT" backed_off
check "the master survives workers that cannot start" kill -0 "$m"
few_deaths()
{
	local deaths
	deaths=$(grep -c "died unexpectedly" "$tmp/d.log")
	echo "  $deaths worker deaths until the 800 ms step"
	[ "$deaths" -le 20 ]
}
check "no fork storm while backing off" few_deaths
stop "$m"
rc=$?
check "exit status 0 after SIGTERM while backing off (got $rc)" \
    test "$rc" -eq 0

# --- export runners: supervised next to the workers ------------------------
# src/export/runner.c: with export_runner on, the master keeps two runner
# processes (named mautod-export) besides the workers, makes export_dir,
# respawns a runner that dies, replaces both on SIGHUP and stops them on
# SIGTERM.
runners_of()
{
	pgrep -P "$1" -x mautod-export | sort
}
runners_are()
{
	[ "$(runners_of "$1" | wc -l)" -eq "$2" ]
}
MAUTO_EXPORT_RUNNER=on MAUTO_EXPORT_DIR=$tmp/exports/spool \
    start_unix x --workers 1
m=$master
check "two export runners run beside the workers" \
    wait_for "$TIMEOUT" runners_are "$m" 2
check "workers are still counted apart" \
    test "$(pgrep -P "$m" -x mautod | wc -l)" -eq 1
check "export_dir is made with mode 0700" \
    test "$(stat -c %a "$tmp/exports/spool" 2>/dev/null)" = 700
victim=$(runners_of "$m" | head -n 1)
kill -KILL "$victim" 2>/dev/null
runner_respawned()
{
	runners_are "$m" 2 && ! runners_of "$m" | grep -qx "$victim"
}
check "a killed export runner is respawned" \
    wait_for "$TIMEOUT" runner_respawned
check "its death is logged" grep -q \
    "export runner $victim died unexpectedly: killed by signal 9" "$tmp/x.log"
old=$(runners_of "$m")
kill -HUP "$m"
runners_replaced()
{
	local now
	now=$(runners_of "$m")
	runners_are "$m" 2 && disjoint "$old" "$now"
}
check "SIGHUP replaces the export runners" wait_for "$TIMEOUT" runners_replaced
check "requests work with the runners" wait_for "$TIMEOUT" answers "$tmp/x.sock"
stop "$m"
rc=$?
check "exit status 0 after SIGTERM with runners (got $rc)" test "$rc" -eq 0
check "no runner is left behind" test -z "$(runners_of "$m")"

# --- the activity pruner: supervised next to the workers -------------------
# src/prune/pruner.c: with activity_pruner on, the master keeps one pruner
# process (named mautod-prune), respawns it when it dies, replaces it on
# SIGHUP and stops it on SIGTERM.
pruner_of()
{
	pgrep -P "$1" -x mautod-prune
}
pruner_runs()
{
	pruner_of "$1" >/dev/null
}
pruner_is_new()
{
	local now
	now=$(pruner_of "$m")
	[ -n "$now" ] && [ "$now" != "$1" ]
}
MAUTO_ACTIVITY_PRUNER=on start_unix p --workers 1
m=$master
check "an activity pruner runs beside the workers" \
    wait_for "$TIMEOUT" pruner_runs "$m"
check "workers are still counted apart" \
    test "$(pgrep -P "$m" -x mautod | wc -l)" -eq 1
victim=$(pruner_of "$m")
kill -KILL "$victim" 2>/dev/null
check "a killed pruner is respawned" \
    wait_for "$TIMEOUT" pruner_is_new "$victim"
check "its death is logged" grep -q \
    "activity pruner $victim died unexpectedly: killed by signal 9" \
    "$tmp/p.log"
old=$(pruner_of "$m")
kill -HUP "$m"
check "SIGHUP replaces the pruner" wait_for "$TIMEOUT" pruner_is_new "$old"
stop "$m"
rc=$?
check "exit status 0 after SIGTERM with the pruner (got $rc)" \
    test "$rc" -eq 0
check "no pruner is left behind" test -z "$(pruner_of "$m")"

# --- campaign runners: supervised next to the workers ----------------------
# src/engine/engine.c: the master keeps campaign_runners of them (named
# mautod-campaign), respawns one that dies and stops them on SIGTERM.
campaigns_of()
{
	pgrep -P "$1" -x mautod-campaign | sort
}
campaigns_are()
{
	[ "$(campaigns_of "$1" | wc -l)" -eq "$2" ]
}
campaign_is_new()
{
	! campaigns_of "$m" | grep -qx "$1" && campaigns_are "$m" 2
}
MAUTO_CAMPAIGN_RUNNERS=2 start_unix c --workers 1
m=$master
check "two campaign runners run beside the workers" \
    wait_for "$TIMEOUT" campaigns_are "$m" 2
check "workers are counted apart from them" \
    test "$(pgrep -P "$m" -x mautod | wc -l)" -eq 1
victim=$(campaigns_of "$m" | head -n 1)
kill -KILL "$victim" 2>/dev/null
check "a killed campaign runner is respawned" \
    wait_for "$TIMEOUT" campaign_is_new "$victim"
check "its death is logged" grep -q \
    "campaign runner $victim died unexpectedly: killed by signal 9" \
    "$tmp/c.log"
stop "$m"
rc=$?
check "exit status 0 after SIGTERM with campaign runners (got $rc)" \
    test "$rc" -eq 0
check "no campaign runner is left behind" test -z "$(campaigns_of "$m")"

# --- sd_notify: READY, RELOADING, STOPPING (Type=notify) -------------------
# A datagram socket stands in for systemd's NOTIFY_SOCKET; every message
# the master sends becomes one line of $tmp/NAME.notify ("|" for "\n").
notify_listen()
{
	local name=$1
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as out:
    while True:
        out.write(s.recv(4096).decode().replace("\n", "|") + "\n")
' "$tmp/$name.nsock" "$tmp/$name.notify" &
	listener=$!
	started+=("$listener")
	wait_for "$TIMEOUT" test -S "$tmp/$name.nsock"
}
notify_unlisten()
{
	kill "$listener" 2>/dev/null
	wait "$listener" 2>/dev/null
}
# nth_is NAME N PREFIX: line N of NAME's messages starts with PREFIX.
nth_is()
{
	sed -n "$2p" "$tmp/$1.notify" 2>/dev/null | grep -q "^$3"
}
lines_are()
{
	[ "$(wc -l <"$tmp/$1.notify" 2>/dev/null || echo 0)" -eq "$2" ]
}
builddir=$(dirname "$MAUTOD")
if ! command -v python3 >/dev/null; then
	echo "skip - sd_notify: python3 is missing"
elif [ -f "$builddir/config.h" ] &&
    ! grep -q 'define HAVE_LIBSYSTEMD 1' "$builddir/config.h"; then
	echo "skip - sd_notify: mautod is built without libsystemd"
else
	notify_listen n
	NOTIFY_SOCKET=$tmp/n.nsock start_unix n --workers 2
	m=$master
	check "READY=1 once a worker accepts" wait_for "$TIMEOUT" nth_is n 1 \
	    'READY=1|STATUS=Serving with 2 workers'
	check "the socket answers when READY=1 is sent" answers "$tmp/n.sock"
	kill -HUP "$m"
	check "RELOADING=1 with MONOTONIC_USEC on SIGHUP" \
	    wait_for "$TIMEOUT" nth_is n 2 'RELOADING=1|MONOTONIC_USEC=[0-9][0-9]*|'
	check "READY=1 again when the workers are replaced" \
	    wait_for "$TIMEOUT" nth_is n 3 'READY=1|STATUS=Serving.*(reloaded)'
	check "the reload is logged as done" grep -q "reload done" "$tmp/n.log"
	# A configuration that does not load: RELOADING, then READY at once.
	echo "workers = many" >"$tmp/n-bad.conf"
	cp "$conf" "$tmp/n-good.conf"
	cp "$tmp/n-bad.conf" "$conf"
	kill -HUP "$m"
	check "a failed reload is followed by READY=1 at once" \
	    wait_for "$TIMEOUT" nth_is n 5 'READY=1|STATUS=.*reload failed'
	cp "$tmp/n-good.conf" "$conf"
	stop "$m"
	rc=$?
	check "STOPPING=1 on SIGTERM, then exit status 0 (got $rc)" \
	    eval 'nth_is n 6 "STOPPING=1|" && [ "$rc" -eq 0 ]'
	check "six messages in all" lines_are n 6
	notify_unlisten

	# No READY=1 while no worker reaches the database.
	notify_listen nd
	NOTIFY_SOCKET=$tmp/nd.nsock MAUTO_DB_SOCKET=$tmp/no-such-db.sock \
	    start_unix nd --workers 1
	m=$master
	sleep 2
	check "no READY=1 while the database is unreachable" \
	    test ! -s "$tmp/nd.notify"
	stop "$m"
	check "STOPPING=1 alone when stopped before ready" \
	    eval 'nth_is nd 1 "STOPPING=1|" && lines_are nd 1'
	notify_unlisten
fi

# A sanitizer build reports into the daemon logs; a report is a failure.
sanitizer_clean()
{
	! grep -E -l 'ERROR: (Address|Leak)Sanitizer|runtime error:' \
	    "$tmp"/*.log
}
check "no sanitizer reports in the daemon logs" sanitizer_clean

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
