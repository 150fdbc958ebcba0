#!/usr/bin/env python3
"""Intake load and its reckoning, for failover.sh: standard library only.

  failover.py run URL RESULTS [CLIENTS]
      CLIENTS threads (default 4) submit anonymous misconduct reports to POST /v1/reports until
      SIGTERM or SIGINT, each request with an Idempotency-Key of its own and that key in its
      incidentDescription too (so a report stored twice for one request shows in the table).
      Every request is sent once, on a new connection (no retries, no keep-alive: nothing the
      client does hides or causes a failure), and written to RESULTS as a JSON line when it ends:
      begin and end times, status or error, key, body, and the report id of a 201.
  failover.py acked RESULTS [SINCE]
      How many requests were acknowledged (201), of those ending at or after the Unix time SINCE.
  failover.py refused RESULTS SINCE
      How many requests were not acknowledged, of those ending at or after SINCE.
  failover.py first-ack RESULTS SINCE
      The end time of the first 201 that ended at or after SINCE; nothing when there is none.
  failover.py retry URL RESULTS OUT
      Sends every request that was not acknowledged once more, with its key and body, as a
      client following Retry-After would; written to OUT like RESULTS.
  failover.py check RESULTS RETRIES STORED EVENTS MAX_RECOVERY
      Prints "ok ..." / "FAIL ..." lines and the figures. STORED holds "id|marker" lines, one per
      row of the reports table (marker: the key found in the stored row, or empty); EVENTS holds
      "UNIX_TIME NAME" lines (killed, dead, readyz-503, promoting, promoted, stopped);
      MAX_RECOVERY: the seconds allowed from `pg_ctl promote` to the first 201.
  failover.py log LOG
      geoserve's JSON log but its request lines, each kind of line once (level, message and
      reason), with how often and from when to when it came, in the order they first came.
"""
import collections
import datetime
import http.client
import json
import signal
import sys
import threading
import time
import uuid

TIMEOUT = 30        # seconds per request; a request still unanswered then is a failure
# Alder House on the demo campus (data/halls.geojson), inside every published layer.
LOCATION = {"lon": -87.6003, "lat": 41.7894, "accuracyM": 10}


def report_body(key):
    yesterday = datetime.datetime.now(datetime.timezone.utc).date() - datetime.timedelta(days=1)
    return json.dumps({
        "kind": "misconduct", "occurredAt": f"{yesterday.isoformat()}T12:00:00Z", "location": LOCATION,
        "officerDescription": "failover load", "incidentDescription": f"failover load {key}", "anonymous": True,
    })


def request(host, port, body, key):
    """One POST on a new connection: (status or 0, error text, parsed body or None, replayed)."""
    conn = http.client.HTTPConnection(host, port, timeout=TIMEOUT)
    try:
        conn.request("POST", "/v1/reports", body=body.encode(), headers={
            "Connection": "close", "Content-Type": "application/json", "Idempotency-Key": key})
        response = conn.getresponse()
        data = response.read()
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = None
        said = " ".join(data[:300].decode("utf-8", "replace").split()) if response.status != 201 else ""
        return response.status, said, parsed, response.getheader("Idempotency-Replayed") == "true"
    except Exception as error:  # a reset, a refused connection, a timeout: the client sees no answer
        return 0, f"{type(error).__name__}: {error}", None, False
    finally:
        conn.close()


def send(host, port, key, body, record):
    began = time.time()
    status, error, parsed, replayed = request(host, port, body, key)
    entry = {"t0": began, "t1": time.time(), "status": status, "error": error, "key": key, "body": body,
             "id": (parsed or {}).get("id") if status == 201 else None, "replayed": replayed}
    record(entry)
    return entry


def writer(path):
    lock = threading.Lock()
    out = open(path, "w")

    def record(entry):
        with lock:
            out.write(json.dumps(entry) + "\n")
            out.flush()
    return out, record


def split_url(url):
    rest = url.split("://", 1)[-1].rstrip("/")
    host, port = rest.rsplit(":", 1)
    return host, int(port)


def run(url, results_path, clients):
    host, port = split_url(url)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    out, record = writer(results_path)

    def client():
        while not stop.is_set():
            key = uuid.uuid4().hex
            entry = send(host, port, key, report_body(key), record)
            # A refusal comes back at once while there is no primary: no busy loop meanwhile.
            stop.wait(0.01 if entry["status"] == 201 else 0.1)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    while not stop.is_set():
        stop.wait(0.2)
    for thread in threads:
        thread.join()
    out.close()


def entries(path):
    out = []
    try:
        lines = open(path).readlines()
    except FileNotFoundError:  # the load has not begun writing yet
        return out
    for line in lines:
        try:
            out.append(json.loads(line))
        except ValueError:  # a line still being written
            pass
    return out


