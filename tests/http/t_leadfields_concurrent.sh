#!/usr/bin/env bash
# name: concurrent creates of one lead field through all workers make it once, and every worker serves it at once
# Create Lead Fields (docs/behaviour.md §5.12) from several clients at the
# same moment, through nginx to different mautod workers: exactly one
# "created", the others "Field '...' already exists"; right after, reads
# on every worker (by name, describe2) see the field with no delay.
set -euo pipefail

: "${MAUTO_TEST_BASE_URL:?}" "${MAUTO_TEST_TOKEN:?}"
python3 - <<'PY'
import json, os, random, sys, threading, time, urllib.request

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
            return doc
        time.sleep(0.5)
    return doc

def fail(msg):
    sys.exit('FAIL: ' + msg)

def race(n, make_body):
    out = [None] * n
    go = threading.Barrier(n)
    def one(i):
        go.wait()
        out[i] = call('POST', '/rest/v1/leads/schema/fields.json',
                      make_body(i))
    th = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    return out

for rnd in range(4):
    name = 'race%06x' % random.getrandbits(24)
    typ = ('string', 'integer', 'email', 'date')[rnd]
    out = race(6, lambda i: {'input': [{'name': name if i % 2 else
               name.upper(), 'displayName': 'Race %s %d' % (name, i),
               'dataType': typ}]})
    st = []
    for doc in out:
        if not doc.get('success'):
            fail('request failed: %s' % doc)
        st.append(doc['result'][0])
    created = [r for r in st if r['status'] == 'created']
    if len(created) != 1:
        fail('%s: %d created: %s' % (name, len(created), st))
    for r in st:
        if r['status'] == 'skipped':
            msg = r['reasons'][0]['message']
            if r['reasons'][0]['code'] != '1003' or 'already exists' not in msg:
                fail('unexpected reason %s' % r)
    # Every worker knows it now (24 reads spread over them).
    for i in range(24):
        doc = call('GET', '/rest/v1/leads/schema/fields/%s.json' % name)
        if not doc.get('success') or doc['result'][0]['dataType'] != typ:
            fail('read %d of %s: %s' % (i, name, doc))
    doc = call('GET', '/rest/v1/leads/describe2.json')
    names = [f['name'].lower() for f in doc['result'][0]['fields']]
    if names.count(name.lower()) != 1:
        fail('%s appears %d times in describe2' % (name,
             names.count(name.lower())))

# Different names at once all succeed (the ALTERs queue, none is lost).
tag = '%06x' % random.getrandbits(24)
out = race(6, lambda i: {'input': [{'name': 'par%s_%d' % (tag, i),
           'displayName': 'Par %s %d' % (tag, i), 'dataType': 'string'}]})
if [d['result'][0]['status'] for d in out] != ['created'] * 6:
    fail('parallel distinct creates: %s' % out)
print('one create per name under a race; all workers see new fields at once')
PY
