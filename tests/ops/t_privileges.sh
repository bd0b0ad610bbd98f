#!/usr/bin/env bash
# docs/operating.md holds: with a database user that has exactly
# the GRANT it gives (taken from docs/operating.md itself), the migrations
# run and the service changes its own schema at runtime: a lead field
# (ALTER TABLE lead ADD COLUMN and its index), a custom object type
# approved (CREATE TABLE), a second draft approved (ALTER TABLE) and a
# type deleted (DROP TABLE).  Then its backup and restore: the
# database dumped with mariadb-dump --single-transaction --databases,
# dropped, restored from the dump, and the restored service still knows
# its client, lead field, lead and custom object record.
#
# A private MariaDB (tests/harness/mariadb.sh), mautod and nginx run under
# a temporary directory; the database and user are new ones whose names
# do not start with "mauto", so the harness's own grant (mauto%.*) does
# not apply to them.
set -u
# shellcheck source=tests/ops/lib.sh
. "$(dirname "$0")/lib.sh"

export MAUTOD=$builddir/mautod MAUTOCTL=$builddir/mautoctl
for tool in mariadbd mariadb-dump nginx curl python3 systemd-socket-activate \
    cgi-fcgi; do
	if ! command -v "$tool" >/dev/null; then
		skip "database privileges" "$tool is missing"
		exit 0
	fi
done

grant=$(sed -n "s/^ *\(GRANT .* ON mauto\.\* TO 'mauto'@'localhost';\)[[:space:]]*$/\1/p" \
    "$srcdir/docs/operating.md")
check "docs/operating.md gives one GRANT for the mauto user" \
    test "$(printf '%s\n' "$grant" | grep -c GRANT)" -eq 1
[ -n "$grant" ] || exit 1

