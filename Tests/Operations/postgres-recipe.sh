#!/usr/bin/env bash
# The PostgreSQL deployment recipe of docs/postgresql.md ("A complete deployment"), followed on a
# throw-away server: the role and database made by the page's own commands, a password the
# server really asks for (scram-sha-256 for the geoserve role over TCP; trust only for the
# superuser on a Unix socket in the temporary folder), the page's environment file and backup
# script, two processes sharing one key file, a dump and a restore drill. The page's blocks are
# read from the page itself and only their paths, port and owners are replaced, so a change to
# the page that breaks the recipe breaks this test. Checks:
#   - the environment file holds no password and no port; the template unit passes
#     systemd-analyze verify (skipped, with a note, without systemd-analyze) and keeps every
#     hardening line of docs/deploy.md's unit;
#   - `migrate` makes the key file once, 0600; two `serve` processes with the same environment
#     answer /readyz 200 and serve the same /collections/halls/items numbers, within the
#     connections the page counts;
#   - without the password file, or with one others may read, a start fails at once with
#     libpq's reason (no hang);
#   - the backup script writes a 0600 dump under a 022 umask, never overwrites one, keeps about
#     two weeks; pg_restore into a scratch database, then `audit verify` and `aggregates check`
#     with the kept key file exit 0 (and refuse a missing key file); the copy serves the same
#     numbers.
# No systemd is needed: the processes run the binary with the environment file sourced
# (`set -a; . FILE; set +a`), as docs/deploy.md's geoserve-admin wrapper does.
#
# Usage: Tests/Operations/postgres-recipe.sh PATH_TO_GEOSERVE_BINARY
# Last line: "postgres-recipe: N passed, M failed"; exits non-zero when any check failed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DOC=$ROOT/docs/postgresql.md
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: $0 PATH_TO_GEOSERVE_BINARY" >&2; exit 2; }
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

SUITE=postgres-recipe
. "$HERE/../lib.sh"
check() {  # NAME WHY_IF_NOT COMMAND...: ok when the command succeeds
  local name=$1 why=$2; shift 2
  if "$@"; then say "ok $name"; else say "FAIL $name: $why"; fi
}

# --- tools -------------------------------------------------------------------------------------
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  # The server programs only: no cluster of the system's own.
  [ -e /etc/postgresql-common/createcluster.conf ] ||
    { as_root mkdir -p /etc/postgresql-common && echo "create_main_cluster = false" | as_root tee /etc/postgresql-common/createcluster.conf >/dev/null; }
  apt_install postgresql || give_up "install postgresql"
fi
command -v curl >/dev/null || apt_install curl || give_up "install curl"
command -v rsync >/dev/null || apt_install rsync || give_up "install rsync"
command -v openssl >/dev/null || apt_install openssl || give_up "install openssl"
# The server's own client programs first: pg_dump must be at least as new as the server.
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
export PATH="$PGBIN:$PATH"

# --- a throw-away cluster ----------------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/postgres-recipe.XXXXXX")
# The places of the recipe, inside the temporary folder.
ETC=$WORK/etc STATE=$WORK/state BACKUPS=$WORK/backups PG=$WORK/pg
mkdir -m 0755 "$ETC" "$WORK/bin" && mkdir -m 0700 "$STATE" "$BACKUPS" "$WORK/home" "$WORK/kept" "$WORK/units" && mkdir "$PG"
AS_PG=()
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root: the cluster belongs to the postgres account, which must
  # reach its folder in here.
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chmod 711 "$WORK"
  chown postgres "$PG"
  AS_PG=(runuser -u postgres --)
