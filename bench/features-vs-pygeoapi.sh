#!/usr/bin/env bash
# OGC API - Features throughput beside pygeoapi, in the same run: starts a release geoserve on a
# fresh store holding the peer benchmark's two layers (the 40 campus halls as `bhalls`, the
# 4,000 Chicago cells as `cells`), then runs the peers' bench_serve.sh against it.
#
#   bench/features-vs-pygeoapi.sh      # env: SHARED (default ../shared), DURATION, CONNS, ROUNDS as bench_serve.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$root/../shared}
[ -x "$shared/bench/bench_serve.sh" ] || { echo "the peer benchmarks are needed at $shared/bench (set SHARED=...)" >&2; exit 2; }
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
(cd "$root" && swift build -c release --product geoserve >/dev/null 2>&1)
bin="$root/.build/release/geoserve"
"$bin" import-areas "$shared/bench/data/campus_halls.geojson" --layer bhalls --database "$work/g.sqlite" >/dev/null 2>&1
"$bin" import-areas "$shared/bench/data/chicago_cells.geojson" --layer cells --database "$work/g.sqlite" >/dev/null 2>&1
"$bin" serve --port "$port" --database "$work/g.sqlite" --demo-data none --log-level error &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
TARGET_HALLS=bhalls TARGET_CELLS=cells "$shared/bench/bench_serve.sh" "http://127.0.0.1:$port"
