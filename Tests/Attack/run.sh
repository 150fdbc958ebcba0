#!/usr/bin/env bash
# The attacker suite: plants small counts on a live service, publishes over thirteen days,
# collects every public output and researcher export, and solves the linear programme over all
# of them with scipy's HiGHS (see attack.py). Then the scenarios of scenarios.py, each on a fresh
# server: a new layer, edge moves (a strip that stays counted in its hall's line, a hall shrunk to
# a sliver whose line goes whole to the neighbour holding its interior point, also right after a
# release), a split (the line goes to the half holding the hall's interior point) and a renamed
# area between publications, a quiet campus published weekly, and the misconduct search around an
# unpublished verification. Then the sequences of sequences.py, each on a fresh server: fixed
# regressions of two changes in a row (an edge moved and rolled back, busy and quiet; a merge and
# its undo, twice; an edge moved in two steps; a sliver then a rename) and generated sequences of
# two to four changes (edge moves, slivers, rollbacks, merges, splits, undos, renames, new layers)
# on a quiet or a busy campus. Every programme knows the rule with identities: a line's class at
# every publication is a function of the maps and the line's origin alone, new reports join the
# line whose identity (per layer the geometry of the class's area) is their class's on the maps
# then, and nothing moves between lines when areas change.
# Fails when any protected cell is recovered exactly or keeps a feasible
# range narrower than k, the rule does not explain what was published, or a scenario's check fails.
#
# Usage: Tests/Attack/run.sh PATH_TO_GEOSERVE_BINARY
#   ATTACK_SCENARIOS="hall-edge rename"  runs only those (`sequences` stands for the generated ones,
#                                        `sequence-7` for one of them)
#   ATTACK_SEQUENCE_SEEDS="1 2 3"        the generated sequences' seeds (default: the fixed set below,
#                                        4-8 s each, 50 s together on 2 cores); for a release check
#                                        run many, e.g. (about 7 s a seed)
#                                        ATTACK_SCENARIOS=sequences ATTACK_SEQUENCE_SEEDS="$(seq 1 200)"
#   ATTACK_IDENTITY=births               the programme's rule for a build whose line identities name an
#                                        area by its id and birth (its first version with that geometry:
#                                        a renamed area opens new lines) instead of by its geometry
#   merge-line-age                       the finding that made identities: before them, new reports of
#                                        a class several lines shared joined the oldest, and an undo
#                                        showed which that was, so that a hall's hidden line existed (a
#                                        count of 1..k got the range 1..k; seeds 10, 12 and 14 found it
#                                        too)
# Tests/Attack/emulate.py SEED… runs the sequences against an emulation of the rule without a
# server (for working on the programme and the generator; it proves nothing about a build).
# Last line: "attack: N passed, M failed"; exits non-zero when any check failed.
set -uo pipefail

NUMPY_VERSION=2.1.3
SCIPY_VERSION=1.14.1
SHAPELY_VERSION=2.2.0
SEQUENCE_SEEDS="1 2 3 4 5 6 7 8"
VENV="${XDG_CACHE_HOME:-$HOME/.cache}/geoserve-attack-venv"
HERE=$(cd "$(dirname "$0")" && pwd)
DATA="$HERE/../../data"
PASSWORD=attack-admin-password

