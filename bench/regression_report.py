#!/usr/bin/env python3
"""Helper of bench/regression.sh (standard library only).

    regression_report.py inputs CELLS.geojson OUT_DIR POINTS
        writes OUT_DIR/points_uniform.f64 (POINTS little-endian float64 lon,lat pairs, uniform in
        the cells' bounding box, fixed seed) and OUT_DIR/tiles_z12.txt, tiles_z14.txt,
        tiles_z16.txt ("z x y" lines: every tile over the cells' bounding box at z12 and z14, a
        seeded sample of 600 at z16, the rule of the peers' render_mapnik.py)
    regression_report.py record RESULTS.jsonl BINARY ROUND KIND [WORKLOAD]
        reads the output of one measurement on stdin and appends one JSON line per figure:
        KIND assign (one `geoserve bench assign` line; WORKLOAD names the inputs),
        tiles (the lines of `geoserve bench tiles`), wrk (the JSON line of the wrk scripts'
        done(); WORKLOAD names the shape), skip (a note: WORKLOAD skipped for BINARY)
    regression_report.py table RESULTS.jsonl TOLERANCE_PERCENT
        prints the Markdown table: medians over rounds per binary, the median of the per-round
        after/before ratios, the per-round ratios and a verdict against the tolerance
"""
import json
import math
import random
import statistics
import struct
import sys

R = 6378137.0 * math.pi


def bbox(path):
    x0 = y0 = math.inf
    x1 = y1 = -math.inf

    def walk(c):
        nonlocal x0, y0, x1, y1
        if isinstance(c[0], (int, float)):
            x0, x1 = min(x0, c[0]), max(x1, c[0])
            y0, y1 = min(y0, c[1]), max(y1, c[1])
        else:
            for d in c:
                walk(d)

    for f in json.load(open(path))["features"]:
        walk(f["geometry"]["coordinates"])
    return x0, y0, x1, y1


def mercator(lon, lat):
    return (lon * R / 180.0,
            math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) * 6378137.0)


