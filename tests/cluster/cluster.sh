#!/usr/bin/env bash
# A scale-out stack for tests: a three-node MariaDB Galera cluster of
# private mariadbd processes on loopback, mautod "hosts" over it and one
# nginx with an upstream over the hosts.
#
#   tests/cluster/cluster.sh start DIR [HOSTS]   nodes, migration, HOSTS
#                                               mautod hosts (default 2),
#                                               nginx
#   tests/cluster/cluster.sh stop DIR            everything, bounded
#   tests/cluster/cluster.sh status DIR          cluster size 3, all Synced
#   tests/cluster/cluster.sh node-kill DIR N     SIGKILL node N (1..3)
#   tests/cluster/cluster.sh node-start DIR N... restart nodes after a
#                                               kill (IST) and wait Synced;
#                                               several start together, as
#                                               a lost primary component
#                                               needs (pc.recovery)
#   tests/cluster/cluster.sh host-kill DIR N     SIGKILL mautod host N
#                                               (master, workers, runners)
#   tests/cluster/cluster.sh host-start DIR N    start host N again
#   tests/cluster/cluster.sh hosts-restart DIR   stop every host, write
#                                               their env files again (with
#                                               DIR/host.env) and start them
#   tests/cluster/cluster.sh synced DIR N        exit 0 when node N is
#                                               Primary and Synced
#
# Every node is tests/harness/mariadb.sh with DIR/nodeN/extra.cnf (its own
# SQL, group communication, IST and SST ports on 127.0.0.1; settings of
# docs/galera.md); node 1 bootstraps the cluster (--wsrep-new-cluster),
# nodes 2 and 3 join it by SST.  Host N (tests/harness/mautod.sh in
# DIR/hostN) has host_id hN and lists the nodes starting with node
# ((N-1) mod 3)+1, so each host writes through a different node and
# fails over to the others; every host shares DIR/exports.  The database
# is migrated once through node 1 with mautoctl.
#
# Every host also has an nginx of its own (DIR/nginxN), so a test can
# send a call to one host.  DIR/host.env, when present, is added to every
# host's env file (limits, lease).  CLUSTER_HOST_PREFIX (default h) names
# the hosts' host_id when their env files are written.
#
# Files written: DIR/stack.env (MAUTO_TEST_BASE_URL and the admin client,
# as harness_stack_start writes, and CLUSTER_HOST_URLS, the hosts' own
# base URLs in order), DIR/server.env (node 1 over its socket:
# for mautoctl, harness_sql and harness_stack_start), DIR/cluster.env
# (CLUSTER_HOSTS, CLUSTER_NODE_PORTS).  Environment: CLUSTER_WORKERS
# (mautod workers per host, default 3), GALERA_EVS_OPTS (failure
# detection; empty: Galera's defaults), CLUSTER_POOL (each node's
# innodb_buffer_pool_size, default 24M: small, for the tests).
set -euo pipefail

# shellcheck source=tests/harness/env.sh
. "$(dirname "$0")/../harness/env.sh"

usage()
{
	echo "usage: ${0##*/} start DIR [HOSTS] | stop|status DIR | node-kill|node-start|host-kill|host-start|synced DIR N" >&2
	exit 2
}

[ $# -ge 2 ] || usage
verb=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)
arg=${3:-}
: "${GALERA_EVS_OPTS=evs.keepalive_period=PT0.5S;evs.suspect_timeout=PT2S;evs.inactive_timeout=PT4S;evs.install_timeout=PT3S;evs.inactive_check_period=PT0.25S;evs.join_retrans_period=PT0.25S;}"
provider=/usr/lib/galera/libgalera_smm.so
dbname=mauto_cluster
# As root the nodes run as mysql: rsync's state transfer as root would
# write the joiner's files as nobody (docs/galera.md).
run_as=$(id -un)
[ "$(id -u)" -ne 0 ] || run_as=mysql

root_sql()
{
	mariadb --no-defaults --socket="$dir/node$1/mysqld.sock" --user=root \
	    --connect-timeout=2 --batch --skip-column-names -e "$2"
}

