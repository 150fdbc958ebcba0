#!/usr/bin/env bash
# A rolling restart behind a proxy drops nothing: two geoserve processes on one PostgreSQL
# database, sharing one key file, behind nginx and then behind Caddy, configured as
# docs/deploy.md shows (without TLS, on loopback ports). Under a steady load of reads and report
# submissions (load.py: every request sent once, never retried by the client), each process in
# turn is stopped with SIGTERM, waited for, started again with the same arguments and waited for
# until /readyz answers 200 — the way "Stopping" in docs/deploy.md describes. Then:
#   - every request was answered: 200 for a read, 201 for a submission (counts by status shown);
#   - every report acknowledged is stored, and the reports stored during the round are exactly
#     the distinct Idempotency-Keys acknowledged (none lost, none stored twice);
#   - each stop was clean (exit 0: nothing cut off at the shutdown grace).
# nginx and Caddy run from a temporary folder with their own configuration, never as a system
# service; PostgreSQL is a throw-away server (Tests/Postgres/with-server.sh) unless
# GEOSERVE_TEST_POSTGRES names one already, in which case a schema of its own is used and dropped.
#
# Usage: Tests/Operations/rolling-restart.sh PATH_TO_GEOSERVE_BINARY
# Last line: "rolling-restart: N passed, M failed"; exits non-zero when any check failed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: $0 PATH_TO_GEOSERVE_BINARY" >&2; exit 2; }
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

# The settings under test; docs/deploy.md gives the same numbers and the reasons for them.
DRAIN_DELAY=5      # Caddy's check each second sees the 503 of /readyz well within it; above nginx's fail_timeout
SHUTDOWN_GRACE=20  # the default; the requests here take milliseconds
PROXY_NOTICE=2     # after /readyz answers 200: Caddy's next check counts it in, nginx's fail_timeout ran out
WARM_UP=3          # seconds of load before the first stop, and after the last start
GETTERS=2 POSTERS=14  # threads; many submissions at once make the keep-alive race likely

SUITE=rolling-restart
. "$HERE/../lib.sh"

# --- tools -------------------------------------------------------------------------------------
# Debian's packages start their service where policy allows; this script never uses it.
command -v nginx >/dev/null || apt_install nginx || give_up "install nginx"
command -v caddy >/dev/null || apt_install caddy || give_up "install caddy"
command -v curl >/dev/null || apt_install curl || give_up "install curl"
command -v psql >/dev/null || apt_install postgresql-client || give_up "install postgresql-client"

# --- a throw-away PostgreSQL ---------------------------------------------------------------------
# Without a server named, run again beside one; with-server.sh removes it when this script ends.
if [ -z "${GEOSERVE_TEST_POSTGRES:-}" ]; then
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    # The server programs only: no cluster of the system's own (as dev.sh installs them).
    [ -e /etc/postgresql-common/createcluster.conf ] ||
      { as_root mkdir -p /etc/postgresql-common && echo "create_main_cluster = false" | as_root tee /etc/postgresql-common/createcluster.conf >/dev/null; }
    apt_install postgresql || give_up "install postgresql"
  fi
  exec "$ROOT/Tests/Postgres/with-server.sh" "$HERE/rolling-restart.sh" "$BIN"
fi

