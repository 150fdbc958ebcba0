#!/usr/bin/env bash
# Durable report intake under load, beside the same server's /healthz (the HTTP stack's ceiling),
# in the same run. Starts a release geoserve on a fresh store with the demo campus on a loopback
# port, then runs wrk (2 threads) against POST /v1/reports and GET /healthz, alternating; then
# posts reports at about half the best rate measured (each connection pausing between
# requests) to show the latency a server below its limit gives.
#
#   bench/reports-load.sh          # env: CONNECTIONS (default 32), DURATION seconds (default 10), ROUNDS (default 2),
#                                  #      KEYS=1 for an Idempotency-Key on every report
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 2; }
conns=${CONNECTIONS:-32}; duration=${DURATION:-10}; rounds=${ROUNDS:-2}
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
(cd "$root" && swift build -c release --product geoserve >/dev/null 2>&1)
# All load comes from one address: the per-address limit on anonymous writes is off.
"$root/.build/release/geoserve" serve --port "$port" --database "$work/g.sqlite" --demo-data "$root/data" --log-level error --anonymous-per-minute 0 --max-pending-anonymous 0 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
cat > "$work/healthz.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format('{"requests":%d,"seconds":%.3f,"p50_ms":%.3f,"p99_ms":%.3f,"errors":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA
echo "| round | shape | requests/s | p50 ms | p99 ms | errors |"
echo "|---|---|---|---|---|---|"
row() { # label, wrk's JSON line
  python3 -c "import json,sys; d=json.loads(sys.argv[2]); print(f\"| {sys.argv[1]} | {d['requests']/d['seconds']:,.0f} | {d['p50_ms']:.2f} | {d['p99_ms']:.2f} | {d['errors']} |\")" "$1" "$2"
}
rate() { python3 -c "import json,sys; d=json.loads(sys.argv[1]); print(d['requests']/d['seconds'])" "$1"; }
reports() { # seconds, pause in ms between a response and the connection's next request
  PAUSE_MS=$2 timeout $(($1 + 30)) wrk -t2 -c"$conns" -d"$1s" -s "$root/bench/reports.lua" "http://127.0.0.1:$port" | tail -1
}
best=0
for r in $(seq "$rounds"); do
  line=$(reports "$duration" 0)
  row "$r | reports" "$line"
  best=$(python3 -c "print(max($best, $(rate "$line")))")
  line=$(timeout $((duration + 30)) wrk -t2 -c"$conns" -d"${duration}s" -s "$work/healthz.lua" "http://127.0.0.1:$port/healthz" | tail -1)
  row "$r | healthz" "$line"
done
# Half the best rate: a pause per connection of (connections / target) seconds less the time a
# request takes, estimated from a short calibration run.
target=$(python3 -c "print($best / 2)")
pause=$(python3 -c "print(max(1, round($conns * 1000 / $target)))")
probe=$(reports 3 "$pause")
pause=$(python3 -c "
own = $conns * 1000 / $(rate "$probe") - $pause
print(max(1, round($conns * 1000 / $target - own)))")
line=$(reports "$duration" "$pause")
row "half | reports (target $(printf '%.0f' "$target")/s, pause $pause ms)" "$line"
stored=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from reports').fetchone()[0])" "$work/g.sqlite")
echo
echo "reports stored: $stored"
