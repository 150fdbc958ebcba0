#!/usr/bin/env python3
"""The Markdown table of bench/import-under-intake.sh: its JSON lines on standard input, the
binaries' names as arguments; medians over rounds per binary."""
import json
import statistics
import sys

rows = [json.loads(line) for line in sys.stdin if line.strip()]
print("| binary | import (s) | submissions during it | longest wait (ms) | p99 (ms) | not 201 | all stored |")
print("|---|---|---|---|---|---|---|")
for b, name in enumerate(sys.argv[1:]):
    mine = [r for r in rows if r["binary"] == b]
    if not mine:
        continue
    med = lambda key: statistics.median(r[key] for r in mine)
    print(f"| {name} | {med('import_s'):.1f} | {med('during'):.0f} | {med('longest_ms'):.0f} | {med('p99_ms'):.0f} | "
          f"{sum(r['not_201'] for r in mine)} | {all(r['complete'] for r in mine)} |")
