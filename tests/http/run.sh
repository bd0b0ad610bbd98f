#!/usr/bin/env bash
# Black-box HTTP tests: requests through nginx to mautod, answers compared
# with tests/http/cases/*.case, then the scripts tests/http/t_*.sh.
#
#   tests/http/run.sh [PATTERN...]     (make check-http runs it)
#   MAUTO_TEST_FRONT=apache tests/http/run.sh [PATTERN...]
#                                      (make check-http-apache): the same
#                                      cases through Apache httpd
#                                      (tests/harness/apache.sh) instead of
#                                      nginx; the scripts, which start
#                                      stacks of their own, are not run
#   MAUTO_TEST_FRONT=cluster tests/http/run.sh [PATTERN...]
#                                      (make check-cluster): the cases and
#                                      the scripts against
#                                      tests/cluster/cluster.sh: nginx over
#                                      two mautod hosts, each on its own
#                                      node of a three-node Galera cluster
#                                      (consecutive requests go to
#                                      different hosts); the scripts'
#                                      stacks of their own use a database
#                                      on the cluster
#
# PATTERNs (shell globs on file names, e.g. '0*-auth-*') pick cases and
# scripts; the default is all of them.
#
# MAUTO_TEST_JSON_BODIES=1 sends each urlencoded form body of the cases as
# a JSON object of the same parameters under application/json
# (t_json_bodies.sh runs the asset cases so).
#
# The stack: when MAUTO_TEST_BASE_URL is set, the service there is tested
# as it is; it needs MAUTO_TEST_CLIENT_ID/SECRET (an admin client) and
# MAUTO_TEST_READONLY_CLIENT_ID/SECRET (a readonly one), or a database
# (MAUTO_DB_* variables) where they can be created.  Otherwise the script
# starts its own under a temporary directory and removes it at the end:
# MariaDB (or a new database on the server of MAUTO_TEST_DB_SOCKET, as
# tests/run provides), migrations, mautod under systemd-socket-activate,
# nginx on a free port.  The directory is kept (and named) when something
# failed, or always with KEEP=1.
#
# Case files (one request or several, in order):
#   # name: what the case shows
#   request: METHOD /path?query          starts a request
#   header: Name: value                  a request header (repeatable)
#   body: text                           request body; repeated lines are
#                                        joined with newlines
#   expect-status: 200
#   expect-header: Name: value           exact value, or {{re:REGEX}}
#   expect-no-header: Name
#   expect-json: {...}                   subset match, see below
#   expect-key-order: k1 k2 ...          top-level keys appear in this order
#   expect-body-contains: text
#   capture: NAME = key.path             saves a JSON value as {{NAME}}
# A line that starts with white space continues the previous line.
# Placeholders anywhere: {{token}}, {{readonly_token}}, {{client_id}},
# {{version}} (mautod --version of the build, or MAUTO_TEST_VERSION),
# {{client_secret}}, {{readonly_client_id}}, {{readonly_client_secret}},
# captures, and {{repeat:TEXT:N}} (TEXT repeated N times).
# In expect-json, objects match when every listed key matches (other keys
# are ignored), arrays element by element with the same length, and these
# strings match values: "{{rid}}" a requestId (^[0-9a-f]{1,5}#[0-9a-f]{11,}$),
# "{{any}}" anything, "{{int}}" an integer, "{{absent}}" (the key must be
# missing), "{{re:REGEX}}" a string the regex finds (re.search).
#
# Scripts t_*.sh get MAUTO_TEST_BASE_URL, MAUTO_TEST_TOKEN,
# MAUTO_TEST_READONLY_TOKEN, MAUTO_TEST_CLIENT_ID/SECRET, and when this run
# owns them MAUTO_TEST_STACK_DIR (mautod's directory), MAUTO_TEST_DB_ENV
# (an env file of the database server, for harness_stack_start) and
# MAUTO_TEST_MARIADB_DIR (the server).  A script never stops that server
# or changes its global settings: other layers may be using it at the
# same time (tests/run); one that needs to starts a private server.
# Exit 0 passes, 77 skips, anything else fails.
#
# Output: one line per case and script, then "N passed, N failed" on the
# last line.  The exit status is 1 when anything failed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/env.sh
. "$here/../harness/env.sh"

