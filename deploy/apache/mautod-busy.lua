-- The answer of Apache in front of mautod to a request past its bound on
-- requests in flight (deploy/apache/mautod.conf, docs/operating.md, "Overload"): the
-- service's 615, in the envelope of the path's family, byte for byte as
-- mautod's limiter writes it (src/http/response.c), with HTTP 200 and a
-- requestId in the service's form (docs/behaviour.md §0).  The token
-- endpoint, which mautod never refuses for concurrency, gets OAuth's
-- temporarily_unavailable with HTTP 503.  mod_lua runs it as the
-- ErrorDocument of 503.
--
-- XXX: mod_proxy answers 503 also when mautod does not take the
-- connection at all (stopped, restarting); the error document cannot
-- tell the two apart, so that answer is 615 too.  Backing off, what a
-- client does on 615, is right for both.

local seq = 0

function handle(r)
	local limit = r.subprocess_env["mauto_concurrency_limit"] or "10"
	local family = r.subprocess_env["REDIRECT_mauto_family"] or ""
	local msg = "Concurrent access limit '" .. limit .. "' reached"
	local rid, body

	seq = (seq + 1) % 0x100000
	rid = string.format("%x#%x", seq, r:clock() // 1000)
	r.content_type = "application/json;charset=UTF-8"
	if family == "identity" then
		r.status = 503
		body = '{"error":"temporarily_unavailable","error_description":"'
		    .. msg .. '"}'
	elseif family == "asset2" then
		r.status = 200
		body = '{"success":false,"requestId":"' .. rid .. '","errors":'
		    .. '[{"key":"api.error.615","message":"' .. msg
		    .. '","code":"615","dynamicMessage":"' .. msg
		    .. '","type":"error","source":"validation","errorMessage":"'
		    .. msg .. '","errorPosition":null}]}'
	elseif family == "asset1" then
		r.status = 200
		body = '{"requestId":"' .. rid .. '","success":false,'
		    .. '"warnings":[],"errors":[{"code":"615","message":"'
		    .. msg .. '"}]}'
	else
		r.status = 200
		body = '{"requestId":"' .. rid .. '","success":false,'
		    .. '"errors":[{"code":"615","message":"' .. msg .. '"}]}'
	end
	r:puts(body)
	return apache2.OK
end
