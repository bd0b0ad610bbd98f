#!/usr/bin/env bash
# name: node-marketo-rest gets injected 601 and 602, re-authenticates and succeeds
# docs/operating.md, Fault injection.  node-marketo-rest (lib/retry.js) answers
# 601 and 602 by fetching a token again and retrying the call.  A request
# header given in its options is sent again on every retry, so a header
# fault fails the retries too (shown with 611); a fault plan (mautoctl
# fault CLIENT_ID CODE [COUNT]) fails only the next COUNT calls of the
# client, which is what a retry test needs.  Runs on the HTTP stack of
# this run (fault_injection on) with a client of its own.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

command -v node >/dev/null && command -v npm >/dev/null ||
    { echo "node and npm are not installed"; exit 77; }
if [ -z "${MAUTO_TEST_STACK_DIR:-}" ]; then
	echo "needs the mautod of this run (MAUTO_TEST_STACK_DIR)"
	exit 77
fi
cache=${MAUTO_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mauto-node-client}
[ -d "$cache/node_modules/node-marketo-rest" ] || bash "$(dirname "$0")/t_node_client.sh" >/dev/null 2>&1 || true
[ -d "$cache/node_modules/node-marketo-rest" ] ||
    { echo "cannot install node-marketo-rest from the npm registry"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
envfile=$MAUTO_TEST_STACK_DIR/env
harness_client_create "$envfile" "node faults" admin "$work/client"
# shellcheck disable=SC1091
. "$work/client"
FAULT_CTL=$(harness_bin mautoctl)
export MAUTO_CLIENT_ID MAUTO_CLIENT_SECRET FAULT_CTL FAULT_ENV=$envfile

NODE_PATH="$cache/node_modules" node - <<'JS'
const Marketo = require('node-marketo-rest');
const assert = require('assert');
const { execFileSync } = require('child_process');
const base = process.env.MAUTO_TEST_BASE_URL;
const id = process.env.MAUTO_CLIENT_ID;
const m = new Marketo({
	endpoint: base + '/rest',
	identity: base + '/identity',
	clientId: id,
	clientSecret: process.env.MAUTO_CLIENT_SECRET,
	retry: { maxRetries: 2, initialDelay: 50, maxDelay: 200 },
});

/* mautoctl fault CLIENT_ID CODE COUNT with the stack's database. */
function plan(code, count) {
	execFileSync('bash', ['-c', '. "$1" && exec "$2" fault "$3" "$4" "$5"',
	    'plan', process.env.FAULT_ENV, process.env.FAULT_CTL, id,
	    String(code), String(count)], { stdio: 'inherit' });
}

/* Counts the token fetches the client forces (its answer to 601/602). */
let forced = 0;
const getToken = m._connection.getOAuthToken.bind(m._connection);
m._connection.getOAuthToken = (force) => {
	if (force)
		forced++;
	return getToken(force);
};
const read = (opts) => m._connection.get('/v1/leads.json',
    Object.assign({ query: { filterType: 'id', filterValues: '1' } }, opts));

(async () => {
	const ok = await read();
	assert.strictEqual(ok.success, true);
	assert.strictEqual(forced, 0, 'no forced token fetch without a fault');

	for (const code of [601, 602]) {
		forced = 0;
		plan(code, 1);
		const r = await read();
		assert.strictEqual(r.success, true, code + ': retried to success');
		assert.strictEqual(forced, 1, code + ': one new token fetched');
		console.log(code, 'injected: re-authenticated once, then succeeded');
	}

	/* Two planned faults: both retries are needed, still a success. */
	forced = 0;
	plan(601, 2);
	const r2 = await read();
	assert.strictEqual(r2.success, true);
	assert.strictEqual(forced, 2, 'two faults, two token fetches');
	console.log('601 twice: re-authenticated twice, then succeeded');

	/* A header fault travels with every retry: the call fails in the end. */
	const e = await read({ headers: { 'X-Mauto-Fault': '611' } }).then(
	    () => null, (err) => err);
	assert.ok(e && e.errors, 'a header fault must fail every attempt');
	assert.strictEqual(e.errors[0].code, '611');
	assert.strictEqual(e.message, 'System error');
	console.log('X-Mauto-Fault: 611 through the options failed every retry');
})().catch((e) => { console.error('FAIL', e); process.exit(1); });
JS
