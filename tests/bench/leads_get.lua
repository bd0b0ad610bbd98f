-- tests/bench/leads_get.lua: wrk script of tests/bench/run's leads suite,
-- the read passes.  Every request reads one random lead of the bench's
-- lead table, whose rows are id 1..N with the email
-- lead<id as 7 digits>@bench.example.com (tests/bench/run loads them):
--
--   wrk ... -s leads_get.lua URL -- id N      GET /rest/v1/lead/<id>.json
--   wrk ... -s leads_get.lua URL -- email N   GET /rest/v1/leads.json?
--                         filterType=email&filterValues=<email, %40 for @>
--
-- The request is the one wrk.format builds (the -H headers, the token
-- among them) with the path spliced in, so choosing a lead costs one
-- random number and one concatenation.  The result line is report.lua's.

local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")

local thread_id = 0

function setup(thread)
	thread:set("tid", thread_id)
	thread_id = thread_id + 1
end

local head, tail, n, by_email

function init(args)
	by_email = args[1] == "email"
	n = tonumber(args[2])
	if (args[1] ~= "id" and not by_email) or n == nil or n < 1 then
		error("usage: -- id|email N")
	end
	head, tail = wrk.format("GET", "/@PATH@"):match("^(.-)/@PATH@(.*)$")
	math.randomseed(os.time() * 1000 + (tid or 0) * 7919)
end

function request()
	local id = math.random(1, n)
	if by_email then
		return head .. string.format("/rest/v1/leads.json?filterType=" ..
		    "email&filterValues=lead%07d%%40bench.example.com", id) .. tail
	end
	return head .. "/rest/v1/lead/" .. id .. ".json" .. tail
end