command -v curl >/dev/null || harness_die "curl is required"
command -v python3 >/dev/null || harness_die "python3 is required"

work=""
own_stack=0
front=${MAUTO_TEST_FRONT:-nginx}
case $front in
nginx | apache) ;;
cluster)
	# The caller's database (tests/run's single server) stays out of a
	# cluster run: the scripts get the cluster's.
	for v in $(compgen -e | grep -E '^MAUTO_(TEST_)?DB_|^MAUTO_TEST_MARIADB_DIR$'); do
		unset "$v"
	done
	;;
*) harness_die "MAUTO_TEST_FRONT is nginx, apache or cluster, not $front" ;;
esac
# The directories of the stack this run starts: mautod (of the first host
# for a cluster) and the front server.
appdir=""
frontdir=""

cleanup()
{
	local rc=$?
	trap - EXIT INT TERM
	if [ -n "$work" ]; then
		if [ "$rc" -ne 0 ]; then
			harness_log "mautod log (last lines but request events):"
			grep -v '^{' "$appdir/mautod.log" 2>/dev/null |
			    tail -n 20 >&2 || true
			harness_log "$front error log (last lines):"
			tail -n 10 "$frontdir/logs/error.log" >&2 2>/dev/null || true
		fi
		if [ "$front" = cluster ]; then
			"$MAUTO_SRCDIR/tests/cluster/cluster.sh" stop "$work/cluster" \
			    >/dev/null 2>&1 || true
		else
			"$HARNESS_DIR/$front.sh" stop "$work/$front" >/dev/null 2>&1 || true
			"$HARNESS_DIR/mautod.sh" stop "$work/app" >/dev/null 2>&1 || true
		fi
		if [ -d "$work/db" ]; then
			"$HARNESS_DIR/mariadb.sh" stop "$work/db" >/dev/null 2>&1 || true
		elif [ -f "$work/app/env" ]; then
			harness_db_drop "$work/app/env" >/dev/null 2>&1 || true
		fi
		if [ "${KEEP:-0}" = 1 ] || [ "$rc" -ne 0 ]; then
			harness_log "kept $work"
		else
			rm -rf "$work"
		fi
	fi
	exit "$rc"
}

# Writes the database env file for our own stack: a new database on the
# caller's server when there is one, otherwise a private server.
stack_database()
{
	if [ -n "${MAUTO_TEST_DB_SOCKET:-}" ]; then
		harness_db_env "$work/server.env" "$MAUTO_TEST_DB_SOCKET" \
		    "$MAUTO_TEST_DB_NAME" "$MAUTO_TEST_DB_USER" \
		    "$MAUTO_TEST_DB_PASSWORD"
		mkdir -p "$work/app"
		harness_db_create "$work/server.env" "mauto_http$(harness_random_hex 4)" \
		    "$work/app/env"
	else
		"$HARNESS_DIR/mariadb.sh" start "$work/db"
		cp "$work/db/env" "$work/server.env"
		mkdir -p "$work/app"
		cp "$work/db/env" "$work/app/env"
		export MAUTO_TEST_MARIADB_DIR="$work/db"
	fi
}

