# name: conflicting writes through two hosts on two nodes end as on one server: no duplicate, no lost update
# Two clients at the same moment, one through host 1 (node 1), one through
# host 2 (node 2): the same new email (createOrUpdate), the same new custom
# object dedupe key, and two updates of different fields of one lead.
# Galera certifies the two transactions against each other; the loser's
# COMMIT fails with 1213 and src/db/pool.c runs the whole transaction
# again, which then finds the winner's row.  Counted on every node.
import random

from clusterlib import (HOSTS, call, check, fail, print_retries, race,
                        sql, sync_leads)

ROUNDS = 25
tag = '%06x' % random.getrandbits(24)


def status_of(res):
    st, doc, _ = res
    if st != 200 or not doc or not doc.get('success'):
        fail('a call failed: %s %s' % (st, doc))
    return doc['result'][0].get('status')


# 1. The same new email through two hosts.
for r in range(ROUNDS):
    email = 'race%s-%d@example.com' % (tag, r)
    out = race([lambda h=h: sync_leads(HOSTS[h], [{'email': email,
                                                   'firstName': 'H%d' % h}])
                for h in (0, 1)])
    got = sorted(status_of(o) for o in out)
    if got != ['created', 'updated']:
        fail('round %d: %s' % (r, got))
for node in (1, 2, 3):
    n = sql(node, "SELECT COUNT(*), COUNT(DISTINCT email) FROM lead "
            "WHERE email LIKE 'race%s-%%'" % tag)
    check(n == '%d\t%d' % (ROUNDS, ROUNDS),
          'node %d: %d emails raced through two hosts, one lead each (%s)'
          % (node, ROUNDS, n))

# 2. No lost update: two hosts update two fields of one lead at once.
st, doc, _ = sync_leads(HOSTS[0], [{'email': 'lost%s@example.com' % tag}])
lid = doc['result'][0]['id']
for r in range(ROUNDS):
    out = race([
        lambda: sync_leads(HOSTS[0], [{'id': lid, 'firstName': 'F%d' % r}],
                           'updateOnly', 'id'),
        lambda: sync_leads(HOSTS[1], [{'id': lid, 'lastName': 'L%d' % r}],
                           'updateOnly', 'id')])
    if [status_of(o) for o in out] != ['updated', 'updated']:
        fail('round %d: %s' % (r, out))
    st, doc, _ = call(HOSTS[2], 'GET', '/rest/v1/lead/%d.json'
                      '?fields=firstName,lastName' % lid)
    got = (doc['result'][0].get('firstName'), doc['result'][0].get('lastName'))
    if got != ('F%d' % r, 'L%d' % r):
        fail('round %d: host 3 reads %s: an update was lost' % (r, got))
check(True, '%d rounds of concurrent updates of two fields through two hosts, '
      'both kept every time (read through host 3)' % ROUNDS)

# 3. The same new custom object dedupe key through two hosts.
co = 'cr%s' % tag
for h, method, path, body in (
        (0, 'POST', '/rest/v1/customobjects/schema.json',
         {'apiName': co, 'displayName': 'Race %s' % tag}),
        (0, 'POST', '/rest/v1/customobjects/schema/%s/addField.json' % co,
         {'input': [{'name': 'vin', 'displayName': 'VIN', 'dataType': 'string',
                     'isDedupeField': True},
                    {'name': 'color', 'displayName': 'Color', 'dataType': 'string'}]}),
        (0, 'POST', '/rest/v1/customobjects/schema/%s/approve.json' % co, None)):
    st, doc, _ = call(HOSTS[h], method, path, body)
    if not (doc and doc.get('success')):
        fail('%s: %s' % (path, doc))
for r in range(ROUNDS):
    out = race([lambda h=h: call(HOSTS[h], 'POST', '/rest/v1/customobjects/%s.json' % co,
                                 {'input': [{'vin': 'V%d' % r, 'color': 'c%d' % h}]})
                for h in (0, 1)])
    got = sorted(status_of(o) for o in out)
    if got != ['created', 'updated']:
        fail('custom object round %d: %s' % (r, got))
tid = sql(1, "SELECT id FROM co_type WHERE api_name = '%s'" % co)
for node in (1, 2, 3):
    n = sql(node, 'SELECT COUNT(*), COUNT(DISTINCT vin) FROM co_rec_%s' % tid)
    check(n == '%d\t%d' % (ROUNDS, ROUNDS),
          'node %d: %d dedupe keys raced through two hosts, one record each (%s)'
          % (node, ROUNDS, n))

print_retries()
