#!/usr/bin/env bash
# name: node-marketo-rest (a real client library) reads activities with its own getActivityTypes, getPageToken, getActivities and getChanges
# The client's lib/api/activities.js and lib/api/lead.js, unchanged: GETs
# with _method=GET in the query string, ids joined with commas, fields as
# CSV, and nextPage() resending the nextPageToken of each answer.  A lead
# made and changed through the client's createOrUpdate is read back from
# a token taken before.  The client has no Get Deleted Leads.
# Skips when node/npm or the registry are not available.
set -euo pipefail

# shellcheck source=tests/http/node_lib.sh
. "$(dirname "$0")/node_lib.sh"

{ printf '%s\n' "$node_prelude"; cat <<'JS'
/* Every record of a read, following nextPage() to moreResult false. */
async function all(r) {
	let out = [];
	for (;;) {
		assert.strictEqual(r.success, true);
		assert.strictEqual(typeof r.nextPageToken, 'string');
		out = out.concat(r.result || []);
		if (!r.moreResult)
			return out;
		r = await r.nextPage();
	}
}

(async () => {
	let r = await m.activities.getActivityTypes();
	assert.strictEqual(r.success, true);
	const nl = r.result.find((t) => t.id === 12);
	assert.strictEqual(nl.name, 'New Lead');
	assert.strictEqual(nl.primaryAttribute, undefined);
	const cdv = r.result.find((t) => t.id === 13);
	assert.strictEqual(cdv.name, 'Change Data Value');
	assert.ok(cdv.attributes.some((a) => a.name === 'Old Value' &&
	    typeof a.dataType === 'string'), 'attributes with data types');

	const since = new Date(Date.now() - 60000).toISOString()
	    .replace(/\.\d+Z$/, 'Z');
	r = await m.lead.getPageToken(since);
	assert.strictEqual(r.success, true);
	const token = r.nextPageToken;

	const email = 'node-act-' + tag + '@example.com';
	r = await m.lead.createOrUpdate([{email: email, firstName: 'Ann'}],
	    {lookupField: 'email'});
	const id = r.result[0].id;
	r = await m.lead.createOrUpdate([{email: email, firstName: 'Anna',
	    city: 'Oslo'}], {lookupField: 'email'});
	assert.deepStrictEqual(r.result, [{id: id, status: 'updated'}]);

	const acts = await all(await m.lead.getActivities([id], [12, 13],
	    token, {batchSize: 1}));
	assert.deepStrictEqual(acts.map((a) => a.activityTypeId), [12, 13, 13]);
	acts.forEach((a) => {
		assert.strictEqual(a.leadId, id);
		assert.strictEqual(a.marketoGUID, String(a.id));
		assert.match(a.activityDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
	});
	assert.strictEqual(acts[0].primaryAttributeValueId, id);
	assert.strictEqual(acts[1].primaryAttributeValue, 'First Name');
	assert.ok(acts[1].attributes.some((x) => x.name === 'Old Value' &&
	    x.value === 'Ann'));
	console.log('getActivities ok:', acts.length, 'activities');

	const changes = await all(await m.lead.getChanges(token,
	    {fields: ['firstName', 'city'], leadIds: id}));
	assert.deepStrictEqual(changes.map((x) => x.fields), [[],
	    [{id: changes[1].fields[0].id, name: 'firstName',
	      newValue: 'Anna', oldValue: 'Ann'}],
	    [{id: changes[2].fields[0].id, name: 'city',
	      newValue: 'Oslo', oldValue: null}]]);
	console.log('getChanges ok:', changes.length, 'changes');
})().catch((e) => { console.error(e); process.exit(1); });
JS
} | node -
