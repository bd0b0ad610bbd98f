# name: the campaign engine on three hosts, two runners each: a batch run over 1500 leads and Request Campaign calls through every host (the same leads requested through all three at once), host 2 or 3 (whichever holds more leads) killed with -9 while its runners hold them; each step of each lead runs exactly once
# docs/behaviour.md §24 and src/engine/engine.c: every host's runners
# claim leads, batch runs and offers in the database with leases, and a
# step re-checks its claim under the row's lock, so runners on several
# hosts (each writing through its own Galera node) share the work without
# running a lead's step twice.  Every host restarts with
# campaign_runners=2 and engine_clock_control on, and goes back to its
# settings at the end.  A batch campaign (Company is the test's; Change
# Data Value, Add to List) runs over LEADS leads; a trigger campaign
# (Campaign is Requested; Change Data Value, Add to List) is requested
# for REQ of them a hundred a call, the calls spread over the hosts, and
# RACE of them are requested through all three hosts at the same moment
# (qualification once: one run of each lead enters, the others skip it).
# Host 2 is killed with -9 while its runners hold leads of the batch; the
# other hosts finish the runs.  The runners that hold claims are sampled
# while the runs go on, so the test shows which hosts did the work.
import json
import os
import random
import subprocess
import time
import urllib.parse
import urllib.request

import clusterlib
from clusterlib import (BASE, DIR, HOSTS, SRC, call, check, fail,
                        host_restart, ok, race, sql, sync_leads, wait_for)

LEADS = 1500
REQ = 300
RACE = 40
tag = '%08x' % random.getrandbits(32)
company = 'T70-%s' % tag


def ctl(*args, clock=False):
    """mautoctl ARGS on the cluster's database; its output."""
    env = dict(os.environ)
    if clock:
        env['MAUTO_ENGINE_CLOCK_CONTROL'] = 'true'
    out = subprocess.run(
        ['bash', '-c', '. "$1/tests/harness/env.sh" && shift 2 && '
         'harness_ctl "$0" "$@"', os.path.join(DIR, 'server.env'), SRC,
         'ctl'] + [str(a) for a in args],
        check=True, capture_output=True, text=True, env=env)
    return out.stdout.strip()


def form(base, path, fields=None):
    """A form-encoded POST through base; the JSON answer (fails the test
    unless it succeeded)."""
    req = urllib.request.Request(
        base + path, data=urllib.parse.urlencode(fields or {}).encode(),
        headers={'Authorization': 'Bearer ' + clusterlib.TOKEN,
                 'Content-Type': 'application/x-www-form-urlencoded'},
        method='POST')
    with urllib.request.urlopen(req, timeout=60) as r:
        doc = json.loads(r.read())
    if not doc.get('success'):
        fail('POST %s %s: %s' % (path, fields, doc))
    return doc


def step(camp, type_id, index, attrs):
    """A flow step of type_id at index with its default choice's attrs."""
    doc = form(BASE, '/rest/asset/v1/smartCampaign/%d/flows.json' % camp, {
        'activityType': json.dumps({'id': type_id, 'type': 'activity'}),
        'index': index})
    s = doc['result'][0]['flow']['steps'][index]
    form(BASE, '/rest/asset/v1/smartCampaign/%d/flow/%d/choice/%d.json'
         % (camp, s['id'], s['stepChoice'][-1]['id']),
         {'attributes': json.dumps(attrs)})


def campaign(name, prog):
    doc = form(BASE, '/rest/asset/v1/smartCampaigns.json', {
        'name': name, 'folder': json.dumps({'id': prog, 'type': 'Program'})})
    return doc['result'][0]['id'], doc['result'][0]['smartListId']


def runner_pids():
    """{pid: host} of every host's campaign runners."""
    out = {}
    for n in range(1, len(HOSTS) + 1):
        with open(os.path.join(DIR, 'host%d' % n, 'mautod.pid')) as f:
            group = f.read().strip()
        r = subprocess.run(['pgrep', '-g', group, '-x', 'mautod-campaign'],
                           capture_output=True, text=True)
        for p in r.stdout.split():
            out[int(p)] = n
    return out


# ---- hosts with two runners each ------------------------------------------
settings = {'MAUTO_CAMPAIGN_RUNNERS': '2',
            'MAUTO_ENGINE_CLOCK_CONTROL': 'true'}
for n in range(1, len(HOSTS) + 1):
    host_restart(n, settings)
