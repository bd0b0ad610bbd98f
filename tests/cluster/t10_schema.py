# name: schema changes at runtime on one host are seen by every host at once; writes meanwhile succeed
# Create Lead Fields through host 1 while a client syncs leads through
# host 2: every field is read back through hosts 2 and 3 right after its
# create answered (no reload, no delay), a lead is synced with it through
# host 3, and no concurrent sync failed: the ALTER TABLE runs as Galera's
# total order isolation (docs/galera.md), which makes writes on every node
# wait while it runs.  Then a custom object type approved through host 2
# (its table created by DDL) takes records through host 3 and reads them
# through host 1.
import random
import threading
import time

from clusterlib import HOSTS, call, check, fail, ok, sync_leads

tag = '%06x' % random.getrandbits(24)
stop = threading.Event()
writes = {'ok': 0, 'bad': [], 'max': 0.0}


def writer():
    i = 0
    while not stop.is_set():
        st, doc, secs = sync_leads(HOSTS[1], [{'email': 'ddl%s-%d@example.com'
                                               % (tag, i)}])
        writes['max'] = max(writes['max'], secs)
        if st == 200 and doc and doc.get('success') and \
                doc['result'][0]['status'] == 'created':
            writes['ok'] += 1
        else:
            writes['bad'].append((st, doc))
        i += 1


th = threading.Thread(target=writer)
th.start()
try:
    for i, typ in enumerate(('string', 'integer', 'boolean', 'date')):
        name = 'ddl%s%d' % (tag, i)
        st, doc, secs = call(HOSTS[0], 'POST', '/rest/v1/leads/schema/fields.json',
                             {'input': [{'name': name, 'displayName': 'DDL %s %d'
                                         % (tag, i), 'dataType': typ}]})
        if not (doc and doc.get('success') and
                doc['result'][0]['status'] == 'created'):
            fail('create %s through host 1: %s' % (name, doc))
        for h in (1, 2):
            st, doc, _ = call(HOSTS[h], 'GET',
                              '/rest/v1/leads/schema/fields/%s.json' % name)
            if not (doc and doc.get('success') and
                    doc['result'][0]['dataType'] == typ):
                fail('host %d does not see %s at once: %s' % (h + 1, name, doc))
        print('figure: Create Lead Field %s: %.0f ms' % (typ, secs * 1000))
    ok('4 lead fields created through host 1 are read through hosts 2 and 3 right after')
finally:
    stop.set()
    th.join()
check(not writes['bad'] and writes['ok'] > 0,
      '%d syncs through host 2 during the ALTERs, none failed (%s)'
      % (writes['ok'], writes['bad'][:2]))
print('figure: longest sync during the ALTERs: %.0f ms' % (writes['max'] * 1000))

name = 'ddl%s0' % tag
st, doc, _ = sync_leads(HOSTS[2], [{'email': 'ddlf%s@example.com' % tag,
                                    name: 'through host 3'}])
check(doc and doc.get('success') and doc['result'][0]['status'] == 'created',
      'a lead with the new field is synced through host 3')
lid = doc['result'][0]['id']
st, doc, _ = call(HOSTS[0], 'GET', '/rest/v1/lead/%d.json?fields=%s' % (lid, name))
check(doc and doc.get('success') and doc['result'][0].get(name) == 'through host 3',
      'and read through host 1 with its value')

co = 'cl%s' % tag
for what, h, method, path, body in (
        ('create the type', 1, 'POST', '/rest/v1/customobjects/schema.json',
         {'apiName': co, 'displayName': 'Cluster %s' % tag}),
        ('add fields', 2, 'POST', '/rest/v1/customobjects/schema/%s/addField.json' % co,
         {'input': [{'name': 'vin', 'displayName': 'VIN', 'dataType': 'string',
                     'isDedupeField': True},
                    {'name': 'color', 'displayName': 'Color', 'dataType': 'string'}]}),
        ('approve', 1, 'POST', '/rest/v1/customobjects/schema/%s/approve.json' % co, None)):
    st, doc, _ = call(HOSTS[h], method, path, body)
    if not (doc and doc.get('success')):
        fail('%s through host %d: %s' % (what, h + 1, doc))
st, doc, _ = call(HOSTS[2], 'POST', '/rest/v1/customobjects/%s.json' % co,
                  {'input': [{'vin': 'V1', 'color': 'red'}]})
check(doc and doc.get('success') and doc['result'][0]['status'] == 'created',
      'a type approved through host 2 takes a record through host 3 at once')
st, doc, _ = call(HOSTS[0], 'GET', '/rest/v1/customobjects/%s.json?filterType=vin'
                  '&filterValues=V1&fields=color' % co)
check(doc and doc.get('success') and doc['result'] and
      doc['result'][0].get('color') == 'red', 'and host 1 reads it')
