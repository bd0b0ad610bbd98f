#!/usr/bin/env bash
# name: node-marketo-rest (a real client library) works static lists with its own list.find, byId, addLeadsToList, addEmailsToList, isMember, getLeads and removeLeadsFromList
# The client's lib/api/list.js, unchanged: find posts a form body with
# _method=GET and its arrays as CSV; addLeadsToList posts JSON input;
# isMember and removeLeadsFromList send their ids joined as "1&id=2" in
# one query value; getLeads posts the older /list/{id}/leads.json path
# with _method=GET.  A list made by mautoctl (the Lead Database root)
# gives the folder of a second list the client makes through the asset
# API (connection.post on util.createAssetPath).
# Skips when node/npm or the registry are not available.
set -euo pipefail

# shellcheck source=tests/http/node_lib.sh
. "$(dirname "$0")/node_lib.sh"
# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

MAUTO_LIST=$(ctl list create --name "node-ctl-$tag")
export MAUTO_LIST

{ printf '%s\n' "$node_prelude"; cat <<'JS'
const ctlList = Number(process.env.MAUTO_LIST);

(async () => {
	let r = await c.get(p('staticList/' + ctlList + '.json'));
	assert.strictEqual(r.success, true);
	const root = r.result[0].folder;
	assert.strictEqual(root.type, 'Folder');
	r = await c.post(p('staticLists.json'), {data: {
		name: 'node-list-' + tag, folder: JSON.stringify(root),
		description: 'from node'}});
	assert.strictEqual(r.success, true);
	const list = r.result[0].id;

	r = await m.list.find({id: [ctlList, list]});
	assert.deepStrictEqual(r.result.map((x) => x.id), [ctlList, list]);
	assert.strictEqual(r.result[1].description, 'from node');
	r = await m.list.byId(list);
	assert.strictEqual(r.result[0].name, 'node-list-' + tag);
	assert.strictEqual(r.result[0].workspaceName, 'Default');
	r = await m.list.find({name: ['node-list-' + tag]});
	assert.deepStrictEqual(r.result.map((x) => x.id), [list]);

	r = await m.lead.createOrUpdate([
		{email: 'nl-a-' + tag + '@example.com', firstName: 'A'},
		{email: 'nl-b-' + tag + '@example.com', firstName: 'B'}],
	    {lookupField: 'email'});
	assert.strictEqual(r.success, true);
	const [a, b] = r.result.map((x) => x.id);

	r = await m.list.addLeadsToList(list, [a, {id: 999999991}]);
	assert.deepStrictEqual(r.result, [{id: a, status: 'added'},
	    {id: 999999991, status: 'skipped', reasons: [{code: '1004',
	    message: 'Lead not found'}]}]);
	r = await m.list.addEmailsToList(['nl-b-' + tag + '@example.com'],
	    list);
	assert.deepStrictEqual(r.result, [{id: b, status: 'added'}]);

	r = await m.list.isMember(list, [a, b, ctlList + 999999]);
	assert.deepStrictEqual(r.result.map((x) => x.status),
	    ['memberof', 'memberof', 'skipped']);

	r = await m.list.getLeads(list, {fields: 'firstName,email',
	    batchSize: 1});
	assert.strictEqual(r.success, true);
	assert.deepStrictEqual(r.result, [{id: a, firstName: 'A',
	    email: 'nl-a-' + tag + '@example.com'}]);
	assert.strictEqual(typeof r.nextPageToken, 'string');
	r = await m.list.getLeads(list, {fields: 'firstName',
	    batchSize: 1, nextPageToken: r.nextPageToken});
	assert.deepStrictEqual(r.result, [{id: b, firstName: 'B'}]);
	assert.strictEqual(r.nextPageToken, undefined);

	r = await m.list.removeLeadsFromList(list, [a, ctlList + 999999]);
	assert.deepStrictEqual(r.result.map((x) => x.status),
	    ['removed', 'skipped']);
	r = await m.list.isMember(list, [a]);
	assert.deepStrictEqual(r.result, [{id: a, status: 'notmemberof'}]);
	r = await m.list.removeLeadsFromList(list, [a]);
	assert.deepStrictEqual(r.result[0].reasons,
	    [{code: '1015', message: 'Lead not in list'}]);
	console.log('node-marketo-rest worked static list', list);
})().catch((e) => { console.error(e); process.exit(1); });
JS
} | node -
