#!/usr/bin/env bash
# The engine suite of tests/bench/run (BENCH_SUITE=engine): the campaign
# engine's trigger latency, batch throughput against a ceiling measured
# in the same run, and Send Email through the test relay (README "The
# engine suite").
#
#   tests/bench/engine_bench.sh        (tests/bench/run calls it)
#
# A private MariaDB (its buffer pool raised to BENCH_ENGINE_POOL, 1G) and
# a stack as the HTTP tests build it: mautod with 8 workers behind
# nginx and one campaign runner,
# engine_clock_control on, limits off, smtp_url the relay
# (tests/harness/smtpd.sh, accept).  Leads are loaded by SQL in three
# ranges told apart by company: the batch's BENCH_ENGINE_LEADS (100,000),
# the trigger passes' (one per write) and BENCH_ENGINE_MAILS (10,000).
#
# 1. Trigger latency.  A campaign triggered by Added to List (list one)
#    whose flow is one Interesting Moment.  tests/bench/engine_trigger.py
#    adds one new lead a call to list one at 1 write/s for
#    BENCH_ENGINE_SLOW_SECS (30) and at 100 writes/s for
#    BENCH_ENGINE_FAST_SECS (10).  Latency: the Interesting Moment's
#    activity date (DATETIME(3), written by the runner from this host's
#    clock) minus the time the writer read the write's reply.  Target:
#    p99 under 1 s at both rates.
# 2. Batch.  A batch campaign whose smart list keeps the batch's leads
#    (Company is ...) with three steps: Change Data Value (Job Title), Add
#    to List (list two), Interesting Moment.  Schedule Campaign, then
#    mautoctl clock advance 6m starts it; the time is from the advance to
#    the run's status done (polled every 0.1 s).  The runner's VmRSS
#    before and after, and its VmHWM.
# 3. Ceiling.  The same rows written by plain multi-row SQL on one
#    connection into copies of the tables (CREATE TABLE ... LIKE, the
#    same rows as before the batch; the leads' copy is made before the
#    batch, so its rows grow as the batch's do): per page of 1,000 leads (the
#    engine's batch page) one transaction of an UPDATE of the leads'
#    title and updatedAt, one INSERT ... SELECT of the list members and
#    one of the 3,000 activities (copies of the batch's own three
#    activities, so the same types, values and attribute texts).  Target:
#    the batch's leads/s >= 0.5 of the ceiling's.  A second ceiling, for
#    reference, writes the engine's own rows too (the run's lead rows,
#    the qualifications, the campaign memberships).
# 4. Send Email.  An email approved in the program, a batch campaign
#    whose smart list keeps the mail leads, one Send Email step; from the
#    clock's advance to the relay's last message, messages/s; then the
#    relay's count per recipient (each exactly once).
#
# Prints markdown on stdout.  Exits 1 when a setup step fails.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/harness/env.sh
. "$here/../harness/env.sh"

nbatch=${BENCH_ENGINE_LEADS:-100000}
nmail=${BENCH_ENGINE_MAILS:-10000}
slow_secs=${BENCH_ENGINE_SLOW_SECS:-30}
fast_secs=${BENCH_ENGINE_FAST_SECS:-10}
pool=${BENCH_ENGINE_POOL:-1G}
page=1000
nslow=$slow_secs
nfast=$((fast_secs * 100))
ntrig=$((nslow + nfast))
# Lead id ranges: batch 1..nbatch, trigger after it, mail after that.
trig0=$((nbatch + 1))
mail0=$((nbatch + ntrig + 1))
nall=$((nbatch + ntrig + nmail))

