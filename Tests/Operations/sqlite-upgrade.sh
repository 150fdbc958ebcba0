#!/usr/bin/env bash
# The SQLite upgrade and rollback of docs/upgrades.md ("One machine, SQLite" and "Rollback"),
# followed for real on an installation laid out as docs/deploy.md's: its environment file and
# its geoserve-admin wrapper, the binary installed with `install`, a status-notification
# receiver on loopback. The page's two blocks are read from the page itself and only their
# paths, port, owners, the backup's dated name and systemctl are replaced, so a change to the
# page that breaks the procedure breaks this test. The same binary plays the old and the new
# release: what is tested is the procedure, above all that a rollback brings production back as
# production (`restore --as-production`) and not as a drill copy that silently sends no
# notifications and publishes nothing. Checks:
#   - before: reports submitted, one verified by an admin made with `user create`, and that
#     verification delivered, signed, to the receiver;
#   - the upgrade block exits 0: a 0600 backup under the backups folder, a new process answering
#     /readyz;
#   - a report submitted after the backup; then the rollback block exits 0: the old binary
#     installed, the newer store's files moved into a 0700 newer-schema folder;
#   - after the rollback: /readyz 200 without drillCopy, geoserve_drill_copy 0,
#     /v1/publications with a next publication and no pause; the reports from before the backup
#     there with their status, the one from after it gone (and still in the kept newer store, as
#     the page says); a report verified now is delivered to the receiver with a signature that
#     verifies; `aggregates check` and `audit verify` exit 0;
#   - the same backup restored without --as-production elsewhere serves as a drill copy:
#     drillCopy in /readyz, geoserve_drill_copy 1, publications paused. The flag is what matters.
# The time each `systemctl stop` waited for the process to exit (the outage of an upgrade on
# SQLite) is printed, not checked.
# No systemd is needed: `systemctl start|stop|restart geoserve` become a small script that runs
# the installed binary in the background with the environment file sourced
# (`set -a; . FILE; set +a`), from the state folder, and stops it with SIGTERM, waiting for it
# to exit as systemctl does.
#
# Usage: Tests/Operations/sqlite-upgrade.sh PATH_TO_GEOSERVE_BINARY
# Last line: "sqlite-upgrade: N passed, M failed"; exits non-zero when any check failed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DOC=$ROOT/docs/upgrades.md
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: $0 PATH_TO_GEOSERVE_BINARY" >&2; exit 2; }
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

SUITE=sqlite-upgrade
. "$HERE/../lib.sh"
check() {  # NAME WHY_IF_NOT COMMAND...: ok when the command succeeds
  local name=$1 why=$2; shift 2
  if "$@"; then say "ok $name"; else say "FAIL $name: $why"; fi
}

command -v curl >/dev/null || apt_install curl || give_up "install curl"
command -v python3 >/dev/null || apt_install python3 || give_up "install python3"
command -v openssl >/dev/null || apt_install openssl || give_up "install openssl"

