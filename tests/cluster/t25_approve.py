# name: the same asset approved through two hosts at once ends as on one server: one approved version, no draft left, never 611
# Two clients at the same moment, one through host 1 (node 1), one through
# host 2 (node 2), approve the same draft: a landing page template, an
# email, and a custom object type (whose approval also creates its record
# table, DDL replicated in total order).  Landing page templates and
# emails are approved again after a new draft, so one asset goes through
# several rounds.  The answer to each client must be one the single
# server gives: success, or what approving an asset without a draft
# answers there (learnt first, by approving twice in a row).  Afterwards
# every node holds exactly one approved version and no draft.
import json
import os
import random
import subprocess
import urllib.parse
import urllib.request

from clusterlib import (DIR, HOSTS, SRC, call, check, fail, print_retries,
                        race, sql, token)

ROUNDS = 12
tag = '%06x' % random.getrandbits(24)
TOKEN = token()


def form(base, path, fields=None, files=None):
    """A form-encoded (or, with files, multipart) POST; (status, doc)."""
    h = {'Authorization': 'Bearer ' + TOKEN}
    if files:
        b = '----t25%s' % tag
        parts = []
        for k, v in (fields or {}).items():
            parts.append('--%s\r\nContent-Disposition: form-data; '
                         'name="%s"\r\n\r\n%s\r\n' % (b, k, v))
        for k, v in files.items():
            parts.append('--%s\r\nContent-Disposition: form-data; name="%s"; '
                         'filename="%s.html"\r\nContent-Type: text/html\r\n'
                         '\r\n%s\r\n' % (b, k, k, v))
        data = (''.join(parts) + '--%s--\r\n' % b).encode()
        h['Content-Type'] = 'multipart/form-data; boundary=' + b
    else:
        data = urllib.parse.urlencode(fields or {}).encode()
        h['Content-Type'] = 'application/x-www-form-urlencoded'
    req = urllib.request.Request(base + path, data=data, headers=h,
                                 method='POST')
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, None


def answer(res):
    """'ok' or the error code of one answer; fails on anything else."""
    st, doc = res[0], res[1]
    if st != 200 or not isinstance(doc, dict):
        fail('HTTP %s: %s' % (st, doc))
    if doc.get('success'):
        return 'ok'
    return (doc.get('errors') or [{}])[0].get('code')


def made(res):
    if answer(res) != 'ok':
        fail('a create failed: %s' % (res,))
    return res[1]['result'][0]['id']


def approve_race(kind, path, second, counts):
    """Both hosts approve path at once; the answers single-server gives."""
    out = race([lambda h=h: form(HOSTS[h], path) for h in (0, 1)])
    got = sorted(answer(o) for o in out)
    if '611' in got or got.count('ok') < 1 or \
            any(a not in ('ok', second) for a in got):
        fail('%s %s: answers %s (one server: ok, then %s)'
             % (kind, path, got, second))
    counts[tuple(got)] = counts.get(tuple(got), 0) + 1


def learn_second(kind, path):
    """What the single server answers to a second approval in a row."""
    if answer(form(HOSTS[0], path)) != 'ok':
        fail('%s: the first approval failed' % kind)
    second = answer(form(HOSTS[1], path))
    if second in ('ok', '611'):
        fail('%s: approving twice in a row answered %s' % (kind, second))
    return second


def versions_everywhere(kind, query, want):
    for node in (1, 2, 3):
        got = sql(node, query)
        if got != want:
            fail('%s: node %d holds %r, not %r' % (kind, node, got, want))


def rounds(kind, path, make, redraft):
    """ROUNDS new assets approved by two hosts at once, then the second of
    them given a new draft and approved by both at once ROUNDS times.
    Returns the ids, the one approved again, the second approval's answer
    on one server and the answers counted."""
    first = make(0)
    second = learn_second(kind, path % first)
    counts = {}
    ids = [first]
    for r in range(ROUNDS):
        ids.append(make(r + 1))
        approve_race(kind, path % ids[-1], second, counts)
    for r in range(ROUNDS):
        redraft(ids[1], r + 1)
        approve_race(kind, path % ids[1], second, counts)
    return ids, ids[1], second, counts


# ---- landing page templates ------------------------------------------------
lpt_folder = json.dumps({'id': 4, 'type': 'Folder'})
path = '/rest/asset/v1/landingPageTemplate/%d/approveDraft.json'


def lpt_draft(tid, r):
    """A new draft of template tid (a template without HTML is refused)."""
    if answer(form(HOSTS[2], '/rest/asset/v1/landingPageTemplate/%d/'
                   'content.json' % tid, files={
                       'content': '<html><body><p>r%d</p></body></html>'
                       % r})) != 'ok':
        fail('new draft of template %d' % tid)


def new_lpt(name):
    tid = made(form(HOSTS[2], '/rest/asset/v1/landingPageTemplates.json',
                    {'name': name, 'folder': lpt_folder}))
    lpt_draft(tid, 0)
    return tid


ids, again, lpt_second, counts = rounds(
    'landing page template', path,
    lambda r: new_lpt('lpt%d-%s' % (r, tag)), lpt_draft)
versions_everywhere(
    'landing page templates',
    "SELECT COUNT(*), SUM(status = 'approved'), SUM(status = 'draft') "
    "FROM lp_template_version WHERE template_id IN (%s)"
    % ','.join(map(str, ids)),
    '%d\t%d\t0' % (len(ids), len(ids)))
versions_everywhere(
    'landing page template content',
    "SELECT content FROM lp_template_version WHERE template_id = %d" % again,
    '<html><body><p>r%d</p></body></html>' % ROUNDS)
