#!/bin/sh
# Every include points down (docs/modules.md): a file may include headers
# of its own folder or of a lower floor, never of a higher one or of a
# sibling folder on its floor.  Within a folder the modules (a .c and its
# .h) must have an order too: no circle of includes, which tsort(1) finds
# (src/repo/ had three).  A call needs its header (-Werror: no implicit
# declarations), so this is also the order of calls.  Run by "make
# check"; prints each upward include and each circle, and exits 1 when
# there is one.
#
# Floors, lowest first:
#   0  src/bounds.h src/err.[ch]            the service's bounds and errors
#   1  src/util/                            utilities
#   2  src/model/ src/db/                   pure rules; the connection
#   3  src/call.h                           what dispatch hands a handler
#   4  src/repo/                            SQL
#   5  src/http/ src/auth/ src/mail/        the request edge; tokens, limits;
#                                           mail: messages, SMTP, the outbox
#   6  src/export/ src/prune/ src/engine/   the export runner process;
#                                           the activity pruner process;
#                                           the campaign engine
#   7  src/api/                             handlers
#   8  src/dispatch.c src/exposition.c src/outbox_read.c src/routes.c
#      src/worker.c
#      src/master.c src/main.c
#      src/ctl/                             processes and their wiring
top=${top_srcdir:-$(dirname "$0")/..}
cd "$top" || exit 99

# floor FILE: prints "FLOOR GROUP" of a path under src/.
floor()
{
	case $1 in
	bounds.h|err.h|err.c)	echo "0 ground" ;;
	util/*)			echo "1 util" ;;
	model/*)		echo "2 model" ;;
	db/*)			echo "2 db" ;;
	call.h)			echo "3 call" ;;
	repo/*)			echo "4 repo" ;;
	http/*)			echo "5 http" ;;
	auth/*)			echo "5 auth" ;;
	mail/*)			echo "5 mail" ;;
	export/*)		echo "6 export" ;;
	prune/*)		echo "6 prune" ;;
	engine/*)		echo "6 engine" ;;
	api/*)			echo "7 api" ;;
	ctl/*)			echo "8 ctl" ;;
	*/*)			echo "? $1" ;;
	*)			echo "8 top" ;;
	esac
}

status=0
edges=$(mktemp) || exit 99
trap 'rm -f "$edges"' EXIT
for f in $(cd src && find . -name '*.[ch]' | sed 's|^\./||' | sort); do
	set -- $(floor "$f")
	ff=$1 fg=$2
	if [ "$ff" = "?" ]; then
		echo "check-includes: src/$f: a folder with no floor"
		status=1
		continue
	fi
	for inc in $(sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "src/$f"); do
		[ -f "src/$inc" ] || continue
		set -- $(floor "$inc")
		tf=$1 tg=$2
		if [ "$tg" = "$fg" ]; then
			# An edge of the folder's module order.
			[ "${inc%.*}" = "${f%.*}" ] ||
			    echo "${f%.*} ${inc%.*}" >>"$edges"
			continue
		fi
		if [ "$tf" = "?" ] || [ "$tf" -ge "$ff" ]; then
			echo "check-includes: src/$f (floor $ff) includes $inc (floor $tf)"
			status=1
		fi
	done
done
# A module that includes, before the modules it includes: tsort fails
# on a circle and names its modules.
if ! tsort "$edges" >/dev/null 2>"$edges.loop"; then
	sed -e 's/^tsort: .*input contains a loop:$/check-includes: a circle of includes:/' \
	    -e 's|^tsort: |check-includes:   src/|' "$edges.loop"
	status=1
fi
rm -f "$edges.loop"
exit $status
