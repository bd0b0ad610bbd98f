#!/usr/bin/env bash
# name: node-marketo-rest (a real client library) makes, reads, browses, edits and approves an email
# node-marketo-rest's Email calls (lib/api/email.js: getEmails,
# approveEmail, getEmailContent, updateEmailContentEditableText) unchanged, pointed at the stack, with its request path
# (connection.get/post on util.createAssetPath) for what the library has
# no call for: create, get by id.  Needs the email template of this run
# (MAUTO_TEST_EMAIL_TEMPLATE, made by tests/http/run.sh).  Skips when
# node/npm or the registry are not available.
set -euo pipefail

[ -n "${MAUTO_TEST_EMAIL_TEMPLATE:-}" ] ||
    { echo "no email template (MAUTO_TEST_EMAIL_TEMPLATE)"; exit 77; }
command -v node >/dev/null && command -v npm >/dev/null ||
    { echo "node and npm are not installed"; exit 77; }
cache=${MAUTO_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mauto-node-client}
mkdir -p "$cache"
if [ ! -d "$cache/node_modules/node-marketo-rest" ]; then
	(cd "$cache" && npm init -y >/dev/null 2>&1 &&
	    timeout 300 npm install --no-audit --no-fund \
	    node-marketo-rest@0.7.8 >/dev/null 2>&1) ||
	    { echo "cannot install node-marketo-rest from the npm registry"; exit 77; }
fi

NODE_PATH="$cache/node_modules" node - <<'JS'
const Marketo = require('node-marketo-rest');
const util = require('node-marketo-rest/lib/util');
const assert = require('assert');
const base = process.env.MAUTO_TEST_BASE_URL;
const m = new Marketo({
	endpoint: base + '/rest',
	identity: base + '/identity',
	clientId: process.env.MAUTO_TEST_CLIENT_ID,
	clientSecret: process.env.MAUTO_TEST_CLIENT_SECRET,
});
const c = m._connection;
const p = (x) => util.createAssetPath(x);
const tag = Date.now().toString(36);
const folder = JSON.stringify({id: 2, type: 'Folder'});
const template = Number(process.env.MAUTO_TEST_EMAIL_TEMPLATE);

(async () => {
	let r = await c.post(p('emails.json'), {data: {
		name: 'node-' + tag, folder: folder, template: template,
		subject: 'Hello', fromName: 'Ann', fromEmail: 'ann@example.com',
		replyEmail: 'reply@example.com'}});
	assert.strictEqual(r.success, true);
	const e = r.result[0];
	assert.strictEqual(e.status, 'draft');
	assert.strictEqual(e.template, template);
	assert.deepStrictEqual(e.folder, {type: 'Folder', value: 2,
	    folderName: 'Emails'});
	assert.deepStrictEqual(e.subject, {type: 'Text', value: 'Hello'});
	assert.match(e.updatedAt, /Z\+0000$/);
	console.log('created', e.id);

	r = await m.email.getEmailContent(e.id);
	const intro = r.result.find((x) => x.htmlId === 'intro');
	assert.strictEqual(intro.contentType, 'Text');
	assert.strictEqual(intro.value[0].type, 'HTML');

	r = await m.email.updateEmailContentEditableText(e.id, 'intro',
	    '<p>From <b>node</b></p>', 'From node');
	assert.deepStrictEqual(r.result, [{id: e.id}]);
	r = await m.email.getEmailContent(e.id, {status: 'draft'});
	assert.deepStrictEqual(r.result.find((x) => x.htmlId === 'intro').value,
	    [{type: 'HTML', value: '<p>From <b>node</b></p>'},
	     {type: 'Text', value: 'From node'}]);

	r = await m.email.approveEmail(e.id);
	assert.deepStrictEqual(r.result, [{id: e.id}]);

	r = await c.get(p('email/' + e.id + '.json'));
	assert.strictEqual(r.result[0].status, 'approved');

	r = await m.email.getEmails({folder: folder, status: 'approved',
	    maxReturn: 200});
	assert.ok(r.result.some((x) => x.id === e.id), 'getEmails finds it');

	/* The client turns success:false into a rejection that carries the
	 * service's errors. */
	await assert.rejects(m.email.approveEmail(e.id), (err) => {
		assert.strictEqual(err.errors[0].code, '709');
		return true;
	});
	await assert.rejects(m.email.approveEmail(999999999), (err) => {
		assert.strictEqual(err.errors[0].code, '702');
		return true;
	});
	console.log('node-marketo-rest made, approved and browsed an email');
})().catch((e) => { console.error(e); process.exit(1); });
JS
