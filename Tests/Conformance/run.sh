#!/usr/bin/env bash
# Conformance: does geoserve answer as real clients expect?
#   - schemathesis checks every operation of /openapi.json against what the document promises
#     (status codes, content types, schemas, 405 for undeclared methods, valid input accepted,
#     invalid input refused), anonymously and with an admin token;
#   - GDAL's OGC API - Features driver (what QGIS uses) reads every collection;
#   - prometheus_client's parser reads /metrics, whose counters move with requests, and promtool
#     checks it (a HELP line for every family, Prometheus's naming conventions);
#   - Tests/Docs/check_docs.py holds the documentation to this server and binary: every route of
#     /openapi.json in docs/api.md, every option of every command in docs/configuration.md, no
#     page of docs/ over 400 lines, every relative link and anchor resolving.
#
# Usage: Tests/Conformance/run.sh PATH_TO_GEOSERVE_BINARY
# Last line: "conformance: N passed, M failed"; exits non-zero when any check failed.
set -uo pipefail

SCHEMATHESIS_VERSION=4.32.5        # pinned: checks and their codes change between releases
PROMETHEUS_CLIENT_VERSION=0.21.1   # its parser is the reference reader of the text format
MAX_EXAMPLES=25                    # per operation and phase; both runs take about a minute together
SEED=${CONFORMANCE_SEED:-1}        # a rerun explores the same cases
VENV="${XDG_CACHE_HOME:-$HOME/.cache}/geoserve-conformance-venv"
HERE=$(cd "$(dirname "$0")" && pwd)
DATA="$HERE/../../data"
PASSWORD=conformance-password-1    # for a throwaway store

