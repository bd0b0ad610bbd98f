-- tests/bench/asset_get.lua: wrk script of tests/bench/run's lpt and
-- emails suites.  Every request reads one random asset of the ones
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
}

local head, tail, lo, hi, before, after

function init(args)
	local p = paths[args[1] or ""]
	lo, hi = tonumber(args[2]), tonumber(args[3])
	if p == nil or lo == nil or hi == nil or lo < 1 or hi < lo then
		error("usage: -- id|folder|email|content|full LO HI")
	end
	before, after = p[1], p[2]
	head, tail = wrk.format("GET", "/@PATH@"):match("^(.-)/@PATH@(.*)$")
	math.randomseed(os.time() * 1000 + (tid or 0) * 7919)
end

function request()
	return head .. before .. math.random(lo, hi) .. after .. tail
end
