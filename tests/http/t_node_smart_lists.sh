#!/usr/bin/env bash
# name: node-marketo-rest (a real client library) reads smart lists with its own smartList.find and smartList.byId
# The client's lib/api/smartList.js, unchanged: find and byId post a form
# body with _method=GET.  The lists and their rules are made through the
# client's request path (connection.post on util.createAssetPath).
# Skips when node/npm or the registry are not available.
set -euo pipefail

# shellcheck source=tests/http/node_lib.sh
. "$(dirname "$0")/node_lib.sh"

{ printf '%s\n' "$node_prelude"; cat <<'JS'
const folder = JSON.stringify({id: 5, type: 'Folder'});

(async () => {
	let r = await c.post(p('smartLists.json'), {data: {
		name: 'node-sl-' + tag, folder: folder, description: 'from node'}});
	assert.strictEqual(r.success, true);
	const s = r.result[0];
	assert.deepStrictEqual(s.folder, {id: 5, type: 'Folder'});
	r = await c.post(p('smartList/' + s.id + '/rules.json'), {data: {
		ruleId: JSON.stringify({id: 2, type: 'activity'}), index: 1}});
	assert.strictEqual(r.result[0].rules.filters.length, 1);

	r = await m.smartList.byId(s.id, {includeRules: true});
	assert.strictEqual(r.success, true);
	assert.strictEqual(r.result[0].name, 'node-sl-' + tag);
	assert.strictEqual(r.result[0].description, 'from node');
	assert.strictEqual(r.result[0].rules.filterMatchType, 'all');
	assert.strictEqual(r.result[0].rules.filters[0].name, 'Filled Out Form');

	r = await m.smartList.byId(s.id);
	assert.strictEqual(r.result[0].rules, undefined);

	r = await m.smartList.find({folder: folder, maxReturn: 200});
	assert.ok(r.result.some((x) => x.id === s.id), 'find lists it');

	r = await m.smartList.byId(999999);
	assert.strictEqual(r.success, true);
	assert.strictEqual(r.result, undefined);
	assert.deepStrictEqual(r.warnings,
	    ['No assets found for the given search criteria.']);
	console.log('node-marketo-rest found smart list', s.id);
})().catch((e) => { console.error(e); process.exit(1); });
JS
} | node -