def acked(path, since=0.0):
    return sum(1 for e in entries(path) if e["status"] == 201 and e["t1"] >= since)


def refused(path, since):
    return sum(1 for e in entries(path) if e["status"] != 201 and e["t1"] >= since)


def first_ack(path, since):
    ends = [e["t1"] for e in entries(path) if e["status"] == 201 and e["t1"] >= since]
    return min(ends) if ends else None


def retry(url, results_path, out_path):
    host, port = split_url(url)
    out, record = writer(out_path)
    for e in entries(results_path):
        if e["status"] != 201:
            send(host, port, e["key"], e["body"], record)
    out.close()


def check(results_path, retries_path, stored_path, events_path, max_recovery):
    first = entries(results_path)
    again = entries(retries_path)
    events = {}
    for line in open(events_path):
        if line.strip():
            t, name = line.split(None, 1)
            events.setdefault(name.strip(), float(t))
    rows = [line.rstrip("\n").split("|", 1) for line in open(stored_path) if line.strip()]
    stored_ids = [row[0] for row in rows]
    stored = set(stored_ids)
    failures = 0

    def say(ok, name, detail):
        nonlocal failures
        failures += not ok
        print(f"{'ok' if ok else 'FAIL'} {name}{': ' if detail else ''}{detail}")

    def when(t):
        before = sorted((v, k) for k, v in events.items() if v <= t)
        return f"{t - before[-1][0]:+.3f} s after {before[-1][1]}" if before else "before the primary was killed"

    acknowledged = [e for e in first if e["status"] == 201]
    unacknowledged = [e for e in first if e["status"] != 201]
    statuses = collections.Counter(str(e["status"] or e["error"].split(":")[0]) for e in first)
    print(f"     {len(first)} requests: " + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())))
    killed, dead = events.get("killed"), events.get("dead")
    promoting, promoted = events.get("promoting"), events.get("promoted")
    before_kill = sum(1 for e in acknowledged if killed is not None and e["t1"] < killed)
    # Sent once the primary was gone and acknowledged: committed by the promoted server, so not
    # before the promotion.
    after = [e for e in acknowledged if dead is not None and e["t0"] >= dead]
    early = [e for e in after if promoting is None or e["t1"] < promoting]
    say(not early, "no report sent without a primary is acknowledged before the promotion",
        f"{len(early)} were, e.g. {early[0]['id']} sent {when(early[0]['t0'])}, answered {when(early[0]['t1'])}" if early else "")
    # In flight at the kill: commits the standby had confirmed, answered as the primary went.
    during = [e for e in acknowledged if killed is not None and e["t1"] >= killed and e["t0"] < (dead or killed)]
    if during:
        print(f"     {len(during)} acknowledged while the primary was being killed (sent before it was gone)")

    # Every acknowledged report is in the promoted server's table.
    missing = [e for e in acknowledged if e["id"] not in stored]
    say(not missing, "every acknowledged report is stored on the promoted server",
        f"{len(missing)} of {len(acknowledged)} are missing, e.g. "
        + "; ".join(f"{e['id']} (answered {when(e['t1'])})" for e in missing[:5]) if missing
        else f"{len(acknowledged)} acknowledged, {len(stored)} stored")

    # None stored twice: ids are unique, and no request's key is in two rows.
    id_dupes = len(stored_ids) - len(stored)
    markers = collections.Counter(row[1] for row in rows if len(row) > 1 and row[1])
    key_dupes = {k: n for k, n in markers.items() if n > 1}
    ours = {e["key"] for e in first}
    marked = sum(1 for k in markers if k in ours)
    say(id_dupes == 0 and not key_dupes, "no report stored twice",
        f"{id_dupes} ids stored twice, {len(key_dupes)} requests stored more than once, e.g. {sorted(key_dupes)[:3]}"
        if id_dupes or key_dupes else f"{len(stored_ids)} rows, {len(stored)} distinct ids, {marked} requests' keys found in the rows, each once")

    # Promotion to the first 201.
    recovery = None
    if promoting is None:
        say(False, f"a report acknowledged within {max_recovery:g} s of the promotion", "the standby was never promoted")
    elif not after:
        say(False, f"a report acknowledged within {max_recovery:g} s of the promotion", "no 201 after the promotion")
    else:
        first_after = min(after, key=lambda e: e["t1"])
        recovery = first_after["t1"] - promoting
        say(recovery <= max_recovery, f"a report acknowledged within {max_recovery:g} s of the promotion",
            f"{recovery:.2f} s from `pg_ctl promote` (promotion itself took {promoted - promoting:.2f} s)"
            if promoted is not None else f"{recovery:.2f} s")

    # The requests not acknowledged, sent again with their keys after the failover: each answered
    # 201, and every key then holds exactly one report.
    again_failed = [e for e in again if e["status"] != 201]
    say(not again_failed, "every unacknowledged request, sent again with its key, is acknowledged",
        f"{len(again_failed)} of {len(again)} not: " + "; ".join(
            f"{n} × {answer}" for answer, n in collections.Counter(f"{e['status']} {e['error'][:120]}" for e in again_failed).most_common(3))
        if again_failed else f"{len(again)} sent again, {sum(e['replayed'] for e in again)} of them replayed (stored before, answer lost)")
    ids_by_key = collections.defaultdict(set)
    for e in acknowledged + [e for e in again if e["status"] == 201]:
        ids_by_key[e["key"]].add(e["id"])
    split = [k for k, ids in ids_by_key.items() if len(ids) > 1]
    run_rows = [row for row in rows if len(row) > 1 and row[1] in ours]
    lost_again = [i for ids in ids_by_key.values() for i in ids if i not in stored]
    say(not split and not lost_again and len(run_rows) == len(ids_by_key) == len(ours),
        "each request's key holds exactly one stored report",
        f"{len(ours)} keys sent, {len(ids_by_key)} acknowledged, {len(run_rows)} rows with a key of this run, "
        f"{len(split)} keys with two ids, {len(lost_again)} acknowledged ids missing")

    print("     figures: "
          f"acknowledged {len(acknowledged)} ({before_kill} before the kill, {len(after)} sent after it); "
          f"stored {len(stored)} ({sum(1 for e in again if e['status'] == 201 and not e['replayed'])} of them by the resend); duplicates {id_dupes + sum(n - 1 for n in key_dupes.values())}; "
          f"unacknowledged attempts {len(unacknowledged)}; "
          f"seconds from promotion to first 201 {'%.2f' % recovery if recovery is not None else 'none'}; "
          f"readyz 503 seen {'yes' if 'readyz-503' in events else 'no'}")
    # What the refusals were, by the step they followed.
    def step(t):
        before = sorted((v, k) for k, v in events.items() if v <= t)
        return before[-1] if before else (first[0]["t0"], "the start")
    groups = collections.defaultdict(list)
    for e in unacknowledged:
        groups[(step(e["t1"]), e["status"], e["error"][:160])].append(e)
    for ((t, name), status, error), group in sorted(groups.items(), key=lambda g: (g[0][0][0], -len(g[1]))):
        ends = [e["t1"] - t for e in group]
        print(f"     not acknowledged: {len(group)} × {status} from {min(ends):+.2f} to {max(ends):+.2f} s after {name}"
              f" (longest {max(e['t1'] - e['t0'] for e in group):.2f} s): {error}")
    return failures


