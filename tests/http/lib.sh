# Shared helpers of the tests/http/t_*.sh scripts that check answers and
# rows of this run's mautod (sourced; needs MAUTO_TEST_STACK_DIR).
#   api METHOD PATH [JSON]       the response body goes to $work/out
#   expect DESCRIPTION PYEXPR    the expression, on d (the last body), holds
#   expect_sql DESCRIPTION SQL WANT
#   ctl ARGS...                  mautoctl on this run's database
#   dbsql SQL                    runs SQL in this run's database
#   py EXPR                      prints a Python expression over d
#   pages TOKEN PATH             every record of an activities read
#   scrape FILE                  GET /metrics (loopback, no token) into FILE
#   metric_moved A B SERIES WANT SERIES moved by WANT from scrape A to B
#                                (WANT "+N": by N or more)
#   flow_step CAMP TYPE INDEX ATTRS  a flow step of a smart campaign
# Sets base, envf, work (removed on exit), tag (random) and failed=0; a
# script ends with `exit "$failed"`.

# shellcheck source=tests/harness/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/../harness/env.sh"

if [ -z "${MAUTO_TEST_STACK_DIR:-}" ]; then
	echo "needs the database of this run's mautod (MAUTO_TEST_STACK_DIR)"
	exit 77
fi
base=$MAUTO_TEST_BASE_URL
envf=$MAUTO_TEST_STACK_DIR/env
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tag=$(harness_random_hex 4)
failed=0

api()
{
	local m=$1 p=$2
	shift 2
	if [ $# -gt 0 ]; then
		curl -sS --max-time 30 -X "$m" -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
		    -H 'Content-Type: application/json' --data-binary "$1" \
		    "$base$p" >"$work/out"
	else
		curl -sS --max-time 30 -X "$m" -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
		    "$base$p" >"$work/out"
	fi
}

# form METHOD PATH [curl args...]: a form-style call (curl args: -d, --data-urlencode, -F, -G); body in $work/out.
form()
{
	local m=$1 p=$2
	shift 2
	curl -sS --max-time 30 -X "$m" -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
	    "$@" "$base$p" >"$work/out"
}

expect()
{
	if python3 -c 'import json, re, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + "\n)") else 1)' "$work/out" "$2" 2>"$work/err"; then
		echo "ok - $1"
	else
		echo "not ok - $1"
		echo "  body: $(head -c 600 "$work/out")"
		cat "$work/err"
		failed=1
	fi
}

expect_sql()
{
	local got
	got=$(dbsql "$2")
	if [ "$got" = "$3" ]; then
		echo "ok - $1"
	else
		echo "not ok - $1: expected '$3', got '$got'"
		failed=1
	fi
}

ctl()
{
	harness_ctl "$envf" "$@"
}

dbsql()
{
	local name
	name=$(
		# shellcheck disable=SC1090
		. "$envf"
		printf '%s' "$MAUTO_DB_NAME"
	)
	harness_sql "$envf" "USE \`$name\`; $1"
}

# kept_in_reply DESCRIPTION MEMBER TABLE COLUMN ID: the last answer holds
# "MEMBER":<the text kept in COLUMN of TABLE's row ID>}, byte for byte (the
# text is read as hex, so no client escaping stands between).
kept_in_reply()
{
	local hex
	hex=$(dbsql "SELECT HEX(\`$4\`) FROM \`$3\` WHERE id = $5")
	if [ -n "$hex" ] && python3 -c 'import sys
body = open(sys.argv[1], "rb").read()
kept = bytes.fromhex(sys.argv[3])
sys.exit(0 if b"\"" + sys.argv[2].encode() + b"\":" + kept + b"}" in body
         else 1)' "$work/out" "$2" "$hex"; then
		echo "ok - $1"
	else
		echo "not ok - $1: kept '$(printf '%s' "$hex" | head -c 80)'"
		failed=1
	fi
}

# py EXPR: prints the value of a Python expression over the last answer d.
py()
{
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$work/out" "$1"
}

# pages TOKEN PATH: every record of the activities read PATH (its query
# ending in "&") from the paging token TOKEN on, paged to the end, as the
# list d of the next expect.
pages()
{
	local tok=$1 more
	echo '[]' >"$work/acts"
	while :; do
		api GET "$2nextPageToken=$tok"
		python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))
a += json.load(open(sys.argv[2])).get("result", [])
json.dump(a, open(sys.argv[1], "w"))' "$work/acts" "$work/out"
		more=$(py "d['moreResult']")
		tok=$(py "d['nextPageToken']")
		[ "$more" = True ] || break
	done
	cp "$work/acts" "$work/out"
}

scrape()
{
	curl -sS --max-time 30 -o "$1" "$base/metrics"
}

# metric FILE SERIES: the value of SERIES (name and labels) in scrape
# FILE, 0 when it is not there.
metric()
{
	awk -v k="$2 " 'index($0, k) == 1 { v = substr($0, length(k) + 1) }
	    END { print v == "" ? 0 : v }' "$1"
}

metric_moved()
{
	local d
	d=$(( $(metric "$2" "$3") - $(metric "$1" "$3") ))
	if [ "$d" = "$4" ] || { [ "${4#+}" != "$4" ] && [ "$d" -ge "${4#+}" ]; }; then
		echo "ok - /metrics: $3 moved by $4"
	else
		echo "not ok - /metrics: $3 moved by $d, not $4"
		failed=1
	fi
}

# flow_step CAMPAIGN TYPE INDEX ATTRIBUTES: adds a flow step of activity
# TYPE at INDEX to the smart campaign and sets its default choice's
# ATTRIBUTES (JSON); exits the script when either call fails.
flow_step()
{
	local s c
	form POST "/rest/asset/v1/smartCampaign/$1/flows.json" \
	    --data-urlencode "activityType={\"id\":$2,\"type\":\"activity\"}" -d "index=$3"
	s=$(py "d['result'][0]['flow']['steps'][$3]['id']")
	c=$(py "d['result'][0]['flow']['steps'][$3]['stepChoice'][-1]['id']")
	form POST "/rest/asset/v1/smartCampaign/$1/flow/$s/choice/$c.json" \
	    --data-urlencode "attributes=$4"
	[ "$(py "d['success']")" = True ] ||
	    { echo "not ok - flow step $2: $(head -c 300 "$work/out")"; exit 1; }
}