# Starts the whole stack under $work and sets the MAUTO_TEST_* variables.
start_stack()
{
	local port
	work=$(mktemp -d "${TMPDIR:-/tmp}/mauto-http.XXXXXX")
	own_stack=1
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	if [ "$front" = cluster ]; then
		chmod 755 "$work"	# the nodes run as mysql under root
		start_cluster
		return 0
	fi
	appdir=$work/app
	frontdir=$work/$front
	stack_database
	# The main stack has no rate limit or daily quota: the cases run
	# back to back.  t_ratelimit.sh tests the limit on its own stack.
	# Fault injection is on (cases/019-fault-*.case); t_faults_off.sh
	# shows the header ignored on a stack of its own.  The workers are
	# mautod's default (at least concurrency_limit + 6) unless
	# MAUTO_WORKERS says otherwise: the front server's bound is at the
	# workers, and with fewer than the limit it would refuse calls the
	# service admits (docs/operating.md, "Overload").
	cat >>"$work/app/env" <<EOF
export MAUTO_WORKERS=${MAUTO_WORKERS:-0}
export MAUTO_RATE_LIMIT_CALLS=0
export MAUTO_DAILY_QUOTA=0
export MAUTO_FAULT_INJECTION=true
export MAUTO_ENGINE_CLOCK_CONTROL=true
export MAUTO_HOST_ID=http$(harness_random_hex 4)
EOF
	harness_migrate "$work/app/env" >"$work/migrate.log" 2>&1 ||
	    { cat "$work/migrate.log" >&2; harness_die "migration failed"; }
	"$HARNESS_DIR/mautod.sh" start "$work/app"
	port=$(harness_free_port)
	# The front is sized from the stack's own workers and limit.
	(
		# shellcheck disable=SC1091
		. "$work/app/env"
		"$HARNESS_DIR/$front.sh" start "$work/$front" "$port" \
		    "$work/app/mautod.sock"
	)
	export MAUTO_TEST_BASE_URL="http://127.0.0.1:$port"
	export MAUTO_TEST_STACK_DIR="$work/app"
	export MAUTO_TEST_DB_ENV="$work/server.env"
}

# The cluster stack (tests/cluster/cluster.sh) with the settings of the
# single stack above; the scripts' own stacks use the cluster's database
# server through node 1.
start_cluster()
{
	appdir=$work/cluster/host1
	frontdir=$work/cluster/nginx
	mkdir -p "$work/cluster"
	cat >"$work/cluster/host.env" <<EOF
export MAUTO_RATE_LIMIT_CALLS=0
export MAUTO_DAILY_QUOTA=0
export MAUTO_FAULT_INJECTION=true
export MAUTO_ENGINE_CLOCK_CONTROL=true
EOF
	"$MAUTO_SRCDIR/tests/cluster/cluster.sh" start "$work/cluster" 2
	MAUTO_TEST_BASE_URL=$(
		# shellcheck disable=SC1091
		. "$work/cluster/stack.env"
		printf '%s' "$MAUTO_TEST_BASE_URL"
	)
	export MAUTO_TEST_BASE_URL
	export MAUTO_TEST_STACK_DIR="$appdir"
	export MAUTO_TEST_DB_ENV="$work/cluster/server.env"
}

# Makes sure there are an admin and a readonly client.
ensure_clients()
{
	local envfile=""
	if [ -n "${MAUTO_TEST_CLIENT_ID:-}" ] &&
	    [ -n "${MAUTO_TEST_READONLY_CLIENT_ID:-}" ]; then
		return 0
	fi
	if [ "$own_stack" = 1 ]; then
		envfile=$appdir/env
	elif [ -n "${MAUTO_DB_NAME:-}" ]; then
		envfile=$(mktemp)
		env | grep '^MAUTO_DB_' | sed "s/^\([^=]*\)=\(.*\)$/export \1='\2'/" \
		    >"$envfile"
	else
		harness_die "MAUTO_TEST_BASE_URL is set but no clients are (MAUTO_TEST_CLIENT_ID, MAUTO_TEST_READONLY_CLIENT_ID) and no MAUTO_DB_* to create them"
	fi
	local cdir
	cdir=$(mktemp -d)
	harness_client_create "$envfile" "http tests admin" admin "$cdir/admin"
	harness_client_create "$envfile" "http tests readonly" readonly "$cdir/ro"
	MAUTO_TEST_CLIENT_ID=$(sed -n 's/^MAUTO_CLIENT_ID=//p' "$cdir/admin")
	MAUTO_TEST_CLIENT_SECRET=$(sed -n 's/^MAUTO_CLIENT_SECRET=//p' "$cdir/admin")
	MAUTO_TEST_READONLY_CLIENT_ID=$(sed -n 's/^MAUTO_CLIENT_ID=//p' "$cdir/ro")
	MAUTO_TEST_READONLY_CLIENT_SECRET=$(sed -n 's/^MAUTO_CLIENT_SECRET=//p' "$cdir/ro")
	rm -rf "$cdir"
	[ "$own_stack" = 1 ] || rm -f "$envfile"
}

