#!/usr/bin/env python3
"""Rewrites the placement block of bench/postgres_intake_full.sql from the demo campus in data/:
two pgbench expressions that place a point of the campus's box in its zone and hall, as geoserve
places a report in every published area layer (standard library only).

    python3 bench/make_intake_full.py        # after data/generate.py changed the campus

A point is (:ulon, :ulat), millionths of a degree east and north of the box's south-west corner
(-87.6020, 41.7880), as bench/postgres_intake.sql draws it. Every zone and hall of the generated
campus is rectilinear (rectangles, L-shapes, a courtyard, two wings): each area is cut along its
own edges into a grid, the grid cells inside it (even-odd over all its rings) are merged into
rectangles, and each rectangle becomes a test on closed integer bounds. The expressions give the
area's number (Z<n>, H<nn>), 0 for none; the pgbench script turns it into the id.
bench/postgres.sh checks the result against geoserve's own placement before it measures.
"""
import json
import math
import os
import re
import sys
from decimal import Decimal
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCRIPT = os.path.join(HERE, "postgres_intake_full.sql")
LON0, LAT0 = Decimal("-87.6020"), Decimal("41.7880")
BEGIN, END = "-- placement: begin", "-- placement: end"


def rings_of(geometry):
    if geometry["type"] == "Polygon":
        return [r for r in geometry["coordinates"]]
    if geometry["type"] == "MultiPolygon":
        return [r for p in geometry["coordinates"] for r in p]
    sys.exit(f"not an area: {geometry['type']}")


def inside(rings, x, y):
    """Even-odd over every ring (holes and separate parts alike)."""
    hit = False
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                hit = not hit
    return hit


def rectangles(rings):
    """The area as rectangles (lon0, lon1, lat0, lat1) in exact decimal degrees."""
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
            if x1 != x2 and y1 != y2:
                sys.exit("an area edge is neither north-south nor east-west: this campus is not rectilinear")
    exact = [[(Fraction(Decimal(repr(x))), Fraction(Decimal(repr(y)))) for x, y in ring] for ring in rings]
    xs = sorted({x for r in exact for x, _ in r})
    ys = sorted({y for r in exact for _, y in r})
    bands = []  # per row of the grid: its latitude span and the merged longitude spans inside
    for y0, y1 in zip(ys, ys[1:]):
        spans = []
        for x0, x1 in zip(xs, xs[1:]):
            if inside(exact, (x0 + x1) / 2, (y0 + y1) / 2):
                if spans and spans[-1][1] == x0:
                    spans[-1] = (spans[-1][0], x1)
                else:
                    spans.append((x0, x1))
        if bands and bands[-1][2] == spans and bands[-1][1] == y0:
            bands[-1] = (bands[-1][0], y1, spans)
        else:
            bands.append((y0, y1, spans))
    return [(a, b, y0, y1) for y0, y1, spans in bands for a, b in spans]


def test(rect):
    """The closed integer bounds of a rectangle in millionths of a degree from the corner."""
    a, b, y0, y1 = rect
    o = Fraction(LON0) * 10**6, Fraction(LAT0) * 10**6
    lo_x, hi_x = math.ceil(a * 10**6 - o[0]), math.floor(b * 10**6 - o[0])
    lo_y, hi_y = math.ceil(y0 * 10**6 - o[1]), math.floor(y1 * 10**6 - o[1])
    return f":ulon >= {lo_x} AND :ulon <= {hi_x} AND :ulat >= {lo_y} AND :ulat <= {hi_y}"


def expression(variable, layer, pattern):
    features = json.load(open(os.path.join(ROOT, "data", f"{layer}.geojson")))["features"]
    lines = [f"\\set {variable} CASE"]
    for f in features:
        m = re.fullmatch(pattern, str(f["id"]))
        if not m:
            sys.exit(f"{layer}: area id {f['id']!r} does not match {pattern} (the script builds ids from numbers)")
        tests = " OR ".join(f"({test(r)})" for r in rectangles(rings_of(f["geometry"])))
        lines.append(f"  WHEN {tests} THEN {int(m.group(1))}")
    lines.append("  ELSE 0 END")
    return " \\\n".join(lines)


def main():
    block = "\n".join([BEGIN + " (written by bench/make_intake_full.py from data/zones.geojson and data/halls.geojson)",
                       expression("zone", "zones", r"Z([0-9])"),
                       expression("hall", "halls", r"H([0-9]{2})"),
                       END])
    text = open(SCRIPT).read()
    start, stop = text.find(BEGIN), text.find(END)
    if start < 0 or stop < start:
        sys.exit(f"{SCRIPT}: no placement block ({BEGIN} … {END})")
    stop = text.index("\n", stop) if "\n" in text[stop:] else len(text)
    open(SCRIPT, "w").write(text[:start] + block + text[stop:])
    print(f"placement block rewritten in {SCRIPT}")


if __name__ == "__main__":
    main()
