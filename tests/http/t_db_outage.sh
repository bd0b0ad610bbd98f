#!/usr/bin/env bash
# name: with MariaDB down calls answer an envelope error, and recover after
# The database is stopped cleanly, then killed: while it is down a call
# that needs it (a well-formed token the service never issued) must come
# back within 30 s as HTTP 200 with 604, 608 or 611, never a hang or a
# 502, and GET /healthz must answer HTTP 503 {"status":"unavailable"}.
# Once MariaDB is back the same mautod (same pid) answers 601 again,
# /healthz 200 {"status":"ok"}, and identity works, with no restart and
# no worker lost on the way (a call with a cached token once reached a
# statement of a closed connection).
# The server stopped is a private one with a stack of its own: the run's
# server is shared by the layers that run beside this one (tests/run).
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ "${MAUTO_TEST_FRONT:-nginx}" = cluster ]; then
	# A single server's outage; the cluster layer loses nodes itself.
	echo "a single server's outage (tests/cluster has node loss)"
	exit 77
fi
work=$(mktemp -d)
mdb=$work/db
cleanup()
{
	harness_stack_stop "$work/stack"
	"$HARNESS_DIR/mariadb.sh" stop "$mdb" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
"$HARNESS_DIR/mariadb.sh" start "$mdb" >/dev/null
# Fault injection on: the fault plan is read right after a token is
# accepted, from the cache, without the database.
harness_stack_start "$work/stack" "$mdb/env" MAUTO_FAULT_INJECTION=true
# shellcheck disable=SC1091
. "$work/stack/stack.env"
base=$MAUTO_TEST_BASE_URL
pid=$(harness_pidfile_pid "$work/stack/mautod.pid")
token=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")
unknown=3f2b0c9e-1d4a-4c8e-9a7b-2e5d6f708192:lo

# call [TOKEN]: a read with TOKEN (default: one never issued).
call()
{
	harness_call "$base/rest/v1/leads.json?filterType=id&filterValues=1" \
	    -H "Authorization: Bearer ${1:-$unknown}" >"$work/out" ||
	    { echo "call failed or hung"; return 1; }
	status=$(head -n 1 "$work/out")
	code=$(sed -n '2,$p' "$work/out" | harness_json_get 'errors[0].code' || true)
}

# health: GET /healthz; sets status and health (the "status" member).
health()
{
	harness_call "$base/healthz" >"$work/health" ||
	    { echo "/healthz failed or hung"; return 1; }
	hstatus=$(head -n 1 "$work/health")
	health=$(sed -n '2,$p' "$work/health" | harness_json_get status || true)
}

recovered()
{
	call && [ "$status" = 200 ] && [ "$code" = 601 ] &&
	    health && [ "$hstatus:$health" = 200:ok ]
}

outage()
{
	local how=$1
	"$HARNESS_DIR/mariadb.sh" "$how" "$mdb" >/dev/null
	call
	case $status:$code in
	200:604 | 200:608 | 200:611) ;;
	*) echo "MariaDB $how: expected HTTP 200 with 604/608/611, got:"
	   cat "$work/out"; exit 1 ;;
	esac
	# A token every worker has seen (so cached), several times: each
	# worker answers in the envelope too.
	for _ in 1 2 3 4 5 6; do
		call "$token"
		case $status:$code in
		200:604 | 200:608 | 200:611) ;;
		*) echo "MariaDB $how: with a cached token, expected HTTP 200 with 604/608/611, got:"
		   cat "$work/out"; exit 1 ;;
		esac
	done
	health
	if [ "$hstatus:$health" != 503:unavailable ]; then
		echo "MariaDB $how: expected /healthz 503 unavailable, got:"
		cat "$work/health"; exit 1
	fi
	"$HARNESS_DIR/mariadb.sh" start "$mdb" >/dev/null
	if ! harness_wait 30 "mautod to reach MariaDB again" recovered; then
		echo "after MariaDB $how and start, got:"
		cat "$work/out" "$work/health"; exit 1
	fi
}

recovered || { echo "before the outage, expected 601 and a healthy /healthz, got:"
    cat "$work/out" "$work/health"; exit 1; }
for _ in 1 2 3 4 5 6; do
	call "$token"
	[ "$status" = 200 ] && [ -z "$code" ] ||
	    { echo "before the outage, a read with a valid token:"; cat "$work/out"; exit 1; }
done
outage stop
outage kill
harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET" >/dev/null ||
    { echo "identity fails after the outage"; exit 1; }
if [ "$(harness_pidfile_pid "$work/stack/mautod.pid")" != "$pid" ] ||
    ! harness_pid_alive "$pid"; then
	echo "mautod was restarted"
	exit 1
fi
if grep -v '^{' "$work/stack/mautod.log" | grep 'died unexpectedly'; then
	echo "a worker died during the outage"
	exit 1
fi
echo "envelope errors while down; recovered twice without a restart"