matches()
{
	local name=$1 pat
	[ "${#patterns[@]}" -eq 0 ] && return 0
	for pat in "${patterns[@]}"; do
		# shellcheck disable=SC2053
		[[ $name == $pat ]] && return 0
	done
	return 1
}

# The case runner: reads the case files named on its command line, prints
# one line per case, and writes "PASSED FAILED" to the file in
# CASE_SUMMARY.
read -r -d '' CASE_RUNNER <<'PY' || true
import gzip, json, os, re, subprocess, sys, tempfile, urllib.parse

RID = re.compile(r'^[0-9a-f]{1,5}#[0-9a-f]{11,}$')
PLACE = re.compile(r'\{\{([a-z_]+|repeat:[^:{}]*:[0-9]+)\}\}')
MARKERS = ('rid', 'any', 'int', 'absent')

class CaseError(Exception):
    pass

def parse(path):
    """Returns (name, steps); a step is a list of (key, value) pairs."""
    name = os.path.basename(path)
    lines = []
    with open(path, encoding='utf-8') as f:
        for n, raw in enumerate(f, 1):
            raw = raw.rstrip('\n')
            if raw.startswith('# name:'):
                name = raw[len('# name:'):].strip()
                continue
            if not raw.strip() or raw.lstrip().startswith('#'):
                continue
            if raw[0] in ' \t':
                if not lines:
                    raise CaseError('%s:%d: continuation first' % (path, n))
                k, v, ln = lines[-1]
                lines[-1] = (k, v + '\n' + raw.strip(), ln)
                continue
            key, sep, val = raw.partition(':')
            if not sep:
                raise CaseError('%s:%d: expected "key: value"' % (path, n))
            lines.append((key.strip(), val.strip(), n))
    steps = []
    known = {'request', 'header', 'body', 'expect-status', 'expect-header',
             'expect-no-header', 'expect-json', 'expect-key-order',
             'expect-body-contains', 'capture'}
    for key, val, n in lines:
        if key not in known:
            raise CaseError('%s:%d: unknown directive %r' % (path, n, key))
        if key == 'request':
            steps.append([])
        elif not steps:
            raise CaseError('%s:%d: %s before any request' % (path, n, key))
        steps[-1].append((key, val))
    if not steps:
        raise CaseError('%s: no request' % path)
    return name, steps

def subst(text, env, keep_markers=False):
    def one(m):
        word = m.group(1)
        if word.startswith('repeat:'):
            _, chunk, count = word.split(':')
            return chunk * int(count)
        if word in env:
            return env[word]
        if keep_markers and word in MARKERS:
            return m.group(0)
        raise CaseError('unknown placeholder {{%s}}' % word)
    return PLACE.sub(one, text)

FORM_TYPE = 'content-type: application/x-www-form-urlencoded'

def as_json(headers, body):
    """MAUTO_TEST_JSON_BODIES=1: a urlencoded form body is sent as a JSON
    object of the same parameters under application/json (a repeated name
    as an array), so the same case shows that mauto reads a JSON body as
    the form (docs/behaviour.md section 0).  A body that is JSON already,
    or whose bytes are not UTF-8, is sent as written."""
    text = '\n'.join(body)
    if (not os.environ.get('MAUTO_TEST_JSON_BODIES') or
            FORM_TYPE not in [h.lower() for h in headers] or
            text.lstrip()[:1] in ('{', '[')):
        return headers, body
    try:
        pairs = urllib.parse.parse_qsl(text, keep_blank_values=True,
                                       strict_parsing=True, errors='strict')
    except ValueError:
        return headers, body
    doc = {}
    for k, v in pairs:
        if k in doc:
            doc[k] = (doc[k] if isinstance(doc[k], list) else [doc[k]]) + [v]
        else:
            doc[k] = v
    headers = [h for h in headers if h.lower() != FORM_TYPE]
    return headers + ['Content-Type: application/json'], [json.dumps(doc)]

