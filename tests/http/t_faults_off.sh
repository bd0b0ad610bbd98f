#!/usr/bin/env bash
# name: with fault_injection off (the default) X-Mauto-Fault is ignored
# A stack of its own with fault_injection = false: a call that asks for
# 611, a delay or an unknown value is served as usual, and the identity
# endpoint issues its token (docs/operating.md, Fault injection).
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ -z "${MAUTO_TEST_DB_ENV:-}" ]; then
	echo "needs a database server of this run (MAUTO_TEST_DB_ENV)"
	exit 77
fi
work=$(mktemp -d)
trap 'harness_stack_stop "$work/stack" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
harness_stack_start "$work/stack" "$MAUTO_TEST_DB_ENV" \
    MAUTO_FAULT_INJECTION=false
# shellcheck disable=SC1091
. "$work/stack/stack.env"
base=$MAUTO_TEST_BASE_URL
token=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")

for fault in 601 611 615 delay=10 nonsense; do
	harness_call "$base/rest/v1/leads.json?filterType=id&filterValues=1" \
	    -H "Authorization: Bearer $token" -H "X-Mauto-Fault: $fault" \
	    >"$work/out"
	ok=$(sed -n '2,$p' "$work/out" | harness_json_get success || true)
	if [ "$(head -n 1 "$work/out")" != 200 ] || [ "$ok" != true ]; then
		echo "X-Mauto-Fault: $fault with injection off, expected success, got:"
		cat "$work/out"
		exit 1
	fi
done
harness_call "$base/identity/oauth/token?grant_type=client_credentials&client_id=$MAUTO_TEST_CLIENT_ID&client_secret=$MAUTO_TEST_CLIENT_SECRET" \
    -H "X-Mauto-Fault: 608" >"$work/out"
[ "$(head -n 1 "$work/out")" = 200 ] ||
    { echo "identity with X-Mauto-Fault: 608 and injection off:"; cat "$work/out"; exit 1; }
echo "X-Mauto-Fault ignored on five calls and the identity endpoint"
