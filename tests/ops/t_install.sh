#!/usr/bin/env bash
# make install DESTDIR=ROOT gives what README.md describes, with this
# build's directories (from make check-ops: bindir, sbindir, sysconfdir,
# pkgdatadir, mandir, systemdsystemunitdir):
# - mautod and mautoctl, the migrations, the three man pages;
# - the configuration directory $(sysconfdir)/mauto with the commented
#   example configuration, which lists every key with its default;
# - the systemd units, mautod.service with ExecStart= naming the installed
#   mautod (no placeholder left), verified by systemd-analyze verify in
#   ROOT: the host's own units and /bin/kill are copied in, so the check
#   resolves every name and command as on a machine that has the package;
# - make uninstall takes all of it away again.
set -u
# shellcheck source=tests/ops/lib.sh
. "$(dirname "$0")/lib.sh"

for v in bindir sbindir sysconfdir pkgdatadir mandir systemdsystemunitdir; do
	if [ -z "${!v:-}" ]; then
		echo "FAIL - $v is not set (run through make check-ops)"
		exit 1
	fi
done
make=${MAKE:-make}

tmp=$(mktemp -d /tmp/mauto-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
unitdir=$root$systemdsystemunitdir
confdir=$root$sysconfdir/mauto

installed()
{
	"$make" -C "$builddir" install DESTDIR="$root" >"$tmp/install.log" 2>&1 ||
	    { tail -n 20 "$tmp/install.log"; return 1; }
}
check "make install DESTDIR=ROOT" installed

check "mautod in sbindir" test -x "$root$sbindir/mautod"
check "mautoctl in bindir" test -x "$root$bindir/mautoctl"
quiet()
{
	"$@" >/dev/null 2>&1
}
check "the installed mautod runs" quiet "$root$sbindir/mautod" --version
nmig=$(find "$srcdir/db/migrations" -name '*.sql' | wc -l)
check "the $nmig migrations in $pkgdatadir/migrations" test \
    "$(find "$root$pkgdatadir/migrations" -name '*.sql' 2>/dev/null | wc -l)" \
    -eq "$nmig"
for page in man8/mautod.8 man8/mautoctl.8 man5/mautod.conf.5; do
	check "man page $page" test -f "$root$mandir/$page"
done

# --- the configuration directory and the example ---------------------------
check "configuration directory $sysconfdir/mauto" test -d "$confdir"
check "mautod.conf.example in it" \
    cmp -s "$confdir/mautod.conf.example" "$srcdir/deploy/mautod.conf.example"
check "no mautod.conf is written (the defaults apply until one is made)" \
    test ! -e "$confdir/mautod.conf"
# Every key of mautod --print-config (the key table) is in the example,
# commented, with its default value.
example_complete()
{
	local key value want n=0 bad=0
	while IFS= read -r line; do
		key=${line%% = *}
		value=${line#* = }
		if [ -n "$value" ]; then want="#$key = $value"; else want="#$key ="; fi
		n=$((n + 1))
		grep -qxF -- "$want" "$confdir/mautod.conf.example" ||
		    { echo "  missing: $want"; bad=1; }
	done < <(env -i PATH="$PATH" "$root$sbindir/mautod" --config /dev/null \
	    --print-config)
	echo "  $n keys"
	[ "$n" -gt 20 ] && [ "$bad" -eq 0 ]
}
check "the example lists every key with its default, commented" \
    example_complete
check "the example is only comments" \
    test -z "$(grep -v -e '^#' -e '^[[:space:]]*$' "$confdir/mautod.conf.example")"
check "mautod accepts the example as its configuration" \
    quiet env -i PATH="$PATH" "$root$sbindir/mautod" \
    --config "$confdir/mautod.conf.example" --check-config

# --- the units ----------------------------------------------------------------
service=$unitdir/mautod.service
check "mautod.service and mautod.socket in $systemdsystemunitdir" \
    test -f "$service" -a -f "$unitdir/mautod.socket"
check "ExecStart= is $sbindir/mautod" \
    grep -qxF "ExecStart=$sbindir/mautod" "$service"
check "ExecStartPre= checks the configuration with the same binary" \
    grep -qxF "ExecStartPre=$sbindir/mautod --check-config" "$service"
check "no placeholder is left in the units" \
    test -z "$(grep -n '@[A-Za-z_]*@' "$unitdir"/mautod.* )"
check "no hard-coded /usr/sbin unless sbindir is /usr/sbin" \
    eval '[ "$sbindir" = /usr/sbin ] || ! grep -q "/usr/sbin/" "$service"'
if grep -q 'define HAVE_LIBSYSTEMD 1' "$builddir/config.h" 2>/dev/null; then
	want_type=notify
else
	want_type=simple
fi
check "Type=$want_type (this build's libsystemd)" \
    grep -qx "Type=$want_type" "$service"
check "the password comes as a credential (LoadCredential=)" \
    grep -qx 'LoadCredential=mauto.db_password' "$service"
check "the service keeps the socket unit's directory (no RuntimeDirectory=)" \
    eval '! grep -q "^RuntimeDirectory=" "$service"'

# systemd-analyze verify in ROOT: it loads the units as systemd would and
# checks every dependency and that each command exists and is executable
# in ROOT.  Warnings (unknown keys, bad values) fail the check too.
verify()
{
	local out rc=0
	out=$(cd "$tmp" && timeout "$TIMEOUT" systemd-analyze verify --man=no \
	    --root="$root" "$@" 2>&1) || rc=$?
	[ -z "$out" ] || printf '  %s\n' "$out"
	[ "$rc" -eq 0 ] && [ -z "$out" ]
}
if ! command -v systemd-analyze >/dev/null; then
	skip "systemd-analyze verify" "systemd-analyze is missing (package systemd)"
else
	# The host's units (sockets.target, network-online.target, ...) and
	# the kill of ExecReload=, without replacing anything installed.
	mkdir -p "$root/usr/lib/systemd" "$root/bin"
	cp -an /usr/lib/systemd/system "$root/usr/lib/systemd/" 2>/dev/null
	cp -n /bin/kill "$root/bin/kill"
	# A unit known to be good tells whether verify can run here at all.
	mkdir -p "$root/etc/systemd/system"
	printf '[Unit]\nDescription=probe\n[Service]\nExecStart=/bin/kill -0 1\n' \
	    >"$root/etc/systemd/system/mauto-probe.service"
	if ! probe=$(verify mauto-probe.service); then
		skip "systemd-analyze verify" "it cannot run here: $probe"
	else
		check "systemd-analyze verify mautod.socket mautod.service" \
		    verify mautod.socket mautod.service
		# And it would catch a unit whose binary is not installed.
		mv "$root$sbindir/mautod" "$tmp/mautod.moved"
		check "verify fails when ExecStart= names a missing binary" \
		    eval '! verify mautod.service >/dev/null'
		mv "$tmp/mautod.moved" "$root$sbindir/mautod"
	fi
	rm -f "$root/etc/systemd/system/mauto-probe.service"
fi

# --- make uninstall -------------------------------------------------------------
uninstalled()
{
	local left
	"$make" -C "$builddir" uninstall DESTDIR="$root" >"$tmp/uninstall.log" 2>&1 ||
	    { tail -n 20 "$tmp/uninstall.log"; return 1; }
	left=$(cd "$root" && find . -type f \( -path '*mauto*' -o -name 'mautod*' \))
	[ -z "$left" ] || printf '  left: %s\n' $left
	[ -z "$left" ]
}
check "make uninstall removes every installed file" uninstalled
