#!/usr/bin/env bash
# geoserve's two commands on a Debian 12 machine with Swift:
#   ./dev.sh serve   build and run the service on the embedded store with the demo campus
#   ./dev.sh test    run the whole test suite beside a throw-away PostgreSQL: the pages' scripts
#                    parsed and their pure functions tested by node (first: it takes seconds),
#                    every Swift test, the HTTP tests again on PostgreSQL, the GeoCore tests under
#                    AddressSanitizer with leak detection, the dashboard in headless Chromium, then
#                    schemathesis, GDAL and prometheus_client against a live server, and the
#                    attacker suite (a linear programme over every public output)
# Both install the Debian packages they need when missing (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")"

# libjs-leaflet: the dashboard's map loads Leaflet from the system package's files.
packages=(libgeos-dev libcairo2-dev libsqlite3-dev zlib1g-dev libpq-dev pkg-config libjs-leaflet)
# The tests start a PostgreSQL server of their own: Debian's server package, without the
# cluster its installation would otherwise create and start. Chromium runs the pages, driven
# through chromium-driver by Selenium (from PyPI, in a virtual environment outside the repository).
# node checks the pages' scripts before the long Swift build.
test_packages=(postgresql python3 chromium chromium-driver nodejs)

ensure_packages() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  ((${#missing[@]})) || return 0
  echo "installing ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  if [[ " ${missing[*]} " == *" postgresql "* ]] && [ ! -e /etc/postgresql-common/createcluster.conf ]; then
    "${sudo[@]}" mkdir -p /etc/postgresql-common
    echo "create_main_cluster = false" | "${sudo[@]}" tee /etc/postgresql-common/createcluster.conf >/dev/null
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# Runs one step of the test command and prints how long it took, so a slow run shows where its
# minutes went.
step() {
  local started=$SECONDS
  "$@"
  echo "== step done in $((SECONDS - started)) s (total $((SECONDS - test_started)) s): $*" >&2
}

command=${1:-}
shift || true
case "$command" in
  serve)
    ensure_packages "${packages[@]}"
    swift build -c release --product geoserve
    exec .build/release/geoserve serve "$@"
    ;;
  test)
    test_started=$SECONDS
    step ensure_packages "${packages[@]}" "${test_packages[@]}"
    # The pages' JavaScript: every script parsed by node and its pure functions tested, so that a
    # syntax error fails in seconds rather than in Chromium after the build.
    step Tests/Pages/run.sh
    step swift build --build-tests
    # Every Swift test, then the HTTP tests again with their stores on PostgreSQL; the storage
    # contract tests run on both backends in the first pass. The server is removed afterwards,
    # also when a test fails.
    step Tests/Postgres/with-server.sh bash -c \
      'swift test --skip-build && GEOSERVE_TEST_BACKEND=postgres swift test --skip-build --filter GeoserveTests --skip "MultiProcessTests|MigrateStoreTests"'
    # C interop is checked for memory errors and leaks: GeoCore owns every GEOS handle. Its tests
    # are a small package of their own (Tests/Sanitized), so the sanitizer build compiles GeoCore
    # alone and not every dependency of the server.
    step bash -c 'cd Tests/Sanitized &&
      swift build --build-tests --sanitize=address --scratch-path ../../.build-sanitized &&
      ASAN_OPTIONS=detect_leaks=1 swift test --skip-build --disable-xctest --sanitize=address --scratch-path ../../.build-sanitized'
    # The PostgreSQL deployment of docs/postgresql.md, followed on a throw-away cluster with
    # password authentication: two instances, the password file, the dump's mode, a restore drill.
    step Tests/Operations/postgres-recipe.sh .build/debug/geoserve
    # The SQLite upgrade and rollback of docs/upgrades.md, its blocks run on an installation laid
    # out as docs/deploy.md's: the rollback restores production as production (notifications
    # delivered, publications scheduled), the reports from before the backup back, and the
    # same backup restored without --as-production is a drill copy.
    step Tests/Operations/sqlite-upgrade.sh .build/debug/geoserve
    # The database machine dies: a primary with a synchronous streaming standby, geoserve on a
    # two-host libpq URI under intake; the primary killed, the standby promoted. Every
    # acknowledged report on the new primary, none twice, the first 201 within 10 s.
    step Tests/Operations/failover.sh .build/debug/geoserve
    # A rolling restart of two processes behind nginx and behind Caddy, configured as
    # docs/deploy.md shows, under reads and report submissions: no failed request, no report lost
    # or doubled.
    step Tests/Operations/rolling-restart.sh .build/debug/geoserve
    # libFuzzer over the readers of untrusted input (JSON, GeoJSON layers, report bodies, report
    # CSV files), 30 s each; a longer run is Tests/Fuzz/run.sh SECONDS.
    step Tests/Fuzz/run.sh 30
    # The dashboard in a real browser: Chromium runs its script against a live service and the
    # numbers it shows are checked against the JSON API (screenshots in .build/test-artifacts).
    step Tests/Browser/run.sh .build/debug/geoserve
    # Real clients against a live server: schemathesis with the whole OpenAPI document, GDAL's
    # OGC API - Features driver reading and copying every collection, and /metrics parsed by
    # prometheus_client.
    step Tests/Conformance/run.sh .build/debug/geoserve
    # An outsider's attack on the published numbers: plants small counts, collects every public
    # output over thirteen publications and solves for the planted cells with scipy's HiGHS.
    step Tests/Attack/run.sh .build/debug/geoserve
    ;;
  *)
    echo "usage: ./dev.sh serve [serve options] | ./dev.sh test" >&2
    exit 2
    ;;
esac