def inputs(cells, out, n):
    x0, y0, x1, y1 = bbox(cells)
    rng = random.Random(20261122)
    with open(f"{out}/points_uniform.f64", "wb") as f:
        chunk = 65536
        for start in range(0, n, chunk):
            k = min(chunk, n - start)
            vals = []
            for _ in range(k):
                vals.append(rng.uniform(x0, x1))
                vals.append(rng.uniform(y0, y1))
            f.write(struct.pack(f"<{2 * k}d", *vals))
    mx0, my0 = mercator(x0, y0)
    mx1, my1 = mercator(x1, y1)
    for z in (12, 14, 16):
        s = 2 * R / 2 ** z
        tx0, tx1 = int((mx0 + R) // s), int((mx1 + R) // s)
        ty0, ty1 = int((R - my1) // s), int((R - my0) // s)
        tiles = [(z, x, y) for y in range(ty0, ty1 + 1) for x in range(tx0, tx1 + 1)]
        if len(tiles) > 600:
            tiles = random.Random(16).sample(tiles, 600)
        with open(f"{out}/tiles_z{z}.txt", "w") as f:
            f.write("".join(f"{a} {b} {c}\n" for a, b, c in tiles))
        print(f"z{z}: {len(tiles)} tiles", file=sys.stderr)
    print(f"{n} points in {x0:.4f},{y0:.4f},{x1:.4f},{y1:.4f}", file=sys.stderr)


def json_lines(text):
    for line in text.splitlines():
        line = line.strip()
        i = line.find("{")
        if i >= 0:
            yield json.loads(line[i:])


def record(path, binary, rnd, kind, workload):
    text = sys.stdin.read()
    rows = []

    def add(work, figure, unit, value, better, errors=0):
        rows.append({"binary": binary, "round": int(rnd), "workload": work, "figure": figure,
                     "unit": unit, "value": value, "better": better, "errors": errors})

    if kind == "assign":
        d = next(json_lines(text))
        add(f"assign {workload}, 1 thread", "end to end (build + assign)", "points/s",
            d["end_to_end_points_per_second"], "higher")
        add(f"assign {workload}, 1 thread", "assignment only", "points/s", d["points_per_second"], "higher")
    elif kind == "tiles":
        for d in json_lines(text):
            add(f"tiles uncached z{d['zoom']} ({d['tiles']} tiles, 1 thread)", "rendered", "tiles/s",
                d["tiles_per_second"], "higher")
    elif kind == "wrk":
        d = next(json_lines(text))
        name, unit = workload.split("|")
        add(name, "throughput", unit, d["requests"] / d["seconds"], "higher", d["errors"])
        add(name, "p99", "ms", d["p99_ms"], "lower", d["errors"])
    elif kind == "publication":
        d = next(json_lines(text))
        name = f"publication planning, {workload}"
        add(name, "plan one publication (median)", "ms", d["plan_ms_median"], "lower")
        add(name, "first publication replaying the history", "ms", d["replay_ms"], "lower")
    elif kind == "skip":
        rows.append({"binary": binary, "round": int(rnd), "skip": workload})
    else:
        sys.exit(f"unknown kind {kind}")
    with open(path, "a") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def fmt(v, unit):
    if unit == "ms":
        return f"{v:.2f}"
    if v >= 1e6:
        return f"{v / 1e6:.2f}M"
    return f"{v:,.0f}"


def table(path, tolerance):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    skips = sorted({(r["binary"], r["skip"]) for r in rows if "skip" in r})
    rows = [r for r in rows if "skip" not in r]
    keys = []
    for r in rows:
        k = (r["workload"], r["figure"], r["unit"], r["better"])
        if k not in keys:
            keys.append(k)
    tol = tolerance / 100
    out = ["| workload | figure | before | after | after/before | per round | verdict |",
           "|---|---|---|---|---|---|---|"]
    worse = []
    errors = {}
    for k in keys:
        sel = [r for r in rows if (r["workload"], r["figure"], r["unit"], r["better"]) == k]
        by = {b: {r["round"]: r["value"] for r in sel if r["binary"] == b} for b in ("before", "after")}
        for r in sel:
            if r["errors"]:
                errors[(r["binary"], k[0])] = errors.get((r["binary"], k[0]), 0) + r["errors"]
        med = {b: statistics.median(v.values()) if v else None for b, v in by.items()}
        rounds = sorted(set(by["before"]) & set(by["after"]))
        ratios = [by["after"][i] / by["before"][i] for i in rounds if by["before"][i] > 0]
        figure = f"{k[1]} ({k[2]}, {'higher' if k[3] == 'higher' else 'lower'} is better)"
        if not ratios:
            cells = [fmt(med[b], k[2]) if med[b] is not None else "–" for b in ("before", "after")]
            out.append(f"| {k[0]} | {figure} | {cells[0]} | {cells[1]} | – | – | not compared |")
            continue
        ratio = statistics.median(ratios)
        if k[3] == "higher":
            verdict = "ok" if ratio >= 1 - tol else f"**worse by {(1 - ratio) * 100:.1f} %**"
            if ratio > 1 + tol:
                verdict = "better"
        else:
            verdict = "ok" if ratio <= 1 + tol else f"**worse by {(ratio - 1) * 100:.1f} %**"
            if ratio < 1 - tol:
                verdict = "better"
        if verdict.startswith("**"):
            worse.append(f"{k[0]} {k[1]}")
        out.append(f"| {k[0]} | {figure} | {fmt(med['before'], k[2])} | {fmt(med['after'], k[2])} | "
                   f"{ratio:.3f} | {', '.join(f'{x:.3f}' for x in ratios)} | {verdict} |")
    nrounds = len({r["round"] for r in rows})
    out.append("")
    out.append(f"before / after: medians over {nrounds} round(s); after/before: median of the per-round "
               f"ratios (rounds alternate before, after); tolerance {tolerance:g} %.")
    for (b, w), n in sorted(errors.items()):
        out.append(f"- warning: {b}: {n} wrk errors (non-2xx answers, timeouts or socket errors) in {w}")
    for b, s in skips:
        out.append(f"- skipped for {b}: {s}")
    out.append(f"- verdict: {'no figure worse by more than ' + format(tolerance, 'g') + ' %' if not worse else 'worse by more than ' + format(tolerance, 'g') + ' %: ' + '; '.join(worse)}")
    print("\n".join(out))


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "inputs":
        inputs(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif cmd == "record":
        record(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6] if len(sys.argv) > 6 else "")
    elif cmd == "table":
        table(sys.argv[2], float(sys.argv[3]))
    else:
        sys.exit(__doc__)
