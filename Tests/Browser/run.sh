#!/usr/bin/env bash
# The dashboard in a real browser: Debian's Chromium, headless, runs the page's script against a
# live service whose demo campus holds verified, published reports, and the numbers it shows are
# checked against the JSON API — the total and every area, for two windows — with the
# Content-Security-Policy in force (a script or style the policy blocks would leave the page
# empty). Screenshots at desktop and phone width are kept in $ARTIFACTS. Then, through Selenium:
# flow.py (a report from the form to a publication, the console), form.py (a student's unhappy
# paths on a phone: lost answers, a double tap, the network cut), people.py (the links
# between the pages, a researcher's export and an admin's publication) and axe.py (axe-core on
# every page and every section of the console).
#
# Usage: Tests/Browser/run.sh PATH_TO_GEOSERVE_BINARY
# Last line: "browser: N passed, M failed"; exits non-zero when any check failed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ARTIFACTS=${ARTIFACTS:-$ROOT/.build/test-artifacts}
PASSWORD=browser-test-password-1
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: $0 PATH_TO_GEOSERVE_BINARY" >&2; exit 2; }
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

SUITE=browser
. "$HERE/../lib.sh"
command -v chromium >/dev/null || apt_install chromium || give_up "install chromium"
[ -f /usr/share/javascript/leaflet/leaflet.min.js ] || apt_install libjs-leaflet || give_up "install libjs-leaflet"
command -v chromedriver >/dev/null || apt_install chromium-driver || give_up "install chromium-driver"
# Selenium drives the form and the console; it lives in a virtual environment outside the
# repository, pinned, and is installed once.
SELENIUM_VERSION=4.27.1
VENV="${XDG_CACHE_HOME:-$HOME/.cache}/geoserve-browser-venv"
if ! "$VENV/bin/python" -c "import selenium, sys; sys.exit(selenium.__version__ != '$SELENIUM_VERSION')" 2>/dev/null; then
  { python3 -m venv "$VENV" 2>/dev/null || { apt_install python3-venv && python3 -m venv "$VENV"; }; } &&
    "$VENV/bin/pip" install -q "selenium==$SELENIUM_VERSION" || give_up "install selenium $SELENIUM_VERSION"
fi
# axe-core for the accessibility pass: the axe.min.js inside this wheel (its Playwright glue is
# neither installed nor imported).
AXE_WHEEL=axe-playwright-python==0.1.8
if ! "$VENV/bin/python" -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('axe_playwright_python') is None)" 2>/dev/null; then
  "$VENV/bin/pip" install -q --no-deps "$AXE_WHEEL" || give_up "install $AXE_WHEEL"
fi

WORK=$(mktemp -d)
SERVER=
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
for name in $(compgen -e | grep '^GEOSERVE_'); do unset "$name"; done
mkdir -p "$ARTIFACTS"

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL="http://127.0.0.1:$PORT"
"$BIN" migrate --database "$WORK/geoserve.sqlite" >/dev/null
echo "$PASSWORD" | "$BIN" user create --role admin --email admin@browser.example --database "$WORK/geoserve.sqlite" >/dev/null
"$BIN" serve --port "$PORT" --database "$WORK/geoserve.sqlite" --demo-data "$ROOT/data" --log-level warning \
  --anonymous-per-minute 0 --max-pending-anonymous 0 --account-writes-per-minute 0 --drain-delay 0 >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 120); do curl -fs -o /dev/null "$URL/readyz" && break; sleep 0.25; done

python3 "$HERE/dashboard.py" "$URL" admin@browser.example "$PASSWORD" "$ARTIFACTS" "$WORK"
status=$?
"$VENV/bin/python" "$HERE/flow.py" "$URL" admin@browser.example "$PASSWORD" "$ARTIFACTS" || status=1
"$VENV/bin/python" "$HERE/form.py" "$URL" admin@browser.example "$PASSWORD" "$ARTIFACTS" || status=1
"$VENV/bin/python" "$HERE/people.py" "$URL" admin@browser.example "$PASSWORD" "$ARTIFACTS" || status=1
"$VENV/bin/python" "$HERE/axe.py" "$URL" admin@browser.example "$PASSWORD" "$ARTIFACTS" || status=1
exit $status
