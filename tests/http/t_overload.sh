#!/usr/bin/env bash
# name: the 11th call in flight answers 615 at once through nginx and Apache, and past mautod's workers the front server answers the same 615
# docs/operating.md, "Overload"; docs/behaviour.md §4.  Calls are held in flight with
# X-Mauto-Fault: delay (taken after the limits admitted the call), and
# mautod_calls_in_flight (GET /metrics) says when they all are.  Nothing
# here is timed: a refusal counts as "at once" when it comes back while
# every held call is still running.
#
# 1. Default workers (concurrency_limit + 6): ten held, the eleventh is
#    mautod's own 615 (counted in mautod_limit_refusals_total).
# 2. The limit off and the front's bound at two (three workers: one stays
#    free for GET /metrics): two held, the front server answers the next
#    calls with 615 in each envelope family (503 temporarily_unavailable
#    for the token endpoint), and mautod counts none.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ -z "${MAUTO_TEST_DB_ENV:-}" ]; then
	echo "needs a database server of this run (MAUTO_TEST_DB_ENV)"
	exit 77
fi
fronts=nginx
command -v apache2 >/dev/null && fronts="nginx apache"
work=$(mktemp -d)
held=()
cleanup()
{
	local p
	for p in "${held[@]}"; do kill "$p" 2>/dev/null || true; done
	harness_stack_stop "$work/stack"
	rm -rf "$work"
}
trap cleanup EXIT
failed=0
fail() { echo "not ok - $*"; failed=1; }
pass() { echo "ok - $*"; }

metric()
{
	curl -sS --max-time 10 "$base/metrics" |
	    awk -v k="$1" '$1 == k { print $2 }'
}

inflight_is() { [ "$(metric mautod_calls_in_flight)" = "$1" ]; }

# hold N: N reads, each held 10 s in flight; their answers in held.I.
hold()
{
	local i
	held=()
	for i in $(seq 1 "$1"); do
		curl -sS --max-time 60 -H "Authorization: Bearer $token" \
		    -H "X-Mauto-Fault: delay=10000" \
		    "$base/rest/v1/leads.json?filterType=id&filterValues=1" \
		    >"$work/held.$i" 2>&1 &
		held+=("$!")
	done
	harness_wait 60 "$1 calls in flight" inflight_is "$1"
}

all_held_running()
{
	local p
	for p in "${held[@]}"; do kill -0 "$p" 2>/dev/null || return 1; done
}

# held_succeeded N: every held call ended with success.
held_succeeded()
{
	local i p
	for p in "${held[@]}"; do wait "$p" || return 1; done
	held=()
	for i in $(seq 1 "$1"); do
		[ "$(harness_json_get success <"$work/held.$i")" = true ] ||
		    { cat "$work/held.$i"; return 1; }
	done
}

# call PATH [ARGS...]: one call; sets status and body.
call()
{
	local path=$1
	shift
	harness_call "$base$path" "$@" >"$work/out"
	status=$(head -n 1 "$work/out")
	body=$(sed -n '2,$p' "$work/out")
}

json() { harness_json_get "$1" <<<"$body" || true; }
rid_ok() { [[ $1 =~ ^[0-9a-f]{1,5}#[0-9a-f]{11,}$ ]]; }

# is_615 MESSAGE: the last call was refused with 615 and MESSAGE, HTTP 200,
# success false and a requestId in the service's form.
is_615()
{
	[ "$status" = 200 ] && [ "$(json success)" = false ] &&
	    [ "$(json 'errors[0].code')" = 615 ] &&
	    [ "$(json 'errors[0].message')" = "$1" ] &&
	    rid_ok "$(json requestId)"
}

start()
{
	harness_stack_stop "$work/stack"
	rm -rf "$work/stack"
	HARNESS_STACK_FRONT=$1 harness_stack_start "$work/stack" \
	    "$MAUTO_TEST_DB_ENV" MAUTO_FAULT_INJECTION=true \
	    MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0 "${@:2}"
	# shellcheck disable=SC1091
	. "$work/stack/stack.env"
	base=$MAUTO_TEST_BASE_URL
	token=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" \
	    "$MAUTO_TEST_CLIENT_SECRET")
}

for front in $fronts; do
	# ---- 1. the limiter decides ------------------------------------
	start "$front" MAUTO_WORKERS=0
	hold 10
	call "/rest/v1/leads.json?filterType=id&filterValues=1" \
	    -H "Authorization: Bearer $token"
	if is_615 "Concurrent access limit '10' reached" &&
	    all_held_running; then
		pass "$front: the 11th call in flight answers 615 while ten are held"
	else
		fail "$front: the 11th call: $status $body"
	fi
	[ "$(metric 'mautod_limit_refusals_total{code="615"}')" = 1 ] ||
	    fail "$front: mautod did not count its 615"
	held_succeeded 10 && pass "$front: the ten held calls succeed" ||
	    fail "$front: a held call failed"

	# ---- 2. the front server's bound -------------------------------
	HARNESS_MAX_INFLIGHT=2 start "$front" MAUTO_WORKERS=3 \
	    MAUTO_CONCURRENCY_LIMIT=0
	hold 2
	msg="Concurrent access limit '2' reached"
	call "/rest/v1/leads.json?filterType=id&filterValues=1" \
	    -H "Authorization: Bearer $token"
	is_615 "$msg" || fail "$front bound, lead database: $status $body"
	call "/rest/asset/v1/emails.json" -H "Authorization: Bearer $token"
	is_615 "$msg" && [ "$(json warnings)" = "[]" ] ||
	    fail "$front bound, asset v1: $status $body"
	call "/rest/asset/v2/emails.json" -H "Authorization: Bearer $token"
	is_615 "$msg" && [ "$(json 'errors[0].type')" = error ] ||
	    fail "$front bound, asset v2: $status $body"
	call "/identity/oauth/token?grant_type=client_credentials"
	[ "$status" = 503 ] &&
	    [ "$(json error)" = temporarily_unavailable ] ||
	    fail "$front bound, identity: $status $body"
	if all_held_running; then
		pass "$front: past the workers the front answers 615 in every envelope"
	else
		fail "$front: the front's refusals came after the held calls ended"
	fi
	[ "$(metric 'mautod_limit_refusals_total{code="615"}')" = 0 ] ||
	    fail "$front: mautod counted a 615 its front answered"
	held_succeeded 2 && pass "$front: the two held calls succeed" ||
	    fail "$front: a held call failed behind the bound"
done
exit "$failed"
