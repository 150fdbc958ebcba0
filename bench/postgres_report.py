#!/usr/bin/env python3
"""Helper of bench/postgres.sh (standard library only).

    postgres_report.py record RESULTS.jsonl KIND ID ROUND "WORKLOAD|LABEL|UNIT"
        reads one measurement on stdin and appends its figures to RESULTS.jsonl; prints how many
        requests or transactions succeeded (for the stored-rows check):
          wrk      the JSON lines of the wrk scripts' done() (one per wrk instance run at once):
                   ID = the summed rate in UNIT, ID.p99 = the largest p99 in ms
          pgbench  pgbench's summary: ID = tps (without initial connection time) in UNIT,
                   ID.latency = latency average in ms
          value    one number: ID in UNIT
    postgres_report.py ratio RESULTS.jsonl ID NUM_ID DEN_ID TARGET "WORKLOAD|LABEL"
        declares a ratio NUM/DEN (the median of the per-round ratios); TARGET is the smallest
        acceptable value, or - for none
    postgres_report.py succeeded
        prints how many requests or transactions succeeded in the wrk JSON lines or the pgbench
        summary on stdin (for runs that are not recorded, such as warm-ups)
    postgres_report.py note RESULTS.jsonl TEXT
        a line printed under the tables
    postgres_report.py placements BASE_URL
        reads lines "LON LAT LAYER/VERSION/AREA,..." (the areas the full-report pgbench script
        wrote for a report, - for none) on stdin, posts each point to the geoserve at BASE_URL as
        bench/reports.lua does, and compares the areas geoserve answers; prints how many were
        checked, or exits non-zero naming the points placed differently
    postgres_report.py table RESULTS.jsonl
        prints the Markdown tables: medians per figure with every round, then the ratios with
        their targets and verdicts, then the notes
"""
import json
import re
import statistics
import sys
import urllib.error
import urllib.request


def append(path, rows):
    with open(path, "a") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def json_lines(text):
    for line in text.splitlines():
        i = line.find("{")
        if i >= 0 and line.rstrip().endswith("}"):
            yield json.loads(line[i:])


def succeeded(text):
    runs = list(json_lines(text))
    if runs:
        return sum(d["requests"] - d["errors"] for d in runs)
    m = re.search(r"^number of transactions actually processed: (\d+)", text, re.M)
    if not m:
        sys.exit("neither a wrk summary line nor a pgbench summary in the input")
    return int(m.group(1))


def record(path, kind, fid, rnd, spec):
    workload, label, unit = spec.split("|")
    text = sys.stdin.read()
    rows = []

    def add(i, lab, u, value, better, errors):
        rows.append({"type": "figure", "id": i, "workload": workload, "label": lab, "unit": u,
                     "round": int(rnd), "value": value, "better": better, "errors": errors})

    if kind == "wrk":
        runs = list(json_lines(text))
        if not runs:
            sys.exit("no wrk summary line in the input")
        rate = sum(d["requests"] / d["seconds"] for d in runs)
        errors = sum(d["errors"] for d in runs)
        add(fid, label, unit, rate, "higher", errors)
        add(fid + ".p99", label, "p99 ms", max(d["p99_ms"] for d in runs), "lower", errors)
        ok = sum(d["requests"] for d in runs) - errors
    elif kind == "pgbench":
        def grab(pattern):
            m = re.search(pattern, text, re.M)
            if not m:
                sys.exit(f"pgbench's output has no match for {pattern!r}:\n{text}")
            return m.group(1)
        tps = float(grab(r"^tps = ([0-9.]+) \(without initial connection time\)"))
        latency = float(grab(r"^latency average = ([0-9.]+) ms"))
        processed = int(grab(r"^number of transactions actually processed: (\d+)"))
        m = re.search(r"^number of failed transactions: (\d+)", text, re.M)
        failed = int(m.group(1)) if m else 0
        add(fid, label, unit, tps, "higher", failed)
        add(fid + ".latency", label, "latency avg ms", latency, "lower", failed)
        ok = processed
    elif kind == "value":
        value = float(text.strip())
        add(fid, label, unit, value, "higher", 0)
        ok = 0
    else:
        sys.exit(f"unknown kind {kind}")
    append(path, rows)
    print(ok)


