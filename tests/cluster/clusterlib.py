"""What the cluster tests (tests/cluster/t*.py) share.

They run under tests/cluster/run.sh against one stack of
tests/cluster/cluster.sh: CLUSTER_DIR names it, MAUTO_TEST_BASE_URL is the
nginx over every host and CLUSTER_HOST_URLS the hosts' own nginx, in
order.  A test prints "ok - ..." lines, exits 1 at the first failure, and
leaves the cluster as it found it (three nodes Synced, every host up).
"""
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

DIR = os.environ['CLUSTER_DIR']
SRC = os.environ['MAUTO_SRCDIR']
BASE = os.environ['MAUTO_TEST_BASE_URL'].rstrip('/')
HOSTS = os.environ['CLUSTER_HOST_URLS'].split()
SCRIPT = os.path.join(SRC, 'tests', 'cluster', 'cluster.sh')


def fail(msg):
    print('not ok - ' + msg)
    sys.stdout.flush()
    sys.exit(1)


def ok(msg):
    print('ok - ' + msg)
    sys.stdout.flush()


def check(cond, msg):
    if cond:
        ok(msg)
    else:
        fail(msg)


def cluster(verb, *args):
    """Runs a verb of cluster.sh on this run's cluster."""
    subprocess.run(['bash', SCRIPT, verb, DIR] + [str(a) for a in args],
                   check=True, stdout=subprocess.DEVNULL)


def token(base=BASE):
    q = urllib.parse.urlencode({
        'grant_type': 'client_credentials',
        'client_id': os.environ['MAUTO_TEST_CLIENT_ID'],
        'client_secret': os.environ['MAUTO_TEST_CLIENT_SECRET']})
    with urllib.request.urlopen(base + '/identity/oauth/token?' + q,
                                timeout=30) as r:
        return json.loads(r.read())['access_token']


TOKEN = None


def call(base, method, path, body=None, timeout=60):
    """One call; returns (HTTP status, JSON document or None, seconds)."""
    global TOKEN
    if TOKEN is None:
        TOKEN = token()
    h = {'Authorization': 'Bearer ' + TOKEN}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        h['Content-Type'] = 'application/json'
    req = urllib.request.Request(base + path, data=data, headers=h,
                                 method=method)
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    except (urllib.error.URLError, OSError) as e:
        return 0, {'transport': str(e)}, time.monotonic() - t0
    try:
        doc = json.loads(raw)
    except ValueError:
        doc = None
    return status, doc, time.monotonic() - t0


def envelope_error(status, doc):
    """The code of a service error envelope, or None when it is not one."""
    if status != 200 or not isinstance(doc, dict) or doc.get('success'):
        return None
    errs = doc.get('errors') or [{}]
    return errs[0].get('code')


def sql(node, query):
    """Runs SQL as root on node N (1..3) in the cluster's database."""
    out = subprocess.run(
        ['mariadb', '--no-defaults',
         '--socket=%s/node%d/mysqld.sock' % (DIR, node), '--user=root',
         '--batch', '--skip-column-names', 'mauto_cluster', '-e', query],
        check=True, capture_output=True, text=True)
    return out.stdout.strip()


def sync_leads(base, leads, action='createOrUpdate', lookup='email'):
    return call(base, 'POST', '/rest/v1/leads.json',
                {'action': action, 'lookupField': lookup, 'input': leads})


def wait_for(what, pred, secs=120):
    """Polls pred every 0.2 s; fails after secs (a bound, not a figure)."""
    end = time.monotonic() + secs
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.2)
    fail('timed out after %d s waiting for %s' % (secs, what))


def synced_all():
    try:
        cluster('status')
        return True
    except subprocess.CalledProcessError:
        return False


def print_retries(hosts=(1, 2)):
    """Prints how many 1213 certification failures the hosts' logs show
    retried so far."""
    retries = 0
    for h in hosts:
        with open('%s/host%d/mautod.log' % (DIR, h), errors='replace') as f:
            retries += sum(1 for line in f if ': 1213 ' in line)
    print('figure: 1213 certification failures retried by the hosts so '
          'far: %d' % retries)


def race(fns):
    """Runs the functions at the same moment, one thread each; their
    results in order."""
    out = [None] * len(fns)
    go = threading.Barrier(len(fns))

    def one(i):
        go.wait()
        out[i] = fns[i]()
    th = [threading.Thread(target=one, args=(i,)) for i in range(len(fns))]
    for t in th:
        t.start()
    for t in th:
        t.join()
    return out


HOLD = os.path.join(DIR, 'export-hold')


def hold_runners(on):
    """Turns the runners' hold on or off (fault_export_hold): while it is
    on, a runner stops itself (SIGSTOP) as it starts a job."""
    if on:
        open(HOLD, 'w').close()
    elif os.path.exists(HOLD):
        os.unlink(HOLD)


def is_held(pid):
    """Whether process pid is stopped (a runner held after its claim)."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] == 'T'
    except (OSError, IndexError):
        return False


def held_owners(rows):
    """The owners ("host:pid:nonce") of the Processing jobs among rows of
    (status, owner) whose runner is held."""
    return [o for s, o in rows
            if s == 'Processing' and o.count(':') >= 2
            and is_held(int(o.split(':')[1]))]


def host_restart(n, env=None):
    """Stops host N (1..3) and starts it again with the variables of env
    (a dict, e.g. MAUTO_DB_HOST) added to its env file, or with the file
    as cluster.sh wrote it when env is None."""
    path = os.path.join(DIR, 'host%d' % n, 'env')
    subprocess.run(['bash', '-c', '. "$1/tests/harness/env.sh" && '
                    '"$HARNESS_DIR/mautod.sh" stop "$2"', 'stop', SRC,
                    os.path.dirname(path)], check=True,
                   stdout=subprocess.DEVNULL)
    # What cluster.sh wrote stays; a later line overrides it.
    with open(path) as f:
        lines = [x for x in f if '# host_restart' not in x]
    for k, v in (env or {}).items():
        lines.append("export %s='%s' # host_restart\n" % (k, v))
    with open(path, 'w') as f:
        f.writelines(lines)
    cluster('host-start', n)
