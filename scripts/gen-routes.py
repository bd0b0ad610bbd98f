#!/usr/bin/env python3
"""Generates src/http/routes.c and docs/api.md from docs/operations.tsv and
the swagger (../shared/api/marketo-rest.swagger.json).  Run after changing
either; the output is committed, sorted, and checked by
tests/unit/http/test_routes.c.

    scripts/gen-routes.py [SWAGGER]
"""
import json
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWAGGER = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    TOP, '..', 'shared', 'api', 'marketo-rest.swagger.json')

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
}

# Variants real clients send, each served as the operation it copies
# (method, path, of method, of path); not rows of operations.tsv.
VARIANTS = [
    ('DELETE', '/rest/v1/leads.json', 'POST', '/rest/v1/leads/delete.json'),
    ('GET', '/rest/v1/programs/members/describe.json',
     'GET', '/rest/v1/program/members/describe.json'),
]

# The groups whose handlers exist; every other route answers api_pending.
HANDLERS = {
    ('GET', '/identity/oauth/token'): 'api_identity_token',
    ('POST', '/identity/oauth/token'): 'api_identity_token',
    ('GET', '/rest/v1/customobjects.json'): 'api_co_list',
    ('GET', '/rest/v1/customobjects/schema.json'): 'api_co_types_list',
    ('POST', '/rest/v1/customobjects/schema.json'): 'api_co_types_sync',
    ('GET', '/rest/v1/customobjects/schema/fieldDataTypes.json'):
        'api_co_types_data_types',
    ('GET', '/rest/v1/customobjects/schema/linkableObjects.json'):
        'api_co_types_linkable',
    ('POST', '/rest/v1/customobjects/schema/{apiName}/addField.json'):
        'api_co_types_add_fields',
    ('POST', '/rest/v1/customobjects/schema/{apiName}/approve.json'):
        'api_co_types_approve',
    ('POST', '/rest/v1/customobjects/schema/{apiName}/delete.json'):
        'api_co_types_delete',
    ('POST', '/rest/v1/customobjects/schema/{apiName}/deleteField.json'):
        'api_co_types_delete_fields',
    ('GET', '/rest/v1/customobjects/schema/{apiName}/dependentAssets.json'):
        'api_co_types_dependents',
    ('GET', '/rest/v1/customobjects/schema/{apiName}/describe.json'):
        'api_co_types_describe',
    ('POST', '/rest/v1/customobjects/schema/{apiName}/discardDraft.json'):
        'api_co_types_discard',
    ('POST', '/rest/v1/customobjects/schema/{apiName}/{fieldApiName}/'
     'updateField.json'): 'api_co_types_update_field',
    ('GET', '/rest/v1/customobjects/{customObjectName}.json'): 'api_co_get',
    ('POST', '/rest/v1/customobjects/{customObjectName}.json'): 'api_co_sync',
    ('POST', '/rest/v1/customobjects/{customObjectName}/delete.json'):
        'api_co_delete',
    ('GET', '/rest/v1/customobjects/{customObjectName}/describe.json'):
        'api_co_describe',
    ('GET', '/bulk/v1/customobjects/{apiName}/export.json'):
        'api_export_list',
    ('POST', '/bulk/v1/customobjects/{apiName}/export/create.json'):
        'api_export_create',
    ('POST', '/bulk/v1/customobjects/{apiName}/export/{exportId}/cancel.json'):
        'api_export_cancel',
    ('POST',
     '/bulk/v1/customobjects/{apiName}/export/{exportId}/enqueue.json'):
        'api_export_enqueue',
    ('GET', '/bulk/v1/customobjects/{apiName}/export/{exportId}/file.json'):
        'api_export_file',
    ('GET', '/bulk/v1/customobjects/{apiName}/export/{exportId}/status.json'):
        'api_export_status',
    ('GET', '/rest/v1/lead/{leadId}.json'): 'api_leads_get',
    ('GET', '/rest/v1/leads.json'): 'api_leads_list',
    ('POST', '/rest/v1/leads.json'): 'api_leads_sync',
    ('GET', '/rest/v1/leads/programs/{programId}.json'):
        'api_leads_list_by_program',
    ('POST', '/rest/v1/leads/delete.json'): 'api_leads_delete',
    ('POST', '/rest/v1/leads/push.json'): 'api_leads_push',
    ('POST', '/rest/v1/leads/submitForm.json'): 'api_leads_submit_form',
    ('GET', '/rest/v1/leads/partitions.json'): 'api_leads_partitions_list',
    ('POST', '/rest/v1/leads/partitions.json'):
        'api_leads_partitions_update',
    ('POST', '/rest/v1/leads/programs/{programId}/status.json'):
        'api_leads_program_status',
    ('GET', '/rest/v1/leads/{leadId}/listMembership.json'):
        'api_leads_list_membership',
    ('GET', '/rest/v1/leads/{leadId}/programMembership.json'):
        'api_leads_program_membership',
    ('GET', '/rest/v1/leads/{leadId}/smartCampaignMembership.json'):
        'api_leads_campaign_membership',
    ('POST', '/rest/v1/leads/{leadId}/associate.json'):
        'api_leads_associate',
    ('POST', '/rest/v1/leads/{leadId}/merge.json'): 'api_leads_merge',
    ('GET', '/rest/v1/leads/describe.json'): 'api_lead_fields_describe',
    ('GET', '/rest/v1/leads/describe2.json'): 'api_lead_fields_describe2',
    ('GET', '/rest/v1/leads/schema/fields.json'): 'api_lead_fields_list',
    ('POST', '/rest/v1/leads/schema/fields.json'): 'api_lead_fields_create',
    ('GET', '/rest/v1/leads/schema/fields/{fieldApiName}.json'):
        'api_lead_fields_get',
    ('POST', '/rest/v1/leads/schema/fields/{fieldApiName}.json'):
        'api_lead_fields_update',
    ('GET', '/rest/v1/program/members/describe.json'):
        'api_lead_fields_describe_members',
}


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


