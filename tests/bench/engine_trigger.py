# The trigger writer of the engine suite (tests/bench/engine_bench.sh):
# adds leads to a static list through the API at a steady rate, one lead
# a call, and writes one line per call: the lead's id and the time its
# reply was read (ms since the epoch, this host's clock).
#
#   python3 engine_trigger.py URL TOKEN LIST FIRST COUNT RATE OUT
#
# Calls start on a fixed schedule (call k at start + k / RATE), not one
# after the other, so a slow answer does not lower the rate; 4 threads,
# each with its own keep-alive connection, take the slots in turn.  A call
# that fails (after one retry on a new connection when the kept one was
# closed), or answers anything but success, is written with time 0 and
# counted as an error by the caller; the first five are told on stderr.  It prints the rate reached: the
# calls less one over the time from the first call's start to the last's.  The time is taken with time.time()
# right after the body is read: what it adds to a latency is the
# interpreter's step from the read to the call (well under 1 ms).
import http.client
import json
import sys
import threading
import time
import urllib.parse

url, token, lst, first, count, rate, out = sys.argv[1:8]
first, count, rate = int(first), int(count), float(rate)
u = urllib.parse.urlsplit(url)
path = "/rest/v1/lists/%s/leads.json" % lst
headers = {"Authorization": "Bearer " + token,
           "Content-Type": "application/json"}
lock = threading.Lock()
nxt = [0]
rows = []
starts = []
errors = []
start = time.time() + 0.2


def worker():
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    while True:
        with lock:
            k = nxt[0]
            nxt[0] += 1
        if k >= count:
            break
        wait = start + k / rate - time.time()
        if wait > 0:
            time.sleep(wait)
        lead = first + k
        body = json.dumps({"input": [{"id": lead}]})
        t = 0.0
        t0 = time.time()
        for attempt in (1, 2):
            try:
                conn.request("POST", path, body, headers)
                r = conn.getresponse()
                data = r.read()
                t = time.time()
                if r.status != 200 or not json.loads(data).get("success"):
                    t = 0.0
                    why = "HTTP %d: %s" % (r.status, data[:200])
                break
            except (OSError, http.client.HTTPException, ValueError) as e:
                # A kept-alive connection the server closed is retried
                # once on a new one.
                why = repr(e)
                conn.close()
                conn = http.client.HTTPConnection(u.hostname, u.port,
                                                  timeout=30)
        if t == 0.0:
            with lock:
                errors.append("lead %d: %s" % (lead, why))
        with lock:
            rows.append((lead, t * 1000.0))
            starts.append(t0)


threads = [threading.Thread(target=worker) for _ in range(4)]
for th in threads:
    th.start()
for th in threads:
    th.join()
for e in errors[:5]:
    sys.stderr.write("engine_trigger.py: %s\n" % e)
elapsed = max(starts) - min(starts) if len(starts) > 1 else 0
with open(out, "w") as f:
    for lead, t in sorted(rows):
        f.write("%d %.3f\n" % (lead, t))
print("%.1f" % ((count - 1) / elapsed if elapsed > 0 else 0))