def log_summary(path):
    kinds = {}
    requests = collections.Counter()
    for line in open(path, errors="replace"):
        try:
            entry = json.loads(line)
        except ValueError:
            entry = {"time": "", "level": "text", "message": line.strip()}
        if entry.get("message") == "request":
            requests[str(entry.get("status"))] += 1
            continue
        detail = entry.get("reason") or entry.get("error") or ""
        kind = (entry.get("level", ""), entry.get("message", ""), str(detail)[:300])
        first, last, n = kinds.get(kind, (entry.get("time", ""), "", 0))
        kinds[kind] = (first, entry.get("time", ""), n + 1)
    print("     geoserve's log: requests by status " + ", ".join(f"{k}: {n}" for k, n in sorted(requests.items()))
          + "; every other line once, with its count:")
    for (level, message, detail), (first, last, n) in kinds.items():
        when = first[11:23] + (f" to {last[11:23]}" if n > 1 else "")
        print(f"     | {n} × {level} {message}{': ' + detail if detail else ''} ({when})")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "run" and len(sys.argv) in (4, 5):
        run(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) == 5 else 4)
    elif command == "acked" and len(sys.argv) in (3, 4):
        print(acked(sys.argv[2], float(sys.argv[3]) if len(sys.argv) == 4 else 0.0))
    elif command == "refused" and len(sys.argv) == 4:
        print(refused(sys.argv[2], float(sys.argv[3])))
    elif command == "first-ack" and len(sys.argv) == 4:
        t = first_ack(sys.argv[2], float(sys.argv[3]))
        if t is not None:
            print(f"{t:.6f}")
    elif command == "retry" and len(sys.argv) == 5:
        retry(sys.argv[2], sys.argv[3], sys.argv[4])
    elif command == "log" and len(sys.argv) == 3:
        log_summary(sys.argv[2])
    elif command == "check" and len(sys.argv) == 7:
        check(*sys.argv[2:6], float(sys.argv[6]))
    else:
        sys.exit(__doc__)
