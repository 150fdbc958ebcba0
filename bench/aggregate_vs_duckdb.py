#!/usr/bin/env python3
"""Counter recount beside DuckDB on the same 1M report rows.

Generates the rows of the peer benchmark's aggregation case (seeded numpy: 4000 areas Zipf-like,
365 days from 2024-01-01, 2 kinds, 4 statuses), times DuckDB's GROUP BYs on them (threads 1 and 2,
results fetched, one warm-up then REPS runs, median), writes the rows to a binary file and runs
`geoserve bench aggregate --rows FILE` on it, then prints both and the ratios.
Usage: aggregate_vs_duckdb.py GEOSERVE TMPDIR"""
import json, os, statistics, subprocess, sys, time
import numpy as np, pandas as pd, duckdb

geoserve, tmp = sys.argv[1], sys.argv[2]
REPS = int(os.environ.get("REPS", "5"))

# The rows: the same seed and the same sequence of draws as the peer benchmark.
N = 1_000_000
rng = np.random.default_rng(99)
area = np.minimum((rng.pareto(1.1, N) * 300).astype(np.int64), 3999)
day0 = np.datetime64("2024-01-01")
days = (day0 + rng.integers(0, 365, N).astype("timedelta64[D]"))
kind = np.where(rng.random(N) < 0.7, "covid", "misconduct")
statuses = np.array(["pending", "verified", "rejected", "withdrawn"])
status = rng.choice(statuses, N, p=[0.2, 0.6, 0.15, 0.05])
df = pd.DataFrame({"area_id": area, "day": days.astype("datetime64[D]").astype(str), "kind": kind, "status": status})

Q1 = "select area_id, day, count(*) from reports group by area_id, day"
Q2 = "select area_id, day, kind, count(*) from reports where status = 'verified' group by area_id, day, kind"

def median_seconds(run):
    run()
    times = []
    for _ in range(REPS):
        t = time.perf_counter(); run(); times.append(time.perf_counter() - t)
    return statistics.median(times)

con = duckdb.connect()
con.execute('create table reports as select row_number() over () id, area_id::int as area_id, "day"::date as "day", kind, status from df')
duck = {}
groups = {}
for threads in (1, 2):
    con.execute(f"set threads={threads}")
    for name, q in (("Q1", Q1), ("Q2", Q2)):
        groups[name] = len(con.execute(q).fetchall())
        duck[f"duckdb.t{threads}.{name}"] = median_seconds(lambda: con.execute(q).fetchall())

# Binary rows for geoserve: Int64 n, Int32 area[n], Int32 day[n] (days since 1970-01-01), Int8 kind[n], Int8 status[n].
path = os.path.join(tmp, "rows.bin")
day_numbers = days.astype("datetime64[D]").astype(np.int64).astype("<i4")
status_index = np.searchsorted(statuses, status, sorter=np.argsort(statuses))
status_index = np.argsort(statuses)[status_index].astype(np.int8)
assert (statuses[status_index] == status).all()
with open(path, "wb") as f:
    f.write(np.array([N], dtype="<i8").tobytes())
    f.write(area.astype("<i4").tobytes())
    f.write(day_numbers.tobytes())
    f.write((kind == "misconduct").astype(np.int8).tobytes())
    f.write(status_index.tobytes())

out = subprocess.run([geoserve, "bench", "aggregate", "--rows", path, "--repeat", str(REPS)], check=True, capture_output=True, text=True).stdout
ours = json.loads(out.strip().splitlines()[-1])

print(f"rows: {N}; DuckDB groups: Q1 {groups['Q1']}, Q2 {groups['Q2']}; geoserve cells: one basis {ours['one_basis_cells']}, all bases {ours['all_bases_cells']}")
for k, v in duck.items():
    print(f"{k:18s} {v * 1000:9.1f} ms (median of {REPS})")
print(f"{'geoserve.one_basis':18s} {ours['one_basis_seconds'] * 1000:9.1f} ms  (area, day, kind, status, group; occurred basis)")
print(f"{'geoserve.all_bases':18s} {ours['all_bases_seconds'] * 1000:9.1f} ms  (occurred, submitted, verified as stored)")
print(f"{'counters.delta':18s} {ours['delta_ns']:9.0f} ns per pending -> verified transition in 3 layers")
for threads in (1, 2):
    d = duck[f"duckdb.t{threads}.Q1"]
    print(f"ratio geoserve/DuckDB t{threads} Q1: one basis {ours['one_basis_seconds'] / d:.2f}, all bases {ours['all_bases_seconds'] / d:.2f}")
