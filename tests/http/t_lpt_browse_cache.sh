#!/usr/bin/env bash
# name: landing page template browse of one folder: kept pages are used, and every kind of change is seen at once by every worker
# src/api/api_lp_templates.c answers a browse of one folder from the
# worker's kept page while the folder's content generation is unchanged
# (migration 0017).  Each step below browses the folder often enough to
# reach every worker, changes a template in the folder in one of the ways
# the API allows, and checks that no worker answers the page it kept.
set -euo pipefail

# shellcheck source=tests/http/lib.sh
. "$(dirname "$0")/lib.sh"

folder=$(ctl folder create --name "LPTC-$tag" --parent 4)
place="{\"id\":$folder,\"type\":\"Folder\"}"
# Four browses a worker of the stack (mautod_workers_wanted).
rounds=$(($(curl -sS --max-time 30 "$base/metrics" |
    awk '$1 == "mautod_workers_wanted" { print $2 }') * 4))
[ "$rounds" -gt 0 ] || { echo "no mautod_workers_wanted in /metrics"; exit 1; }

# hits: the page cache hits counted by GET /metrics (all workers).
hits()
{
	curl -sS --max-time 30 "$base/metrics" |
	    awk '/^mautod_page_cache_total\{result="hit"\}/ { print $2 }'
}

# browse_all WHAT COND [QUERY]: browses the folder $rounds times; every
# answer must satisfy the python condition COND on d.
browse_all()
{
	local what=$1 cond=$2 q=${3:-} i bad=0
	# The browses one after the other, then one python over the answers
	# (a python per answer cost most of this script's time).
	for i in $(seq "$rounds"); do
		form GET /rest/asset/v1/landingPageTemplates.json -G \
		    --data-urlencode "folder=$place" $q
		mv "$work/out" "$work/browse.$i"
	done
	bad=$(python3 -c 'import json, shutil, sys
bad = 0
for f in sys.argv[2:]:
    try:
        d = json.load(open(f))
        good = eval(sys.argv[1])
    except ValueError:
        good = False
    if not good:
        bad += 1
        shutil.copy(f, f.rsplit("/", 1)[0] + "/bad")
print(bad)' "$cond" $(seq -f "$work/browse.%g" "$rounds"))
	if [ "$bad" = 0 ]; then
		echo "ok - $what ($rounds browses)"
	else
		echo "not ok - $what: $bad of $rounds browses wrong"
		echo "  body: $(head -c 600 "$work/bad")"
		failed=1
	fi
}

names='sorted((r["name"], r["status"]) for r in d.get("result", []))'

form POST /rest/asset/v1/landingPageTemplates.json \
    --data-urlencode "name=a-$tag" --data-urlencode "folder=$place"
a=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"][0]["id"])' "$work/out")
browse_all "a new template is browsed" \
    "$names == [('a-$tag', 'draft')]"

h0=$(hits)
browse_all "the same page again" "$names == [('a-$tag', 'draft')]"
h1=$(hits)
if [ "${MAUTO_TEST_FRONT:-}" = cluster ]; then
	# Kept pages and their counters are per host; nginx spreads the
	# browses over the hosts, so the count of one is not checked here.
	echo "ok - (kept pages per host: hits not counted on the cluster)"
elif [ "$h1" -gt "$h0" ]; then
	echo "ok - browses of an unchanged folder are answered from kept pages ($h0 -> $h1 hits)"
else
	echo "not ok - no kept page was used ($h0 -> $h1 hits)"
	failed=1
fi

form POST "/rest/asset/v1/landingPageTemplate/$a.json" \
    --data-urlencode "name=a2-$tag" --data-urlencode "description=d2"
browse_all "a metadata change is seen by every worker" \
    "$names == [('a2-$tag', 'draft')] and d['result'][0]['description'] == 'd2'"

form POST "/rest/asset/v1/landingPageTemplates.json" \
    --data-urlencode "name=b-$tag" --data-urlencode "folder=$place"
b=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["result"][0]["id"])' "$work/out")
browse_all "a new template in the folder is seen" \
    "$names == [('a2-$tag', 'draft'), ('b-$tag', 'draft')]"

printf '<html><head><title>T</title></head><body><p>x</p></body></html>' >"$work/t.html"
form POST "/rest/asset/v1/landingPageTemplate/$a/content.json" \
    -F "content=@$work/t.html;type=text/html"
form POST "/rest/asset/v1/landingPageTemplate/$a/approveDraft.json"
browse_all "an approval is seen" \
    "$names == [('a2-$tag', 'approved'), ('b-$tag', 'draft')]"
browse_all "and the status filter keeps its own pages" \
    "$names == [('a2-$tag', 'approved')]" "--data-urlencode status=approved"

form POST "/rest/asset/v1/landingPageTemplate/$a/content.json" \
    -F "content=@$work/t.html;type=text/html"
browse_all "an edit of the approved template adds its draft" \
    "$names == [('a2-$tag', 'approved'), ('a2-$tag', 'draft'), ('b-$tag', 'draft')]"
form POST "/rest/asset/v1/landingPageTemplate/$a/discardDraft.json"
browse_all "a discarded draft goes" \
    "$names == [('a2-$tag', 'approved'), ('b-$tag', 'draft')]"
form POST "/rest/asset/v1/landingPageTemplate/$a/unapprove.json"
browse_all "an unapproval is seen" \
    "$names == [('a2-$tag', 'draft'), ('b-$tag', 'draft')]"

form POST "/rest/asset/v1/landingPageTemplate/$b/clone.json" \
    --data-urlencode "name=c-$tag" --data-urlencode "folder=$place"
browse_all "a clone into the folder is seen" \
    "$names == [('a2-$tag', 'draft'), ('b-$tag', 'draft'), ('c-$tag', 'draft')]"
browse_all "paging keeps its own pages" \
    "$names == [('b-$tag', 'draft')]" "-d offset=1 -d maxReturn=1"

form POST "/rest/asset/v1/landingPageTemplate/$b/delete.json"
browse_all "a deletion is seen" \
    "$names == [('a2-$tag', 'draft'), ('c-$tag', 'draft')]"
browse_all "and the pages after it" \
    "$names == [('c-$tag', 'draft')]" "-d offset=1 -d maxReturn=1"

exit "$failed"