def send(base, step, env, tmp):
    method, _, target = subst(dict(step)['request'], env).partition(' ')
    args = ['curl', '-sS', '-g', '--max-time', '60', '-o', tmp + '/body',
            '-D', tmp + '/head', '-w', '%{http_code}', '-X', method,
            '-H', 'User-Agent: mauto-http-tests', '-H', 'Accept:']
    headers = [subst(v, env) for k, v in step if k == 'header']
    body = [subst(v, env) for k, v in step if k == 'body']
    headers, body = as_json(headers, body)
    names = {h.partition(':')[0].strip().lower() for h in headers}
    if body:
        with open(tmp + '/req', 'w', encoding='utf-8') as f:
            f.write('\n'.join(body))
        args += ['--data-binary', '@' + tmp + '/req']
        if 'content-type' not in names:
            args += ['-H', 'Content-Type:']
    for h in headers:
        args += ['-H', h]
    args.append(base + target.strip())
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise CaseError('curl failed (%d): %s' % (r.returncode, r.stderr.strip()))
    with open(tmp + '/head', encoding='latin-1', newline='') as f:
        blocks = [b for b in f.read().split('\r\n\r\n') if b.strip()]
    head = {}
    for line in blocks[-1].split('\r\n')[1:] if blocks else []:
        k, _, v = line.partition(':')
        head.setdefault(k.strip().lower(), []).append(v.strip())
    with open(tmp + '/body', 'rb') as f:
        raw = f.read()
    if 'gzip' in head.get('content-encoding', []):
        raw = gzip.decompress(raw)
    return int(r.stdout), head, raw

def match(exp, act, where, errs, parent=None, key=None):
    if isinstance(exp, str) and exp.startswith('{{') and exp.endswith('}}'):
        word = exp[2:-2]
        if word == 'absent':
            if parent is not None and key in parent:
                errs.append('%s: expected no such key, got %s' % (where, json.dumps(act)))
            return
        if parent is not None and key not in parent:
            errs.append('%s: missing' % where)
            return
        if word == 'any':
            return
        if word == 'int':
            if not isinstance(act, int) or isinstance(act, bool):
                errs.append('%s: expected an integer, got %s' % (where, json.dumps(act)))
            return
        if word == 'rid':
            if not isinstance(act, str) or not RID.match(act):
                errs.append('%s: expected a requestId, got %s' % (where, json.dumps(act)))
            return
        if word.startswith('re:'):
            if not isinstance(act, str) or not re.search(word[3:], act):
                errs.append('%s: expected /%s/, got %s' % (where, word[3:], json.dumps(act)))
            return
    if parent is not None and key not in parent:
        errs.append('%s: missing' % where)
        return
    if isinstance(exp, dict):
        if not isinstance(act, dict):
            errs.append('%s: expected an object, got %s' % (where, json.dumps(act)))
            return
        for k in sorted(exp):
            match(exp[k], act.get(k), '%s.%s' % (where, k), errs, act, k)
    elif isinstance(exp, list):
        if not isinstance(act, list) or len(act) != len(exp):
            errs.append('%s: expected %d items, got %s' % (where, len(exp), json.dumps(act)))
            return
        for i, (e, a) in enumerate(zip(exp, act)):
            match(e, a, '%s[%d]' % (where, i), errs)
    elif exp != act or type(exp) != type(act):
        errs.append('%s: expected %s, got %s' % (where, json.dumps(exp), json.dumps(act)))

def lookup(doc, path):
    for part in path.split('.'):
        m = re.fullmatch(r'([^\[]*)((?:\[[0-9]+\])*)', part)
        if m.group(1):
            doc = doc[m.group(1)]
        for idx in re.findall(r'\[([0-9]+)\]', m.group(2)):
            doc = doc[int(idx)]
    return doc

