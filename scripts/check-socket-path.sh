#!/bin/sh
# One FastCGI socket path everywhere.  deploy/systemd/mautod.socket owns
# the socket (ListenStream=); nginx, Apache, the man pages, README.md and
# docs/ must name the same path, or following one of them gives nginx or
# Apache a socket that does not exist (502).  Run by "make check"; prints
# every path that differs and exits 1 when there is one.
top=${top_srcdir:-$(dirname "$0")/..}
cd "$top" || exit 99

unit=deploy/systemd/mautod.socket
want=$(sed -n 's/^ListenStream=[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*$/\1/p' "$unit")
case $want in
/*) ;;
*)
	echo "check-socket-path: $unit: no absolute ListenStream= path"
	exit 1
	;;
esac
if [ "$(printf '%s\n' "$want" | wc -l)" -ne 1 ]; then
	echo "check-socket-path: $unit: more than one ListenStream="
	exit 1
fi

status=0
# Every socket path of mauto's under /run (not MariaDB's), in every file
# a user follows.
files=$(find deploy man docs -type f ! -name '*~' 2>/dev/null | sort)
# shellcheck disable=SC2086
bad=$(grep -n -o -E '(/var)?/run/[A-Za-z0-9._/@-]*\.sock' $files README.md /dev/null |
    awk -F: -v want="$want" '$3 ~ /mauto/ && $3 != want {
	printf "check-socket-path: %s:%s: %s (the socket unit says %s)\n",
	    $1, $2, $3, want }')
if [ -n "$bad" ]; then
	printf '%s\n' "$bad"
	status=1
fi

# The files that must name the socket do.
for f in deploy/nginx/mautod.conf deploy/apache/mautod.conf man/mautod.8 \
    README.md; do
	if ! grep -q -F "$want" "$f"; then
		echo "check-socket-path: $f does not name $want"
		status=1
	fi
done

[ "$status" -eq 0 ] && echo "check-socket-path: every file names $want"
exit "$status"
