#!/usr/bin/env bash
# name: Submit Form: upsert by email, "Fill Out Form" activity, cookie association, form field checks
# docs/behaviour.md §5.8.  The form is made with SQL in the stack's
# database (form creation is not part of this API).
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ -z "${MAUTO_TEST_STACK_DIR:-}" ] || [ ! -f "$MAUTO_TEST_STACK_DIR/env" ]; then
	echo "needs the database of this run's mautod (MAUTO_TEST_STACK_DIR)"
	exit 77
fi
envfile=$MAUTO_TEST_STACK_DIR/env
dbname=$(. "$envfile"; printf '%s' "$MAUTO_DB_NAME")
tag=$(harness_random_hex 4)

# Runs SQL in the stack's database (harness_sql selects none).
sql()
{
	harness_sql "$envfile" "USE \`$dbname\`; $1"
}
sql "INSERT INTO form (name, created_at, updated_at)
    VALUES ('Form $tag', UTC_TIMESTAMP(), UTC_TIMESTAMP())"
fid=$(sql "SELECT id FROM form WHERE name = 'Form $tag'")
sql "INSERT INTO form_field VALUES ($fid, 'firstName'),
    ($fid, 'lastName'), ($fid, 'email')"
sql "INSERT INTO program (name, type, channel,
    created_at, updated_at) VALUES ('Form program $tag', 'program',
    'Webinar', UTC_TIMESTAMP(), UTC_TIMESTAMP())"
pid=$(sql "SELECT id FROM program WHERE name = 'Form program $tag'")
export FORM_ID="$fid" FORM_PID="$pid" FORM_TAG="$tag" FORM_ENV="$envfile" \
    FORM_DB="$dbname"

exec python3 - <<'PY'
import json, os, subprocess, sys, urllib.parse, urllib.request

base = os.environ['MAUTO_TEST_BASE_URL'].rstrip('/')
token = os.environ['MAUTO_TEST_TOKEN']
fid, pid, tag = (int(os.environ['FORM_ID']), int(os.environ['FORM_PID']),
                 os.environ['FORM_TAG'])

def call(method, path, body=None):
    headers = {'Authorization': 'Bearer ' + token}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers['Content-Type'] = 'application/json'
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers=headers)
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())

def sql(q):
    out = subprocess.run(['bash', '-c', '. "$HARNESS_DIR/env.sh"; '
                          'harness_sql "$FORM_ENV" "USE \\`$FORM_DB\\`; $1"',
                          'sql', q],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()

def fail(msg, doc=None):
    print(msg)
    if doc is not None:
        print(json.dumps(doc)[:2000])
    sys.exit(1)

def submit(fields, **extra):
    item = {'leadFormFields': fields}
    item.update(extra)
    return call('POST', '/rest/v1/leads/submitForm.json',
                {'formId': fid, 'programId': pid, 'input': [item]})

email = 'form-%s@example.com' % tag
cookie = 'id:063-GJP-217&token:_mch-example.com-1594662481190-%d' % int(tag, 16)
visitor = {'pageURL': 'https://example.com/p', 'queryString': 'a=1&b=2',
           'leadClientIpAddress': '192.0.2.5', 'userAgentString': 'Mozilla/5.0'}
doc = submit({'email': email, 'firstName': 'Fran'}, visitorData=visitor,
             cookie=cookie)
if not doc.get('success') or doc['result'][0].get('status') != 'created':
    fail('submit failed', doc)
lead = doc['result'][0]['id']
row = sql('SELECT primary_value_id, attributes FROM activity WHERE '
          'activity_type_id = 2 AND lead_id = %d' % lead).split('\t', 1)
if row[0] != str(fid):
    fail('no Fill Out Form activity', row)
attrs = json.loads(row[1])
if attrs.get('Form Fields', {}).get('firstName') != 'Fran' or \
        attrs.get('Web Page') != 'https://example.com/p' or \
        attrs.get('Query Parameters') != 'a=1&b=2' or \
        attrs.get('Client IP Address') != '192.0.2.5' or \
        attrs.get('User Agent') != 'Mozilla/5.0' or \
        attrs.get('Program ID') != pid or attrs.get('Webform ID') != fid:
    fail('activity attributes', attrs)
doc = call('GET', '/rest/v1/lead/%d.json?fields=cookies,firstName' % lead)
if doc['result'][0].get('cookies') != cookie:
    fail('cookie not on the lead', doc)
doc = call('GET', '/rest/v1/leads.json?filterType=cookies&filterValues=' +
           urllib.parse.quote(cookie, safe=''))
if [l['id'] for l in doc.get('result', [])] != [lead]:
    fail('cookie filter', doc)

# The same email again updates; a cookie owned by a lead stays with it.
doc = submit({'email': email.upper(), 'lastName': 'Again'})
if doc['result'][0] != {'id': lead, 'status': 'updated'}:
    fail('second submit', doc)
doc = submit({'email': 'other-' + email}, cookie=cookie)
other = doc['result'][0]['id']
if sql("SELECT lead_id FROM lead_cookie WHERE cookie = '%s'" % cookie) != \
        str(lead):
    fail('cookie moved to another lead')
doc = call('GET', '/rest/v1/lead/%d.json?fields=cookies' % other)
if doc['result'][0].get('cookies') is not None:
    fail('cookie copied to another lead', doc)

# Record-level problems.
cases = [
    (submit({'email': email, 'title': 'CEO'}), '1006',
     "Field 'title' not found on form 'Form %s'" % tag),
    (submit({'email': email, 'noSuch': 1}), '1006', "Field 'noSuch' not found"),
    (submit({'firstName': 'NoMail'}), '1002',
     "Missing value for the required parameter 'email'"),
    (submit({'email': email}, cookie='not a cookie'), '1012',
     "Invalid cookie value 'not a cookie'"),
    # One cookie rule everywhere: a munchkin id not NNN-XXX-NNN is refused
    # here as Associate Lead and filterType=cookies refuse it.
    (submit({'email': email}, cookie='id:1&token:_mch-x.com-1-2'), '1012',
     "Invalid cookie value 'id:1&token:_mch-x.com-1-2'"),
    (submit({'email': email}, visitorData={'pageURL': 5}), '1003', None),
    (call('POST', '/rest/v1/leads/submitForm.json',
          {'formId': fid, 'input': [{'visitorData': {}}]}), '1003',
     'leadFormFields not specified'),
]
for doc, code, msg in cases:
    r = doc.get('result', [{}])[0]
    if r.get('status') != 'skipped' or r['reasons'][0]['code'] != code or \
            (msg is not None and r['reasons'][0]['message'] != msg):
        fail('expected skipped %s %s' % (code, msg), doc)
doc = call('POST', '/rest/v1/leads/submitForm.json', {'formId': fid,
           'programId': 999999, 'input': [{'leadFormFields': {'email': email}}]})
if doc.get('success') or doc['errors'][0] != {
        'code': '1013', 'message': "Program '999999' not found"}:
    fail('unknown program', doc)
if sql('SELECT COUNT(*) FROM activity WHERE activity_type_id = 2 AND '
       'lead_id = %d' % lead) != '2':
    fail('skipped submissions wrote activities')
print('submit form ok')
PY
