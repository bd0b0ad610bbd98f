#!/usr/bin/env bash
# name: node-marketo-rest (a real client library) drives the Leads API
# The client from npm, pointed at the stack unchanged: createOrUpdate,
# byId (with fields), find (by email; by id with paging), push to a
# program made with mautoctl, describe, partitions, associateLead,
# mergeLead; each answer checked the way the client's users read it.
# Skips when node/npm or the registry are not available.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ -z "${MAUTO_TEST_STACK_DIR:-}" ]; then
	echo "needs the database of this run's mautod (MAUTO_TEST_STACK_DIR)"
	exit 77
fi
# shellcheck source=tests/http/node_lib.sh
. "$(dirname "$0")/node_lib.sh"

tag=$(harness_random_hex 4)
program="Node-Program-$tag"
harness_ctl "$MAUTO_TEST_STACK_DIR/env" program create --name "$program" \
    >/dev/null || { echo "mautoctl program create failed"; exit 1; }

MAUTO_TEST_TAG=$tag MAUTO_TEST_PROGRAM=$program \
    node - <<'JS'
const Marketo = require('node-marketo-rest');
const assert = require('assert');
const base = process.env.MAUTO_TEST_BASE_URL;
const tag = process.env.MAUTO_TEST_TAG;
const m = new Marketo({
	endpoint: base + '/rest',
	identity: base + '/identity',
	clientId: process.env.MAUTO_TEST_CLIENT_ID,
	clientSecret: process.env.MAUTO_TEST_CLIENT_SECRET,
});
const email = (n) => `node-${tag}-${n}@example.com`;

(async () => {
	/* Sync Leads: created, then updated. */
	const leads = [];
	for (let i = 0; i < 12; i++)
		leads.push({email: email(i), firstName: 'N' + i, lastName: 'Ode'});
	let res = await m.lead.createOrUpdate(leads, {lookupField: 'email'});
	assert.strictEqual(res.success, true);
	assert.strictEqual(res.result.length, 12);
	res.result.forEach((r) => assert.strictEqual(r.status, 'created'));
	const ids = res.result.map((r) => r.id);
	res = await m.lead.createOrUpdate([{email: email(0), company: 'Acme'}],
	    {lookupField: 'email'});
	assert.deepStrictEqual(res.result, [{id: ids[0], status: 'updated'}]);
	console.log('createOrUpdate ok');

	/* Get Lead by Id with fields; explicit nulls for empty fields. */
	res = await m.lead.byId(ids[0], {fields: ['email', 'company', 'title']});
	assert.strictEqual(res.result.length, 1);
	assert.strictEqual(res.result[0].id, ids[0]);
	assert.strictEqual(res.result[0].company, 'Acme');
	assert.strictEqual(res.result[0].title, null);
	console.log('byId ok');

	/* Get Leads by Filter Type: email (any case) and ids with paging. */
	res = await m.lead.find('email', [email(3).toUpperCase()]);
	assert.strictEqual(res.result.length, 1);
	assert.strictEqual(res.result[0].id, ids[3]);
	assert.strictEqual(res.result[0].firstName, 'N3');
	const seen = [];
	let token;
	do {
		const opt = {batchSize: 5};
		if (token)
			opt.nextPageToken = token;
		res = await m.lead.find('id', ids, opt);
		res.result.forEach((r) => seen.push(r.id));
		token = res.nextPageToken;
	} while (token);
	assert.deepStrictEqual(seen.slice().sort((a, b) => a - b),
	    ids.slice().sort((a, b) => a - b));
	console.log('find ok, paged', seen.length);

	/* Push Lead into the program made for this test. */
	res = await m.lead.push([{email: email(20), firstName: 'Pushed'}], {
		programName: process.env.MAUTO_TEST_PROGRAM,
		source: 'node test', reason: 'client library'});
	assert.strictEqual(res.result.length, 1);
	assert.strictEqual(res.result[0].status, 'created');
	const pushed = res.result[0].id;
	/* An unknown program is refused in the envelope. */
	const bad = await m.lead.push([{email: email(21)}],
	    {programName: 'No such program ' + tag}).then(() => null,
	    (e) => e);
	assert.ok(bad, 'push to an unknown program must fail');
	console.log('push ok');

	/* Describe and partitions. */
	res = await m.lead.describe();
	const em = res.result.find((f) => f.rest && f.rest.name === 'email');
	assert.ok(em, 'describe lists email');
	assert.strictEqual(em.dataType, 'email');
	res = await m.lead.partitions();
	assert.strictEqual(res.result[0].name, 'Default');
	console.log('describe and partitions ok');

	/* Associate Lead and Merge Leads (JSON bodies the client sends). */
	res = await m.lead.associateLead(ids[1],
	    'id:123-ABC-456&token:_mch-example.com-' + Date.now() + '-' +
	    String(parseInt(tag, 16) % 100000).padStart(5, '0'));
	assert.strictEqual(res.success, true);
	res = await m.lead.mergeLead(ids[0], [ids[1], pushed], {});
	assert.strictEqual(res.success, true);
	res = await m.lead.find('id', [ids[1], pushed]);
	assert.strictEqual(res.result.length, 0, 'losers are gone');
	res = await m.lead.byId(ids[0], {fields: ['firstName', 'company']});
	assert.strictEqual(res.result[0].firstName, 'N0', 'winner keeps its');
	assert.strictEqual(res.result[0].company, 'Acme');
	console.log('associate and merge ok');
})().catch((e) => {
	console.error('FAILED:', e && e.stack ? e.stack : JSON.stringify(e));
	process.exit(1);
});
JS
