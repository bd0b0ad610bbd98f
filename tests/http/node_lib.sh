# Sourced by the node-marketo-rest scripts (tests/http/t_node_*.sh): exits
# 77 (skip) without node and npm or when the client cannot be installed,
# installs node-marketo-rest once into $cache, exports NODE_PATH, and sets
# node_prelude, the JavaScript that the asset scripts start with: the
# client m pointed at the stack, its connection c, p() for an asset path,
# a tag of this run, and assert.

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
export NODE_PATH="$cache/node_modules"

# shellcheck disable=SC2034 # used by the scripts that source this
node_prelude="
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
"
