#!/usr/bin/env bash
# name: The outbox over HTTP: GET /outbox.json filters and pages, GET /outbox/{id}.json has the message, bad parameters 400, unknown id 404, other hosts refused by nginx and Apache
# docs/operating.md, "The outbox over HTTP"; docs/behaviour.md §26.  The
# campaign rows are written with SQL in the stack's database, as the
# Send Email step writes them (src/engine/mail.c), so the read is tested
# alone; the unfinished ones are "sending" under a lease that outlives the
# test, so the campaign runners' delivery passes leave them alone.  The read carries no token and passes nginx from 127.0.0.1; from
# 127.0.0.2 (another loopback address, so another peer for nginx's
# allow) it is refused (deploy/nginx/mautod.conf allows only this host);
# Apache's rule (deploy/apache/mautod.conf) likewise, checked on an
# Apache of its own in front of no mautod (the refusal comes first).
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ -z "${MAUTO_TEST_STACK_DIR:-}" ] || [ ! -f "$MAUTO_TEST_STACK_DIR/env" ]; then
	echo "needs the database of this run's mautod (MAUTO_TEST_STACK_DIR)"
	exit 77
fi
envfile=$MAUTO_TEST_STACK_DIR/env
# shellcheck disable=SC1090
dbname=$(. "$envfile"; printf '%s' "$MAUTO_DB_NAME")
campaign=$((0x$(harness_random_hex 3) + 100000))
run=$((campaign * 10))

sql()
{
	harness_sql "$envfile" "USE \`$dbname\`; $1"
}
for lead in 11 12 13; do
	sql "INSERT INTO outbox (created_at, kind, email_id, lead_id,
	    campaign_id, run_id, step_id, choice_num, asset_name, mail_from,
	    rcpt_to, subject, message, status)
	    VALUES (UTC_TIMESTAMP(3), 'campaign', 5, $lead, $campaign, $run,
	    3, 0, 'P.Welcome', 'mauto@localhost', 'l$lead@example.com',
	    'Hi $lead', 'Subject: Hi $lead\r\n\r\nbody of $lead\r\n', 'sending')"
done
sql "UPDATE outbox SET status = 'sent', smtp_code = 250,
    smtp_reply = '250 OK', finished_at = UTC_TIMESTAMP(3)
    WHERE run_id = $run AND lead_id = 12"
sql "INSERT INTO outbox (created_at, kind, email_id, lead_id, campaign_id,
    run_id, step_id, mail_from, rcpt_to, subject, message, status)
    VALUES (UTC_TIMESTAMP(3), 'campaign', 5, 11, $campaign, $((run + 1)), 3,
    'mauto@localhost', 'l11@example.com', 'again', 'x', 'sending')"
sql "UPDATE outbox SET lease_owner = 'test', lease_until =
    (UNIX_TIMESTAMP() + 3600) * 1000 WHERE campaign_id = $campaign AND
    status = 'sending'"
export OB_CAMPAIGN=$campaign OB_RUN=$run

failed=0
python3 - <<'PY' || failed=1
import json, os, subprocess, sys, urllib.error, urllib.request

base = os.environ['MAUTO_TEST_BASE_URL'].rstrip('/')
campaign, run = int(os.environ['OB_CAMPAIGN']), int(os.environ['OB_RUN'])
failed = False

def get(path):
    try:
        with urllib.request.urlopen(base + path, timeout=30) as r:
            return r.status, r.headers.get('Content-Type'), json.load(r)
    except urllib.error.HTTPError as e:
        body = e.read()
        try:
            return e.code, e.headers.get('Content-Type'), json.loads(body)
        except ValueError:
            return e.code, e.headers.get('Content-Type'), body

def check(name, ok, got=None):
    global failed
    print(('ok: ' if ok else 'FAIL: ') + name)
    if not ok:
        print('  got: %r' % (got,))
        failed = True

s, ct, d = get('/outbox.json?campaignId=%d' % campaign)
rows = d.get('result', []) if isinstance(d, dict) else []
check('the list answers 200 JSON with the campaign\'s four rows, oldest first',
      s == 200 and ct.startswith('application/json') and
      [r['leadId'] for r in rows] == [11, 12, 13, 11] and
      rows == sorted(rows, key=lambda r: r['id']), (s, ct, d))
