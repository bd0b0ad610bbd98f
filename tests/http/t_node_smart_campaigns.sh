#!/usr/bin/env bash
# name: node-marketo-rest (a real client library) browses smart campaigns with its own campaign.getSmartCampaigns
# The client's lib/api/campaign.js, unchanged: getSmartCampaigns sends a
# GET with its options and _method=GET in the query string.  The
# campaigns are made through the client's request path (connection.post
# on util.createAssetPath).  Skips when node/npm or the registry are not
# available.
set -euo pipefail

# shellcheck source=tests/http/node_lib.sh
. "$(dirname "$0")/node_lib.sh"

{ printf '%s\n' "$node_prelude"; cat <<'JS'
const folder = JSON.stringify({id: 1, type: 'Folder'});

(async () => {
	let r = await c.post(p('smartCampaigns.json'), {data: {
		name: 'node-sc-' + tag, folder: folder, description: 'from node'}});
	assert.strictEqual(r.success, true);
	const s = r.result[0];
	assert.deepStrictEqual(s.folder, {id: 1, type: 'Folder'});
	assert.strictEqual(s.type, 'default');

	r = await m.campaign.getSmartCampaigns({folder: folder, maxReturn: 200});
	assert.strictEqual(r.success, true);
	const found = r.result.filter((x) => x.id === s.id);
	assert.strictEqual(found.length, 1, 'getSmartCampaigns lists it');
	assert.strictEqual(found[0].name, 'node-sc-' + tag);
	assert.strictEqual(found[0].description, 'from node');
	assert.strictEqual(found[0].isActive, false);
	assert.strictEqual(found[0].flow, undefined);

	r = await m.campaign.getSmartCampaigns({isActive: true, maxReturn: 200});
	assert.strictEqual(r.success, true);
	assert.ok(!(r.result || []).some((x) => x.id === s.id),
	    'an inactive campaign is not listed with isActive=true');

	r = await m.campaign.getSmartCampaigns({
	    latestUpdatedAt: '2000-01-01T00:00:00Z'});
	assert.strictEqual(r.success, true);
	assert.strictEqual(r.result, undefined);
	assert.deepStrictEqual(r.warnings,
	    ['No assets found for the given search criteria.']);
	console.log('node-marketo-rest found smart campaign', s.id);
})().catch((e) => { console.error(e); process.exit(1); });
JS
} | node -
