#!/usr/bin/env bash
# name: node-marketo-rest (a real client library) drives the Emails v2 operations through its generic connection
# node-marketo-rest 0.7.8 has no call of the v2 email operations, so they
# go through its request path unchanged (connection.postJson and get with
# an x-app-type header, the token as the client sends it): create, get,
# update, approve through the state transition, list, bulk get, and a
# refusal as the client's rejection carrying the v2 error object; the
# email is then read by the client's own v1 getEmails.  Skips when
# node/npm or the registry are not available.
set -euo pipefail

# shellcheck source=tests/http/node_lib.sh
. "$(dirname "$0")/node_lib.sh"

{ printf '%s\n' "$node_prelude"; cat <<'JS'
const h = {headers: {'x-app-type': 'marketo'}};
const v2 = (x) => '/asset/v2/email' + x;

(async () => {
	let r = await c.postJson(v2(''), {
		name: 'node-v2-' + tag, appData: {folderId: '2', editorType: 'email'},
		headers: {subject: 'Hello', fromName: 'Ann', fromEmail: 'ann@example.com',
		    replyEmail: 'reply@example.com'},
		data: {html: {body: '<p>From node</p>'}}}, h);
	assert.strictEqual(r.success, true);
	const e = r.result[0];
	assert.strictEqual(typeof e.id, 'string');
	assert.strictEqual(e.status, 'draft');
	assert.match(e.data.html.body, /From node/);
	console.log('created', e.id);

	r = await c.get(v2('/' + e.id), h);
	assert.strictEqual(r.result[0].name, 'node-v2-' + tag);

	r = await c.postJson(v2('/' + e.id + '/update'),
	    {headers: {subject: 'Hello again'}}, h);
	assert.strictEqual(r.result[0].headers.subject, 'Hello again');

	r = await c.postJson(v2('/state/transition'),
	    {contentId: e.id, action: 'approve'}, h);
	assert.strictEqual(r.result[0].status, 'approved');
	assert.deepStrictEqual(r.result[0].associatedStates,
	    [{contentId: e.id, externalId: null, state: 'approved'}]);

	r = await c.get(v2('/filter'), Object.assign({query: {workspaceId: 1,
	    name: 'node-v2-' + tag, status: 'approved'}}, h));
	assert.strictEqual(r.result.totalItems, 1);
	assert.strictEqual(r.result.items[0].id, e.id);

	r = await c.postJson(v2('/bulk/get'), {assetIds: [e.id]}, h);
	assert.strictEqual(r.result.length, 1);

	/* The client's own v1 call sees the email v2 made. */
	r = await m.email.getEmails({folder: JSON.stringify({id: 2,
	    type: 'Folder'}), status: 'approved', maxReturn: 200});
	assert.ok(r.result.some((x) => String(x.id) === e.id),
	    'getEmails finds the v2 email');

	/* A refusal rejects with the service's v2 error object. */
	await assert.rejects(c.postJson(v2('/' + e.id + '/delete'), {}, h),
	    (err) => {
		const d = err.data || err.body || err;
		const x = (d.errors || [])[0] || {};
		assert.strictEqual(x.code, '709');
		assert.strictEqual(x.type, 'error');
		return true;
	    });
	console.log('ok');
})().catch((err) => { console.error(err); process.exit(1); });
JS
} | node -
