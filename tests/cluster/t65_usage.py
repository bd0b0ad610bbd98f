# name: the usage and error statistics count the calls of every host: each host writes its own rows and every host reads the same sums
# docs/behaviour.md §18: a host counts calls and error codes in its
# shared memory and adds them to its own rows of api_stats_host at each
# limits sync; a read sums all hosts' rows.  Each of the three hosts
# answers a Delete Leads of two unknown ids (two skipped records, reason
# 1004); then every host's Get Daily Errors shows the six more 1004s,
# and the table holds rows of every host and no row of two.
import random
import time

from clusterlib import BASE, HOSTS, call, check, fail, ok, sql, wait_for

tag = random.randint(10**8, 2 * 10**8)


def errors(base, code):
    st, doc, _ = call(base, 'GET', '/rest/v1/stats/errors.json')
    if st != 200 or not doc or not doc.get('success'):
        fail('errors.json through %s: %s %s' % (base, st, doc))
    day = doc['result'][0]
    return day['date'], sum(e['count'] for e in day['errors']
                            if e['errorCode'] == code)


# A count no host has left to write: two reads a sync apart agree.
def settled():
    global before
    a = errors(HOSTS[0], '1004')[1]
    time.sleep(1.5)
    before = errors(HOSTS[0], '1004')[1]
    return a == before


before = None
wait_for('the 1004 count to settle', settled, 60)
for h in HOSTS:
    st, doc, _ = call(h, 'POST', '/rest/v1/leads/delete.json',
                      {'input': [{'id': tag}, {'id': tag + 1}]})
    reasons = [r.get('reasons', [{}])[0].get('code')
               for r in (doc or {}).get('result', [])]
    if reasons != ['1004', '1004']:
        fail('delete of unknown leads through %s: %s %s' % (h, st, doc))
for i, h in enumerate(HOSTS):
    wait_for('host %d to read the six skipped records' % (i + 1),
             lambda: errors(h, '1004')[1] == before + 6, 30)
ok('every host reads the 1004s of all three hosts (%d before, %d after)'
   % (before, before + 6))

date = errors(BASE, '1004')[0]
key = date.replace('-', '')
hosts = sql(1, 'SELECT COUNT(DISTINCT host) FROM api_stats_host '
            'WHERE kind = 2 AND item = 1004 AND day_key = %s' % key)
check(int(hosts) >= len(HOSTS), '%s hosts wrote 1004 rows of %s, each its '
      'own' % (hosts, date))
st, doc, _ = call(BASE, 'GET', '/rest/v1/stats/usage/last7days.json')
check(st == 200 and len(doc['result']) == 7 and
      doc['result'][0]['date'] == date and doc['result'][0]['total'] > 0,
      'the weekly usage answers seven days, today first with calls')
