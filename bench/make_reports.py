#!/usr/bin/env python3
"""Writes N report rows in the CSV that `geoserve import-reports` reads (and `export reports`
writes), for the bulk benchmarks: uniform points in the Chicago community areas' bounding box,
kinds half and half, 60 % verified, days over the year before 2026-11-20, a ~100-byte payload.
Fixed seed: the same file every time.

    bench/make_reports.py N OUT.csv
"""
import datetime
import random
import sys

n, out = int(sys.argv[1]), sys.argv[2]
rng = random.Random(20261120)
END = datetime.date(2026, 11, 20).toordinal()
statuses = ["verified"] * 6 + ["pending"] * 2 + ["rejected"] + ["withdrawn"]
groups = ["student", "faculty", "staff"]
with open(out, "w") as f:
    f.write("id,kind,status,occurred_on,submitted_at,verified_on,lon,lat,area_layer,area_id,group,payload\n")
    for i in range(n):
        kind = "covid" if i % 2 == 0 else "misconduct"
        status = rng.choice(statuses)
        day = 1 + rng.randrange(365)
        occurred = END - day
        o = datetime.date.fromordinal(occurred)
        s = datetime.date.fromordinal(occurred + rng.randrange(3))
        verified = datetime.date.fromordinal(s.toordinal() + rng.randrange(3)).isoformat() if status == "verified" else ""
        lon = -87.9400865 + rng.random() * 0.4159494
        lat = 41.6445549 + rng.random() * 0.3784762
        group = rng.choice(groups) if kind == "covid" else ""
        payload = '"{""source"":""bench"",""row"":%d,""note"":""imported from an earlier system for the bulk benchmark""}"' % i
        f.write(f"r{i:08d},{kind},{status},{o.isoformat()},{s.isoformat()}T{rng.randrange(24):02d}:{rng.randrange(60):02d}:00.000Z,"
                f"{verified},{lon:.6f},{lat:.6f},,,{group},{payload}\n")
