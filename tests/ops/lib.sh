# shellcheck shell=bash
# Sourced by tests/ops/t_*.sh: srcdir, builddir, check and skip; and
# tests/harness/env.sh (harness_wait, harness_random_hex, ...).

srcdir=${top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
srcdir=$(cd "$srcdir" && pwd)
builddir=$(cd "${top_builddir:-.}" && pwd)
TIMEOUT=${TIMEOUT:-60}
# shellcheck source=tests/harness/env.sh
. "$srcdir/tests/harness/env.sh"

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
