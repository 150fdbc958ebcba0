#!/usr/bin/env python3
"""A steady load through a proxy, for rolling-restart.sh: standard library only.

  load.py run URL RESULTS [GETTERS POSTERS]
      GETTERS threads read /collections/halls/items?limit=5, POSTERS threads submit COVID reports,
      each with an Idempotency-Key of its own, until SIGTERM or SIGINT. Every request is sent
      once, on a new connection (no retries, no client-side keep-alive, so that nothing the
      client does hides or causes a failure); each is written to RESULTS as a JSON line.
  load.py check LABEL RESULTS STORED_IDS STORED_BEFORE EVENTS
      Prints "ok ..." / "FAIL ..." lines: every request answered 200 (GET) or 201 (POST); every
      acknowledged report id is among STORED_IDS (one id a line, all reports in the database);
      the reports stored since the round began (their count less STORED_BEFORE) are exactly the
      distinct keys acknowledged, one id per key. A failure is shown against EVENTS (lines of
      "UNIX_TIME what"), the restart step it followed.
  load.py free-port
      A free loopback TCP port.
"""
import collections
import datetime
import http.client
import json
import signal
import socket
import sys
import threading
import time
import urllib.parse
import uuid

TIMEOUT = 30  # seconds per request; a request still unanswered then is a failure


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def report_body():
    """A valid anonymous COVID report on the demo campus: a test two days ago, on campus the day before."""
    today = datetime.date.today()
    return json.dumps({
        "kind": "covid", "affiliation": "student", "phone": "+1 336 555 0142",
        "testDate": (today - datetime.timedelta(days=2)).isoformat(),
        "lastOnCampus": (today - datetime.timedelta(days=3)).isoformat(),
        "area": {"layer": "halls", "id": "H01"}, "notes": "rolling restart load",
    }).encode()


def request(url, method, path, body=None, headers=None):
    """One request on a new connection: (status or 0, error text, parsed JSON body or None, headers)."""
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=TIMEOUT)
    try:
        conn.request(method, path, body=body, headers={"Connection": "close", **(headers or {})})
        response = conn.getresponse()
        data = response.read()
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = None
        said = " ".join(data[:300].decode("utf-8", "replace").split()) if response.status >= 400 else ""
        if "<title>" in said:  # a proxy's error page: its title says it
            said = said.split("<title>", 1)[1].split("</title>", 1)[0]
        return response.status, said, parsed, response
    except Exception as error:  # a reset, a refused connection, a timeout: the client sees no answer
        return 0, f"{type(error).__name__}: {error}", None, None
    finally:
        conn.close()


def run(url, results_path, getters, posters):
    url = urllib.parse.urlsplit(url)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    lock = threading.Lock()
    out = open(results_path, "w")
    body = report_body()

    def record(entry):
        with lock:
            out.write(json.dumps(entry) + "\n")

    def getter():
        while not stop.is_set():
            began = time.time()
            status, error, _, _ = request(url, "GET", "/collections/halls/items?limit=5")
            record({"t": began, "ms": round((time.time() - began) * 1000, 1), "method": "GET", "status": status, "error": error})
            time.sleep(0.01)

    def poster():
        while not stop.is_set():
            key = uuid.uuid4().hex
            began = time.time()
            status, error, parsed, response = request(url, "POST", "/v1/reports", body,
                                                      {"Content-Type": "application/json", "Idempotency-Key": key})
            record({"t": began, "ms": round((time.time() - began) * 1000, 1), "method": "POST", "status": status,
                    "error": error, "key": key, "id": (parsed or {}).get("id") if status == 201 else None,
                    "replayed": bool(response and response.getheader("Idempotency-Replayed") == "true")})
            time.sleep(0.01)

    threads = [threading.Thread(target=getter) for _ in range(getters)] + [threading.Thread(target=poster) for _ in range(posters)]
    for thread in threads:
        thread.start()
    while not stop.is_set():
        stop.wait(0.2)
    for thread in threads:
        thread.join()
    out.close()


def check(label, results_path, stored_path, stored_before, events_path):
    entries = [json.loads(line) for line in open(results_path) if line.strip()]
    stored = {line.strip() for line in open(stored_path) if line.strip()}
    events = sorted((float(t), what) for t, what in (line.rstrip("\n").split(" ", 1) for line in open(events_path) if line.strip()))

    def when(t):
        before = [e for e in events if e[0] <= t]
        return f"{t - before[-1][0]:+.3f} s after {before[-1][1]}" if before else "before the first event"

    expected = {"GET": 200, "POST": 201}
    counts = collections.Counter((e["method"], e["status"] or e["error"].split(":")[0]) for e in entries)
    summary = ", ".join(f"{method} {status}: {n}" for (method, status), n in sorted(counts.items(), key=str))
    failures = [e for e in entries if e["status"] != expected[e["method"]]]
    if failures:
        print(f"FAIL {label}: {len(failures)} of {len(entries)} requests failed ({summary})")
        for e in failures[:20]:
            print(f"     {e['method']} {e['status']} {when(e['t'])}, {e['ms']} ms: {e['error']}")
    elif len(entries) < 100:
        print(f"FAIL {label}: only {len(entries)} requests were sent ({summary})")
    else:
        print(f"ok {label}: all {len(entries)} requests answered ({summary})")

    acknowledged = [e for e in entries if e["method"] == "POST" and e["status"] == 201]
    replayed = sum(e["replayed"] for e in acknowledged)
    ids_by_key = collections.defaultdict(set)
    for e in acknowledged:
        ids_by_key[e["key"]].add(e["id"])
    missing = {e["id"] for e in acknowledged} - stored
    if missing:
        print(f"FAIL {label}: {len(missing)} acknowledged reports are not stored, e.g. {sorted(missing)[:3]}")
    else:
        print(f"ok {label}: every acknowledged report is stored ({len(acknowledged)} acknowledged, {replayed} of them replayed)")
    split = [key for key, ids in ids_by_key.items() if len(ids) > 1]
    new = len(stored) - stored_before
    if split or new != len(ids_by_key):
        print(f"FAIL {label}: {new} reports stored for {len(ids_by_key)} distinct keys acknowledged"
              + (f"; {len(split)} keys got more than one id" if split else ""))
    else:
        print(f"ok {label}: {new} reports stored for {len(ids_by_key)} distinct keys acknowledged, none doubled")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "run" and len(sys.argv) in (4, 6):
        run(sys.argv[2], sys.argv[3], *(int(n) for n in (sys.argv[4:] or (3, 3))))
    elif command == "check" and len(sys.argv) == 7:
        check(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6])
    elif command == "free-port":
        print(free_port())
    else:
        sys.exit(__doc__)
