#!/usr/bin/env bash
# Regression check between two geoserve release binaries (an older commit's and the current
# one's): the same workloads on the same inputs, in the same run on the same machine, rounds
# alternating (round 1 before, round 1 after, round 2 before, …), then a Markdown table of the
# medians per binary and of the after/before ratio per figure (median of the per-round ratios),
# with a verdict against a tolerance (5 %).
#
#   bench/regression.sh BEFORE_BINARY AFTER_BINARY
#
# Nothing is built: pass two release binaries (e.g. build the older commit in a git worktree,
# copy its .build/release/geoserve away, then build the current one). Both are copied into the
# work folder first, so a rebuild during the run does not change what is measured.
#
# Workloads, per binary and round (each wrk run after a WARMUP-second warm-up on the same URL):
#   assign         `geoserve bench assign --threads 1 --repeat ASSIGN_REPEAT` on the peers' 77
#                  Chicago areas and 4,000 cells with POINTS uniform points in the cells' bounding
#                  box (the peers' points_uniform rule; generated here, fixed seed): points/s end
#                  to end (index build + assignment) and assignment only
#   tiles uncached `geoserve bench tiles --value count --repeat TILE_REPEAT` on the 4,000 cells,
#                  the peers' z12 / z14 / z16 lists (computed here by their rule): tiles/s; skipped
#                  with a note for a binary without that subcommand
#   intake         as bench/reports-load.sh: fresh store with the demo campus (data/), wrk 2
#                  threads × 32 connections with bench/reports.lua POSTing anonymous misconduct
#                  reports, DURATION s: reports/s and p99
#   features       as bench/features-vs-pygeoapi.sh: fresh store with the peers' campus halls as
#                  `bhalls` and cells as `cells`, wrk 2 × 4 on /collections/bhalls/items?limit=50
#                  (the peers' halls50 shape; every hall checked before timing): requests/s, p99
#   publication    `geoserve bench publication` on the campus (42 halls, 20 reports a day) and on
#                  4,000 cells (2,000 a day), 56 daily publications: the median time to plan one
#                  and the time to replay the whole history in a first publication
#   tiles cached   as bench/tiles-http.sh, on the same server: the z14 list under the TileJSON's
#                  versioned tile URL template, requested once to fill the cache, then wrk 2 × 32
#                  cycling through it: tiles/s, p99
# Every server runs on its own fresh folder in the work folder and a free loopback port; servers
# are stopped and the work folder deleted on every exit (success, failure, Ctrl-C, TERM).
#
# Environment:
#   ROUNDS        rounds per binary (default 3)
#   DURATION      seconds per timed wrk run (default 10)
#   WARMUP        seconds of warm-up per wrk URL (default 2)
#   POINTS        points for assign (default 1000000)
#   ASSIGN_REPEAT timed repetitions per `bench assign` (default 5)
#   TILE_REPEAT   timed passes per `bench tiles` list (default 3)
#   TOLERANCE     percent a figure may be worse before the verdict flags it (default 5)
#   SHARED        the shared folder holding bench/data (default ../shared beside this repository)
#   OUT           also write the final table to this file
#   KEEP_WORK=1   keep the work folder (results.jsonl, logs/) and print its path
#   WORKLOADS     which to run, of "assign tiles publication intake serve" (default all); e.g. WORKLOADS=serve
#                 to compare one binary with caches on and off through a wrapper that adds flags
# ROUNDS=3 with the defaults takes about 6 minutes on two cores with release binaries.
set -euo pipefail
workloads=" ${WORKLOADS:-assign tiles publication intake serve} "
want() { [[ $workloads == *" $1 "* ]]; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
report=$root/bench/regression_report.py
shared=${SHARED:-$root/../shared}
data=$shared/bench/data
rounds=${ROUNDS:-3}; duration=${DURATION:-10}; warmup=${WARMUP:-2}
points=${POINTS:-1000000}; assign_repeat=${ASSIGN_REPEAT:-5}; tile_repeat=${TILE_REPEAT:-3}
tolerance=${TOLERANCE:-5}

die() { echo "regression.sh: $*" >&2; exit 1; }
log() { echo "[regression.sh $(date +%H:%M:%S)] $*" >&2; }

[ $# -eq 2 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
for b in "$1" "$2"; do [ -x "$b" ] && [ -f "$b" ] || die "not an executable file: $b"; done
for v in rounds duration warmup points assign_repeat tile_repeat; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "${v^^}=${!v}: a positive integer is needed"
done
[[ $tolerance =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "TOLERANCE=$tolerance: a number of percent is needed"
for f in chicago_areas chicago_cells campus_halls; do
  [ -f "$data/$f.geojson" ] || die "missing $data/$f.geojson (the shared peer benchmark data; set SHARED=...)"
done
[ -f "$root/data/halls.geojson" ] || die "missing the demo campus in $root/data"
[ -f "$root/bench/reports.lua" ] || die "missing $root/bench/reports.lua"
command -v curl >/dev/null || die "curl is needed"
command -v python3 >/dev/null || die "python3 is needed"
if ! command -v wrk >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing wrk (apt-get)"
    { apt-get install -y wrk || { apt-get update && apt-get install -y wrk; }; } >/dev/null 2>&1 || true
  fi
  command -v wrk >/dev/null || die "wrk is needed (apt-get install wrk)"
fi

# --- work folder, cleanup --------------------------------------------------------------------
work=$(mktemp -d -t geoserve-regression.XXXXXX)
server_pid=; wrk_pid=
stop_server() {
  [ -n "$server_pid" ] || return 0
  kill -TERM "$server_pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  [ -n "$wrk_pid" ] && kill -TERM "$wrk_pid" 2>/dev/null || true
  stop_server
  if [ "${KEEP_WORK:-}" = 1 ]; then echo "work folder kept: $work" >&2; else rm -rf "$work"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$work/bin" "$work/inputs" "$work/logs"
cp "$1" "$work/bin/before"; cp "$2" "$work/bin/after"
results=$work/results.jsonl
: > "$results"

# --- inputs, identical for both binaries -----------------------------------------------------
inputs=$work/inputs
plabel=$(python3 -c "print(f'{$points:,}')")
log "inputs: $points uniform points, tile lists z12/z14/z16"
python3 "$report" inputs "$data/chicago_cells.geojson" "$inputs" "$points" 2> "$work/logs/inputs.log" \
  || die "could not write the inputs: $(cat "$work/logs/inputs.log")"
cat > "$inputs/body.json" <<'JSON'
{"kind":"misconduct","occurredAt":"2026-11-02T21:30:00Z","location":{"lon":-87.5960,"lat":41.7920,"accuracyM":10},"officerDescription":"tall, grey uniform","incidentDescription":"stopped without reason","anonymous":true}
JSON
# wrk's summary as one JSON line (the same fields as reports.lua's done()).
cat > "$inputs/done.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format('{"requests":%d,"seconds":%.3f,"p50_ms":%.3f,"p99_ms":%.3f,"errors":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA

declare -A has_tiles
for b in before after; do
  if "$work/bin/$b" bench tiles --help >/dev/null 2>&1; then has_tiles[$b]=1; else
    has_tiles[$b]=0; log "$b has no 'bench tiles': uncached tiles skipped for both"
  fi
done
bench_tiles=0; [ "${has_tiles[before]}${has_tiles[after]}" = 11 ] && bench_tiles=1

# --- helpers ---------------------------------------------------------------------------------
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
start_server() {  # binary db demo-data log -> server_pid, base
  local bin=$1 db=$2 demo=$3 logf=$4 attempt port
  for attempt in 1 2 3; do
    port=$(free_port)
    GEOSERVE_ANONYMOUS_PER_MINUTE=0 GEOSERVE_MAX_PENDING_ANONYMOUS=0 "$bin" serve --port "$port" --database "$db" --demo-data "$demo" --log-level error >> "$logf" 2>&1 &
    server_pid=$!
    base="http://127.0.0.1:$port"
    for _ in $(seq 600); do  # <= 60 s (the demo campus import on first start)
      kill -0 "$server_pid" 2>/dev/null || break
      curl -fs -o /dev/null --max-time 2 "$base/readyz" && return 0
      sleep 0.1
    done
    echo "server did not become ready on $base (attempt $attempt)" >> "$logf"
    stop_server
  done
  die "could not start $bin serve, see the log: $(tail -5 "$logf")"
}
run_wrk() {  # threads connections seconds url script...; wrk's output -> $work/wrk.out
  local t=$1 c=$2 s=$3 url=$4 rc=0; shift 4
  timeout -k 5 $((s + 60)) wrk -t"$t" -c"$c" -d"${s}s" --timeout 10s "$@" "$url" > "$work/wrk.out" 2>&1 &
  wrk_pid=$!
  wait "$wrk_pid" || rc=$?
  wrk_pid=
  [ "$rc" = 0 ] || die "wrk failed ($rc) on $url: $(cat "$work/wrk.out")"
}
measure_wrk() {  # binary round "name|unit" threads connections url script... (warm-up, then timed run, recorded)
  local b=$1 r=$2 name=$3 t=$4 c=$5 url=$6; shift 6
  run_wrk "$t" "$c" "$warmup" "$url" "$@"
  sleep 0.5
  run_wrk "$t" "$c" "$duration" "$url" "$@"
  tail -1 "$work/wrk.out" | python3 "$report" record "$results" "$b" "$r" wrk "$name" 2>> "$work/logs/$b.log" \
    || die "could not read wrk's summary for $name: $(cat "$work/wrk.out")"
  sleep 0.5
}

# --- one round of one binary -------------------------------------------------------------------
run_binary() {  # before|after round
  local b=$1 r=$2 bin=$work/bin/$1 logs=$work/logs/$1.log dir tilejson template
  # 1. assignment, one thread
  want assign && for layer in chicago_areas:"77 areas" chicago_cells:"4,000 cells"; do
    log "round $r/$rounds $b: assign ${layer#*:}"
    "$bin" bench assign --areas "$data/${layer%%:*}.geojson" --points "$inputs/points_uniform.f64" \
      --threads 1 --repeat "$assign_repeat" 2>> "$logs" \
      | python3 "$report" record "$results" "$b" "$r" assign "${layer#*:} / $plabel uniform points" \
      || die "bench assign failed for $b, see $logs"
  done
  # 2. uncached tiles
  if ! want tiles; then
    :
  elif [ "$bench_tiles" = 1 ]; then
    log "round $r/$rounds $b: bench tiles z12 z14 z16"
    "$bin" bench tiles --areas "$data/chicago_cells.geojson" --value count --repeat "$tile_repeat" \
      "$inputs/tiles_z12.txt" "$inputs/tiles_z14.txt" "$inputs/tiles_z16.txt" 2>> "$logs" \
      | python3 "$report" record "$results" "$b" "$r" tiles || die "bench tiles failed for $b, see $logs"
  elif [ "$r" = 1 ]; then
    for x in before after; do
      [ "${has_tiles[$x]}" = 1 ] || python3 "$report" record "$results" "$x" "$r" skip \
        "uncached tiles: this binary has no 'bench tiles' subcommand" < /dev/null
    done
  fi
  # 2b. publication planning
  want publication && for load in "42 20 campus, 42 halls, 20 a day" "4000 2000 4,000 cells, 2,000 a day"; do
    read -r areas per_day label <<< "$load"
    log "round $r/$rounds $b: bench publication $label"
    "$bin" bench publication --areas "$areas" --per-day "$per_day" 2>> "$logs" \
      | python3 "$report" record "$results" "$b" "$r" publication "$label" || die "bench publication failed for $b, see $logs"
  done
  # 3. durable intake on a fresh store with the demo campus
  if want intake; then
  dir=$(mktemp -d "$work/store.XXXXXX")
  log "round $r/$rounds $b: intake (wrk 2x32, ${duration}s)"
  start_server "$bin" "$dir/g.sqlite" "$root/data" "$logs"
  curl -fs -o /dev/null -X POST -H 'Content-Type: application/json' --data-binary @"$inputs/body.json" "$base/v1/reports" \
    || die "$b: POST /v1/reports did not answer 2xx: $(curl -s -X POST -H 'Content-Type: application/json' --data-binary @"$inputs/body.json" "$base/v1/reports")"
  measure_wrk "$b" "$r" "intake POST /v1/reports (2×32)|reports/s" 2 32 "$base" -s "$root/bench/reports.lua"
  stop_server; rm -rf "$dir"
  fi
  want serve || return 0
  # 4. features and cached tiles on a fresh store with the peers' halls and cells
  dir=$(mktemp -d "$work/store.XXXXXX")
  "$bin" import-areas "$data/campus_halls.geojson" --layer bhalls --database "$dir/g.sqlite" >> "$logs" 2>&1 \
    || die "$b: import-areas bhalls failed, see $logs"
  "$bin" import-areas "$data/chicago_cells.geojson" --layer cells --database "$dir/g.sqlite" >> "$logs" 2>&1 \
    || die "$b: import-areas cells failed, see $logs"
  start_server "$bin" "$dir/g.sqlite" none "$logs"
  curl -fs "$base/collections/bhalls/items?limit=50" > "$dir/halls.json" || die "$b: halls50 did not answer 200"
  python3 - "$dir/halls.json" "$data/campus_halls.geojson" <<'PY' || die "$b: halls50 is not the whole halls layer"
import json, sys
got, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert got.get("type") == "FeatureCollection", got.get("type")
assert len(got["features"]) == min(50, len(want["features"])), len(got["features"])
PY
  log "round $r/$rounds $b: features halls50 (wrk 2x4, ${duration}s)"
  measure_wrk "$b" "$r" "features halls50 /collections/bhalls/items?limit=50 (2×4)|requests/s" 2 4 \
    "$base/collections/bhalls/items?limit=50" -s "$inputs/done.lua"
  tilejson=$(curl -fs "$base/tiles/cells.json") || die "$b: no TileJSON at /tiles/cells.json"
  template=$(python3 -c 'import json,sys,urllib.parse as u; t=json.loads(sys.argv[1])["tiles"][0]; s=u.urlsplit(t); print(s.path + ("?" + s.query if s.query else ""))' "$tilejson")
  case $template in *"{z}"*"{x}"*"{y}"*) ;; *) die "$b: unexpected tile URL template: $template" ;; esac
  awk -v t="$template" '{ u = t; sub(/\{z\}/, $1, u); sub(/\{x\}/, $2, u); sub(/\{y\}/, $3, u); print u }' \
    "$inputs/tiles_z14.txt" > "$dir/urls.txt"
  awk -v b="$base" '{ printf "url = \"%s%s\"\noutput = \"/dev/null\"\n", b, $0 }' "$dir/urls.txt" > "$dir/fill.curl"
  curl -fs --fail-early -K "$dir/fill.curl" || die "$b: filling the tile cache failed (a z14 tile did not answer 200)"
  [ "$(curl -fs -o /dev/null -w '%{content_type}' "$base$(head -1 "$dir/urls.txt")")" = image/png ] \
    || die "$b: a tile URL did not answer image/png: $base$(head -1 "$dir/urls.txt")"
  { printf 'local urls = {}\nfor line in io.lines("%s") do urls[#urls + 1] = line end\n' "$dir/urls.txt"
    printf 'local i = 0\nrequest = function()\n  i = i %% #urls + 1\n  return wrk.format("GET", urls[i])\nend\n'
    cat "$inputs/done.lua"; } > "$dir/tiles.lua"
  log "round $r/$rounds $b: cached tiles z14 over HTTP (wrk 2x32, ${duration}s)"
  measure_wrk "$b" "$r" "tiles cached z14 over HTTP, $(wc -l < "$dir/urls.txt") URLs (2×32)|tiles/s" 2 32 "$base" -s "$dir/tiles.lua"
  stop_server; rm -rf "$dir"
}

log "before: $1"; log "after:  $2"
log "$rounds round(s), wrk ${duration}s per run after ${warmup}s warm-up, $(nproc) cores"
for r in $(seq 1 "$rounds"); do
  run_binary before "$r"
  run_binary after "$r"
done

table=$(python3 "$report" table "$results" "$tolerance")
{
  echo "## geoserve regression check"
  echo
  echo "before: \`$1\` ($(sha256sum "$work/bin/before" | cut -c1-12)), after: \`$2\` ($(sha256sum "$work/bin/after" | cut -c1-12)); $(date -u +%Y-%m-%d), $(nproc) cores, $rounds round(s), wrk ${duration}s after ${warmup}s warm-up"
  echo
  printf '%s\n' "$table"
} > "$work/table.md"
cat "$work/table.md"
if [ -n "${OUT:-}" ]; then cp "$work/table.md" "$OUT"; log "table written to $OUT"; fi
