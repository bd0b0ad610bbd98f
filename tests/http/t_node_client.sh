#!/usr/bin/env bash
# name: node-marketo-rest (a real client library) authenticates and reads envelopes
# The client from npm, pointed at the stack's base URL unchanged: it gets a
# token from /identity/oauth/token (GET with query parameters), reuses it,
# and sees the service's errors as the real service's (code and message
# in errors[0]).  Skips when node/npm or the registry are not available.
set -euo pipefail

# shellcheck source=tests/http/node_lib.sh
. "$(dirname "$0")/node_lib.sh"

node - <<'JS'
const Marketo = require('node-marketo-rest');
const assert = require('assert');
const base = process.env.MAUTO_TEST_BASE_URL;
const opts = {
	endpoint: base + '/rest',
	identity: base + '/identity',
	clientId: process.env.MAUTO_TEST_CLIENT_ID,
	clientSecret: process.env.MAUTO_TEST_CLIENT_SECRET,
};

(async () => {
	const m = new Marketo(opts);
	const t1 = await m._connection.getOAuthToken(true);
	assert.strictEqual(t1.token_type, 'bearer');
	assert.match(t1.access_token, /^[0-9a-f-]{36}:[a-z]+$/);
	// The run's admin token may be minutes old by now: expires_in counts down.
	assert.ok(t1.expires_in >= 1 && t1.expires_in <= 3599, 'expires_in');
	const t2 = await m._connection.getOAuthToken(true);
	assert.strictEqual(t2.access_token, t1.access_token, 'same token reused');
	assert.ok(t2.expires_in <= t1.expires_in, 'expires_in counts down');
	console.log('token ok', t1.expires_in, t2.expires_in);

	/* An operation whose group is not built yet: a clear error, not a hang. */
	const t0 = Date.now();
	const err = await m._connection.get('/asset/v1/smartCampaigns.json').then(
	    () => null, (e) => e);
	assert.ok(err, 'a not-implemented route must fail');
	assert.strictEqual(err.errors[0].code, '703');
	assert.match(err.message, /^Not implemented: Get Smart Campaigns/);
	/* Not retried by the client: the answer is immediate. */
	assert.ok(Date.now() - t0 < 5000, 'answered without client retries');
	console.log('pending route answered 703:', err.message);

	/* An unknown path answers 610 in the envelope (HTTP 200). */
	const e610 = await m._connection.get('/v1/nothing.json').then(
	    () => null, (e) => e);
	assert.ok(e610 && e610.errors, 'unknown route must fail');
	assert.strictEqual(e610.errors[0].code, '610');
	assert.strictEqual(e610.code, 200);
	console.log('unknown route 610 ok');

	/* Bad credentials: the client reports the OAuth error. */
	const bad = new Marketo(Object.assign({}, opts, { clientSecret: 'wrong' }));
	const e2 = await bad._connection.getOAuthToken(true).then(() => null, (e) => e);
	assert.ok(e2, 'bad secret must be refused');
	assert.strictEqual(e2.error, 'invalid_client');
	console.log('bad secret refused ok');
})().catch((e) => { console.error('FAIL', e); process.exit(1); });
JS
