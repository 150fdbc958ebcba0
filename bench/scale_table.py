#!/usr/bin/env python3
"""Prints bench/scale_run.py's JSON lines as markdown tables: one a layer shape (lines without a
`shape`, from before there were several, are hex), one column per layer size.

    python3 bench/scale_table.py RESULTS.jsonl [MORE.jsonl ...]
"""
import json
import sys

rows = [json.loads(line) for path in sys.argv[1:] for line in open(path) if line.startswith("{")]
if not rows:
    sys.exit("no results")
shapes = list(dict.fromkeys(r.get("shape", "hex") for r in rows))
for n, shape in enumerate(shapes):
    group = [r for r in rows if r.get("shape", "hex") == shape]
    keys = list(dict.fromkeys(k for r in group for k in r if k not in ("areas", "shape")))
    if n:
        print()
    print(f"### {shape}")
    print()
    print("| figure | " + " | ".join(f"{r['areas']:,}" for r in group) + " |")
    print("|---|" + "---:|" * len(group))
    for k in keys:
        print(f"| {k} | " + " | ".join("" if r.get(k) is None else f"{r[k]:,}" if isinstance(r[k], int) and not isinstance(r[k], bool)
                                       else str(r[k]) for r in group) + " |")
