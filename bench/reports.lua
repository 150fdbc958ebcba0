-- wrk script: anonymous misconduct reports at random locations on the demo campus.
-- The requests are made once per thread and cycled, so that formatting them does not take
-- CPU from the server on the same machine; 4,096 points per thread keep placement varied.
-- PAUSE_MS (environment) makes each connection wait that long between a response and its next
-- request, to hold the load below the server's maximum. KEYS=1 gives every request its own
-- Idempotency-Key of 32+ characters, as the service requires and offline clients send (65,536 prepared per thread; after that they are
-- retries, which the server answers from the stored report).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local body = '{"kind":"misconduct","occurredAt":"2026-11-02T21:30:00Z","location":{"lon":%.6f,"lat":%.6f,"accuracyM":10},' ..
  '"officerDescription":"tall, grey uniform","incidentDescription":"stopped without reason","anonymous":true}'
local requests, next_request = {}, 1
local threads = 0
setup = function(thread)
  threads = threads + 1
  thread:set("seed", os.time() * 100 + threads)
end
init = function(args)
  math.randomseed(seed or os.time())
  local keyed = os.getenv("KEYS") == "1"
  for i = 1, keyed and 65536 or 4096 do
    local lon = -87.6020 + math.random() * 0.0215
    local lat = 41.7880 + math.random() * 0.0143
    local headers = nil
    if keyed then
      headers = { ["Content-Type"] = "application/json", ["Idempotency-Key"] = string.format("bench-%d-%08x-%08x%08x%08x", seed or 0, i, math.random(0, 2147483646), math.random(0, 2147483646), math.random(0, 2147483646)) }
    end
    requests[i] = wrk.format(nil, "/v1/reports", headers, string.format(body, lon, lat))
  end
end
request = function()
  local r = requests[next_request]
  next_request = next_request % #requests + 1
  return r
end
local pause = tonumber(os.getenv("PAUSE_MS") or "0")
if pause > 0 then
  delay = function() return pause end
end
done = function(summary, latency, requests)
  io.write(string.format('{"requests":%d,"seconds":%.3f,"p50_ms":%.3f,"p99_ms":%.3f,"errors":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
