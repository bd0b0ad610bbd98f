#!/usr/bin/env bash
# name: four clients sync 300-lead batches of overlapping existing and new emails at once: every batch succeeds, one lead per email
# Issue 24: a valid batch refused under ordinary concurrent load is a
# failure a client sees.  Four curl processes send their batch of the
# round at once (rounds in lockstep); writers 0 and 1 share 100 existing
# and 100 new emails, writers 2 and 3 another 200, and each batch has 100
# new emails of its own.  Every answer must be success:true with every
# record created or updated, each shared new email created by exactly
# one batch of its pair, and the store must hold one lead per email.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

WRITERS=4
ROUNDS=3
OLD=100		# existing emails of a pair
SHARED=100	# new emails of a pair, each round
OWN=100		# new emails of a writer, each round

# batch WHO ROUND: writer WHO's batch of ROUND (ROUND -1: the pairs'
# existing emails, made first), in an order of its own.
batch()
{
	python3 - "$tag" "$1" "$2" "$OLD" "$SHARED" "$OWN" <<'PY'
import json, sys
tag, who, rnd, old, shared, own = (sys.argv[1], int(sys.argv[2]),
                                   int(sys.argv[3]), *map(int, sys.argv[4:]))
if rnd < 0:
    emails = ['crowd-%s-old-%d-%03d@example.com' % (tag, p, i)
              for p in (0, 1) for i in range(old)]
else:
    pair = who // 2
    emails = (['crowd-%s-old-%d-%03d@example.com' % (tag, pair, i)
               for i in range(old)] +
              ['crowd-%s-%d-%d-%03d@example.com' % (tag, rnd, pair, i)
               for i in range(shared)] +
              ['crowd-%s-%d-own%d-%03d@example.com' % (tag, rnd, who, i)
               for i in range(own)])
    k = 37 * who % len(emails)
    emails = emails[k:] + emails[:k]
print(json.dumps({'action': 'createOrUpdate', 'lookupField': 'email',
                  'input': [{'email': e, 'firstName': 'W%d' % who,
                             'city': 'R%d' % rnd} for e in emails]}))
PY
}

# all_written FILE N: FILE is success:true with N records, each created
# or updated, with an id.
all_written()
{
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d.get('result', [])
sys.exit(0 if d.get('success') is True and len(r) == int(sys.argv[2]) and
         all(x.get('status') in ('created', 'updated') and x.get('id')
             for x in r) else 1)
PY
}

batch 0 -1 >"$work/old.json"
api POST /rest/v1/leads.json "$(cat "$work/old.json")"
expect "the existing emails are made" \
    "d['success'] and len(d['result']) == 2 * $OLD and
     all(x['status'] == 'created' for x in d['result'])"

for round in $(seq 0 $((ROUNDS - 1))); do
	for who in $(seq 0 $((WRITERS - 1))); do
		batch "$who" "$round" >"$work/in-$who-$round.json"
	done
	pids=()
	for who in $(seq 0 $((WRITERS - 1))); do
		curl -sS --max-time 60 -X POST \
		    -H "Authorization: Bearer $MAUTO_TEST_TOKEN" \
		    -H 'Content-Type: application/json' \
		    --data-binary "@$work/in-$who-$round.json" \
		    "$base/rest/v1/leads.json" >"$work/out-$who-$round" &
		pids+=($!)
	done
	for who in $(seq 0 $((WRITERS - 1))); do
		if wait "${pids[$who]}" &&
		    all_written "$work/out-$who-$round" $((OLD + SHARED + OWN)); then
			echo "ok - round $round writer $who: every record written"
		else
			echo "not ok - round $round writer $who: $(head -c 600 \
			    "$work/out-$who-$round")"
			failed=1
		fi
	done
done

# Each shared new email of a round: created by one batch of its pair
# and updated by the other.
python3 - "$work" "$WRITERS" "$ROUNDS" "$SHARED" <<'PY' || failed=1
import json, sys
work, writers, rounds, shared = sys.argv[1], *map(int, sys.argv[2:])
bad = []
for rnd in range(rounds):
    for pair in range(writers // 2):
        seen = {}
        for who in (2 * pair, 2 * pair + 1):
            inp = json.load(open('%s/in-%d-%d.json' % (work, who, rnd)))
            try:
                out = json.load(open('%s/out-%d-%d' % (work, who, rnd)))
            except ValueError:
                out = {}
            for rec, res in zip(inp['input'], out.get('result', [])):
                if '-old-' not in rec['email'] and '-own' not in rec['email']:
                    seen.setdefault(rec['email'], []).append(
                        res.get('status'))
        if len(seen) != shared or any(sorted(v) != ['created', 'updated']
                                      for v in seen.values()):
            bad.append((rnd, pair))
print(('ok' if not bad else 'not ok') + ' - each shared new email created '
      'by one batch of its pair and updated by the other' +
      (' (not in round, pair: %s)' % bad if bad else ''))
sys.exit(1 if bad else 0)
PY

# Read through the node that saw the last commits, wherever they were.
count()
{
	dbsql "SET SESSION wsrep_sync_wait = 1; $1"
}
want=$((2 * OLD + ROUNDS * (2 * SHARED + WRITERS * OWN)))
got=$(count "SELECT COUNT(*) FROM lead WHERE email LIKE 'crowd-$tag-%'")
if [ "$got" = "$want" ]; then
	echo "ok - $want leads"
else
	echo "not ok - $want leads expected, $got found"
	failed=1
fi
got=$(count "SELECT COUNT(*) FROM (SELECT email FROM lead WHERE email
    LIKE 'crowd-$tag-%' GROUP BY email HAVING COUNT(*) > 1) AS d")
if [ "$got" = 0 ]; then
	echo "ok - one lead per email"
else
	echo "not ok - $got emails with more than one lead"
	failed=1
fi
exit "$failed"