def check(step, status, head, raw, env, errs):
    doc = None
    pairs = None
    def body_json():
        nonlocal doc, pairs
        if doc is None:
            try:
                text = raw.decode('utf-8')
                pairs = json.loads(text, object_pairs_hook=lambda p: p)
                doc = json.loads(text)
            except ValueError as e:
                raise CaseError('body is not JSON (%s): %r' % (e, raw[:200]))
        return doc
    for key, val in step:
        if key == 'expect-status' and status != int(val):
            errs.append('status: expected %s, got %d' % (val, status))
        elif key == 'expect-header':
            name, _, want = subst(val, env, True).partition(':')
            got = head.get(name.strip().lower())
            want = want.strip()
            if got is None:
                errs.append('header %s: missing' % name.strip())
            elif want.startswith('{{re:') and want.endswith('}}'):
                if not any(re.search(want[5:-2], g) for g in got):
                    errs.append('header %s: expected /%s/, got %s' % (name.strip(), want[5:-2], got))
            elif want not in got:
                errs.append('header %s: expected %r, got %s' % (name.strip(), want, got))
        elif key == 'expect-no-header' and val.lower() in head:
            errs.append('header %s: expected none, got %s' % (val, head[val.lower()]))
        elif key == 'expect-json':
            try:
                exp = json.loads(subst(val, env, True))
            except ValueError as e:
                raise CaseError('bad expect-json (%s)' % e)
            match(exp, body_json(), '$', errs)
        elif key == 'expect-key-order':
            body_json()
            keys = [k for k, _ in pairs] if isinstance(pairs, list) else []
            want = val.split()
            seen = [k for k in keys if k in want]
            if seen != want:
                errs.append('key order: expected %s, got %s' % (want, keys))
        elif key == 'expect-body-contains':
            if subst(val, env).encode() not in raw:
                errs.append('body: %r not found in %r' % (val, raw[:200]))
        elif key == 'capture':
            name, _, path = val.partition('=')
            try:
                value = lookup(body_json(), path.strip())
            except (KeyError, IndexError, TypeError):
                errs.append('capture %s: %s not in the body' % (name.strip(), path.strip()))
                continue
            env[name.strip()] = value if isinstance(value, str) else json.dumps(value)

def run_case(path, base, env):
    name, steps = parse(path)
    env = dict(env)
    errs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, step in enumerate(steps, 1):
            status, head, raw = send(base, step, env, tmp)
            before = len(errs)
            check(step, status, head, raw, env, errs)
            if len(errs) > before:
                errs.insert(before, 'request %d (%s):' % (i, dict(step)['request']))
                errs.append('  body: %r' % raw[:300])
                break
    return name, errs

def main():
    base = os.environ['MAUTO_TEST_BASE_URL'].rstrip('/')
    env = {k[len('MAUTO_TEST_'):].lower(): v for k, v in os.environ.items()
           if k.startswith('MAUTO_TEST_')}
    env['base_url'] = base
    passed = failed = 0
    for path in sys.argv[1:]:
        stem = os.path.basename(path)[:-len('.case')]
        try:
            name, errs = run_case(path, base, env)
        except CaseError as e:
            name, errs = stem, ['error: %s' % e]
        if errs:
            failed += 1
            print('FAIL %s: %s' % (stem, name))
            for e in errs:
                print('     ' + e)
        else:
            passed += 1
            print('ok   %s: %s' % (stem, name))
        sys.stdout.flush()
    with open(os.environ['CASE_SUMMARY'], 'w') as f:
        f.write('%d %d\n' % (passed, failed))

main()
PY

patterns=("$@")

if [ -z "${MAUTO_TEST_BASE_URL:-}" ]; then
	start_stack
else
	harness_log "testing the service at $MAUTO_TEST_BASE_URL"
fi
ensure_clients
# The email template the email cases make emails from ({{email_template}}),
# a segmentation ({{segmentation}}: Default, English, French) and a snippet
# ({{snippet}}), when this run can reach the database.
if [ -z "${MAUTO_TEST_EMAIL_TEMPLATE:-}" ] && [ "$own_stack" = 1 ]; then
	MAUTO_TEST_EMAIL_TEMPLATE=$(harness_ctl "$appdir/env" template create \
	    --name "http tests template" --folder 3 \
	    --file "$here/data/email-template.html") &&
	MAUTO_TEST_SEGMENTATION=$(harness_ctl "$appdir/env" segmentation \
	    create --name "http tests segmentation" --segment English \
	    --segment French) &&
	printf '<p>Snippet</p>' >"$work/snippet.html" &&
	MAUTO_TEST_SNIPPET=$(harness_ctl "$appdir/env" snippet create \
	    --name "http tests snippet" --file "$work/snippet.html") ||
	    harness_die "cannot make the email template of the cases"
	export MAUTO_TEST_EMAIL_TEMPLATE MAUTO_TEST_SEGMENTATION MAUTO_TEST_SNIPPET
