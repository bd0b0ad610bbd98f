#!/usr/bin/env bash
# name: an expired token answers 602, and identity then issues a new one
# docs/behaviour.md §1.3 and §14 item 2.  A stack of its own whose tokens
# live 2 seconds.
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
    MAUTO_TOKEN_LIFETIME=2 MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0
# shellcheck disable=SC1091
. "$work/stack/stack.env"
base=$MAUTO_TEST_BASE_URL

code_of()
{
	harness_call "$base/rest/v1/leads.json?filterType=id&filterValues=1" \
	    -H "Authorization: Bearer $1" >"$work/out"
	sed -n '2,$p' "$work/out" | harness_json_get 'errors[0].code' || true
}

token=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")
code=$(code_of "$token")
case $code in
600 | 601 | 602) echo "a fresh token was refused:"; cat "$work/out"; exit 1 ;;
esac
sleep 3
code=$(code_of "$token")
msg=$(sed -n '2,$p' "$work/out" | harness_json_get 'errors[0].message' || true)
if [ "$code" != 602 ] || [ "$msg" != "Access token expired" ]; then
	echo "expired token: expected 602 Access token expired, got:"
	cat "$work/out"
	exit 1
fi
fresh=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")
[ "$fresh" != "$token" ] || { echo "identity returned the expired token"; exit 1; }
code=$(code_of "$fresh")
case $code in
600 | 601 | 602) echo "the new token was refused:"; cat "$work/out"; exit 1 ;;
esac
echo "602 after expiry; a new token works"
