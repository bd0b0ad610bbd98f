# name: a connection lost at COMMIT (outcome unknown) never yields a duplicate or a wrong answer
# Host 3 is started again with its db_host pointed at a proxy in front of
# node 3 (tests/cluster/commitcut.py) that closes the connection at
# COMMIT: half the time before sending it (the transaction is rolled
# back), half the time after the server committed (the client never
# learns it).  mautod sees 2013 at COMMIT either way.  Through host 3, one
# client creates leads (createOnly, a new email a call), custom object
# records (a new dedupe key a call) and landing page templates (a new
# name a call), keeping a ledger of the answers.  Afterwards, on every
# node: every acknowledged create exists exactly once; a call that failed
# was told 608 (retryable), never 611 or a success, and its row is
# absent or there once.  A client sends each failed call again: the
# second answer agrees with what the first left (created when absent,
# already there when present), and nothing is ever there twice.
import json
import random
import subprocess
import time
import urllib.parse

import clusterlib
import commitcut
from clusterlib import (DIR, HOSTS, call, check, cluster, envelope_error,
                        fail, host_restart, sql, sync_leads, wait_for)

CALLS = 60
tag = '%06x' % random.getrandbits(24)
node3 = int(sql(3, 'SELECT @@port'))
proxy = commitcut.CommitCutter(node3)
host_restart(3, {'MAUTO_DB_HOST': '127.0.0.1:%d' % proxy.port})
H = HOSTS[2]

# A custom object type to create records of (approved through host 1).
co = 'cl%s' % tag
for method, path, body in (
        ('POST', '/rest/v1/customobjects/schema.json',
         {'apiName': co, 'displayName': 'Lost %s' % tag}),
        ('POST', '/rest/v1/customobjects/schema/%s/addField.json' % co,
         {'input': [{'name': 'k', 'displayName': 'K', 'dataType': 'string',
                     'isDedupeField': True}]}),
        ('POST', '/rest/v1/customobjects/schema/%s/approve.json' % co, None)):
    st, doc, _ = call(HOSTS[0], method, path, body)
    if not (doc and doc.get('success')):
        fail('%s: %s' % (path, doc))
tid = sql(1, "SELECT id FROM co_type WHERE api_name = '%s'" % co)


def lead(key):
    return sync_leads(H, [{'email': key}], 'createOnly')


def record(key):
    return call(H, 'POST', '/rest/v1/customobjects/%s.json' % co,
                {'action': 'createOnly', 'input': [{'k': key}]})


def template(key):
    q = urllib.parse.urlencode({'name': key, 'folder': json.dumps(
        {'id': 4, 'type': 'Folder'})})
    return call(H, 'POST', '/rest/asset/v1/landingPageTemplates.json?' + q)


KINDS = {
    # what, call, rows of a key on a node, answers: created, already there
    'lead': (lead, "SELECT COUNT(*) FROM lead WHERE email = '%s'"),
    'record': (record, "SELECT COUNT(*) FROM co_rec_" + tid +
               " WHERE k = '%s'"),
    'template': (template,
                 "SELECT COUNT(*) FROM lp_template WHERE name = '%s'"),
}


def outcome(kind, res):
    """'created', 'exists' or the error code of a service envelope."""
    st, doc, _ = res
    code = envelope_error(st, doc)
    if code is not None:
        return code
    if st != 200 or not isinstance(doc, dict) or not doc.get('success'):
        fail('%s: not a service answer: %s %s' % (kind, st, doc))
    r = doc['result'][0]
    if kind == 'template':
        return 'created'
    if r.get('status') == 'created':
        return 'created'
    reasons = [x.get('code') for x in r.get('reasons') or []]
    # 1005 Lead already exists, 1017 Object already exists.
    if r.get('status') == 'skipped' and reasons in (['1005'], ['1017']):
        return 'exists'
    fail('%s: unexpected answer %s' % (kind, doc))


def on_nodes(kind, key):
    got = {sql(n, KINDS[kind][1] % key) for n in (1, 2, 3)}
    if len(got) != 1:
        fail('%s %s: the nodes differ: %s' % (kind, key, got))
    return int(got.pop())


ledger = []
proxy.cutting = True
try:
    for i in range(CALLS):
        for kind in KINDS:
            key = '%s%s-%d%s' % (kind[0], tag, i,
                                 '@example.com' if kind == 'lead' else '')
            ledger.append((kind, key, outcome(kind, KINDS[kind][0](key))))
finally:
    proxy.cutting = False
cuts = dict(proxy.cuts)

acked = [x for x in ledger if x[2] == 'created']
failed = [x for x in ledger if x[2] != 'created']
bad = [x for x in failed if x[2] != '608']
if bad:
    fail('calls answered other than success or 608: %s' % bad[:5])
for kind, key, _ in acked:
    if on_nodes(kind, key) != 1:
        fail('acknowledged %s %s is there %d times'
             % (kind, key, on_nodes(kind, key)))
