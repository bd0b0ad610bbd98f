#!/usr/bin/env bash
# name: Describe Lead, Describe Lead2 and every page of Get Lead Fields agree on the catalogue
# docs/behaviour.md §5.11, §5.12, §4.6: the three views list the same fields
# (before and after a create), pages neither repeat nor skip a field, length
# appears for string-ish types only, and searchableFields are the fields
# Describe Lead2 marks searchable, custom string/email/integer ones included.
set -euo pipefail

: "${MAUTO_TEST_BASE_URL:?}" "${MAUTO_TEST_TOKEN:?}"
python3 - <<'PY'
import json, os, random, sys, time, urllib.parse, urllib.request

base = os.environ['MAUTO_TEST_BASE_URL'].rstrip('/')
hdr = {'Authorization': 'Bearer ' + os.environ['MAUTO_TEST_TOKEN']}

def call(method, path, body=None):
    data = None
    h = dict(hdr)
    if body is not None:
        data = json.dumps(body).encode()
        h['Content-Type'] = 'application/json'
    # 604 and 608 are transient (a worker reconnecting after a database
    # restart, e.g. after t_db_outage.sh): retried, as clients must.
    for attempt in range(5):
        req = urllib.request.Request(base + path, data=data, headers=h,
                                     method=method)
        with urllib.request.urlopen(req, timeout=60) as r:
            doc = json.loads(r.read())
        if doc.get('success') or doc['errors'][0]['code'] not in ('604',
                                                                  '608'):
            break
        time.sleep(0.5)
    if not doc.get('success'):
        sys.exit('%s %s failed: %s' % (method, path, doc))
    return doc

def fail(msg):
    sys.exit('FAIL: ' + msg)

def pages(batch):
    names, tok, n = [], None, 0
    while True:
        q = {'batchSize': batch}
        if tok:
            q['nextPageToken'] = tok
        doc = call('GET', '/rest/v1/leads/schema/fields.json?' +
                   urllib.parse.urlencode(q))
        if 'moreResult' not in doc:
            fail('moreResult missing')
        if len(doc['result']) > batch:
            fail('page longer than batchSize %d' % batch)
        names += [f['name'] for f in doc['result']]
        if doc['moreResult']:
            tok = doc.get('nextPageToken')
            if not tok:
                fail('moreResult true without nextPageToken')
        else:
            if 'nextPageToken' in doc:
                fail('nextPageToken with moreResult false')
            return names
        n += 1
        if n > 1000:
            fail('paging does not end')

STRINGISH = {'string', 'email', 'phone', 'url'}

def check(extra):
    d1 = call('GET', '/rest/v1/leads/describe.json')['result']
    d2 = call('GET', '/rest/v1/leads/describe2.json')['result']
    full = call('GET', '/rest/v1/leads/schema/fields.json')
    if len(d2) != 1 or d2[0]['name'] != 'API Lead':
        fail('describe2 is not one API Lead element')
    n1 = [f['rest']['name'] for f in d1]
    n2 = [f['name'] for f in d2[0]['fields']]
    n3 = [f['name'] for f in full['result']]
    if n1 != n2 or n2 != n3:
        fail('describe, describe2 and the field list differ')
    if len(set(x.lower() for x in n1)) != len(n1):
        fail('a field name appears twice')
    if len(set(f['id'] for f in d1)) != len(d1):
        fail('an id appears twice')
    for batch in (1, 7, 300):
        if pages(batch) != n3:
            fail('pages of %d do not give the list' % batch)
    for f in d1:
        has = 'length' in f
        if has != (f['dataType'] in STRINGISH):
            fail('length on %s (%s): %s' % (f['rest']['name'],
                 f['dataType'], has))
    for name in extra:
        if name not in n1:
            fail('%s missing after create' % name)
    search = [s[0] for s in d2[0]['searchableFields']]
    for s in d2[0]['searchableFields']:
        if len(s) != 1:
            fail('searchableFields element %s' % s)
    for name, want in extra.items():
        if (name in search) != want:
            fail('%s searchable: %s' % (name, name in search))
    for must in ('id', 'email', 'sfdcLeadId', 'cookies'):
        if must not in search:
            fail('%s not searchable' % must)
    if 'firstName' in search:
        fail('firstName searchable')
    return len(n1)

before = check({})
tag = '%06x' % random.getrandbits(24)
made = {'cons%sS' % tag: ('string', True), 'cons%sE' % tag: ('email', True),
        'cons%sI' % tag: ('integer', True), 'cons%sP' % tag: ('phone', False),
        'cons%sB' % tag: ('boolean', False), 'cons%sD' % tag: ('date', False)}
res = call('POST', '/rest/v1/leads/schema/fields.json', {'input': [
    {'name': n, 'displayName': 'Cons %s' % n, 'dataType': t}
    for n, (t, _) in made.items()]})['result']
if [r['status'] for r in res] != ['created'] * len(made):
    fail('create: %s' % res)
after = check({n: s for n, (_, s) in made.items()})
if after != before + len(made):
    fail('%d fields before, %d after creating %d' % (before, after,
         len(made)))
print('%d fields, then %d; all views agree' % (before, after))
PY