tmp=$(mktemp -d /tmp/mauto-priv.XXXXXX)
db=$tmp/db
app=$tmp/app
web=$tmp/web
cleanup()
{
	"$srcdir/tests/harness/nginx.sh" stop "$web" >/dev/null 2>&1
	"$srcdir/tests/harness/mautod.sh" stop "$app" >/dev/null 2>&1
	"$srcdir/tests/harness/mariadb.sh" stop "$db" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

if ! "$srcdir/tests/harness/mariadb.sh" start "$db" >"$tmp/mariadb.log" 2>&1; then
	tail -n 20 "$tmp/mariadb.log"
	echo "FAIL - a private MariaDB starts"
	exit 1
fi
sock=$db/mysqld.sock
root_sql()
{
	mariadb --no-defaults --socket="$sock" --user=root --batch \
	    --skip-column-names -e "$1"
}

dbname=privtest_$(harness_random_hex 3)
user=privuser
pass=$(harness_random_hex 12)
mygrant=$(printf '%s\n' "$grant" |
    sed -e "s/ ON mauto\\.\\* / ON \`$dbname\`.* /" -e "s/ TO 'mauto'@/ TO '$user'@/")
check "the database and a user with the documented GRANT are made" root_sql "
    CREATE DATABASE \`$dbname\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
    CREATE USER '$user'@'localhost' IDENTIFIED BY '$pass';
    $mygrant"
grants()
{
	root_sql "SHOW GRANTS FOR '$user'@'localhost'" | sed 's/^/  /'
	! root_sql "SHOW GRANTS FOR '$user'@'localhost'" |
	    grep -q -e 'ALL PRIVILEGES' -e "ON \`mauto"
}
check "the user has no other privilege on the database" grants
env=$tmp/priv.env
harness_db_env "$env" "$sock" "$dbname" "$user" "$pass"

migrated()
{
	harness_migrate "$env" >"$tmp/migrate.log" 2>&1 ||
	    { tail -n 20 "$tmp/migrate.log"; return 1; }
}
check "mautoctl migrate runs with these privileges" migrated
harness_client_create "$env" privileges admin "$tmp/client.env" ||
    { echo "FAIL - an API client is made"; exit 1; }

mkdir -p "$app"
cp "$env" "$app/env"
echo "export MAUTO_WORKERS=2" >>"$app/env"
start_stack()
{
	"$srcdir/tests/harness/mautod.sh" start "$app" >>"$tmp/stack.log" 2>&1 &&
	    MAUTO_WORKERS=2 "$srcdir/tests/harness/nginx.sh" start "$web" \
	    "$port" "$app/mautod.sock" >>"$tmp/stack.log" 2>&1 ||
	    { tail -n 20 "$tmp/stack.log"; return 1; }
}
port=$(harness_free_port)
if ! start_stack; then
	echo "FAIL - mautod and nginx start"
	exit 1
fi
base=http://127.0.0.1:$port
# shellcheck disable=SC1091
. "$tmp/client.env"
token=$(harness_token "$base" "$MAUTO_CLIENT_ID" "$MAUTO_CLIENT_SECRET")

# api METHOD PATH [JSON]: the body lands in $tmp/out (harness_call puts
# the HTTP status first).
api()
{
	local m=$1 p=$2
	local -a body=()
	shift 2
	[ $# -eq 0 ] || body=(-H 'Content-Type: application/json' --data-binary "$1")
	harness_call "$base$p" -X "$m" -H "Authorization: Bearer $token" \
	    "${body[@]}" | sed 1d >"$tmp/out"
}
# holds PYTHON: the expression holds of d, the last body.
holds()
{
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$tmp/out" "$1" 2>/dev/null ||
	    { echo "  body: $(head -c 400 "$tmp/out")"; return 1; }
}
# call DESCRIPTION PYTHON METHOD PATH [JSON]
call()
{
	local what=$1 cond=$2
	shift 2
	api "$@"
	check "$what" holds "$cond"
}

created="d.get('success') and d['result'][0]['status'] == 'created'"
ok="d.get('success') is True"
call "Create Lead Fields (ALTER TABLE lead ADD COLUMN, ADD INDEX)" "$created" \
    POST /rest/v1/leads/schema/fields.json \
    '{"input": [{"name": "privField", "displayName": "Priv Field", "dataType": "string"}]}'
call "a lead with the new field" "$created" POST /rest/v1/leads.json \
    '{"input": [{"email": "priv@example.com", "privField": "kept"}]}'
call "a custom object type" "$ok" POST /rest/v1/customobjects/schema.json \
    '{"apiName": "privCar", "displayName": "Priv Car"}'
call "its fields" "$ok" POST /rest/v1/customobjects/schema/privCar/addField.json \
    '{"input": [{"name": "vin", "displayName": "VIN", "dataType": "string", "isDedupeField": true},
    {"name": "make", "displayName": "Make", "dataType": "string"}]}'
call "approved (CREATE TABLE)" "$ok" \
    POST /rest/v1/customobjects/schema/privCar/approve.json
call "a record" "$created" POST /rest/v1/customobjects/privCar.json \
    '{"input": [{"vin": "V1", "make": "A"}]}'
call "a field added in a new draft" "$ok" \
    POST /rest/v1/customobjects/schema/privCar/addField.json \
    '{"input": [{"name": "color", "displayName": "Color", "dataType": "string"}]}'
call "approved again (ALTER TABLE)" "$ok" \
    POST /rest/v1/customobjects/schema/privCar/approve.json
call "the record takes the new field" \
    "d.get('success') and d['result'][0]['status'] == 'updated'" \
    POST /rest/v1/customobjects/privCar.json \
    '{"input": [{"vin": "V1", "color": "red"}]}'
call "a second type" "$ok" POST /rest/v1/customobjects/schema.json \
    '{"apiName": "privTmp", "displayName": "Priv Tmp"}'
api POST /rest/v1/customobjects/schema/privTmp/addField.json \
    '{"input": [{"name": "k", "displayName": "K", "dataType": "string", "isDedupeField": true}]}'
call "approved" "$ok" POST /rest/v1/customobjects/schema/privTmp/approve.json
call "and deleted (DROP TABLE)" "$ok" \
    POST /rest/v1/customobjects/schema/privTmp/delete.json
tables()
{
	root_sql "SELECT COUNT(*) FROM information_schema.tables
	    WHERE table_schema = '$dbname' AND table_name LIKE 'co\\_rec\\_%'"
}
check "one custom object table is left" test "$(tables)" -eq 1

# --- the documented backup and restore ---------------------------------------------
dump=$tmp/dump.sql.gz
dumped()
{
	mariadb-dump --no-defaults --socket="$sock" --user=root \
	    --single-transaction --databases "$dbname" 2>"$tmp/dump.err" |
	    gzip >"$dump" && [ ! -s "$tmp/dump.err" ] ||
	    { cat "$tmp/dump.err"; return 1; }
}
check "mariadb-dump --single-transaction --databases while it runs" dumped
"$srcdir/tests/harness/nginx.sh" stop "$web" >/dev/null 2>&1
"$srcdir/tests/harness/mautod.sh" stop "$app" >/dev/null 2>&1
restored()
{
	root_sql "DROP DATABASE \`$dbname\`" &&
	    gunzip <"$dump" | mariadb --no-defaults --socket="$sock" --user=root
}
check "the database dropped and restored from the dump" restored
status_ok()
{
	harness_ctl "$env" migrate --status --dir "$srcdir/db/migrations" \
	    >"$tmp/status.log" 2>&1 || { cat "$tmp/status.log"; return 1; }
	! grep -q '^pending' "$tmp/status.log"
}
check "mautoctl migrate --status: nothing pending after the restore" status_ok
if ! start_stack; then
	echo "FAIL - mautod starts on the restored database"
	exit 1
fi
token=$(harness_token "$base" "$MAUTO_CLIENT_ID" "$MAUTO_CLIENT_SECRET")
check "the API client survives the restore" test -n "$token"
call "the lead and its custom field survive" \
    "d['result'][0]['privField'] == 'kept'" \
    GET '/rest/v1/leads.json?filterType=email&filterValues=priv@example.com&fields=email,privField'
call "the custom object record survives" \
    "d['result'][0]['color'] == 'red' and d['result'][0]['make'] == 'A'" \
    GET '/rest/v1/customobjects/privCar.json?filterType=vin&filterValues=V1&fields=vin,make,color'