work=$(mktemp -d "${TMPDIR:-/tmp}/mauto-engine-bench.XXXXXX")
chmod 755 "$work"
cleanup()
{
	harness_stack_stop "$work/stack" >/dev/null 2>&1 || true
	"$HARNESS_DIR/smtpd.sh" stop "$work/relay" >/dev/null 2>&1 || true
	"$HARNESS_DIR/mariadb.sh" stop "$work/db" >/dev/null 2>&1 || true
	[ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
for v in $(compgen -e | grep -E '^MAUTO_(TEST_)?DB_'); do
	unset "$v"
done

now_ms() { date +%s%3N; }

# db SQL: runs SQL in the stack's database (tab-separated, no names).
db()
{
	(
		# shellcheck disable=SC1091
		. "$work/stack/env"
		MYSQL_PWD=$MAUTO_DB_PASSWORD mariadb --no-defaults \
		    --socket="$MAUTO_DB_SOCKET" --user="$MAUTO_DB_USER" \
		    --batch --skip-column-names "$MAUTO_DB_NAME" \
		    -e "SET time_zone = '+00:00'; $1"
	)
}

# call METHOD PATH [JSON]: one API call; the answer is in $work/out.
call()
{
	curl -sS --max-time 60 -X "$1" -H "Authorization: Bearer $token" \
	    -H 'Content-Type: application/json' ${3:+--data-binary "$3"} \
	    "$url$2" >"$work/out"
}

# form METHOD PATH CURL-ARGS...: a form call; the answer in $work/out.
form()
{
	local m=$1 p=$2
	shift 2
	curl -sS --max-time 60 -X "$m" -H "Authorization: Bearer $token" \
	    "$@" "$url$p" >"$work/out"
}

# get PATH: prints the value at PATH of the last answer, or dies.
get()
{
	harness_json_get "$1" <"$work/out" ||
	    harness_die "unexpected answer ($1): $(head -c 400 "$work/out")"
}

# py EXPR: prints the Python expression EXPR of the last answer d, or dies.
py()
{
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$work/out" "$1" ||
	    harness_die "unexpected answer ($1): $(head -c 400 "$work/out")"
}

# ok WHAT: dies unless the last answer has success true.
ok()
{
	[ "$(get success)" = true ] ||
	    harness_die "$1: $(head -c 400 "$work/out")"
}

# campaign NAME FILTER_COMPANY: a campaign in the program, a Company is
# FILTER_COMPANY filter when given; sets camp and sl.
campaign()
{
	local rule
	form POST /rest/asset/v1/smartCampaigns.json --data-urlencode "name=$1" \
	    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
	camp=$(get 'result[0].id')
	sl=$(get 'result[0].smartListId')
	[ -n "$2" ] || return 0
	form POST "/rest/asset/v1/smartList/$sl/rules.json" \
	    --data-urlencode "ruleId={\"id\":$company,\"type\":\"attribute\"}" \
	    -d index=1
	rule=$(get 'result[0].rules.filters[0].id')
	form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
	    --data-urlencode "attributeId={\"id\":$company,\"type\":\"attribute\"}" \
	    --data-urlencode "values=$2" -d operator=is
	ok "the filter Company is $2"
}

# step TYPE INDEX ATTRIBUTES: a flow step of camp with its default
# choice's attributes.
step()
{
	local s c
	form POST "/rest/asset/v1/smartCampaign/$camp/flows.json" \
	    --data-urlencode "activityType={\"id\":$1,\"type\":\"activity\"}" \
	    -d "index=$2"
	s=$(py "d['result'][0]['flow']['steps'][$2]['id']")
	c=$(py "d['result'][0]['flow']['steps'][$2]['stepChoice'][-1]['id']")
	form POST "/rest/asset/v1/smartCampaign/$camp/flow/$s/choice/$c.json" \
	    --data-urlencode "attributes=$3"
	ok "step $1 of campaign $camp"
}

# runner FIELD: the campaign runner's FIELD (VmRSS, VmHWM) in KiB.
runner()
{
	local pid
	pid=$(ps -o pid=,comm= --ppid "$master" |
	    awk '$2 == "mautod-campaign" { print $1; exit }')
	[ -n "$pid" ] || { echo "?"; return 0; }
	awk -v f="$1:" '$1 == f { print $2 }' "/proc/$pid/status"
}

# cpu_ms PID: the process's CPU time (user and system, all threads) in ms,
# or 0 when it is gone.
cpu_ms()
{
	local tck
	tck=$(getconf CLK_TCK)
	awk -v t="$tck" '{ sub(/^.*\) /, ""); print int(($12 + $13) * 1000 / t) }' \
	    "/proc/$1/stat" 2>/dev/null || echo 0
}

# runner_pid: the campaign runner's pid, or empty.
runner_pid()
{
	ps -o pid=,comm= --ppid "$master" |
	    awk '$2 == "mautod-campaign" { print $1; exit }'
}

# slow_shapes LOG: the server's time in the slow log LOG by statement
# shape (values masked), most first, as markdown rows per batch lead.
slow_shapes()
{
	python3 - "$1" "$nbatch" <<'EOF'
import collections, re, sys
t = collections.Counter()
n = collections.Counter()
qt = None
buf = []
def flush():
    global buf
    if qt is not None and buf:
        q = " ".join(buf)
        q = re.sub(r"'(?:[^'\\]|\\.)*'", "?", q)
        q = re.sub(r"\b\d+(\.\d+)?\b", "?", q)
        q = re.sub(r"(\?\s*,\s*)+\?", "?..", q)
        q = re.sub(r"(\([^()]*\)\s*,\s*)+\(", "(..),(", q)
        t[q[:120]] += qt
        n[q[:120]] += 1
    buf = []
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"# Query_time: ([\d.]+)", line)
    if m:
        flush()
        qt = float(m.group(1))
        continue
    if line.startswith(("#", "SET timestamp", "use ")):
        continue
    buf.append(line.strip())
flush()
lead = int(sys.argv[2])
for q, s in t.most_common(25):
    print("| %.1f | %.1f | %.3f | `%s` |" % (s, s * 1e6 / lead,
        n[q] / lead, q.replace("|", "\\|")))
EOF
}

# wait_sql SQL WANT SECS: polls SQL every 0.1 s until it prints WANT;
# fails after SECS.
wait_sql()
{
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		[ "$(db "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# counters: the server's statement and transaction counters, one
# "name value" a line (as root: they are global).
counters()
{
	root "SHOW GLOBAL STATUS WHERE
		    Variable_name IN ('Questions', 'Com_stmt_execute',
		    'Com_select', 'Com_insert', 'Com_insert_select',
		    'Com_update', 'Com_delete',
		    'Com_begin', 'Com_commit', 'Com_rollback')"
}

# per_lead BEFORE AFTER N: the counters' growth from file BEFORE to file
# AFTER divided by N, as "name x.x" pairs on one line.
per_lead()
{
	awk -v n="$3" 'NR == FNR { a[$1] = $2; next }
	    { printf "%s%s %.3f", sep, $1, ($2 - a[$1]) / n; sep = ", " }
	    END { print "" }' "$1" "$2"
}

# cols TABLE: TABLE's stored columns (not generated), comma-separated.
cols()
{
	db "SELECT GROUP_CONCAT(CONCAT('\`', column_name, '\`') ORDER BY
	    ordinal_position) FROM information_schema.columns WHERE
	    table_schema = DATABASE() AND table_name = '$1' AND
	    extra NOT LIKE '%GENERATED%'"
}

# root SQL: runs SQL as root on the private server.
root()
{
	(
		# shellcheck disable=SC1091
		. "$work/db/env"
		mariadb --no-defaults --socket="$MAUTO_DB_SOCKET" --user=root \
		    --batch --skip-column-names -e "$1"
	)
}

# ---- setup ------------------------------------------------------------------
"$HARNESS_DIR/mariadb.sh" start "$work/db" >/dev/null
root "SET GLOBAL innodb_buffer_pool_size = $(numfmt --from=iec "$pool")" ||
    harness_die "cannot set innodb_buffer_pool_size"
relay_port=$("$HARNESS_DIR/smtpd.sh" start "$work/relay" accept) ||
    harness_die "the relay did not start (python3-aiosmtpd?)"
harness_stack_start "$work/stack" "$work/db/env" MAUTO_WORKERS=8 \
    MAUTO_RATE_LIMIT_CALLS=0 \
    MAUTO_DAILY_QUOTA=0 MAUTO_CONCURRENCY_LIMIT=0 MAUTO_LOG_LEVEL=error \
    MAUTO_ENGINE_CLOCK_CONTROL=true MAUTO_CAMPAIGN_RUNNERS=1 \
    MAUTO_SMTP_URL="smtp://127.0.0.1:$relay_port" MAUTO_SMTP_STARTTLS=none \
    MAUTO_SMTP_FROM=bench@bench.example.com
# shellcheck disable=SC1091
url=$(. "$work/stack/stack.env"; echo "$MAUTO_TEST_BASE_URL")
token=$(
	# shellcheck disable=SC1091
	. "$work/stack/stack.env"
	harness_token "$url" "$MAUTO_TEST_CLIENT_ID" "$MAUTO_TEST_CLIENT_SECRET"
) || harness_die "no token"
master=$(harness_pidfile_pid "$work/stack/mautod.pid")
ctl() { harness_ctl "$work/stack/env" "$@"; }

harness_log "loading $nall leads"
lo=1
while [ "$lo" -le "$nall" ]; do
	hi=$((lo + 99999 > nall ? nall : lo + 99999))
	db "INSERT INTO lead (id, email, firstName, lastName, company,
	    createdAt, updatedAt) SELECT seq,
	    CONCAT('lead', LPAD(seq, 7, '0'), '@bench.example.com'),
	    CONCAT('First', seq), CONCAT('Last', seq),
	    IF(seq <= $nbatch, 'EngBatch', IF(seq < $mail0, 'EngTrig',
	    'EngMail')), TIMESTAMP'2024-01-01 00:00:00',
	    TIMESTAMP'2024-06-01 00:00:00' FROM seq_${lo}_to_$hi" ||
	    harness_die "cannot load leads $lo..$hi"
	lo=$((hi + 1))
done
db "ANALYZE TABLE lead" >/dev/null

prog=$(ctl program create --name "Engine bench") ||
    harness_die "mautoctl program create failed"
list1=$(ctl list create --name "Engine trigger list") ||
    harness_die "mautoctl list create failed"
list2=$(ctl list create --name "Engine batch list") ||
    harness_die "mautoctl list create failed"
call GET /rest/v1/leads/describe.json
company=$(py "[f['id'] for f in d['result'] if f['rest']['name'] == 'company'][0]")

# ---- 1. trigger latency -----------------------------------------------------
campaign "Engine trigger" ""
trig=$camp
form POST "/rest/asset/v1/smartList/$sl/rules.json" \
    --data-urlencode 'ruleId={"id":24,"type":"activity"}' -d index=1 \
    -d trigger=true
rule=$(get 'result[0].rules.triggers[0].id')
form POST "/rest/asset/v1/smartList/$sl/rule/$rule.json" \
    --data-urlencode 'attributeId={"id":1,"type":"activity"}' \
    --data-urlencode "values=Engine trigger list"
ok "the trigger Added to List"
step 46 0 '{"1":"Milestone","2":"Triggered"}'
form POST "/rest/asset/v1/smartCampaign/$trig/activate.json" -F "id=$trig"
ok "the trigger campaign activates"

# latency FIRST COUNT RATE: one writer pass at RATE writes/s; prints its
# table row.
latency()
{
	local first=$1 n=$2 rate=$3 name=r$3 got
	got=$(python3 "$here/engine_trigger.py" "$url" "$token" "$list1" \
	    "$first" "$n" "$rate" "$work/w.$name") ||
	    harness_die "the trigger writer failed"
	wait_sql "SELECT COUNT(*) FROM activity WHERE campaign_id = $trig
	    AND activity_type_id = 46 AND lead_id BETWEEN $first AND
	    $((first + n - 1))" "$(awk '$2 != 0' "$work/w.$name" | wc -l)" 60 ||
	    harness_log "$rate/s: not every write ran within 60 s"
	db "SELECT lead_id, CAST(UNIX_TIMESTAMP(activity_date) * 1000 AS
	    DECIMAL(16, 3)) FROM activity WHERE campaign_id = $trig AND
	    activity_type_id = 46 AND lead_id BETWEEN $first AND
	    $((first + n - 1))" >"$work/a.$name"
	python3 - "$work/w.$name" "$work/a.$name" "$rate" "$got" <<'EOF'
import sys
writes = dict(l.split() for l in open(sys.argv[1]))
acts = dict(l.split() for l in open(sys.argv[2]))
errors = sum(1 for t in writes.values() if float(t) == 0)
lat = sorted(float(acts[k]) - float(t) for k, t in writes.items()
             if float(t) != 0 and k in acts)
missing = len(writes) - errors - len(lat)
def pct(p):
    return lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")
print("| %s | %d | %s | %d | %d | %.0f | %.0f | %.0f | %s |" % (
    sys.argv[3] + "/s", len(writes), sys.argv[4], errors, missing, pct(0.50),
    pct(0.99), lat[-1] if lat else float("nan"),
    "yes" if lat and pct(0.99) < 1000 and missing == 0 and errors == 0
    else "no"))
EOF
}

