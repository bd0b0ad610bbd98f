#!/usr/bin/env bash
# name: node-marketo-rest (a real client library) reads campaigns of the lead database with its own campaign.getCampaigns and its nextPage
# The client's lib/api/campaign.js, unchanged: getCampaigns sends a GET
# with its options and _method=GET as a form body; nextPage() sends the
# same call again with the reply's nextPageToken.  The smart campaigns
# are made through the client's request path (connection.post on
# util.createAssetPath), so their ids are the ones read back.  Skips when
# node/npm or the registry are not available.
set -euo pipefail

# shellcheck source=tests/http/node_lib.sh
. "$(dirname "$0")/node_lib.sh"

{ printf '%s\n' "$node_prelude"; cat <<'JS'
const folder = JSON.stringify({id: 1, type: 'Folder'});

(async () => {
	const ids = [];
	for (const n of ['a', 'b']) {
		const r = await c.post(p('smartCampaigns.json'), {data: {
			name: 'node-cp-' + n + '-' + tag, folder: folder,
			description: 'from node'}});
		assert.strictEqual(r.success, true);
		ids.push(r.result[0].id);
	}

	let r = await m.campaign.getCampaigns({id: ids.join(','),
	    batchSize: 1});
	assert.strictEqual(r.success, true);
	assert.deepStrictEqual(Object.keys(r.result[0]), ['id', 'name',
	    'description', 'type', 'workspaceName', 'createdAt', 'updatedAt',
	    'active']);
	assert.strictEqual(r.result[0].id, ids[0]);
	assert.strictEqual(r.result[0].name, 'node-cp-a-' + tag);
	assert.strictEqual(r.result[0].type, 'batch');
	assert.strictEqual(r.result[0].active, false);
	assert.strictEqual(typeof r.nextPageToken, 'string');
	r = await r.nextPage();
	assert.deepStrictEqual(r.result.map((x) => x.id), [ids[1]]);
	assert.strictEqual(r.nextPageToken, undefined);

	r = await m.campaign.getCampaigns({name: 'node-cp-b-' + tag,
	    isTriggerable: false});
	assert.deepStrictEqual(r.result.map((x) => x.id), [ids[1]]);
	r = await m.campaign.getCampaigns({id: ids.join(','),
	    isTriggerable: true});
	assert.deepStrictEqual(r.result, []);
	console.log('node-marketo-rest read campaigns', ids.join(','));
})().catch((e) => { console.error(e); process.exit(1); });
JS
} | node -
