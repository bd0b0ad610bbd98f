-- tests/bench/lpt_get.lua: wrk script of tests/bench/run's lpt suite.
-- Every request reads one random landing page template, or browses one
-- random folder, of the templates tests/bench/run loads (100 to a folder):
--
--   wrk ... -s lpt_get.lua URL -- id LO HI
--        GET /rest/asset/v1/landingPageTemplate/<LO..HI>.json
--   wrk ... -s lpt_get.lua URL -- folder LO HI
--        GET /rest/asset/v1/landingPageTemplates.json?folder=
--        {"id":<LO..HI>,"type":"Folder"}&maxReturn=200 (URL-encoded)
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

local head, tail, lo, hi, by_folder

function init(args)
	by_folder = args[1] == "folder"
	lo, hi = tonumber(args[2]), tonumber(args[3])
	if (args[1] ~= "id" and not by_folder) or lo == nil or hi == nil or
	    lo < 1 or hi < lo then
		error("usage: -- id|folder LO HI")
	end
	head, tail = wrk.format("GET", "/@PATH@"):match("^(.-)/@PATH@(.*)$")
	math.randomseed(os.time() * 1000 + (tid or 0) * 7919)
end

function request()
	local id = math.random(lo, hi)
	if by_folder then
		return head .. "/rest/asset/v1/landingPageTemplates.json?" ..
		    "folder=%7B%22id%22%3A" .. id ..
		    "%2C%22type%22%3A%22Folder%22%7D&maxReturn=200" .. tail
	end
	return head .. "/rest/asset/v1/landingPageTemplate/" .. id ..
	    ".json" .. tail
end
