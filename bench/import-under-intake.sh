#!/usr/bin/env bash
# How long a submission waits while `geoserve import-reports` loads a large file into a
# PostgreSQL store that already holds reports (a later import), for one binary or two side by
# side (rounds alternate between them).
#
#   bench/import-under-intake.sh BINARY [BASE_BINARY]
#
# Per round and binary, on a fresh database of a throw-away PostgreSQL with its durable defaults
# (fsync and synchronous_commit on): `geoserve serve` with the demo campus (data/, whose demo
# reports make the import a later one), POSTERS clients submitting anonymous COVID reports one
# after another (Tests/Operations/load.py: a new connection per request, each with its own
# Idempotency-Key, 30 s client timeout), SETTLE seconds of that load, then `geoserve
# import-reports` of REPORTS rows (bench/make_reports.py), then SETTLE seconds more. Printed per
# round: the import's wall-clock time, the submissions sent while it ran, their longest wait and
# p99, those not answered 201, and whether every report is stored (the file's rows, the demo's
# and every acknowledged submission, by count). Last, a Markdown table of the medians.
#
# Environment: REPORTS (default 1000000), POSTERS (default 4), ROUNDS (default 1), SETTLE
# (default 3). PostgreSQL runs as the postgres account when run as root; everything is stopped
# and removed on exit.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
reports=${REPORTS:-1000000}; posters=${POSTERS:-4}; rounds=${ROUNDS:-1}; settle=${SETTLE:-3}
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
binaries=("$@")
for b in "${binaries[@]}"; do [ -x "$b" ] || { echo "not an executable: $b" >&2; exit 2; }; done
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bindir" ] && [ -x "$bindir/initdb" ] || { echo "PostgreSQL's server programs are missing (apt-get install postgresql)" >&2; exit 1; }
log() { echo "[import-under-intake $(date +%H:%M:%S)] $*" >&2; }

work=$(mktemp -d -t geoserve-import-intake.XXXXXX)
as_owner=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chown postgres "$work"
  as_owner=(runuser -u postgres --)
fi
chmod 755 "$work"
server=""; loader=""
cleanup() {
  local rc=$?
  trap - EXIT
  [ -z "$loader" ] || kill -TERM "$loader" 2>/dev/null || true
  [ -z "$server" ] || kill -KILL "$server" 2>/dev/null || true
  "${as_owner[@]}" "$bindir/pg_ctl" -D "$work/pg" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
export PYTHONDONTWRITEBYTECODE=1
# No bound on pending anonymous reports (older binaries ignore the variable): the load files thousands.
export GEOSERVE_MAX_PENDING_ANONYMOUS=0
free_port() { python3 "$root/Tests/Operations/load.py" free-port; }

pgport=$(free_port)
"${as_owner[@]}" "$bindir/initdb" -D "$work/pg" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$work/initdb.log" 2>&1
"${as_owner[@]}" "$bindir/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
  -o "-p $pgport -k $work -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
psql() { "$bindir/psql" -X -h 127.0.0.1 -p "$pgport" -U postgres -Atq "$@"; }
[ "$(psql -d postgres -c 'SHOW fsync')" = on ] && [ "$(psql -d postgres -c 'SHOW synchronous_commit')" = on ] \
  || { echo "fsync or synchronous_commit is off" >&2; exit 1; }

log "writing $reports report rows"
python3 "$root/bench/make_reports.py" "$reports" "$work/reports.csv"

results=()
for round in $(seq "$rounds"); do
  for i in "${!binaries[@]}"; do
    bin=${binaries[$i]}; db=r${round}b$i
    psql -d postgres -c "CREATE DATABASE $db"
    export GEOSERVE_DATABASE="postgres://postgres@127.0.0.1:$pgport/$db" GEOSERVE_KEYS=$work/$db.keys
    port=$(free_port)
    (cd "$work" && exec "$bin" serve --host 127.0.0.1 --port "$port" --attachments "$work/att-$db" --demo-data "$root/data" \
      --publish-at never --anonymous-per-minute 0 --drain-delay 0 --log-level error) >"$work/serve-$db.log" 2>&1 &
    server=$!
    for _ in $(seq 300); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
    curl -fs "http://127.0.0.1:$port/readyz" >/dev/null || { cat "$work/serve-$db.log" >&2; exit 1; }
    before=$(psql -d "$db" -c "SELECT count(*) FROM reports")
    python3 "$root/Tests/Operations/load.py" run "http://127.0.0.1:$port" "$work/load-$db.jsonl" 0 "$posters" &
    loader=$!
    sleep "$settle"
    began=$(date +%s.%N)
    (cd "$work" && "$bin" import-reports "$work/reports.csv") >"$work/import-$db.log" 2>&1 || { tail -5 "$work/import-$db.log" >&2; exit 1; }
    ended=$(date +%s.%N)
    sleep "$settle"
    kill -TERM "$loader"; wait "$loader" || true; loader=""
    stored=$(psql -d "$db" -c "SELECT count(*) FROM reports")
    kill -TERM "$server"; wait "$server" || true; server=""
    line=$(python3 - "$work/load-$db.jsonl" "$began" "$ended" "$before" "$stored" "$reports" "$i" "$round" <<'PY'
import json, sys
path, began, ended, before, stored, reports, binary, round_ = sys.argv[1:]
began, ended = float(began), float(ended)
entries = [json.loads(l) for l in open(path) if l.strip()]
# Sent while the import ran, or still waiting when it began.
during = [e for e in entries if e["t"] <= ended and e["t"] + e["ms"] / 1000 >= began]
waits = sorted(e["ms"] for e in during)
p99 = waits[min(len(waits) - 1, int(0.99 * len(waits)))] if waits else 0
acked = len({e["key"] for e in entries if e["status"] == 201})
bad = sum(1 for e in during if e["status"] != 201)
complete = int(stored) == int(before) + int(reports) + acked
print(json.dumps({"binary": int(binary), "round": int(round_), "import_s": round(ended - began, 1), "during": len(during),
                  "longest_ms": waits[-1] if waits else 0, "p99_ms": p99, "not_201": bad, "complete": complete}))
PY
)
    echo "$line" >&2
    results+=("$line")
  done
done
printf '%s\n' "${results[@]}" | python3 "$root/bench/import_under_intake_table.py" "${binaries[@]##*/}"
