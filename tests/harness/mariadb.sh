#!/usr/bin/env bash
# A throwaway private MariaDB server for tests and the quickstart.
#
#   tests/harness/mariadb.sh start DIR    create (first time) and start
#   tests/harness/mariadb.sh stop DIR     graceful shutdown (bounded)
#   tests/harness/mariadb.sh restart DIR  stop, then start
#   tests/harness/mariadb.sh kill DIR     SIGKILL, to simulate a crash
#   tests/harness/mariadb.sh status DIR   exit 0 when it answers
#
# Everything lives under DIR: data/, my.cnf, mysqld.sock, mariadb.pid,
# mariadb.err.  The server listens on the unix socket only
# (--skip-networking); no system service is touched.  After start, DIR/env
# holds shell exports for the database and its user:
#   MAUTO_TEST_DB_SOCKET/NAME/USER/PASSWORD  (integration tests)
#   MAUTO_DB_SOCKET/NAME/USER/PASSWORD       (mautod, mautoctl)
# The database name is $MAUTO_TEST_DB_NAME (default mauto_test); the user
# may create and drop any database whose name starts with "mauto".
#
# Hooks for a cluster node (tests/cluster/cluster.sh): DIR/extra.cnf, when
# present, is appended to my.cnf (its settings win); MARIADB_ARGS are
# added to the mariadbd command line; MARIADB_PROVISION=0 skips the
# database, user and env file (a joining node gets them by replication);
# MARIADB_USER runs the server as that user (DIR is given to it): a root
# rsync daemon of a Galera state transfer cannot write the joiner's files.
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/env.sh"

usage()
{
	echo "usage: ${0##*/} start|stop|restart|kill|status DIR" >&2
	exit 2
}

[ $# -eq 2 ] || usage
verb=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)
sock=$dir/mysqld.sock
pidfile=$dir/mariadb.pid
errlog=$dir/mariadb.err
cnf=$dir/my.cnf
osuser=$(id -un)
runuser=${MARIADB_USER:-$osuser}

# Settings for a small, fast, disposable server.  The InnoDB choices match
# docs/galera.md (ROW format, autoinc lock mode 2); durability is relaxed
# because the data is thrown away.
write_cnf()
{
	cat >"$cnf" <<EOF
[mariadbd]
datadir = $dir/data
socket = $sock
pid-file = $pidfile
log-error = $errlog
tmpdir = $dir/tmp
user = $runuser
skip-networking
skip-name-resolve
skip-log-bin
performance-schema = OFF
character-set-server = utf8mb4
collation-server = utf8mb4_unicode_ci
max-connections = 300
# Room for every worker's statements (docs/operating.md, "Sizing the database"):
# a connection prepares at most about 350.
max-prepared-stmt-count = 131072
default-storage-engine = InnoDB
innodb-buffer-pool-size = 64M
innodb-log-file-size = 48M
innodb-log-buffer-size = 8M
innodb-flush-log-at-trx-commit = 2
innodb-doublewrite = 0
innodb-autoinc-lock-mode = 2
binlog-format = ROW
innodb-lock-wait-timeout = 10
EOF
	[ ! -f "$dir/extra.cnf" ] || cat "$dir/extra.cnf" >>"$cnf"
}

admin()
{
	mariadb-admin --no-defaults --socket="$sock" --user=root \
	    --connect-timeout=2 "$@"
}

sql()
{
	mariadb --no-defaults --socket="$sock" --user=root --batch \
	    --skip-column-names -e "$1"
}

is_up()
{
	admin ping >/dev/null 2>&1
}

install_db()
{
	harness_log "initialising $dir/data"
	mkdir -p "$dir/data" "$dir/tmp"
	mariadb-install-db --no-defaults --datadir="$dir/data" \
	    --user="$runuser" --auth-root-authentication-method=socket \
	    --auth-root-socket-user="$osuser" --skip-test-db \
	    >"$dir/install.log" 2>&1 ||
	    { cat "$dir/install.log" >&2; harness_die "mariadb-install-db failed"; }
}

