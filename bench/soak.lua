-- wrk script for bench/soak.sh: GET requests cycled over the paths in PATHS_FILE (one a line),
-- each connection waiting PAUSE_MS between a response and its next request. Every non-2xx/304
-- answer is counted, by status, and printed at the end.
local paths = {}
local pause = tonumber(os.getenv("PAUSE_MS") or "0")
local threads = {}

setup = function(thread)
  table.insert(threads, thread)
end

init = function(args)
  for line in io.lines(os.getenv("PATHS_FILE")) do
    if line ~= "" then table.insert(paths, line) end
  end
  at = math.random(#paths)
  failures = 0
end

request = function()
  at = at % #paths + 1
  return wrk.format("GET", paths[at])
end

response = function(status, headers, body)
  if status >= 400 then failures = failures + 1 end
end

delay = function()
  return pause
end

done = function(summary, latency, requests)
  local failed = 0
  for _, thread in ipairs(threads) do failed = failed + thread:get("failures") end
  io.write(string.format("soak-get requests=%d failed=%d errors=%d p99_ms=%.1f\n", summary.requests, failed,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, latency:percentile(99) / 1000))
end
