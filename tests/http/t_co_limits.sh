#!/usr/bin/env bash
# name: at most 10 custom object types; the 11th is refused (1003)
# docs/behaviour.md §4 and §6.1.  A stack of its own, so the types of
# other tests do not count.
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
    MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0 >"$work/start.log" 2>&1 ||
    { cat "$work/start.log"; exit 1; }
# shellcheck disable=SC1091
. "$work/stack/stack.env"
base=$MAUTO_TEST_BASE_URL
token=$(harness_token "$base" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")
failed=0

sync_type()
{
	harness_call "$base/rest/v1/customobjects/schema.json" \
	    -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
	    --data-binary "{\"apiName\": \"$1\", \"displayName\": \"$1\"}" \
	    >"$work/out"
	sed -n '2,$p' "$work/out" >"$work/body"
}

for i in 1 2 3 4 5 6 7 8 9 10; do
	sync_type "lim$i"
	if [ "$(harness_json_get success <"$work/body")" != true ]; then
		echo "not ok - type $i refused: $(cat "$work/body")"
		failed=1
	fi
done
[ "$failed" = 0 ] && echo "ok - 10 types are made"
sync_type lim11
code=$(harness_json_get 'errors[0].code' <"$work/body" || true)
msg=$(harness_json_get 'errors[0].message' <"$work/body" || true)
if [ "$code" = 1003 ] &&
    [ "$msg" = "A subscription has at most 10 custom object types" ]; then
	echo "ok - the 11th type is refused with 1003"
else
	echo "not ok - the 11th type: $(cat "$work/body")"
	failed=1
fi
# A change to an existing type is still allowed at the limit.
sync_type lim3
[ "$(harness_json_get success <"$work/body")" = true ] &&
    echo "ok - an existing type still changes at the limit" ||
    { echo "not ok - changing lim3: $(cat "$work/body")"; failed=1; }
harness_call "$base/rest/v1/customobjects/schema/lim3/delete.json" \
    -X POST -H "Authorization: Bearer $token" >/dev/null
sync_type lim11
[ "$(harness_json_get success <"$work/body")" = true ] &&
    echo "ok - after a delete there is room for one more" ||
    { echo "not ok - lim11 after a delete: $(cat "$work/body")"; failed=1; }
harness_call "$base/rest/v1/customobjects/schema.json" \
    -H "Authorization: Bearer $token" >"$work/out"
n=$(sed -n '2,$p' "$work/out" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["result"]))')
[ "$n" = 10 ] && echo "ok - 10 types listed" ||
    { echo "not ok - $n types listed"; failed=1; }
exit $failed
