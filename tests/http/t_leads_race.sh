#!/usr/bin/env bash
# name: two clients createOrUpdate the same new email at once, 50 times: never two leads
# docs/behaviour.md §5.4 and §14 item 5: the real service can create
# duplicates here; this one must not (lead_claim, repo_leads.h).  Each
# round both clients send the same fresh email at the same moment (a
# barrier); exactly one of them reports "created", and the filter finds
# exactly one lead.
set -euo pipefail

exec python3 - <<'PY'
import json, os, random, sys, threading, urllib.request

base = os.environ['MAUTO_TEST_BASE_URL'].rstrip('/')
token = os.environ['MAUTO_TEST_TOKEN']
tag = '%08x' % random.getrandbits(32)
ROUNDS = 50
barrier = threading.Barrier(2)
results = [[None] * ROUNDS, [None] * ROUNDS]
errors = []

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

def email(i):
    return 'race-%s-%02d@example.com' % (tag, i)

def client(who):
    try:
        for i in range(ROUNDS):
            barrier.wait(timeout=60)
            # Each side also writes a key of its own, so the batches
            # overlap in part, as real ones do.
            doc = call('POST', '/rest/v1/leads.json', {'input': [
                {'email': email(i), 'lastName': 'side%d' % who},
                {'email': 'own-%s-%d-%d@example.com' % (tag, who, i)}]})
            if not doc.get('success'):
                errors.append(doc)
                continue
            results[who][i] = doc['result'][0]
    except Exception as e:
        errors.append(repr(e))
        barrier.abort()

threads = [threading.Thread(target=client, args=(w,)) for w in (0, 1)]
for t in threads:
    t.start()
for t in threads:
    t.join()
if errors:
    print('errors:', json.dumps(errors)[:2000])
    sys.exit(1)
for i in range(ROUNDS):
    a, b = results[0][i], results[1][i]
    statuses = sorted([a.get('status'), b.get('status')])
    if statuses != ['created', 'updated'] or a.get('id') != b.get('id'):
        print('round %d: %s %s' % (i, json.dumps(a), json.dumps(b)))
        sys.exit(1)
    doc = call('GET', '/rest/v1/leads.json?filterType=email&filterValues=' +
               email(i))
    if len(doc.get('result', [])) != 1:
        print('round %d: %d leads' % (i, len(doc.get('result', []))))
        sys.exit(1)
print('%d rounds: one lead each' % ROUNDS)
PY