# Creates the database and user the first time; keeps the password of an
# earlier run so DIR/env stays valid across restarts.
provision()
{
	local name user pass
	name=${MAUTO_TEST_DB_NAME:-mauto_test}
	user=${MAUTO_TEST_DB_USER:-mauto}
	if [ -f "$dir/password" ]; then
		read -r pass <"$dir/password"
	else
		pass=${MAUTO_TEST_DB_PASSWORD:-$(harness_random_hex 12)}
		(umask 077; printf '%s\n' "$pass" >"$dir/password")
	fi
	case $name$user$pass in
	*[!A-Za-z0-9_]*) harness_die "database name, user and password must be [A-Za-z0-9_]" ;;
	esac
	sql "CREATE DATABASE IF NOT EXISTS \`$name\`
	    CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
	    CREATE USER IF NOT EXISTS '$user'@'localhost' IDENTIFIED BY '$pass';
	    ALTER USER '$user'@'localhost' IDENTIFIED BY '$pass';
	    GRANT ALL PRIVILEGES ON \`mauto%\`.* TO '$user'@'localhost';" ||
	    harness_die "cannot create database $name"
	harness_db_env "$dir/env" "$sock" "$name" "$user" "$pass"
	echo "export MAUTO_TEST_MARIADB_DIR='$dir'" >>"$dir/env"
}

start()
{
	local pid
	harness_check_socket_path "$sock"
	if is_up; then
		[ "${MARIADB_PROVISION:-1}" = 0 ] || provision
		return 0
	fi
	pid=$(harness_pidfile_pid "$pidfile")
	if harness_pid_alive "$pid"; then
		harness_die "mariadbd (pid $pid) runs but does not answer on $sock"
	fi
	write_cnf
	[ -d "$dir/data/mysql" ] || install_db
	mkdir -p "$dir/tmp"
	[ "$runuser" = "$osuser" ] || chown -R "$runuser:" "$dir"
	rm -f "$sock" "$pidfile"
	# shellcheck disable=SC2086
	setsid mariadbd --defaults-file="$cnf" ${MARIADB_ARGS:-} </dev/null \
	    >>"$dir/mariadbd.out" 2>&1 &
	pid=$!
	echo "$pid" >"$dir/launcher.pid"
	local deadline=$((SECONDS + HARNESS_START_TIMEOUT))
	until is_up; do
		if ! harness_pid_alive "$pid"; then
			tail -n 30 "$errlog" >&2 2>/dev/null || true
			harness_die "mariadbd exited during start (log: $errlog)"
		fi
		if [ "$SECONDS" -ge "$deadline" ]; then
			tail -n 30 "$errlog" >&2 2>/dev/null || true
			harness_stop_pid "$pid" 5 group
			harness_die "mariadbd did not answer in ${HARNESS_START_TIMEOUT}s"
		fi
		sleep 0.2
	done
	[ "${MARIADB_PROVISION:-1}" = 0 ] || provision
	harness_log "mariadb ready on $sock"
}

server_pid()
{
	local pid
	pid=$(harness_pidfile_pid "$pidfile")
	[ -n "$pid" ] || pid=$(harness_pidfile_pid "$dir/launcher.pid")
	printf '%s\n' "$pid"
}

stop()
{
	local pid
	pid=$(server_pid)
	if ! harness_pid_alive "$pid"; then
		rm -f "$pidfile" "$dir/launcher.pid"
		return 0
	fi
	# A clean shutdown through the server first; signals as the fallback.
	timeout "$HARNESS_STOP_TIMEOUT" mariadb-admin --no-defaults \
	    --socket="$sock" --user=root shutdown >/dev/null 2>&1 || true
	harness_stop_pid "$pid" "$HARNESS_STOP_TIMEOUT"
	rm -f "$pidfile" "$dir/launcher.pid"
	harness_log "mariadb stopped"
}

is_dead()
{
	! harness_pid_alive "$1"
}

crash()
{
	local pid
	pid=$(server_pid)
	if harness_pid_alive "$pid"; then
		kill -KILL "$pid" 2>/dev/null || true
		harness_wait 10 "mariadbd to die" is_dead "$pid"
	fi
	rm -f "$pidfile" "$dir/launcher.pid"
	harness_log "mariadb killed"
}

case $verb in
start) start ;;
stop) stop ;;
restart) stop; start ;;
kill) crash ;;
status) is_up ;;
*) usage ;;
esac
