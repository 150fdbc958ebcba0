#!/usr/bin/env bash
# Scaling to city and national layers: geoserve release binaries on generated layers of 1,000 to
# 300,000 areas (bench/make_scale_layer.py: a jittered hexagonal coverage, seven positions a
# ring, 1,000,000 uniform points), measured from outside as bench/scale_run.py describes: start,
# memory, the first answer of items, TileJSON and tiles after start, after a verification and
# after a publication, every zoom from 10 to 18, import, and assignment.
#
#   bench/scale.sh [BINARY ...]       # default: .build/release/geoserve (built when missing)
#
# Several binaries (e.g. before and after a change) are measured size by size, one after the
# other in the same run. Environment: SIZES (default "1000 10000 100000 300000"),
# WORK (default /tmp/geoserve-scale; generated layers are kept there and reused).
# Output: one JSON line per binary and size on stdout, then a table per binary.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sizes=${SIZES:-1000 10000 100000 300000}
work=${WORK:-/tmp/geoserve-scale}
binaries=("$@")
if [ ${#binaries[@]} -eq 0 ]; then
  [ -x "$root/.build/release/geoserve" ] || (cd "$root" && swift build -c release --product geoserve)
  binaries=("$root/.build/release/geoserve")
fi
mkdir -p "$work"
results=()
for b in "${binaries[@]}"; do
  name=$(basename "$b")
  results+=("$work/$name.jsonl")
  : > "$work/$name.jsonl"
done
for size in $sizes; do
  for i in "${!binaries[@]}"; do
    python3 "$root/bench/scale_run.py" "${binaries[$i]}" "$work" "$size" | tee -a "${results[$i]}"
  done
done
for i in "${!binaries[@]}"; do
  echo
  echo "## ${binaries[$i]}"
  python3 "$root/bench/scale_table.py" "${results[$i]}"
done
