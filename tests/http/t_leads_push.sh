#!/usr/bin/env bash
# name: Push Lead: upsert, program membership, one activity per lead; Get Leads by Program Id pages the members
# docs/behaviour.md §5.7, §5.13.  The program is made with SQL in the
# stack's database (program creation is not part of the API).
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
prog="Push $tag"
sql "INSERT INTO program (name, type, channel,
    created_at, updated_at) VALUES ('$prog', 'program', 'Webinar',
    UTC_TIMESTAMP(), UTC_TIMESTAMP())"
pid=$(sql "SELECT id FROM program WHERE name = '$prog'")
sql "INSERT INTO program_status (program_id, step, name,
    success) VALUES ($pid, 0, 'Not in Program', 0), ($pid, 1, 'Invited', 0),
    ($pid, 2, 'Registered', 0),
    ($pid, 3, 'Attended', 1)"
export PUSH_PROGRAM="$prog" PUSH_PID="$pid" PUSH_TAG="$tag" PUSH_ENV="$envfile" \
    PUSH_DB="$dbname"

exec python3 - <<'PY'
import json, os, subprocess, sys, urllib.request

base = os.environ['MAUTO_TEST_BASE_URL'].rstrip('/')
token = os.environ['MAUTO_TEST_TOKEN']
prog, pid, tag = (os.environ['PUSH_PROGRAM'], int(os.environ['PUSH_PID']),
                  os.environ['PUSH_TAG'])

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
                          'harness_sql "$PUSH_ENV" "USE \\`$PUSH_DB\\`; $1"',
                          'sql', q],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()

def fail(msg, doc=None):
    print(msg)
    if doc is not None:
        print(json.dumps(doc)[:2000])
    sys.exit(1)

old = 'push-old-%s@example.com' % tag
new = 'push-new-%s@example.com' % tag
doc = call('POST', '/rest/v1/leads.json', {'input': [{'email': old}]})
old_id = doc['result'][0]['id']

body = {'programName': prog, 'source': 'Cool Site', 'reason': "Pricing 'sheet'",
        'input': [{'email': old, 'firstName': 'Old'},
                  {'email': new, 'firstName': 'New'},
                  {'email': 'bad', 'firstName': 'X'}]}
doc = call('POST', '/rest/v1/leads/push.json', body)
if not doc.get('success') or len(doc['result']) != 3:
    fail('push failed', doc)
r0, r1, r2 = doc['result']
want = {'progressionStatus': 'Invited', 'reachedSuccess': False,
        'isExhausted': False, 'stream': None, 'nurtureCadence': None}
for r, status, acquired in ((r0, 'updated', False), (r1, 'created', True)):
    m = r.get('membership', {})
    if r.get('status') != status or any(m.get(k, '?') != v
                                        for k, v in want.items()) or \
            m.get('acquiredBy') is not acquired or \
            not m.get('membershipDate', '').endswith('Z'):
        fail('bad push result', doc)
if r0['id'] != old_id or r2.get('status') != 'skipped' or \
        r2['reasons'][0]['code'] != '1003' or 'membership' in r2:
    fail('bad push results', doc)
new_id = r1['id']

# Exactly one push activity per lead, carrying source and reason.
for lead in (old_id, new_id):
    n = sql('SELECT COUNT(*) FROM activity WHERE activity_type_id = 145 '
            'AND lead_id = %d AND primary_value_id = %d' % (lead, pid))
    if n != '1':
        fail('lead %d has %s push activities' % (lead, n))
attrs = json.loads(sql('SELECT attributes FROM activity WHERE '
                       'activity_type_id = 145 AND lead_id = %d' % new_id))
if attrs.get('Source') != 'Cool Site' or attrs.get('Reason') != "Pricing 'sheet'":
    fail('push activity attributes', attrs)
if sql('SELECT COUNT(*) FROM activity WHERE activity_type_id = 12 AND '
       'lead_id = %d' % new_id) != '1':
    fail('no New Lead activity')

# Without programStatus a new member gets the first status that makes it
# a member (Invited), not "Not in Program" (above, in want).

# A named status moves members forward; an unknown one is 1025.
doc = call('POST', '/rest/v1/leads/push.json', {'programName': prog,
           'programStatus': 'Attended', 'input': [{'email': new}]})
m = doc['result'][0].get('membership', {})
if m.get('progressionStatus') != 'Attended' or m.get('reachedSuccess') is not True:
    fail('status not moved', doc)
doc = call('POST', '/rest/v1/leads/push.json', {'programName': prog,
           'programStatus': 'Nope', 'input': [{'email': new}]})
if doc.get('success') or doc['errors'][0] != {
        'code': '1025', 'message': "Program status 'Nope' not found"}:
    fail('unknown status', doc)
doc = call('POST', '/rest/v1/leads/push.json', {'programName': prog,
           'lookupField': 'id', 'input': [{'id': new_id}]})
if doc.get('success') or doc['errors'][0]['code'] != '1011':
    fail('lookupField id on push', doc)

# Get Leads by Program Id: both members, by id, paged by 1.
path = '/rest/v1/leads/programs/%d.json?fields=email,firstName&batchSize=1' % pid
doc = call('GET', path)
if doc.get('moreResult') is not True or len(doc['result']) != 1:
    fail('first page', doc)
first = doc['result'][0]
if first['id'] != old_id or first['email'] != old or \
        first['membership']['progressionStatus'] != 'Invited' or \
        not first['membership']['updatedAt'].endswith('Z'):
    fail('first member', doc)
# The membership object as the documentation's example has it.
if list(first['membership']) != ['id', 'progressionStatus',
        'progressionStatusType', 'isExhausted', 'acquiredBy',
        'reachedSuccess', 'membershipDate', 'updatedAt'] or \
        first['membership']['id'] != pid or \
        first['membership']['progressionStatusType'] != 'Invited':
    fail('membership object', doc)
doc = call('GET', path + '&nextPageToken=' + doc['nextPageToken'])
if len(doc['result']) != 1 or doc['result'][0]['id'] != new_id or \
        doc['result'][0]['membership']['progressionStatus'] != 'Attended' or \
        'moreResult' in doc:
    fail('second page', doc)
# A filter token does not page a program.
tok = call('GET', '/rest/v1/leads.json?filterType=email&filterValues=%s,%s'
           '&batchSize=1' % (old, new))['nextPageToken']
doc = call('GET', path + '&nextPageToken=' + tok)
if doc.get('success') or doc['errors'][0]['code'] != '1003':
    fail('filter token accepted by program read', doc)
print('push: membership, activities, program paging ok')
PY
