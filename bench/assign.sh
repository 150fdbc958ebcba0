#!/usr/bin/env bash
# Point-in-polygon assignment: geoserve beside the peer systems, same inputs, same run.
#
# usage:  bench/assign.sh          (from anywhere; takes several minutes per round)
#
# Peers come from the shared peer-benchmark folder and run from a writable copy of it in the
# work folder (their scripts write data/ and results/ next to themselves): raw GEOS C API
# (geos.capi), the naive grid program (grid.naive), shapely 2, DuckDB spatial, PostGIS.
# geoserve runs `geoserve bench assign` (release build) with 1 and 2 threads. Rounds are
# interleaved: all PIP peers, then geoserve, then the next round.
#
# Output: markdown tables on stdout, also written to $GEOBENCH_WORK/assign.md.
# Work folder layout: peers/ (copy of the peer folder; results/raw/pip.jsonl, results/counts/),
# geoserve.jsonl (one JSON line per geoserve run), counts/ (geoserve's per-area CSVs of the last
# round, geoserve.t{threads}__{polys}__{points}.csv), logs/ (output of every step),
# tmp/ (derived inputs and C programs), pgdata/ (while PostgreSQL runs).
#
# Environment:
#   ROUNDS          interleaved rounds of every system (default 3)
#   BENCH_REPS      timed repetitions per round, for peers and geoserve alike (default 3)
#   GEOBENCH_WORK   work folder (default /tmp/geoserve-bench); an existing peers/ copy there is
#                   reused (its data too); its scripts are refreshed from GEOSERVE_PEERS
#   GEOSERVE_PEERS  peer benchmark folder (default: ../shared/bench beside this repository)
#   BENCH_VENV      the peers' Python venv (default ~/.cache/geoserve-bench/venv; created with the
#                   peers' setup.sh when its python is missing); PY overrides the interpreter
#   PGBENCH_PORT    port of the throw-away PostgreSQL cluster (default: first free from 55439)
#   GEOBENCH_TMP    derived inputs and C programs (default $GEOBENCH_WORK/tmp)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
peers_src=${GEOSERVE_PEERS:-$root/../shared/bench}
work=${GEOBENCH_WORK:-/tmp/geoserve-bench}
rounds=${ROUNDS:-3}
export BENCH_REPS=${BENCH_REPS:-3}
export BENCH_VENV=${BENCH_VENV:-$HOME/.cache/geoserve-bench/venv}
py=${PY:-$BENCH_VENV/bin/python}
report=$root/bench/assign_report.py
polysets=(chicago_areas chicago_cells)
pointsets=(points_uniform points_clustered)

log() { echo "[assign.sh $(date +%H:%M:%S)] $*" >&2; }
die() { echo "assign.sh: $*" >&2; exit 1; }

[ -f "$peers_src/run_peers.sh" ] || die "peer benchmarks not found at $peers_src (set GEOSERVE_PEERS)"
[ -f "$report" ] || die "missing $report"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer"
mkdir -p "$work"
work=$(cd "$work" && pwd)
peers=$work/peers
export GEOBENCH_TMP=${GEOBENCH_TMP:-$work/tmp}
logs=$work/logs
mkdir -p "$GEOBENCH_TMP" "$logs" "$work/counts"

# --- 1. peer copy, venv, data, derived inputs, C programs, PostgreSQL ---------------------------
if [ ! -d "$peers" ]; then
  log "copying $peers_src -> $peers"
  cp -r "$peers_src" "$peers"
