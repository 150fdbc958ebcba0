#!/usr/bin/env bash
# Cached tiles over HTTP: a release geoserve with the 4,000 Chicago cells as layer `cells`; the
# peers' z14 tile list is requested once to fill the cache, then wrk (2 threads) cycles through
# it under the TileJSON's versioned URLs, beside /healthz in the same run.
#
#   bench/tiles-http.sh      # env: SHARED (default ../shared), CONNECTIONS (32), DURATION (10), GEOBENCH_TMP (tile lists)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$root/../shared}
list=${GEOBENCH_TMP:-/tmp/geobench}/tiles_z14.txt
[ -f "$list" ] || { echo "no tile list at $list: run bench/tiles-vs-mapnik.sh first (it writes the lists)" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 2; }
conns=${CONNECTIONS:-32}; duration=${DURATION:-10}
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
(cd "$root" && swift build -c release --product geoserve >/dev/null 2>&1)
bin="$root/.build/release/geoserve"
"$bin" import-areas "$shared/bench/data/chicago_cells.geojson" --layer cells --database "$work/g.sqlite" >/dev/null 2>&1
"$bin" serve --port "$port" --database "$work/g.sqlite" --demo-data none --log-level error &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
version=$(curl -fs "http://127.0.0.1:$port/tiles/cells.json" | python3 -c 'import json,sys,urllib.parse as u; t=json.load(sys.stdin)["tiles"][0]; print(u.parse_qs(u.urlsplit(t).query)["v"][0])')
awk -v v="$version" '{ printf "/tiles/cells/%s/%s/%s.png?v=%s&metric=verified_14d\n", $1, $2, $3, v }' "$list" > "$work/urls.txt"
while read -r u; do curl -fs -o /dev/null "http://127.0.0.1:$port$u"; done < "$work/urls.txt"
cat > "$work/tiles.lua" <<LUA
local urls = {}
for line in io.lines("$work/urls.txt") do urls[#urls + 1] = line end
local i = 0
request = function()
  i = i % #urls + 1
  return wrk.format("GET", urls[i])
end
LUA
cat > "$work/report.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format('{"requests":%d,"seconds":%.3f,"p50_ms":%.3f,"p99_ms":%.3f,"errors":%d,"bytes":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, summary.bytes))
end
LUA
cat "$work/tiles.lua" "$work/report.lua" > "$work/both.lua"
echo "| shape | requests/s | p50 ms | p99 ms | errors | MB/s |"
echo "|---|---|---|---|---|---|"
for shape in tiles healthz tiles healthz; do
  if [ "$shape" = tiles ]; then script="$work/both.lua"; url="http://127.0.0.1:$port"; else script="$work/report.lua"; url="http://127.0.0.1:$port/healthz"; fi
  line=$(timeout $((duration + 30)) wrk -t2 -c"$conns" -d"${duration}s" -s "$script" "$url" | tail -1)
  python3 -c "import json,sys; d=json.loads(sys.argv[1]); print(f\"| $shape | {d['requests']/d['seconds']:,.0f} | {d['p50_ms']:.2f} | {d['p99_ms']:.2f} | {d['errors']} | {d['bytes']/d['seconds']/1e6:.1f} |\")" "$line"
done
