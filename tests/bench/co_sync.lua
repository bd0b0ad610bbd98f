-- tests/bench/co_sync.lua: wrk script of tests/bench/run's co suite, the
-- Sync Custom Objects passes.  Every request is POST
-- /rest/v1/customobjects/benchCar.json with
-- {"action":"createOrUpdate","dedupeBy":"dedupeFields","input":[...]} of
-- 300 records (vin, make, model, year), the rows tests/bench/bench_insert.c
-- writes for the ceiling (modes cofresh and coupdate):
--
--   -- new TAG        every vin is new: n<TAG>t<thread>-<seq>
--   -- update TAG N T every vin exists: wrk thread t of T walks its own
--                     share of vin0000001..N, 300 at a time, with new
--                     make, model and year
--
-- TAG (a-z0-9) keeps the vins and values of each run apart.  Each answer
-- is checked: HTTP 200, "success":true and 300 results "created" (new) or
-- "updated" (update); any other answer counts as an HTTP error in the
-- result line (report.lua's), so a fast wrong answer is visible.

local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")
local report_done = done

local threads = {}

function setup(thread)
	thread:set("tid", #threads)
	threads[#threads + 1] = thread
end

local mode, tag, share, first, want
local seq = 0
bad = 0

function init(args)
	mode, tag = args[1], args[2]
	if mode == "update" then
		local n, t = tonumber(args[3]), tonumber(args[4])
		if n == nil or t == nil or n < 300 * t then
			error("usage: -- update TAG N THREADS (N >= 300 * THREADS)")
		end
		share = math.floor(n / t)
		first = share * tid + 1
		want = '"updated"'
	elseif mode == "new" then
		want = '"created"'
	else
		error("usage: -- new TAG | update TAG N THREADS")
	end
	wrk.headers["Content-Type"] = "application/json"
end

function request()
	local rows = {}
	for i = 1, 300 do
		local k, vin = seq, nil
		seq = seq + 1
		if mode == "update" then
			vin = string.format("vin%07d", first + k % share)
		else
			vin = string.format("n%st%d-%d", tag, tid, k)
		end
		rows[i] = string.format('{"vin":"%s","make":"M%s-%d",' ..
		    '"model":"Model %s-%d","year":%d}', vin, tag, k, tag, k,
		    2000 + k % 25)
	end
	return wrk.format("POST", "/rest/v1/customobjects/benchCar.json", nil,
	    '{"action":"createOrUpdate","dedupeBy":"dedupeFields","input":[' ..
	    table.concat(rows, ",") .. ']}')
end

function response(status, headers, body)
	local _, n = body:gsub(want, "")
	if status ~= 200 or n ~= 300 or
	    not body:find('"success"%s*:%s*true') then
		bad = bad + 1
		if bad == 1 then
			io.stderr:write("co_sync.lua: unexpected answer: " ..
			    status .. " " .. body:sub(1, 300) .. "\n")
		end
	end
end

function done(summary, latency, requests)
	for _, t in ipairs(threads) do
		summary.errors.status = summary.errors.status + t:get("bad")
	end
	report_done(summary, latency, requests)
end
