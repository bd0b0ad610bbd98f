#!/usr/bin/env bash
# name: node-marketo-rest (a real client library) reads the usage and error statistics with its own stats.usage, usageLast7Days, errors and errorsLast7Days
# The client's lib/api/stats.js, unchanged: plain GETs of the four paths.
# The client's own calls show under its API user once the host has
# synced (docs/behaviour.md §18); an answer with an error counts its code.
# Skips when node/npm or the registry are not available.
set -euo pipefail

# shellcheck source=tests/http/node_lib.sh
. "$(dirname "$0")/node_lib.sh"

{ printf '%s\n' "$node_prelude"; cat <<'JS'
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const day = /^\d{4}-\d\d-\d\d$/;

/* One day's element: date, total, then the items, which sum to it. */
function check(x, k, key) {
	assert.deepStrictEqual(Object.keys(x), ['date', 'total', k]);
	assert.match(x.date, day);
	assert.strictEqual(x.total, x[k].reduce((s, i) => s + i.count, 0));
	x[k].forEach((i) => {
		assert.deepStrictEqual(Object.keys(i), [key, 'count']);
		assert.strictEqual(typeof i[key], 'string');
	});
}

(async () => {
	const scope = (await c.getOAuthToken()).scope;
	/* A 1003 of this client's: an unknown filter type. */
	let r = await m.lead.find('noSuchField' + tag, [1]).catch((e) => e);
	let u, e;
	for (let i = 0; i < 50; i++) {
		u = await m.stats.usage();
		e = await m.stats.errors();
		if (u.result[0].users.some((x) => x.userId === scope) &&
		    e.result[0].total > 0)
			break;
		await sleep(200);
	}
	assert.strictEqual(u.success, true);
	assert.strictEqual(u.result.length, 1);
	check(u.result[0], 'users', 'userId');
	const mine = u.result[0].users.find((x) => x.userId === scope);
	assert.ok(mine && mine.count >= 1, 'the client counted: ' +
	    JSON.stringify(u.result));
	check(e.result[0], 'errors', 'errorCode');
	assert.ok(e.result[0].errors.length > 0, JSON.stringify(e.result));
	console.log('usage/errors ok:', mine.count, 'calls,',
	    e.result[0].total, 'errors today');

	for (const f of ['usageLast7Days', 'errorsLast7Days']) {
		r = await m.stats[f]();
		assert.strictEqual(r.success, true);
		assert.strictEqual(r.result.length, 7);
		r.result.forEach((x) => check(x, f === 'usageLast7Days' ?
		    'users' : 'errors', f === 'usageLast7Days' ? 'userId' :
		    'errorCode'));
		const dates = r.result.map((x) => x.date);
		assert.deepStrictEqual(dates, [...dates].sort().reverse());
		assert.strictEqual(dates[0], u.result[0].date);
	}
	console.log('last7days ok');
})().catch((e) => { console.error(e); process.exit(1); });
JS
} | node -