def body_kind(method, op):
    cons = op.get('consumes', [])
    ins = {p.get('in') for p in op.get('parameters', [])}
    if 'multipart/form-data' in cons:
        return 'BODY_MULTIPART'
    if 'application/json' in cons and 'body' in ins:
        return 'BODY_JSON'
    return 'BODY_FORM'


def path_types(op, pattern):
    types = {}
    for p in op.get('parameters', []):
        if p.get('in') != 'path':
            continue
        if p.get('type') == 'integer':
            types[p['name']] = 'PATH_INT32' if p.get('format') == 'int32' \
                else 'PATH_INT64'
        else:
            types[p['name']] = 'PATH_STR'
    names = re.findall(r'\{([^}]*)\}', pattern)
    return [types.get(n, 'PATH_STR') for n in names]


def main():
    with open(SWAGGER) as f:
        swagger = json.load(f)
    rows = []
    with open(os.path.join(TOP, 'docs', 'operations.tsv')) as f:
        header = f.readline().rstrip('\n').split('\t')
        for line in f:
            rows.append(dict(zip(header, line.rstrip('\n').split('\t'))))
    routes = []
    for r in rows:
        m, path = r['method'], r['path']
        op = swagger['paths'].get(path, {}).get(m.lower(), {})
        any_, all_ = perms(r['permission'])
        routes.append({
            'method': m, 'path': path, 'op': r['operationId'],
            'name': r['name'], 'group': r['group'],
            'handler': HANDLERS.get((m, path), 'api_pending'),
            'env': envelope(path),
            'auth': 'AUTH_NONE' if path.startswith('/identity/')
            else 'AUTH_TOKEN',
            'body': body_kind(m, op), 'any': any_, 'all': all_,
            'ptypes': path_types(op, path), 'perm_text': r['permission'],
        })
    for m, path, om, opath in VARIANTS:
        orig = [x for x in routes if x['method'] == om and x['path'] == opath]
        assert len(orig) == 1, (om, opath)
        v = dict(orig[0])
        v.update(method=m, path=path, variant=True,
                 handler=HANDLERS.get((om, opath), 'api_pending'))
        routes.append(v)
    routes.sort(key=lambda x: (canon(x['path']).encode(),
                               METHODS.index(x['method'])))
    out = []
    out.append('/*\n * THE route table (style.md §8), generated by '
               'scripts/gen-routes.py from\n * docs/operations.tsv and the '
               'swagger; sorted by route_cmp.  Do not edit by\n * hand: '
               'change the generator or its inputs and run it again.\n */\n')
    out.append('#include "api/api.h"\n#include "http/router.h"\n\n')
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
        out.append('\t},\n')
    out.append('};\n\nconst size_t nroutes = sizeof(routes) / '
               'sizeof(routes[0]);\n')
    with open(os.path.join(TOP, 'src', 'http', 'routes.c'), 'w') as f:
        f.write(''.join(out))

    md = ['# mauto API routes\n\n',
          'One line per route, in route-table order (generated by '
          '`scripts/gen-routes.py`; `tests/unit/http/test_routes.c` checks '
          'that this file, `src/http/routes.c` and `docs/operations.tsv` '
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
            ' *(variant)*' if x.get('variant') else '',
            x['body'][5:].lower(), x['perm_text'] or '(none)',
            x['handler']))
    with open(os.path.join(TOP, 'docs', 'api.md'), 'w') as f:
        f.write(''.join(md))


if __name__ == '__main__':
    main()