harness_log "trigger latency: $nslow writes at 1/s, $nfast at 100/s"
row_slow=$(latency "$trig0" "$nslow" 1)
row_fast=$(latency "$((trig0 + nslow))" "$nfast" 100)
form POST "/rest/asset/v1/smartCampaign/$trig/deactivate.json"

# ---- 2. batch ---------------------------------------------------------------
campaign "Engine batch" EngBatch
batch=$camp
step 13 0 '{"1":"Job Title","2":"Engine bench"}'
step 24 1 '{"1":"Engine batch list"}'
step 46 2 '{"1":"Milestone","2":"Batch moment"}'
act_before=$(db "SELECT COALESCE(MAX(id), 0) FROM activity")
call POST "/rest/v1/campaigns/$batch/schedule.json" ''
ok "Schedule Campaign (batch)"
sleep 1
rss0=$(runner VmRSS)
harness_log "batch: $nbatch leads, 3 steps"
# The ceilings' copies of the leads, made now: as the batch finds them.
lc=$(cols lead) || harness_die "cannot read the lead table's columns"
for x in "" 2; do
	db "CREATE TABLE lead_ceiling$x LIKE lead;
	    INSERT INTO lead_ceiling$x ($lc) SELECT $lc FROM lead" ||
	    harness_die "cannot copy the leads"
