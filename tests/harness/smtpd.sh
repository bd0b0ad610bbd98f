#!/usr/bin/env bash
# A throwaway SMTP server on loopback (tests/harness/smtpd.py, aiosmtpd
# from Debian's python3-aiosmtpd) for the tests of sample sends.
#
#   smtpd.sh start DIR MODE   starts it in the background, prints its port
#   smtpd.sh stop DIR         stops the server started in DIR
#
# MODE is accept, refuse, hang or tls (smtpd.py says what each does); tls
# first makes a self-signed certificate for 127.0.0.1 in DIR/cert.pem, which
# is also the CA file a client must trust.  Received messages land in DIR.
# Exits 77 (skip) when aiosmtpd is not installed (tests/harness/deps.sh
# --tests installs it).
set -euo pipefail
# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/env.sh"
# Debian's interpreter, where python3-aiosmtpd is installed.
py=/usr/bin/python3

case ${1:-} in
start)
	[ $# = 3 ] || harness_die "usage: smtpd.sh start DIR MODE"
	dir=$2 mode=$3
	"$py" -c 'import aiosmtpd' 2>/dev/null || {
		harness_log "python3-aiosmtpd is not installed"; exit 77; }
	mkdir -p "$dir"
	rm -f "$dir/port"
	if [ "$mode" = tls ]; then
		openssl req -x509 -newkey rsa:2048 -nodes -days 2 \
		    -subj /CN=127.0.0.1 -addext "subjectAltName=IP:127.0.0.1" \
		    -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
	fi
	"$py" "$HARNESS_DIR/smtpd.py" "$dir" "$mode" >"$dir/smtpd.log" 2>&1 &
	echo $! >"$dir/pid"
	waited=0
	while [ ! -s "$dir/port" ]; do
		kill -0 "$(cat "$dir/pid")" 2>/dev/null ||
		    harness_die "smtpd.py died: $(cat "$dir/smtpd.log")"
		[ $waited -lt $((HARNESS_START_TIMEOUT * 10)) ] ||
		    harness_die "smtpd.py did not start"
		sleep 0.1
		waited=$((waited + 1))
	done
	cat "$dir/port"
	;;
stop)
	[ $# = 2 ] || harness_die "usage: smtpd.sh stop DIR"
	if [ -s "$2/pid" ]; then
		kill "$(cat "$2/pid")" 2>/dev/null || true
		rm -f "$2/pid" "$2/port"
	fi
	;;
*)
	harness_die "usage: smtpd.sh start DIR MODE | stop DIR"
	;;
esac
