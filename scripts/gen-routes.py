#!/usr/bin/env python3
"""Generates src/routes.c and docs/api.md from docs/operations.tsv, one
row per operation: method, path, operationId, group, name, permission,
source, then the columns this project adds: handler (the C function;
api_pending for a group not built yet; "fn(CODE)" for a handler that
serves several operations, CODE becoming the route's variant), body
(form, json or multipart: the body the operation takes) and path_types
(one of str, int32, int64 per path parameter, comma-separated; "-" when
there is none).  Run after
changing it; the output is committed, sorted, and checked by
tests/unit/http/test_routes.c.

    scripts/gen-routes.py
"""
import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS']

PERMS = {
    'Read-Only Lead': 'PERM_READ_ONLY_LEAD',
    'Read-Write Lead': 'PERM_READ_WRITE_LEAD',
    'Read-Only Assets': 'PERM_READ_ONLY_ASSETS',
    'Read-Only Asset': 'PERM_READ_ONLY_ASSETS',
    'Read-Asset': 'PERM_READ_ONLY_ASSETS',
    'Read-Write Assets': 'PERM_READ_WRITE_ASSETS',
    'Read-Write Asset': 'PERM_READ_WRITE_ASSETS',
    'Approve Assets': 'PERM_APPROVE_ASSETS',
    'Activate Campaign': 'PERM_ACTIVATE_CAMPAIGN',
    'Deactivate Campaign': 'PERM_DEACTIVATE_CAMPAIGN',
    'Access Design Studio': 'PERM_ACCESS_DESIGN_STUDIO',
    'Access Email': 'PERM_ACCESS_EMAIL',
    'Edit Email': 'PERM_EDIT_EMAIL',
    'Delete Email': 'PERM_DELETE_EMAIL',
    'Approve Email': 'PERM_APPROVE_EMAIL',
    'Read-Only Custom Object': 'PERM_READ_ONLY_CUSTOM_OBJECT',
    'Read-Write Custom Object': 'PERM_READ_WRITE_CUSTOM_OBJECT',
    'Read-Only Custom Object Type': 'PERM_READ_ONLY_CUSTOM_OBJECT_TYPE',
    'Read-Write Custom Object Type': 'PERM_READ_WRITE_CUSTOM_OBJECT_TYPE',
    'Read-Write Schema Standard Field':
        'PERM_READ_WRITE_SCHEMA_STANDARD_FIELD',
    'Read-Write Schema Custom Field': 'PERM_READ_WRITE_SCHEMA_CUSTOM_FIELD',
    'Read-Only Activity': 'PERM_READ_ONLY_ACTIVITY',
    'Read-Write Activity': 'PERM_READ_WRITE_ACTIVITY',
    'Read-Only Campaigns': 'PERM_READ_ONLY_CAMPAIGNS',
    'Read-Write Campaigns': 'PERM_READ_WRITE_CAMPAIGNS',
}

# Variants real clients send, each served as the operation it copies
# (method, path, of method, of path); not rows of operations.tsv.
VARIANTS = [
    ('DELETE', '/rest/v1/leads.json', 'POST', '/rest/v1/leads/delete.json'),
    ('GET', '/rest/v1/programs/members/describe.json',
     'GET', '/rest/v1/program/members/describe.json'),
]

def canon(pattern):
    return re.sub(r'\{[^}]*\}', '{}', pattern)


def perms(text):
    """'A, B' means any of A, B; asset v2 lists one asset permission then
    permissions that are all required ('…, Access Design Studio, …')."""
    if not text:
        return '0', '0'
    text = text.split('. If ')[0]
    names = [n.strip() for n in re.split(r',| or ', text) if n.strip()]
    bits = [PERMS[n] for n in names]
    if 'Access Design Studio' in names:
        return 'PERM_BIT(%s)' % bits[0], ' | '.join(
            'PERM_BIT(%s)' % b for b in bits[1:])
    return ' | '.join('PERM_BIT(%s)' % b for b in bits), '0'


def envelope(path):
    if path.startswith('/identity/'):
        return 'ENV_IDENTITY'
    if path.startswith('/rest/asset/v2/'):
        return 'ENV_ASSET2'
    if path.startswith('/rest/asset/v1/'):
        return 'ENV_ASSET1'
    return 'ENV_LEADDB'


def path_types(row):
    types = row['path_types']
    if types == '-':
        return []
    return ['PATH_' + t.upper() for t in types.split(',')]