done
if [ "${BENCH_ENGINE_GENERAL_LOG:-0}" = 1 ]; then
	root "SET GLOBAL general_log_file = '$work/general.log';
	    SET GLOBAL general_log = 1"
fi
if [ "${BENCH_ENGINE_SLOW_LOG:-0}" = 1 ]; then
	root "SET GLOBAL slow_query_log_file = '$work/slow.log';
	    SET GLOBAL long_query_time = 0; SET GLOBAL log_slow_admin_statements = 1;
	    SET GLOBAL slow_query_log = 1"
	# A session reads long_query_time when it connects: a new runner.
	kill "$(runner_pid)"
	for ((i = 0; i < 100; i++)); do
		sleep 0.1
		[ -n "$(runner_pid)" ] && break
	done
	sleep 1
fi
counters >"$work/c0"
rpid=$(runner_pid)
dbpid=$(harness_pidfile_pid "$work/db/mariadb.pid")
rcpu0=$(cpu_ms "$rpid")
dcpu0=$(cpu_ms "$dbpid")
t0=$(now_ms)
ctl clock advance 6m >/dev/null || harness_die "mautoctl clock advance failed"
wait_sql "SELECT status IN ('running', 'done') FROM campaign_run WHERE
    campaign_id = $batch" 1 $((nbatch / 20 + 600)) ||
    harness_die "the batch run was not expanded"
