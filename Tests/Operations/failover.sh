#!/usr/bin/env bash
# A PostgreSQL failover under intake loses no acknowledged report: geoserve on a libpq multi-host
# URI (`postgres://geoserve@PRIMARY,STANDBY/geoserve?target_session_attrs=read-write`, how
# docs/postgresql.md names a standby beside its primary), a primary with a streaming standby that
# every commit waits for (`synchronous_standby_names = '*'`: a 201 means the standby has the
# report too). Under a steady intake of anonymous misconduct reports (failover.py: a few clients,
# every request with an Idempotency-Key of its own, sent once, the key also in the report's text),
# the primary is killed (`pg_ctl -m immediate stop`: no shutdown, as a crash); once /readyz has
# said 503 and OUTAGE seconds have passed, the standby is promoted (`pg_ctl promote`), and the
# load goes on until reports are acknowledged again. Checks:
#   - the standby streams synchronously before the load (pg_stat_replication: streaming, sync);
#   - geoserve starts on the two-host URI and its start line shows the URI as written;
#   - without a primary /readyz answers 503 (a load balancer stops sending) within 30 s of the
#     kill, and at every probe until the promotion; after it, 200 again;
#   - no request sent while there is no primary is acknowledged before the promotion; the first
#     report is acknowledged within MAX_RECOVERY seconds of `pg_ctl promote`, by the same geoserve
#     process (it finds the new primary through the URI by itself, no restart);
#   - every acknowledged report id is in the promoted server's `reports` table; no id and no
#     request (the key read back from the row's payload) is stored twice; every request not
#     acknowledged, sent again with its key afterwards as a client would, is acknowledged
#     (replayed when it had been stored), and then each key holds exactly one report;
#   - `geoserve aggregates check` and `geoserve audit verify` exit 0 on the new primary.
# The figures (acknowledged, stored, duplicates, unacknowledged attempts, seconds from promotion
# to the first 201, whether a 503 was seen) are printed. Both PostgreSQL servers run from a
# temporary folder as the postgres account (when run as root, as Tests/Postgres/with-server.sh
# does), on free loopback ports; everything is stopped and removed when the script ends.
#
# Usage: Tests/Operations/failover.sh PATH_TO_GEOSERVE_BINARY
# Last line: "failover: N passed, M failed"; exits non-zero when any check failed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: $0 PATH_TO_GEOSERVE_BINARY" >&2; exit 2; }
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

# The settings under test.
CLIENTS=4            # concurrent submitters
ACKED_BEFORE=300     # acknowledged reports before the primary is killed
OUTAGE=15            # seconds from the kill to the promotion, at the least
REFUSED=40           # requests refused without a primary before the standby is promoted, at the least
ACKED_AFTER=100      # reports acknowledged after the promotion, before the load stops
MAX_RECOVERY=10      # seconds from `pg_ctl promote` to the first 201
CONNECTIONS=4        # --database-connections
STATEMENT_TIMEOUT=10 # --statement-timeout

SUITE=failover
. "$HERE/../lib.sh"
check() {  # NAME WHY_IF_NOT COMMAND...: ok when the command succeeds
  local name=$1 why=$2; shift 2
  if "$@"; then say "ok $name"; else say "FAIL $name: $why"; fi
}

# --- tools -------------------------------------------------------------------------------------
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  # The server programs only: no cluster of the system's own (as dev.sh installs them).
  [ -e /etc/postgresql-common/createcluster.conf ] ||
    { as_root mkdir -p /etc/postgresql-common && echo "create_main_cluster = false" | as_root tee /etc/postgresql-common/createcluster.conf >/dev/null; }
  apt_install postgresql || give_up "install postgresql"
fi
command -v curl >/dev/null || apt_install curl || give_up "install curl"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)

# --- the temporary folder and what runs in it --------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/failover.XXXXXX")
PG=$WORK/pg
mkdir "$PG" "$WORK/home"
AS_PG=()
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root: both servers belong to the postgres account, which must
  # reach its folder in here.
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chmod 711 "$WORK"
  chown postgres "$PG"
  AS_PG=(runuser -u postgres --)
