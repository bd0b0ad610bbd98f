#!/usr/bin/env bash
# The cluster layer (make check-cluster): mauto on several hosts over a
# three-node MariaDB Galera cluster (tests/cluster/cluster.sh).
#
#   tests/cluster/run.sh [PATTERN...]
#
# 1. Every HTTP case and script of tests/http against a cluster stack
#    (MAUTO_TEST_FRONT=cluster tests/http/run.sh: two hosts behind one
#    nginx, so consecutive calls go to different hosts and nodes).
# 2. The scale-out tests tests/cluster/t*.py, in name order, on one more
#    cluster with three hosts (host N on node N), export leases of 3 s and
#    no API limits unless a test sets them.  Each test leaves the cluster
#    whole for the next.
# PATTERNs (globs on file names) pick the t*.py tests; with PATTERNs the
# HTTP part is left out.  Exits 77 (SKIP) when mariadbd or galera-4 is
# missing.  Prints one line per test and "N passed, N failed" last; the
# cluster directory is kept when something failed, or with KEEP=1.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/env.sh
. "$here/../harness/env.sh"

if ! command -v mariadbd >/dev/null ||
    [ ! -f /usr/lib/galera/libgalera_smm.so ]; then
	echo "SKIP: MariaDB Galera is not installed (mariadb-server, galera-4)"
	exit 77
fi
for v in $(compgen -e | grep -E '^MAUTO_(TEST_)?DB_|^MAUTO_TEST_MARIADB_DIR$'); do
	unset "$v"
done

passed=0
failed=0
skipped=0
patterns=("$@")

if [ "${#patterns[@]}" -eq 0 ]; then
	log=$(mktemp)
	t0=$SECONDS
	MAUTO_TEST_FRONT=cluster bash "$here/../http/run.sh" >"$log" 2>&1 || true
	echo "http: the HTTP run through the cluster took $((SECONDS - t0)) s"
	sed 's/^/http: /' "$log" | grep -E '^http: (ok|FAIL|skip|     )' || true
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
	if [ -n "$line" ]; then
		passed=$((passed + ${line%% passed*}))
		f=${line#*, }
		failed=$((failed + ${f%% failed}))
		s=$(sed -n 's/^\([0-9][0-9]*\) skipped$/\1/p' "$log" | tail -n 1)
		skipped=$((skipped + ${s:-0}))
	else
		failed=$((failed + 1))
		echo "FAIL http: the HTTP run ended without a summary"
		tail -n 30 "$log"
	fi
	rm -f "$log"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mauto-cluster.XXXXXX")
chmod 755 "$work"
cleanup()
{
	local rc=$?
	trap - EXIT INT TERM
	"$here/cluster.sh" stop "$work" >/dev/null 2>&1 || true
	if [ "${KEEP:-0}" = 1 ] || [ "$failed" -ne 0 ]; then
		harness_log "kept $work"
	else
		rm -rf "$work"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cat >"$work/host.env" <<EOF
export MAUTO_RATE_LIMIT_CALLS=0
export MAUTO_DAILY_QUOTA=0
export MAUTO_EXPORT_LEASE_SECS=3
export MAUTO_EXPORT_DAILY_QUOTA_MB=0
EOF
if ! CLUSTER_WORKERS=2 "$here/cluster.sh" start "$work" 3 >"$work/start.log" 2>&1; then
	cat "$work/start.log"
	echo "FAIL cluster: the stack did not start"
	failed=$((failed + 1))
	echo "$passed passed, $failed failed"
	exit 1
fi
# shellcheck disable=SC1091
. "$work/stack.env"
export MAUTO_TEST_BASE_URL MAUTO_TEST_CLIENT_ID MAUTO_TEST_CLIENT_SECRET
export CLUSTER_HOST_URLS CLUSTER_DIR=$work MAUTO_SRCDIR
export PYTHONPATH=$here${PYTHONPATH:+:$PYTHONPATH}

for t in "$here"/t*.py; do
	name=${t##*/}
	if [ "${#patterns[@]}" -gt 0 ]; then
		m=0
		for pat in "${patterns[@]}"; do
			# shellcheck disable=SC2053
			[[ $name == $pat ]] && m=1
		done
		[ "$m" = 1 ] || continue
	fi
	log=$work/${name%.py}.log
	rc=0
	t0=$SECONDS
	timeout 600 python3 "$t" >"$log" 2>&1 || rc=$?
	what=$(sed -n 's/^# name: //p' "$t" | head -n 1)
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		echo "ok   ${name%.py}: $what ($((SECONDS - t0)) s)"
		grep '^figure: ' "$log" | sed 's/^/     /' || true
	else
		failed=$((failed + 1))
		echo "FAIL ${name%.py}: exit $rc"
		tail -n 25 "$log" | sed 's/^/     /'
		# The next test needs the whole cluster back: the nodes that
		# are down start together, the hosts that are down start.
		down=()
		for n in 1 2 3; do
			"$here/cluster.sh" synced "$work" "$n" || down+=("$n")
		done
		[ "${#down[@]}" -eq 0 ] ||
		    "$here/cluster.sh" node-start "$work" "${down[@]}" >/dev/null 2>&1 ||
		    true
		for n in 1 2 3; do
			"$HARNESS_DIR/mautod.sh" status "$work/host$n" ||
			    "$here/cluster.sh" host-start "$work" "$n" >/dev/null 2>&1 ||
			    true
		done
	fi
done

[ "$skipped" -eq 0 ] || echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
