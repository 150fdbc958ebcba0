#!/usr/bin/env bash
# How many anonymous reports a flood can push into the verification queue in a minute, from 1
# address, 20 IPv6 addresses of one /64, 20 IPv4 addresses and 10,000 IPv4 addresses, for one
# binary or two side by side.
#
#   bench/flood.sh BINARY [BASE_BINARY]
#
# Per binary and scenario, a fresh `geoserve serve` on SQLite with the demo campus (data/) and
# its default limits; wrk (bench/flood.lua, 2 threads, 8 connections) posts anonymous
# misconduct reports for DURATION seconds (default 60), each request naming the next client
# address in X-Forwarded-For (believed from loopback, as from a proxy on the same machine).
# Printed per scenario: the reports accepted (201) scaled to a minute, and the refusals by kind
# (429 per-address budget, 503 queue full, other), then a Markdown table.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
duration=${DURATION:-60}
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
work=$(mktemp -d -t geoserve-flood.XXXXXX)
server=""
cleanup() { [ -z "$server" ] || kill -KILL "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
scenarios=("1 address:1:4" "20 IPv6 addresses of one /64:20:6" "20 IPv4 addresses:20:4" "10,000 IPv4 addresses:10000:4")
rows=()
for bin in "$@"; do
  for s in "${scenarios[@]}"; do
    IFS=: read -r label count family <<<"$s"
    rm -rf "$work/store"; mkdir -p "$work/store"
    port=$(python3 "$root/Tests/Operations/load.py" free-port)
    (cd "$work/store" && exec "$bin" serve --host 127.0.0.1 --port "$port" --database "$work/store/g.sqlite" --demo-data "$root/data" \
      --publish-at never --log-level error) >"$work/serve.log" 2>&1 &
    server=$!
    for _ in $(seq 300); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
    line=$(ADDRESSES=$count FAMILY=$family wrk -t2 -c8 -d"${duration}s" -s "$root/bench/flood.lua" "http://127.0.0.1:$port" | grep '^flood')
    kill -TERM "$server"; wait "$server" 2>/dev/null || true; server=""
    created=$(sed -n 's/.*created=\([0-9]*\).*/\1/p' <<<"$line")
    per_minute=$(( created * 60 / duration ))
    echo "$(basename "$bin") · $label: $line → $per_minute a minute" >&2
    rows+=("| $(basename "$bin") | $label | $per_minute | ${line#flood } |")
  done
done
echo "| binary | flood | reports a minute into the queue | answers |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
