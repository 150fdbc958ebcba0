#!/usr/bin/env bash
# libFuzzer over the readers of untrusted input (Package.swift names them), built with coverage
# counters and the address sanitizer together (`-sanitize=fuzzer,address`: given as two
# `--sanitize` options, swiftc kept only the last, and the harnesses ran blind, 27.6 M inputs
# leaving the corpus at one 1-byte input). Each harness starts from its seed corpus
# (corpus/NAME, in the repository) and the JSON dictionary; what it discovers goes to a temporary
# folder, never into the repository. A harness whose coverage (libFuzzer's `cov:`, edges reached)
# at the end is not above what its seed corpus reached fails the run: a build without coverage
# counters cannot pass. A crash, a sanitizer report or a failed property stops it and fails the run; the
# input that did it is kept as ARTIFACTS/crash-… (default .build/fuzz-artifacts), to replay with
# `$(swift build … --show-bin-path)/FuzzJSON ARTIFACTS/crash-…`.
#
# Usage: Tests/Fuzz/run.sh [SECONDS_EACH]      (default 30; a longer run: Tests/Fuzz/run.sh 3600)
# Last line: "fuzz: N passed, M failed".
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SECONDS_EACH=${1:-30}
SCRATCH="$ROOT/.build-fuzz"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/geoserve-fuzz.XXXXXX")
ARTIFACTS=${ARTIFACTS:-$ROOT/.build/fuzz-artifacts}
mkdir -p "$ARTIFACTS"
trap 'rm -rf "$WORK"' EXIT

# `--sanitize=fuzzer` tells SwiftPM that libFuzzer provides `main`; the swiftc flag after it,
# which swiftc takes as the last word, adds the address sanitizer to the coverage counters.
FLAGS=(--sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --scratch-path "$SCRATCH")
(cd "$HERE" && swift build "${FLAGS[@]}" 2>&1 | grep -v "Cannot export local symbol") ||
  { echo "FAIL fuzz: the harnesses do not build"; echo "fuzz: 0 passed, 1 failed"; exit 1; }
BIN=$(cd "$HERE" && swift build "${FLAGS[@]}" --show-bin-path)

passed=0
failed=0
for pair in FuzzJSON:json FuzzGeoJSON:geojson FuzzReport:report FuzzCSV:csv; do
  harness=${pair%%:*}
  seeds=$HERE/corpus/${pair##*:}
  found=$WORK/${pair##*:}
  mkdir -p "$found"
  # detect_leaks: GEOS handles the GeoJSON reader makes must all be freed. -timeout: one input
  # taking over 10 s is a hang. -rss_limit_mb: one input taking 2 GB is a failure too.
  if ASAN_OPTIONS=detect_leaks=1 "$BIN/$harness" "$found" "$seeds" -dict="$HERE/json.dict" -max_total_time="$SECONDS_EACH" \
      -timeout=10 -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$ARTIFACTS/" -print_final_stats=1 >"$WORK/$harness.log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$WORK/$harness.log" | grep -o '[0-9]*$')
    seeded=$(grep -m1 'INITED cov:' "$WORK/$harness.log" | sed -n 's/.*INITED cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\).*/\1 \2 \3/p')
    reached=$(grep 'DONE *cov:' "$WORK/$harness.log" | tail -1 | sed -n 's/.*DONE *cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\).*/\1 \2 \3/p')
    read -r seed_cov seed_ft seed_corp <<<"${seeded:-0 0 0}"
    read -r cov ft corp <<<"${reached:-0 0 0}"
    if [ "$cov" -gt "$seed_cov" ]; then
      echo "ok $harness: ${runs:-?} inputs in ${SECONDS_EACH} s, no crash; coverage $seed_cov → $cov edges ($seed_ft → $ft features), corpus $seed_corp → $corp inputs"
      passed=$((passed + 1))
    else
      echo "FAIL $harness: coverage did not grow past the seed corpus ($seed_cov → $cov edges, corpus $seed_corp → $corp): is it built with coverage counters?"
      grep -m3 -E 'INITED|DONE|instrumented' "$WORK/$harness.log"
      failed=$((failed + 1))
    fi
  else
    echo "FAIL $harness: $(grep -m1 -E 'ERROR|Fatal error|panic|deadly signal' "$WORK/$harness.log")"
    tail -40 "$WORK/$harness.log"
    ls "$ARTIFACTS"/crash-* "$ARTIFACTS"/leak-* "$ARTIFACTS"/timeout-* "$ARTIFACTS"/oom-* 2>/dev/null
    failed=$((failed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
