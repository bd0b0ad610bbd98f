#!/usr/bin/env bash
# Installs what building, testing and running mauto need on Debian 12.
#
#   tests/harness/deps.sh [--fuzz] [--tests] [--force]
#
# Run as root.  When every package is already installed it does nothing
# (no apt-get at all) unless --force is given.  --fuzz adds clang and its
# libFuzzer runtime for ./configure --enable-fuzzing; --tests adds what
# only the tests use (apache2, the second front server, python3-aiosmtpd,
# the SMTP server, galera-4 and rsync, the Galera cluster).  Package scripts
# are kept from starting system services (mariadb, nginx, apache2): the
# harness and deploy/quickstart run their own private servers.  The Debian
# packages enable those services at boot; of the packages this run
# installed, their services are disabled (and stopped where systemd runs;
# in a container without systemd as PID 1 only the boot links are removed).  A service of
# a package that was installed before is left as it was.
set -euo pipefail

# libcurl4-openssl-dev rather than -gnutls-dev: its library, libcurl4,
# is the one the curl command already installs, so no second libcurl.
packages=(
	build-essential autoconf automake autoconf-archive libtool pkg-config
	libfcgi-dev libfcgi-bin libjson-c-dev libmariadb-dev libcmocka-dev
	libsodium-dev libsystemd-dev libxml2-dev mariadb-server mariadb-client nginx wrk
	libcurl4-openssl-dev
	systemd curl ca-certificates python3
)
# The tests' second front server (tests/harness/apache.sh), SMTP
# server (tests/harness/smtpd.sh) and Galera cluster (tests/cluster:
# galera-4, and rsync for its state transfers); the quickstart needs none.
test_packages=(apache2 python3-aiosmtpd galera-4 rsync)
fuzz_packages=(clang libclang-rt-14-dev)

force=0
for arg in "$@"; do
	case $arg in
	--fuzz) packages+=("${fuzz_packages[@]}") ;;
	--tests) packages+=("${test_packages[@]}") ;;
	--force) force=1 ;;
	*) echo "usage: ${0##*/} [--fuzz] [--tests] [--force]" >&2; exit 2 ;;
	esac
done

# Prints the packages that are not installed.
missing()
{
	local p status
	for p in "${packages[@]}"; do
		status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[ "$status" = installed ] || printf '%s\n' "$p"
	done
}

mapfile -t need < <(missing)
if [ "${#need[@]}" -eq 0 ] && [ "$force" = 0 ]; then
	echo "deps.sh: all ${#packages[@]} packages are installed"
	exit 0
fi
[ "$(id -u)" -eq 0 ] ||
    { echo "deps.sh: run as root to install: ${need[*]}" >&2; exit 1; }

# policy-rc.d answering 101 tells invoke-rc.d not to start services.  Keep
# an existing one and put it back afterwards.
policy=/usr/sbin/policy-rc.d
saved=""
restore()
{
	if [ -n "$saved" ]; then
		mv -f "$saved" "$policy"
	else
		rm -f "$policy"
	fi
}
if [ -e "$policy" ]; then
	saved=$(mktemp /usr/sbin/policy-rc.d.saved.XXXXXX)
	cp -p "$policy" "$saved"
fi
trap restore EXIT
printf '#!/bin/sh\nexit 101\n' >"$policy"
chmod 755 "$policy"

echo "deps.sh: installing ${need[*]:-all packages (forced)}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${packages[@]}"

# The services the new packages enabled at boot.
services=()
for pair in mariadb-server:mariadb.service nginx:nginx.service \
    apache2:apache2.service; do
	for p in "${need[@]}"; do
		if [ "$p" = "${pair%%:*}" ]; then
			services+=("${pair#*:}")
		fi
	done
done
if [ "${#services[@]}" -gt 0 ]; then
	if [ -d /run/systemd/system ]; then
		if systemctl disable --now "${services[@]}"; then
			echo "deps.sh: disabled and stopped ${services[*]}"
		else
			echo "deps.sh: warning: could not disable ${services[*]}" >&2
		fi
	elif command -v systemctl >/dev/null; then
		if systemctl disable "${services[@]}"; then
			echo "deps.sh: disabled ${services[*]} at boot" \
			    "(systemd is not running)"
		else
			echo "deps.sh: warning: could not disable ${services[*]}" >&2
		fi
	else
		for s in "${services[@]}"; do
			update-rc.d "${s%.service}" disable || true
		done
		echo "deps.sh: disabled ${services[*]} at boot (update-rc.d)"
	fi
fi
echo "deps.sh: done"
