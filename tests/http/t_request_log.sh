#!/usr/bin/env bash
# name: one log event a request; failed authentications logged without secrets; a guessing loop locked out
# docs/operating.md, "Logs".  A stack of its own: the calls below, then its log
# (mautod's stderr, JSON lines when not under journald) is read back.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

if [ -z "${MAUTO_TEST_DB_ENV:-}" ]; then
	echo "needs a database server of this run (MAUTO_TEST_DB_ENV)"
	exit 77
fi
work=$(mktemp -d)
trap 'harness_stack_stop "$work/stack"; rm -rf "$work"' EXIT
harness_stack_start "$work/stack" "$MAUTO_TEST_DB_ENV" \
    MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0
# shellcheck disable=SC1091
. "$work/stack/stack.env"
base=$MAUTO_TEST_BASE_URL
id=$MAUTO_TEST_CLIENT_ID
secret=$MAUTO_TEST_CLIENT_SECRET
log=$work/stack/mautod.log

fail()
{
	echo "$*"
	exit 1
}

token=$(harness_token "$base" "$id" "$secret")
out=$(harness_call "$base/rest/v1/lead/1.json" \
    -H "Authorization: Bearer $token")
rid=$(sed -n '2,$p' <<<"$out" | harness_json_get requestId)
out=$(harness_call "$base/rest/v1/lead/1.json" \
    -H "Authorization: Bearer bogus-token-0123456789")
[ "$(sed -n '2,$p' <<<"$out" | harness_json_get 'errors[0].code')" = 601 ] ||
    fail "a bogus token: $out"

# Six wrong secrets for one client id: the fifth starts a lock-out.
for i in 1 2 3 4 5 6; do
	out=$(harness_call "$base/identity/oauth/token?grant_type=client_credentials&client_id=$id&client_secret=wrong-secret-$i")
	[ "$(head -n 1 <<<"$out")" = 401 ] || fail "wrong secret $i: $out"
done
# The good secret still gets the client's token during the lock-out.
again=$(harness_token "$base" "$id" "$secret")
[ "$again" = "$token" ] || fail "the good secret was refused or got another token"
# A token still works, and its request is logged too; once more with
# the token as a query parameter.
out=$(harness_call "$base/rest/v1/leads.json?filterType=id&filterValues=1" \
    -H "Authorization: Bearer $token")
[ "$(head -n 1 <<<"$out")" = 200 ] || fail "a call after the lock-out: $out"
out=$(harness_call "$base/rest/v1/leads.json?filterType=id&filterValues=2&access_token=$token")
[ "$(head -n 1 <<<"$out")" = 200 ] || fail "a call with ?access_token: $out"

# Workers write after answering: give the last line a moment.
for _ in $(seq 50); do
	[ "$(grep -c '"operation":"getLeadsByFilterUsingGET"' "$log")" = 2 ] && break
	sleep 0.1
done

# nginx's access log (deploy/nginx/mautod.conf): the calls are there,
# their credentials are not.
access=$work/stack/nginx/logs/mautod.access.log
grep -q '"GET /identity/oauth/token?\[query not logged: credentials\] HTTP/1.1" 401' "$access" ||
    fail "nginx logged no identity refusal: $(tail -n 3 "$access")"
grep -q '"GET /rest/v1/leads.json?filterType=id&filterValues=1 HTTP/1.1" 200' "$access" ||
    fail "nginx logged no query of a plain call: $(tail -n 3 "$access")"
grep -q '"GET /rest/v1/leads.json?\[query not logged: credentials\] HTTP/1.1" 200' "$access" ||
    fail "nginx logged no call with ?access_token: $(tail -n 3 "$access")"
for needle in "$secret" "$token" wrong-secret- bogus-token-0123456789; do
	! grep -qF -- "$needle" "$access" || fail "nginx's access log holds $needle"
done

python3 - "$log" "$rid" "$id" "$secret" "$token" <<'EOF'
import json, sys
path, rid, cid, secret, token = sys.argv[1:6]
text = open(path, encoding="utf-8", errors="replace").read()
# Nothing secret anywhere in the log.
for needle in [secret, token, "wrong-secret-", "bogus-token-0123456789"]:
    assert needle not in text, "the log holds %r" % needle
events = [json.loads(l) for l in text.splitlines() if l.startswith("{")]
reqs = [e for e in events if e.get("level") == "info" and "status" in e]
warns = [e for e in events if e.get("level") == "warn"]
for e in reqs:
    for k in ("time", "pid", "requestId", "clientId", "operation", "method",
              "path", "status", "code", "durationMs", "peer"):
        assert k in e, "%s lacks %s" % (e, k)
    assert e["time"].endswith("Z") and len(e["time"]) == 24, e
    assert isinstance(e["durationMs"], float) and e["durationMs"] >= 0, e
one = [e for e in reqs if e["requestId"] == rid]
assert len(one) == 1, "the lead call (%s) is logged %d times" % (rid, len(one))
one = one[0]
assert one["operation"] == "getLeadByIdUsingGET", one
assert one["clientId"] == cid and one["status"] == 200, one
assert one["code"] is None and one["method"] == "GET", one
assert one["path"] == "/rest/v1/lead/1.json" and one["peer"] == "127.0.0.1", one
bogus = [e for e in reqs if e["code"] == "601"]
assert len(bogus) == 1 and bogus[0]["clientId"] is None, bogus
ident = [e for e in reqs if e["operation"] == "identityUsingGET" or
         e["path"] == "/identity/oauth/token"]
bad = [e for e in ident if e["status"] == 401]
assert len(bad) == 6, "%d identity refusals logged" % len(bad)
assert all(e["clientId"] == cid and e["code"] == "invalid_client" for e in bad), bad
assert len([e for e in ident if e["status"] == 200]) == 2, ident
# One warning per failed authentication, with the client id and peer.
auth = [e for e in warns if e.get("msg") == "authentication failed"]
reasons = sorted(e["reason"] for e in auth)
assert reasons == ["bad client credentials"] * 6 + ["unknown access token"], reasons
assert all(e["peer"] == "127.0.0.1" for e in auth), auth
assert all(e["clientId"] == cid for e in auth if e["reason"].startswith("bad")), auth
# The lock-out is announced once, in a plain warning line.
lock = [l for l in text.splitlines() if "wrong client secrets for client id " + cid in l]
assert len(lock) == 1, lock
print("%d request events, %d authentication warnings, one lock-out" %
      (len(reqs), len(auth)))
EOF
