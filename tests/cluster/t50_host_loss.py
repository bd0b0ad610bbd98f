# name: host loss: kill -9 a whole mautod host mid-export; nginx routes around it, another host's runner takes the job over after the lease, the file is served from the shared export_dir
# A custom object export (200,000 records) is held Processing: its
# runner stops itself as it starts the job (fault_export_hold, so the
# test does not depend on the machine's speed) and its whole host
# (master, workers, runners) is killed with SIGKILL.  Calls through the
# shared nginx keep succeeding; the job is taken over by a runner of
# another host once its lease (3 s here) has run out, completes, and its
# file is served through any host.  The host is started again at the end.
import os
import random
import signal
import subprocess
import time

from clusterlib import (BASE, DIR, HOSTS, call, check, cluster,
                        fail, held_owners, hold_runners, ok, sql, wait_for)

N = 200000
tag = '%06x' % random.getrandbits(24)
co = 'hx%s' % tag
for method, path, body in (
        ('POST', '/rest/v1/customobjects/schema.json',
         {'apiName': co, 'displayName': 'Host loss %s' % tag}),
        ('POST', '/rest/v1/customobjects/schema/%s/addField.json' % co,
         {'input': [{'name': 'vin', 'displayName': 'VIN', 'dataType': 'string',
                     'isDedupeField': True},
                    {'name': 'color', 'displayName': 'Color', 'dataType': 'string'}]}),
        ('POST', '/rest/v1/customobjects/schema/%s/approve.json' % co, None)):
    # The test before this one (t40) restarted two nodes: the workers
    # replace the connections those restarts closed as they wake, so
    # this first call already succeeds (src/db/pool.c, db_revive_idle).
    st, doc, _ = call(BASE, method, path, body)
    if not (doc and doc.get('success')):
        fail('%s: %s' % (path, doc))
tid = sql(1, "SELECT id FROM co_type WHERE api_name = '%s'" % co)
sql(1, "INSERT INTO co_rec_%s (marketoGUID, createdAt, updatedAt, vin, color) "
    "SELECT CONCAT('00000000-0000-4000-8000-', LPAD(seq, 12, '0')), "
    "'2023-12-31', '2024-01-01 00:00:00' + INTERVAL seq SECOND, "
    "CONCAT('V', seq), 'green' FROM seq_1_to_%d" % (tid, N))

st, doc, _ = call(BASE, 'POST', '/bulk/v1/customobjects/%s/export/create.json' % co,
                  {'fields': ['marketoGUID', 'vin', 'color'],
                   'filter': {'updatedAt': {'startAt': '2024-01-01T00:00:00Z',
                                            'endAt': '2024-01-20T00:00:00Z'}}})
eid = doc['result'][0]['exportId']
hold_runners(True)
st, doc, _ = call(BASE, 'POST', '/bulk/v1/customobjects/%s/export/%s/enqueue.json'
                  % (co, eid))
check(doc['result'][0]['status'] == 'Queued', 'an export job is queued')


def job():
    return sql(1, "SELECT j.status, j.attempts, COALESCE(s.owner, '-') FROM "
               "export_job j LEFT JOIN export_slot s ON s.job_id = j.id "
               "WHERE j.export_id = '%s'" % eid).split('\t')


def held():
    status, _, owner = job()
    if status in ('Completed', 'Failed', 'Cancelled'):
        fail('the job ended %s; its runner was not held' % status)
    return held_owners([(status, owner)])


wait_for('the job to be held Processing', held, 120)
hold_runners(False)
owner = held()[0]
caught = (owner.split(':')[0], int(owner.split(':')[1]), owner)
host_id, pid, owner = caught
victim = int(host_id[1:])
ok('the job is Processing on host %d (runner %d, paused)' % (victim, pid))
killed_at = time.monotonic()
cluster('host-kill', victim)

bad = []
for i in range(30):
    st, doc, _ = call(BASE, 'GET', '/rest/v1/leads.json?filterType=id&filterValues=1')
    if st != 200 or not doc or not doc.get('success'):
        bad.append((st, doc))
check(not bad, '30 calls through the shared nginx succeed with host %d dead (%s)'
      % (victim, bad[:2]))

wait_for('the job to complete on another host',
         lambda: job()[0] in ('Completed', 'Failed'), 180)
status, attempts, _ = job()
check(status == 'Completed', 'the job completed after the take-over (%s, attempt %s)'
      % (status, attempts))
print('figure: job completed %.1f s after its host was killed (lease 3 s)'
      % (time.monotonic() - killed_at))
logs = ''
for h in range(1, len(HOSTS) + 1):
    if h != victim:
        with open('%s/host%d/mautod.log' % (DIR, h), errors='replace') as f:
            logs += f.read()
check('took over job' in logs and owner in logs,
      'another host logged the take-over from %s' % owner)

out = subprocess.run(['curl', '-sS', '-H', 'Authorization: Bearer %s'
                      % __import__('clusterlib').TOKEN,
                      '%s/bulk/v1/customobjects/%s/export/%s/file.json'
                      % (BASE, co, eid)], capture_output=True, check=True).stdout
lines = out.decode().strip().split('\n')
check(len(lines) == N + 1 and lines[1].endswith(',green'),
      'the file is served through the shared nginx: header and %d records' % N)

cluster('host-start', victim)
st, doc, _ = call(HOSTS[victim - 1], 'GET',
                  '/rest/v1/leads.json?filterType=id&filterValues=1')
check(st == 200 and doc and doc.get('success'), 'host %d serves again after its restart'
      % victim)
