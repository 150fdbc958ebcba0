#!/usr/bin/env bash
# Counter recount from 1,000,000 report rows beside DuckDB's GROUP BY on the same rows.
# Builds geoserve in release mode, then runs bench/aggregate_vs_duckdb.py with the bench venv's
# python (numpy, pandas, duckdb): ${BENCH_VENV:-$HOME/.cache/geoserve-bench/venv}/bin/python.
# REPS (default 5) timed runs follow one warm-up; medians are printed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
PY=${PY:-${BENCH_VENV:-$HOME/.cache/geoserve-bench/venv}/bin/python}
[ -x "$PY" ] || { echo "no python at $PY (set BENCH_VENV or PY)" >&2; exit 1; }
(cd "$root" && swift build -c release --product geoserve >&2)
bin=$(cd "$root" && swift build -c release --show-bin-path)/geoserve
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PY" "$here/aggregate_vs_duckdb.py" "$bin" "$tmp"
