#!/usr/bin/env bash
# name: the usage and error statistics count calls per API user and error codes per day, the same through two hosts of one database
# docs/behaviour.md §18.  A stack of its own and a second mautod host on
# its database, each behind its own nginx.  Client A (the stack's admin)
# calls through host 1, client B (a readonly client of another API
# user) through host 2; calls with errors go through both.  Once both
# hosts have synced, Get Daily Usage and Get Daily Errors answer the same
# sums through either host: calls by userId (the client's scope), errors
# by code, response-level ones and the reasons of skipped records; the
# seven-day forms answer seven days, newest first, the days without
# calls with total 0.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

case ${MAUTO_TEST_FRONT:-nginx} in
cluster) echo "two hosts of one database are the cluster layer's own"
	exit 77 ;;
apache) echo "the hosts' front does not matter here (the nginx run has it)"
	exit 77 ;;
esac
if [ -z "${MAUTO_TEST_DB_ENV:-}" ]; then
	echo "needs a database server of this run (MAUTO_TEST_DB_ENV)"
	exit 77
fi
work=$(mktemp -d)
cleanup()
{
	"$HARNESS_DIR/nginx.sh" stop "$work/h2/nginx" || true
	"$HARNESS_DIR/mautod.sh" stop "$work/h2" || true
	harness_stack_stop "$work/h1"
	rm -rf "$work"
}
trap cleanup EXIT
failed=0
fail() { echo "not ok - $*"; failed=1; }
pass() { echo "ok - $*"; }

harness_stack_start "$work/h1" "$MAUTO_TEST_DB_ENV" \
    MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0
# shellcheck disable=SC1091
. "$work/h1/stack.env"
b1=$MAUTO_TEST_BASE_URL
mkdir -p "$work/h2"
sed "s/^export MAUTO_HOST_ID=.*/export MAUTO_HOST_ID=u2$(harness_random_hex 3)/" \
    "$work/h1/env" >"$work/h2/env"
"$HARNESS_DIR/mautod.sh" start "$work/h2"
port=$(harness_free_port)
(
	# shellcheck disable=SC1090
	. "$work/h2/env"
	"$HARNESS_DIR/nginx.sh" start "$work/h2/nginx" "$port" \
	    "$work/h2/mautod.sock"
)
b2=http://127.0.0.1:$port

text=$(harness_ctl "$work/h1/env" client create --name usage-b \
    --role readonly --scope usage.b@example.com)
