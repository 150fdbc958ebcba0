#!/usr/bin/env bash
# Point assignment, geoserve beside the peer systems, on the same files in the same run.
#
#   bench/assign-vs-peers.sh            # prints a markdown table; also written to $GEOBENCH_WORK/assign.md
#
# Peers (from the shared benchmark folder, run from a writable copy): raw GEOS C (prepared +
# STRtree), a hand-written grid program, shapely 2, DuckDB spatial, PostGIS. geoserve runs
# `geoserve bench assign` (release build) with 1 and 2 threads. Rounds are interleaved.
#
# Environment:
#   ROUNDS          rounds of every system (default 3)
#   BENCH_REPS      timed repetitions per round (default 3; the peers' own setting too)
#   GEOBENCH_WORK   work folder (default /tmp/geoserve-bench): peer copy, inputs, results
#   GEOSERVE_PEERS  the peers' benchmark folder (default: ../shared/bench beside this repository)
#   BENCH_VENV      the peers' Python venv (default ~/.cache/geoserve-bench/venv; made by their setup.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
peers_src=${GEOSERVE_PEERS:-$root/../shared/bench}
work=${GEOBENCH_WORK:-/tmp/geoserve-bench}
rounds=${ROUNDS:-3}
export BENCH_REPS=${BENCH_REPS:-3}
export GEOBENCH_TMP=$work/tmp
py=${PY:-${BENCH_VENV:-$HOME/.cache/geoserve-bench/venv}/bin/python}

[ -d "$peers_src" ] || { echo "peer benchmarks not found at $peers_src (set GEOSERVE_PEERS)" >&2; exit 2; }
mkdir -p "$work" "$GEOBENCH_TMP" "$work/counts"
if [ ! -d "$work/peers" ]; then
  cp -r "$peers_src" "$work/peers"
  chmod -R u+w "$work/peers"
fi
peers=$work/peers
[ -x "$py" ] || (cd "$peers" && ./setup.sh)
cd "$peers"
[ -f data/points_uniform.f64 ] || "$py" gen_data.py
"$py" prep_inputs.py >/dev/null
gcc -O2 -Wall -Wno-misleading-indentation -o "$GEOBENCH_TMP/pip_geos" c/pip_geos.c $(pkg-config --cflags --libs geos)
gcc -O2 -Wall -Wno-misleading-indentation -o "$GEOBENCH_TMP/pip_grid" c/pip_grid.c -lm
trap './pg.sh stop >/dev/null 2>&1 || true' EXIT
./pg.sh stop >/dev/null 2>&1 || true
./pg.sh start >/dev/null

(cd "$root" && swift build -c release --product geoserve >/dev/null)
geoserve=$root/.build/release/geoserve

rm -rf results/raw results/counts "$work/geoserve.jsonl"
for r in $(seq 1 "$rounds"); do
  export BENCH_ROUND=$r
  echo "=== round $r/$rounds" >&2
  "$py" bench_c.py >/dev/null
  "$py" bench_shapely.py >/dev/null
  "$py" bench_duckdb.py >/dev/null
  "$py" bench_postgis.py >/dev/null
  for polys in chicago_areas chicago_cells; do
    for points in points_uniform points_clustered; do
      for threads in 1 2; do
        line=$("$geoserve" bench assign --areas "data/$polys.geojson" --points "data/$points.f64" \
          --threads "$threads" --repeat "$BENCH_REPS" --out "$work/counts/geoserve__${polys}__${points}.csv" 2>/dev/null)
        echo "${line%\}},\"round\":$r,\"polys\":\"$polys\",\"points\":\"$points\"}" >> "$work/geoserve.jsonl"
      done
    done
  done
done
"$py" "$root/bench/assign_table.py" "$peers/results" "$work" | tee "$work/assign.md"