fi
MAUTO_TEST_TOKEN=$(harness_token "$MAUTO_TEST_BASE_URL" \
    "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET") ||
    harness_die "no token for the admin client"
MAUTO_TEST_READONLY_TOKEN=$(harness_token "$MAUTO_TEST_BASE_URL" \
    "$MAUTO_TEST_READONLY_CLIENT_ID" "$MAUTO_TEST_READONLY_CLIENT_SECRET") ||
    harness_die "no token for the readonly client"
export MAUTO_TEST_CLIENT_ID MAUTO_TEST_CLIENT_SECRET MAUTO_TEST_TOKEN
export MAUTO_TEST_READONLY_CLIENT_ID MAUTO_TEST_READONLY_CLIENT_SECRET
export MAUTO_TEST_READONLY_TOKEN
# The version every reply names (X-Mauto-Version, /healthz).
if [ -z "${MAUTO_TEST_VERSION:-}" ]; then
	MAUTO_TEST_VERSION=$("$(harness_bin mautod)" --version | sed 's/^mautod //')
fi
export MAUTO_TEST_VERSION

cases=()
for f in "$here"/cases/*.case; do
	[ -e "$f" ] || continue
	name=${f##*/}
	matches "$name" && cases+=("$f")
done

summary=$(mktemp)
passed=0
failed=0
skipped=0
if [ "${#cases[@]}" -gt 0 ]; then
	t0=$SECONDS
	CASE_SUMMARY=$summary python3 -c "$CASE_RUNNER" "${cases[@]}" ||
	    harness_log "the case runner failed"
	echo "the ${#cases[@]} case files took $((SECONDS - t0)) s"
	read -r p f <"$summary" || { p=0; f=1; }
	passed=$((passed + p))
	failed=$((failed + f))
fi
rm -f "$summary"

# The front server's access log (deploy/nginx/mautod.conf,
# deploy/apache/mautod.conf): the cases' identity calls and ?access_token
# calls are logged, their credentials are not.
if [ "$own_stack" = 1 ] && [ "${#cases[@]}" -gt 0 ]; then
	access=$frontdir/logs/mautod.access.log
	if [ -s "$access" ] &&
	    ! grep -qE '(client_secret|access_token)=' "$access" &&
	    ! grep -qF -- "$MAUTO_TEST_CLIENT_SECRET" "$access" &&
	    ! grep -qF -- "$MAUTO_TEST_TOKEN" "$access"; then
		passed=$((passed + 1))
		echo "ok   $front-access-log: the cases' calls are logged without credentials"
	else
		failed=$((failed + 1))
		echo "FAIL $front-access-log: $access is empty or holds credentials"
		grep -E '(client_secret|access_token)=' "$access" | head -n 3 |
		    sed 's/^/     /' || true
	fi
fi

for t in "$here"/t_*.sh; do
	[ -e "$t" ] || continue
	[ "$front" != apache ] || break
	name=${t##*/}
	matches "$name" || continue
	log=$(mktemp)
	rc=0
	t0=$SECONDS
	timeout 600 bash "$t" >"$log" 2>&1 || rc=$?
	case $rc in
	0)
		passed=$((passed + 1))
		echo "ok   ${name%.sh}: $(sed -n 's/^# name: //p' "$t" | head -n 1) ($((SECONDS - t0)) s)"
		;;
	77)
		skipped=$((skipped + 1))
		echo "skip ${name%.sh}: $(tail -n 1 "$log")"
		;;
	*)
		failed=$((failed + 1))
		echo "FAIL ${name%.sh}: exit $rc"
		tail -n 60 "$log" | sed 's/^/     /'
		;;
	esac
	rm -f "$log"
done

[ "$skipped" -eq 0 ] || echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$((passed + failed))" -gt 0 ]
