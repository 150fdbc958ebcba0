# Shared by the test command's shell suites (sourced, not run): the "ok NAME" / "FAIL NAME: why"
# tally each suite prints and ends with "SUITE: N passed, M failed", and installing what a suite
# needs from Debian when it is missing. A suite sets SUITE to its name before sourcing this.

passed=0 failed=0
count() {  # reads "ok NAME" / "FAIL NAME: why" lines, echoes and counts them
  while IFS= read -r line; do
    echo "$line"
    case $line in ok\ *) passed=$((passed + 1)) ;; FAIL\ *) failed=$((failed + 1)) ;; esac
  done
}
say() { count <<<"$1"; }
finish() { echo "$SUITE: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }
give_up() { say "FAIL $1"; finish; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
# The package lists are refreshed only when the install cannot do without; recommended packages
# are left out unless the suite set APT_WITH_RECOMMENDS=1.
apt_install() {
  local flags=(-y -q)
  [ "${APT_WITH_RECOMMENDS:-0}" = 1 ] || flags+=(--no-install-recommends)
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install "${flags[@]}" "$@" >/dev/null 2>&1 ||
    { as_root apt-get update -q >/dev/null && as_root env DEBIAN_FRONTEND=noninteractive apt-get install "${flags[@]}" "$@" >/dev/null; }
}
