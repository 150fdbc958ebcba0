-- wrk script for bench/flood.sh: anonymous misconduct reports, each from the next of ADDRESSES
-- client addresses (sent as X-Forwarded-For, which geoserve believes from loopback), IPv4
-- 10.x.y.z or, with FAMILY=6, IPv6 addresses inside one /64. Counts the answers by status.
local count = tonumber(os.getenv("ADDRESSES") or "1")
local v6 = os.getenv("FAMILY") == "6"
local body = '{"kind":"misconduct","occurredAt":"2026-11-02T21:30:00Z","location":{"lon":-87.5995,"lat":41.7890,"accuracyM":10},' ..
  '"officerDescription":"tall, grey uniform","incidentDescription":"stopped without reason","anonymous":true}'
local threads = {}
setup = function(thread)
  table.insert(threads, thread)
  thread:set("offset", #threads * 7919)
end
init = function(args)
  n = offset or 0
  created, limited, full, other = 0, 0, 0, 0
end
request = function()
  n = n + 1
  local i = n % count
  local address
  if v6 then
    address = string.format("2001:db8:1:2::%x:%x", math.floor(i / 65536), i % 65536)
  else
    address = string.format("10.%d.%d.%d", math.floor(i / 65536) % 256, math.floor(i / 256) % 256, i % 256)
  end
  return wrk.format("POST", "/v1/reports", { ["Content-Type"] = "application/json", ["X-Forwarded-For"] = address }, body)
end
response = function(status, headers, body)
  if status == 201 then created = created + 1
  elseif status == 429 then limited = limited + 1
  elseif status == 503 then full = full + 1
  else other = other + 1 end
end
done = function(summary, latency, requests)
  local c, l, f, o = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    c = c + t:get("created"); l = l + t:get("limited"); f = f + t:get("full"); o = o + t:get("other")
  end
  io.write(string.format("flood created=%d limited=%d full=%d other=%d\n", c, l, f, o))
end
