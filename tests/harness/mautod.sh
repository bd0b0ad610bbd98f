#!/usr/bin/env bash
# Runs mautod the way systemd does: under systemd-socket-activate, so the
# LISTEN_FDS path of the daemon is what the tests exercise.
#
#   tests/harness/mautod.sh start DIR    start; wait until it answers
#   tests/harness/mautod.sh stop DIR     SIGTERM, bounded wait, SIGKILL
#   tests/harness/mautod.sh status DIR   exit 0 when it answers
#
# DIR/env (optional) is sourced first: the database settings written by
# mariadb.sh plus any MAUTO_* overrides (limits, token lifetime, workers).
# Every MAUTO_* variable and the sanitizer options (ASAN_OPTIONS,
# UBSAN_OPTIONS, LSAN_OPTIONS) reach the daemon.  The socket is
# DIR/mautod.sock, the pid file DIR/mautod.pid, the log DIR/mautod.log.
# An empty DIR/mautod.conf is passed as --config so that no system-wide
# /etc/mauto/mautod.conf leaks into a test.  The binary is found by
# harness_bin (MAUTOD=PATH overrides).
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/env.sh"

usage()
{
	echo "usage: ${0##*/} start|stop|status DIR" >&2
	exit 2
}

[ $# -eq 2 ] || usage
verb=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)
sock=$dir/mautod.sock
pidfile=$dir/mautod.pid
logfile=$dir/mautod.log

# One FastCGI request straight to the socket; true when a response with
# headers comes back.  Any path does: an unknown one answers 610.
answers()
{
	local out
	[ -S "$sock" ] || return 1
	out=$(env -i PATH="$PATH" REQUEST_METHOD=GET PATH_INFO=/rest/v1/ping.json \
	    REQUEST_URI=/rest/v1/ping.json QUERY_STRING= CONTENT_LENGTH=0 \
	    SERVER_PROTOCOL=HTTP/1.1 GATEWAY_INTERFACE=CGI/1.1 \
	    REMOTE_ADDR=127.0.0.1 SCRIPT_NAME= \
	    timeout 10 cgi-fcgi -bind -connect "$sock" </dev/null 2>/dev/null) ||
	    return 1
	case $out in
	*[Cc]ontent-[Tt]ype:*) return 0 ;;
	esac
	return 1
}

start()
{
	local pid mautod deadline
	local -a setenv=()
	pid=$(harness_pidfile_pid "$pidfile")
	if harness_pid_alive "$pid"; then
		answers && return 0
		harness_die "mautod (pid $pid) runs but does not answer on $sock"
	fi
	harness_check_socket_path "$sock"
	mautod=$(harness_bin mautod)
	command -v systemd-socket-activate >/dev/null ||
	    harness_die "systemd-socket-activate is missing (package systemd)"
	if [ -f "$dir/env" ]; then
		# shellcheck disable=SC1091
		. "$dir/env"
	fi
	: "${MAUTO_WORKERS:=4}"
	export MAUTO_WORKERS
	# Export files stay under DIR (the default is a system directory).
	: "${MAUTO_EXPORT_DIR:=$dir/exports}"
	export MAUTO_EXPORT_DIR
	# systemd-socket-activate hands the child no environment of its
	# own beyond LISTEN_*; name every variable it must pass on.
	while IFS= read -r name; do
		setenv+=("-E" "$name")
	done < <(compgen -e | grep -E '^(MAUTO_|ASAN_OPTIONS$|UBSAN_OPTIONS$|LSAN_OPTIONS$)')
	[ -f "$dir/mautod.conf" ] ||
	    echo "# Empty: settings come from MAUTO_* variables." >"$dir/mautod.conf"
	rm -f "$sock"
	setsid systemd-socket-activate -l "$sock" "${setenv[@]}" -- \
	    "$mautod" --config "$dir/mautod.conf" </dev/null >>"$logfile" 2>&1 &
	pid=$!
	echo "$pid" >"$pidfile"
	deadline=$((SECONDS + HARNESS_START_TIMEOUT))
	until answers; do
		if ! harness_pid_alive "$pid"; then
			tail -n 30 "$logfile" >&2 || true
			harness_die "mautod exited during start (log: $logfile)"
		fi
		if [ "$SECONDS" -ge "$deadline" ]; then
			tail -n 30 "$logfile" >&2 || true
			harness_stop_pid "$pid" 5 group
			harness_die "mautod did not answer in ${HARNESS_START_TIMEOUT}s"
		fi
		sleep 0.2
	done
}

stop()
{
	local pid
	pid=$(harness_pidfile_pid "$pidfile")
	if harness_pid_alive "$pid"; then
		harness_stop_pid "$pid" "$HARNESS_STOP_TIMEOUT" group
	fi
	rm -f "$pidfile" "$sock"
}

case $verb in
start) start ;;
stop) stop ;;
status) answers ;;
*) usage ;;
esac
