# Sourced by the mautoctl integration scripts (tests/integration/test_*.sh
# written in sh), after they set db, the name of the database of their
# own.  Skips (77) without MAUTO_TEST_DB_* (tests/harness/mariadb.sh).
# Sets top, build, ctl, tmp (a file name prefix; the files and the
# database are removed on exit), pass and fail, and defines:
#   sql ARGS...     the mariadb client on the test server
#   check RC TEXT   counts and prints "ok - TEXT" or "not ok - TEXT"
#   c ARGS...       mautoctl on the database db; output in $tmp.out/.err
#   fails ARGS...   c exits 1 with a message on stderr and nothing on stdout
# A script ends with: echo "$pass passed, $fail failed"; [ $fail = 0 ]
[ -n "${MAUTO_TEST_DB_SOCKET:-}" ] || { echo "SKIP: no test database"; exit 77; }
top=${top_srcdir:-$(dirname "$0")/../..}
build=${top_builddir:-.}
ctl="$build/mautoctl"
pass=0
fail=0

sql() {
	mariadb --no-defaults -S "$MAUTO_TEST_DB_SOCKET" -u "$MAUTO_TEST_DB_USER" \
	    -p"$MAUTO_TEST_DB_PASSWORD" -N -B "$@"
}
check() {
	if [ "$1" = 0 ]; then
		pass=$((pass + 1)); echo "ok - $2"
	else
		fail=$((fail + 1)); echo "not ok - $2"
	fi
}
c() {
	MAUTO_DB_SOCKET=$MAUTO_TEST_DB_SOCKET MAUTO_DB_NAME=$db \
	MAUTO_DB_USER=$MAUTO_TEST_DB_USER MAUTO_DB_PASSWORD=$MAUTO_TEST_DB_PASSWORD \
	    "$ctl" "$@" >"$tmp.out" 2>"$tmp.err"
}
fails() {
	c "$@"
	[ $? = 1 ] && [ -s "$tmp.err" ] && [ ! -s "$tmp.out" ]
}
cleanup() { sql -e "DROP DATABASE IF EXISTS $db" 2>/dev/null; rm -f "$tmp".*; }
tmp=$(mktemp)
trap cleanup EXIT
