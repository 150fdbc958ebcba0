#!/usr/bin/env bash
# The verifiers' queue at 10,000 pending reports: every page of GET /v1/verification/queue
# (limit 50, oldest first, cursor paging) walked by an admin over one keep-alive connection,
# ROUNDS times; prints the median, p95 and worst time per page. Target: under 50 ms a page.
#
#   bench/queue-pages.sh [GEOSERVE_RELEASE_BINARY]      # env: REPORTS (10000), ROUNDS (3), LIMIT (50)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${1:-$root/.build/release/geoserve}
reports=${REPORTS:-10000}; rounds=${ROUNDS:-3}; limit=${LIMIT:-50}
work=$(mktemp -d); server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
db=$work/g.sqlite
"$bin" migrate --database "$db" >/dev/null
echo "queue-bench-password" | "$bin" user create --role admin --email admin@bench.example --database "$db" >/dev/null
# The demo campus's layers first (a start imports them), then the reports, pending, in the halls.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" serve --port "$port" --database "$db" --demo-data "$root/data" --log-level warning --drain-delay 0 >"$work/server.log" 2>&1 & server=$!
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$port/readyz" && break; sleep 0.1; done
kill "$server"; wait "$server" 2>/dev/null || true; server=
python3 - "$work/reports.csv" "$reports" <<'PY'
import csv, datetime, random, sys
path, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(1)
now = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=5)
with open(path, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["kind", "status", "occurred_on", "submitted_at", "area_layer", "area_id", "payload"])
    for i in range(n):
        at = now - datetime.timedelta(seconds=rng.randint(0, 13 * 86400))
        w.writerow(["covid", "pending", at.date().isoformat(), at.strftime("%Y-%m-%dT%H:%M:%SZ"), "halls", "H%02d" % rng.randint(1, 42), "{}"])
PY
"$bin" import-reports "$work/reports.csv" --database "$db" >/dev/null
"$bin" serve --port "$port" --database "$db" --demo-data none --log-level warning --drain-delay 0 >"$work/server.log" 2>&1 & server=$!
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$port/readyz" && break; sleep 0.1; done
python3 - "$port" "$rounds" "$limit" "$reports" <<'PY'
import http.client, json, statistics, sys, time, urllib.parse
port, rounds, limit, expected = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
c = http.client.HTTPConnection("127.0.0.1", port)
c.request("POST", "/v1/auth/login", json.dumps({"email": "admin@bench.example", "password": "queue-bench-password"}), {"Content-Type": "application/json"})
token = json.load(c.getresponse())["token"]
times = []
for r in range(rounds):
    cursor, seen = None, 0
    while True:
        path = f"/v1/verification/queue?limit={limit}" + (f"&cursor={urllib.parse.quote(cursor)}" if cursor else "")
        start = time.perf_counter()
        c.request("GET", path, headers={"Authorization": "Bearer " + token})
        answer = c.getresponse()
        body = json.load(answer)
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status == 200, (answer.status, body)
        seen += len(body["reports"])
        cursor = body.get("next")
        if not cursor:
            break
    assert seen == expected, f"walked {seen} reports, expected {expected}"
times.sort()
print(f"queue of {expected} pending reports, limit {limit}: {len(times)} pages over {rounds} walks; "
      f"median {statistics.median(times):.2f} ms, p95 {times[int(0.95 * len(times))]:.2f} ms, worst {times[-1]:.2f} ms a page")
PY