# Free ports, chosen once: SQL, group communication, IST, SST per node.
ports()
{
	local i
	if [ ! -f "$dir/ports" ]; then
		for i in 1 2 3; do
			echo "$(harness_free_port) $(harness_free_port) $(harness_free_port) $(harness_free_port)"
		done >"$dir/ports"
	fi
	mapfile -t port_lines <"$dir/ports"
}

# node_cnf N: the Galera part of node N's my.cnf.
node_cnf()
{
	local n=$1 sql gc ist sst peers="" i
	read -r sql gc ist sst <<<"${port_lines[$((n - 1))]}"
	for i in 0 1 2; do
		peers="$peers${peers:+,}127.0.0.1:$(cut -d' ' -f2 <<<"${port_lines[$i]}")"
	done
	mkdir -p "$dir/node$n"
	cat >"$dir/node$n/extra.cnf" <<EOF
# tests/cluster/cluster.sh: node $n of a three-node Galera cluster.
skip-networking = 0
bind-address = 127.0.0.1
port = $sql
innodb-buffer-pool-size = ${CLUSTER_POOL:-24M}
max-connections = 150
wsrep-on = ON
wsrep-provider = $provider
wsrep-cluster-name = mauto_test_cluster
wsrep-cluster-address = gcomm://$peers
wsrep-node-name = node$n
wsrep-node-address = 127.0.0.1
wsrep-provider-options = "gmcast.listen_addr=tcp://127.0.0.1:$gc;ist.recv_addr=127.0.0.1:$ist;gcache.size=32M;pc.recovery=TRUE;$GALERA_EVS_OPTS"
wsrep-sst-method = rsync
wsrep-sst-receive-address = 127.0.0.1:$sst
wsrep-slave-threads = 2
wsrep-mode = REQUIRED_PRIMARY_KEY,STRICT_REPLICATION
EOF
}

status_var()
{
	root_sql "$1" "SHOW GLOBAL STATUS LIKE '$2'" 2>/dev/null | cut -f2
}

synced()
{
	[ "$(status_var "$1" wsrep_local_state)" = 4 ] &&
	    [ "$(status_var "$1" wsrep_cluster_status)" = Primary ]
}

cluster_full()
{
	local i
	for i in 1 2 3; do
		synced "$i" || return 1
		[ "$(status_var "$i" wsrep_cluster_size)" = 3 ] || return 1
	done
}

# node_start N [bootstrap]: starts node N.  After a crash the node's
# position is recovered first (--wsrep-recover, as galera_recovery does)
# so that it rejoins by IST rather than a full SST.
node_start()
{
	local n=$1 how=${2:-} args="" pos
	node_cnf "$n"
	if [ "$how" = bootstrap ]; then
		args="--wsrep-new-cluster"
	elif [ -f "$dir/node$n/data/grastate.dat" ] &&
	    grep -q '^seqno: *-1' "$dir/node$n/data/grastate.dat"; then
		# The recovery run reads my.cnf: write it as start would.
		mariadbd --defaults-file="$dir/node$n/my.cnf" --wsrep-recover \
		    --log-error="$dir/node$n/recover.log" >/dev/null 2>&1 || true
		pos=$(sed -n 's/.*WSREP: Recovered position: *\([^ ]*\).*/\1/p' \
		    "$dir/node$n/recover.log" | tail -n 1)
		[ -z "$pos" ] || args="--wsrep-start-position=$pos"
	fi
	MARIADB_ARGS=$args MARIADB_PROVISION=0 MARIADB_USER=$run_as \
	    "$HARNESS_DIR/mariadb.sh" start "$dir/node$n" >/dev/null
	harness_wait "$HARNESS_START_TIMEOUT" "node $n to be Synced" synced "$n"
}

