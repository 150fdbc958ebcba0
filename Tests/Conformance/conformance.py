"""Helpers for run.sh (standard library only).

  conformance.py free-port                  a free loopback port
  conformance.py ready URL                  exit 0 once GET URL/readyz answers 200
  conformance.py login URL EMAIL PASSWORD   prints "TOKEN ACCOUNT_ID"
  conformance.py junit LABEL FILE           one check per schemathesis test case
  conformance.py gdal URL DIR               GDAL's OGC API - Features driver against the service
  conformance.py metrics URL                /metrics read by prometheus_client's own parser

Checks are printed one a line as "ok NAME" or "FAIL NAME: why"; run.sh counts them.
"""

import json
import re
import socket
import subprocess
import sys
import urllib.request
import xml.etree.ElementTree as ET

# GDAL's names for the layer geometry type it settles on.
GDAL_TYPE = {"Point": "Point", "LineString": "Line String", "Polygon": "Polygon"}
NUMERIC = {"Integer", "Integer64", "Real"}


def report(ok, name, why=""):
    print(f"ok {name}" if ok else f"FAIL {name}: {why}", flush=True)


def get_json(url):
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        print(s.getsockname()[1])


def ready(url):
    try:
        with urllib.request.urlopen(f"{url}/readyz", timeout=2) as answer:
            sys.exit(0 if answer.status == 200 else 1)
    except OSError:
        sys.exit(1)