# --- the installation's places, in a temporary folder -----------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sqlite-upgrade.XXXXXX")
ETC=$WORK/etc STATE=$WORK/state BACKUPS=$WORK/backups
mkdir -m 0755 "$ETC" "$WORK/bin" && mkdir -m 0700 "$STATE" "$BACKUPS" "$WORK/drill" "$WORK/home"
INSTALLED=$WORK/bin/geoserve   # /usr/local/bin/geoserve
# The releases the blocks install, in the folder they run from: both this binary.
ln -s "$BIN" "$WORK/geoserve-new" && ln -s "$BIN" "$WORK/geoserve-old"
alive() {  # PID: the process runs (an orphan no one has reaped yet is a zombie: not running)
  local stat
  stat=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null) && [ "${stat%% *}" != Z ]
}
cleanup() {  # every process this run started: asked to stop, given 30 s together, then killed
  local pids pid running
  pids=$(cat "$WORK/service.pid" 2>/dev/null; echo ${DRILL_PID:-} ${HOOK_PID:-})
  for pid in $pids; do kill "$pid" 2>/dev/null; done
  for _ in $(seq 300); do
    running=0
    for pid in $pids; do alive "$pid" && running=1; done
    [ "$running" = 0 ] && break
    sleep 0.1
  done
  for pid in $pids; do alive "$pid" && kill -9 "$pid" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# A developer's settings must not leak in.
for name in $(compgen -e | grep -E '^GEOSERVE_'); do unset "$name"; done
export HOME=$WORK/home PYTHONDONTWRITEBYTECODE=1

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PORT=$(free_port) DRILL_PORT=$(free_port)
URL=http://127.0.0.1:$PORT DRILL_URL=http://127.0.0.1:$DRILL_PORT

# --- the receiver of status notifications ------------------------------------------------------
# Answers 204 and appends one JSON line per POST: the event id, the signature header, the body.
# It binds a port of its own choosing and says which in a file, so no other program can take it
# in between.
cat >"$WORK/receiver.py" <<'EOF'
import http.server, json, os, sys
log, port_file = sys.argv[1], sys.argv[2]
class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while (size := int(self.rfile.readline().split(b";")[0], 16)):
                body += self.rfile.read(size); self.rfile.readline()
            while self.rfile.readline() not in (b"\r\n", b"\n", b""): pass
        else:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        line = {"event": self.headers.get("X-Geoserve-Event"), "signature": self.headers.get("X-Geoserve-Signature"),
                "path": self.path, "body": body.decode()}
        with open(log, "a") as f:
            f.write(json.dumps(line) + "\n")
        self.send_response(204); self.end_headers()
    def log_message(self, *args): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
EOF
HOOKS=$WORK/deliveries.jsonl
touch "$HOOKS"
python3 "$WORK/receiver.py" "$HOOKS" "$WORK/receiver.port" 2>"$WORK/receiver.log" &
HOOK_PID=$!
for _ in $(seq 200); do [ -s "$WORK/receiver.port" ] && break; alive "$HOOK_PID" || break; sleep 0.05; done
[ -s "$WORK/receiver.port" ] || { cat "$WORK/receiver.log"; give_up "start the notification receiver"; }
HOOK_URL=http://127.0.0.1:$(cat "$WORK/receiver.port")/hook

# --- the pages' blocks, in here ----------------------------------------------------------------
section() {  # FILE TITLE: the lines of FILE's "## TITLE" section
  awk -v want="## $2" '/^## / { inside = ($0 == want) } inside' "$1"
}
block() {  # LINE: the fenced code block of standard input holding a line that starts with LINE
  awk -v want="$1" '
    /^```/ { if (inside) { if (found) { printf "%s", text; exit } inside = 0 } else { inside = 1; text = ""; found = 0 } next }
    inside { text = text $0 "\n"; if (index($0, want) == 1) found = 1 }
  '
}
UPGRADE_BLOCK=$(section "$DOC" "One machine, SQLite" | block 'geoserve-admin backup')
ROLLBACK_BLOCK=$(section "$DOC" "Rollback" | block 'geoserve-admin restore')
ENV_BLOCK=$(block '# /etc/geoserve/geoserve.env' <"$ROOT/docs/deploy.md")
ADMIN_BLOCK=$(block '# /usr/local/sbin/geoserve-admin' <"$ROOT/docs/deploy.md")
for name in UPGRADE_BLOCK ROLLBACK_BLOCK ENV_BLOCK ADMIN_BLOCK; do
  [ -n "${!name}" ] || give_up "the docs hold the block $name"
done
OWNER=$(id -un) GROUP=$(id -gn)
localize() {  # the installation's places, port, owner and service manager replaced by this run's
  sed -e "s|/etc/geoserve|$ETC|g" -e "s|/var/lib/geoserve|$STATE|g" -e "s|/var/backups/geoserve|$BACKUPS|g" \
    -e "s|/usr/local/bin/geoserve|$INSTALLED|g" -e "s|127\.0\.0\.1:8080|127.0.0.1:$PORT|g" -e "s|^GEOSERVE_PORT=8080\$|GEOSERVE_PORT=$PORT|" \
    -e "s#systemctl \(start\|stop\|restart\) geoserve#$WORK/systemctl \1#g" \
    -e "s|runuser -u geoserve -- ||g" -e "s|geoserve:geoserve|$OWNER:$GROUP|g"
}
run_block() {  # NAME FILE: the block run as the operator's shell would, from the folder holding
  # geoserve-new and geoserve-old, with geoserve-admin at hand
  (cd "$WORK" && PATH="$WORK/bin:$PATH" sh -e -x "$2") >"$WORK/$1.log" 2>&1
}

# The environment file of docs/deploy.md, then what this installation adds: the demo campus,
# the receiver on loopback with a secret from a file, no drain delay (nothing balances here).
ENVFILE=$ETC/geoserve.env
openssl rand -hex 32 >"$ETC/webhook.secret" && chmod 0600 "$ETC/webhook.secret"
{ localize <<<"$ENV_BLOCK"
  echo "GEOSERVE_DEMO_DATA=$ROOT/data"
  echo "GEOSERVE_WEBHOOKS=$HOOK_URL"
  echo "GEOSERVE_WEBHOOK_SECRET_FILE=$ETC/webhook.secret"
  echo "GEOSERVE_WEBHOOK_ALLOW_LOCAL=1"
  echo "GEOSERVE_DRAIN_DELAY=0"
} >"$ENVFILE"
chmod 0640 "$ENVFILE"
localize <<<"$ADMIN_BLOCK" >"$WORK/bin/geoserve-admin" && chmod 755 "$WORK/bin/geoserve-admin"
admin() { PATH="$WORK/bin:$PATH" geoserve-admin "$@"; }
ZONE=$(set -a && . "$ENVFILE" && echo "${GEOSERVE_TIME_ZONE:-UTC}")

# systemctl's part: one geoserve process, the unit's settings (state folder, environment file),
# stopped with SIGTERM and waited for up to TimeoutStopSec (30 s), then killed (a failure).
cat >"$WORK/systemctl" <<EOF
#!/usr/bin/env bash
set -u
pidfile=$WORK/service.pid
alive() { local stat; stat=\$(sed 's/^.*) //' "/proc/\$1/stat" 2>/dev/null) && [ "\${stat%% *}" != Z ]; }
stop() {
  [ -s "\$pidfile" ] || return 0
  local pid began=\$(date +%s%N); pid=\$(cat "\$pidfile")
  kill -TERM "\$pid" 2>/dev/null
  for _ in \$(seq 300); do
    alive "\$pid" || { echo \$(((\$(date +%s%N) - began) / 1000000)) >>"$WORK/stops"; rm -f "\$pidfile"; return 0; }
    sleep 0.1
  done
  kill -KILL "\$pid"; rm -f "\$pidfile"
  echo "geoserve did not stop within 30 s: killed" >&2; return 1
}
start() {
  [ -s "\$pidfile" ] && alive "\$(cat "\$pidfile")" && return 0
  (cd "$STATE" && set -a && . "$ENVFILE" && set +a && exec "$INSTALLED" serve) >>"$WORK/service.log" 2>&1 </dev/null &
  echo \$! >"\$pidfile"
}
case "\$1" in
  start) start ;;
  stop) stop ;;
  restart) stop && start ;;
  *) echo "usage: systemctl start|stop|restart" >&2; exit 2 ;;
esac
EOF
chmod 755 "$WORK/systemctl"

# --- HTTP helpers ------------------------------------------------------------------------------
ready() {  # NAME URL PID LOG: /readyz answers 200 within 60 s, while the process lives
  local code
  for _ in $(seq 240); do
    code=$(curl -s -o /dev/null -w '%{http_code}' "$2/readyz")
    [ "$code" = 200 ] && { say "ok $1: /readyz 200"; return 0; }
    alive "$3" || break
    sleep 0.25
  done
  say "FAIL $1: /readyz $code"; tail -5 "$4"; return 1
}
json() {  # EXPRESSION: evaluated in python on the JSON of standard input, bound to j
  python3 -c 'import json, sys; j = json.load(sys.stdin); r = eval(sys.argv[1]); print(r if r is not None else "")' "$1"
}
login() {
  curl -fsS -H 'Content-Type: application/json' -d '{"email":"admin@campus.example","password":"upgrade-test-passphrase"}' \
    "$URL/v1/auth/login" | json 'j["token"]'
}
submit() {  # HALL NOTE: an anonymous COVID self-report of yesterday (the campus's day); echoes its id
  local day
  day=$(TZ=$ZONE date -d '1 day ago' +%F)
  curl -fsS -H 'Content-Type: application/json' "$URL/v1/reports" -d '{"kind":"covid","affiliation":"student",
    "phone":"+1 336 555 0142","testDate":"'"$day"'","lastOnCampus":"'"$day"'","area":{"layer":"halls","id":"'"$1"'"},"notes":"'"$2"'"}' |
    json 'j["id"]'
}
verify() {  # ID: verified by the admin; echoes the new status
  curl -fsS -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"transition":"verify"}' \
    "$URL/v1/reports/$1/transitions" | json 'j.get("status") or j.get("report", {}).get("status")'
}
status_of() {  # ID: the report's status as the admin reads it, or the HTTP status when not 200
  local out code
  out=$(curl -sS -w '\n%{http_code}' -H "Authorization: Bearer $TOKEN" "$URL/v1/reports/$1")
  code=${out##*$'\n'}
  if [ "$code" = 200 ]; then json 'j["status"]' <<<"${out%$'\n'*}"; else echo "HTTP $code"; fi
}
delivered() {  # ID STATUS: the receiver got that status of that report within 60 s, signed with its secret
  local deadline=$((SECONDS + 60)) secret
  secret=$(admin webhooks secrets | awk -F'\t' -v url="$HOOK_URL" '$1 == url { print $2 }')
  while [ $SECONDS -lt $deadline ]; do
    python3 - "$HOOKS" "$1" "$2" "$secret" <<'EOF' && return 0
import hashlib, hmac, json, sys
log, report, status, secret = sys.argv[1:]
for line in open(log):
    d = json.loads(line); body = json.loads(d["body"])
    if body.get("type") == "report.status_changed" and body["report"]["id"] == report and body["report"]["status"] == status:
        parts = dict(p.split("=", 1) for p in (d["signature"] or "").split(","))
        mac = hmac.new(secret.encode(), f"{parts.get('t')}.".encode() + d["body"].encode(), hashlib.sha256).hexdigest()
        sys.exit(0 if d["event"] and hmac.compare_digest(mac, parts.get("v1", "")) else 3)
sys.exit(1)
EOF
    [ $? -eq 3 ] && { echo "a delivery for $1 whose signature does not verify" >&2; return 1; }
    sleep 0.5
  done
  return 1
}
metric() {  # URL NAME: the value of a metric without labels, as a number
  curl -fsS "$1/metrics" | awk -v name="$2" '$1 == name { print $2 + 0 }'
}

started=$SECONDS
# --- before: the installation, an admin, reports, a verification delivered ---------------------
install -m 0755 "$WORK/geoserve-old" "$INSTALLED"
"$WORK/systemctl" start
ready "before: the installation started" "$URL" "$(cat "$WORK/service.pid")" "$WORK/service.log" || give_up "start geoserve"
out=$(echo 'upgrade-test-passphrase' | admin user create --role admin --email admin@campus.example 2>&1)
check "before: user create makes the admin" "$out" grep -q '^created admin' <<<"$out"
TOKEN=$(login)
[ -n "$TOKEN" ] || give_up "log in as the admin"
A=$(submit H07 "before the backup, verified") B=$(submit H03 "before the backup") C=$(submit H12 "before the backup")
[ -n "$A" ] && [ -n "$B" ] && [ -n "$C" ] || give_up "submit reports"
s=$(verify "$A")
check "before: the admin verifies a report" "status $s" test "$s" = verified
check "before: the verification is delivered to the receiver, signed" "nothing within 60 s: $(tail -2 "$HOOKS")" delivered "$A" verified

# --- the upgrade -------------------------------------------------------------------------------
OLD_PID=$(cat "$WORK/service.pid")
localize <<<"$UPGRADE_BLOCK" >"$WORK/upgrade.sh"
run_block upgrade "$WORK/upgrade.sh"; status=$?
check "upgrade: the page's block exits 0 (backup, install, restart, /readyz)" "exit $status: $(tail -4 "$WORK/upgrade.log")" test "$status" -eq 0
backups=("$BACKUPS"/pre-upgrade-*.sqlite)
BACKUP=${backups[0]}
check "upgrade: one backup, readable by its owner alone" "$(ls -l "$BACKUPS")" \
  test "${#backups[@]}" -eq 1 -a -f "$BACKUP" -a "$(stat -c %a "$BACKUP" 2>&1)" = 600
NEW_PID=$(cat "$WORK/service.pid" 2>/dev/null)
restarted() { [ -n "$NEW_PID" ] && [ "$NEW_PID" != "$OLD_PID" ] && ! alive "$OLD_PID" && alive "$NEW_PID"; }
check "upgrade: a new process serves" "pid $OLD_PID before, ${NEW_PID:-none} after" restarted
check "upgrade: the new binary installed" "$(ls -l "$INSTALLED")" cmp -s "$WORK/geoserve-new" "$INSTALLED"
D=$(submit H07 "after the backup")
check "after the upgrade: a report submitted" "no id" test -n "$D"

# --- the rollback ------------------------------------------------------------------------------
# The backup the upgrade made, in place of the page's example name.
localize <<<"$ROLLBACK_BLOCK" | sed "s|$BACKUPS/pre-upgrade-[0-9-]*\.sqlite|$BACKUP|g" >"$WORK/rollback.sh"
check "rollback: the block names the backup this run made" "$(grep restore "$WORK/rollback.sh")" grep -qF "$BACKUP" "$WORK/rollback.sh"
run_block rollback "$WORK/rollback.sh"; status=$?
check "rollback: the page's block exits 0 (stop, install, move aside, restore --as-production, start, /readyz)" \
  "exit $status: $(tail -4 "$WORK/rollback.log")" test "$status" -eq 0
check "rollback: the old binary installed" "$(ls -l "$INSTALLED")" cmp -s "$WORK/geoserve-old" "$INSTALLED"
check "rollback: the newer store moved into newer-schema, mode 0700" "$(ls -la "$STATE/newer-schema" 2>&1 | tail -n +2)" \
  test -f "$STATE/newer-schema/geoserve.sqlite" -a "$(stat -c %a "$STATE/newer-schema" 2>&1)" = 700
check "rollback: a restored store in its place" "$(ls "$STATE")" test -f "$STATE/geoserve.sqlite"
PID=$(cat "$WORK/service.pid" 2>/dev/null)
[ -n "$PID" ] && alive "$PID" || give_up "rollback: geoserve runs"

# --- after the rollback: production, not a drill copy ------------------------------------------
body=$(curl -sS -o "$WORK/readyz.json" -w '%{http_code}' "$URL/readyz")
check "after the rollback: /readyz 200 without drillCopy" "$body $(cat "$WORK/readyz.json")" \
  bash -c "[ '$body' = 200 ] && ! grep -q drillCopy '$WORK/readyz.json'"
gauge=$(metric "$URL" geoserve_drill_copy)
check "after the rollback: geoserve_drill_copy 0" "it is ${gauge:-missing}" test "$gauge" = 0
schedule=$(curl -fsS "$URL/v1/publications" | json 'json.dumps(j["schedule"])')
check "after the rollback: a next publication on the schedule, no pause" "schedule $schedule" \
  test "$(json 'bool(j.get("next")) and "paused" not in j' <<<"$schedule")" = True
TOKEN=$(login)
check "after the rollback: the admin from before the backup logs in" "no token" test -n "$TOKEN"
sa=$(status_of "$A") sb=$(status_of "$B") sc=$(status_of "$C") sd=$(status_of "$D")
check "after the rollback: the reports from before the backup are there, with their status" "$sa, $sb, $sc" \
  test "$sa $sb $sc" = "verified pending pending"
check "after the rollback: the report submitted after the backup is gone" "it is $sd" test "$sd" = "HTTP 404"
E=$(submit H03 "after the rollback")
s=$(verify "$E")
check "after the rollback: a report submitted and verified" "status $s" test "$s" = verified
check "after the rollback: its verification is delivered to the receiver, signed" \
  "nothing within 60 s; $(grep -c . "$HOOKS") deliveries; $(admin webhooks failing 2>&1 | tail -2)" delivered "$E" verified
out=$(admin aggregates check 2>&1); status=$?
check "after the rollback: aggregates check exits 0" "exit $status: $(tail -3 <<<"$out")" test "$status" -eq 0
out=$(admin audit verify 2>&1); status=$?
check "after the rollback: audit verify exits 0" "exit $status: $(tail -3 <<<"$out")" test "$status" -eq 0
# The page: the lost reports can be exported from the kept newer store with the new binary.
out=$(admin export reports --database "$STATE/newer-schema/geoserve.sqlite" --keys "$STATE/geoserve.keys" --out "$WORK/newer.csv" 2>&1); status=$?
check "after the rollback: the kept newer store still holds the report from after the backup" \
  "exit $status: $(tail -2 <<<"$out")" bash -c "[ $status -eq 0 ] && grep -q '^$D,' '$WORK/newer.csv'"

# --- the same backup without --as-production: a drill copy -------------------------------------
install -m 0600 "$STATE/geoserve.keys" "$WORK/drill/geoserve.keys"
out=$(admin restore "$BACKUP" --database "$WORK/drill/geoserve.sqlite" --keys "$WORK/drill/geoserve.keys" 2>&1); status=$?
check "drill: the backup restored without --as-production" "exit $status: $(tail -3 <<<"$out")" test "$status" -eq 0
(cd "$STATE" && set -a && . "$ENVFILE" && set +a && GEOSERVE_PORT=$DRILL_PORT exec "$INSTALLED" serve \
  --database "$WORK/drill/geoserve.sqlite" --keys "$WORK/drill/geoserve.keys") >>"$WORK/drill.log" 2>&1 </dev/null &
DRILL_PID=$!
if ready "drill: served" "$DRILL_URL" "$DRILL_PID" "$WORK/drill.log"; then
  body=$(curl -sS "$DRILL_URL/readyz")
  check "drill: /readyz says drillCopy" "$body" grep -q drillCopy <<<"$body"
  gauge=$(metric "$DRILL_URL" geoserve_drill_copy)
  check "drill: geoserve_drill_copy 1" "it is ${gauge:-missing}" test "$gauge" = 1
  schedule=$(curl -fsS "$DRILL_URL/v1/publications" | json 'json.dumps(j["schedule"])')
  check "drill: publications paused, none next" "schedule $schedule" \
    test "$(json 'bool(j.get("paused")) and not j.get("next")' <<<"$schedule")" = True
fi
# How long each `systemctl stop` waited for the process to exit: the outage of an upgrade on SQLite.
echo "== $((SECONDS - started)) s with geoserve running; the stops took $(sed 's/$/ ms/' "$WORK/stops" 2>/dev/null | paste -sd, | sed 's/,/, /g')"
finish
