#!/usr/bin/env bash
# name: 300 synced leads paged by 7 through POST ?_method=GET: each seen once while others write; the 1000-match cap
# docs/behaviour.md §4.6, §5.3: position-based paging (id > last) is stable
# while leads are inserted between pages, new matches come at the end; a
# tampered token is 1003; more than 1000 matching leads is 1003 "Too many
# results match the filter" (1000 exactly is served).
set -euo pipefail

exec python3 - <<'PY'
import json, os, random, sys, urllib.parse, urllib.request

base = os.environ['MAUTO_TEST_BASE_URL'].rstrip('/')
token = os.environ['MAUTO_TEST_TOKEN']
tag = '%08x' % random.getrandbits(32)

def call(method, path, body=None, form=None):
    headers = {'Authorization': 'Bearer ' + token}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers['Content-Type'] = 'application/json'
    elif form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers['Content-Type'] = 'application/x-www-form-urlencoded'
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers=headers)
    with urllib.request.urlopen(req, timeout=60) as r:
        assert r.status == 200, r.status
        return json.loads(r.read())

def fail(msg, doc=None):
    print(msg)
    if doc is not None:
        print(json.dumps(doc)[:2000])
    sys.exit(1)

def sync(records, action='createOrUpdate'):
    doc = call('POST', '/rest/v1/leads.json',
               {'action': action, 'input': records})
    if not doc.get('success'):
        fail('sync failed', doc)
    return doc['result']

emails = ['page-%s-%03d@example.com' % (tag, i) for i in range(300)]
res = sync([{'email': e, 'firstName': 'P%d' % i} for i, e in enumerate(emails)])
if len(res) != 300 or any(r.get('status') != 'created' for r in res):
    fail('expected 300 created', res)
ids = [r['id'] for r in res]
if ids != sorted(ids) or len(set(ids)) != 300:
    fail('ids not increasing in input order', ids)

form = {'filterType': 'email', 'filterValues': ','.join(emails),
        'batchSize': '7', 'fields': 'email,firstName'}
seen = {}
extra = []
pages = 0
tok = None
while True:
    f = dict(form)
    if tok:
        f['nextPageToken'] = tok
    doc = call('POST', '/rest/v1/leads.json?_method=GET', form=f)
    if not doc.get('success'):
        fail('page failed', doc)
    pages += 1
    if len(doc['result']) > 7:
        fail('page over batchSize', doc)
    for lead in doc['result']:
        seen[lead['id']] = seen.get(lead['id'], 0) + 1
    if not doc.get('moreResult'):
        if 'nextPageToken' in doc:
            fail('nextPageToken without moreResult', doc)
        break
    tok = doc['nextPageToken']
    if not tok.isupper() or not tok.endswith('='):
        fail('token shape', doc)
    # Others write between pages: an unrelated lead, and on a few pages a
    # new lead matching the filter (it has a higher id: it comes last).
    sync([{'email': 'other-%s-%d@example.com' % (tag, pages)}])
    if pages % 10 == 0:
        extra += [r['id'] for r in sync([{'email': emails[pages]}],
                                         'createDuplicate')]
    if pages > 200:
        fail('paging does not end')
for i in ids:
    if seen.get(i) != 1:
        fail('lead %d seen %s times' % (i, seen.get(i)))
for i in extra:
    if seen.get(i) != 1:
        fail('lead %d inserted while paging seen %s times' % (i, seen.get(i)))
if set(seen) != set(ids) | set(extra):
    fail('unexpected leads', sorted(set(seen) - set(ids) - set(extra)))
print('%d leads on %d pages, %d inserted while paging' %
      (len(seen), pages, len(extra)))

# A token of this query with one value changed is refused.
f = dict(form, filterValues=','.join(emails[1:]), nextPageToken=tok or 'X')
doc = call('POST', '/rest/v1/leads.json?_method=GET', form=f)
if doc.get('success') or doc['errors'][0]['code'] != '1003':
    fail('foreign token accepted', doc)

# The cap: 1000 matching leads are served, 1001 are refused.
cap = 'cap-%s@example.com' % tag
for n in (300, 300, 300, 100):
    sync([{'email': cap}] * n, 'createDuplicate')
q = '/rest/v1/leads.json?filterType=email&filterValues=' + cap
doc = call('GET', q)
if not doc.get('success') or len(doc['result']) != 300 or \
        doc.get('moreResult') is not True:
    fail('1000 matches should be served', doc)
sync([{'email': cap}], 'createDuplicate')
doc = call('GET', q)
if doc.get('success') or doc['errors'][0] != {
        'code': '1003', 'message': 'Too many results match the filter'}:
    fail('1001 matches should be 1003', doc)
# The same query with a token (a later page) is not refused again.
print('cap enforced at 1001')
PY
