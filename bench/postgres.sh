#!/usr/bin/env bash
# geoserve on PostgreSQL, beside PostgreSQL's own ceiling and beside geoserve on SQLite, in the
# same run on the same machine. Starts a throw-away PostgreSQL of its own (Debian's initdb and
# pg_ctl, the newest installed version, on a free loopback port) with the durable defaults:
# fsync and synchronous_commit stay on, and both are read back with SHOW and printed (the run
# stops if either is off). Only the port, the socket folder, listen_addresses and
# max_connections are set. Then a Markdown table of the medians over rounds per figure, every
# round's value, and the ratios (median of the per-round ratios) against their targets.
#
#   bench/postgres.sh [BINARY]
#
# Nothing is built: BINARY is a release geoserve (default: the environment variable BINARY, else
# .build/release/geoserve in this repository). It is copied into the work folder first, so a
# rebuild during the run does not change what is measured.
#
# Workloads (each timed run after a WARMUP-second warm-up of the same shape, and after a CHECKPOINT
# of the PostgreSQL server):
#   intake  per round, on a fresh database with the demo campus (data/): durable anonymous
#           misconduct reports, POST /v1/reports with bench/reports.lua, CONNECTIONS connections
#           in all for DURATION s
#             1 process    one geoserve, wrk -t2 -cCONNECTIONS: reports/s, p99
#             2 processes  a second geoserve on the same database and its own port; two wrk at
#                          once, -t1 and half the connections each, one per process: the sum of
#                          their reports/s, the larger p99
#             pgbench one-row  at the same concurrency on the same server, in a database of its
#                          own: pgbench -n -c CONNECTIONS -j 2 -T DURATION -f
#                          bench/postgres_intake.sql, one INSERT of one report-shaped row per
#                          transaction into a fresh table whose only index is its primary key
#                          (a text id, kind, status, version, day and timestamps as text, lon/lat
#                          double precision, a JSON payload of about 300 bytes): tps, latency
#             pgbench full report  what one report writes, one report per transaction, at the
#                          same concurrency: pgbench -n -M prepared -c CONNECTIONS -j 2 -T DURATION
#                          -f bench/postgres_intake_full.sql, in a fresh copy (CREATE DATABASE …
#                          TEMPLATE) of a database geoserve itself migrated and filled with the
#                          demo campus (`serve --demo-data`, stopped), so the tables, indexes,
#                          constraints and triggers are geoserve's: the report row, its area rows
#                          (zones always, halls when the point is in one), an audit row, and its
#                          counter cells upserted (two per area row), in one transaction of one
#                          round trip (a pipeline of BEGIN, one statement, COMMIT); no writer lock
#                          and no chained audit hash (see the script's header): tps, latency
#           For each of the four, from PostgreSQL around the timed run: rows stored per commit
#           (reports, or the one-row table's rows, added ÷ transaction ids taken) and WAL bytes
#           per row (pg_current_wal_lsn; per report for geoserve and the full-report pgbench).
#           Once before the rounds, for context: one pgbench client alone for 3 s with each
#           script (the latency of one durable one-row commit, and of one whole report's), printed
#           as notes; the full-report script's rows of that run are then posted to a geoserve on
#           the same database, and the areas geoserve places each point in must be the ones the
#           script wrote (the run stops otherwise).
#           Ratios: geoserve 1 process reports/s ÷ pgbench full-report tps (target >= 1: the same
#           rows, PostgreSQL one report per commit, geoserve many reports per commit),
#           2 processes ÷ 1 process (target >= 0.9), and for context (no target) geoserve 1 and 2
#           processes ÷ pgbench one-row tps. The reports stored (psql count) are checked against
#           the requests wrk saw answered 2xx (stored >= answered; the difference are requests
#           in flight when a wrk run ended), and the rows pgbench stored against its
#           transactions; for the full report also: one audit row per report, every report in a
#           zone, every area row naming an area of the published layer version, and the counters
#           summing to two per area row. The area rows per report of both are in the notes.
#   items   GET /collections/bhalls/items?limit=50 (the peers' halls50 shape, as in
#           bench/regression.sh) with wrk -t2 -c4 on one PostgreSQL-backed and one SQLite-backed
#           geoserve, each with the peers' campus halls imported as layer `bhalls` by
#           `geoserve import-areas`; both answers are checked before timing (a FeatureCollection
#           of every hall, the same ids on both). Rounds alternate (PostgreSQL, SQLite, …):
#           requests/s, p99, and the ratio PostgreSQL / SQLite (target >= 0.80).
#   bulk    not in the default set (about a minute per round at 1,000,000 rows). Once,
#           bench/make_reports.py writes BULK_REPORTS rows (default 1,000,000; uniform points
#           over the Chicago community areas' bounding box). Per round, on a fresh database with
#           the 77 community areas as its only layer (`import-areas`, layer `areas`), each run
#           after a CHECKPOINT, wall-clock times:
#             import   `geoserve import-reports`: read, checked, placed, counted and audited in
#                      one transaction; beside it `psql \copy` of the same report rows (copied
#                      out of the imported table) into the reports table of a second, freshly
#                      migrated database: the table and indexes the import writes, nothing else
#             export   `geoserve export reports` beside `psql \copy` of the same query to a
#                      file; the two files are compared byte for byte
#             rebuild  `geoserve aggregates rebuild` from emptied counters beside the recount
#                      alone as one GROUP BY on the server (three time bases, the submitted day
#                      in UTC), its rows read by psql and dropped
#           Rates are rows per second (the rebuild's: reports per second); ratios: import ÷
#           psql's copy-in (target >= 0.6; the import's older target, 100,000 reports/s, is a note
#           under the table), export ÷ psql's copy-out (target >= 0.67, i.e. within 1.5× its time),
#           rebuild ÷ GROUP BY (target >= 1).
# Every timed run also gives the whole machine's busy CPU in percent of all cores (/proc/stat):
# near 100 the figure is bound by CPU, well below it by waiting (round trips, commits).
# geoserve runs with --log-level error and its default caches and pool size. Servers, wrk,
# PostgreSQL and the work folder (PostgreSQL's data folder included) are removed on every exit
# (success, failure, Ctrl-C, TERM). As root, PostgreSQL runs as the postgres account
# (runuser). postgresql, postgresql-contrib and wrk are installed with apt-get when missing.
#
# Environment:
#   WORKLOADS     which to run, of "intake items bulk" (default "intake items", in that order)
#   BULK_REPORTS  rows of the bulk workload's report file (default 1000000)
#   ROUNDS        rounds per workload (default 3)
#   DURATION      seconds per timed run (default 10)
#   WARMUP        seconds of warm-up before each timed run (default 2)
#   CONNECTIONS   connections in all for intake, for wrk and for pgbench (default 32)
#   DATABASE_CONNECTIONS  --database-connections of every PostgreSQL-backed geoserve (default:
#                 geoserve's own, twice the cores, 2-16)
#   SHARED        the shared folder holding bench/data (default ../shared beside this repository)
#   BINARY        the geoserve binary when no argument is given
#   OUT           also write the final Markdown to this file
#   KEEP_WORK=1   keep the work folder (results.jsonl, logs/, wrk and pgbench outputs; the
#                 PostgreSQL server is still stopped) and print its path
# ROUNDS=3 with the defaults takes about 5 minutes on two cores.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
report=$root/bench/postgres_report.py
pgscript=$root/bench/postgres_intake.sql
pgscript_full=$root/bench/postgres_intake_full.sql
shared=${SHARED:-$root/../shared}
data=$shared/bench/data
# Each workload NAME is a function workload_NAME below, run once with all its rounds.
known_workloads="intake items bulk"
workloads=${WORKLOADS:-intake items}
bulk_reports=${BULK_REPORTS:-1000000}
rounds=${ROUNDS:-3}; duration=${DURATION:-10}; warmup=${WARMUP:-2}; conns=${CONNECTIONS:-32}
db_conns=${DATABASE_CONNECTIONS:-}
binary=${1:-${BINARY:-$root/.build/release/geoserve}}

