#!/usr/bin/env bash
# name: node-marketo-rest (a real client library) drives landing page templates through its request path
# node-marketo-rest has no landing page template calls, so this uses the
# request path its asset calls use (connection.get/post on
# util.createAssetPath, restler underneath: form bodies, a browse as GET
# with a form body and _method=GET, a multipart upload), unchanged and
# pointed at the stack: create, upload, approve, read, browse, errors.
# Skips when node/npm or the registry are not available.
set -euo pipefail

# shellcheck source=tests/http/node_lib.sh
. "$(dirname "$0")/node_lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '<html><head></head><body><div class="mktoText" id="main" mktoName="Main">Hi</div></body></html>' \
    >"$work/guided.html"

{ printf '%s\n' "$node_prelude"; cat <<'JS'
const rest = require('restler');
const fs = require('fs');
const folder = JSON.stringify({id: 4, type: 'Folder'});

(async () => {
	let r = await c.post(p('landingPageTemplates.json'), {data: {
		name: 'node-' + tag, folder: folder, templateType: 'guided',
		description: 'from node'}});
	assert.strictEqual(r.success, true);
	assert.deepStrictEqual(r.errors, []);
	assert.deepStrictEqual(r.warnings, []);
	const t = r.result[0];
	assert.strictEqual(t.status, 'draft');
	assert.strictEqual(t.templateType, 'guided');
	assert.deepStrictEqual(t.folder, {type: 'Folder', value: 4,
	    folderName: 'Landing Page Templates'});
	assert.match(t.createdAt, /Z\+0000$/);
	console.log('created', t.id);

	const file = process.env.WORK + '/guided.html';
	r = await c.post(p('landingPageTemplate/' + t.id + '/content.json'), {
		multipart: true,
		/* restler's rest.file streams with an fs call Node 20
		 * refuses; rest.data sends the same part from memory. */
		data: {content: rest.data('guided.html', 'text/html',
		    fs.readFileSync(file))}});
	assert.deepStrictEqual(r.result, [{id: t.id}]);

	r = await c.post(p('landingPageTemplate/' + t.id + '/approveDraft.json'));
	assert.strictEqual(r.result[0].status, 'approved');

	r = await c.get(p('landingPageTemplate/' + t.id + '/content.json'),
	    {query: {status: 'approved'}});
	assert.strictEqual(r.result[0].content, fs.readFileSync(file, 'utf8'));

	r = await c.get(p('landingPageTemplate/byName.json'),
	    {query: {name: 'node-' + tag}});
	assert.strictEqual(r.result[0].id, t.id);

	/* A browse the way the client's asset browses go: GET, form body. */
	r = await c.get(p('landingPageTemplates.json'), {data: {
		_method: 'GET', folder: folder, status: 'approved',
		maxReturn: 200}});
	assert.ok(r.result.some((x) => x.id === t.id), 'browse finds it');

	r = await c.get(p('landingPageTemplate/byName.json'),
	    {query: {name: 'nothing-' + tag}});
	assert.strictEqual(r.success, true);
	assert.strictEqual(r.result, undefined);
	assert.deepStrictEqual(r.warnings,
	    ['No assets found for the given search criteria.']);

	/* The client turns success:false into a rejection that carries
	 * the service's errors (its isMarketoError reads them). */
	await assert.rejects(
	    c.post(p('landingPageTemplate/' + t.id + '/delete.json')),
	    (e) => {
		assert.strictEqual(e.errors[0].code, '709');
		return true;
	    });
	console.log('node-marketo-rest drove a template from draft to approved');
})().catch((e) => { console.error(e); process.exit(1); });
JS
} | WORK=$work node -
