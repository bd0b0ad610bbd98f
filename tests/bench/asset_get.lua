-- tests/bench/asset_get.lua: wrk script of tests/bench/run's lpt,
-- emails and campaigns suites.  Every request reads one random asset of the ones
-- tests/bench/run loads, or browses one random folder:
--
--   wrk ... -s asset_get.lua URL -- id LO HI
--        GET /rest/asset/v1/landingPageTemplate/<LO..HI>.json
--   wrk ... -s asset_get.lua URL -- folder LO HI
--        GET /rest/asset/v1/landingPageTemplates.json?folder=
--        {"id":<LO..HI>,"type":"Folder"}&maxReturn=200 (URL-encoded)
--   wrk ... -s asset_get.lua URL -- email LO HI
--        GET /rest/asset/v1/email/<LO..HI>.json
--   wrk ... -s asset_get.lua URL -- content LO HI
--        GET /rest/asset/v1/email/<LO..HI>/content.json
--   wrk ... -s asset_get.lua URL -- full LO HI
--        GET /rest/asset/v1/email/<LO..HI>/fullContent.json
--   wrk ... -s asset_get.lua URL -- byname LO HI
--        GET /rest/asset/v1/smartCampaign/byName.json?name=Bench campaign
--        <LO..HI, 7 digits>&includeFlowSteps=true (URL-encoded)
--   wrk ... -s asset_get.lua URL -- campaign LO HI
--        GET /rest/asset/v1/smartCampaign/<LO..HI>.json
--   wrk ... -s asset_get.lua URL -- rules LO HI
--        GET /rest/asset/v1/smartList/<LO..HI>.json?includeRules=true
--
-- With "seq THREADS" after HI, the ids are not random: thread t of
-- THREADS reads LO + t, LO + t + THREADS, ... and starts over after HI,
-- so that a pass of (HI - LO + 1) requests or more reads every asset
-- (tests/bench/run's warm-up of the loaded campaigns).
--
-- The request is the one wrk.format builds (the -H headers, the token
-- among them) with the path spliced in, as in leads_get.lua.  The result
-- line is report.lua's.

local dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(dir .. "report.lua")

local thread_id = 0

function setup(thread)
	thread:set("tid", thread_id)
	thread_id = thread_id + 1
end

local paths = {
	id = { "/rest/asset/v1/landingPageTemplate/", ".json" },
	folder = { "/rest/asset/v1/landingPageTemplates.json?folder=" ..
	    "%7B%22id%22%3A", "%2C%22type%22%3A%22Folder%22%7D&maxReturn=200" },
	email = { "/rest/asset/v1/email/", ".json" },
	content = { "/rest/asset/v1/email/", "/content.json" },
	full = { "/rest/asset/v1/email/", "/fullContent.json" },
	byname = { "/rest/asset/v1/smartCampaign/byName.json?name=" ..
	    "Bench%20campaign%20", "&includeFlowSteps=true", "%07d" },
	campaign = { "/rest/asset/v1/smartCampaign/", ".json" },
	rules = { "/rest/asset/v1/smartList/", ".json?includeRules=true" },
}

local head, tail, lo, hi, before, after, fmt, step, next_id

function init(args)
	local p = paths[args[1] or ""]
	lo, hi = tonumber(args[2]), tonumber(args[3])
	if p == nil or lo == nil or hi == nil or lo < 1 or hi < lo then
		error("usage: -- id|folder|email|content|full|byname|" ..
		    "campaign|rules LO HI")
	end
	before, after, fmt = p[1], p[2], p[3] or "%d"
	if args[4] == "seq" then
		step = tonumber(args[5])
		if step == nil or step < 1 then
			error("usage: ... LO HI seq THREADS")
		end
		next_id = math.min(lo + (tid or 0), hi)
	end
	head, tail = wrk.format("GET", "/@PATH@"):match("^(.-)/@PATH@(.*)$")
	math.randomseed(os.time() * 1000 + (tid or 0) * 7919)
end

-- The id of the next request: random, or the thread's next in turn.
local function pick()
	if step == nil then
		return math.random(lo, hi)
	end
	local id = next_id
	next_id = next_id + step
	if next_id > hi then
		next_id = lo + (tid or 0)
	end
	return id
end

function request()
	return head .. before .. string.format(fmt, pick()) .. after .. tail
end
