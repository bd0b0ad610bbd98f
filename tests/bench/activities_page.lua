-- tests/bench/activities_page.lua: wrk script of tests/bench/run's
-- activities suite.  Clients that page through the activity log, each
-- following the nextPageToken of the page before:
--
--   wrk ... -s activities_page.lua URL -- page LO HI
--        GET /rest/v1/activities.json?nextPageToken=<token>&
--        activityTypeIds=12,13&batchSize=300
--   wrk ... -s activities_page.lua URL -- changes LO HI
--        GET /rest/v1/activities/leadchanges.json?nextPageToken=<token>&
--        fields=firstName,lastName,company&batchSize=300
--   wrk ... -s activities_page.lua URL -- leads LO HI TOKEN
--        GET /rest/v1/activities.json?nextPageToken=TOKEN&
--        leadIds=<30 random lead ids of LO..HI>&batchSize=300
--        (one page a request, nothing followed)
--   wrk ... -s activities_page.lua URL -- list ID
--        GET /rest/v1/lists/ID/leads.json?batchSize=300
--        [&nextPageToken=<token>]
--
-- page and changes: LO..HI are the loaded activity ids.  A new client
-- starts after a random id of them, with a token in the documented
-- format (docs/behaviour.md §17: base32 of "<date>,<last id>"), and
-- follows each answer's nextPageToken while moreResult is true; at the
-- end of the log, or after an answer without a token, it starts again
-- at a random place.  list: a new client starts at the list's first
-- page (no token) and follows the tokens likewise.  wrk asks for a thread's next request right after
-- a connection's answer, so one queue of tokens per thread keeps as
-- many clients as the thread has connections.  The token is looked for
-- in the last 200 bytes of the answer, where the lead database envelope
-- writes it (after "result" and "success").
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
	page = { "/rest/v1/activities.json?nextPageToken=",
	    "&activityTypeIds=12,13&batchSize=300" },
	changes = { "/rest/v1/activities/leadchanges.json?nextPageToken=",
	    "&fields=firstName,lastName,company&batchSize=300" },
	leads = { "/rest/v1/activities.json?nextPageToken=", "&leadIds=" },
	list = { "/rest/v1/lists/", "/leads.json?batchSize=300" },
}

local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
local key = '"nextPageToken":"'

-- RFC 4648 base32 of s, upper case, '=' padded.
local function base32(s)
	local out, i = {}, 1
	while i <= #s do
		local chunk = s:sub(i, i + 4)
		local n, v = #chunk, 0
		for k = 1, 5 do
			v = v * 256 + (k <= n and chunk:byte(k) or 0)
		end
		local digits = ({ 2, 4, 5, 7, 8 })[n]
		local group = {}
		for k = 8, 1, -1 do
			local d = v % 32
			v = (v - d) / 32
			group[k] = k <= digits and alphabet:sub(d + 1, d + 1) or "="
		end
		out[#out + 1] = table.concat(group)
		i = i + 5
	end
	return table.concat(out)
end

local mode, head, tail, lo, hi, fixed
local queue, first, last = {}, 1, 0

function init(args)
	mode = args[1]
	local p = paths[mode or ""]
	lo, hi = tonumber(args[2]), tonumber(args[mode == "list" and 2 or 3])
	fixed = args[4]
	if p == nil or lo == nil or hi == nil or lo < 1 or hi < lo or
	    (mode == "leads" and (fixed == nil or hi - lo < 29)) then
		error("usage: -- page|changes LO HI | leads LO HI TOKEN | " ..
		    "list ID")
	end
	paths.before, paths.after = p[1], p[2]
	head, tail = wrk.format("GET", "/@PATH@"):match("^(.-)/@PATH@(.*)$")
	math.randomseed(os.time() * 1000 + (tid or 0) * 7919)
end

-- A new client's first token: after a random loaded id (never 0, which
-- would be a token of a date alone).
local function start()
	local after = math.random(math.max(lo - 1, 1), hi - 1)
	return base32("2024-01-01T00:00:00.000+0000," .. after)
end

-- 30 distinct random lead ids of lo..hi, comma-separated.
local function leads()
	local seen, ids = {}, {}
	while #ids < 30 do
		local id = math.random(lo, hi)
		if not seen[id] then
			seen[id] = true
			ids[#ids + 1] = id
		end
	end
	return table.concat(ids, ",")
end

function request()
	local tok
	if mode == "leads" then
		return head .. paths.before .. fixed .. paths.after .. leads() ..
		    "&batchSize=300" .. tail
	end
	if first <= last then
		tok = queue[first]
		queue[first] = nil
		first = first + 1
	end
	if mode == "list" then
		return head .. paths.before .. lo .. paths.after ..
		    (tok and "&nextPageToken=" .. tok or "") .. tail
	end
	return head .. paths.before .. (tok or start()) .. paths.after .. tail
end

function response(status, headers, body)
	if mode == "leads" or status ~= 200 then
		return
	end
	local i = body:find(key, math.max(1, #body - 200), true)
	if i == nil then
		return
	end
	local j = body:find('"', i + #key, true)
	if j == nil or not body:find('"moreResult":true', j, true) then
		return
	end
	last = last + 1
	queue[last] = body:sub(i + #key, j - 1)
end