pids = runner_pids()
check(sorted(pids.values()) == sorted(list(range(1, len(HOSTS) + 1)) * 2),
      'every host runs two campaign runners (%d in all)' % len(pids))

# ---- leads, lists, campaigns ---------------------------------------------
ids = []
for lo in range(0, LEADS, 300):
    st, doc, _ = sync_leads(HOSTS[lo // 300 % len(HOSTS)], [
        {'email': 't70-%d-%s@example.com' % (k, tag), 'company': company}
        for k in range(lo, min(lo + 300, LEADS))], action='createOnly')
    if not doc or not doc.get('success'):
        fail('leads: %s %s' % (st, doc))
    ids += [r['id'] for r in doc['result']]
check(len(ids) == LEADS, '%d leads created' % LEADS)

prog = int(ctl('program', 'create', '--name', 'T70-Prog-%s' % tag))
list_a = int(ctl('list', 'create', '--name', 'T70-A-%s' % tag))
list_b = int(ctl('list', 'create', '--name', 'T70-B-%s' % tag))
st, doc, _ = call(BASE, 'GET', '/rest/v1/leads/describe.json')
field = [f['id'] for f in doc['result'] if f['rest']['name'] == 'company'][0]

batch, sl = campaign('t70-batch-%s' % tag, prog)
doc = form(BASE, '/rest/asset/v1/smartList/%d/rules.json' % sl, {
    'ruleId': json.dumps({'id': field, 'type': 'attribute'}), 'index': 1})
rule = doc['result'][0]['rules']['filters'][0]['id']
form(BASE, '/rest/asset/v1/smartList/%d/rule/%d.json' % (sl, rule), {
    'attributeId': json.dumps({'id': field, 'type': 'attribute'}),
    'values': company, 'operator': 'is'})
step(batch, 13, 0, {'1': 'Job Title', '2': 'Batch'})
step(batch, 24, 1, {'1': 'T70-A-%s' % tag})
# A step the runners take one lead at a time (the two above run a run's
# leads together), so the run lasts long enough to kill a host mid-way.
step(batch, 104, 2, {'1': str(prog), '2': 'Attended'})

trig, sl = campaign('t70-req-%s' % tag, prog)
doc = form(BASE, '/rest/asset/v1/smartList/%d/rules.json' % sl, {
    'ruleId': json.dumps({'id': 100004, 'type': 'activity'}), 'index': 1,
    'trigger': 'true'})
rule = doc['result'][0]['rules']['triggers'][0]['id']
form(BASE, '/rest/asset/v1/smartList/%d/rule/%d.json' % (sl, rule), {
    'attributeId': json.dumps({'id': 1, 'type': 'activity'}),
    'values': 'Web Service API'})
step(trig, 13, 0, {'1': 'Rating', '2': 'Requested'})
step(trig, 24, 1, {'1': 'T70-B-%s' % tag})
form(BASE, '/rest/asset/v1/smartCampaign/%d/activate.json' % trig,
     {'id': trig})
ok('a batch campaign (three steps) and an active trigger campaign (two)')

# ---- the runs -------------------------------------------------------------
st, doc, _ = call(HOSTS[0], 'POST', '/rest/v1/campaigns/%d/schedule.json'
                  % batch, {})
check(doc and doc.get('success'), 'Schedule Campaign through host 1')
ctl('clock', 'advance', '6m', clock=True)


def request(h, leads):
    return call(HOSTS[h], 'POST', '/rest/v1/campaigns/%d/trigger.json'
                % trig, {'input': {'leads': [{'id': i} for i in leads]}})


answers = []
for k, lo in enumerate(range(0, REQ - RACE, 100)):
    answers.append(request(k % len(HOSTS),
                           ids[lo:min(lo + 100, REQ - RACE)]))
raced = ids[REQ - RACE:REQ]
answers += race([lambda h=h: request(h, raced)
                 for h in range(len(HOSTS))])
bad = [(st, doc) for st, doc, _ in answers
       if not doc or not doc.get('success')]
check(not bad, 'Request Campaign answered success through every host, '
      '%d calls (%s)' % (len(answers), bad[:2]))

# Who holds claims while the runs go on: a claim's first 8 hex digits are
# its runner's pid (src/engine/engine.c, engine_open).
claimed_by = set()


