#!/usr/bin/env python3
"""The scaling benchmark's driver (see bench/scale.sh): one geoserve release binary on generated
layers of growing size and of each shape, measured as an outsider would, one JSON line per layer
size and shape.

    [SHAPES="hex voronoi"] python3 bench/scale_run.py BINARY WORK SIZE...

SHAPES (default "hex voronoi") names the layer shapes of bench/make_scale_layer.py, every size
measured for each in turn; each line says its `shape`. Layers are generated once and kept in WORK
(layer-SHAPE-SIZE.geojson), each store in WORK/SHAPE-nSIZE, made afresh (its saved area indexes
included) at every run.

Per size and shape: `bench assign` (1M uniform points, one thread), `import-areas` (peak RSS and
time, and whether it saved the layer's area index file for the server's start:
`import_areas_saved_index_file`), reports imported and published (then whether an index file is
there for the first start, which import-reports may have saved: `index_file_before_first_start`),
then a server started on the store, twice:

- the first start after the import: time to ready (GET /readyz answers 200) and RSS
  (`first_start_ready_seconds`, `first_start_rss_ready_mb`), then the first answer of items,
  items with kind=covid, the verifiers' live items, TileJSON and one tile at z10/z12/z14 — after
  start, after one verification, after a publication — then every zoom from 10 to 18 drawn (a 4x4
  block of tiles a zoom) with the RSS before and after; stopped (SIGTERM);
- a second start on the same store (the same layer; one verification and one publication
  later): time to ready and RSS (`second_start_ready_seconds`, `second_start_rss_ready_mb`).

The targets: any layer ready in ≤ 1 s at 100,000 areas and ≤ 3 s at 300,000, on every start, the
first after import-areas included. Standard library only.
"""
import csv
import datetime
import http.client
import json
import math
import os
import random
import shutil
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_scale_layer import EAST, NORTH, SHAPES, SOUTH, WEST  # noqa: E402

PASSWORD = "scale-bench-password"
EMAIL = "admin@scale.example"
LAYER = "scale"
CENTRE = ((WEST + EAST) / 2, (SOUTH + NORTH) / 2)


def log(*a):
    print("[scale]", *a, file=sys.stderr, flush=True)