host_env()
{
	local n=$1 hdir=$dir/host$1 first list="" i idx port
	first=$(( (n - 1) % 3 ))
	for i in 0 1 2; do
		idx=$(( (first + i) % 3 ))
		port=$(cut -d' ' -f1 <<<"${port_lines[$idx]}")
		list="$list${list:+,}127.0.0.1:$port"
	done
	mkdir -p "$hdir"
	{
		grep -v '_DB_SOCKET=' "$dir/server.env"
		echo "export MAUTO_DB_HOST='$list'"
		echo "export MAUTO_DB_CONNECT_TIMEOUT=2"
		echo "export MAUTO_DB_READ_TIMEOUT=15"
		echo "export MAUTO_DB_WRITE_TIMEOUT=15"
		echo "export MAUTO_WORKERS=${CLUSTER_WORKERS:-3}"
		echo "export MAUTO_HOST_ID=${CLUSTER_HOST_PREFIX:-h}$n"
		echo "export MAUTO_EXPORT_DIR='$dir/exports'"
		# While this file exists, runners stop after a claim (a test
		# hook: clusterlib.hold_runners).
		echo "export MAUTO_FAULT_EXPORT_HOLD='$dir/export-hold'"
		[ ! -f "$dir/host.env" ] || cat "$dir/host.env"
	} >"$hdir/env"
}

# host_start N: mautod of host N.  The caller's database variables must
# not reach it: its env file names the nodes.
host_start()
{
	(
		for v in $(compgen -e | grep -E '^MAUTO_(TEST_)?DB_'); do
			unset "$v"
		done
		"$HARNESS_DIR/mautod.sh" start "$dir/host$1"
	)
}

host_kill()
{
	local pid
	pid=$(harness_pidfile_pid "$dir/host$1/mautod.pid")
	[ -n "$pid" ] || return 0
	kill -KILL -- "-$pid" 2>/dev/null || true
	harness_wait 10 "host $1 to die" eval "! harness_pid_alive $pid"
	rm -f "$dir/host$1/mautod.sock"
}

hosts_restart()
{
	local i hosts
	ports
	hosts=$(sed -n 's/^export CLUSTER_HOSTS=//p' "$dir/cluster.env")
	for i in $(seq 1 "$hosts"); do
		"$HARNESS_DIR/mautod.sh" stop "$dir/host$i" >/dev/null
		host_env "$i"
		host_start "$i"
	done
}