def holders():
    """{host: leads its runners hold now}, sampled into claimed_by."""
    held = {}
    for line in sql(1, 'SELECT claim, COUNT(*) FROM campaign_run_lead '
                    'WHERE campaign_id IN (%d, %d) AND state = \'ready\' '
                    'AND claim IS NOT NULL GROUP BY claim'
                    % (batch, trig)).splitlines():
        c, n = line.split('\t')
        host = pids.get(int(c[:8], 16))
        if host:
            claimed_by.add(host)
            held[host] = held.get(host, 0) + int(n)
    return held


def finished():
    holders()
    left = sql(1, 'SELECT COUNT(*) FROM campaign_run WHERE campaign_id IN '
               '(%d, %d) AND status <> \'done\'' % (batch, trig))
    return left == '0'


# Host 2 dies (kill -9 of its master, workers and runners) while its
# runners hold leads of the batch in the middle of the run: the other
# hosts go on, and take its leads over when their lease of 30 s ends.
t0 = time.monotonic()
lost = 0
while time.monotonic() - t0 < 120 and not lost:
    done = int(sql(1, 'SELECT COUNT(*) FROM campaign_run_lead WHERE '
                   'campaign_id = %d AND state = \'done\'' % batch))
    if 0 < done < LEADS:
        held = holders()
        victim = max((2, 3), key=lambda h: held.get(h, 0))
        lost = held.get(victim, 0)
    if lost:
        clusterlib.cluster('host-kill', victim)
check(lost > 0, 'host %d was killed with -9 holding %d leads, %d of %d '
      'batch leads done' % (victim if lost else 0, lost, done, LEADS))
wait_for('the runs to finish', finished, 300)
print('figure: the runs finished in %.1f s; hosts whose runners held '
      'claims: %s' % (time.monotonic() - t0, sorted(claimed_by)))
check(len(claimed_by) >= 2, 'runners of several hosts did the work '
      '(hosts %s)' % sorted(claimed_by))

# ---- exactly once -----------------------------------------------------------


def per_lead(camp, type_id):
    """(activities, leads with any, leads with more than one)."""
    return sql(1, 'SELECT COALESCE(SUM(c), 0), COUNT(*), '
               'COALESCE(SUM(c > 1), 0) FROM (SELECT lead_id, COUNT(*) c '
               'FROM activity WHERE campaign_id = %d AND activity_type_id '
               '= %d GROUP BY lead_id) x' % (camp, type_id)).split()


for camp, n, what in ((batch, LEADS, 'batch'), (trig, REQ, 'requested')):
    states = sql(1, 'SELECT state, COUNT(*) FROM campaign_run_lead WHERE '
                 'campaign_id = %d AND state <> \'skipped\' GROUP BY state'
                 % camp)
    check(states.split() == ['done', str(n)],
          'the %s campaign: %d leads entered, all done (%s)'
          % (what, n, states.replace('\t', ' ').replace('\n', ', ')))
    for t in (13, 24, 104) if camp == batch else (13, 24):
        got = per_lead(camp, t)
        check(got == [str(n), str(n), '0'],
              'the %s campaign: activity %d once for each of its %d leads '
              '(activities, leads, leads twice: %s)'
              % (what, t, n, got))
skipped = sql(1, 'SELECT COUNT(*), COUNT(DISTINCT lead_id) FROM '
              'campaign_run_lead WHERE campaign_id = %d AND state = '
              '\'skipped\'' % trig).split()
check(skipped == [str(2 * RACE), str(RACE)],
      'each of the %d leads requested through three hosts at once ran '
      'once and was skipped twice (%s)' % (RACE, skipped))
members = sql(1, 'SELECT list_id, COUNT(*), COUNT(DISTINCT lead_id) FROM '
              'list_member WHERE list_id IN (%d, %d) GROUP BY list_id '
              'ORDER BY list_id' % (list_a, list_b)).split()
check(members == [str(list_a), str(LEADS), str(LEADS),
                  str(list_b), str(REQ), str(REQ)],
      'the lists hold the %d and the %d leads' % (LEADS, REQ))
titled = sql(1, "SELECT COUNT(*) FROM lead WHERE company = '%s' AND "
             "title = 'Batch'" % company)
check(titled == str(LEADS), 'every lead of the batch has its Job Title')

# ---- back to the hosts' settings ------------------------------------------
for n in range(1, len(HOSTS) + 1):
    host_restart(n)
ok('the hosts run with their own settings again')
