#!/usr/bin/env python3
"""Tables for bench/assign-vs-peers.sh: geoserve's points/s beside the peers', the ratios the
targets name, and per-area agreement of the counts.

    assign_table.py PEER_RESULTS_DIR WORK_DIR
"""
import json
import os
import statistics
import sys

results, work = sys.argv[1], sys.argv[2]
SETS = [("chicago_areas", "points_uniform"), ("chicago_areas", "points_clustered"),
        ("chicago_cells", "points_uniform"), ("chicago_cells", "points_clustered")]
LABEL = {"chicago_areas": "77 areas", "chicago_cells": "4k cells", "points_uniform": "uniform", "points_clustered": "clustered"}

peer = {}
for line in open(os.path.join(results, "raw", "pip.jsonl")):
    r = json.loads(line)
    if r["phase"] == "total":
        peer.setdefault((r["method"], r["polys"], r["points"]), {}).setdefault(r["round"], []).append(r["n"] / r["secs"])
ours = {}
for line in open(os.path.join(work, "geoserve.jsonl")):
    r = json.loads(line)
    ours.setdefault((r["threads"], r["polys"], r["points"]), []).append(r)


def peer_rate(method, ps, pn):
    rounds = peer.get((method, ps, pn), {})
    return statistics.median(statistics.median(v) for v in rounds.values()) if rounds else float("nan")


def our_rate(threads, ps, pn, field="end_to_end_points_per_second"):
    rows = ours.get((threads, ps, pn), [])
    return statistics.median(r[field] for r in rows) if rows else float("nan")


def per_round_ratio(a, b):
    """Median over rounds of a(round) / b(round); a and b map round -> rate."""
    common = sorted(set(a) & set(b))
    return statistics.median(a[r] / b[r] for r in common) if common else float("nan")


def our_rounds(threads, ps, pn):
    return {r["round"]: r["end_to_end_points_per_second"] for r in ours.get((threads, ps, pn), [])}


def peer_rounds(method, ps, pn):
    return {r: statistics.median(v) for r, v in peer.get((method, ps, pn), {}).items()}


def fmt(x):
    return f"{x / 1e6:.2f}M" if x == x else "-"


head = "| | " + " | ".join(f"{LABEL[p]} / {LABEL[q]}" for p, q in SETS) + " |"
rule = "|---" * (len(SETS) + 1) + "|"
print("### Point assignment, end to end (index build + assignment), points/s, median over rounds\n")
print(head)
print(rule)
rows = [("geoserve, 1 thread", lambda p, q: our_rate(1, p, q)), ("geoserve, 2 threads", lambda p, q: our_rate(2, p, q)),
        ("geoserve, 1 thread, assignment only", lambda p, q: our_rate(1, p, q, "points_per_second"))]
rows += [(m, (lambda m: lambda p, q: peer_rate(m, p, q))(m)) for m in
         ["geos.capi", "geos.capi.morton", "grid.naive", "shapely.contains_xy", "shapely.prep_contains", "duckdb.t1", "duckdb.t2", "pg.w0", "pg.w2"]]
for name, f in rows:
    print(f"| {name} | " + " | ".join(fmt(f(p, q)) for p, q in SETS) + " |")

print("\n### Ratios against the targets (median of the per-round ratios)\n")
print(head)
print(rule)
ratios = [("geoserve 1t / geos.capi (target ≥ 3)", lambda p, q: per_round_ratio(our_rounds(1, p, q), peer_rounds("geos.capi", p, q))),
          ("geoserve 1t / grid.naive (target ≥ 0.5)", lambda p, q: per_round_ratio(our_rounds(1, p, q), peer_rounds("grid.naive", p, q))),
          ("geoserve 2t / geoserve 1t (target ≥ 1.8)", lambda p, q: per_round_ratio(our_rounds(2, p, q), our_rounds(1, p, q)))]
for name, f in ratios:
    print(f"| {name} | " + " | ".join(f"{f(p, q):.2f}" for p, q in SETS) + " |")
rss = [r["peak_rss_bytes"] for k, v in ours.items() if k[1] == "chicago_cells" for r in v]
print(f"\ngeoserve peak RSS, 4,000 cells + 1,000,000 points: {max(rss) / 2**20:.0f} MiB (max over runs)\n")

print("### Per-area agreement with shapely and PostGIS\n")
print("| polygons / points | areas | differ from shapely.contains_xy | differ from pg.w0 | unassigned |")
print("|---|---|---|---|---|")
details = []
for ps, pn in SETS:
    lines = open(os.path.join(work, "counts", f"geoserve__{ps}__{pn}.csv")).read().splitlines()[1:]
    rows = [l.split(",") for l in lines if l]
    counts = [int(c) for _, c in rows[:-1]]
    cells = []
    for method in ("shapely.contains_xy", "pg.w0"):
        path = os.path.join(results, "counts", f"{method}__{ps}__{pn}.txt")
        theirs = [int(x) for x in open(path).read().split()]
        diff = [(i, counts[i], theirs[i]) for i in range(len(counts)) if counts[i] != theirs[i]]
        cells.append(str(len(diff)))
        details += [f"- {LABEL[ps]} / {LABEL[pn]}, area {rows[i][0]}: geoserve {a}, {method} {b}" for i, a, b in diff]
    print(f"| {LABEL[ps]} / {LABEL[pn]} | {len(counts)} | {cells[0]} | {cells[1]} | {rows[-1][1]} |")
if details:
    print("\nDifferences (points on shared edges count once in geoserve, for the area with the smallest id):")
    print("\n".join(details))