check(True, 'landing page templates: %d approvals raced through two hosts, '
      'one approved version each and no draft on every node; answers %s '
      '(one server answers %s to a second approval)'
      % (2 * ROUNDS, counts, lpt_second))

# ---- emails ----------------------------------------------------------------
tpl_file = os.path.join(DIR, 't25-tpl-%s.html' % tag)
with open(tpl_file, 'w') as f:
    f.write('<html><body><div class="mktoText" id="intro" mktoName="Intro">'
            'Hi</div></body></html>')
out = subprocess.run(
    ['bash', '-c', '. "$1/tests/harness/env.sh" && harness_ctl "$2" '
     'template create --name "$3" --folder 3 --file "$4"', 'ctl', SRC,
     os.path.join(DIR, 'server.env'), 'T25-%s' % tag, tpl_file],
    check=True, capture_output=True, text=True)
tpl = out.stdout.strip().split()[-1]
em_folder = json.dumps({'id': 2, 'type': 'Folder'})


def new_email(name):
    return made(form(HOSTS[2], '/rest/asset/v1/emails.json', {
        'name': name, 'folder': em_folder, 'template': tpl,
        'subject': 'S', 'fromName': 'Ann', 'fromEmail': 'ann@example.com',
        'replyEmail': 'ann@example.com'}))




def email_draft(eid, r):
    """A new draft of email eid: its subject S<r>."""
    if answer(form(HOSTS[2], '/rest/asset/v1/email/%d/content.json' % eid,
                   {'subject': json.dumps({'type': 'Text',
                                           'value': 'S%d' % r})})) != 'ok':
        fail('new draft of email %d' % eid)


path = '/rest/asset/v1/email/%d/approveDraft.json'
ids, again, em_second, counts = rounds(
    'email', path, lambda r: new_email('em%d-%s' % (r, tag)), email_draft)
versions_everywhere(
    'emails',
    "SELECT COUNT(*), SUM(status = 'approved'), SUM(status = 'draft') "
    "FROM email_version WHERE email_id IN (%s)" % ','.join(map(str, ids)),
    '%d\t%d\t0' % (len(ids), len(ids)))
versions_everywhere(
    'email subject',
    "SELECT subject FROM email_version WHERE email_id = %d" % again,
    'S%d' % ROUNDS)
for h in (0, 1, 2):
    st, doc, _ = call(HOSTS[h], 'GET', '/rest/asset/v1/email/%d.json' % again)
    if doc['result'][0]['status'] != 'approved':
        fail('host %d reads email %d as %s' % (h + 1, again,
                                               doc['result'][0]['status']))
check(True, 'emails: %d approvals raced through two hosts, one approved '
      'version each and no draft on every node; answers %s (one server '
      'answers %s to a second approval)' % (2 * ROUNDS, counts, em_second))

# ---- custom object types -----------------------------------------------------
path = '/rest/v1/customobjects/schema/%s/approve.json'


def new_type(name):
    for p, body in (
            ('/rest/v1/customobjects/schema.json',
             {'apiName': name, 'displayName': 'T25 %s' % name}),
            ('/rest/v1/customobjects/schema/%s/addField.json' % name,
             {'input': [{'name': 'k', 'displayName': 'K',
                         'dataType': 'string', 'isDedupeField': True}]})):
        st, doc, _ = call(HOSTS[2], 'POST', p, body)
        if not (doc and doc.get('success')):
            fail('%s: %s' % (p, doc))


def json_post(base, p):
    st, doc, _ = call(base, 'POST', p)
    return st, doc


CO_ROUNDS = 5
names = ['ap%d%s' % (r, tag) for r in range(CO_ROUNDS + 1)]
new_type(names[0])
if answer(json_post(HOSTS[0], path % names[0])) != 'ok':
    fail('custom object type: the first approval failed')
co_second = answer(json_post(HOSTS[1], path % names[0]))
if co_second == '611':
    fail('custom object type: a second approval answered 611')
counts = {}
for name in names[1:]:
    new_type(name)
    out = race([lambda h=h: json_post(HOSTS[h], path % name)
                for h in (0, 1)])
    got = sorted(answer(o) for o in out)
    if '611' in got or 'ok' not in got or \
            any(a not in ('ok', co_second) for a in got):
        fail('custom object type %s: answers %s (one server: ok, then %s)'
             % (name, got, co_second))
    counts[tuple(got)] = counts.get(tuple(got), 0) + 1
q = ','.join("'%s'" % n for n in names)
versions_everywhere(
    'custom object types',
    "SELECT COUNT(*), SUM(state = 'approved' AND has_approved = 1 AND "
    "has_draft = 0) FROM co_type WHERE api_name IN (%s)" % q,
    '%d\t%d' % (len(names), len(names)))
versions_everywhere(
    'custom object type versions',
    "SELECT COUNT(*), SUM(is_draft) FROM co_type_version v JOIN co_type t "
    "ON t.id = v.type_id WHERE t.api_name IN (%s)" % q,
    '%d\t0' % len(names))
ids = sql(1, "SELECT id FROM co_type WHERE api_name IN (%s)" % q).split()
versions_everywhere(
    'custom object record tables',
    "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = "
    "DATABASE() AND table_name IN (%s)"
    % ','.join("'co_rec_%s'" % i for i in ids), str(len(names)))
check(True, 'custom object types: %d approvals raced through two hosts, '
      'each approved once with its record table on every node; answers %s '
      '(one server answers %s to a second approval)'
      % (CO_ROUNDS, counts, co_second))
# A subscription holds at most 10 custom object types: leave room for the
# tests after this one.
for name in names:
    st, doc = json_post(HOSTS[2], '/rest/v1/customobjects/schema/%s/'
                        'delete.json' % name)
    if not (doc and doc.get('success')):
        fail('delete %s: %s' % (name, doc))

print_retries()
