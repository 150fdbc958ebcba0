#!/usr/bin/env python3
"""Generates the demo campus in this folder (deterministic: same output on every run).

The campus is fictional: 42 residence halls on a 1.8 km x 1.6 km campus, six zones that tile
the campus exactly, and five testing sites. Halls are rectangles and L-shapes 40-150 m across;
one hall has a courtyard (a hole) and one has two detached wings (a MultiPolygon).

    python3 data/generate.py      # rewrites halls.geojson, zones.geojson, testing-sites.geojson
"""
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
LON0, LAT0 = -87.6020, 41.7880          # south-west corner of the campus
WIDTH_M, HEIGHT_M = 1800.0, 1600.0
M_PER_DEG_LAT = 111_320.0
M_PER_DEG_LON = M_PER_DEG_LAT * math.cos(math.radians(LAT0 + HEIGHT_M / 2 / M_PER_DEG_LAT))

NAMES = ["Alder", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Ginkgo", "Hawthorn", "Ironwood",
         "Juniper", "Katsura", "Linden", "Magnolia", "Nutmeg", "Oak", "Pine", "Quince", "Redbud",
         "Sassafras", "Tamarack", "Upas", "Viburnum", "Willow", "Yew", "Zelkova", "Ash", "Beech",
         "Chestnut", "Dove", "Eucalyptus", "Filbert", "Gum", "Hazel", "Holly", "Laurel", "Maple",
         "Olive", "Poplar", "Rowan", "Spruce", "Sycamore", "Walnut"]
SUFFIX = ["Hall", "House", "Commons", "Tower"]


def lonlat(x, y):
    """Metres east/north of the campus corner to [lon, lat], 7 decimals (about 1 cm)."""
    return [round(LON0 + x / M_PER_DEG_LON, 7), round(LAT0 + y / M_PER_DEG_LAT, 7)]


def ring(points):
    """Closed counterclockwise ring (RFC 7946 exterior) from metre coordinates."""
    pts = [lonlat(x, y) for x, y in points]
    area = sum(pts[i][0] * pts[(i + 1) % len(pts)][1] - pts[(i + 1) % len(pts)][0] * pts[i][1] for i in range(len(pts)))
    if area < 0:
        pts.reverse()
    return pts + [pts[0]]


def hole(points):
    r = ring(points)
    return list(reversed(r))


def halls(rng):
    features = []
    cols, rows = 7, 6
    cw, ch = WIDTH_M / cols, HEIGHT_M / rows
    n = 0
    for r in range(rows):
        for c in range(cols):
            n += 1
            w = rng.uniform(40, 150)
            h = rng.uniform(40, min(150, ch - 40))
            w = min(w, cw - 40)
            x0 = c * cw + rng.uniform(20, cw - w - 20)
            y0 = r * ch + rng.uniform(20, ch - h - 20)
            name = f"{NAMES[n - 1]} {SUFFIX[n % len(SUFFIX)]}"
            if n == 9:      # courtyard hall: a hole
                coords = [ring([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)]),
                          hole([(x0 + w * .3, y0 + h * .3), (x0 + w * .7, y0 + h * .3), (x0 + w * .7, y0 + h * .7), (x0 + w * .3, y0 + h * .7)])]
                geom = {"type": "Polygon", "coordinates": coords}
            elif n == 17:   # two detached wings
                gap = 10
                a = ring([(x0, y0), (x0 + w / 2 - gap, y0), (x0 + w / 2 - gap, y0 + h), (x0, y0 + h)])
                b = ring([(x0 + w / 2 + gap, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0 + w / 2 + gap, y0 + h)])
                geom = {"type": "MultiPolygon", "coordinates": [[a], [b]]}
            elif n % 3 == 0:  # L-shape
                geom = {"type": "Polygon", "coordinates": [ring([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h * .45),
                                                                  (x0 + w * .45, y0 + h * .45), (x0 + w * .45, y0 + h), (x0, y0 + h)])]}
            else:
                geom = {"type": "Polygon", "coordinates": [ring([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)])]}
            floors = rng.randint(3, 12)
            capacity = int(w * h * floors / 45 / 10) * 10
            features.append({"type": "Feature", "id": f"H{n:02d}",
                             "properties": {"name": name, "floors": floors, "capacity": max(capacity, 40)},
                             "geometry": geom})
    return features


def zones():
    names = [["South-West", "South", "South-East"], ["North-West", "North", "North-East"]]
    xs = [0, 600, 1200, WIDTH_M]
    ys = [0, 800, HEIGHT_M]
    features = []
    for r in range(2):
        for c in range(3):
            features.append({"type": "Feature", "id": f"Z{r * 3 + c + 1}",
                             "properties": {"name": f"{names[r][c]} Zone"},
                             "geometry": {"type": "Polygon", "coordinates": [ring([(xs[c], ys[r]), (xs[c + 1], ys[r]),
                                                                                    (xs[c + 1], ys[r + 1]), (xs[c], ys[r + 1])])]}})
    return features


def sites():
    spots = [("T1", "Health Center", 300, 400), ("T2", "Student Union", 950, 820), ("T3", "Athletics Field House", 1600, 250),
             ("T4", "Library Plaza", 700, 1350), ("T5", "North Gate Clinic", 1500, 1500)]
    return [{"type": "Feature", "id": i, "properties": {"name": n},
             "geometry": {"type": "Point", "coordinates": lonlat(x, y)}} for i, n, x, y in spots]


def write(name, features):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    rng = random.Random(20261122)
    write("halls.geojson", halls(rng))
    write("zones.geojson", zones())
    write("testing-sites.geojson", sites())