def main():
    rows = []
    with open(os.path.join(TOP, 'docs', 'operations.tsv')) as f:
        header = f.readline().rstrip('\n').split('\t')
        for line in f:
            rows.append(dict(zip(header, line.rstrip('\n').split('\t'))))
    routes = []
    for r in rows:
        m, path = r['method'], r['path']
        any_, all_ = perms(r['permission'])
        assert len(path_types(r)) == len(re.findall(r'\{[^}]*\}', path)), \
            (m, path)
        hv = re.fullmatch(r'(\w+)(?:\((\w+)\))?', r['handler'])
        assert hv, (m, path, r['handler'])
        routes.append({
            'method': m, 'path': path, 'op': r['operationId'],
            'name': r['name'], 'group': r['group'],
            'handler': hv.group(1), 'variant': hv.group(2),
            'handler_text': r['handler'],
            'env': envelope(path),
            'auth': 'AUTH_NONE' if path.startswith('/identity/')
            else 'AUTH_TOKEN',
            'body': 'BODY_' + r['body'].upper(), 'any': any_, 'all': all_,
            'ptypes': path_types(r), 'perm_text': r['permission'],
        })
    for m, path, om, opath in VARIANTS:
        orig = [x for x in routes if x['method'] == om and x['path'] == opath]
        assert len(orig) == 1, (om, opath)
        v = dict(orig[0])
        v.update(method=m, path=path, copy=True)
        routes.append(v)
    routes.sort(key=lambda x: (canon(x['path']).encode(),
                               METHODS.index(x['method'])))
    out = []
    out.append('/*\n * THE route table (docs/style.md §8), generated by '
               'scripts/gen-routes.py from\n * docs/operations.tsv; sorted '
               'by route_cmp.  Do not edit by hand: change\n * the generator '
               'or its input and run it again.\n */\n')
    out.append('#include "api/api.h"\n#include "http/router.h"\n'
               '#include "model/asset.h"\n'
               '#include "repo/repo_smart_campaigns.h"\n\n')
    out.append('const struct route routes[] = {\n')
    for x in routes:
        pt = ', '.join(x['ptypes']) if x['ptypes'] else 'PATH_NONE'
        out.append('\t{\n')
        out.append('\t\t.method = HTTP_%s,\n' % x['method'])
        out.append('\t\t.pattern = "%s",\n' % x['path'])
        out.append('\t\t.op_id = "%s",\n' % x['op'])
        out.append('\t\t.name = "%s",\n' % x['name'])
        out.append('\t\t.group = "%s",\n' % x['group'])
        out.append('\t\t.handler = %s,\n' % x['handler'])
        out.append('\t\t.env = %s,\n' % x['env'])
        out.append('\t\t.auth = %s,\n' % x['auth'])
        out.append('\t\t.body = %s,\n' % x['body'])
        out.append('\t\t.perm_any = %s,\n' % x['any'])
        out.append('\t\t.perm_all = %s,\n' % x['all'])
        out.append('\t\t.ptypes = { %s },\n' % pt)
        if x['variant']:
            out.append('\t\t.variant = %s,\n' % x['variant'])
        out.append('\t},\n')
    out.append('};\n\nconst size_t nroutes = sizeof(routes) / '
               'sizeof(routes[0]);\n')
    with open(os.path.join(TOP, 'src', 'routes.c'), 'w') as f:
        f.write(''.join(out))

    md = ['# mauto API routes\n\n',
          'One line per route, in route-table order (generated by '
          '`scripts/gen-routes.py`; `tests/unit/http/test_routes.c` checks '
          'that this file, `src/routes.c` and `docs/operations.tsv` '
          'agree).\n\n',
          'Every route answers the errors of the dispatcher: 600/601/602 '
          '(token), 603 (permission), 605 (method), 606/607/615 (limits), '
          '609/612/613 (body), 610 (unknown path), 611 (system); '
          'HTTP 413/414 for oversized bodies and URIs. '
          'Routes whose handler is `api_pending` are registered but not '
          'built yet: they answer code 703 '
          '"Not implemented: <operation>".\n\n',
          'Rows marked *(variant)* are not operations of their own: '
          'another method or path real clients send for the operation '
          'named.\n\n',
          '| method | path | operationId | group | body | permission | '
          'handler |\n',
          '|---|---|---|---|---|---|---|\n']
    for x in routes:
        md.append('| %s | `%s` | %s | %s%s | %s | %s | %s |\n' % (
            x['method'], x['path'], x['op'], x['group'],
            ' *(variant)*' if x.get('copy') else '',
            x['body'][5:].lower(), x['perm_text'] or '(none)',
            x['handler_text']))
    with open(os.path.join(TOP, 'docs', 'api.md'), 'w') as f:
        f.write(''.join(md))


if __name__ == '__main__':
    main()
