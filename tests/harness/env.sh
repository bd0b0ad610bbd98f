# shellcheck shell=bash
# Common functions of the test harness; sourced (not run) by
# tests/harness/*.sh, tests/http/run.sh, tests/http/t_*.sh, tests/run and
# deploy/quickstart.  It defines functions and variables only; the caller
# chooses its own shell options (all callers use set -euo pipefail).
#
# Variables it sets:
#   HARNESS_DIR   this directory (tests/harness)
#   MAUTO_SRCDIR  the top of the source tree
#
# Programs: mautod and mautoctl are found through harness_bin (see there).

HARNESS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MAUTO_SRCDIR=$(cd "$HARNESS_DIR/../.." && pwd)
export HARNESS_DIR MAUTO_SRCDIR

# Seconds the harness waits for a server to come up or go down.
: "${HARNESS_START_TIMEOUT:=60}"
: "${HARNESS_STOP_TIMEOUT:=30}"

# Prints a message on stderr, prefixed with the calling script's name.
harness_log()
{
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

# Prints a message on stderr and exits 1.
harness_die()
{
	harness_log "error: $*"
	exit 1
}

# harness_wait SECONDS DESCRIPTION COMMAND...: runs COMMAND every 0.2 s
# until it succeeds; fails with a clear message after SECONDS.
harness_wait()
{
	local secs=$1 what=$2 deadline
	shift 2
	deadline=$((SECONDS + secs))
	until "$@" >/dev/null 2>&1; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			harness_log "timed out after ${secs}s waiting for $what"
			return 1
		fi
		sleep 0.2
	done
	return 0
}

# harness_pid_alive PID: true when PID runs and is not a zombie.
harness_pid_alive()
{
	local pid=$1 state
	[ -n "$pid" ] || return 1
	kill -0 "$pid" 2>/dev/null || return 1
	state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null || true)
	[ "$state" != Z ]
}

# harness_pidfile_pid FILE: prints the pid in FILE (nothing when absent).
harness_pidfile_pid()
{
	local f=$1 pid=""
	if [ -r "$f" ]; then
		read -r pid <"$f" || true
	fi
	case $pid in
	*[!0-9]* | "") return 0 ;;
	esac
	printf '%s\n' "$pid"
}

# harness_stop_pid PID SECONDS [group]: sends SIGTERM to PID and waits up
# to SECONDS for it to end, then sends SIGKILL.  With "group" the SIGKILL
# goes to the process group PID leads (it was started with setsid), so
# children left behind end too: systemd's KillMode=mixed.
harness_stop_pid()
{
	local pid=$1 secs=$2 group=${3:-} target deadline
	[ -n "$pid" ] || return 0
	target=$pid
	[ "$group" = group ] && target=-$pid
	kill -TERM "$pid" 2>/dev/null || true
	deadline=$((SECONDS + secs))
	while harness_pid_alive "$pid"; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			harness_log "pid $pid did not stop in ${secs}s; killing it"
			kill -KILL -- "$target" 2>/dev/null || true
			break
		fi
		sleep 0.1
	done
	# Stragglers of the group (e.g. workers whose master died first).
	if [ "$group" = group ]; then
		kill -KILL -- "$target" 2>/dev/null || true
	fi
	return 0
}