[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: $0 PATH_TO_GEOSERVE_BINARY" >&2; exit 2; }
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

SUITE=conformance APT_WITH_RECOMMENDS=1
. "$HERE/../lib.sh"

# --- tools -------------------------------------------------------------------------------------
command -v ogrinfo >/dev/null && command -v ogr2ogr >/dev/null || apt_install gdal-bin ||
  give_up "install gdal-bin"
# promtool (Prometheus's own checker of the text format) comes with Debian's server package; the
# package's service is not started where nothing runs systemd, and is never used here.
command -v promtool >/dev/null || APT_WITH_RECOMMENDS=0 apt_install prometheus || give_up "install prometheus (for promtool)"
if [ "$("$VENV/bin/schemathesis" --version 2>/dev/null)" != "schemathesis, version $SCHEMATHESIS_VERSION" ]; then
  # The venv lives outside the repository; Debian's own python3 needs python3-venv for it.
  python3 -m venv "$VENV" 2>/dev/null || { apt_install python3-venv && python3 -m venv "$VENV"; } ||
    give_up "create the schemathesis virtual environment"
  "$VENV/bin/pip" install -q "schemathesis==$SCHEMATHESIS_VERSION" || give_up "install schemathesis $SCHEMATHESIS_VERSION"
fi
PY="$VENV/bin/python"
"$VENV/bin/pip" show prometheus_client 2>/dev/null | grep -qx "Version: $PROMETHEUS_CLIENT_VERSION" ||
  "$VENV/bin/pip" install -q "prometheus_client==$PROMETHEUS_CLIENT_VERSION" || give_up "install prometheus_client $PROMETHEUS_CLIENT_VERSION"
export PYTHONDONTWRITEBYTECODE=1   # leave no __pycache__ in the repository

# --- a service on a fresh store -----------------------------------------------------------------
WORK=$(mktemp -d)
SERVER= CHILD=
cleanup() {
  for pid in $CHILD $SERVER; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# Long steps run in the background and are waited for, so that an interrupt reaches the trap at
# once (bash defers traps while a foreground command runs, and schemathesis swallows Ctrl-C).
in_background() {  # DIR COMMAND...
  local dir=$1; shift
  (cd "$dir" && exec "$@") & CHILD=$!
  wait "$CHILD"; local status=$?; CHILD=; return $status
}
alive() { kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/server.log"; give_up "service still running before $1"; }; }
# A developer's GEOSERVE_* settings (public URL, thresholds, database) must not leak in.
for name in $(compgen -e | grep '^GEOSERVE_'); do unset "$name"; done

PORT=$("$PY" "$HERE/conformance.py" free-port)
URL="http://127.0.0.1:$PORT"
"$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$WORK/geoserve.sqlite" --demo-data "$DATA" \
  --log-level warning --anonymous-per-minute 0 --max-pending-anonymous 0 >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 120); do
  "$PY" "$HERE/conformance.py" ready "$URL" && break
  kill -0 "$SERVER" 2>/dev/null || break
  sleep 0.5
done
"$PY" "$HERE/conformance.py" ready "$URL" || { cat "$WORK/server.log"; give_up "service ready on $URL"; }

# The admin the token run uses, and a spare account: logout and revoke-tokens are pointed at the
# spare so that they cannot end the admin's session mid-run (see admin_hooks.py).
for who in admin spare; do
  echo "$PASSWORD" | "$BIN" user create --role admin --email "$who@conformance.example" \
    --database "$WORK/geoserve.sqlite" >/dev/null || give_up "create the $who account"
done
read -r TOKEN ADMIN_ID < <("$PY" "$HERE/conformance.py" login "$URL" admin@conformance.example "$PASSWORD")
read -r _ SPARE_ID < <("$PY" "$HERE/conformance.py" login "$URL" spare@conformance.example "$PASSWORD")
[ -n "${TOKEN:-}" ] && [ -n "${SPARE_ID:-}" ] || give_up "log in as admin"

# --- the documentation ---------------------------------------------------------------------------
# First, as it takes a second: standard-library python3 against the live server and the binary.
echo "== docs"
alive docs
docs_output=$(python3 "$HERE/../Docs/check_docs.py" "$URL" "$BIN" 2>&1); docs_status=$?
count <<<"$docs_output"
if [ "$docs_status" -ne 0 ] && ! grep -q '^FAIL ' <<<"$docs_output"; then
  count <<<"FAIL docs: Tests/Docs/check_docs.py exited with status $docs_status"
fi

# --- schemathesis ---------------------------------------------------------------------------------
schemathesis() {  # LABEL [extra flags]; runs in $WORK so its caches stay out of the repository
  local label=$1; shift
  echo "== schemathesis, $label"
  alive "schemathesis, $label"
  in_background "$WORK" timeout 120 "$VENV/bin/schemathesis" --config-file "$HERE/schemathesis.toml" run "$URL/openapi.json" \
    --checks all --mode all --max-examples "$MAX_EXAMPLES" --seed "$SEED" \
    --generation-database none --no-color --output-truncate false \
    --report junit --report-junit-path "$WORK/$label.xml" "$@"
  count < <("$PY" "$HERE/conformance.py" junit "$label" "$WORK/$label.xml")
}
schemathesis anonymous
CONFORMANCE_URL=$URL CONFORMANCE_ADMIN_TOKEN=$TOKEN CONFORMANCE_ADMIN_ID=$ADMIN_ID \
  CONFORMANCE_SPARE_ID=$SPARE_ID CONFORMANCE_SPARE_EMAIL=spare@conformance.example CONFORMANCE_PASSWORD=$PASSWORD \
  SCHEMATHESIS_HOOKS="$HERE/admin_hooks.py" schemathesis admin

# --- GDAL -----------------------------------------------------------------------------------------
echo "== GDAL $(ogrinfo --version)"
alive GDAL
count < <("$PY" "$HERE/conformance.py" gdal "$URL" "$WORK")

# --- Prometheus -----------------------------------------------------------------------------------
echo "== /metrics, prometheus_client $PROMETHEUS_CLIENT_VERSION"
alive metrics
count < <("$PY" "$HERE/conformance.py" metrics "$URL")

finish