[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: $0 PATH_TO_GEOSERVE_BINARY" >&2; exit 2; }
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SUITE=attack APT_WITH_RECOMMENDS=1
. "$HERE/../lib.sh"
if ! "$VENV/bin/python" -c "import numpy, scipy, shapely; assert numpy.__version__ == '$NUMPY_VERSION' and scipy.__version__ == '$SCIPY_VERSION' and shapely.__version__ == '$SHAPELY_VERSION'" 2>/dev/null; then
  # Outside the repository; Debian's own python3 needs python3-venv for it.
  python3 -m venv "$VENV" 2>/dev/null || { apt_install python3-venv && python3 -m venv "$VENV"; } ||
    give_up "create the attack virtual environment"
  "$VENV/bin/pip" install -q "numpy==$NUMPY_VERSION" "scipy==$SCIPY_VERSION" "shapely==$SHAPELY_VERSION" ||
    give_up "install numpy $NUMPY_VERSION, scipy $SCIPY_VERSION and shapely $SHAPELY_VERSION"
fi
PY="$VENV/bin/python"
export PYTHONDONTWRITEBYTECODE=1

WORK=$(mktemp -d)
SERVER=
STOPPING=()
cleanup() {
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && STOPPING+=("$SERVER")
  for pid in ${STOPPING[@]+"${STOPPING[@]}"}; do wait "$pid" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
for name in $(compgen -e | grep '^GEOSERVE_'); do unset "$name"; done

# The conformance suite's helpers find a free port and wait for readiness.
HELPERS="$HERE/../Conformance/conformance.py"

# One fresh server (database, admin account) per scenario.
start_server() {
  DB="$WORK/$1/geoserve.sqlite"
  mkdir -p "$WORK/$1"
  PORT=$("$PY" "$HELPERS" free-port)
  URL="http://127.0.0.1:$PORT"
  echo "$PASSWORD" | "$BIN" user create --role admin --email admin@attack.example --database "$DB" >/dev/null || return 1
  # Publications only when the suite makes them, so that it controls every interval.
  "$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$DB" --demo-data "$DATA" --publish-at never \
    --log-level warning --anonymous-per-minute 0 --max-pending-anonymous 0 >"$WORK/$1/server.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 120); do
    "$PY" "$HELPERS" ready "$URL" && return 0
    kill -0 "$SERVER" 2>/dev/null || break
    sleep 0.5
  done
  "$PY" "$HELPERS" ready "$URL" || { cat "$WORK/$1/server.log"; return 1; }
}
# A server takes a few seconds to shut down; the next scenario starts meanwhile (its own port and
# database), and the end of the suite waits for them all.
stop_server() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && STOPPING+=("$SERVER"); SERVER=; }

# The scenarios: the thirteen days (run), then those of scenarios.py and sequences.py. Each prints
# its checks and a count and its time; the last line sums them.
PASSED=0
FAILED=0
SUITE_BEGAN=$SECONDS
SEQUENCES_TIME=0
LIST=()
for scenario in ${ATTACK_SCENARIOS:-run campus-layer hall-edge hall-shrink strip-waits strip-whole-release pair-after-release pair-after-release-sliver hall-split hall-split-east rename weekly misconduct-paging edge-rollback edge-rollback-quiet merge-undo merge-line-age edge-two-steps sliver-rename sequences}; do
  if [ "$scenario" = sequences ]; then
    for seed in ${ATTACK_SEQUENCE_SEEDS:-$SEQUENCE_SEEDS}; do LIST+=("sequence-$seed"); done
  else
    LIST+=("$scenario")
  fi
done
SEQUENCES_RUN=0
SEQUENCES_FAILED=()
for scenario in "${LIST[@]}"; do
  began=$SECONDS
  if ! start_server "$scenario"; then
    echo "FAIL $scenario: service ready"
    FAILED=$((FAILED + 1))
    stop_server
    continue
  fi
  ATTACK_GEOSERVE="$BIN" ATTACK_DATABASE="$DB" "$PY" "$HERE/attack.py" "$scenario" "$URL" admin@attack.example "$PASSWORD" |
    tee "$WORK/$scenario.out" | grep --line-buffered -v '^attack: '
  counts=$(grep '^attack: ' "$WORK/$scenario.out" | tail -1)
  if [[ $counts =~ ^attack:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    PASSED=$((PASSED + BASH_REMATCH[1]))
    FAILED=$((FAILED + BASH_REMATCH[2]))
    bad=${BASH_REMATCH[2]}
  else
    echo "FAIL $scenario: the attack ended without a count"
    FAILED=$((FAILED + 1))
    bad=1
  fi
  stop_server
  echo "# $scenario: $((SECONDS - began)) s"
  if [[ $scenario == sequence-* ]]; then
    SEQUENCES_RUN=$((SEQUENCES_RUN + 1))
    SEQUENCES_TIME=$((SEQUENCES_TIME + SECONDS - began))
    [ "$bad" -eq 0 ] || SEQUENCES_FAILED+=("$scenario")
  fi
done
if [ "$SEQUENCES_RUN" -gt 0 ]; then
  echo "# generated sequences: $SEQUENCES_RUN run in $SEQUENCES_TIME s, $((SEQUENCES_RUN - ${#SEQUENCES_FAILED[@]})) passed, ${#SEQUENCES_FAILED[@]} failed${SEQUENCES_FAILED[*]:+: ${SEQUENCES_FAILED[*]}}"
fi
echo "# the attack suite: $((SECONDS - SUITE_BEGAN)) s"
echo "attack: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ] && [ "$PASSED" -gt 0 ]