# harness_free_port: prints a TCP port on 127.0.0.1 that is free now.
harness_free_port()
{
	python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

# harness_port_open PORT: true when something listens on 127.0.0.1:PORT.
harness_port_open()
{
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# harness_bin NAME: prints the path of mautod or mautoctl.  Order: the
# variable MAUTOD / MAUTOCTL, then $top_builddir/NAME, then ./NAME (make
# runs check-http in the build directory), then $PATH.
harness_bin()
{
	local name=$1 var path
	var=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')
	path=${!var:-}
	if [ -z "$path" ] && [ -n "${top_builddir:-}" ] &&
	    [ -x "$top_builddir/$name" ]; then
		path=$top_builddir/$name
	fi
	if [ -z "$path" ] && [ -x "./$name" ]; then
		path=./$name
	fi
	if [ -z "$path" ]; then
		path=$(command -v "$name" 2>/dev/null || true)
	fi
	[ -n "$path" ] || harness_die "cannot find $name (set ${var}=PATH)"
	case $path in
	/*) ;;
	*) path=$(cd "$(dirname "$path")" && pwd)/${path##*/} ;;
	esac
	printf '%s\n' "$path"
}

# harness_random_hex BYTES: prints 2*BYTES random hex digits.
harness_random_hex()
{
	od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'
}

# harness_check_socket_path PATH: unix socket paths are limited to 107
# bytes; fail early with a message instead of an obscure bind error.
harness_check_socket_path()
{
	[ "${#1}" -le 100 ] ||
	    harness_die "socket path too long (${#1} > 100 bytes): $1"
}

# harness_ctl ENVFILE ARGS...: runs mautoctl ARGS with the database
# settings of ENVFILE (written by mariadb.sh) in its environment.
harness_ctl()
{
	local envfile=$1 ctl
	shift
	ctl=$(harness_bin mautoctl)
	(
		# shellcheck disable=SC1090
		. "$envfile"
		exec "$ctl" "$@"
	)
}

# harness_migrate ENVFILE: applies db/migrations of this source tree to
# the database of ENVFILE (so an uninstalled build works).
harness_migrate()
{
	harness_ctl "$1" migrate --dir "$MAUTO_SRCDIR/db/migrations"
}

# harness_client_create ENVFILE NAME ROLE OUTFILE: creates an API client
# and writes MAUTO_CLIENT_ID=... and MAUTO_CLIENT_SECRET=... lines to
# OUTFILE (mode 600).
harness_client_create()
{
	local envfile=$1 name=$2 role=$3 out=$4 text id secret
	text=$(harness_ctl "$envfile" client create --name "$name" \
	    --role "$role") || harness_die "mautoctl client create failed"
	id=$(printf '%s\n' "$text" | sed -n 's/^client_id=//p' | head -n 1)
	secret=$(printf '%s\n' "$text" | sed -n 's/^client_secret=//p' |
	    head -n 1)
	if [ -z "$id" ] || [ -z "$secret" ]; then
		harness_die "unexpected mautoctl client create output: $text"
	fi
	(
		umask 077
		printf 'MAUTO_CLIENT_ID=%s\nMAUTO_CLIENT_SECRET=%s\n' \
		    "$id" "$secret" >"$out"
	)
}

# harness_token BASE_URL CLIENT_ID CLIENT_SECRET: prints an access token
# from the identity endpoint, or fails.
harness_token()
{
	local body
	body=$(curl -sS --max-time 20 -G "$1/identity/oauth/token" \
	    --data-urlencode grant_type=client_credentials \
	    --data-urlencode "client_id=$2" \
	    --data-urlencode "client_secret=$3") ||
	    { harness_log "identity request failed"; return 1; }
	printf '%s' "$body" | python3 -c 'import json, sys
try:
    print(json.load(sys.stdin)["access_token"])
except Exception:
    sys.exit(1)' || { harness_log "no access_token in: $body"; return 1; }
}

# harness_sql ENVFILE SQL: runs SQL as the database user of ENVFILE, over
# its socket or, without one, the first node of MAUTO_DB_HOST (a host of
# tests/cluster/cluster.sh).
harness_sql()
{
	(
		# shellcheck disable=SC1090
		. "$1"
		local -a where=(--socket="${MAUTO_DB_SOCKET:-}")
		if [ -z "${MAUTO_DB_SOCKET:-}" ]; then
			local node=${MAUTO_DB_HOST%%,*}
			where=(--protocol=tcp --host="${node%%:*}"
			    --port="${node##*:}")
		fi
		MYSQL_PWD=$MAUTO_DB_PASSWORD mariadb --no-defaults \
		    "${where[@]}" --user="$MAUTO_DB_USER" \
		    --batch --skip-column-names -e "$2"
	)
}

# harness_db_env FILE SOCKET NAME USER PASSWORD: writes the env file of a
# database: the MAUTO_TEST_DB_* variables for tests and the matching
# MAUTO_DB_* ones that mautod and mautoctl read (mode 0600).
harness_db_env()
{
	local file=$1 sock=$2 name=$3 user=$4 pass=$5
	(
		umask 077
		cat >"$file" <<EOF
export MAUTO_TEST_DB_SOCKET='$sock'
export MAUTO_TEST_DB_NAME='$name'
export MAUTO_TEST_DB_USER='$user'
export MAUTO_TEST_DB_PASSWORD='$pass'
export MAUTO_DB_SOCKET='$sock'
export MAUTO_DB_NAME='$name'
export MAUTO_DB_USER='$user'
export MAUTO_DB_PASSWORD='$pass'
EOF
	)
}

# harness_db_create ENVFILE NAME OUTFILE: creates database NAME (it must
# start with "mauto") on the server of ENVFILE and writes OUTFILE, a copy
# of ENVFILE that names the new database.
harness_db_create()
{
	local envfile=$1 name=$2 out=$3
	case $name in
	mauto*) ;;
	*) harness_die "database names must start with mauto: $name" ;;
	esac
	case $name in
	*[!A-Za-z0-9_]*) harness_die "bad database name: $name" ;;
	esac
	harness_sql "$envfile" "CREATE DATABASE \`$name\`
	    CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci" ||
	    harness_die "cannot create database $name"
	(
		umask 077
		sed -e "s/^export MAUTO_TEST_DB_NAME=.*/export MAUTO_TEST_DB_NAME='$name'/" \
		    -e "s/^export MAUTO_DB_NAME=.*/export MAUTO_DB_NAME='$name'/" \
		    "$envfile" >"$out"
	)
}

