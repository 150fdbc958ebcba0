#!/usr/bin/env bash
# Choropleth tile rendering beside Mapnik, in the same run: the peers' input preparation and
# Mapnik renderer (GeoJSON datasource) write the tile lists (z12: all 36, z14: all 480, z16: a
# seeded sample of 600), then `geoserve bench tiles` renders the same lists of the same 4,000
# cells with the same style (7 YlOrRd quantile classes of `count`, 0.5 px grey outlines),
# uncached, one thread. Rounds alternate Mapnik and geoserve.
#
#   bench/tiles-vs-mapnik.sh      # env: SHARED (default ../shared), ROUNDS (default 3)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$root/../shared}
rounds=${ROUNDS:-3}
py=${PY:-${BENCH_VENV:-$HOME/.cache/geoserve-bench/venv}/bin/python}
[ -f "$shared/bench/render_mapnik.py" ] || { echo "the peer benchmarks are needed at $shared/bench (set SHARED=...)" >&2; exit 2; }
[ -x "$py" ] || { echo "run $shared/bench/setup.sh first (no python at $py)" >&2; exit 2; }
export GEOBENCH_TMP=${GEOBENCH_TMP:-$(mktemp -d)}
(cd "$root" && swift build -c release --product geoserve >/dev/null 2>&1)
# prep_inputs.py also converts point sets the tiles do not need (and that may not be generated):
# only the projected cells it writes first matter here.
(cd "$shared/bench" && "$py" prep_inputs.py >/dev/null 2>&1) || true
[ -f "$GEOBENCH_TMP/chicago_cells_3857.geojson" ] || { echo "prep_inputs.py did not write the projected cells" >&2; exit 1; }
results="$GEOBENCH_TMP/tiles.jsonl"
: > "$results"
for r in $(seq 0 $((rounds - 1))); do
  (cd "$shared/bench" && BENCH_ROUND=$r /usr/bin/python3 render_mapnik.py geojson) | sed "s/^/{\"system\":\"mapnik\",\"data\":/; s/\$/}/" >> "$results"
  "$root/.build/release/geoserve" bench tiles --areas "$shared/bench/data/chicago_cells.geojson" --value count --repeat 1 \
    "$GEOBENCH_TMP"/tiles_z12.txt "$GEOBENCH_TMP"/tiles_z14.txt "$GEOBENCH_TMP"/tiles_z16.txt \
    | sed "s/^/{\"system\":\"geoserve\",\"data\":/; s/\$/}/" >> "$results"
done
"$py" "$root/bench/tiles_report.py" "$results"
