#!/usr/bin/env bash
# Runs a command beside a throw-away PostgreSQL server: initdb and pg_ctl from Debian's
# postgresql package, as an unprivileged user (postgres when run as root), listening on a free
# loopback port. The server and its folder are removed when the command ends, also on failure.
#
# The command sees:
#   GEOSERVE_TEST_POSTGRES          a libpq URI of the server's `postgres` database (trust auth)
#   GEOSERVE_TEST_POSTGRES_CONTROL  a folder with `stop` and `start` scripts, for fault tests
set -euo pipefail

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "PostgreSQL's server programs are missing: install Debian's postgresql package" >&2
  exit 1
fi

folder=$(mktemp -d "${TMPDIR:-/tmp}/geoserve-postgres.XXXXXX")
as_owner=()
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root: the server belongs to the postgres account.
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chown postgres "$folder"
  as_owner=(runuser -u postgres --)
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

cleanup() {
  "${as_owner[@]}" "$bindir/pg_ctl" -D "$folder/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$folder"
}
trap cleanup EXIT

"${as_owner[@]}" "$bindir/initdb" -D "$folder/data" -U geoserve -A trust --no-sync -E UTF8 --locale=C.UTF-8 >"$folder/initdb.log" 2>&1 ||
  { cat "$folder/initdb.log" >&2; exit 1; }
# fsync off: the tests stop the server cleanly or kill it, never the machine; the benchmarks
# run their own server with the defaults. Swift Testing runs every test at once, each service
# with its pool, listener and the stores its test opens besides: 1,000 connections leaves room
# (an idle backend costs a few MB).
options="-p $port -k $folder -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=1000"
cat >"$folder/start" <<SCRIPT
#!/usr/bin/env bash
exec ${as_owner[*]} "$bindir/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -o "$options" start
SCRIPT
cat >"$folder/stop" <<SCRIPT
#!/usr/bin/env bash
exec ${as_owner[*]} "$bindir/pg_ctl" -D "$folder/data" -m "\${1:-fast}" -w stop
SCRIPT
chmod 755 "$folder/start" "$folder/stop"
"$folder/start" >/dev/null || { cat "$folder/server.log" >&2; exit 1; }

export GEOSERVE_TEST_POSTGRES="postgres://geoserve@127.0.0.1:$port/postgres"
export GEOSERVE_TEST_POSTGRES_CONTROL="$folder"
"$@"