check(True, '%d acknowledged creates (%d calls, %d COMMITs cut before and %d '
      'after sending): each on every node exactly once'
      % (len(acked), len(ledger), cuts['before'], cuts['after']))
if cuts['after'] == 0 or not failed:
    fail('no COMMIT was lost after the server committed: the test tested '
         'nothing')

# The client sends every failed call again, through a host on another node.
present = 0
for kind, key, _ in failed:
    was = on_nodes(kind, key)
    if was > 1:
        fail('failed %s %s is there %d times' % (kind, key, was))
    present += was
    if kind == 'template':
        # A second template of one name is refused by name, not skipped.
        res = call(HOSTS[0], 'POST', '/rest/asset/v1/landingPageTemplates.'
                   'json?' + urllib.parse.urlencode({
                       'name': key, 'folder': json.dumps(
                           {'id': 4, 'type': 'Folder'})}))
        got = outcome(kind, res)
        want = 'created' if was == 0 else '709'
    else:
        H = HOSTS[0]
        got = outcome(kind, KINDS[kind][0](key))
        H = HOSTS[2]
        want = 'created' if was == 0 else 'exists'
    if got != want:
        fail('%s %s: there %d times before, sent again: %s' %
             (kind, key, was, got))
    if on_nodes(kind, key) != 1:
        fail('%s %s sent again: there %d times' %
             (kind, key, on_nodes(kind, key)))
check(True, '%d calls answered 608 (the connection lost at COMMIT): %d had '
      'committed, %d had not; sent again, each answers as its row says and '
      'is there exactly once' % (len(failed), present, len(failed) - present))
print('figure: COMMITs cut: %d before, %d after the server had them; '
      'failed calls %d of %d' % (cuts['before'], cuts['after'], len(failed),
                                 len(ledger)))

# A bulk export whose enqueue and completion each lose the connection at
# COMMIT after the server committed.  Both are run again by the service
# (src/db/pool.c: idempotent transactions) and must see their own first
# run: the enqueue answers Queued, not "not in created state", and the
# runner keeps the file of the job it completed.  Only host 3 runs
# export runners meanwhile.
for h in (1, 2):
    host_restart(h, {'MAUTO_EXPORT_RUNNER': 'false'})
day = 24 * 3600
now = time.time()
st, doc, _ = call(HOSTS[0], 'POST', '/bulk/v1/customobjects/%s/export/'
                  'create.json' % co, {
                      'fields': ['k'],
                      'filter': {'updatedAt': {
                          'startAt': time.strftime('%Y-%m-%dT%H:%M:%SZ',
                                                   time.gmtime(now - day)),
                          'endAt': time.strftime('%Y-%m-%dT%H:%M:%SZ',
                                                 time.gmtime(now + day))}}})
if not (doc and doc.get('success')):
    fail('export create: %s' % doc)
eid = doc['result'][0]['exportId']
base = '/bulk/v1/customobjects/%s/export/%s' % (co, eid)
proxy.arm(eid.encode(), 'after')
proxy.arm(b'sha256:', 'after')
st, doc, _ = call(H, 'POST', base + '/enqueue.json')
if proxy.armed(eid.encode()):
    fail('the enqueue sent no COMMIT through the proxy')
check(doc and doc.get('success') and
      doc['result'][0]['status'] in ('Queued', 'Processing', 'Completed'),
      'an enqueue whose COMMIT was lost after the server had it answers '
      'success (%s)' % doc['result'][0]['status'] if doc and
      doc.get('success') else 'enqueue: %s' % doc)


def status():
    st, doc, _ = call(HOSTS[0], 'GET', base + '/status.json')
    return doc['result'][0]['status']


wait_for('the export to end', lambda: status() in ('Completed', 'Failed'))
check(not proxy.armed(b'sha256:') and status() == 'Completed',
      'the runner completed the job; the COMMIT of its completion was lost '
      'after the server had it')


def runner_done():
    """Whether host 3's runner has logged the end of the job: the records
    written, or the file dropped."""
    with open('%s/host3/mautod.log' % DIR, errors='replace') as f:
        return any(eid in line and ('records' in line or 'dropped' in line)
                   for line in f)


wait_for("host 3's runner to finish with the job", runner_done)
rows = int(sql(1, 'SELECT COUNT(*) FROM co_rec_' + tid))
out = subprocess.run(['curl', '-sS', '-H', 'Authorization: Bearer %s'
                      % clusterlib.TOKEN, HOSTS[0] + base + '/file.json'],
                     capture_output=True, check=True).stdout.decode()
check(len(out.strip().split('\n')) == rows + 1,
      'its file is kept and served: header and %d records' % rows)

proxy.close()
for h in (1, 2, 3):
    host_restart(h)
st, doc, _ = call(HOSTS[0], 'POST',
                  '/rest/v1/customobjects/schema/%s/delete.json' % co)
check(doc and doc.get('success'), 'host 3 back on its nodes')
cluster('status')