else
  # Reuse the copy (and its generated data), but run the current peer scripts.
  log "reusing $peers (refreshing scripts from $peers_src)"
  chmod -R u+w "$peers"
  for f in "$peers_src"/*; do
    case "$(basename "$f")" in data|results) continue ;; esac
    cp -rf "$f" "$peers/"
  done
fi
chmod -R u+w "$peers"
cd "$peers"

if [ ! -x "$py" ]; then
  log "no python at $py: running the peers' setup.sh"
  ./setup.sh > "$logs/setup.log" 2>&1 || die "setup.sh failed, see $logs/setup.log"
  [ -x "$py" ] || die "setup.sh did not create $py (PY overrides BENCH_VENV; unset it)"
fi
if [ ! -f data/points_uniform.f64 ] || [ ! -f data/points_clustered.f64 ] || [ ! -f data/chicago_cells.geojson ]; then
  log "generating data (gen_data.py)"
  "$py" gen_data.py > "$logs/gen_data.log" 2>&1 || die "gen_data.py failed, see $logs/gen_data.log"
fi
log "prep_inputs.py -> $GEOBENCH_TMP"
"$py" prep_inputs.py > "$logs/prep_inputs.log" 2>&1 || die "prep_inputs.py failed, see $logs/prep_inputs.log"

# Same compiler lines as the peers' run_peers.sh.
gcc -O2 -Wall -Wno-misleading-indentation -o "$GEOBENCH_TMP/pip_geos" c/pip_geos.c $(pkg-config --cflags --libs geos)
gcc -O2 -Wall -Wno-misleading-indentation -o "$GEOBENCH_TMP/pip_grid" c/pip_grid.c -lm

# A cluster of our own (data dir in the work folder, a free port) so that a concurrent run of the
# peers' own scripts, which use /tmp/pgbench-data and 55439, is left alone.
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
export PGBENCH_DATA=$work/pgdata
if [ -z "${PGBENCH_PORT:-}" ]; then
  PGBENCH_PORT=55439
  while port_busy "$PGBENCH_PORT"; do PGBENCH_PORT=$((PGBENCH_PORT + 1)); done
elif port_busy "$PGBENCH_PORT"; then
  die "port $PGBENCH_PORT is in use (unset PGBENCH_PORT to pick a free one)"
fi
export PGBENCH_PORT
chmod o+x "$work"   # the postgres user must reach $PGBENCH_DATA
cleanup() { (cd "$peers" && ./pg.sh stop >/dev/null 2>&1) || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM
./pg.sh stop >/dev/null 2>&1 || true   # a stale cluster of an interrupted run of this script
log "starting PostgreSQL on 127.0.0.1:$PGBENCH_PORT"
./pg.sh start > "$logs/pg.log" 2>&1 || die "pg.sh start failed, see $logs/pg.log and $PGBENCH_DATA/log"

# --- 2. geoserve release build ----------------------------------------------------------------
log "swift build -c release --product geoserve"
(cd "$root" && swift build -c release --product geoserve) > "$logs/swift-build.log" 2>&1 \
  || die "swift build failed, see $logs/swift-build.log"
geoserve=$root/.build/release/geoserve
[ -x "$geoserve" ] || die "no binary at $geoserve"

# --- 3. interleaved rounds ---------------------------------------------------------------------
rm -rf results/raw results/counts "$work/geoserve.jsonl" "$work"/counts/*.csv
for r in $(seq 1 "$rounds"); do
  export BENCH_ROUND=$r
  for b in bench_c bench_shapely bench_duckdb bench_postgis; do
    log "round $r/$rounds: $b"
    "$py" "$b.py" >> "$logs/$b.log" 2>&1 || die "$b.py failed, see $logs/$b.log"
  done
  for polys in "${polysets[@]}"; do
    for points in "${pointsets[@]}"; do
      for threads in 1 2; do
        log "round $r/$rounds: geoserve $polys $points threads=$threads"
        line=$("$geoserve" bench assign --areas "data/$polys.geojson" --points "data/$points.f64" \
                 --threads "$threads" --repeat "$BENCH_REPS" \
                 --out "$work/counts/geoserve.t${threads}__${polys}__${points}.csv" 2>> "$logs/geoserve.log") \
          || die "geoserve bench assign failed, see $logs/geoserve.log"
        # geoserve's "points" (a count) becomes "n", as in the peers' records; "points" names the set.
        printf '%s\n' "$line" | python3 "$report" record \
          --round "$r" --polys "$polys" --points "$points" >> "$work/geoserve.jsonl"
      done
    done
  done
done

# --- 4. tables -----------------------------------------------------------------------------------
python3 "$report" report --peers "$peers" --work "$work" | tee "$work/assign.md"
