#!/usr/bin/env bash
# The cluster suite of tests/bench/run (BENCH_SUITE=cluster): the cost of
# Galera and of more hosts, measured in one run on one machine.
#
#   tests/bench/cluster_bench.sh        (tests/bench/run calls it)
#
# Starts a single private MariaDB with one mautod host and nginx
# (tests/harness) and a second host on it over TCP, and tests/cluster/cluster.sh's three-node Galera
# cluster with three mautod hosts; every host has BENCH_CLUSTER_WORKERS
# workers (default 4), no API limits.  Both databases get the same
# BENCH_CLUSTER_LEADS leads (default 10,000, ids 1..N, by SQL).  Then, for
# each target -- single (one host on the single server, over its Unix
# socket), tcp (one host on the single server over TCP, as the cluster's
# hosts reach their nodes), and 1, 2 and 3
# hosts over the cluster (nginx over host 1; hosts 1-2; hosts 1-3, each
# host on its own node) -- two wrk passes of BENCH_DURATION (default 5s),
# every server with an innodb_buffer_pool_size of BENCH_CLUSTER_POOL
# (default 256M):
# Get Lead by Id of a random lead (tests/bench/leads_get.lua, BENCH_GET_CONNS
# connections, default 8) and Sync Leads of 300 new leads a request
# (tests/bench/leads_sync.lua, BENCH_SYNC_CONNS connections, default 2);
# every target in turn, BENCH_CLUSTER_ROUNDS times (default 3), each
# figure the median of its rounds.  The ratios are to the single server
# (over its socket, and over TCP).  Last, the recovery after a node
# kill: one client a host syncs one new lead a call; node 2 is killed
# with SIGKILL; the recovery time is from the kill to the first half
# second whose calls reach 90% of the rate before it.
#
# Every pass also reads the CPU time it took, of the whole machine and of
# each database server (the single one, nodes 1-3), and the report gives
# it per request: on this machine every server shares the same cores,
# so a node's work is every other's loss, and the per-node figures show
# what each would cost on a machine of its own.
#
# Prints markdown on stdout.  Exits 1 when a setup step fails.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/env.sh
. "$here/../harness/env.sh"

workers=${BENCH_CLUSTER_WORKERS:-4}
leads=${BENCH_CLUSTER_LEADS:-10000}
duration=${BENCH_DURATION:-5s}
get_conns=${BENCH_GET_CONNS:-8}
sync_conns=${BENCH_SYNC_CONNS:-2}
sync_conns=${sync_conns%% *}
rounds=${BENCH_CLUSTER_ROUNDS:-3}
# The single server and every node get the same buffer pool, big enough
# for the lead table the sync passes grow, so that the ratios compare
# Galera with one server and not two cache sizes.
pool=${BENCH_CLUSTER_POOL:-256M}

