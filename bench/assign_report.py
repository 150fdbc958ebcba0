#!/usr/bin/env python3
"""Helper of bench/assign.sh (python3 standard library only).

    assign_report.py record --round R --polys P --points S < geoserve-output
        Takes the JSON line `geoserve bench assign` printed and writes it back as one JSON line
        with round, polys and points (the point set's name) added. geoserve's own "points" field
        (the number of points) is renamed "n", the name the peers' records use for it.

    assign_report.py report --peers PEERS_COPY --work WORK_DIR
        Markdown tables from PEERS_COPY/results/raw/pip.jsonl, PEERS_COPY/results/counts/ and
        WORK_DIR/geoserve.jsonl, WORK_DIR/counts/geoserve.t{1,2}__{polys}__{points}.csv.
"""
import argparse
import json
import math
import os
import statistics
import sys

POLYSETS = ["chicago_areas", "chicago_cells"]
POINTSETS = ["points_uniform", "points_clustered"]
LABEL = {"chicago_areas": "77 areas", "chicago_cells": "4,000 cells",
         "points_uniform": "uniform", "points_clustered": "clustered"}
PEERS = ["geos.capi", "grid.naive", "shapely.contains_xy", "duckdb.t1", "pg.w0"]
AGREE_WITH = ["shapely.contains_xy", "pg.w0"]
GEOSERVE_FIELDS = ["points", "areas", "threads", "load_seconds", "build_seconds", "assign_seconds",
                   "points_per_second", "end_to_end_points_per_second", "unassigned", "peak_rss_bytes"]


def record(args):
    lines = [l for l in sys.stdin.read().splitlines() if l.strip()]
    if not lines:
        sys.exit("assign_report.py record: geoserve printed nothing")
    try:
        g = json.loads(lines[-1])
    except json.JSONDecodeError as e:
        sys.exit(f"assign_report.py record: not JSON: {lines[-1]!r} ({e})")
    missing = [f for f in GEOSERVE_FIELDS if f not in g]
    if missing:
        sys.exit(f"assign_report.py record: geoserve's line lacks {missing}: {lines[-1]}")
    out = {"bench": "geoserve", "round": args.round, "polys": args.polys, "points": args.points,
           "n": g.pop("points")}
    out.update(g)
    print(json.dumps(out))


# ---------------------------------------------------------------------------------------------
def median_of_rounds(by_round):
    """by_round: round -> list of values. Median per round, then median over rounds."""
    if not by_round:
        return math.nan
    return statistics.median(statistics.median(v) for v in by_round.values())


def load_peer_rates(path):
    """(method, polys, points) -> {round: [points/s of each timed repetition]}, phase total."""
    rates = {}
    if not os.path.exists(path):
        return rates
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r.get("bench") != "pip" or r.get("phase") != "total" or not r["secs"] > 0:
                continue
            key = (r["method"], r["polys"], r["points"])
            rates.setdefault(key, {}).setdefault(r["round"], []).append(r["n"] / r["secs"])
    return rates


def load_geoserve(path):
    """(threads, polys, points) -> list of records (one per round)."""
    runs = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                runs.setdefault((r["threads"], r["polys"], r["points"]), []).append(r)
    return runs


def feature_ids(geojson_path):
    """Area ids in file feature order: the `id` property, else the feature's id, else the ordinal."""
    with open(geojson_path) as f:
        feats = json.load(f)["features"]
    ids = []
    for i, ft in enumerate(feats):
        v = (ft.get("properties") or {}).get("id", ft.get("id", i))
        ids.append(str(v))
    return ids


def read_geoserve_csv(path):
    """-> ({area_id: count}, [area ids in row order], unassigned). CRLF or LF line ends."""
    with open(path, newline="") as f:
        rows = [l.split(",") for l in f.read().splitlines() if l]
    if not rows or rows[0] != ["area_id", "count"]:
        raise ValueError(f"{path}: header is not area_id,count")
    if rows[-1][0] != "unassigned":
        raise ValueError(f"{path}: last row is not unassigned")
    order = [r[0] for r in rows[1:-1]]
    return {r[0]: int(r[1]) for r in rows[1:-1]}, order, int(rows[-1][1])


def read_peer_counts(path):
    with open(path) as f:
        return [int(x) for x in f.read().split()]


