#!/usr/bin/env bash
# A long mixed load on two geoserve processes sharing one PostgreSQL, watching their memory:
# whether the resident set levels off or keeps growing.
#
#   bench/soak.sh BINARY
#
# A throw-away PostgreSQL with its durable defaults; two `geoserve serve` on one database with
# the demo campus (data/). For DURATION seconds (default 1800): wrk (bench/soak.lua, two
# connections per process, PAUSE_MS between a response and the next request) cycles over the
# public reads (items of every layer, TileJSON, PNG tiles at zooms 14-17 over the campus, the
# OGC landing page and collections, publications, nearest testing sites, the containing areas,
# the public misconduct search, the OpenAPI document), and Tests/Operations/load.py
# submits COVID reports to both (POSTERS clients each, a new connection and Idempotency-Key per
# request). Every SAMPLE seconds (default 15) each process's VmRSS is read from /proc.
# Printed: requests and failures, then per process the RSS at each fifth of the run and the
# growth over the second half and over the last fifth, in MB, and a verdict per process: "level"
# when the last fifth grew by less than LEVEL_MB (default 1), else "growing".
#
# Environment: DURATION, SAMPLE, PAUSE_MS (default 5), POSTERS (default 1), LEVEL_MB, KEEP_WORK=1
# (keep the samples and logs and print their folder).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
duration=${DURATION:-1800}; sample=${SAMPLE:-15}; pause=${PAUSE_MS:-5}; posters=${POSTERS:-1}; level=${LEVEL_MB:-1}
[ $# -eq 1 ] && [ -x "$1" ] || { sed -n '2,21p' "$0" >&2; exit 2; }
bin=$1
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bindir" ] && [ -x "$bindir/initdb" ] || { echo "PostgreSQL's server programs are missing (apt-get install postgresql)" >&2; exit 1; }
log() { echo "[soak $(date +%H:%M:%S)] $*" >&2; }

work=$(mktemp -d -t geoserve-soak.XXXXXX)
as_owner=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chown postgres "$work"
  as_owner=(runuser -u postgres --)
fi
chmod 755 "$work"
pids=()
cleanup() {
  local rc=$? p
  trap - EXIT
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  sleep 1
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  "${as_owner[@]}" "$bindir/pg_ctl" -D "$work/pg" -m immediate -w stop >/dev/null 2>&1 || true
  if [ "${KEEP_WORK:-}" = 1 ]; then echo "work folder kept: $work" >&2; else rm -rf "$work"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
export PYTHONDONTWRITEBYTECODE=1
# No bound on pending anonymous reports (older binaries ignore the variable): the load files thousands.
export GEOSERVE_MAX_PENDING_ANONYMOUS=0
free_port() { python3 "$root/Tests/Operations/load.py" free-port; }

pgport=$(free_port)
"${as_owner[@]}" "$bindir/initdb" -D "$work/pg" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$work/initdb.log" 2>&1
"${as_owner[@]}" "$bindir/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
  -o "-p $pgport -k $work -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
"$bindir/psql" -X -h 127.0.0.1 -p "$pgport" -U postgres -Atqc "CREATE DATABASE soak" postgres
export GEOSERVE_DATABASE="postgres://postgres@127.0.0.1:$pgport/soak" GEOSERVE_KEYS=$work/soak.keys

ports=()
for n in 1 2; do
  port=$(free_port); ports+=("$port")
  (cd "$work" && exec "$bin" serve --host 127.0.0.1 --port "$port" --attachments "$work/attachments" --demo-data "$root/data" \
    --publish-at never --anonymous-per-minute 0 --drain-delay 0 --log-level error) >"$work/serve-$n.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 300); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
  curl -fs "http://127.0.0.1:$port/readyz" >/dev/null || { cat "$work/serve-$n.log" >&2; exit 1; }
done
servers=("${pids[@]}"); wrks=(); loaders=()

# The public reads, tiles over the campus (the demo halls' bounding box) at zooms 14-17.
python3 - "$work/paths" <<'PY'
import math, sys
paths = ["/", "/collections", "/conformance", "/openapi.json", "/v1/layers", "/v1/publications", "/tiles/halls.json",
         "/v1/places/nearest?lon=-87.6&lat=41.79&k=3", "/v1/areas/containing?lon=-87.6&lat=41.79",
         "/v1/misconduct?layer=zones&area=Z1", "/collections/zones/items", "/collections/testing-sites/items"]
paths += [f"/collections/halls/items?limit={n}" for n in (5, 20, 50)]
def tile(lon, lat, z):
    n = 2 ** z
    x = int((lon + 180) / 360 * n)
    y = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
    return x, y
for z in range(14, 18):
    x0, y0 = tile(-87.6060, 41.7950, z)
    x1, y1 = tile(-87.5800, 41.7830, z)
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            paths.append(f"/tiles/halls/{z}/{x}/{y}.png")
open(sys.argv[1], "w").write("\n".join(paths) + "\n")
PY
for n in 0 1; do
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept: text/html' "http://127.0.0.1:${ports[$n]}/")
  [ "$code" = 200 ] || { echo "the dashboard answered $code" >&2; exit 1; }
done
log "$(wc -l <"$work/paths") paths; $duration s on two processes"

for n in 0 1; do
  PATHS_FILE=$work/paths PAUSE_MS=$pause wrk -t1 -c2 -d"${duration}s" -s "$root/bench/soak.lua" "http://127.0.0.1:${ports[$n]}" >"$work/wrk-$n.out" 2>&1 &
  pids+=($!); wrks+=($!)
  python3 "$root/Tests/Operations/load.py" run "http://127.0.0.1:${ports[$n]}" "$work/load-$n.jsonl" 0 "$posters" &
  pids+=($!); loaders+=($!)
done
: >"$work/rss"
began=$(date +%s)
while [ $(( $(date +%s) - began )) -lt "$duration" ]; do
  echo "$(( $(date +%s) - began )) $(awk '/VmRSS/ {print $2}' "/proc/${servers[0]}/status") $(awk '/VmRSS/ {print $2}' "/proc/${servers[1]}/status")" >>"$work/rss"
  sleep "$sample"
done
for p in "${loaders[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
for p in "${wrks[@]}"; do wait "$p" 2>/dev/null || true; done
for p in "${loaders[@]}"; do wait "$p" 2>/dev/null || true; done
for n in 0 1; do kill -0 "${servers[$n]}" 2>/dev/null || { echo "process $((n + 1)) exited during the soak" >&2; exit 1; }; done

cat "$work"/wrk-*.out | grep '^soak-get' || true
python3 - "$work/rss" "$level" "$work"/load-*.jsonl <<'PY'
import json, sys
rss = [tuple(int(v) for v in line.split()) for line in open(sys.argv[1]) if line.strip()]
level = float(sys.argv[2])
posts = [json.loads(l) for path in sys.argv[3:] for l in open(path) if l.strip()]
print(f"submissions: {len(posts)}, not 201: {sum(1 for p in posts if p['status'] != 201)}")
end = rss[-1][0]
def at(t, n):
    return min(rss, key=lambda r: abs(r[0] - t))[n] / 1024
print("| process | " + " | ".join(f"{int(end * k / 5 / 60)} min" for k in range(1, 6)) + " | second half | last fifth | |")
print("|---" * 9 + "|")
for n in (1, 2):
    points = [at(end * k / 5, n) for k in range(1, 6)]
    half = at(end, n) - at(end / 2, n)
    fifth = at(end, n) - at(end * 4 / 5, n)
    print(f"| {n} | " + " | ".join(f"{p:.1f}" for p in points) + f" | {half:+.1f} | {fifth:+.1f} | {'level' if fifth < level else 'growing'} |")
PY