work=$(mktemp -d "${TMPDIR:-/tmp}/mauto-cluster-bench.XXXXXX")
chmod 755 "$work"
cleanup()
{
	"$HARNESS_DIR/nginx.sh" stop "$work/nginx12" >/dev/null 2>&1 || true
	"$HARNESS_DIR/nginx.sh" stop "$work/nginxt" >/dev/null 2>&1 || true
	"$HARNESS_DIR/mautod.sh" stop "$work/tcp" >/dev/null 2>&1 || true
	harness_stack_stop "$work/single" >/dev/null 2>&1 || true
	"$HARNESS_DIR/mariadb.sh" stop "$work/db" >/dev/null 2>&1 || true
	"$MAUTO_SRCDIR/tests/cluster/cluster.sh" stop "$work/cluster" \
	    >/dev/null 2>&1 || true
	[ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
for v in $(compgen -e | grep -E '^MAUTO_(TEST_)?DB_'); do
	unset "$v"
done

load_leads()
{
	harness_sql "$1" "USE \`$2\`;
	    INSERT INTO lead (id, email, firstName, lastName, company,
	    createdAt, updatedAt)
	    SELECT seq, CONCAT('lead', LPAD(seq, 7, '0'), '@bench.example.com'),
	    CONCAT('First', seq), CONCAT('Last', seq), CONCAT('Company ', seq % 500),
	    TIMESTAMP'2024-01-01 00:00:00', TIMESTAMP'2024-06-01 00:00:00'
	    FROM seq_1_to_$leads" || harness_die "cannot load the leads"
}

harness_log "single server and one host"
# The server also listens on TCP, as a server on its own machine would:
# the cluster's hosts reach their nodes over TCP, the first single host
# over the Unix socket.
db_port=$(harness_free_port)
mkdir -p "$work/db"
printf 'skip-networking = 0\nbind-address = 127.0.0.1\nport = %s\ninnodb-buffer-pool-size = %s\n' \
    "$db_port" "$pool" >"$work/db/extra.cnf"
"$HARNESS_DIR/mariadb.sh" start "$work/db" >/dev/null
db_user=$(. "$work/db/env"; echo "$MAUTO_DB_USER")
mariadb --no-defaults --socket="$work/db/mysqld.sock" --user=root -e "
    CREATE USER IF NOT EXISTS '$db_user'@'127.0.0.1'
    IDENTIFIED BY '$(cat "$work/db/password")';
    GRANT ALL PRIVILEGES ON \`mauto%\`.* TO '$db_user'@'127.0.0.1';" ||
    harness_die "cannot let the database user in over TCP"
harness_stack_start "$work/single" "$work/db/env" MAUTO_WORKERS="$workers" \
    MAUTO_RATE_LIMIT_CALLS=0 MAUTO_DAILY_QUOTA=0 MAUTO_CONCURRENCY_LIMIT=0
load_leads "$work/single/env" "$(. "$work/single/env"; echo "$MAUTO_DB_NAME")"
single_url=$(. "$work/single/stack.env"; echo "$MAUTO_TEST_BASE_URL")
# A second host on the same database over TCP, behind its own nginx.
mkdir -p "$work/tcp"
{
	grep -v '_DB_SOCKET=' "$work/single/env"
	echo "export MAUTO_DB_HOST='127.0.0.1:$db_port'"
} >"$work/tcp/env"
"$HARNESS_DIR/mautod.sh" start "$work/tcp" >/dev/null
port=$(harness_free_port)
MAUTO_WORKERS=$workers "$HARNESS_DIR/nginx.sh" start "$work/nginxt" "$port" \
    "$work/tcp/mautod.sock"
tcp_url=http://127.0.0.1:$port

harness_log "three-node cluster and three hosts"
mkdir -p "$work/cluster"
printf 'export MAUTO_RATE_LIMIT_CALLS=0\nexport MAUTO_DAILY_QUOTA=0\nexport MAUTO_CONCURRENCY_LIMIT=0\n' \
    >"$work/cluster/host.env"
CLUSTER_WORKERS=$workers CLUSTER_POOL=$pool \
    "$MAUTO_SRCDIR/tests/cluster/cluster.sh" start \
    "$work/cluster" 3 >/dev/null
load_leads "$work/cluster/server.env" mauto_cluster
# shellcheck disable=SC1091
. "$work/cluster/stack.env"
read -r host1_url _ <<<"$CLUSTER_HOST_URLS"
port=$(harness_free_port)
MAUTO_WORKERS=$workers "$HARNESS_DIR/nginx.sh" start "$work/nginx12" "$port" \
    "$work/cluster/host1/mautod.sock,$work/cluster/host2/mautod.sock"
hosts12_url=http://127.0.0.1:$port
hosts123_url=$MAUTO_TEST_BASE_URL
cluster_client=("$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET")
single_client=("$(. "$work/single/stack.env"; echo "$MAUTO_TEST_CLIENT_ID")"
    "$(. "$work/single/stack.env"; echo "$MAUTO_TEST_CLIENT_SECRET")")

# The CPU time of the machine and of each database server, in clock
# ticks, one line: "busy single node1 node2 node3".  busy is every CPU's
# time outside idle and iowait (/proc/stat); the others are each
# mariadbd's user and system time, all its threads (/proc/PID/stat).
db_pids=("$(harness_pidfile_pid "$work/db/mariadb.pid")")
for n in 1 2 3; do
	db_pids+=("$(harness_pidfile_pid "$work/cluster/node$n/mariadb.pid")")
done
cpu_now()
{
	local pid line
	awk '$1 == "cpu" { printf "%d", $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
	for pid in "${db_pids[@]}"; do
		line=$(cat "/proc/$pid/stat" 2>/dev/null) || line=
		line=${line##*) }
		# shellcheck disable=SC2086
		set -- $line
		printf ' %d' "$(( ${12:-0} + ${13:-0} ))"
	done
	echo
}

# pass URL TOKEN CONNS SCRIPT ARGS...: one wrk pass; prints its BENCH line
# with the CPU ticks the pass took (cpu=busy,single,node1,node2,node3).
pass()
{
	local url=$1 token=$2 c=$3 script=$4
	shift 4
	# The warm-up's new leads must not be the pass's (they would be
	# "updated", which leads_sync.lua counts as errors).
	local -a warm=("$@")
	[ "$script" != leads_sync.lua ] || warm[1]=${warm[1]}w
	wrk -t"$((c < 2 ? c : 2))" -c"$c" -d1s -H "Authorization: Bearer $token" \
	    -s "$here/$script" "$url" -- "${warm[@]}" >/dev/null 2>&1 || true
	local before after line
	before=$(cpu_now)
	line=$(wrk -t"$((c < 2 ? c : 2))" -c"$c" -d"$duration" --timeout 10s \
	    --latency -H "Authorization: Bearer $token" -s "$here/$script" \
	    "$url" -- "$@" 2>&1 | grep '^BENCH ') ||
	    harness_die "wrk gave no result for $url"
	after=$(cpu_now)
	echo "$line cpu=$(paste -d- <(tr ' ' '\n' <<<"$after") \
	    <(tr ' ' '\n' <<<"$before") | bc | paste -sd,)"
}

# per FIELD N LINE SCALE: CPU field N (1 busy, 2 single, 3-5 nodes) of a
# pass's BENCH line, per request, in ticks * SCALE (a tick is 1/CLK_TCK s).
tck=$(getconf CLK_TCK)
per()
{
	local cpu req
	cpu=$(field cpu "$2" | cut -d, -f"$1")
	req=$(field requests "$2")
	awk -v c="$cpu" -v r="$req" -v s="$3" -v t="$tck" \
	    'BEGIN { printf "%.3f", (r > 0 ? c * s / t / r : 0) }'
}

field() { sed -n "s/.* $1=\\([^ ]*\\).*/\\1/p" <<<"$2"; }

# med LIST: the median of a list of numbers (the lower one of an even count).
med() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# span LIST: "min-max" of a list of numbers, rounded.
span() { tr ' ' '\n' | grep . | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.0f-%.0f", lo, hi }'; }

# Rounds of every target in turn, so that the machine's other load falls
# on all of them alike; each figure is the median of its rounds.
declare -A get_l sync_l getp_l syncp_l errs gcpu_l scpu_l
n=0
for round in $(seq 1 "$rounds"); do
	for target in single tcp 1 2 3; do
		case $target in
		single) url=$single_url; client=("${single_client[@]}") ;;
		tcp) url=$tcp_url; client=("${single_client[@]}") ;;
		1) url=$host1_url; client=("${cluster_client[@]}") ;;
		2) url=$hosts12_url; client=("${cluster_client[@]}") ;;
		3) url=$hosts123_url; client=("${cluster_client[@]}") ;;
		esac
		token=$(harness_token "$url" "${client[@]}")
		harness_log "passes: round $round, $target"
		line=$(pass "${url}/rest/v1/lead/1.json" "$token" "$get_conns" \
		    leads_get.lua id "$leads")
		get_l[$target]+=" $(field rps "$line")"
		getp_l[$target]+=" $(field p50_us "$line")"
		# CPU per read in microseconds: the machine, then each server.
		for f in 1 2 3 4 5; do
			gcpu_l[$target.$f]+=" $(per $f "$line" 1000000)"
		done
		e=$(( $(field http_errors "$line") + $(field socket_errors "$line") ))
		n=$((n + 1))
		line=$(pass "$url/rest/v1/leads.json" "$token" "$sync_conns" \
		    leads_sync.lua new "c${n}x$(harness_random_hex 3)")
		sync_l[$target]+=" $(field rps "$line")"
		syncp_l[$target]+=" $(field p50_us "$line")"
		# CPU per sync in milliseconds.
		for f in 1 2 3 4 5; do
			scpu_l[$target.$f]+=" $(per $f "$line" 1000)"
		done
		errs[$target]=$(( ${errs[$target]:-0} + e +
		    $(field http_errors "$line") + $(field socket_errors "$line") ))
	done
done
declare -A get_rps sync_rps get_p50 sync_p50 gcpu scpu
for target in single tcp 1 2 3; do
	for f in 1 2 3 4 5; do
		gcpu[$target.$f]=$(med <<<"${gcpu_l[$target.$f]}")
		scpu[$target.$f]=$(med <<<"${scpu_l[$target.$f]}")
	done
	get_rps[$target]=$(med <<<"${get_l[$target]}")
	sync_rps[$target]=$(med <<<"${sync_l[$target]}")
	get_p50[$target]=$(med <<<"${getp_l[$target]}")
	sync_p50[$target]=$(med <<<"${syncp_l[$target]}")
done

harness_log "recovery after a node kill"
recovery=$(CLUSTER_DIR=$work/cluster \
    PYTHONPATH=$MAUTO_SRCDIR/tests/cluster python3 - <<'PY'
import threading, time
from clusterlib import HOSTS, cluster, sync_leads

stop = threading.Event()
ok_times = []
lock = threading.Lock()
def client(h):
    i = 0
    while not stop.is_set():
        st, doc, _ = sync_leads(HOSTS[h], [{'email': 'rb%d-%d-%d@example.com'
                                            % (h, i, time.time())}])
        i += 1
        if doc and doc.get('success'):
            with lock:
                ok_times.append(time.monotonic())
th = [threading.Thread(target=client, args=(h,)) for h in range(len(HOSTS))]
for t in th:
    t.start()
time.sleep(4)
t_kill = time.monotonic()
cluster('node-kill', 2)
time.sleep(10)
stop.set()
for t in th:
    t.join()
before = [t for t in ok_times if t_kill - 3 <= t < t_kill]
rate = len(before) / 3.0
rec = None
b = t_kill
while b + 0.5 <= t_kill + 10:
    n = sum(1 for t in ok_times if b <= t < b + 0.5)
    if n >= 0.9 * rate * 0.5:
        rec = b + 0.5 - t_kill
        break
    b += 0.5
print('%.1f %.0f' % (rec if rec is not None else -1, rate))
PY
)
"$MAUTO_SRCDIR/tests/cluster/cluster.sh" node-start "$work/cluster" 2 >/dev/null

r() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# tname TARGET: the target's name in the tables.
tname()
{
	case $1 in
	single) echo "single server, 1 host" ;;
	tcp) echo "single server over TCP, 1 host" ;;
	*) echo "Galera, $1 host$([ "$1" = 1 ] || echo s)" ;;
	esac
}
# nodes ARRAY TARGET: the three nodes' figures of a target, summed.
nodes()
{
	local -n a=$1
	awk -v x="${a[$2.3]}" -v y="${a[$2.4]}" -v z="${a[$2.5]}" \
	    'BEGIN { print x + y + z }'
}
echo "### Cluster: Galera and hosts (BENCH_SUITE=cluster)"
echo
echo "$leads leads; $workers workers a host; Get Lead by Id at $get_conns connections,"
echo "Sync Leads (300 new leads a request) at $sync_conns; passes of $duration."
echo
echo "Medians of $rounds rounds (every target in turn each round); ratios to the"
echo "single server over its socket, and (TCP) over TCP."
echo
echo "| target | Get Lead by Id req/s | p50 ms | ratio | (TCP) | Sync Leads req/s | leads/s | p50 ms | ratio | (TCP) | errors |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for target in single tcp 1 2 3; do
	name=$(tname "$target")
	printf '| %s | %.0f | %.2f | %s | %s | %.1f | %.0f | %.1f | %s | %s | %s |\n' "$name" \
	    "${get_rps[$target]}" "$(r "${get_p50[$target]}" 1000)" \
	    "$(r "${get_rps[$target]}" "${get_rps[single]}")" \
	    "$(r "${get_rps[$target]}" "${get_rps[tcp]}")" \
	    "${sync_rps[$target]}" "$(awk -v a="${sync_rps[$target]}" 'BEGIN { print a * 300 }')" \
	    "$(r "${sync_p50[$target]}" 1000)" \
	    "$(r "${sync_rps[$target]}" "${sync_rps[single]}")" \
	    "$(r "${sync_rps[$target]}" "${sync_rps[tcp]}")" "${errs[$target]}"
done
echo
echo "Get Lead by Id req/s, lowest-highest of the rounds:"
for target in single tcp 1 2 3; do
	printf ' %s %s;' "$target" "$(span <<<"${get_l[$target]}")"
done
echo
echo
echo "CPU time per request (medians of the rounds; user and system time, all"
echo "threads): the whole machine's, and each database server's.  \"Node 1\""
echo "serves the first host's reads and writes; with two and three hosts each"
echo "node serves one.  With every server on these $(nproc) cores, a request's"
echo "cost is the sum of the columns; on a cluster of machines each node's"
echo "column is paid on its own."
echo
echo "| target | Get: machine µs | database µs | node 1 | node 2 | node 3 | Sync: machine ms | database ms | node 1 | node 2 | node 3 |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for target in single tcp 1 2 3; do
	name=$(tname "$target")
	if [ "$target" = single ] || [ "$target" = tcp ]; then
		printf '| %s | %.0f | %.0f | | | | %.1f | %.1f | | | |\n' "$name" \
		    "${gcpu[$target.1]}" "${gcpu[$target.2]}" \
		    "${scpu[$target.1]}" "${scpu[$target.2]}"
	else
		printf '| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.1f | %.1f | %.1f | %.1f | %.1f |\n' \
		    "$name" "${gcpu[$target.1]}" "$(nodes gcpu "$target")" \
		    "${gcpu[$target.3]}" "${gcpu[$target.4]}" "${gcpu[$target.5]}" \
		    "${scpu[$target.1]}" "$(nodes scpu "$target")" \
		    "${scpu[$target.3]}" "${scpu[$target.4]}" "${scpu[$target.5]}"
	fi
done
echo
echo "Galera's cost on the node that serves (one host: the single server's"
echo "database CPU per request against node 1's): reads $(r "${gcpu[single.2]}" "${gcpu[1.3]}"),"
echo "syncs $(r "${scpu[single.2]}" "${scpu[1.3]}"); the other nodes' apply per sync:"
echo "$(r "${scpu[1.4]}" "${scpu[single.2]}") and $(r "${scpu[1.5]}" "${scpu[single.2]}") of the single server's database CPU."
echo
read -r rec rate <<<"$recovery"
echo "Node kill under load (one client a host, one new lead a call, $rate calls/s"
echo "before): full throughput again ${rec} s after the SIGKILL (-1: not within 10 s)."
