"""Median tiles/s per zoom for Mapnik and geoserve from tiles-vs-mapnik.sh's JSON lines, and the ratios."""
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    d = r["data"]
    if r["system"] == "mapnik":
        if d.get("phase", "").startswith("z"):
            by.setdefault(("mapnik", int(d["phase"][1:])), []).append(
                (d["tiles"] / d["secs"], d["bytes_mean"], d["png8_bytes_mean"], d["render_s"] / d["tiles"] * 1e3, d["encode_s"] / d["tiles"] * 1e3))
    else:
        by.setdefault(("geoserve", d["zoom"]), []).append((d["tiles_per_second"], d["bytes_mean"], None, d["render_ms"], d["encode_ms"]))
print("| zoom | tiles | Mapnik tiles/s | geoserve tiles/s | ratio (median of rounds) | render+encode ms Mapnik / geoserve | bytes mean Mapnik / png8 / geoserve |")
print("|---|---|---|---|---|---|---|")
for z in (12, 14, 16):
    m, g = by.get(("mapnik", z), []), by.get(("geoserve", z), [])
    if not m or not g:
        continue
    ratios = [gg[0] / mm[0] for mm, gg in zip(m, g)]
    tiles = {12: 36, 14: 480, 16: 600}[z]
    print(f"| z{z} | {tiles} | {statistics.median(x[0] for x in m):,.0f} | {statistics.median(x[0] for x in g):,.0f} | "
          f"{statistics.median(ratios):.2f} | {statistics.median(x[3] + x[4] for x in m):.2f} / {statistics.median(x[3] + x[4] for x in g):.2f} | "
          f"{statistics.median(x[1] for x in m):,.0f} / {statistics.median(x[2] for x in m):,.0f} / {statistics.median(x[1] for x in g):,.0f} |")
