-- tests/bench/report.lua: wrk script of tests/bench/run.  It changes no
-- request; at the end it prints one machine-readable line, so the runner
-- need not parse wrk's human summary with its mixed units:
--
--   BENCH requests=N seconds=S rps=R p50_us=A p99_us=B max_us=C
--         http_errors=E socket_errors=F
--
-- http_errors counts responses with a status above 399 (wrk's own rule);
-- socket_errors adds up connect, read, write and timeout errors.

function done(summary, latency, requests)
	local secs = summary.duration / 1e6
	local e = summary.errors
	io.write(string.format(
	    "BENCH requests=%d seconds=%.3f rps=%.1f p50_us=%d p99_us=%d " ..
	    "max_us=%d http_errors=%d socket_errors=%d\n",
	    summary.requests, secs, summary.requests / secs,
	    latency:percentile(50), latency:percentile(99), latency.max,
	    e.status, e.connect + e.read + e.write + e.timeout))
end
