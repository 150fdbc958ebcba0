#!/usr/bin/env bash
# Scaling to city and national layers: geoserve release binaries on generated layers of 1,000 to
# 300,000 areas of two shapes (bench/make_scale_layer.py: "hex", a jittered hexagonal coverage,
# seven positions a ring, every cell the same size; "voronoi", the Voronoi cells of uniform
# random points clipped to the box, six corners a cell on average, sizes and neighbours varying
# as real areas' do) and 1,000,000 uniform points, measured from outside as bench/scale_run.py
# describes: import, assignment, then two starts of the server on the store: the first after
# import-areas (time to ready, memory, the first answer of items, TileJSON and tiles after
# start, after a verification and after a publication, every zoom from 10 to 18) and a second
# start on the same store (time to ready, memory). The targets: ready ≤ 1 s at 100,000 areas and
# ≤ 3 s at 300,000, on every start, the first after import-areas included.
#
#   bench/scale.sh [BINARY ...]       # default: .build/release/geoserve (built when missing)
#
# Several binaries (e.g. before and after a change) are measured size by size and shape by shape,
# one after the other on the same layer in the same run. Environment: SIZES (default
# "1000 10000 100000 300000"), SHAPES (default "hex voronoi"), WORK (default /tmp/geoserve-scale;
# generated layers are kept there, one a shape and size, and reused).
# Output: one JSON line per binary, size and shape on stdout (its "shape" field names the shape),
# then a table per binary and shape.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sizes=${SIZES:-1000 10000 100000 300000}
shapes=${SHAPES:-hex voronoi}
work=${WORK:-/tmp/geoserve-scale}
binaries=("$@")
if [ ${#binaries[@]} -eq 0 ]; then
  [ -x "$root/.build/release/geoserve" ] || (cd "$root" && swift build -c release --product geoserve)
  binaries=("$root/.build/release/geoserve")
fi
for shape in $shapes; do
  case $shape in
    hex|voronoi) ;;
    *) echo "SHAPES: unknown shape $shape (hex, voronoi)" >&2; exit 2 ;;
  esac
done
mkdir -p "$work"
results=()
for b in "${binaries[@]}"; do
  name=$(basename "$b")
  results+=("$work/$name.jsonl")
  : > "$work/$name.jsonl"
done
for size in $sizes; do
  for shape in $shapes; do
    for i in "${!binaries[@]}"; do
      SHAPES=$shape python3 "$root/bench/scale_run.py" "${binaries[$i]}" "$work" "$size" | tee -a "${results[$i]}"
    done
  done
done
for i in "${!binaries[@]}"; do
  echo
  echo "## ${binaries[$i]}"
  echo
  python3 "$root/bench/scale_table.py" "${results[$i]}"
done
