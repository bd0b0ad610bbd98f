-- tests/bench/overload.lua: wrk script of the overload suite
-- (tests/bench/overload_bench.sh).  Every answer is sorted by what it
-- says, since the service's 615 is HTTP 200:
--
--   wrk ... -s overload.lua URL -- read N     GET /rest/v1/lead/<1..N>.json
--   wrk ... -s overload.lua URL -- sync TAG   POST /rest/v1/leads.json of
--                   300 new leads (createOrUpdate by email,
--                   o<TAG>t<thread>-<seq>@bench.example.com)
--
-- answered: HTTP 200 with "success":true; refused: "code":"615" in the
-- body (mautod's limiter or the front server's bound); other: anything
-- else (wrk's http_errors are the part of it with a status above 399).
-- The result line is report.lua's with "answered=A refused=R other=O"
-- added; the latencies are of every answer, served or refused.

local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")
local report_done = done

local threads = {}

function setup(thread)
	thread:set("tid", #threads)
	threads[#threads + 1] = thread
end

local mode, n, tag, head, tail, pieces
local seq = 0
answered, refused, other = 0, 0, 0

function init(args)
	mode = args[1]
	if mode == "read" then
		n = tonumber(args[2])
		if n == nil or n < 1 then
			error("usage: -- read N | sync TAG")
		end
		head, tail = wrk.format("GET", "/@PATH@"):
		    match("^(.-)/@PATH@(.*)$")
	elseif mode == "sync" and args[2] ~= nil then
		tag = args[2]
		wrk.headers["Content-Type"] = "application/json"
	else
		error("usage: -- read N | sync TAG")
	end
	math.randomseed(os.time() * 1000 + (tid or 0) * 7919)
end

function request()
	if mode == "read" then
		return head .. string.format("/rest/v1/lead/%d.json",
		    math.random(1, n)) .. tail
	end
	-- The body's pieces are made once (pieces); a request sets its
	-- number in each email and joins them, so the emails are new every
	-- request while wrk's threads, which share the two cores with the
	-- service, spend little building 30 KB bodies.
	if pieces == nil then
		pieces = { wrk.format("POST", "/rest/v1/leads.json", nil,
		    "@BODY@"):match("^(.-)@BODY@"),
		    '{"action":"createOrUpdate","lookupField":"email","input":[' }
		for i = 1, 300 do
			pieces[#pieces + 1] = (i > 1 and "," or "") ..
			    string.format('{"email":"o%st%dr', tag, tid)
			pieces[#pieces + 1] = ""
			pieces[#pieces + 1] = string.format('i%d@bench.example.com",' ..
			    '"firstName":"F%d","lastName":"L%d","company":"C%d"}',
			    i, i, i, i)
		end
		pieces[#pieces + 1] = "]}"
	end
	local s = tostring(seq)
	for k = 4, #pieces - 1, 3 do
		pieces[k] = s
	end
	seq = seq + 1
	local body = table.concat(pieces, "", 2)
	return pieces[1]:gsub("Content%-Length: %d+", "Content-Length: " ..
	    #body) .. body
end

function response(status, headers, body)
	if status == 200 and body:find('"success":true', 1, true) then
		answered = answered + 1
	elseif body:find('"code":"615"', 1, true) then
		refused = refused + 1
	else
		other = other + 1
	end
end

function done(summary, latency, requests)
	local a, r, o = 0, 0, 0
	for _, t in ipairs(threads) do
		a = a + t:get("answered")
		r = r + t:get("refused")
		o = o + t:get("other")
	end
	io.write(string.format("BENCHX answered=%d refused=%d other=%d\n",
	    a, r, o))
	report_done(summary, latency, requests)
end
