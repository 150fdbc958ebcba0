#!/usr/bin/env bash
# What metrics and the request log cost: the intake and halls50 serving workloads of
# bench/regression.sh, in one run, on a binary without them (BEFORE, an earlier commit's release
# build) and on one with them (AFTER) run as an operator would: every request logged at info as a
# JSON line into the server's log file, the metrics recorded (they are always on).
#
#   bench/operations-cost.sh BEFORE_BINARY AFTER_BINARY
#
# Same environment as bench/regression.sh (ROUNDS, DURATION, WARMUP, SHARED, OUT, KEEP_WORK).
set -euo pipefail
[ $# -eq 2 ] && [ -x "$1" ] && [ -x "$2" ] || { echo "usage: $0 BEFORE_BINARY AFTER_BINARY" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
after=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
# regression.sh starts servers with --log-level error; a later flag wins, so this turns the
# request log on for AFTER only.
cat > "$folder/geoserve-logging" <<WRAPPER
#!/bin/sh
if [ "\$1" = serve ]; then shift; exec "$after" serve "\$@" --log-level info --log-format json; fi
exec "$after" "\$@"
WRAPPER
chmod +x "$folder/geoserve-logging"
WORKLOADS="intake serve" "$root/bench/regression.sh" "$1" "$folder/geoserve-logging"