WORK=$(mktemp -d)
# nginx's workers drop root for nobody, who must reach their temporary folders in here.
chmod 711 "$WORK"
SCHEMA=rolling_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
declare -A PID=() PORT=()
PROXY= LOAD=
cleanup() {
  # All at once: each geoserve takes its drain delay to stop.
  for pid in $LOAD $PROXY ${PID[@]+"${PID[@]}"}; do kill "$pid" 2>/dev/null; done
  for pid in $LOAD $PROXY ${PID[@]+"${PID[@]}"}; do wait "$pid" 2>/dev/null; done
  psql "$GEOSERVE_TEST_POSTGRES" -qc "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# A developer's GEOSERVE_* settings must not leak in; the test server's address stays.
for name in $(compgen -e | grep '^GEOSERVE_' | grep -v '^GEOSERVE_TEST_'); do unset "$name"; done

export PYTHONDONTWRITEBYTECODE=1   # leave no __pycache__ in the repository
free_port() { python3 "$HERE/load.py" free-port; }
EVENTS="$WORK/events"
event() { local now; now=$(date +%s.%N); echo "$now $* ($(date -d "@$now" +%T.%3N))" >>"$EVENTS"; }

# --- two processes on one database -----------------------------------------------------------
# A fresh schema, named in the URI's search path, as the Swift tests do.
psql "$GEOSERVE_TEST_POSTGRES" -qc "CREATE SCHEMA $SCHEMA" >/dev/null || give_up "create schema $SCHEMA"
DB="$GEOSERVE_TEST_POSTGRES$([[ $GEOSERVE_TEST_POSTGRES == *\?* ]] && echo '&' || echo '?')options=-csearch_path%3D$SCHEMA"
PORT[A]=$(free_port) PORT[B]=$(free_port)
declare -A DEMO=([A]="$ROOT/data" [B]=none)

start_geoserve() {  # A|B: in the background, from $WORK, logging to $WORK/NAME.log
  (cd "$WORK" && exec "$BIN" serve --host 127.0.0.1 --port "${PORT[$1]}" --database "$DB" --keys "$WORK/geoserve.keys" \
    --attachments "$WORK/attachments" --index-cache none --demo-data "${DEMO[$1]}" --publish-at never \
    --anonymous-per-minute 0 --max-pending-anonymous 0 --drain-delay "$DRAIN_DELAY" --shutdown-grace "$SHUTDOWN_GRACE" \
    --log-format json --log-level info) >>"$WORK/$1.log" 2>&1 &
  PID[$1]=$!
}
ready() {  # NAME URL [PID]: /readyz answers 200 within 60 s
  for _ in $(seq 240); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$2/readyz")" = 200 ] && return 0
    [ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null && break
    sleep 0.25
  done
  say "FAIL $1 ready at $2/readyz"; return 1
}
# The first process creates the key file and imports the demo campus; the second shares both.
start_geoserve A && ready A "http://127.0.0.1:${PORT[A]}" "${PID[A]}" || { tail -20 "$WORK/A.log"; give_up "start A"; }
start_geoserve B && ready B "http://127.0.0.1:${PORT[B]}" "${PID[B]}" || { tail -20 "$WORK/B.log"; give_up "start B"; }

restart() {  # NAME LABEL: SIGTERM, wait for the exit, start again, wait for /readyz and the proxy
  local name=$1 label=$2 status
  event "SIGTERM to $name"
  kill -TERM "${PID[$name]}"
  wait "${PID[$name]}"; status=$?
  event "$name exited with $status"
  if [ "$status" -eq 0 ]; then say "ok $label: $name stopped cleanly"; else say "FAIL $label: $name exited with $status"; fi
  start_geoserve "$name"
  event "$name started"
  ready "$name" "http://127.0.0.1:${PORT[$name]}" "${PID[$name]}" && event "$name ready"
  # Stopping the other process before the proxy counts this one in again would leave it with
  # none for a moment.
  sleep "$PROXY_NOTICE"
}

# --- proxies, as in docs/deploy.md but for TLS and the files' places ---------------------------
nginx_config() {  # PROXY_PORT
  mkdir -p "$WORK/nginx"
  cat >"$WORK/nginx/nginx.conf" <<EOF
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
http {
    client_body_temp_path $WORK/nginx/client_body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;

    log_format geoserve '\$time_iso8601 \$request_method \$status \$body_bytes_sent \$request_time \$request_id \$upstream_addr \$upstream_status';
    access_log $WORK/nginx/access.log geoserve;

    upstream geoserve {
        server 127.0.0.1:${PORT[A]} max_fails=1 fail_timeout=2s;
        server 127.0.0.1:${PORT[B]} max_fails=1 fail_timeout=2s;
        keepalive 32;
        keepalive_timeout 30s;
    }

    server {
        listen 127.0.0.1:$1;
        client_max_body_size 70m;

        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host \$host;
        proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto \$scheme;
        proxy_set_header X-Request-Id \$request_id;
        proxy_request_buffering off;
        proxy_connect_timeout 5s;
        proxy_send_timeout    60s;
        proxy_read_timeout    60s;
        proxy_next_upstream error timeout;

        location ^~ /metrics {
            deny all;
        }
        location = /v1/reports {
            proxy_next_upstream error timeout non_idempotent;
            proxy_request_buffering on;
            client_max_body_size 1m;
            proxy_pass http://geoserve;
        }
        location / {
            proxy_pass http://geoserve;
        }
    }
}
EOF
}
start_nginx() {  # PROXY_PORT
  nginx_config "$1"
  nginx -t -q -e "$WORK/nginx/error.log" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" || { cat "$WORK/nginx/error.log"; return 1; }
  nginx -e "$WORK/nginx/error.log" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' &
  PROXY=$!
}

caddy_config() {  # PROXY_PORT
  mkdir -p "$WORK/caddy"
  cat >"$WORK/caddy/Caddyfile" <<EOF
{
	admin off
	auto_https off
}
http://:$1 {
	bind 127.0.0.1
	@metrics path /metrics /metrics/*
	respond @metrics 403
	request_body {
		max_size 70MiB
	}
	reverse_proxy 127.0.0.1:${PORT[A]} 127.0.0.1:${PORT[B]} {
		lb_policy least_conn
		lb_try_duration 5s
		lb_try_interval 250ms
		health_uri /readyz
		health_interval 1s
		health_timeout 2s
		fail_duration 2s
		max_fails 3
		header_up X-Request-Id {http.request.uuid}
		transport http {
			dial_timeout 5s
			response_header_timeout 60s
			keepalive 30s
		}
	}
}
EOF
}
start_caddy() {  # PROXY_PORT
  caddy_config "$1"
  # Its configuration and data folders (autosave.json, certificates) stay in here too.
  (cd "$WORK/caddy" && HOME="$WORK/caddy" XDG_CONFIG_HOME="$WORK/caddy" XDG_DATA_HOME="$WORK/caddy" \
    exec caddy run --config Caddyfile --adapter caddyfile) >>"$WORK/caddy/caddy.log" 2>&1 &
  PROXY=$!
}

stored() { psql "$DB" -Atqc "SELECT id FROM reports"; }

# --- a round: one proxy, a steady load, both processes restarted in turn --------------------------
round() {  # NAME START_FUNCTION
  local name=$1 port url before failed_before=$failed
  port=$(free_port)
  url="http://127.0.0.1:$port"
  case $name in nginx) echo "== nginx $(nginx -v 2>&1 | sed 's|.*/||')" ;; caddy) echo "== caddy $(caddy version | cut -d' ' -f1)" ;; esac
  : >"$EVENTS"
  "$2" "$port" || { say "FAIL $name: does not start"; return; }
  ready "$name" "$url" "$PROXY" || { cat "$WORK/$name"/*.log 2>/dev/null | tail -20; return; }
  before=$(stored | wc -l)
  python3 "$HERE/load.py" run "$url" "$WORK/$name.results" "$GETTERS" "$POSTERS" &
  LOAD=$!
  event "load started"
  sleep "$WARM_UP"
  restart A "$name"
  restart B "$name"
  sleep "$WARM_UP"
  event "load stopping"
  kill -TERM "$LOAD"; wait "$LOAD"; LOAD=
  kill -TERM "$PROXY"; wait "$PROXY" 2>/dev/null; PROXY=
  stored >"$WORK/$name.stored"
  count < <(python3 "$HERE/load.py" check "$name" "$WORK/$name.results" "$WORK/$name.stored" "$before" "$EVENTS")
  if [ "$name" = nginx ]; then  # what the retry settings did: $upstream_status lists every attempt
    echo "     nginx passed $(awk '$7 ~ /,$/' "$WORK/nginx/access.log" | wc -l) requests on to the other process;" \
      "its error log: $(grep -cE 'reset by peer|prematurely closed' "$WORK/nginx/error.log") reset or closed unanswered," \
      "$(grep -c 'Connection refused' "$WORK/nginx/error.log") refused"
  fi
  # What the proxy saw, when anything failed: to trace a failure to a process and a moment.
  [ "$failed" -gt "$failed_before" ] || return 0
  if [ "$name" = nginx ]; then
    awk '$3 != 200 && $3 != 201 { print "     access.log: " $0 }' "$WORK/nginx/access.log" | head -20
    grep -v '\[notice\]' "$WORK/nginx/error.log" | sed 's/^/     error.log: /' | head -20
  else
    grep -E '"logger":"http\.(log\.error|handlers\.reverse_proxy)' "$WORK/caddy/caddy.log" | sed 's/^/     caddy: /' | head -40
  fi
  sed 's/^/     event: /' "$EVENTS"
}

started=$(date +%s)
round nginx start_nginx
round caddy start_caddy
echo "== $(($(date +%s) - started)) s"
finish