start()
{
	local hosts=${arg:-2} i sockets="" pass port
	if ! command -v mariadbd >/dev/null || [ ! -f "$provider" ]; then
		harness_die "MariaDB Galera is not installed (mariadb-server, galera-4)"
	fi
	if [ "$run_as" != "$(id -un)" ]; then
		chmod 755 "$dir"
		runuser -u "$run_as" -- test -x "$dir" ||
		    harness_die "$run_as cannot reach $dir (a parent is not searchable)"
	fi
	ports
	if cluster_full; then
		harness_log "cluster already up"
	else
		node_start 1 bootstrap
		node_start 2
		node_start 3
		harness_wait "$HARNESS_START_TIMEOUT" "cluster size 3" cluster_full ||
		    harness_die "the cluster did not form"
	fi
	if [ ! -f "$dir/server.env" ]; then
		pass=$(harness_random_hex 12)
		root_sql 1 "CREATE DATABASE IF NOT EXISTS \`$dbname\`
		    CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
		    CREATE USER IF NOT EXISTS 'mauto'@'localhost' IDENTIFIED BY '$pass';
		    CREATE USER IF NOT EXISTS 'mauto'@'127.0.0.1' IDENTIFIED BY '$pass';
		    GRANT ALL PRIVILEGES ON \`mauto%\`.* TO 'mauto'@'localhost';
		    GRANT ALL PRIVILEGES ON \`mauto%\`.* TO 'mauto'@'127.0.0.1';" ||
		    harness_die "cannot create the database"
		harness_db_env "$dir/server.env" "$dir/node1/mysqld.sock" \
		    "$dbname" mauto "$pass"
		harness_migrate "$dir/server.env" >"$dir/migrate.log" 2>&1 ||
		    { cat "$dir/migrate.log" >&2; harness_die "migration failed"; }
		harness_client_create "$dir/server.env" "cluster admin" admin \
		    "$dir/client.env"
	fi
	mkdir -p "$dir/exports"
	echo "export CLUSTER_HOSTS=$hosts" >"$dir/cluster.env"
	echo "export CLUSTER_NODE_PORTS='$(cut -d' ' -f1 "$dir/ports" | tr '\n' ' ')'" \
	    >>"$dir/cluster.env"
	for i in $(seq 1 "$hosts"); do
		host_env "$i"
		host_start "$i"
		sockets="$sockets${sockets:+,}$dir/host$i/mautod.sock"
	done
	if [ ! -f "$dir/host_urls" ]; then
		for i in $(seq 1 "$hosts"); do
			port=$(harness_free_port)
			# No keepalive: the shared nginx's idle connections
			# may already pin all but one of the host's workers.
			MAUTO_WORKERS=1 \
			    HARNESS_MAX_INFLIGHT=${CLUSTER_WORKERS:-3} \
			    "$HARNESS_DIR/nginx.sh" \
			    start "$dir/nginx$i" "$port" "$dir/host$i/mautod.sock"
			printf 'http://127.0.0.1:%s ' "$port"
		done >"$dir/host_urls"
	fi
	port=$(harness_free_port)
	# Kept-alive upstream connections pin workers of whichever host they
	# go to: size them by one host's workers (deploy/nginx/mautod.conf).
	MAUTO_WORKERS=${CLUSTER_WORKERS:-3} \
	    HARNESS_MAX_INFLIGHT=$((${CLUSTER_WORKERS:-3} * hosts)) \
	    "$HARNESS_DIR/nginx.sh" start "$dir/nginx" "$port" "$sockets"
	(
		# shellcheck disable=SC1091
		. "$dir/client.env"
		printf "export MAUTO_TEST_BASE_URL='%s'\n" "http://127.0.0.1:$port"
		printf "export MAUTO_TEST_CLIENT_ID='%s'\n" "$MAUTO_CLIENT_ID"
		printf "export MAUTO_TEST_CLIENT_SECRET='%s'\n" "$MAUTO_CLIENT_SECRET"
		printf "export CLUSTER_HOST_URLS='%s'\n" "$(cat "$dir/host_urls")"
	) >"$dir/stack.env"
	harness_log "cluster stack up: $hosts hosts, nginx on 127.0.0.1:$port"
}

stop()
{
	local i
	"$HARNESS_DIR/nginx.sh" stop "$dir/nginx" >/dev/null 2>&1 || true
	for i in 1 2 3; do
		[ ! -d "$dir/nginx$i" ] ||
		    "$HARNESS_DIR/nginx.sh" stop "$dir/nginx$i" >/dev/null 2>&1
		[ -d "$dir/host$i" ] &&
		    "$HARNESS_DIR/mautod.sh" stop "$dir/host$i" >/dev/null 2>&1
	done
	# The bootstrap node last, so that it is the one safe to bootstrap.
	for i in 3 2 1; do
		[ -d "$dir/node$i" ] &&
		    "$HARNESS_DIR/mariadb.sh" stop "$dir/node$i" >/dev/null 2>&1
	done
	return 0
}

node_number()
{
	case $arg in
	1 | 2 | 3) ;;
	*) usage ;;
	esac
}

case $verb in
start)
	# A port chosen free may be taken by another process before the
	# node binds it (other test runs share the machine): a fresh
	# directory is emptied and the stack started once more, on new ports.
	if [ -f "$dir/ports" ]; then
		start
	elif ! bash "${BASH_SOURCE[0]}" start-once "$dir" ${arg:+"$arg"}; then
		harness_log "start failed; once more on other ports"
		stop >/dev/null 2>&1 || true
		find "$dir" -mindepth 1 -maxdepth 1 ! -name host.env ! -name start.log \
		    -exec rm -rf {} +
		start
	fi
	;;
start-once) start ;;
stop) stop ;;
status) ports; cluster_full ;;
node-kill) node_number; "$HARNESS_DIR/mariadb.sh" kill "$dir/node$arg" ;;
node-start)
	shift 2
	ports
	pids=()
	for arg in "$@"; do
		node_number
		node_start "$arg" &
		pids+=($!)
	done
	[ "${#pids[@]}" -gt 0 ] || usage
	rc=0
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	exit "$rc"
	;;
host-kill) node_number; host_kill "$arg" ;;
host-start) node_number; host_start "$arg" ;;
hosts-restart) hosts_restart ;;
synced) node_number; synced "$arg" ;;
*) usage ;;
esac
