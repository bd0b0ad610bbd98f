#!/usr/bin/env bash
# Checks of what an operator runs and installs, with no test database
# from the caller (a test that needs one starts its own):
#
#   make check-ops                  (from a build directory)
#   tests/ops/run.sh [PATTERN]      runs tests/ops/t_PATTERN.sh (default *)
#
# t_install.sh     make install DESTDIR=...: the layout README describes,
#                  the units with this build's paths, verified by
#                  systemd-analyze, the example configuration
# t_privileges.sh  README's GRANT is enough for the migrations and the
#                  schema changes the service makes at runtime; README's
#                  mariadb-dump backup restores a working service (a
#                  private MariaDB of its own)
# t_quickstart.sh  deploy/quickstart with its port taken: the error names
#                  MAUTO_PORT and nothing it started is left running;
#                  then started: quickstart env and quickstart reset
#
# Each script prints "ok - ", "FAIL - " or "skip - " lines (tests/ops/lib.sh);
# the last line here is "N passed, N failed" (and "N skipped" before it
# when some were), as tests/run reads it.  The make target passes the
# configured directories (sbindir, sysconfdir, ...) in the environment.
set -u

here=$(cd "$(dirname "$0")" && pwd)
pattern=${1:-*}
passed=0
failed=0
skipped=0

for t in "$here"/t_$pattern.sh; do
	[ -e "$t" ] || continue
	echo "== ${t##*/}"
	out=$(bash "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(grep -c '^ok - ' <<<"$out")
	f=$(grep -c '^FAIL - ' <<<"$out")
	s=$(grep -c '^skip - ' <<<"$out")
	# A script that stopped with an error but printed no FAIL line.
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL - ${t##*/} exited with status $rc"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
done

[ "$skipped" -eq 0 ] || echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