def run(*args, stdin=None):
    done = subprocess.run(args, input=stdin, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def tile_of(lon, lat, z):
    n = 2 ** z
    x = int((lon + 180) / 360 * n)
    y = int((1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2 * n)
    return x, y


class Client:
    def __init__(self, port):
        self.port = port
        self.token = None

    def request(self, method, path, body=None, auth=False):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        headers = {}
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        if auth:
            headers["Authorization"] = "Bearer " + self.token
        start = time.perf_counter()
        c.request(method, path, body, headers)
        answer = c.getresponse()
        data = answer.read()
        ms = (time.perf_counter() - start) * 1000
        c.close()
        if answer.status >= 300:
            sys.exit(f"{method} {path}: {answer.status} {data[:300]!r}")
        return ms, data

    def first(self, path, auth=False):
        return round(self.request("GET", path, auth=auth)[0], 2)


def write_reports(path, n, areas, seed):
    rng = random.Random(seed)
    now = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kind", "status", "occurred_on", "submitted_at", "verified_on", "area_layer", "area_id", "payload"])
        for i in range(n):
            at = now - datetime.timedelta(seconds=rng.randint(86400, 20 * 86400))
            status = "pending" if i < 10 else "verified"
            w.writerow(["covid", status, at.date().isoformat(), at.strftime("%Y-%m-%dT%H:%M:%SZ"),
                        at.date().isoformat() if status == "verified" else "", LAYER, f"a{rng.randrange(areas)}", "{}"])


def has_index_file(folder):
    """Whether the folder holds a saved area index (LAYER.vVERSION.KEY.areaindex)."""
    return os.path.isdir(folder) and any(name.endswith(".areaindex") for name in os.listdir(folder))


def start_server(binary, db, log_path):
    """Starts `serve` on the store; returns the process, its port and the seconds until /readyz
    answered 200 (counted from the moment the process was launched)."""
    port = free_port()
    with open(log_path, "w") as server_log:
        server = subprocess.Popen([binary, "serve", "--port", str(port), "--database", db, "--demo-data", "none",
                                   "--log-level", "warning", "--drain-delay", "0"],
                                  stdout=subprocess.DEVNULL, stderr=server_log)
    start = time.perf_counter()
    while True:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            c.request("GET", "/readyz")
            if c.getresponse().status == 200:
                break
        except OSError:
            pass
        if server.poll() is not None:
            sys.exit(f"server exited {server.returncode} (see {log_path})")
        time.sleep(0.005)
    return server, port, round(time.perf_counter() - start, 3)


def stop_server(server):
    server.terminate()
    server.wait()


def measure(binary, work, size, shape, points):
    folder = os.path.join(work, f"{shape}-n{size}")
    os.makedirs(folder, exist_ok=True)
    layer = os.path.join(work, f"layer-{shape}-{size}.geojson")
    if not os.path.exists(layer):
        log(size, shape, "generating the layer")
        run(sys.executable, os.path.join(HERE, "make_scale_layer.py"), "--shape", shape, str(size), layer)
    out = {"areas": size, "shape": shape, "layer_bytes": os.path.getsize(layer)}

    log(size, shape, "assign")
    line = run(binary, "bench", "assign", "--areas", layer, "--points", points, "--id-field", "id", "--threads", "1", "--repeat", "3")
    a = json.loads(line.strip().splitlines()[-1])
    out["assign_points_per_second"] = a["points_per_second"]
    out["index_build_seconds"] = a["build_seconds"]

    db = os.path.join(folder, "g.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    # The area index files a run before this one saved beside the store (the server's default
    # index-cache/): left there, they would spare this run's import and first start the build.
    index_cache = os.path.join(folder, "index-cache")
    shutil.rmtree(index_cache, ignore_errors=True)
    run(binary, "migrate", "--database", db)
    run(binary, "user", "create", "--role", "admin", "--email", EMAIL, "--database", db, stdin=PASSWORD + "\n")
    log(size, shape, "import-areas")
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "import-areas", layer, "--layer", LAYER, "--id-field", "id",
                           "--database", db], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(done.stdout + done.stderr)
    out["import_seconds"] = round(time.perf_counter() - start, 3)
    out["import_peak_rss_mb"] = round(int(done.stderr.strip().splitlines()[-1]) / 1024, 1)
    out["import_areas_saved_index_file"] = has_index_file(index_cache)
    out["store_mb"] = round(sum(os.path.getsize(db + s) for s in ("", "-wal") if os.path.exists(db + s)) / 2**20, 1)

    reports = os.path.join(folder, "reports.csv")
    write_reports(reports, min(4 * size, 400_000), size, size)
    run(binary, "import-reports", reports, "--database", db)
    run(binary, "publish", "--database", db)

    # Whether the first start can load the layer's index rather than build it (import-reports,
    # which reads the layer as a server does, saves it too).
    out["index_file_before_first_start"] = has_index_file(index_cache)
    log(size, shape, "serve, first start")
    server, port, out["first_start_ready_seconds"] = start_server(binary, db, os.path.join(folder, "server-first-start.log"))
    # The second start's figures sit beside the first's in the line; measured at the end.
    out["second_start_ready_seconds"] = None
    try:
        time.sleep(0.5)
        out["first_start_rss_ready_mb"] = round(rss(server.pid) / 2**20, 1)
        out["second_start_rss_ready_mb"] = None
        client = Client(port)
        _, body = client.request("POST", "/v1/auth/login", {"email": EMAIL, "password": PASSWORD})
        client.token = json.loads(body)["token"]

        def round_of(tag):
            items = f"/collections/{LAYER}/items"
            out[f"{tag}_items_ms"] = client.first(items)
            out[f"{tag}_items_covid_ms"] = client.first(items + "?kind=covid")
            out[f"{tag}_items_live_ms"] = client.first(items + "?kind=covid", auth=True)
            out[f"{tag}_tilejson_ms"] = client.first(f"/tiles/{LAYER}.json")
            for z in (10, 12, 14):
                x, y = tile_of(*CENTRE, z)
                out[f"{tag}_tile_z{z}_ms"] = client.first(f"/tiles/{LAYER}/{z}/{x}/{y}.png")
            out[f"{tag}_repeat_items_ms"] = client.first(items)

        log(size, shape, "first requests")
        round_of("start")
        _, body = client.request("GET", "/v1/verification/queue?limit=1", auth=True)
        pending = json.loads(body)["reports"][0]["id"]
        out["verify_ms"] = round(client.request("POST", f"/v1/reports/{pending}/transitions", {"transition": "verify"}, auth=True)[0], 2)
        round_of("verified")
        out["publish_ms"] = round(client.request("POST", "/v1/publications", auth=True)[0], 2)
        round_of("published")

        log(size, shape, "zooms 10-18")
        # Beside the RSS after them: what drawing the zooms added, for comparison with the
        # tile-geometry budget (the layer and the releases before them are not tile geometry).
        out["rss_before_zooms_mb"] = round(rss(server.pid) / 2**20, 1)
        for z in range(10, 19):
            x0, y0 = tile_of(*CENTRE, z)
            for dx in range(-2, 2):
                for dy in range(-2, 2):
                    client.request("GET", f"/tiles/{LAYER}/{z}/{x0 + dx}/{y0 + dy}.png")
        out["rss_after_zooms_mb"] = round(rss(server.pid) / 2**20, 1)
    finally:
        stop_server(server)

    log(size, shape, "serve, second start")
    server, _, out["second_start_ready_seconds"] = start_server(binary, db, os.path.join(folder, "server-second-start.log"))
    try:
        time.sleep(0.5)
        out["second_start_rss_ready_mb"] = round(rss(server.pid) / 2**20, 1)
    finally:
        stop_server(server)
    return out


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    binary, work, sizes = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3:]]
    shapes = os.environ.get("SHAPES", "hex voronoi").split()
    unknown = [s for s in shapes if s not in SHAPES]
    if unknown or not shapes:
        sys.exit(f"SHAPES: {' '.join(unknown) or 'none given'}: each one of {', '.join(SHAPES)}")
    os.makedirs(work, exist_ok=True)
    points = os.path.join(work, "points-1m.f64")
    if not os.path.exists(points):
        run(sys.executable, os.path.join(HERE, "make_scale_layer.py"), "--shape", "hex", "1", os.path.join(work, "one.geojson"),
            "1000000", points)
    for size in sizes:
        for shape in shapes:
            print(json.dumps(measure(binary, work, size, shape, points)), flush=True)


if __name__ == "__main__":
    main()