fi
declare -A PID=()
cleanup() {
  for pid in ${PID[@]+"${PID[@]}"}; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; done
  "${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$PG/data" -m immediate stop >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# A developer's settings must not leak in: a PGPASSWORD or a ~/.pgpass would let geoserve connect
# without the password file under test.
for name in $(compgen -e | grep -E '^(GEOSERVE_|PG)'); do unset "$name"; done
export HOME=$WORK/home

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
DB_PORT=$(free_port)
"${AS_PG[@]}" "$PGBIN/initdb" -D "$PG/data" -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 >"$WORK/initdb.log" 2>&1 ||
  { cat "$WORK/initdb.log"; give_up "initdb"; }
# The superuser without a password, on the socket in here only; geoserve with one, over TCP, as
# Debian's cluster asks of every TCP connection. Nobody else gets in.
cat >"$WORK/pg_hba.conf" <<'EOF'
local all postgres                 trust
host  all geoserve 127.0.0.1/32 scram-sha-256
EOF
"${AS_PG[@]}" cp "$WORK/pg_hba.conf" "$PG/data/pg_hba.conf"
# fsync off: nothing here outlives the run. max_connections is the default the page counts with.
"${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$PG/data" -l "$PG/server.log" -w -o "-p $DB_PORT -k $PG -c listen_addresses=127.0.0.1 -c fsync=off \
  -c max_connections=100 -c password_encryption=scram-sha-256" start >/dev/null || { cat "$PG/server.log"; give_up "start PostgreSQL"; }
# The superuser's commands, by their full path (runuser may reset PATH), on the socket in here.
PGSUPER="PGHOST=$PG PGPORT=$DB_PORT PGUSER=postgres"
superuser() { env $PGSUPER "${AS_PG[@]}" "$(command -v "$1")" "${@:2}"; }

# --- the page's blocks, in here ----------------------------------------------------------------
block() {  # FILE LINE: the fenced code block of FILE holding a line that starts with LINE
  awk -v want="$2" '
    /^```/ { if (inside) { if (found) { printf "%s", text; exit } inside = 0 } else { inside = 1; text = ""; found = 0 } next }
    inside { text = text $0 "\n"; if (index($0, want) == 1) found = 1 }
  ' "$1"
}
OWNER=$(id -un) GROUP=$(id -gn)
localize() {  # the recipe's places, port, users and binary replaced by this run's
  # The service's user is whoever runs this; the superuser's commands find the server in here.
  sed -e "s|/etc/geoserve|$ETC|g" -e "s|/var/lib/geoserve|$STATE|g" -e "s|/var/backups/geoserve|$BACKUPS|g" \
    -e "s|/usr/local/bin/geoserve|$BIN|g" -e "s|127\.0\.0\.1:5432|127.0.0.1:$DB_PORT|g" \
    -e "s|/tmp/drill|$WORK/drill|g" -e "s|/path/to/kept/|$WORK/kept/|g" \
    -e "s|runuser -u postgres -- |env $PGSUPER ${AS_PG[*]}${AS_PG[*]:+ }|g" -e "s|runuser -u geoserve -- ||g" \
    -e "s|-o geoserve -g geoserve|-o $OWNER -g $GROUP|g" -e "s|^User=geoserve|User=$OWNER|" -e "s|^Group=geoserve|Group=$GROUP|"
}
run_block() {  # NAME FILE: the block run as the operator's shell would, with geoserve-admin at hand
  PATH="$WORK/bin:$PATH" sh -e -x "$2" >"$WORK/$1.log" 2>&1
}
ROLE_BLOCK=$(block "$DOC" 'pw=$(openssl rand') ENV_BLOCK=$(block "$DOC" '# /etc/geoserve/geoserve.env')
KEY_BLOCK=$(block "$DOC" 'geoserve-admin migrate') DRILL_BLOCK=$(block "$DOC" 'dump=$(ls -t')
ADMIN_BLOCK=$(block "$ROOT/docs/deploy.md" '# /usr/local/sbin/geoserve-admin')
UNIT_BLOCK=$(block "$DOC" '# /etc/systemd/system/geoserve@.service')
BACKUP_BLOCK=$(block "$DOC" '# /usr/local/sbin/geoserve-backup') BACKUP_UNIT=$(block "$DOC" '# /etc/systemd/system/geoserve-backup.service')
TIMER_BLOCK=$(block "$ROOT/docs/backup.md" '# /etc/systemd/system/geoserve-backup.timer')
DEPLOY_UNIT=$(block "$ROOT/docs/deploy.md" '# /etc/systemd/system/geoserve.service')
for name in ROLE_BLOCK ENV_BLOCK KEY_BLOCK DRILL_BLOCK ADMIN_BLOCK UNIT_BLOCK BACKUP_BLOCK BACKUP_UNIT TIMER_BLOCK DEPLOY_UNIT; do
  [ -n "${!name}" ] || give_up "the docs hold the block $name"
done

# --- the role, the database, the password file -------------------------------------------------
# docs/deploy.md's wrapper: every command with the service's settings, from its state folder.
localize <<<"$ADMIN_BLOCK" >"$WORK/bin/geoserve-admin" && chmod 755 "$WORK/bin/geoserve-admin"
localize <<<"$ROLE_BLOCK" >"$WORK/role.sh"
run_block role "$WORK/role.sh" || { tail -20 "$WORK/role.log"; give_up "the page's role and database commands"; }
role=$(superuser psql -Atc "SELECT rolcanlogin, rolsuper, rolcreatedb FROM pg_roles WHERE rolname = 'geoserve'")
check "role: a login role without superuser or createdb" "login|superuser|createdb: $role" test "$role" = "t|f|f"
owner=$(superuser psql -Atc "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'geoserve'")
check "role: the database belongs to geoserve" "owner: $owner" test "$owner" = geoserve
hash=$(superuser psql -Atc "SELECT left(rolpassword, 14) FROM pg_authid WHERE rolname = 'geoserve'")
check "role: the server keeps a SCRAM hash" "it keeps $hash…" test "$hash" = "SCRAM-SHA-256\$"
check "password file: mode 0600" "mode $(stat -c %a "$ETC/pgpass" 2>&1)" test "$(stat -c %a "$ETC/pgpass" 2>&1)" = 600
check "password file: one line for the role, any database" "$(sed 's/:[^:]*$/:…/' "$ETC/pgpass")" \
  grep -qE "^127\.0\.0\.1:$DB_PORT:\*:geoserve:[0-9a-f]{48}\$" "$ETC/pgpass"

# --- the environment file ------------------------------------------------------------------------
ENVFILE=$ETC/geoserve.env
localize <<<"$ENV_BLOCK" >"$ENVFILE"
chmod 0640 "$ENVFILE"
check "environment file: names no port (systemd lets the file win over the unit's GEOSERVE_PORT)" "it sets GEOSERVE_PORT" \
  bash -c "! grep -q '^GEOSERVE_PORT=' '$ENVFILE'"
check "environment file: the URI holds no password" "$(grep '^GEOSERVE_DATABASE=' "$ENVFILE")" \
  bash -c "grep -qE '^GEOSERVE_DATABASE=\"?postgres://geoserve@' '$ENVFILE' && ! grep -qE '^GEOSERVE_DATABASE=\"?postgres://[^@/]*:[^@/]*@' '$ENVFILE'"
check "environment file: PGPASSFILE and GEOSERVE_KEYS" "missing" \
  bash -c "grep -q '^PGPASSFILE=$ETC/pgpass\$' '$ENVFILE' && grep -q '^GEOSERVE_KEYS=' '$ENVFILE'"
# What every process and command of the installation runs with, as systemd and geoserve-admin give it.
with_env() { (cd "$STATE" && set -a && . "$ENVFILE" && set +a && exec "$@"); }
CONNECTIONS=$(with_env sh -c 'echo "$GEOSERVE_DATABASE_CONNECTIONS"')
KEYS=$(with_env sh -c 'echo "$GEOSERVE_KEYS"')

# --- the units ---------------------------------------------------------------------------------
localize <<<"$UNIT_BLOCK" >"$WORK/units/geoserve@.service"
localize <<<"$BACKUP_UNIT" >"$WORK/units/geoserve-backup.service"
localize <<<"$TIMER_BLOCK" >"$WORK/units/geoserve-backup.timer"
if command -v systemd-analyze >/dev/null; then
  # verify exits 0 on unknown keys and bad values; anything it prints is a finding.
  printf '#!/bin/sh\n' >"$WORK/geoserve-backup" && chmod 755 "$WORK/geoserve-backup"
  sed -i "s|^ExecStart=/usr/local/sbin/geoserve-backup|ExecStart=$WORK/geoserve-backup|" "$WORK/units/geoserve-backup.service"
  for unit in geoserve@8081.service geoserve-backup.service geoserve-backup.timer; do
    out=$(cd "$WORK/units" && systemd-analyze verify "$WORK/units/$unit" 2>&1); status=$?
    check "systemd-analyze verify $unit" "exit $status: $(echo "$out" | head -3)" test "$status" -eq 0 -a -z "$out"
  done
else
  echo "note: systemd-analyze is not installed; the units' syntax is not checked"
fi
missing=$(grep -E '^[A-Za-z]+=' <<<"$DEPLOY_UNIT" | grep -vE '^(Description|After|RestartSec)=' | while IFS= read -r line; do
  grep -qxF "$line" <<<"$UNIT_BLOCK" || echo "$line"; done)
check "template unit: keeps every other line of docs/deploy.md's unit" "missing: $(echo $missing)" test -z "$missing"
check "template unit: GEOSERVE_PORT from the instance" "no Environment=GEOSERVE_PORT=%i" grep -qx 'Environment=GEOSERVE_PORT=%i' <<<"$UNIT_BLOCK"

# --- the key file, once ------------------------------------------------------------------------
localize <<<"$KEY_BLOCK" >"$WORK/key.sh"
run_block key "$WORK/key.sh"; status=$?
check "geoserve-admin migrate with the password file" "exit $status: $(tail -3 "$WORK/key.log")" test "$status" -eq 0
check "key file: made by migrate, mode 0600" "$(ls -l "$KEYS" 2>&1)" test "$(stat -c %a "$KEYS" 2>&1)" = 600
# The copy kept off the machine, which the drill tests.
cp -p "$KEYS" "$WORK/kept/geoserve.keys" 2>/dev/null
geoserve_admin() { PATH="$WORK/bin:$PATH" geoserve-admin "$@"; }

# --- two processes, one environment -------------------------------------------------------------
PORT_A=$(free_port) PORT_B=$(free_port) PORT_C=$(free_port) PORT_D=$(free_port)
start_geoserve() {  # NAME PORT [FLAGS…]: in the background, as the template unit's instance PORT
  local name=$1 port=$2; shift 2
  (cd "$STATE" && set -a && . "$ENVFILE" && set +a && GEOSERVE_PORT=$port exec "$BIN" serve --drain-delay 0 "$@") >>"$WORK/$name.log" 2>&1 &
  PID[$name]=$!
}
ready() {  # NAME PORT: /readyz answers 200 within 60 s, while the process lives
  local code
  for _ in $(seq 240); do
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$2/readyz")
    [ "$code" = 200 ] && { say "ok $1: /readyz 200 on port $2"; return 0; }
    kill -0 "${PID[$1]}" 2>/dev/null || break
    sleep 0.25
  done
  say "FAIL $1: /readyz $code on port $2"; tail -5 "$WORK/$1.log"; return 1
}
numbers() {  # PORT: the halls' properties, sorted, one JSON line
  curl -fsS "http://127.0.0.1:$1/collections/halls/items?limit=5" |
    python3 -c 'import json, sys; f = [x["properties"] for x in json.load(sys.stdin)["features"]]; print(len(f), sum(x.get("verified_all", 0) for x in f), json.dumps(f, sort_keys=True))'
}
started=$(date +%s)
# The first imports the demo campus and its synthetic reports; the second finds them.
start_geoserve A "$PORT_A" --demo-data "$ROOT/data" --demo-reports
ready A "$PORT_A" || give_up "start A"
start_geoserve B "$PORT_B"
ready B "$PORT_B" || give_up "start B"
a=$(numbers "$PORT_A") b=$(numbers "$PORT_B")
check "both serve the same /collections/halls/items?limit=5" "A: ${a:0:200} B: ${b:0:200}" test -n "$a" -a "$a" = "$b"
verified=$(cut -d' ' -f2 <<<"$a")
check "the first 5 halls hold ${verified:-no} verified reports (the demo's)" "$a" test "${a%% *}" -eq 5 -a "${verified:-0}" -gt 0
in_use=$(superuser psql -Atc "SELECT count(*) FROM pg_stat_activity WHERE usename = 'geoserve'")
limit=$((2 * (CONNECTIONS + 1)))
check "connections: $in_use open, at most 2 × ($CONNECTIONS + 1) = $limit" "$in_use open" test "$in_use" -gt 0 -a "$in_use" -le "$limit"

# --- without the password file -------------------------------------------------------------------
fails_at_once() {  # NAME EXPECTED_TEXT PGPASSFILE: a start fails within 15 s saying EXPECTED_TEXT
  local name=$1 text=$2 file=$3 began status out
  began=$(date +%s)
  out=$(cd "$STATE" && set -a && . "$ENVFILE" && set +a && PGPASSFILE=$file GEOSERVE_PORT=$PORT_C timeout 30 "$BIN" serve --drain-delay 0 2>&1)
  status=$? took=$(($(date +%s) - began))
  if [ "$status" -ne 0 ] && [ "$status" -ne 124 ] && [ "$took" -le 15 ] && grep -q "$text" <<<"$out"; then
    say "ok $name: exit $status after ${took} s, \"$(grep -o "$text.*" <<<"$out" | head -1 | cut -c1-80)\""
  else
    say "FAIL $name: exit $status after ${took} s: $(tail -2 <<<"$out")"
  fi
}
fails_at_once "a start without the password file fails at once" "no password supplied" "$WORK/none"
install -m 0640 "$ETC/pgpass" "$WORK/pgpass-0640"
fails_at_once "a password file others may read is ignored" "group or world access" "$WORK/pgpass-0640"

# --- the backup script -------------------------------------------------------------------------
localize <<<"$BACKUP_BLOCK" >"$WORK/geoserve-backup"
chmod 755 "$WORK/geoserve-backup"
# Two weeks kept: one dump beyond them and one within.
touch -d '20 days ago' "$BACKUPS/geoserve-2000-01-01.dump"
touch -d '10 days ago' "$BACKUPS/geoserve-2000-01-02.dump"
# A lax umask outside: the script's own must make the dump private.
out=$(umask 022 && with_env "$WORK/geoserve-backup" 2>&1); status=$?
dump=$BACKUPS/geoserve-$(date +%F).dump
check "backup script: exit 0" "exit $status: $out" test "$status" -eq 0
check "backup script: the dump is 0600 under umask 022" "$(ls -l "$dump" 2>&1)" test "$(stat -c %a "$dump" 2>&1)" = 600
check "backup script: a custom-format dump" "pg_restore --list fails" bash -c "pg_restore --list '$dump' | grep -q 'TABLE DATA'"
check "backup script: attachments copied beside it" "no $BACKUPS/attachments" test -d "$BACKUPS/attachments"
check "backup script: a dump of 20 days ago deleted, one of 10 kept" "$(ls "$BACKUPS")" \
  test ! -e "$BACKUPS/geoserve-2000-01-01.dump" -a -e "$BACKUPS/geoserve-2000-01-02.dump"
sum=$(sha256sum "$dump")
out=$(with_env "$WORK/geoserve-backup" 2>&1); status=$?
check "backup script: a second run the same day refuses, the dump unchanged" "exit $status: $out" \
  test "$status" -ne 0 -a "$(sha256sum "$dump")" = "$sum"

# --- the restore drill -------------------------------------------------------------------------
# The page's drill but its last line, which drops the copy: it is served first.
localize <<<"$DRILL_BLOCK" >"$WORK/drill.sh"
drop=$(tail -1 "$WORK/drill.sh")
sed -i '$d' "$WORK/drill.sh"
run_block drill "$WORK/drill.sh"; status=$?
check "drill: createdb, pg_restore as geoserve, check schema, audit verify and aggregates check exit 0" "exit $status: $(tail -4 "$WORK/drill.log")" test "$status" -eq 0
check "drill: audit trail intact" "$(grep -v '^+' "$WORK/drill.log" | head -3)" grep -q '^audit trail intact' "$WORK/drill.log"
check "drill: the restored schema is as the migrations make it (check schema)" "$(grep -v '^+' "$WORK/drill.log" | head -3)" \
  grep -q '^schema: as the migrations make it' "$WORK/drill.log"
DRILL=postgres://geoserve@127.0.0.1:$DB_PORT/geoserve_drill
out=$(geoserve_admin audit verify --database "$DRILL" --keys "$WORK/kept/other.keys" 2>&1); status=$?
check "drill: audit verify refuses a missing key file" "exit $status: $out" test "$status" -eq 1
# Served, the copy shows what the live service showed.
start_geoserve D "$PORT_D" --database "$DRILL" --keys "$WORK/drill/geoserve.keys" --publish-at never --index-cache none
if ready D "$PORT_D"; then
  d=$(numbers "$PORT_D")
  check "drill: the copy serves the same halls numbers" "live: ${a:0:200} copy: ${d:0:200}" test -n "$d" -a "$d" = "$a"
fi
kill "${PID[D]}" && wait "${PID[D]}" 2>/dev/null; unset 'PID[D]'
echo "$drop" >"$WORK/drop.sh"
run_block drop "$WORK/drop.sh"; status=$?
check "drill: the copy dropped" "exit $status: $(tail -2 "$WORK/drop.log")" \
  test "$status" -eq 0 -a -z "$(superuser psql -Atc "SELECT 1 FROM pg_database WHERE datname = 'geoserve_drill'")" -a ! -e "$WORK/drill"
echo "== $(($(date +%s) - started)) s with geoserve running"
finish
