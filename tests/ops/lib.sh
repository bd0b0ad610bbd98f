# shellcheck shell=bash
# Sourced by tests/ops/t_*.sh: check, skip and a temporary directory.

srcdir=${top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
srcdir=$(cd "$srcdir" && pwd)
builddir=$(cd "${top_builddir:-.}" && pwd)
TIMEOUT=${TIMEOUT:-60}

# check NAME COMMAND...: runs COMMAND; prints "ok - NAME" or "FAIL - NAME".
check()
{
	local name=$1
	shift
	if "$@"; then
		echo "ok - $name"
	else
		echo "FAIL - $name"
	fi
}

# skip NAME REASON: a check that cannot run here.
skip()
{
	echo "skip - $1: $2"
}

# wait_for SECONDS COMMAND...: true once COMMAND succeeds.
wait_for()
{
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.2
	done
}
