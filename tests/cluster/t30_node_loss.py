# name: node loss under load: kill -9 a node while leads sync through every host; only calls in flight fail, no acknowledged lead is lost, the node rejoins
# One client per host syncs new leads (one unique email a call) and keeps
# a ledger of the creates acknowledged.  Node 2 (host 2's node) is killed
# with SIGKILL, then restarted (IST) while the clients go on.  Holds:
# every failed call is the service's error envelope (604/608, retryable),
# not a proxy error; each failed email, sent again, is created or found
# (an outcome lost with the connection is never a duplicate); host 2
# carries on through another node without a restart (same master pid);
# every acknowledged lead is on all three nodes afterwards, each once.
import os
import random
import threading
import time

from clusterlib import (DIR, HOSTS, check, cluster, envelope_error, fail, ok,
                        sql, sync_leads, synced_all, wait_for)

tag = '%06x' % random.getrandbits(24)
stop = threading.Event()
acked = [[] for _ in HOSTS]
errors = []
times = [[] for _ in HOSTS]     # monotonic time of each acknowledged create
lock = threading.Lock()


def client(h):
    i = 0
    while not stop.is_set():
        email = 'nl%s-%d-%d@example.com' % (tag, h, i)
        i += 1
        st, doc, _ = sync_leads(HOSTS[h], [{'email': email}])
        if st == 200 and doc and doc.get('success') and \
                doc['result'][0].get('status') == 'created':
            with lock:
                acked[h].append(email)
                times[h].append(time.monotonic())
        else:
            with lock:
                errors.append((h, email, st, doc))


def counts():
    with lock:
        return [len(a) for a in acked]


def pid_of(h):
    with open('%s/host%d/mautod.pid' % (DIR, h + 1)) as f:
        return int(f.read().strip())


masters = [pid_of(h) for h in range(len(HOSTS))]
th = [threading.Thread(target=client, args=(h,)) for h in range(len(HOSTS))]
for t in th:
    t.start()
try:
    wait_for('20 creates through every host', lambda: min(counts()) >= 20)
    before = counts()
    killed_at = time.monotonic()
    cluster('node-kill', 2)
    wait_for('20 more creates through every host after the kill',
             lambda: all(c >= b + 20 for c, b in zip(counts(), before)))
    ok('every host goes on creating leads with node 2 dead')
    cluster('node-start', 2)
    rejoined_at = time.monotonic()
    before = counts()
    wait_for('10 more creates through every host after the rejoin',
             lambda: all(c >= b + 10 for c, b in zip(counts(), before)))
finally:
    stop.set()
    for t in th:
        t.join()

check(synced_all(), 'node 2 restarted, three nodes Synced again')
print('figure: node 2 Synced again %.1f s after the kill (restarted at once)'
      % (rejoined_at - killed_at))
# The longest gap between two acknowledged creates of one host, around the
# kill: the time to full throughput again.
for h in range(len(HOSTS)):
    ts = [t for t in times[h] if t >= killed_at - 5]
    gaps = [b - a for a, b in zip(ts, ts[1:]) if b >= killed_at]
    print('figure: host %d: longest pause after the kill %.2f s'
          % (h + 1, max(gaps) if gaps else 0))
print('figure: %d creates acknowledged, %d calls failed'
      % (sum(counts()), len(errors)))
for h, email, st, doc in errors:
    code = envelope_error(st, doc)
    if code not in ('604', '608'):
        fail('host %d: a failed call is not a retryable envelope: %s %s'
             % (h + 1, st, doc))
ok('each of the %d failed calls is the service envelope with 604 or 608'
   % len(errors))
for h, email, st, doc in errors:
    st, doc, _ = sync_leads(HOSTS[h], [{'email': email}])
    if not (doc and doc.get('success') and
            doc['result'][0].get('status') in ('created', 'updated')):
        fail('retry of %s: %s %s' % (email, st, doc))
ok('each failed email sent again is created or found')
for h in range(len(HOSTS)):
    if pid_of(h) != masters[h] or not os.path.exists('/proc/%d' % masters[h]):
        fail('host %d was restarted' % (h + 1))
ok('no host was restarted')
want = sum(counts())
ledger = set(e for a in acked for e in a)
for node in (1, 2, 3):
    rows = sql(node, "SELECT email FROM lead WHERE email LIKE 'nl%s-%%'" % tag)
    got = rows.split('\n') if rows else []
    if len(got) != len(set(got)):
        fail('node %d: duplicate leads' % node)
    missing = ledger - set(got)
    if missing:
        fail('node %d: %d acknowledged leads missing, e.g. %s'
             % (node, len(missing), sorted(missing)[:3]))
    ok('node %d holds all %d acknowledged leads, each once (%d rows)'
       % (node, want, len(got)))