def login(url, email, password):
    body = json.dumps({"email": email, "password": password}).encode()
    request = urllib.request.Request(f"{url}/v1/auth/login", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        session = json.load(answer)
    print(session["token"], session["account"]["id"])


def junit(label, path):
    try:
        cases = ET.parse(path).getroot().iter("testcase")
    except (OSError, ET.ParseError) as error:
        report(False, f"schemathesis {label}", f"no JUnit report, did it finish within its time bound? ({error})")
        return
    for case in cases:
        problems = [f.get("message") or f.tag for f in case if f.tag in ("failure", "error")]
        report(not problems, f"schemathesis {label}: {case.get('name')}", ", ".join(problems))


def all_features(url):
    """Every feature of a collection, following `next` links as GDAL does; and the first page."""
    page = first = get_json(f"{url}?f=json&limit=1000")
    features = list(page["features"])
    for _ in range(1000):
        nxt = [l["href"] for l in page.get("links", []) if l.get("rel") == "next"]
        if not nxt:
            break
        page = get_json(nxt[0])
        features += page["features"]
    return first, features


def expected_geometry(features):
    """A layer of Polygons and MultiPolygons can only be stored as MultiPolygon."""
    types = {f["geometry"]["type"] for f in features if f.get("geometry")}
    bases = {t.removeprefix("Multi") for t in types}
    if len(bases) != 1 or next(iter(bases)) not in GDAL_TYPE:
        return "Unknown (any)"
    base = GDAL_TYPE[bases.pop()]
    return f"Multi {base}" if any(t.startswith("Multi") for t in types) else base


def ogrinfo_layer(source, layer):
    run = subprocess.run(["ogrinfo", "-ro", "-so", source, layer],
                         capture_output=True, text=True, timeout=120)
    geometry = re.search(r"^Geometry: (.+)$", run.stdout, re.M)
    count = re.search(r"^Feature Count: (-?\d+)$", run.stdout, re.M)
    # Field lines follow the SRS block: "name: Type (width.precision)", Type possibly "String(JSON)".
    fields = dict(re.findall(r"^(\S[^\n]*?): (\w+(?:\(\w+\))?) \(\d+\.\d+\)$", run.stdout, re.M))
    noise = [l for l in run.stderr.splitlines() if l.strip() and not l.startswith("INFO")]
    return run.returncode, geometry and geometry.group(1), count and int(count.group(1)), fields, noise


def words(name):
    """'statistics.counts.7d' -> statistics counts 7d; 'countAll' -> count all."""
    return {w.lower() for w in re.findall(r"\d+[a-z]*|[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)}


def gdal(url, folder):
    source = f"OAPIF:{url}/"
    collections = [c["id"] for c in get_json(f"{url}/collections")["collections"]]
    report(bool(collections), "service lists collections", "GET /collections is empty")
    matched = {}
    for layer in collections:
        first, features = all_features(f"{url}/collections/{layer}/items")
        matched[layer] = first.get("numberMatched", len(features))
        windows = (first.get("statistics") or {}).get("windows") or ["7d", "14d", "28d", "all"]
        rc, geometry, _, fields, noise = ogrinfo_layer(source, layer)
        report(rc == 0 and not noise, f"ogrinfo {layer}: opens cleanly", f"exit {rc}; " + " | ".join(noise))
        want = expected_geometry(features)
        report(geometry == want, f"ogrinfo {layer}: geometry type {want}", f"GDAL reports {geometry}")
        # Nested objects reach GIS clients as one opaque String(JSON) field: every statistics
        # window should be a field of its own with a numeric type.
        opaque = [n for n, t in fields.items() if t == "String(JSON)"]
        untyped = [w for w in windows if not any(w in words(n) and t in NUMERIC for n, t in fields.items())]
        report(not opaque and not untyped, f"ogrinfo {layer}: statistics listed as typed fields",
               f"fields {fields}; JSON blobs {opaque}; no numeric field for windows {untyped}")

    gpkg = f"{folder}/collections.gpkg"
    run = subprocess.run(["ogr2ogr", "-f", "GPKG", gpkg, source], capture_output=True, text=True, timeout=300)
    noise = [l for l in run.stderr.splitlines() if l.strip()]
    report(run.returncode == 0 and not noise, "ogr2ogr every collection into one GeoPackage",
           f"exit {run.returncode}; " + " | ".join(noise))
    for layer in collections:
        rc, _, count, _, _ = ogrinfo_layer(gpkg, layer)
        report(count == matched[layer], f"ogr2ogr {layer}: {matched[layer]} features (numberMatched)",
               f"the GeoPackage has {count}")


# Families an operator's dashboards and alerts rely on (docs/runbooks.md, "Metrics and alerts").
METRIC_FAMILIES = [
    "geoserve_http_requests", "geoserve_http_request_duration_seconds", "geoserve_http_requests_in_flight",
    "geoserve_intake_batch_size", "geoserve_intake_commit_seconds", "geoserve_store_call_seconds",
    "geoserve_tile_renders", "geoserve_cache_hits", "geoserve_cache_misses", "geoserve_cache_bytes",
    "geoserve_catalog_refreshes", "geoserve_data_version", "geoserve_publication", "geoserve_publication_age_seconds",
    "geoserve_ready", "geoserve_build_info",
]


def scrape(url):
    from prometheus_client.parser import text_string_to_metric_families
    with urllib.request.urlopen(f"{url}/metrics", timeout=30) as answer:
        kind = answer.headers.get("Content-Type", "")
        text = answer.read().decode()
    # The parser raises on any line outside the text format (version 0.0.4).
    return kind, {family.name: family for family in text_string_to_metric_families(text)}


def sample(families, family, name, **labels):
    for s in families[family].samples if family in families else []:
        if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
            return s.value
    return 0.0


def metrics(url):
    get_json(f"{url}/collections/halls/items")    # request families appear with the first request
    kind, before = scrape(url)
    report(kind.startswith("text/plain") and "version=0.0.4" in kind, "metrics: Content-Type is the text format 0.0.4", kind)
    missing = [f for f in METRIC_FAMILIES if f not in before]
    report(not missing, f"metrics: prometheus_client parses {len(before)} families, all expected ones there", f"missing {missing}")
    raw = [s.labels.get("route") for f in before.values() for s in f.samples if "route" in s.labels]
    report(all(r == "unmatched" or r.startswith("/") for r in raw) and not any(re.search(r"/\d|[0-9a-f]{16}", r or "") for r in raw),
           "metrics: routes are patterns, never raw paths", f"{sorted(set(raw))}")
    items = dict(name="geoserve_http_requests_total", route="/collections/{layer}/items", method="GET", status_class="2xx")
    n = sample(before, "geoserve_http_requests", **items)
    for _ in range(3):
        get_json(f"{url}/collections/halls/items")
    _, after = scrape(url)
    moved = sample(after, "geoserve_http_requests", **items) - n
    report(moved >= 3, "metrics: the request counter moves with requests", f"moved by {moved} after 3 requests")
    per_area = [f for f in after if re.search(r"area|hall|zone|report_id|account", f)]
    report(not per_area, "metrics: nothing per area, report or account", f"{per_area}")
    # Prometheus's own linter: a HELP line for every family, names and units by its conventions.
    with urllib.request.urlopen(f"{url}/metrics", timeout=30) as answer:
        text = answer.read()
    lint = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, timeout=60)
    problems = (lint.stdout + lint.stderr).decode(errors="replace").strip()
    report(lint.returncode == 0, "metrics: promtool check metrics finds nothing", problems[:2000])


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    try:
        {"free-port": free_port, "ready": ready, "login": login, "junit": junit, "gdal": gdal, "metrics": metrics}[command](*args)
    except (OSError, ValueError, KeyError, subprocess.SubprocessError) as error:
        # A service or tool that breaks mid-way is a failed check (counted by run.sh), not a traceback.
        if command in ("junit", "gdal", "metrics"):
            report(False, f"{command} {args[0]}", f"{type(error).__name__}: {error}")
        else:
            print(f"{command}: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
