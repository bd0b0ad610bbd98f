#!/bin/sh
# Integration: mautoctl help and --version, mautod --version, and the
# client commands for CI: client create with a fixed --id and --secret
# (given or read from stdin), the checks on both, a taken id refused,
# and client show (never the secret).  The stored hash is checked to be
# the Argon2id string of the given secret; getting a token with it
# through HTTP is tests/http/t_ctl_reset.sh's.  Needs MAUTO_TEST_DB_*
# (tests/harness/mariadb.sh); skips (77) without them.
set -u
db="mauto_ctlclient_$$"
# shellcheck source=tests/integration/ctl_lib.sh
. "$(dirname "$0")/ctl_lib.sh"
version=$(sed -n 's/^AC_INIT(\[mauto\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")

# ---- help and versions (no database, no configuration) ------------------
"$ctl" --config /nonexistent help >"$tmp.out" 2>"$tmp.err"
[ $? = 0 ] && grep -q "^usage: mautoctl" "$tmp.out" &&
    grep -q "mautoctl reset \[--yes\]" "$tmp.out" && [ ! -s "$tmp.err" ]
check $? "mautoctl help prints the usage on stdout, without a configuration"
"$ctl" --help >"$tmp.help" 2>/dev/null && cmp -s "$tmp.out" "$tmp.help"
check $? "mautoctl --help prints the same"
[ -n "$version" ] && [ "$("$ctl" --version)" = "mautoctl $version" ]
check $? "mautoctl --version prints configure's version ($version)"
[ "$("$build/mautod" --version)" = "mautod $version" ]
check $? "mautod --version prints configure's version"

sql -e "CREATE DATABASE $db" || { echo "cannot create $db"; exit 99; }
c migrate --dir "$top/db/migrations" || { cat "$tmp.err"; exit 99; }

# ---- client create with fixed credentials ---------------------------------
id=3f2c1a9e-0b7d-4c41-9a55-2d6e8f0a1b2c
secret=ci-Secret_0123456789.x~y
c client create --name "ci" --role admin --id "$id" --secret "$secret"
[ $? = 0 ] && [ "$(cat "$tmp.out")" = "client_id=$id
client_secret=$secret" ]
check $? "client create --id --secret prints the given id and secret"
hash=$(sql "$db" -e "SELECT secret_hash FROM auth_client WHERE client_id = '$id'")
python3 - "$hash" "$secret" <<'PY'
import ctypes, ctypes.util, sys
lib = ctypes.CDLL(ctypes.util.find_library("sodium"))
assert lib.sodium_init() >= 0
h, s = sys.argv[1].encode(), sys.argv[2].encode()
ok = h.startswith(b"$argon2id$") and \
    lib.crypto_pwhash_str_verify(h, s, ctypes.c_ulonglong(len(s))) == 0
sys.exit(0 if ok else 1)
PY
check $? "the stored hash is the Argon2id string of the given secret"
fails client create --name "ci again" --role admin --id "$id" \
    --secret "$secret" && grep -q "client id $id is taken" "$tmp.err"
check $? "a taken id is refused, naming the id"
[ "$(sql "$db" -e "SELECT name FROM auth_client WHERE client_id = '$id'")" = ci ]
check $? "and the client that had it is unchanged"
printf '%s\n' "from-stdin-0123456789" | c client create --name piped \
    --role readonly --secret -
[ $? = 0 ] && grep -q "^client_secret=from-stdin-0123456789$" "$tmp.out" &&
    grep -q "^client_id=[0-9a-f-]\{36\}$" "$tmp.out"
check $? "--secret - reads the secret from stdin; the id is made"
c client create --name fixed-id --role readonly --id "${id%?}d"
[ $? = 0 ] && grep -q "^client_id=${id%?}d$" "$tmp.out" &&
    grep -q "^client_secret=[A-Za-z0-9]\{32\}$" "$tmp.out"
check $? "--id alone: the given id and a made secret"
for bad in nope "${id}0" "${id%?}g" "3f2c1a9e0b7d-4c41-9a55-2d6e8f0a1b2c-"; do
	fails client create --name x --role admin --id "$bad" &&
	    grep -q "UUID" "$tmp.err"
	check $? "--id '$bad' is refused"
done
for bad in short-secret-15 "has space 0123456789" "semi;colon0123456789" \
    "$(printf 'x%.0s' $(seq 257))"; do
	fails client create --name x --role admin --secret "$bad" &&
	    grep -q "16 to 256" "$tmp.err"
	check $? "--secret '$(printf '%.20s' "$bad")' is refused"
done
[ "$(sql "$db" -e "SELECT COUNT(*) FROM auth_client")" = 3 ]
check $? "no refused client was stored"

# ---- client show ------------------------------------------------------------
printf '%s\n' "client_id=$id" name=ci role=admin scope=ci@mauto.local \
    created=T revoked=- >"$tmp.want"
c client show "$id"
[ $? = 0 ] && sed 's/^created=....-..-..T..:..:..Z$/created=T/' "$tmp.out" |
    cmp -s - "$tmp.want"
check $? "client show prints id, name, role, scope, created, revoked"
! grep -q -e "$secret" -e argon2 "$tmp.out"
check $? "client show prints neither the secret nor its hash"
fails client show 00000000-0000-4000-8000-000000000000 &&
    grep -q "no client" "$tmp.err"
check $? "client show of an unknown id fails"
fails client show abc
check $? "client show of something that is no id fails"
c client revoke "$id" && c client show "$id"
[ $? = 0 ] && grep -q "^revoked=....-..-..T..:..:..Z$" "$tmp.out"
check $? "client show shows when a client was revoked"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
