#!/usr/bin/env bash
# name: connections the database closed between requests are replaced before the next call
# The server ends every connection of this run's database while mautod's
# workers are idle (KILL CONNECTION, as a node restart, a kill or
# wait_timeout does).  The calls after that, writes that the service does
# not run twice (creating custom object types, and a lead field's DDL),
# all succeed: a call is not answered 608 for a connection that died
# before it came, and the log says the connections were replaced.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

# replaced: how often the hosts' logs say a closed connection was
# replaced (a cluster run's stack is host1, beside the other hosts).
replaced()
{
	local d=$MAUTO_TEST_STACK_DIR
	case $d in
	*/host1) cat "${d%/host1}"/host*/mautod.log ;;
	*) cat "$d/mautod.log" ;;
	esac | grep -c 'closed the idle connection' || true
}

# ids: the connections to this database other than dbsql's own.
ids()
{
	dbsql "SELECT ID FROM information_schema.PROCESSLIST
	    WHERE DB = DATABASE() AND ID <> CONNECTION_ID()"
}

# Every worker gets a connection: calls at once, more than the workers.
for i in $(seq 1 16); do
	curl -sS --max-time 30 -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
	    "$base/rest/v1/leads.json?filterType=id&filterValues=$i" >/dev/null &
done
wait

before=$(replaced)
n=0
for id in $(ids); do
	dbsql "KILL CONNECTION $id" 2>/dev/null && n=$((n + 1))
done
if [ "$n" -gt 0 ]; then
	echo "ok - the server closed $n idle connections"
else
	echo "not ok - no connection of mautod to close"
	failed=1
fi
sleep 0.2

# ok_or_count: counts the last answer in bad unless it is a success.
bad=0
ok_or_count()
{
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["success"] and all(x["status"] in ("created", "updated")
    for x in d["result"]) else 1)' "$work/out" ||
	    { bad=$((bad + 1)); echo "  body: $(head -c 300 "$work/out")"; }
}

# Writes: a custom object type, a lead field (DDL), then Sync Leads.
api POST /rest/v1/customobjects/schema.json \
    "{\"apiName\": \"idle_$tag\", \"displayName\": \"Idle $tag\"}"
ok_or_count
api POST /rest/v1/leads/schema/fields.json \
    "{\"input\": [{\"name\": \"idle_$tag\", \"displayName\": \"Idle $tag\", \"dataType\": \"string\"}]}"
ok_or_count
for i in $(seq 1 10); do
	api POST /rest/v1/leads.json \
	    "{\"input\": [{\"email\": \"idle$i-$tag@example.com\"}]}"
	ok_or_count
done
if [ "$bad" = 0 ]; then
	echo "ok - 12 writes after the connections died all succeed"
else
	echo "not ok - $bad of 12 writes after the connections died failed"
	failed=1
fi

after=$(replaced)
if [ "$after" -gt "$before" ]; then
	echo "ok - mautod replaced $((after - before)) closed connections as calls came"
else
	echo "not ok - mautod's log does not say it replaced a closed connection"
	failed=1
fi
exit "$failed"