# harness_db_drop ENVFILE: drops the database ENVFILE names.
harness_db_drop()
{
	local name
	name=$(
		# shellcheck disable=SC1090
		. "$1"
		printf '%s' "$MAUTO_DB_NAME"
	)
	harness_sql "$1" "DROP DATABASE IF EXISTS \`$name\`" || true
}

# harness_front NAME PIDFILE LAUNCH VERB DIR [PORT SOCKET]: the verbs of a
# front server script (tests/harness/nginx.sh, apache.sh).  start: nothing
# when NAME of PIDFILE already listens on 127.0.0.1:PORT, a failure when
# something else holds the port, else LAUNCH PORT SOCKET (the script's
# function that renders and starts the server) and a wait for the port.
# stop: stops the pid of PIDFILE.  Returns 2 on a wrong verb or arguments.
harness_front()
{
	local name=$1 pidfile=$2 launch=$3 verb=$4 pid
	shift 4
	pid=$(harness_pidfile_pid "$pidfile")
	case $verb in
	start)
		[ $# -eq 3 ] || return 2
		harness_pid_alive "$pid" && harness_port_open "$2" && return 0
		harness_port_open "$2" &&
		    harness_die "127.0.0.1:$2 is already in use"
		"$launch" "$2" "$3"
		harness_wait "$HARNESS_START_TIMEOUT" "$name on 127.0.0.1:$2" \
		    harness_port_open "$2" || harness_die "$name did not listen"
		;;
	stop)
		[ $# -eq 1 ] || return 2
		harness_pid_alive "$pid" &&
		    harness_stop_pid "$pid" "$HARNESS_STOP_TIMEOUT"
		rm -f "$pidfile"
		;;
	*)
		return 2
		;;
	esac
}

# harness_mautod_workers: the mautod workers behind a front server:
# MAUTO_WORKERS (default 4, as tests/harness/mautod.sh), where 0 is what
# mautod makes of it (master_worker_count: the CPUs, but at least
# concurrency_limit + 6).
harness_mautod_workers()
{
	local workers=${MAUTO_WORKERS:-4} limit=${MAUTO_CONCURRENCY_LIMIT:-10}
	local cpus least
	if [ "$workers" -eq 0 ]; then
		cpus=$(nproc)
		[ "$limit" -gt 0 ] || limit=10
		least=$((limit + 6))
		workers=$((cpus > least ? cpus : least))
	fi
	echo "$workers"
}