id_b=$(printf '%s\n' "$text" | sed -n 's/^client_id=//p')
secret_b=$(printf '%s\n' "$text" | sed -n 's/^client_secret=//p')
ta=$(harness_token "$b1" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")
tb=$(harness_token "$b2" "$id_b" "$secret_b")
user_a=$(harness_ctl "$work/h1/env" client show "$MAUTO_TEST_CLIENT_ID" |
    sed -n 's/^scope=//p')

# call BASE TOKEN PATH [CURL ARGS...]: the body in $work/out.
call()
{
	local url=$1$3 tok=$2
	shift 3
	curl -sS --max-time 30 ${tok:+-H "Authorization: Bearer $tok"} \
	    "$@" "$url" >"$work/out"
}
code() { harness_json_get 'errors[0].code' <"$work/out" || true; }

# Client A through host 1: three reads, a 609 and a Delete Leads whose
# two unknown ids are skipped with 1004.
for _ in 1 2 3; do
	call "$b1" "$ta" /rest/v1/leads/describe.json
done
call "$b1" "$ta" /rest/v1/leads.json -H 'Content-Type: application/json' \
    --data-binary '{"input":['
[ "$(code)" = 609 ] || fail "bad JSON: $(cat "$work/out")"
call "$b1" "$ta" /rest/v1/leads/delete.json \
    -H 'Content-Type: application/json' \
    --data-binary '{"input":[{"id":987654321},{"id":987654322}]}'
[ "$(harness_json_get 'result[1].reasons[0].code' <"$work/out")" = 1004 ] ||
    fail "delete unknown leads: $(cat "$work/out")"
# Client B through host 2: two reads and a 603 (a readonly client
# writing), which the limits count as its call.
call "$b2" "$tb" /rest/v1/leads/describe.json
call "$b2" "$tb" /rest/v1/leads/describe.json
call "$b2" "$tb" /rest/v1/leads/delete.json \
    -H 'Content-Type: application/json' --data-binary '{"input":[{"id":1}]}'
[ "$(code)" = 603 ] || fail "readonly delete: $(cat "$work/out")"
# No token (600) and an unknown path (610): errors of no API user.
call "$b2" "" /rest/v1/leads/describe.json
[ "$(code)" = 600 ] || fail "no token: $(cat "$work/out")"
call "$b1" "$ta" /rest/v1/nosuchthing.json
[ "$(code)" = 610 ] || fail "unknown path: $(cat "$work/out")"

# numbers BASE [TOKEN]: the numbers a read through host BASE sees (by B,
# or by TOKEN's client): calls of user_a and of B, and the errors, as
# "a b 600 603 609 610 1004" (0 for none).
numbers()
{
	local u e
	call "$1" "${2:-$tb}" /rest/v1/stats/usage.json
	u=$(cat "$work/out")
	call "$1" "${2:-$tb}" /rest/v1/stats/errors.json
	e=$(cat "$work/out")
	python3 -c 'import json, sys
u = json.loads(sys.argv[1])["result"]
e = json.loads(sys.argv[2])["result"]
assert len(u) == 1 and len(e) == 1, "one day"
us = {x["userId"]: x["count"] for x in u[0]["users"]}
es = {x["errorCode"]: x["count"] for x in e[0]["errors"]}
assert u[0]["total"] == sum(us.values()) and e[0]["total"] == sum(es.values())
assert all(isinstance(k, str) for k in es), "codes are strings"
print(us.get(sys.argv[3], 0), us.get("usage.b@example.com", 0),
      *[es.get(c, 0) for c in ("600", "603", "609", "610", "1004")])' \
	    "$u" "$e" "$user_a"
}

# A made 5 calls (the 610 is not one: no limit counts it), B 3 before
# its first read of the numbers; each read adds two calls of B's and
# none of A's.  Each host's start probe (tests/harness/mautod.sh) asked
# for an unknown path: two more 610s.
want_errors="1 1 1 3 2"
synced()
{
	local got
	got=$(numbers "$1") || return 1
	# shellcheck disable=SC2086 # the numbers, one a word
	set -- $got
	echo "$*" >"$work/got"
	[ "$1" = 5 ] && [ "$2" -ge 3 ] && [ "${*:3}" = "$want_errors" ]
}
if harness_wait 10 "host 1 reads both hosts' counts" synced "$b1"; then
	pass "host 1: A 5 calls, B's counted, errors 600 603 609 610 1004 = $want_errors"
else
	fail "host 1 reads $(cat "$work/got")"
fi
if harness_wait 10 "host 2 reads both hosts' counts" synced "$b2"; then
	pass "host 2 reads the same sums"
else
	fail "host 2 reads $(cat "$work/got")"
fi
# B's reads are B's calls: each read of the numbers adds two.
b_seen()
{
	# shellcheck disable=SC2046 # the numbers, one a word
	set -- $(numbers "$b1")
	echo "$*" >"$work/got"
	[ "$2" -ge "$want_b" ] && [ "${*:3}" = "$want_errors" ]
}
b_now=$(cut -d' ' -f2 "$work/got")
want_b=$((b_now + 2))
harness_wait 10 "B's reads counted" b_seen &&
    pass "B's reads count as B's calls" || fail "B: $(cat "$work/got")"
# The week: seven days, newest first, one day apart; today as the daily
# read says, the other days empty here.
for kind in usage errors; do
	call "$b1" "$ta" "/rest/v1/stats/$kind/last7days.json"
	if python3 -c 'import datetime, json, sys
d = json.load(open(sys.argv[1]))
r = d["result"]
k = "users" if sys.argv[2] == "usage" else "errors"
assert d["success"] is True and len(r) == 7, len(r)
days = [datetime.date.fromisoformat(x["date"]) for x in r]
assert all(days[i] - days[i + 1] == datetime.timedelta(days=1)
           for i in range(6)), days
assert list(r[0]) == ["date", "total", k], list(r[0])
assert r[0]["total"] > 0
assert all(x["total"] == 0 and x[k] == [] for x in r[1:]), r[1:]' \
	    "$work/out" "$kind"; then
		pass "$kind/last7days: 7 days newest first, empty days total 0"
	else
		fail "$kind/last7days: $(head -c 600 "$work/out")"
	fi
done
call "$b1" "$ta" /rest/v1/stats/usage.json
d1=$(harness_json_get 'result[0].date' <"$work/out")
[ "$d1" = "$(TZ=America/Chicago date +%F)" ] &&
    pass "the day is the US Central date ($d1)" || fail "date $d1"

# A graceful stop of host 2 right after two calls (sooner than its next
# sync) loses neither: a stopping worker writes what it counted.
# A reads from here on, so B's count moves only by B's calls.
sleep 2
# shellcheck disable=SC2046 # the numbers, one a word
set -- $(numbers "$b1" "$ta")
b_now=$2
call "$b2" "$tb" /rest/v1/leads/describe.json
call "$b2" "$tb" /rest/v1/leads/describe.json
"$HARNESS_DIR/mautod.sh" stop "$work/h2"
b_after()
{
	# shellcheck disable=SC2046 # the numbers, one a word
	set -- $(numbers "$b1" "$ta")
	echo "$*" >"$work/got"
	[ "$2" = $((b_now + 2)) ]
}
harness_wait 10 "host 2's last calls counted" b_after &&
    pass "a stopped host lost no count" ||
    fail "after the stop: $(cat "$work/got"), B had $b_now"
exit "$failed"
