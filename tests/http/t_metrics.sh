#!/usr/bin/env bash
# name: GET /metrics: no token, valid text format, counters move by the calls made, the campaign engine's families
# docs/operating.md, Metrics.  Scrapes, makes one successful Get Leads by Filter
# Type, one with a bad token (601), one without a token (600) and one with
# a bad paging token (1003), scrapes again and checks that exactly these
# series moved, by one each, and that the two scrapes were not counted
# themselves.  The scrape carries no token and passes nginx from 127.0.0.1
# (deploy/nginx/mautod.conf allows only this host).  The runner runs the
# scripts one at a time, so nothing else calls the stack meanwhile.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

# Metrics are per host (docs/operating.md, Metrics): behind the cluster's upstream
# two scrapes reach two hosts.
if [ "${MAUTO_TEST_FRONT:-}" = cluster ]; then
	echo "the counters are per host; the cluster's nginx spreads the calls"
	exit 77
fi
base=$MAUTO_TEST_BASE_URL
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# scrape FILE: GET /metrics without a token; the body goes to FILE.
scrape()
{
	local code
	code=$(curl -sS --max-time 30 -o "$1" -D "$1.head" -w '%{http_code}' \
	    "$base/metrics")
	if [ "$code" != 200 ]; then
		echo "GET /metrics: HTTP $code"; cat "$1"; exit 1
	fi
	if ! grep -qi '^content-type: text/plain; version=0.0.4' "$1.head"; then
		echo "GET /metrics: wrong Content-Type"; cat "$1.head"; exit 1
	fi
}

# call CODE CURL-ARGS...: one call that must answer error CODE ("" for
# success) in the envelope.
call()
{
	local want=$1 got
	shift
	harness_call "$@" >"$work/out"
	got=$(sed -n '2,$p' "$work/out" | harness_json_get 'errors[0].code' || true)
	if [ "$(head -n 1 "$work/out")" != 200 ] || [ "$got" != "$want" ]; then
		echo "expected HTTP 200 and code '$want', got:"; cat "$work/out"
		exit 1
	fi
}

leads="$base/rest/v1/leads.json?filterType=email&filterValues=metrics@example.com"
bad_page="PS5VL5WD4UOWGOUCJR6VY7JQO2KUXL7BGBYXL4XH4BYZVPYSFBAONP4V4KQKN4SSBS55U4LEMAKE6==="

scrape "$work/m0"
scrape "$work/m1"
call "" "$leads" -H "Authorization: Bearer $MAUTO_TEST_TOKEN"
call 601 "$leads" -H "Authorization: Bearer not-a-token"
call 600 "$leads"
call 1003 "$leads&nextPageToken=$bad_page" \
    -H "Authorization: Bearer $MAUTO_TEST_TOKEN"
scrape "$work/m2"

python3 - "$work/m0" "$work/m1" "$work/m2" <<'PY'
import re, sys

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="[^"\\\n]*",?)*\})? '
                    r'(-?[0-9.e+]+|\+Inf)$')

def parse(path):
    """Checks every line; returns {series: value} and {family: type}."""
    samples, types = {}, {}
    for n, line in enumerate(open(path, encoding='utf-8').read().splitlines(), 1):
        if line.startswith('# HELP '):
            continue
        if line.startswith('# TYPE '):
            _, _, name, kind = line.split(' ')
            assert name not in types, '%s:%d: second TYPE' % (path, n)
            assert kind in ('counter', 'gauge', 'histogram'), line
            assert kind != 'counter' or name.endswith('_total'), line
            types[name] = kind
            continue
        m = SAMPLE.match(line)
        assert m, '%s:%d: not a sample: %r' % (path, n, line)
        name = m.group(1)
        fam = re.sub(r'_(bucket|sum|count)$', '', name)
        assert name in types or types.get(fam) == 'histogram', \
            '%s:%d: no TYPE before %s' % (path, n, name)
        key = name + (m.group(2) or '')
        assert key not in samples, '%s:%d: %s twice' % (path, n, key)
        samples[key] = float(m.group(3))
    return samples, types

m0, types = parse(sys.argv[1])
m1, _ = parse(sys.argv[2])
m2, _ = parse(sys.argv[3])
failed = []

def check(what, ok):
    print(('ok - ' if ok else 'not ok - ') + what)
    if not ok:
        failed.append(what)

for fam in ('mautod_requests_total', 'mautod_request_duration_seconds',
            'mautod_limit_refusals_total', 'mautod_db_errors_total',
            'mautod_db_reconnects_total', 'mautod_db_deadlocks_total',
            'mautod_page_cache_total',
            'mautod_export_jobs',
            'mautod_workers_alive', 'mautod_export_runners_alive',
            'mautod_campaign_steps_total', 'mautod_campaign_runs_started_total',
            'mautod_campaign_offers_total', 'mautod_campaign_queue',
            'mautod_campaign_first_step_seconds'):
    check('family %s is there' % fam, fam in types)

# Histograms: cumulative buckets ending in +Inf, equal to _count.
for key in [k for k in m2 if k.startswith('mautod_request_duration_seconds_count')]:
    op = key[key.index('{'):]
    inner = op[1:-1]
    buckets = [(k, v) for k, v in m2.items()
               if k.startswith('mautod_request_duration_seconds_bucket{' + inner + ',le=')]
    vals = [v for _, v in buckets]
    check('%s: buckets cumulative' % op, vals == sorted(vals) and len(vals) == 12)
    check('%s: last bucket +Inf equals _count' % op,
          buckets[-1][0].endswith('le="+Inf"}') and buckets[-1][1] == m2[key])

req = lambda m: {k: v for k, v in m.items() if k.startswith('mautod_requests_total')}
check('a scrape is not counted', req(m0) == req(m1))

op = 'op="getLeadsByFilterUsingGET"'
moved = {k: m2[k] - m1.get(k, 0) for k in req(m2) if m2[k] != m1.get(k, 0)}
want = {'mautod_requests_total{%s,status="200",code="%s"}' % (op, c): 1
        for c in ('', '601', '600', '1003')}
check('exactly the four calls moved the request counters (%s)' % moved,
      moved == want)
cnt = 'mautod_request_duration_seconds_count{%s}' % op
check('latency counted four times', m2.get(cnt, 0) - m1.get(cnt, 0) == 4)
for code in ('606', '607', '615'):
    k = 'mautod_limit_refusals_total{code="%s"}' % code
    check('%s present, unchanged' % k, k in m2 and m2[k] == m1[k])
check('workers alive', m2.get('mautod_workers_alive', 0) >= 1)
states = [k for k in m2 if k.startswith('mautod_export_jobs{state=')]
check('export jobs in six states', len(states) == 6)
kinds = [k for k in m2 if k.startswith('mautod_campaign_runs_started_total{kind=')]
check('campaign runs started of four kinds', len(kinds) == 4)
check('the four queue gauges, or none before a runner counted',
      len([k for k in m2 if k.startswith('mautod_campaign_queue{')]) in (0, 4))
sys.exit(1 if failed else 0)
PY