fi
GEOSERVE= LOAD=
cleanup() {
  for pid in $LOAD $GEOSERVE; do kill "$pid" 2>/dev/null; done
  for pid in $LOAD $GEOSERVE; do wait "$pid" 2>/dev/null; done
  for data in "$PG/primary" "$PG/standby"; do
    [ -e "$data/postmaster.pid" ] && "${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# A developer's settings must not leak in.
for name in $(compgen -e | grep -E '^(GEOSERVE_|PG)'); do unset "$name"; done
export HOME=$WORK/home PYTHONDONTWRITEBYTECODE=1   # no ~/.psqlrc, ~/.pgpass; no __pycache__ in the repository

free_port() { python3 "$HERE/load.py" free-port; }
P1=$(free_port) P2=$(free_port) HTTP=$(free_port)
while [ "$P2" = "$P1" ]; do P2=$(free_port); done
while [ "$HTTP" = "$P1" ] || [ "$HTTP" = "$P2" ]; do HTTP=$(free_port); done
URL=http://127.0.0.1:$HTTP
EVENTS=$WORK/events
event() { echo "$(date +%s.%N) $1" >>"$EVENTS"; }
event_time() { awk -v name="$1" '$2 == name { print $1; exit }' "$EVENTS"; }
: >"$EVENTS"
pg_ctl() { "${AS_PG[@]}" "$PGBIN/pg_ctl" "$@"; }
# The superuser on the socket in here: PORT SQL.
sql() { "${AS_PG[@]}" "$PGBIN/psql" -X -h "$PG" -p "$1" -U postgres -d "${3:-postgres}" -Atqc "$2"; }
until_true() {  # SECONDS COMMAND...: the command succeeds within SECONDS, tried every 0.2 s (2: give up)
  local deadline=$(($(date +%s) + $1)) status; shift
  while :; do
    "$@"; status=$?
    [ "$status" -eq 0 ] && return 0
    [ "$status" -eq 2 ] || [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 0.2
  done
}
readyz() { curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$URL/readyz"; }
geoserve_log() {  # geoserve's log in brief, the servers' last lines
  python3 "$HERE/failover.py" log "$WORK/geoserve.log"
  for name in primary standby; do
    [ -e "$PG/$name.log" ] && { echo "     $name.log, last lines:"; tail -n 5 "$PG/$name.log" | sed 's/^/     | /'; }
  done
}

# --- the primary ---------------------------------------------------------------------------------
pg_options() {  # PORT: what both servers run with; fsync off, nothing here outlives the run
  echo "-p $1 -k $PG -c listen_addresses=127.0.0.1 -c fsync=off -c wal_level=replica -c max_wal_senders=5 -c hot_standby=on"
}
"${AS_PG[@]}" "$PGBIN/initdb" -D "$PG/primary" -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 >"$WORK/initdb.log" 2>&1 ||
  { cat "$WORK/initdb.log"; give_up "initdb"; }
# The superuser on the socket; geoserve and the standby's replication connection over loopback.
# pg_basebackup copies this file, so the promoted standby lets geoserve in alike.
cat >"$WORK/pg_hba.conf" <<'EOF'
local all         postgres                trust
host  all         geoserve  127.0.0.1/32  trust
host  replication postgres  127.0.0.1/32  trust
EOF
"${AS_PG[@]}" cp "$WORK/pg_hba.conf" "$PG/primary/pg_hba.conf"
pg_ctl -D "$PG/primary" -l "$PG/primary.log" -w -o "$(pg_options "$P1")" start >/dev/null ||
  { cat "$PG/primary.log"; give_up "start the primary"; }
# docs/postgresql.md's role and database: a login role that owns its database, nothing more.
sql "$P1" "CREATE ROLE geoserve LOGIN" && "${AS_PG[@]}" "$PGBIN/createdb" -h "$PG" -p "$P1" -U postgres --owner=geoserve geoserve ||
  give_up "create the role and database geoserve"

# --- the standby -------------------------------------------------------------------------------
# -R: standby.signal and primary_conninfo (127.0.0.1:P1 as postgres) for streaming replication.
"${AS_PG[@]}" "$PGBIN/pg_basebackup" -h 127.0.0.1 -p "$P1" -U postgres -D "$PG/standby" -R -X stream --checkpoint=fast \
  >"$WORK/basebackup.log" 2>&1 || { cat "$WORK/basebackup.log"; give_up "pg_basebackup"; }
pg_ctl -D "$PG/standby" -l "$PG/standby.log" -w -o "$(pg_options "$P2")" start >/dev/null ||
  { cat "$PG/standby.log"; give_up "start the standby"; }
# Only now commits wait for the standby (set before, the role's commit would have waited for
# none). ALTER SYSTEM writes the primary's own postgresql.auto.conf, after the base backup: the
# promoted standby does not inherit it and so waits for no standby of its own.
sql "$P1" "ALTER SYSTEM SET synchronous_standby_names = '*'" && sql "$P1" "SELECT pg_reload_conf()" >/dev/null ||
  give_up "set synchronous_standby_names"
streaming() { [ "$(sql "$P1" "SELECT state || ' ' || sync_state FROM pg_stat_replication")" = "streaming sync" ]; }
if until_true 60 streaming; then
  say "ok the standby streams from the primary, synchronously"
else
  say "FAIL the standby streams from the primary, synchronously: pg_stat_replication: $(sql "$P1" "SELECT state, sync_state FROM pg_stat_replication")"
  tail -5 "$PG/standby.log"; finish
fi
check "the standby is in recovery" "pg_is_in_recovery: $(sql "$P2" "SELECT pg_is_in_recovery()")" \
  test "$(sql "$P2" "SELECT pg_is_in_recovery()")" = t

# --- geoserve on both hosts ----------------------------------------------------------------------
DB="postgres://geoserve@127.0.0.1:$P1,127.0.0.1:$P2/geoserve?target_session_attrs=read-write"
# Every process and command of the installation: the URI, the key file (made by the first use).
export GEOSERVE_DATABASE=$DB GEOSERVE_KEYS=$WORK/geoserve.keys
(cd "$WORK" && exec "$BIN" serve --host 127.0.0.1 --port "$HTTP" --attachments "$WORK/attachments" --index-cache none \
  --demo-data "$ROOT/data" --publish-at never --anonymous-per-minute 0 --max-pending-anonymous 0 --drain-delay 0 \
  --database-connections "$CONNECTIONS" --statement-timeout "$STATEMENT_TIMEOUT" \
  --log-format json --log-level info) >>"$WORK/geoserve.log" 2>&1 &
GEOSERVE=$!
up() { [ "$(readyz)" = 200 ] || { kill -0 "$GEOSERVE" 2>/dev/null || return 2; return 1; }; }
if until_true 120 up; then
  say "ok geoserve serves on the two-host URI: /readyz 200"
else
  say "FAIL geoserve serves on the two-host URI: /readyz $(readyz)$(kill -0 "$GEOSERVE" 2>/dev/null || echo ', the process exited')"
  geoserve_log; finish
fi
# The log's start line shows the location as written (no password here to mask).
shown=$(grep -m1 '"message":"starting"' "$WORK/geoserve.log" | grep -o '"GEOSERVE_DATABASE":"[^"]*"')
check "the start line shows both hosts of the URI" "it shows ${shown:-no GEOSERVE_DATABASE}" \
  test "$shown" = "\"GEOSERVE_DATABASE\":\"$DB\""

# --- intake, then the failover -------------------------------------------------------------------
RESULTS=$WORK/results
started=$(date +%s)
python3 "$HERE/failover.py" run "$URL" "$RESULTS" "$CLIENTS" &
LOAD=$!
acked_at_least() { [ "$(python3 "$HERE/failover.py" acked "$RESULTS" "${2:-0}")" -ge "$1" ]; }
until_true 120 acked_at_least "$ACKED_BEFORE" ||
  { say "FAIL $ACKED_BEFORE reports acknowledged before the failover: $(python3 "$HERE/failover.py" acked "$RESULTS") in 120 s"; geoserve_log; finish; }

event killed
pg_ctl -D "$PG/primary" -m immediate -w stop >/dev/null || say "FAIL pg_ctl -m immediate stop of the primary"
event dead
not_ready() { [ "$(readyz)" = 503 ]; }
if until_true 30 not_ready; then
  event readyz-503
  say "ok /readyz answers 503 without a primary ($(awk '$2 == "readyz-503" { r = $1 } $2 == "killed" { k = $1 } END { printf "%.2f", r - k }' "$EVENTS") s after the kill)"
else
  say "FAIL /readyz answers 503 without a primary: still $(readyz) 30 s after the kill"
fi
# The outage lasts OUTAGE seconds, as an operator's or a failover manager's decision would, and
# at least until every client has been refused a few times (each waits 0.1 s after a refusal):
# the pool's connections are all found broken, new ones find only the standby, and whatever
# geoserve does between attempts to connect has had time to grow. Meanwhile /readyz must keep
# answering 503.
KILLED=$(event_time dead) answers=()
outage() {
  answers+=("$(readyz)")
  [ "$(python3 "$HERE/failover.py" refused "$RESULTS" "$KILLED")" -ge "$REFUSED" ] &&
    [ "$(date +%s)" -ge "$((${KILLED%.*} + OUTAGE))" ]
}
until_true $((OUTAGE + 30)) outage ||
  say "FAIL $REFUSED requests refused without a primary: $(python3 "$HERE/failover.py" refused "$RESULTS" "$KILLED") in $((OUTAGE + 30)) s"
others=$(printf '%s\n' "${answers[@]}" | grep -vc '^503$')
check "/readyz answers 503 throughout the outage (${#answers[@]} probes)" "$others of ${#answers[@]} probes answered otherwise: $(printf '%s\n' "${answers[@]}" | sort | uniq -c | xargs)" \
  test "$others" -eq 0
# The replica still in recovery: a read-write connection finds no host. Promote it.
event promoting
if pg_ctl -D "$PG/standby" -w promote >"$WORK/promote.log" 2>&1; then
  event promoted
  check "the standby is promoted" "pg_is_in_recovery: $(sql "$P2" "SELECT pg_is_in_recovery()")" \
    test "$(sql "$P2" "SELECT pg_is_in_recovery()")" = f
else
  say "FAIL pg_ctl promote: $(cat "$WORK/promote.log")"
fi
PROMOTING=$(event_time promoting)
# Load until a report is acknowledged on the new primary (or long past the MAX_RECOVERY allowed),
# then a little more intake.
acked_since() { [ -n "$(python3 "$HERE/failover.py" first-ack "$RESULTS" "$PROMOTING")" ]; }
if until_true 60 acked_since; then
  until_true 60 acked_at_least "$ACKED_AFTER" "$PROMOTING" ||
    say "FAIL $ACKED_AFTER reports acknowledged after the promotion: $(python3 "$HERE/failover.py" acked "$RESULTS" "$PROMOTING") in 60 s"
fi
event stopped
kill -TERM "$LOAD"; wait "$LOAD"; LOAD=

# --- afterwards ----------------------------------------------------------------------------------
if until_true 30 up; then
  say "ok /readyz answers 200 on the new primary"
else
  say "FAIL /readyz answers 200 on the new primary: $(readyz) 30 s after the load stopped"
fi
# The requests not acknowledged, once more with their keys, as clients would after a 503.
python3 "$HERE/failover.py" retry "$URL" "$RESULTS" "$WORK/retries"
# Every row of the promoted server's reports, with the key a request of this run wrote in its text.
sql "$P2" "SELECT id || '|' || coalesce(substring(payload from 'failover load ([0-9a-f]{32})'), '') FROM reports" geoserve \
  >"$WORK/stored" || say "FAIL read the reports table of the promoted server"
count < <(python3 "$HERE/failover.py" check "$RESULTS" "$WORK/retries" "$WORK/stored" "$EVENTS" "$MAX_RECOVERY")
counts=$(sql "$P2" "SELECT count(*) || ' ' || count(DISTINCT id) FROM reports" geoserve)
check "count(*) = count(DISTINCT id) in reports ($counts)" "$counts" test "${counts% *}" = "${counts#* }"

# The new primary's checks, with the installation's URI and key file, as geoserve-admin runs them.
for command in "aggregates check" "audit verify"; do
  out=$(cd "$WORK" && timeout 300 "$BIN" $command 2>&1); status=$?
  if [ "$status" -eq 0 ]; then say "ok geoserve $command on the new primary exits 0: $(tail -1 <<<"$out")"
  else say "FAIL geoserve $command on the new primary exits 0: exit $status: $(tail -3 <<<"$out" | tr '\n' ' ')"; fi
done
check "geoserve ran throughout, never restarted" "the process exited: $(tail -3 "$WORK/geoserve.log")" kill -0 "$GEOSERVE"

echo "== $(($(date +%s) - started)) s of load and checks"
[ "$failed" -eq 0 ] || geoserve_log
finish
