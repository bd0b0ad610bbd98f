#!/usr/bin/env bash
# name: the call over the rate limit answers 606 with the real message
# docs/behaviour.md §4 and §16: "Max rate limit '100' exceeded with in '20'
# secs".  A stack of its own with a limit of 5 calls per 20 s: calls 1-5
# pass the limiter, the 6th is refused; identity calls are never counted.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ -z "${MAUTO_TEST_DB_ENV:-}" ]; then
	echo "needs a database server of this run (MAUTO_TEST_DB_ENV)"
	exit 77
fi
work=$(mktemp -d)
trap 'harness_stack_stop "$work/stack"; rm -rf "$work"' EXIT
harness_stack_start "$work/stack" "$MAUTO_TEST_DB_ENV" \
    MAUTO_RATE_LIMIT_CALLS=5 MAUTO_RATE_LIMIT_WINDOW=20 MAUTO_DAILY_QUOTA=0
# shellcheck disable=SC1091
. "$work/stack/stack.env"
base=$MAUTO_TEST_BASE_URL
token=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")

call()
{
	harness_call "$base/rest/v1/leads.json?filterType=id&filterValues=1" \
	    -H "Authorization: Bearer $token" >"$work/out"
	code=$(sed -n '2,$p' "$work/out" | harness_json_get 'errors[0].code' || true)
	status=$(head -n 1 "$work/out")
}

# GET /healthz is not counted: six probes first leave the five calls.
healthy()
{
	harness_call "$base/healthz" >"$work/health" &&
	    [ "$(head -n 1 "$work/health")" = 200 ]
}
for i in 1 2 3 4 5 6; do
	healthy || { echo "probe $i:"; cat "$work/health"; exit 1; }
done

for i in 1 2 3 4 5; do
	call
	if [ "$code" = 606 ]; then
		echo "call $i of 5 was refused:"; cat "$work/out"; exit 1
	fi
done
call
msg=$(sed -n '2,$p' "$work/out" | harness_json_get 'errors[0].message' || true)
if [ "$status" != 200 ] || [ "$code" != 606 ] ||
    [ "$msg" != "Max rate limit '5' exceeded with in '20' secs" ]; then
	echo "call 6: expected HTTP 200 and 606 with the real message, got:"
	cat "$work/out"
	exit 1
fi
rid=$(sed -n '2,$p' "$work/out" | harness_json_get requestId || true)
[[ $rid =~ ^[0-9a-f]{1,5}#[0-9a-f]{11,}$ ]] || { echo "bad requestId: $rid"; exit 1; }

# Nor refused over the limit.
healthy || { echo "probe over the limit:"; cat "$work/health"; exit 1; }

# Identity is not counted and not refused.
again=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET") ||
    { echo "identity refused while over the limit"; exit 1; }
[ "$again" = "$token" ] || { echo "identity gave another token"; exit 1; }
echo "606 after 5 calls; /healthz neither counted nor refused"