texp=$(now_ms)
wait_sql "SELECT status FROM campaign_run WHERE campaign_id = $batch" "done" \
    $((nbatch / 20 + 600)) || harness_die "the batch run did not finish"
t1=$(now_ms)
rcpu1=$(cpu_ms "$rpid")
dcpu1=$(cpu_ms "$dbpid")
bexp_ms=$((texp - t0))
bsteps_ms=$((t1 - texp))
counters >"$work/c1"
bstmts=$(per_lead "$work/c0" "$work/c1" "$nbatch")
if [ "${BENCH_ENGINE_GENERAL_LOG:-0}" = 1 ]; then
	root "SET GLOBAL general_log = 0"
	# The statements by shape (values masked), most first.
	python3 - "$work/general.log" "$nbatch" >"$work/shapes" <<'EOF'
import collections, re, sys
seen = collections.Counter()
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"^(?:\S+\s+\S+)?\s+\d+\s+(Execute|Query)\s+(.*)", line)
    if not m:
        continue
    q = re.sub(r"'(?:[^'\\]|\\.)*'", "?", m.group(2))
    q = re.sub(r"\b\d+(\.\d+)?\b", "?", q)
    seen[q[:110]] += 1
for q, n in seen.most_common(30):
    print("| %.2f | `%s` |" % (n / int(sys.argv[2]), q.replace("|", "\\|")))
EOF
fi
if [ "${BENCH_ENGINE_SLOW_LOG:-0}" = 1 ]; then
	root "SET GLOBAL slow_query_log = 0"
	slow_shapes "$work/slow.log" >"$work/slowshapes"
fi
rss1=$(runner VmRSS)
hwm1=$(runner VmHWM)
bms=$((t1 - t0))
read -r members a13 a24 a46 titled <<<"$(db "SELECT
    (SELECT COUNT(*) FROM list_member WHERE list_id = $list2),
    (SELECT COUNT(*) FROM activity WHERE campaign_id = $batch AND
     activity_type_id = 13),
    (SELECT COUNT(*) FROM activity WHERE campaign_id = $batch AND
     activity_type_id = 24),
    (SELECT COUNT(*) FROM activity WHERE campaign_id = $batch AND
     activity_type_id = 46),
    (SELECT COUNT(*) FROM lead WHERE title = 'Engine bench')")"

# ---- 3. ceiling -------------------------------------------------------------
harness_log "ceiling: the same rows by multi-row SQL"
if ! { lc=$(cols lead) && mc=$(cols list_member) &&
    ac=$(cols activity); }; then
	harness_die "cannot read the tables' columns"
