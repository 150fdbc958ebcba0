#!/usr/bin/env bash
# geoserve's two commands on a Debian 12 machine with Swift:
#   ./dev.sh serve   build and run the service on the embedded store with the demo campus
#   ./dev.sh test    run the whole test suite (the GeoCore tests again under AddressSanitizer
#                    with leak detection, then schemathesis and GDAL against a live server)
# Both install the Debian packages they need when missing (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")"

packages=(libgeos-dev libcairo2-dev libsqlite3-dev zlib1g-dev pkg-config)

ensure_packages() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  ((${#missing[@]})) || return 0
  echo "installing ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
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
    ensure_packages "${packages[@]}"
    swift build --build-tests
    swift test --skip-build
    # C interop is checked for memory errors and leaks: GeoCore owns every GEOS handle. Its tests
    # are a small package of their own (Tests/Sanitized), so the sanitizer build compiles GeoCore
    # alone and not every dependency of the server.
    (cd Tests/Sanitized &&
      swift build --build-tests --sanitize=address --scratch-path ../../.build-sanitized &&
      ASAN_OPTIONS=detect_leaks=1 swift test --skip-build --disable-xctest --sanitize=address --scratch-path ../../.build-sanitized)
    # Real clients against a live server: schemathesis with the whole OpenAPI document, and GDAL's
    # OGC API - Features driver reading and copying every collection.
    Tests/Conformance/run.sh .build/debug/geoserve
    ;;
  *)
    echo "usage: ./dev.sh serve [serve options] | ./dev.sh test" >&2
    exit 2
    ;;
esac
