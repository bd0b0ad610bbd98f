#!/usr/bin/env bash
# name: Describe Lead lists every standard field as a default instance does
# tests/http/data/describe-lead-standard.tsv holds, for each standard
# field a default instance's Describe Lead lists, its id, rest member,
# displayName, dataType, length and soap member (or none); mauto's reply
# must match it field by field.  Custom fields carry a soap member under
# their own name, as a real instance's custom fields do.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

table=$(dirname "$0")/data/describe-lead-standard.tsv

api POST /rest/v1/leads/schema/fields.json "{\"input\": [
    {\"name\": \"rec$tag\", \"displayName\": \"Rec $tag\", \"dataType\": \"boolean\"}]}"
expect "a custom boolean field is created" \
    "d['success'] and d['result'][0]['status'] == 'created'"

api GET /rest/v1/leads/describe.json
cp "$work/out" "$work/describe"
if python3 - "$table" "$work/describe" "rec$tag" <<'PY'
import json, sys
rec = []
for line in open(sys.argv[1]):
    if line.startswith('#'):
        continue
    fid, name, ro, disp, typ, length, soap = line.rstrip('\n').split('\t')
    want = {'id': int(fid), 'displayName': disp, 'dataType': typ}
    if length != '-':
        want['length'] = int(length)
    want['rest'] = {'name': name, 'readOnly': ro == 'true'}
    if soap != '-':
        want['soap'] = {'name': soap, 'readOnly': False}
    rec.append(want)
ours = {f['rest']['name']: f for f in json.load(open(sys.argv[2]))['result']}
bad = 0
n = 0
for want in rec:
    n += 1
    got = ours.get(want['rest']['name'])
    if got != want:
        print('  %s: want %s' % (want['rest']['name'], json.dumps(want)))
        print('  %s   got %s' % (' ' * len(want['rest']['name']),
                                 json.dumps(got)))
        bad += 1
custom = ours.get(sys.argv[3], {})
if custom.get('soap') != {'name': sys.argv[3], 'readOnly': False}:
    print('  custom field soap member: %s' % json.dumps(custom))
    bad += 1
print('  %d standard fields compared, %d differ' % (n, bad))
sys.exit(1 if bad else 0)
PY
then
	echo "ok - every standard field as the real instance describes it"
else
	echo "not ok - Describe Lead differs from the recorded reply"
	failed=1
fi

api GET /rest/v1/leads/schema/fields/email.json
expect "email is sensitive (the field schema example)" \
    "d['result'][0]['isSensitive'] is True"
api GET /rest/v1/leads/schema/fields/rec$tag.json
expect "a boolean field is not HTML-encoded in emails" \
    "d['result'][0]['isHtmlEncodingInEmail'] is False"
api GET /rest/v1/leads/schema/fields/dateOfBirth.json
expect "a date field is not HTML-encoded in emails" \
    "d['result'][0]['isHtmlEncodingInEmail'] is False and
     d['result'][0]['displayName'] == 'Date of Birth'"
exit "$failed"