die() { echo "postgres.sh: $*" >&2; exit 1; }
log() { echo "[postgres.sh $(date +%H:%M:%S)] $*" >&2; }

[ $# -le 1 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
[ -x "$binary" ] && [ -f "$binary" ] || die "not an executable file: $binary (pass a release geoserve binary)"
for v in rounds duration warmup conns; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "${v^^}=${!v}: a positive integer is needed"
done
[ "$conns" -ge 2 ] || die "CONNECTIONS=$conns: at least 2 are needed (two processes, two wrk threads)"
[ -z "$db_conns" ] || [[ $db_conns =~ ^[1-9][0-9]*$ ]] || die "DATABASE_CONNECTIONS=$db_conns: a positive integer is needed"
for w in $workloads; do
  [[ " $known_workloads " == *" $w "* ]] || die "unknown workload '$w' in WORKLOADS (known: $known_workloads)"
done
[[ " $workloads " != *" items "* ]] || [ -f "$data/campus_halls.geojson" ] \
  || die "missing $data/campus_halls.geojson (the shared peer benchmark data; set SHARED=...)"
[ -f "$root/data/halls.geojson" ] || die "missing the demo campus in $root/data"
for f in "$root/bench/reports.lua" "$pgscript" "$pgscript_full" "$report"; do [ -f "$f" ] || die "missing $f"; done
command -v curl >/dev/null || die "curl is needed"
command -v python3 >/dev/null || die "python3 is needed"

# --- packages: PostgreSQL's server programs (pgbench included) and wrk ---------------------------
pg_bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
missing=()
bindir=$(pg_bindir || true)
for p in initdb pg_ctl psql pgbench; do
  [ -n "$bindir" ] && [ -x "$bindir/$p" ] || { missing+=(postgresql postgresql-contrib); break; }
done
command -v wrk >/dev/null || missing+=(wrk)
if ((${#missing[@]})); then
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  command -v apt-get >/dev/null || die "missing ${missing[*]}, and there is no apt-get to install them"
  log "installing ${missing[*]} (apt-get)"
  # Debian's postgresql package would otherwise create and start a cluster of its own.
  if [[ " ${missing[*]} " == *" postgresql "* ]] && [ ! -e /etc/postgresql-common/createcluster.conf ]; then
    "${sudo[@]}" mkdir -p /etc/postgresql-common
    echo "create_main_cluster = false" | "${sudo[@]}" tee /etc/postgresql-common/createcluster.conf >/dev/null
  fi
  { "${sudo[@]}" apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >&2 \
    || die "could not install ${missing[*]}"
  bindir=$(pg_bindir || true)
fi
for p in initdb pg_ctl psql pgbench; do
  [ -n "$bindir" ] && [ -x "$bindir/$p" ] || die "PostgreSQL's $p is missing (apt-get install postgresql postgresql-contrib)"
done
command -v wrk >/dev/null || die "wrk is needed (apt-get install wrk)"
# The full-report script is a pipeline (\startpipeline), which pgbench has from version 14 on.
pgbench_major=$("$bindir/pgbench" --version | sed -n 's/^pgbench (PostgreSQL) \([0-9]*\).*/\1/p')
[[ " $workloads " != *" intake "* ]] || [ "${pgbench_major:-0}" -ge 14 ] \
  || die "pgbench ${pgbench_major:-?} in $bindir cannot run $pgscript_full (pipelines need pgbench 14 or later)"

# --- work folder, cleanup --------------------------------------------------------------------
work=$(mktemp -d -t geoserve-postgres.XXXXXX)
pgdir=$work/pg
as_owner=()
pg_started=0
declare -A server_pid=() server_base=()
wrk_pids=()
stop_server() {  # name
  local pid=${server_pid[$1]:-}
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  unset "server_pid[$1]" "server_base[$1]"
}
cleanup() {
  local rc=$? p
  trap - EXIT INT TERM
  for p in "${wrk_pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${!server_pid[@]}"; do stop_server "$p"; done
  if [ "$pg_started" = 1 ]; then
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$pgdir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if [ "${KEEP_WORK:-}" = 1 ]; then echo "work folder kept: $work" >&2; else rm -rf "$work"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$work/bin" "$work/logs" "$work/out" "$work/run" "$pgdir"
cp "$binary" "$work/bin/geoserve"
bin=$work/bin/geoserve
results=$work/results.jsonl
: > "$results"
failed_checks=0

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# --- PostgreSQL ------------------------------------------------------------------------------
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root: the server belongs to the postgres account, which must be
  # able to reach its folder inside the work folder.
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chmod 711 "$work"
  chown postgres "$pgdir"
  as_owner=(runuser -u postgres --)
fi
log "initdb ($bindir)"
"${as_owner[@]}" "$bindir/initdb" -D "$pgdir/data" -U geoserve -A trust -E UTF8 --locale=C.UTF-8 \
  > "$work/logs/initdb.log" 2>&1 || die "initdb failed: $(tail -5 "$work/logs/initdb.log")"
max_connections=$((conns + 64 > 100 ? conns + 64 : 100))
for attempt in 1 2 3; do
  pgport=$(free_port)
  if "${as_owner[@]}" "$bindir/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w -t 60 \
      -o "-p $pgport -k $pgdir -c listen_addresses=127.0.0.1 -c max_connections=$max_connections" start \
      > "$work/logs/pg_ctl.log" 2>&1; then
    pg_started=1; break
  fi
  [ "$attempt" = 3 ] && die "PostgreSQL did not start: $(tail -5 "$pgdir/server.log" 2>/dev/null)"
done
psql_() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pgport" -U geoserve -At "$@"; }
pg_uri() { echo "postgres://geoserve@127.0.0.1:$pgport/$1"; }
show() { psql_ -d postgres -c "SHOW $1"; }
pg_version=$(show server_version)
fsync=$(show fsync); sync_commit=$(show synchronous_commit)
[ "$fsync" = on ] && [ "$sync_commit" = on ] \
  || die "PostgreSQL is not durable here: fsync=$fsync synchronous_commit=$sync_commit"
pg_settings="fsync=$fsync, synchronous_commit=$sync_commit, full_page_writes=$(show full_page_writes), wal_sync_method=$(show wal_sync_method), shared_buffers=$(show shared_buffers), max_connections=$(show max_connections)"
fs_type=$(df -P -T "$pgdir" | awk 'NR == 2 { print $2 }')
log "PostgreSQL $pg_version on 127.0.0.1:$pgport ($pg_settings; data on $fs_type)"
checkpoint() { psql_ -d postgres -c CHECKPOINT; }

# --- geoserve servers and wrk --------------------------------------------------------------------
keys_for() { echo "$work/run/$(basename "${1%%\?*}").keys"; }  # database -> its key file
start_server() {  # name database demo-data; sets server_pid[name], server_base[name]
  local name=$1 db=$2 demo=$3 logf=$work/logs/$1.log attempt port pid extra=()
  case $db in postgres://*) [ -z "$db_conns" ] || extra=(--database-connections "$db_conns") ;; esac
  for attempt in 1 2 3; do
    port=$(free_port)
    # Run from the work folder with an attachments folder there: geoserve's default for
    # PostgreSQL is var/attachments under the working folder.
    # Each database is an installation of its own with its own key file (geoserve refuses a key
    # file made for another database); processes on one database share it.
    (cd "$work/run" && GEOSERVE_ATTACHMENTS="$work/run/attachments" GEOSERVE_KEYS="$(keys_for "$db")" \
      GEOSERVE_ANONYMOUS_PER_MINUTE=0 GEOSERVE_MAX_PENDING_ANONYMOUS=0 exec "$bin" serve --port "$port" \
      --database "$db" --demo-data "$demo" --log-level error "${extra[@]}") >> "$logf" 2>&1 &
    pid=$!
    server_pid[$name]=$pid
    server_base[$name]="http://127.0.0.1:$port"
    for _ in $(seq 600); do  # <= 60 s (the demo campus is imported on first start)
      kill -0 "$pid" 2>/dev/null || break
      curl -fs -o /dev/null --max-time 2 "${server_base[$name]}/readyz" && return 0
      sleep 0.1
    done
    echo "server did not become ready on ${server_base[$name]} (attempt $attempt)" >> "$logf"
    stop_server "$name"
  done
  die "could not start geoserve serve --database $db, see the log: $(tail -5 "$logf")"
}
wrk_start() {  # output threads connections seconds url script
  timeout -k 5 $(($4 + 60)) wrk -t"$2" -c"$3" -d"${4}s" --timeout 10s -s "$6" "$5" > "$1" 2>&1 &
  wrk_pids+=($!)
}
wrk_wait() {  # outputs... (of the wrk runs started since the last wait, in order)
  local i rc
  for i in "${!wrk_pids[@]}"; do
    rc=0; wait "${wrk_pids[$i]}" || rc=$?
    [ "$rc" = 0 ] || die "wrk failed ($rc): $(cat "${@:$((i + 1)):1}")"
  done
  wrk_pids=()
}
summary_lines() { local f; for f in "$@"; do tail -1 "$f"; done; }
surprises() {  # label wrk-outputs...: non-2xx and socket errors as notes
  local label=$1 f line; shift
  for f in "$@"; do
    while IFS= read -r line; do
      python3 "$report" note "$results" "$label: wrk reported \`${line## }\`"
    done < <(grep -E 'Non-2xx|Socket errors' "$f" || true)
  done
}
# Writes on PostgreSQL during a timed run: transaction ids and WAL position before and after,
# and the rows of the table written. Every write transaction takes one id and reading the
# current id takes one, so commits = ids between the marks - 1.
pg_mark() {  # database table -> "xid lsn rows"
  psql_ -d "$1" -F ' ' -c "SELECT pg_current_xact_id(), pg_current_wal_lsn(), (SELECT count(*) FROM $2)"
}
record_writes() {  # id round workload|label database table mark-before-the-run
  local x0 l0 n0 x1 l1 n1 wal
  read -r x0 l0 n0 <<< "$6"
  read -r x1 l1 n1 <<< "$(pg_mark "$4" "$5")"
  wal=$(psql_ -d postgres -c "SELECT pg_wal_lsn_diff('$l1', '$l0')::bigint")
  python3 -c "print(($n1 - $n0) / max(1, $x1 - $x0 - 1))" \
    | python3 "$report" record "$results" value "$1.batch" "$2" "$3|rows per commit" > /dev/null
  python3 -c "print($wal / max(1, $n1 - $n0))" \
    | python3 "$report" record "$results" value "$1.wal" "$2" "$3|WAL bytes per row" > /dev/null
}
# The whole machine's CPU time that was busy during a timed run (/proc/stat), in percent of all
# cores: near 100 the run is bound by CPU, well below it by waiting (round trips, commits).
cpu_mark() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
record_cpu() {  # id round workload|label mark-before-the-run mark-after-it
  local b0 t0 b1 t1
  read -r b0 t0 <<< "$4"; read -r b1 t1 <<< "$5"
  python3 -c "print(100 * ($b1 - $b0) / max(1, $t1 - $t0))" \
    | python3 "$report" record "$results" value "$1.cpu" "$2" "$3|machine CPU busy %" > /dev/null
}
measured_ok=0
mark_db=; mark_table=
wrk_measure() {  # id round "workload|label|unit" threads connections url script; sets measured_ok (2xx, warm-up
                 # included); with mark_db and mark_table set, also the writes per commit and per row
  local id=$1 r=$2 spec=$3 t=$4 c=$5 url=$6 script=$7 out=$work/out/$1.r$2 ok label=${3#*|} mark= cpu0 cpu1
  wrk_start "$out.warmup" "$t" "$c" "$warmup" "$url" "$script"; wrk_wait "$out.warmup"
  checkpoint; sleep 0.5
  [ -z "$mark_db" ] || mark=$(pg_mark "$mark_db" "$mark_table")
  cpu0=$(cpu_mark)
  wrk_start "$out" "$t" "$c" "$duration" "$url" "$script"; wrk_wait "$out"
  cpu1=$(cpu_mark)
  ok=$(tail -1 "$out" | python3 "$report" record "$results" wrk "$id" "$r" "$spec") \
    || die "could not read wrk's summary for $id: $(cat "$out")"
  record_cpu "$id" "$r" "${spec%|*}" "$cpu0" "$cpu1"
  [ -z "$mark_db" ] || record_writes "$id" "$r" "${spec%|*}" "$mark_db" "$mark_table" "$mark"
  surprises "${label%|*} round $r" "$out.warmup" "$out"
  measured_ok=$((ok + $(tail -1 "$out.warmup" | python3 "$report" succeeded)))
  sleep 0.5
}

post_check() {  # name: one report through the server, 201 expected
  local code
  code=$(curl -s -o "$work/out/post.json" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    --data-binary @"$work/body.json" "${server_base[$1]}/v1/reports") || true
  [ "$code" = 201 ] || die "$1: POST /v1/reports answered $code, not 201: $(cat "$work/out/post.json" 2>/dev/null)"
}
cat > "$work/body.json" <<'JSON'
{"kind":"misconduct","occurredAt":"2026-11-02T21:30:00Z","location":{"lon":-87.5960,"lat":41.7920,"accuracyM":10},"officerDescription":"tall, grey uniform","incidentDescription":"stopped without reason","anonymous":true}
JSON
# wrk's summary as one JSON line (the same fields as reports.lua's done()).
cat > "$work/done.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format('{"requests":%d,"seconds":%.3f,"p50_ms":%.3f,"p99_ms":%.3f,"errors":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA

# --- workload: intake --------------------------------------------------------------------------
intake_gs1="intake|geoserve, 1 process, wrk 2×$conns"
intake_gs2="intake|geoserve, 2 processes, 2 wrk 1×$((conns / 2))+1×$((conns - conns / 2))"
intake_pgb="intake|pgbench one-row INSERT, -c $conns -j 2"
intake_pgf="intake|pgbench full report, -c $conns -j 2 -M prepared"
full_template=pgbench_full  # geoserve's schema and the demo campus, copied for every round
workload_intake() {
  local r db uri ok stored answered out mark cpu cpu_end half=$((conns / 2)) rows processed fdb
  psql_ -d postgres -c "CREATE DATABASE pgbench_intake"
  # Context, once: one pgbench client alone shows what one durable one-row commit costs here.
  intake_table
  pgbench_run "$work/out/intake.pgbench.c1" 3 1 1 pgbench_intake "$pgscript"
  python3 "$report" note "$results" "one pgbench client alone (3 s): $(pgbench_summary "$work/out/intake.pgbench.c1"): the cost of one durable one-row commit on this machine"
  full_prepare
  for r in $(seq 1 "$rounds"); do
    db=intake_r$r; uri=$(pg_uri "$db")
    psql_ -d postgres -c "CREATE DATABASE $db"
    log "round $r/$rounds intake: geoserve, 1 process (wrk 2x$conns, ${duration}s)"
    start_server intake_a "$uri" "$root/data"
    post_check intake_a
    answered=1
    mark_db=$db mark_table=reports
    wrk_measure intake.gs1 "$r" "$intake_gs1|reports/s" 2 "$conns" "${server_base[intake_a]}" "$root/bench/reports.lua"
    mark_db= mark_table=
    answered=$((answered + measured_ok))
    log "round $r/$rounds intake: geoserve, 2 processes (2 wrk 1x$half, ${duration}s)"
    start_server intake_b "$uri" "$root/data"
    post_check intake_b
    answered=$((answered + 1))
    out=$work/out/intake.gs2.r$r
    wrk_start "$out.a.warmup" 1 "$half" "$warmup" "${server_base[intake_a]}" "$root/bench/reports.lua"
    wrk_start "$out.b.warmup" 1 $((conns - half)) "$warmup" "${server_base[intake_b]}" "$root/bench/reports.lua"
    wrk_wait "$out.a.warmup" "$out.b.warmup"
    checkpoint; sleep 0.5
    mark=$(pg_mark "$db" reports); cpu=$(cpu_mark)
    wrk_start "$out.a" 1 "$half" "$duration" "${server_base[intake_a]}" "$root/bench/reports.lua"
    wrk_start "$out.b" 1 $((conns - half)) "$duration" "${server_base[intake_b]}" "$root/bench/reports.lua"
    wrk_wait "$out.a" "$out.b"
    cpu_end=$(cpu_mark)
    ok=$(summary_lines "$out.a" "$out.b" | python3 "$report" record "$results" wrk intake.gs2 "$r" "$intake_gs2|reports/s") \
      || die "could not read wrk's summaries: $(cat "$out.a" "$out.b")"
    record_cpu intake.gs2 "$r" "$intake_gs2" "$cpu" "$cpu_end"
    record_writes intake.gs2 "$r" "$intake_gs2" "$db" reports "$mark"
    surprises "geoserve, 2 processes round $r" "$out.a.warmup" "$out.b.warmup" "$out.a" "$out.b"
    answered=$((answered + ok + $(summary_lines "$out.a.warmup" "$out.b.warmup" | python3 "$report" succeeded)))
    stop_server intake_a; stop_server intake_b
    stored=$(psql_ -d "$db" -c "SELECT count(*) FROM reports")
    if [ "$stored" -ge "$answered" ]; then
      python3 "$report" note "$results" "intake round $r: $stored reports stored in PostgreSQL, $answered answered 2xx to wrk and curl (the $((stored - answered)) more were in flight when a wrk run ended)"
    else
      failed_checks=$((failed_checks + 1))
      python3 "$report" note "$results" "**CHECK FAILED** intake round $r: only $stored reports stored in PostgreSQL, but $answered were answered 2xx"
    fi
    log "round $r/$rounds intake: pgbench one-row (-c $conns -j 2, ${duration}s)"
    intake_table
    out=$work/out/intake.pgbench.r$r
    pgbench_run "$out.warmup" "$warmup" "$conns" 2 pgbench_intake "$pgscript"
    checkpoint; sleep 0.5
    mark=$(pg_mark pgbench_intake intake_reports); cpu=$(cpu_mark)
    pgbench_run "$out" "$duration" "$conns" 2 pgbench_intake "$pgscript"
    cpu_end=$(cpu_mark)
    processed=$(python3 "$report" record "$results" pgbench intake.pgbench "$r" "$intake_pgb|transactions/s" < "$out") \
      || die "could not read pgbench's summary: $(cat "$out")"
    record_cpu intake.pgbench "$r" "$intake_pgb" "$cpu" "$cpu_end"
    record_writes intake.pgbench "$r" "$intake_pgb" pgbench_intake intake_reports "$mark"
    processed=$((processed + $(python3 "$report" succeeded < "$out.warmup")))
    rows=$(psql_ -d pgbench_intake -c "SELECT count(*) FROM intake_reports")
    if [ "$rows" -lt "$processed" ]; then
      failed_checks=$((failed_checks + 1))
      python3 "$report" note "$results" "**CHECK FAILED** intake round $r: pgbench processed $processed transactions but $rows rows are stored"
    fi
    if [ "$r" = 1 ]; then
      python3 "$report" note "$results" "pgbench rows: $(psql_ -d pgbench_intake -c "SELECT avg(octet_length(payload))::int FROM intake_reports")-byte payloads on average; $rows rows stored in round 1 for $processed transactions"
    fi
    log "round $r/$rounds intake: pgbench full report (-c $conns -j 2 -M prepared, ${duration}s)"
    fdb=${full_template}_r$r
    psql_ -d postgres -c "CREATE DATABASE $fdb TEMPLATE $full_template"
    out=$work/out/intake.pgbfull.r$r
    pgbench_run "$out.warmup" "$warmup" "$conns" 2 "$fdb" "$pgscript_full" -M prepared
    checkpoint; sleep 0.5
    mark=$(pg_mark "$fdb" reports); cpu=$(cpu_mark)
    pgbench_run "$out" "$duration" "$conns" 2 "$fdb" "$pgscript_full" -M prepared
    cpu_end=$(cpu_mark)
    processed=$(python3 "$report" record "$results" pgbench intake.pgbfull "$r" "$intake_pgf|transactions/s" < "$out") \
      || die "could not read pgbench's summary: $(cat "$out")"
    record_cpu intake.pgbfull "$r" "$intake_pgf" "$cpu" "$cpu_end"
    record_writes intake.pgbfull "$r" "$intake_pgf" "$fdb" reports "$mark"
    processed=$((processed + $(python3 "$report" succeeded < "$out.warmup")))
    full_check "$r" "$fdb" "$processed" "$db"
  done
  python3 "$report" ratio "$results" intake.r1 intake.gs1 intake.pgbfull 1.0 "intake|geoserve 1 process reports/s ÷ pgbench full-report tps"
  python3 "$report" ratio "$results" intake.r2 intake.gs2 intake.gs1 0.9 "intake|geoserve 2 processes ÷ 1 process"
  python3 "$report" ratio "$results" intake.r3 intake.gs1 intake.pgbench - "intake|context: geoserve 1 process reports/s ÷ pgbench one-row tps"
  python3 "$report" ratio "$results" intake.r4 intake.gs2 intake.pgbench - "intake|context: geoserve 2 processes reports/s ÷ pgbench one-row tps"
}
# The database the full-report pgbench copies every round: migrated by geoserve, with the demo
# campus it imports on first start. Once: one pgbench client alone on a copy (context: one durable
# report), whose points are then posted to a geoserve on that copy, which must place each in the
# areas the script wrote for it.
full_prepare() {
  local turi curi out=$work/out/intake.pgbfull.c1 checked
  turi=$(pg_uri "$full_template"); curi=$(pg_uri "${full_template}_check")
  log "intake: geoserve migrates $full_template and imports the demo campus into it (for the full-report pgbench)"
  psql_ -d postgres -c "CREATE DATABASE $full_template"
  start_server full_template "$turi" "$root/data"
  stop_server full_template
  psql_ -d postgres -c "CREATE DATABASE ${full_template}_check TEMPLATE $full_template"
  cp "$(keys_for "$turi")" "$(keys_for "$curi")"  # the copy is the same installation
  pgbench_run "$out" 3 1 1 "${full_template}_check" "$pgscript_full" -M prepared
  python3 "$report" note "$results" "one pgbench client alone running the full report (3 s): $(pgbench_summary "$out"): the cost of one durable report (its rows, one commit) on this machine"
  psql_ -d "${full_template}_check" -F ' ' -c "SELECT r.lon, r.lat,
      coalesce(string_agg(a.layer || '/' || a.layer_version || '/' || a.area_id, ',' ORDER BY a.layer), '-')
    FROM reports r LEFT JOIN report_areas a ON a.report_id = r.id GROUP BY r.id ORDER BY r.id LIMIT 500" > "$work/out/placements.txt"
  start_server full_check "$curi" none
  checked=$(python3 "$report" placements "${server_base[full_check]}" < "$work/out/placements.txt" 2> "$work/out/placements.err") \
    || die "the full-report pgbench places reports elsewhere than geoserve (is $pgscript_full older than data/? bench/make_intake_full.py rewrites its placement): $(tail -5 "$work/out/placements.err")"
  stop_server full_check
  python3 "$report" note "$results" "pgbench full report: its placement of $checked matches geoserve's (each posted to a geoserve on the same database)"
  psql_ -d postgres -c "DROP DATABASE ${full_template}_check"
}
full_check() {  # round database transactions geoserve's-database: the rows the full-report pgbench stored
  local r=$1 fdb=$2 processed=$3 gdb=$4 facts reports audits placed areas cells sum stray problem problems=()
  facts=$(psql_ -d "$fdb" -F ' ' -c "SELECT
      (SELECT count(*) FROM reports), (SELECT count(*) FROM audit WHERE action = 'submit'),
      (SELECT count(DISTINCT report_id) FROM report_areas), (SELECT count(*) FROM report_areas),
      (SELECT count(*) FROM counters), (SELECT coalesce(sum(n), 0) FROM counters),
      (SELECT count(*) FROM report_areas a WHERE NOT EXISTS (
          SELECT 1 FROM areas s JOIN layers l ON l.name = s.layer AND l.published_version = s.version
          WHERE s.layer = a.layer AND s.version = a.layer_version AND s.area_id = a.area_id))") \
    || die "could not count the rows of $fdb"
  read -r reports audits placed areas cells sum stray <<< "$facts"
  [ "$reports" -ge "$processed" ] || problems+=("pgbench processed $processed transactions but $reports reports are stored")
  [ "$audits" = "$reports" ] || problems+=("$audits audit rows for $reports reports")
  [ "$placed" = "$reports" ] || problems+=("$((reports - placed)) of $reports reports are in no area")
  [ "$sum" = $((2 * areas)) ] || problems+=("the counters sum to $sum, not two per area row ($((2 * areas)))")
  [ "$stray" = 0 ] || problems+=("$stray area rows name no area of the published layer version")
  for problem in "${problems[@]}"; do
    failed_checks=$((failed_checks + 1))
    python3 "$report" note "$results" "**CHECK FAILED** intake round $r, pgbench full report: $problem"
  done
  if [ "$r" = 1 ]; then
    python3 "$report" note "$results" "pgbench full report, round 1: $reports reports stored for $processed transactions, with $audits audit rows, $areas area rows ($(awk -v a="$areas" -v n="$reports" 'BEGIN { printf "%.3f", a / (n ? n : 1) }') per report; geoserve's database of the round: $(psql_ -d "$gdb" -c "SELECT round(count(*)::numeric / greatest(1, (SELECT count(*) FROM reports)), 3) FROM report_areas")) and $cells counter cells summing to $sum"
  fi
}
pgbench_summary() { echo "$(sed -n 's/^tps = \([0-9]*\).*/\1/p' "$1") tps, latency average $(sed -n 's/^latency average = //p' "$1")"; }
intake_table() {  # a fresh, empty intake_reports in the database pgbench_intake
  psql_ -d pgbench_intake <<'SQL'
SET client_min_messages TO warning;
DROP TABLE IF EXISTS intake_reports;
CREATE TABLE intake_reports (
    id           TEXT COLLATE "C" PRIMARY KEY,
    kind         TEXT COLLATE "C" NOT NULL,
    status       TEXT COLLATE "C" NOT NULL,
    version      INTEGER NOT NULL,
    occurred_on  TEXT COLLATE "C" NOT NULL,
    submitted_at TEXT COLLATE "C" NOT NULL,
    updated_at   TEXT COLLATE "C" NOT NULL,
    lon          DOUBLE PRECISION,
    lat          DOUBLE PRECISION,
    payload      TEXT NOT NULL
);
SQL
}
pgbench_run() {  # output seconds clients threads database script [pgbench options...]
  local out=$1 seconds=$2 clients=$3 threads=$4 database=$5 script=$6 rc=0
  shift 6
  timeout -k 5 $((seconds + 60)) "$bindir/pgbench" -h 127.0.0.1 -p "$pgport" -U geoserve -n -c "$clients" -j "$threads" \
    -T "$seconds" "$@" -f "$script" "$database" > "$out" 2>&1 || rc=$?
  [ "$rc" = 0 ] || die "pgbench failed ($rc) running $(basename "$script") on $database: $(grep -m 3 -i 'error' "$out" || tail -20 "$out")"
}

# --- workload: items ---------------------------------------------------------------------------
items_path="/collections/bhalls/items?limit=50"
items_check() {  # name -> the answer in $work/out/items.NAME.json
  local f=$work/out/items.$1.json
  curl -fs "${server_base[$1]}$items_path" > "$f" || die "$1: $items_path did not answer 200"
  python3 - "$f" "$data/campus_halls.geojson" <<'PY' || die "$1: halls50 is not the whole halls layer"
import json, sys
got, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert got.get("type") == "FeatureCollection", got.get("type")
assert len(got["features"]) == min(50, len(want["features"])), len(got["features"])
PY
}
workload_items() {
  local r uri sqlite=$work/items/g.sqlite
  mkdir -p "$work/items"
  psql_ -d postgres -c "CREATE DATABASE items"
  uri=$(pg_uri items)
  log "items: importing the peers' campus halls as bhalls into PostgreSQL and SQLite"
  GEOSERVE_KEYS=$(keys_for "$uri") "$bin" import-areas "$data/campus_halls.geojson" --layer bhalls --database "$uri" >> "$work/logs/items.log" 2>&1 \
    || die "import-areas bhalls into PostgreSQL failed: $(tail -5 "$work/logs/items.log")"
  GEOSERVE_KEYS=$(keys_for "$sqlite") "$bin" import-areas "$data/campus_halls.geojson" --layer bhalls --database "$sqlite" >> "$work/logs/items.log" 2>&1 \
    || die "import-areas bhalls into SQLite failed: $(tail -5 "$work/logs/items.log")"
  start_server items_pg "$uri" none
  start_server items_sqlite "$sqlite" none
  items_check items_pg; items_check items_sqlite
  python3 - "$work/out/items.items_pg.json" "$work/out/items.items_sqlite.json" <<'PY' \
    || die "the PostgreSQL- and SQLite-backed servers answer halls50 with different features"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert [f.get("id") for f in a["features"]] == [f.get("id") for f in b["features"]]
PY
  for r in $(seq 1 "$rounds"); do
    log "round $r/$rounds items: PostgreSQL (wrk 2x4, ${duration}s)"
    wrk_measure items.pg "$r" "items|halls50 on PostgreSQL, wrk 2×4|requests/s" 2 4 \
      "${server_base[items_pg]}$items_path" "$work/done.lua"
    log "round $r/$rounds items: SQLite (wrk 2x4, ${duration}s)"
    wrk_measure items.sqlite "$r" "items|halls50 on SQLite, wrk 2×4|requests/s" 2 4 \
      "${server_base[items_sqlite]}$items_path" "$work/done.lua"
  done
  stop_server items_pg; stop_server items_sqlite
  python3 "$report" ratio "$results" items.r items.pg items.sqlite 0.8 "items|PostgreSQL ÷ SQLite requests/s"
}

# --- workload: bulk ----------------------------------------------------------------------------
bulk_columns="id, kind, status, version, occurred_on, submitted_at, updated_at, lon, lat, payload, verified_on, group_key"
# What `geoserve export reports` runs (PostgresStore.exportReports), for psql to run alike.
bulk_export_sql='SELECT id, kind, status, occurred_on, submitted_at, verified_on, lon, lat,
  CASE WHEN lon IS NULL THEN (SELECT layer FROM report_areas a WHERE a.report_id = r.id ORDER BY layer LIMIT 1) END AS area_layer,
  CASE WHEN lon IS NULL THEN (SELECT area_id FROM report_areas a WHERE a.report_id = r.id ORDER BY layer LIMIT 1) END AS area_id,
  group_key AS "group", payload FROM reports r ORDER BY id'
# The counters recounted where the data lives: per area, the occurred and submitted days always,
# the verified day while verified (Counters.contributions).
bulk_recount_sql="SELECT a.layer, b.basis, a.area_id, b.day, r.kind, r.status, r.group_key AS grp, count(*) AS n
  FROM reports r JOIN report_areas a ON a.report_id = r.id
  CROSS JOIN LATERAL (VALUES ('occurred', r.occurred_on),
    ('submitted', to_char(r.submitted_at::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD')),
    ('verified', CASE WHEN r.status = 'verified' THEN r.verified_on END)) AS b (basis, day)
  WHERE b.day IS NOT NULL
  GROUP BY a.layer, b.basis, a.area_id, b.day, r.kind, r.status, r.group_key"
bulk_timed() {  # id round "workload|label" rows command...: runs the command once, records rows/s and seconds
  local id=$1 r=$2 spec=$3 rows=$4 t0 t1 logf=$work/logs/bulk.log
  shift 4
  checkpoint
  t0=$EPOCHREALTIME
  "$@" >> "$logf" 2>&1 || die "$id round $r failed: $(tail -5 "$logf")"
  t1=$EPOCHREALTIME
  awk -v n="$rows" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", n / (b - a) }' \
    | python3 "$report" record "$results" value "$id" "$r" "$spec|rows/s" > /dev/null
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' \
    | python3 "$report" record "$results" value "$id.seconds" "$r" "$spec|s" > /dev/null
}
workload_bulk() {
  local r db uri copydb copyuri keys csv=$work/bulk/reports.csv rows cells
  [ -f "$data/chicago_areas.geojson" ] || die "missing $data/chicago_areas.geojson"
  mkdir -p "$work/bulk"
  log "bulk: writing $bulk_reports report rows (bench/make_reports.py)"
  python3 "$root/bench/make_reports.py" "$bulk_reports" "$csv"
  for r in $(seq 1 "$rounds"); do
    db=bulk_r$r; uri=$(pg_uri "$db"); keys=$(keys_for "$uri")
    psql_ -d postgres -c "CREATE DATABASE $db"
    GEOSERVE_KEYS=$keys "$bin" import-areas "$data/chicago_areas.geojson" --layer areas --database "$uri" >> "$work/logs/bulk.log" 2>&1 \
      || die "import-areas of the community areas failed: $(tail -5 "$work/logs/bulk.log")"
    log "round $r/$rounds bulk: import-reports of $bulk_reports rows"
    bulk_timed bulk.import "$r" "bulk|geoserve import-reports" "$bulk_reports" \
      env GEOSERVE_KEYS="$keys" "$bin" import-reports "$csv" --database "$uri"
    rows=$(psql_ -d "$db" -c "SELECT count(*) FROM reports")
    [ "$rows" = "$bulk_reports" ] || die "import-reports stored $rows reports of $bulk_reports"
    psql_ -d "$db" -c "\copy reports ($bulk_columns) TO '$work/bulk/rows.csv' WITH (FORMAT csv)"
    copydb=bulkcopy_r$r; copyuri=$(pg_uri "$copydb")
    psql_ -d postgres -c "CREATE DATABASE $copydb"
    GEOSERVE_KEYS=$(keys_for "$copyuri") "$bin" migrate --database "$copyuri" >> "$work/logs/bulk.log" 2>&1 \
      || die "migrate of the copy database failed: $(tail -5 "$work/logs/bulk.log")"
    log "round $r/$rounds bulk: psql \\copy of the same report rows"
    bulk_timed bulk.copyin "$r" "bulk|psql \\copy of the report rows into a migrated reports table" "$bulk_reports" \
      psql_ -d "$copydb" -c "\copy reports ($bulk_columns) FROM '$work/bulk/rows.csv' WITH (FORMAT csv)"
    psql_ -d postgres -c "DROP DATABASE $copydb"

    log "round $r/$rounds bulk: export reports, then psql \\copy of the same query"
    # Untimed, once: the first read after the import sets the rows' hint bits (writes pages),
    # which neither of the timed runs should carry alone.
    psql_ -d "$db" -c "\copy ($(tr '\n' ' ' <<< "$bulk_export_sql")) TO '/dev/null' WITH (FORMAT csv)"
    bulk_timed bulk.export "$r" "bulk|geoserve export reports" "$bulk_reports" \
      env GEOSERVE_KEYS="$keys" "$bin" export reports --out "$work/bulk/export.csv" --database "$uri"
    bulk_timed bulk.copyout "$r" "bulk|psql \\copy of the export's query" "$bulk_reports" \
      psql_ -d "$db" -c "\copy ($(tr '\n' ' ' <<< "$bulk_export_sql")) TO '$work/bulk/psql.csv' WITH (FORMAT csv, HEADER)"
    if ! cmp -s "$work/bulk/export.csv" "$work/bulk/psql.csv"; then
      failed_checks=$((failed_checks + 1))
      python3 "$report" note "$results" "**CHECK FAILED** bulk round $r: the export differs from psql's copy of the same query"
    fi

    log "round $r/$rounds bulk: aggregates rebuild from emptied counters, then the GROUP BY alone"
    cells=$(psql_ -d "$db" -c "SELECT count(*) FROM counters WHERE n <> 0")
    psql_ -d "$db" -c "DELETE FROM counters"
    bulk_timed bulk.rebuild "$r" "bulk|geoserve aggregates rebuild" "$bulk_reports" \
      env GEOSERVE_KEYS="$keys" "$bin" aggregates rebuild --database "$uri"
    bulk_timed bulk.groupby "$r" "bulk|the recount GROUP BY alone, rows to psql" "$bulk_reports" \
      psql_ -d "$db" -o /dev/null -c "$bulk_recount_sql"
    if [ "$(psql_ -d "$db" -c "SELECT count(*) FROM counters WHERE n <> 0")" != "$cells" ]; then
      failed_checks=$((failed_checks + 1))
      python3 "$report" note "$results" "**CHECK FAILED** bulk round $r: the rebuild gave another number of cells than the import ($cells)"
    fi
    [ "$r" = 1 ] && python3 "$report" note "$results" "bulk: $bulk_reports reports ($(du -m "$csv" | cut -f1) MB of CSV), $(psql_ -d "$db" -c "SELECT count(*) FROM report_areas") placed in a community area, $cells counter cells"
    psql_ -d postgres -c "DROP DATABASE $db"
  done
  python3 "$report" ratio "$results" bulk.r1 bulk.import bulk.copyin 0.6 "bulk|import-reports ÷ psql \\copy of the report rows alone"
  python3 "$report" ratio "$results" bulk.r2 bulk.export bulk.copyout 0.67 "bulk|export reports ÷ psql \\copy of the same query (within 1.5× its time)"
  python3 "$report" ratio "$results" bulk.r3 bulk.rebuild bulk.groupby 1.0 "bulk|aggregates rebuild ÷ the GROUP BY alone"
  python3 "$report" note "$results" "bulk: import-reports against its target of 100,000 reports/s: see the import's rows/s above"
}

# --- run -------------------------------------------------------------------------------------------
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
log "binary: $binary ($(sha256sum "$bin" | cut -c1-12)); workloads: $workloads; $rounds round(s), ${duration}s after ${warmup}s warm-up, $(nproc) cores, load average $load_start"
for w in $workloads; do "workload_$w"; done

table=$(python3 "$report" table "$results")
{
  echo "## geoserve on PostgreSQL"
  echo
  echo "- geoserve: \`$(basename "$binary")\` ($(sha256sum "$bin" | cut -c1-12)), --database-connections ${db_conns:-default}"
  echo "- machine: $(nproc) cores; load average $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(date -u +%Y-%m-%d)"
  echo "- PostgreSQL $pg_version, read back with SHOW: $pg_settings; data folder on $fs_type"
  echo "- $rounds round(s), ${duration} s per timed run after ${warmup} s warm-up; workloads: $workloads"
  echo
  printf '%s\n' "$table"
} > "$work/table.md"
cat "$work/table.md"
if [ -n "${OUT:-}" ]; then cp "$work/table.md" "$OUT"; log "table written to $OUT"; fi
[ "$failed_checks" = 0 ] || die "$failed_checks check(s) failed, see the notes under the table"