# harness_limit_named BOUND: the number a front server's 615 names:
# MAUTO_CONCURRENCY_LIMIT (default 10), or BOUND when the limit is off.
harness_limit_named()
{
	local limit=${MAUTO_CONCURRENCY_LIMIT:-10}
	[ "$limit" -gt 0 ] || limit=$1
	echo "$limit"
}

# harness_stack_start DIR DBENV [NAME=VALUE...]: a complete service for
# one test: a new database on the server of DBENV (migrated), mautod under
# DIR with the MAUTO_* overrides given, nginx on a free port, and an admin
# client.  HARNESS_STACK_FRONT=apache puts Apache httpd in front instead
# (tests/harness/apache.sh).  Writes DIR/stack.env with MAUTO_TEST_BASE_URL,
# MAUTO_TEST_CLIENT_ID and MAUTO_TEST_CLIENT_SECRET (as exports) and
# prints nothing.  harness_stack_stop DIR undoes it all.
harness_stack_start()
{
	local dir=$1 dbenv=$2 port kv
	shift 2
	mkdir -p "$dir"
	harness_db_create "$dbenv" "mauto_t$(harness_random_hex 4)" "$dir/env"
	{
		echo "export MAUTO_WORKERS=2"
		echo "export MAUTO_HOST_ID=t$(harness_random_hex 4)"
		for kv in "$@"; do
			printf "export %s='%s'\n" "${kv%%=*}" "${kv#*=}"
		done
	} >>"$dir/env"
	harness_migrate "$dir/env" >"$dir/migrate.log" 2>&1 ||
	    { cat "$dir/migrate.log" >&2; harness_die "migration failed"; }
	harness_client_create "$dir/env" "stack admin" admin "$dir/client.env"
	"$HARNESS_DIR/mautod.sh" start "$dir"
	port=$(harness_free_port)
	# The front is sized from the stack's own workers and limit.
	(
		# shellcheck disable=SC1091
		. "$dir/env"
		"$HARNESS_DIR/${HARNESS_STACK_FRONT:-nginx}.sh" start \
		    "$dir/${HARNESS_STACK_FRONT:-nginx}" "$port" "$dir/mautod.sock"
	)
	(
		# shellcheck disable=SC1091
		. "$dir/client.env"
		printf "export MAUTO_TEST_BASE_URL='%s'\n" "http://127.0.0.1:$port"
		printf "export MAUTO_TEST_CLIENT_ID='%s'\n" "$MAUTO_CLIENT_ID"
		printf "export MAUTO_TEST_CLIENT_SECRET='%s'\n" "$MAUTO_CLIENT_SECRET"
	) >"$dir/stack.env"
}

# harness_stack_stop DIR: stops what harness_stack_start DIR started and
# drops its database.  Safe to call twice or after a failed start.
harness_stack_stop()
{
	local dir=$1
	[ -d "$dir" ] || return 0
	"$HARNESS_DIR/nginx.sh" stop "$dir/nginx" || true
	[ ! -d "$dir/apache" ] || "$HARNESS_DIR/apache.sh" stop "$dir/apache" ||
	    true
	"$HARNESS_DIR/mautod.sh" stop "$dir" || true
	[ -f "$dir/env" ] && harness_db_drop "$dir/env"
	return 0
}

# harness_json_get PATH: reads a JSON document on stdin and prints the
# value at PATH ("errors[0].code", "access_token"): strings as they are,
# anything else as JSON.  Fails when the input is not JSON or PATH is
# missing.
harness_json_get()
{
	python3 -c 'import json, re, sys
doc = json.load(sys.stdin)
for part in re.findall(r"[^.\[\]]+|\[[0-9]+\]", sys.argv[1]):
    doc = doc[int(part[1:-1])] if part[0] == "[" else doc[part]
print(doc if isinstance(doc, str) else json.dumps(doc))' "$1" 2>/dev/null
}

# harness_call URL [CURL ARGS...]: one request with curl (bounded to 30 s)
# that prints the HTTP status on the first line and the body after it.
harness_call()
{
	local url=$1
	shift
	curl -sS --max-time 30 -w '\n%{http_code}' "$@" "$url" |
	    awk '{ line[NR] = $0 } END { print line[NR]; for (i = 1; i < NR; i++) print line[i] }'
}