def fmt_rate(x):
    return "–" if math.isnan(x) else f"{x / 1e6:.2f} M"


def fmt_ratio(x, target):
    if math.isnan(x):
        return "–"
    return f"{x:.2f} {'✓' if x >= target else '✗'}"


def report(args):
    results = os.path.join(args.peers, "results")
    peer = load_peer_rates(os.path.join(results, "raw", "pip.jsonl"))
    ours = load_geoserve(os.path.join(args.work, "geoserve.jsonl"))
    rounds = sorted({r["round"] for v in ours.values() for r in v})
    reps = os.environ.get("BENCH_REPS", "?")
    out = []
    p = out.append

    def gs(threads, ps, pn, field="end_to_end_points_per_second"):
        v = [r[field] for r in ours.get((threads, ps, pn), [])]
        return statistics.median(v) if v else math.nan

    def pr(method, ps, pn):
        return median_of_rounds(peer.get((method, ps, pn), {}))

    p("## Point-in-polygon assignment: geoserve beside the peers\n")
    p(f"{len(rounds)} interleaved round(s), {reps} timed repetitions per round; "
      f"{os.cpu_count()} CPU(s). 1,000,000 points per set.\n")
    p("### End to end, points/s (median over rounds)\n")
    cols = ["geoserve t1", "geoserve t2"] + [f"{m}" for m in PEERS]
    p("| polygons | points | " + " | ".join(cols) + " |")
    p("|---|---|" + "---:|" * len(cols))
    for ps in POLYSETS:
        for pn in POINTSETS:
            vals = [gs(1, ps, pn), gs(2, ps, pn)] + [pr(m, ps, pn) for m in PEERS]
            p(f"| {LABEL[ps]} | {LABEL[pn]} | " + " | ".join(fmt_rate(v) for v in vals) + " |")
    p("")
    p("geoserve: points / (build_seconds + assign_seconds), each a median over the repetitions of a run "
      "(GeoJSON load excluded; median load_seconds: "
      + ", ".join(f"{LABEL[ps]} {statistics.median(r['load_seconds'] for t in (1, 2) for pn in POINTSETS for r in ours.get((t, ps, pn), [])):.3f} s"
                  for ps in POLYSETS if any(ours.get((t, ps, pn)) for t in (1, 2) for pn in POINTSETS))
      + "). Peers: phase \"total\" of their pip.jsonl records (geos.capi, grid.naive: parse of the "
      "prepared input + index build + query; shapely: point objects + STRtree + prepare + query; "
      "duckdb.t1: table load + query; pg.w0: COPY + ST_MakePoint + GiST + query).\n")

    p("### Ratios against the targets (ratios of the medians above)\n")
    heads = ["geoserve t1 / geos.capi (≥ 3)", "geoserve t1 / grid.naive (≥ 0.5)", "geoserve t2 / geoserve t1 (≥ 1.8)"]
    p("| polygons | points | " + " | ".join(heads) + " |")
    p("|---|---|" + "---:|" * len(heads))
    for ps in POLYSETS:
        for pn in POINTSETS:
            t1, t2 = gs(1, ps, pn), gs(2, ps, pn)
            vals = [(t1 / pr("geos.capi", ps, pn), 3.0), (t1 / pr("grid.naive", ps, pn), 0.5), (t2 / t1, 1.8)]
            p(f"| {LABEL[ps]} | {LABEL[pn]} | " + " | ".join(fmt_ratio(v, t) for v, t in vals) + " |")
    p("")
    rss = {(t, pn): max((r["peak_rss_bytes"] for r in ours.get((t, "chicago_cells", pn), [])), default=None)
           for t in (1, 2) for pn in POINTSETS}
    known = [v for v in rss.values() if v is not None]
    if known:
        p(f"geoserve peak RSS, 4,000-cell layer + 1,000,000 points: **{max(known) / 2**20:.0f} MiB** (max over runs; "
          + ", ".join(f"{LABEL[pn]} t{t} {v / 2**20:.0f} MiB" for (t, pn), v in rss.items() if v is not None) + ")\n")
    else:
        p("geoserve peak RSS, 4,000-cell layer: no runs recorded\n")

    # --- agreement -------------------------------------------------------------------------------
    p("### Per-area agreement of the counts\n")
    p("geoserve's CSV (rows matched to features by area_id) against the peers' counts files "
      "(one line per feature, file order).\n")
    p("| polygons | points | areas | geoserve t1 vs t2 | differ from " + " | differ from ".join(AGREE_WITH)
      + " | geoserve unassigned |")
    p("|---|---|---:|---|" + "---:|" * len(AGREE_WITH) + "---:|")
    details, problems = [], []
    for ps in POLYSETS:
        for pn in POINTSETS:
            ids = feature_ids(os.path.join(args.peers, "data", ps + ".geojson"))
            tables = {}
            for t in (1, 2):
                path = os.path.join(args.work, "counts", f"geoserve.t{t}__{ps}__{pn}.csv")
                if os.path.exists(path):
                    by_id, order, unassigned = read_geoserve_csv(path)
                    if order != ids:
                        problems.append(f"{LABEL[ps]} / {LABEL[pn]} t{t}: CSV rows are not the file's feature order")
                    if set(by_id) != set(ids):
                        problems.append(f"{LABEL[ps]} / {LABEL[pn]} t{t}: CSV area ids differ from the GeoJSON's "
                                        f"(missing {len(set(ids) - set(by_id))}, extra {len(set(by_id) - set(ids))})")
                    runs = ours.get((t, ps, pn), [])
                    if runs and sum(by_id.values()) + unassigned != runs[-1]["n"]:
                        problems.append(f"{LABEL[ps]} / {LABEL[pn]} t{t}: counts + unassigned != {runs[-1]['n']} points")
                    tables[t] = ([by_id.get(i, 0) for i in ids], unassigned)
            if not tables:
                p(f"| {LABEL[ps]} | {LABEL[pn]} | {len(ids)} | no geoserve CSV |" + " – |" * (len(AGREE_WITH) + 1))
                problems.append(f"{LABEL[ps]} / {LABEL[pn]}: no geoserve CSV")
                continue
            if len(tables) == 2:
                same = tables[1] == tables[2]
                t1t2 = "identical" if same else "**differ**"
                if not same:
                    problems.append(f"{LABEL[ps]} / {LABEL[pn]}: 1-thread and 2-thread counts differ")
            else:
                t1t2 = "only t" + str(next(iter(tables)))
            ours_counts, unassigned = tables[1] if 1 in tables else tables[2]
            cells = []
            for m in AGREE_WITH:
                path = os.path.join(results, "counts", f"{m}__{ps}__{pn}.txt")
                if not os.path.exists(path):
                    cells.append("missing")
                    problems.append(f"{LABEL[ps]} / {LABEL[pn]}: no {m} counts")
                    continue
                theirs = read_peer_counts(path)
                if len(theirs) != len(ids):
                    cells.append(f"{len(theirs)} lines?")
                    problems.append(f"{LABEL[ps]} / {LABEL[pn]}: {m} has {len(theirs)} counts for {len(ids)} areas")
                    continue
                diff = [(ids[i], ours_counts[i], theirs[i]) for i in range(len(ids)) if ours_counts[i] != theirs[i]]
                cells.append(str(len(diff)))
                details += [f"| {LABEL[ps]} | {LABEL[pn]} | {m} | {a} | {g} | {t} | {g - t:+d} |" for a, g, t in diff]
            p(f"| {LABEL[ps]} | {LABEL[pn]} | {len(ids)} | {t1t2} | " + " | ".join(cells) + f" | {unassigned:,} |")
    p("")
    if details:
        p("Areas whose counts differ:\n")
        p("| polygons | points | peer | area | geoserve | peer | difference |")
        p("|---|---|---|---:|---:|---:|---:|")
        out.extend(details)
        p("")
    elif not problems:
        p("All per-area counts agree.\n")
    if problems:
        p("Problems:\n")
        out.extend(f"- {x}" for x in problems)
        p("")
    print("\n".join(out).rstrip() + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("record")
    a.add_argument("--round", type=int, required=True)
    a.add_argument("--polys", required=True)
    a.add_argument("--points", required=True)
    b = sub.add_parser("report")
    b.add_argument("--peers", required=True)
    b.add_argument("--work", required=True)
    args = ap.parse_args()
    record(args) if args.cmd == "record" else report(args)


if __name__ == "__main__":
    main()
