#!/usr/bin/env bash
# The pages' scripts outside a browser, in seconds: node parses every script of the pages' assets
# (a syntax error would otherwise show only in Chromium, after the Swift build), then runs the
# tests of their pure functions (Tests/Pages/*.test.mjs, node's own test runner and assert).
#
# Usage: Tests/Pages/run.sh
# Exits non-zero when a script does not parse or a test fails.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ASSETS=$ROOT/Sources/GeoserveApp/Pages/Assets

failed=0
checked=0
while IFS= read -r -d '' script; do
  checked=$((checked + 1))
  node --check "$script" || { echo "FAIL syntax ${script#"$ROOT"/}" >&2; failed=1; }
done < <(find "$ASSETS" -name '*.js' -print0 | sort -z)
((checked > 0)) || { echo "FAIL no script found under ${ASSETS#"$ROOT"/}" >&2; exit 1; }
((failed == 0)) || exit 1
echo "pages: $checked scripts parse"
node --test --test-reporter=spec "$HERE"/*.test.mjs