fi
brun=$(db "SELECT id FROM campaign_run WHERE campaign_id = $batch")
if ! { rlc=$(cols campaign_run_lead) && qc=$(cols campaign_qualification) &&
    cmc=$(cols campaign_member); }; then
	harness_die "cannot read the engine tables' columns"
fi
db "CREATE TABLE act_proto AS SELECT activity_type_id, primary_value_id,
    primary_value, campaign_id, attributes FROM activity WHERE id IN
    (SELECT MIN(id) FROM activity WHERE campaign_id = $batch
    GROUP BY activity_type_id)" || harness_die "cannot make the prototypes"
[ "$(db "SELECT COUNT(*) FROM act_proto")" = 3 ] ||
    harness_die "the batch wrote no three prototype activities"

# ceiling_pass SUFFIX ALL: copies of the tables as they were before the
# batch (named TABLE_ceilingSUFFIX; the leads' copy made before it, so its
# rows are as untitled as the batch found them, room and all), then the batch's rows written into
# them by multi-row SQL, a transaction a page, timed: with ALL 1 also the
# engine's own rows (the run's lead rows, done; the qualifications; the
# campaign memberships).  Sets cms (ms) and cstmts.
ceiling_pass()
{
	local x=$1 all=$2 lo hi
	db "CREATE TABLE list_member_ceiling$x LIKE list_member;
	    INSERT INTO list_member_ceiling$x ($mc) SELECT $mc FROM list_member
	    WHERE list_id <> $list2;
	    CREATE TABLE activity_ceiling$x LIKE activity;
	    INSERT INTO activity_ceiling$x ($ac) SELECT $ac FROM activity
	    WHERE id <= $act_before;
	    CREATE TABLE campaign_run_lead_ceiling$x LIKE campaign_run_lead;
	    INSERT INTO campaign_run_lead_ceiling$x ($rlc) SELECT $rlc FROM
	    campaign_run_lead WHERE run_id <> $brun;
	    CREATE TABLE campaign_qualification_ceiling$x LIKE
	    campaign_qualification;
	    INSERT INTO campaign_qualification_ceiling$x ($qc) SELECT $qc FROM
	    campaign_qualification WHERE campaign_id <> $batch;
	    CREATE TABLE campaign_member_ceiling$x LIKE campaign_member;
	    INSERT INTO campaign_member_ceiling$x ($cmc) SELECT $cmc FROM
	    campaign_member WHERE campaign_id <> $batch" ||
	    harness_die "cannot make the copies"
	{
		echo "SET time_zone = '+00:00';"
		for ((lo = 1; lo <= nbatch; lo += page)); do
			hi=$((lo + page - 1 > nbatch ? nbatch : lo + page - 1))
			cat <<EOF
START TRANSACTION;
UPDATE lead_ceiling$x SET title = 'Engine bench', updatedAt = UTC_TIMESTAMP()
 WHERE id BETWEEN $lo AND $hi;
INSERT INTO list_member_ceiling$x (list_id, lead_id, created_at, updated_at)
 SELECT $list2, seq, UTC_TIMESTAMP(), UTC_TIMESTAMP() FROM seq_${lo}_to_$hi;
INSERT INTO activity_ceiling$x (lead_id, activity_type_id, activity_date,
 primary_value_id, primary_value, campaign_id, attributes)
 SELECT seq, p.activity_type_id, UTC_TIMESTAMP(3), p.primary_value_id,
 p.primary_value, p.campaign_id, p.attributes FROM seq_${lo}_to_$hi
 JOIN act_proto p ORDER BY seq, p.activity_type_id;
EOF
			[ "$all" = 1 ] && cat <<EOF
INSERT INTO campaign_qualification_ceiling$x (campaign_id, lead_id, last_at,
 times) SELECT $batch, seq, UTC_TIMESTAMP(3), 1 FROM seq_${lo}_to_$hi;
INSERT INTO campaign_run_lead_ceiling$x (run_id, lead_id, campaign_id,
 step_pos, state, due_at, note, updated_at) SELECT $brun, seq, $batch, 3,
 'done', UTC_TIMESTAMP(3), NULL, UTC_TIMESTAMP(3) FROM seq_${lo}_to_$hi;
INSERT INTO campaign_member_ceiling$x (campaign_id, lead_id, created_at,
 updated_at) SELECT $batch, seq, UTC_TIMESTAMP(), UTC_TIMESTAMP()
 FROM seq_${lo}_to_$hi;
EOF
			echo "COMMIT;"
		done
	} >"$work/ceiling$x.sql"
	counters >"$work/c2"
	t0=$(now_ms)
	(
		# shellcheck disable=SC1091
		. "$work/stack/env"
		MYSQL_PWD=$MAUTO_DB_PASSWORD mariadb --no-defaults \
		    --socket="$MAUTO_DB_SOCKET" --user="$MAUTO_DB_USER" \
		    "$MAUTO_DB_NAME" <"$work/ceiling$x.sql"
	) || harness_die "the ceiling's SQL failed"
	t1=$(now_ms)
	counters >"$work/c3"
	cstmts=$(per_lead "$work/c2" "$work/c3" "$nbatch")
	cms=$((t1 - t0))
}