def placements(base):
    body = ('{"kind":"misconduct","occurredAt":"2026-11-02T21:30:00Z","location":{"lon":%s,"lat":%s,"accuracyM":10},'
            '"officerDescription":"tall, grey uniform","incidentDescription":"stopped without reason","anonymous":true}')
    checked, in_two, wrong = 0, 0, []
    for line in sys.stdin:
        if not line.strip():
            continue
        lon, lat, wrote = line.split()
        request = urllib.request.Request(f"{base}/v1/reports", (body % (lon, lat)).encode(),
                                         {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                areas = json.load(answer)["areas"]
            placed = ",".join(sorted(f"{a['layer']}/{a['layerVersion']}/{a['areaID']}" for a in areas)) or "-"
        except urllib.error.HTTPError as e:
            placed = f"refused ({e.code})"
        checked += 1
        in_two += wrote.count(",") > 0
        if placed != ",".join(sorted(wrote.split(","))):
            wrong.append(f"({lon}, {lat}): the script wrote {wrote}, geoserve placed it in {placed}")
    if not checked:
        sys.exit("no points to check")
    if wrong:
        sys.exit(f"{len(wrong)} of {checked} points placed differently:\n" + "\n".join(wrong[:20]))
    print(f"{checked} points ({in_two} of them in two layers)")


def fmt(v, unit):
    if "ms" in unit:
        return f"{v:.2f}"
    if v < 100:
        return f"{v:.1f}"
    return f"{v:,.0f}"


def table(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    figures = [r for r in rows if r["type"] == "figure"]
    ids = list(dict.fromkeys(r["id"] for r in figures))
    values = {i: {r["round"]: r["value"] for r in figures if r["id"] == i} for i in ids}
    out = ["| workload | figure | unit | median | per round | errors |",
           "|---|---|---|---|---|---|"]
    for i in ids:
        sel = [r for r in figures if r["id"] == i]
        first = sel[0]
        v = values[i]
        errors = sum(r["errors"] for r in sel)
        rounds = " · ".join(fmt(v[k], first["unit"]) for k in sorted(v))
        out.append(f"| {first['workload']} | {first['label']} | {first['unit']} | "
                   f"**{fmt(statistics.median(v.values()), first['unit'])}** | {rounds} | {errors} |")
    ratios = list({r["id"]: r for r in rows if r["type"] == "ratio"}.values())
    if ratios:
        out += ["", "| workload | ratio | median | per round | target | verdict |",
                "|---|---|---|---|---|---|"]
        for q in ratios:
            num, den = values.get(q["num"], {}), values.get(q["den"], {})
            per = [num[k] / den[k] for k in sorted(set(num) & set(den)) if den[k] > 0]
            workload, label = q["label"].split("|")
            if not per:
                out.append(f"| {workload} | {label} | – | – | – | not measured |")
                continue
            med = statistics.median(per)
            target = q["target"]
            if target is None:
                shown, verdict = "–", "–"
            else:
                shown = f"≥ {target:.2f}"
                verdict = "meets the target" if med >= target else "**below the target**"
            out.append(f"| {workload} | {label} | **{med:.2f}** | "
                       f"{' · '.join(f'{x:.2f}' for x in per)} | {shown} | {verdict} |")
    notes = [r["text"] for r in rows if r["type"] == "note"]
    if notes:
        out.append("")
        out += [f"- {n}" for n in notes]
    print("\n".join(out))


def main(argv):
    if len(argv) == 2 and argv[1] == "succeeded":
        print(succeeded(sys.stdin.read()))
        return
    if len(argv) < 3:
        sys.exit(__doc__)
    cmd, path = argv[1], argv[2]
    if cmd == "record" and len(argv) == 7:
        record(path, argv[3], argv[4], argv[5], argv[6])
    elif cmd == "ratio" and len(argv) == 8:
        target = None if argv[6] == "-" else float(argv[6])
        append(path, [{"type": "ratio", "id": argv[3], "num": argv[4], "den": argv[5],
                       "target": target, "label": argv[7]}])
    elif cmd == "placements" and len(argv) == 3:
        placements(argv[2])
    elif cmd == "note" and len(argv) == 4:
        append(path, [{"type": "note", "text": argv[3]}])
    elif cmd == "table" and len(argv) == 3:
        table(path)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
