#!/usr/bin/env bash
# The attacker suite: plants small counts on a live service, publishes over thirteen days,
# collects every public output and researcher export, and solves the linear programme over all
# of them with scipy's HiGHS (see attack.py). Fails when any protected cell is recovered exactly
# or keeps a feasible range narrower than k.
#
# Usage: Tests/Attack/run.sh PATH_TO_GEOSERVE_BINARY
# Last line: "attack: N passed, M failed"; exits non-zero when any check failed.
set -uo pipefail

NUMPY_VERSION=2.1.3
SCIPY_VERSION=1.14.1
VENV="${XDG_CACHE_HOME:-$HOME/.cache}/geoserve-attack-venv"
HERE=$(cd "$(dirname "$0")" && pwd)
DATA="$HERE/../../data"
PASSWORD=attack-admin-password

[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: $0 PATH_TO_GEOSERVE_BINARY" >&2; exit 2; }
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
give_up() { echo "FAIL $1"; echo "attack: 0 passed, 1 failed"; exit 1; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
if ! "$VENV/bin/python" -c "import numpy, scipy; assert numpy.__version__ == '$NUMPY_VERSION' and scipy.__version__ == '$SCIPY_VERSION'" 2>/dev/null; then
  # Outside the repository; Debian's own python3 needs python3-venv for it.
  python3 -m venv "$VENV" 2>/dev/null || { as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv >/dev/null && python3 -m venv "$VENV"; } ||
    give_up "create the attack virtual environment"
  "$VENV/bin/pip" install -q "numpy==$NUMPY_VERSION" "scipy==$SCIPY_VERSION" || give_up "install numpy $NUMPY_VERSION and scipy $SCIPY_VERSION"
fi
PY="$VENV/bin/python"
export PYTHONDONTWRITEBYTECODE=1

WORK=$(mktemp -d)
SERVER=
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
for name in $(compgen -e | grep '^GEOSERVE_'); do unset "$name"; done

# The conformance suite's helpers find a free port and wait for readiness.
HELPERS="$HERE/../Conformance/conformance.py"
PORT=$("$PY" "$HELPERS" free-port)
URL="http://127.0.0.1:$PORT"
echo "$PASSWORD" | "$BIN" user create --role admin --email admin@attack.example --database "$WORK/geoserve.sqlite" >/dev/null ||
  give_up "create the admin account"
# Publications only when the suite makes them, so that it controls every interval.
"$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$WORK/geoserve.sqlite" --demo-data "$DATA" --publish-at never \
  --log-level warning --anonymous-per-minute 0 >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 120); do
  "$PY" "$HELPERS" ready "$URL" && break
  kill -0 "$SERVER" 2>/dev/null || break
  sleep 0.5
done
"$PY" "$HELPERS" ready "$URL" || { cat "$WORK/server.log"; give_up "service ready on $URL"; }
"$PY" "$HERE/attack.py" run "$URL" admin@attack.example "$PASSWORD"
