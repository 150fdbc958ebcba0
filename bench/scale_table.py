#!/usr/bin/env python3
"""Prints bench/scale_run.py's JSON lines as a markdown table, one column per layer size.

    python3 bench/scale_table.py RESULTS.jsonl [MORE.jsonl ...]
"""
import json
import sys

rows = [json.loads(line) for path in sys.argv[1:] for line in open(path) if line.startswith("{")]
if not rows:
    sys.exit("no results")
keys = [k for k in rows[0] if k != "areas"]
print("| figure | " + " | ".join(f"{r['areas']:,}" for r in rows) + " |")
print("|---|" + "---:|" * len(rows))
for k in keys:
    print(f"| {k} | " + " | ".join("" if r.get(k) is None else f"{r[k]:,}" if isinstance(r[k], int) else str(r[k]) for r in rows) + " |")