r = rows[1] if len(rows) > 1 else {}
check('a row has every member, the message left out',
      r.get('kind') == 'campaign' and r.get('campaignId') == campaign and
      r.get('runId') == run and r.get('stepId') == 3 and
      r.get('emailId') == 5 and r.get('to') == 'l12@example.com' and
      r.get('from') == 'mauto@localhost' and r.get('subject') == 'Hi 12' and
      r.get('status') == 'sent' and r.get('smtpCode') == 250 and
      r.get('smtpReply') == '250 OK' and
      str(r.get('createdAt', '')).endswith('Z') and
      str(r.get('finishedAt', '')).endswith('Z') and 'message' not in r, r)
check('an unfinished row has null finishedAt and smtpCode',
      rows and rows[0].get('finishedAt') is None and
      rows[0].get('smtpCode') is None, rows[:1])

s, _, d = get('/outbox.json?runId=%d&leadId=13' % run)
check('runId and leadId filter', s == 200 and
      [(x['runId'], x['leadId']) for x in d['result']] == [(run, 13)], d)
s, _, d = get('/outbox.json?campaignId=%d&limit=2' % campaign)
check('limit cuts', s == 200 and [x['leadId'] for x in d['result']] == [11, 12], d)
s, _, d2 = get('/outbox.json?campaignId=%d&limit=2&sinceId=%d' %
               (campaign, d['result'][-1]['id']))
check('sinceId pages on after the last id seen', s == 200 and
      [x['leadId'] for x in d2['result']] == [13, 11] and
      d2['result'][1]['runId'] == run + 1, d2)

one = rows[2]['id'] if len(rows) > 2 else 0
s, ct, d = get('/outbox/%d.json' % one)
check('one message with its MIME text', s == 200 and
      ct.startswith('application/json') and len(d['result']) == 1 and
      d['result'][0]['id'] == one and
      d['result'][0]['message'] == 'Subject: Hi 13\r\n\r\nbody of 13\r\n', d)
s, _, d = get('/outbox/999999999999.json')
check('an unknown id is 404', s == 404 and d == {'error': 'no such message'}, (s, d))
for q in ('limit=0', 'limit=1001', 'runId=x', 'sinceId=-1', 'leadId=1.5'):
    s, _, d = get('/outbox.json?' + q)
    check('%s is 400' % q, s == 400 and 'error' in d, (s, d))

# nginx allows only this host: another loopback address is another peer.
for path in ('/outbox.json', '/outbox/%d.json' % one):
    out = subprocess.run(['curl', '-sS', '-o', '/dev/null', '-w', '%{http_code}',
                          '--interface', '127.0.0.2', base + path],
                         capture_output=True, text=True)
    check('%s from 127.0.0.2 is refused by nginx' % path,
          out.stdout == '403', out.stdout + out.stderr)
sys.exit(1 if failed else 0)
PY

if ! command -v apache2 >/dev/null; then
	echo "skipped: Apache's rule (no apache2)"
	exit $failed
fi
ad=$(mktemp -d)
trap '"$HARNESS_DIR/apache.sh" stop "$ad" >/dev/null 2>&1 || true; rm -rf "$ad"' EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$HARNESS_DIR/apache.sh" start "$ad" "$port" "$ad/none.sock" >"$ad/start.log" 2>&1 ||
    { echo "FAIL: Apache did not start"; cat "$ad/start.log"; exit 1; }
for p in /outbox.json /outbox/1.json; do
	lo=$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$p")
	other=$(curl -sS -o /dev/null -w '%{http_code}' --interface 127.0.0.2 \
	    "http://127.0.0.1:$port$p")
	if [ "$other" = 403 ] && [ "$lo" != 403 ]; then
		echo "ok: Apache refuses $p from 127.0.0.2 only"
	else
		echo "FAIL: Apache $p: $lo from 127.0.0.1, $other from 127.0.0.2"
		failed=1
	fi
done
exit $failed
