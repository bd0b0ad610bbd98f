#!/bin/sh
# Integration: `mautoctl migrate` on an empty server produces exactly
# db/schema.sql, is idempotent, and refuses changed or half-applied
# migrations.  Needs MAUTO_TEST_DB_* (tests/harness/mariadb.sh); skips (77)
# without them.
set -u
db="mauto_mig_$$"
# shellcheck source=tests/integration/ctl_lib.sh
. "$(dirname "$0")/ctl_lib.sh"
migrate() {
	MAUTO_DB_SOCKET=$MAUTO_TEST_DB_SOCKET MAUTO_DB_NAME=$db \
	MAUTO_DB_USER=$MAUTO_TEST_DB_USER MAUTO_DB_PASSWORD=$MAUTO_TEST_DB_PASSWORD \
	    "$ctl" migrate --dir "$top/db/migrations" "$@"
}

sql -e "CREATE DATABASE $db" || { echo "cannot create $db"; exit 99; }

migrate >"$tmp.out" 2>&1; check $? "migrate applies every file to an empty database"
n=$(ls "$top"/db/migrations/[0-9][0-9][0-9][0-9]_*.sql | wc -l)
got=$(sql "$db" -e "SELECT COUNT(*) FROM schema_migrations WHERE done = 1")
[ "$got" = "$n" ]; check $? "schema_migrations records all $n files as done (got $got)"

"$top/scripts/dump-schema.sh" -S "$MAUTO_TEST_DB_SOCKET" -u "$MAUTO_TEST_DB_USER" \
    -p"$MAUTO_TEST_DB_PASSWORD" "$db" >"$tmp.schema"
# schema_migrations belongs to the runner; compare the rest with schema.sql.
awk 'BEGIN{skip=0} /^CREATE TABLE `schema_migrations`/{skip=1} skip&&/;$/{skip=0;next} !skip' \
    "$tmp.schema" >"$tmp.s2"
awk 'BEGIN{skip=0} /^CREATE TABLE `schema_migrations`/{skip=1} skip&&/;$/{skip=0;next} !skip' \
    "$top/db/schema.sql" | grep -v '^--' >"$tmp.want"
diff -u "$tmp.want" "$tmp.s2" >"$tmp.diff"; rc=$?
[ $rc = 0 ] || cat "$tmp.diff"
check $rc "the migrated schema equals db/schema.sql"

migrate >"$tmp.out" 2>&1 && grep -q "0 applied now" "$tmp.out"
check $? "a second migrate changes nothing"

sql "$db" -e "UPDATE schema_migrations SET checksum = REPEAT('0', 64) WHERE version = 1"
migrate >"$tmp.out" 2>&1; rc=$?
[ $rc != 0 ] && grep -q "changed after it was applied" "$tmp.out"
check $? "a changed migration file is refused"
sql "$db" -e "DELETE FROM schema_migrations WHERE version = 1"
migrate >/dev/null 2>&1; [ $? != 0 ]
check $? "a recorded migration missing from the table is re-run and fails loudly, not silently"

sql -e "DROP DATABASE $db; CREATE DATABASE $db"
migrate >/dev/null 2>&1
last=$(sql "$db" -e "SELECT MAX(version) FROM schema_migrations")
sql "$db" -e "UPDATE schema_migrations SET done = 0 WHERE version = $last"
migrate >"$tmp.out" 2>&1; rc=$?
[ $rc != 0 ] && grep -q "interrupted" "$tmp.out"
check $? "a half-applied migration stops the runner"

# Migration 0022 records the segmentation uses of templates there are.
sql -e "DROP DATABASE $db; CREATE DATABASE $db"
mkdir "$tmp.old"
for f in "$top"/db/migrations/00[01][0-9]_*.sql "$top"/db/migrations/002[01]_*.sql; do
	cp "$f" "$tmp.old/"
done
migrate_dir() {
	MAUTO_DB_SOCKET=$MAUTO_TEST_DB_SOCKET MAUTO_DB_NAME=$db \
	MAUTO_DB_USER=$MAUTO_TEST_DB_USER MAUTO_DB_PASSWORD=$MAUTO_TEST_DB_PASSWORD \
	    "$ctl" migrate --dir "$1"
}
migrate_dir "$tmp.old" >/dev/null 2>&1 &&
sql "$db" -e "INSERT INTO segmentation (id, name, created_at, updated_at)
    VALUES (7, 'S', UTC_TIMESTAMP(), UTC_TIMESTAMP());
    INSERT INTO email_template (id, name, folder_id, content, created_at,
    updated_at) VALUES (5, 'T', 3, '', UTC_TIMESTAMP(), UTC_TIMESTAMP());
    INSERT INTO email_template_dynamic VALUES (5, 'a', 7), (5, 'b', 7)" &&
migrate >/dev/null 2>&1 &&
[ "$(sql "$db" -e "SELECT CONCAT(asset_type, ':', asset_id, ':', user_type, ':', user_id) FROM asset_usage")" = "segmentation:7:emailTemplate:5" ]
check $? "migration 0022 records a template's segmentation use once"
rm -rf "$tmp.old"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
