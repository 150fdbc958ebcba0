-- wrk script: anonymous misconduct reports at random locations on the demo campus.
math.randomseed(os.time())
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local body = '{"kind":"misconduct","occurredAt":"2026-11-02T21:30:00Z","location":{"lon":%.6f,"lat":%.6f,"accuracyM":10},' ..
  '"officerDescription":"tall, grey uniform","incidentDescription":"stopped without reason","anonymous":true}'
request = function()
  local lon = -87.6020 + math.random() * 0.0215
  local lat = 41.7880 + math.random() * 0.0143
  return wrk.format(nil, "/v1/reports", nil, string.format(body, lon, lat))
end
local created, other = 0, 0
response = function(status, headers, body)
  if status == 201 then created = created + 1 else other = other + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format('{"requests":%d,"seconds":%.3f,"p50_ms":%.3f,"p99_ms":%.3f,"errors":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
