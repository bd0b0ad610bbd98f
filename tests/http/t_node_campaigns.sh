#!/usr/bin/env bash
# name: node-marketo-rest (a real client library) reads campaigns of the lead database with its own campaign.getCampaigns and its nextPage, and runs one with campaign.request
# The client's lib/api/campaign.js, unchanged: getCampaigns sends a GET
# with its options and _method=GET as a form body; nextPage() sends the
# same call again with the reply's nextPageToken.  The smart campaigns
# are made through the client's request path (connection.post on
# util.createAssetPath), so their ids are the ones read back.  Skips when
# node/npm or the registry are not available.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"
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

	// campaign.request: a requestable campaign (Campaign is Requested,
	// Web Service API) whose flow records an Interesting Moment with a
	// token, run for a lead the client makes.
	r = await c.post(p('smartCampaigns.json'), {data: {
		name: 'node-rq-' + tag, folder: folder}});
	const rq = r.result[0].id, sl = r.result[0].smartListId;
	r = await c.post(p('smartList/' + sl + '/rules.json'), {data: {
		ruleId: JSON.stringify({id: 100004, type: 'activity'}),
		index: 1, trigger: true}});
	const rule = r.result[0].rules.triggers[0].id;
	r = await c.post(p('smartList/' + sl + '/rule/' + rule + '.json'),
	    {data: {attributeId: JSON.stringify({id: 1, type: 'activity'}),
	    values: 'Web Service API'}});
	assert.strictEqual(r.success, true);
	r = await c.post(p('smartCampaign/' + rq + '/flows.json'), {data: {
		activityType: JSON.stringify({id: 46, type: 'activity'}),
		index: 0}});
	const st = r.result[0].flow.steps[0];
	r = await c.post(p('smartCampaign/' + rq + '/flow/' + st.id +
	    '/choice/' + st.stepChoice[0].id + '.json'), {data: {
		attributes: JSON.stringify({1: 'Milestone',
		    2: 'node says {{my.note}}'})}});
	assert.strictEqual(r.success, true);
	r = await c.post(p('smartCampaign/' + rq + '/activate.json'),
	    {data: {id: rq}});
	assert.strictEqual(r.success, true);
	r = await m.lead.createOrUpdate([{email: 'node-rq-' + tag +
	    '@example.com'}]);
	const lead = r.result[0].id;
	r = await m.campaign.request(rq, [{id: lead}],
	    [{name: '{{my.note}}', value: 'hello'}]);
	assert.strictEqual(r.success, true);
	assert.deepStrictEqual(r.result, [{id: rq}]);
	console.log('requested', rq, lead);
})().catch((e) => { console.error(e); process.exit(1); });
JS
} | node - >"$work/node.out"
cat "$work/node.out"
read -r _ camp lead < <(grep '^requested ' "$work/node.out")
for i in $(seq 1 80); do
	n=$(dbsql "SELECT COUNT(*) FROM activity WHERE lead_id = $lead AND activity_type_id = 46 AND campaign_id = $camp AND primary_value = 'node says hello'")
	[ "$n" = 1 ] && break
	sleep 0.25
done
if [ "$n" = 1 ]; then
	echo "ok - the campaign node-marketo-rest requested ran for the lead, with its token"
else
	echo "not ok - the campaign node-marketo-rest requested ran for the lead: $n"
	exit 1
fi