if [ "${BENCH_ENGINE_SLOW_LOG:-0}" = 1 ]; then
	root "SET GLOBAL slow_query_log_file = '$work/slow-ceiling.log';
	    SET GLOBAL slow_query_log = 1"
fi
ceiling_pass "" 0
if [ "${BENCH_ENGINE_SLOW_LOG:-0}" = 1 ]; then
	root "SET GLOBAL slow_query_log = 0"
	slow_shapes "$work/slow-ceiling.log" >"$work/slowceiling"
fi
harness_log "second ceiling: with the engine's own rows"
cms1=$cms
cstmts1=$cstmts
ceiling_pass 2 1
cms2=$cms
cms=$cms1
cstmts=$cstmts1
cacts=$(db "SELECT COUNT(*) FROM activity_ceiling WHERE id > $act_before")

# ---- 4. Send Email ----------------------------------------------------------
etpl=$(ctl template create --name "Engine bench template" --folder 3 \
    --file "$here/../http/data/email-template.html") ||
    harness_die "mautoctl template create failed"
form POST /rest/asset/v1/emails.json --data-urlencode "name=Engine mail" \
    --data-urlencode "template=$etpl" --data-urlencode "subject=Bench" \
    --data-urlencode "fromName=Bench" \
    --data-urlencode "fromEmail=bench@bench.example.com" \
    --data-urlencode "replyEmail=bench@bench.example.com" \
    --data-urlencode "folder={\"id\":$prog,\"type\":\"Program\"}"
em=$(get 'result[0].id')
form POST "/rest/asset/v1/email/$em/approveDraft.json"
ok "the email is approved"
campaign "Engine mail" EngMail
mail=$camp
step 6 0 "{\"1\":\"$em\"}"
call POST "/rest/v1/campaigns/$mail/schedule.json" ''
ok "Schedule Campaign (mail)"
harness_log "Send Email: $nmail leads"
t0=$(now_ms)
ctl clock advance 6m >/dev/null || harness_die "mautoctl clock advance failed"
relayed() { find "$work/relay" -name '*.env' | wc -l; }
for ((i = 0; i < (nmail / 5 + 600) * 10; i++)); do
	[ "$(relayed)" -ge "$nmail" ] && break
	sleep 0.1
done
t1=$(now_ms)
mms=$((t1 - t0))
# Late duplicates would land after the last expected message.
wait_sql "SELECT status FROM campaign_run WHERE campaign_id = $mail" "done" 60 ||
    harness_log "the mail run is not done"
sleep 2
rss2=$(runner VmRSS)
hwm2=$(runner VmHWM)
cat "$work/relay"/*.env 2>/dev/null | sed -n 's/^to=//p' | sort |
    uniq -c >"$work/rcpt"
read -r relay_msgs relay_rcpts relay_once relay_dup <<<"$(awk '
    { n += $1; r++; if ($1 == 1) o++; else d++ }
    END { print n + 0, r + 0, o + 0, d + 0 }' "$work/rcpt")"
sent=$(db "SELECT COUNT(*) FROM outbox WHERE campaign_id = $mail AND
    status = 'sent'" 2>/dev/null || echo "?")

# ---- report -----------------------------------------------------------------
rate()
{
	awk -v n="$1" -v ms="$2" 'BEGIN { printf "%.0f", (ms > 0 ? n * 1000 / ms : 0) }'
}
brate=$(rate "$nbatch" "$bms")
crate=$(rate "$nbatch" "$cms")
ratio=$(awk -v a="$brate" -v b="$crate" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
crate2=$(rate "$nbatch" "$cms2")
ratio2=$(awk -v a="$brate" -v b="$crate2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
mrate=$(rate "$relay_msgs" "$mms")

echo "Campaign engine: one runner (mautod-campaign), a private MariaDB"
echo "(innodb_buffer_pool_size $pool), limits off."
echo
echo "Trigger latency: Added to List through the API (one new lead a call,"
echo "calls on a fixed schedule) to the trigger campaign's Interesting"
echo "Moment; from the time the writer read the reply to the activity's"
echo "date (DATETIME(3) from the same host's clock), in ms.  Target p99 < 1 s."
echo
echo "| rate | writes | writes/s reached | write errors | no activity | p50 | p99 | max | p99 < 1 s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
echo "$row_slow"
echo "$row_fast"
echo
echo "Batch: $nbatch leads through Change Data Value, Add to List and"
echo "Interesting Moment (from mautoctl clock advance to the run's status"
echo "done), against the same rows (lead update, list members, 3 activities"
echo "a lead) written by multi-row SQL in transactions of $page leads on one"
echo "connection.  Target >= 0.50."
echo
echo "| leads | mauto s | mauto leads/s | ceiling s | ceiling leads/s | ratio (>= 0.50) |"
echo "|---:|---:|---:|---:|---:|---:|"
printf '| %s | %.1f | %s | %.1f | %s | %s |\n' "$nbatch" \
    "$(awk -v m="$bms" 'BEGIN { print m / 1000 }')" "$brate" \
    "$(awk -v m="$cms" 'BEGIN { print m / 1000 }')" "$crate" "$ratio"
echo
echo "Rows the batch wrote: $members list members, $a13 Change Data Value,"
echo "$a24 Added to List, $a46 Interesting Moment activities, $titled leads"
echo "titled; the ceiling $cacts activities."
echo
echo "A second ceiling writes the engine's own rows as well (the run's"
echo "lead rows, marked done; the qualifications; the campaign"
echo "memberships), the same way: $(awk -v m="$cms2" 'BEGIN { printf "%.1f", m / 1000 }') s, $crate2 leads/s; the batch is $ratio2 of it."
echo
echo "Where the batch's time went: entering the leads (from the advance to"
echo "the run's status running) $(awk -v m="$bexp_ms" 'BEGIN { printf "%.1f", m / 1000 }') s,"
echo "their steps $(awk -v m="$bsteps_ms" 'BEGIN { printf "%.1f", m / 1000 }') s; CPU over the whole batch: the runner"
echo "$(awk -v m="$((rcpu1 - rcpu0))" 'BEGIN { printf "%.1f", m / 1000 }') s, the database server $(awk -v m="$((dcpu1 - dcpu0))" 'BEGIN { printf "%.1f", m / 1000 }') s."
echo
echo "Server counters per lead (SHOW GLOBAL STATUS, growth over the pass"
echo "divided by the leads; the bench's own polling adds about 20 queries"
echo "a second):"
echo
echo "- mauto: $bstmts"
echo "- ceiling: $cstmts"
echo
if [ -s "$work/slowshapes" ]; then
	echo
	echo "The server's time during the batch by statement shape (the slow"
	echo "log at long_query_time 0, BENCH_ENGINE_SLOW_LOG=1; it slows the"
	echo "pass):"
	echo
	echo "| s | µs a lead | statements a lead | shape |"
	echo "|---:|---:|---:|---|"
	cat "$work/slowshapes"
	echo
	echo "The ceiling's, the same way:"
	echo
	echo "| s | µs a lead | statements a lead | shape |"
	echo "|---:|---:|---:|---|"
	cat "$work/slowceiling"
fi
if [ -s "$work/shapes" ]; then
	echo
	echo "Statements during the batch by shape (the general log,"
	echo "BENCH_ENGINE_GENERAL_LOG=1; it slows the pass), per lead:"
	echo
	echo "| per lead | statement |"
	echo "|---:|---|"
	cat "$work/shapes"
	echo
fi
echo "Runner memory (KiB): VmRSS $rss0 before the batch, $rss1 after it,"
echo "$rss2 after Send Email; VmHWM $hwm1 after the batch, $hwm2 at the end."
echo
echo "Send Email: $nmail leads, one Send Email step, through the test relay"
echo "(tests/harness/smtpd.sh, aiosmtpd writing each message to a file);"
echo "from mautoctl clock advance to the relay's last message."
echo
echo "| leads | seconds | messages/s | relay messages | recipients | exactly once | more than once | outbox sent |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '| %s | %.1f | %s | %s | %s | %s | %s | %s |\n' "$nmail" \
    "$(awk -v m="$mms" 'BEGIN { print m / 1000 }')" "$mrate" \
    "$relay_msgs" "$relay_rcpts" "$relay_once" "$relay_dup" "$sent"
