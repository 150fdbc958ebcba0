#!/usr/bin/env python3
"""Writes a layer of N areas for the scaling benchmark, and optionally uniform points over it.

    python3 bench/make_scale_layer.py N OUT.geojson [POINTS POINTS.f64]

The areas are a hexagonal tiling over a fixed box around Chicago whose shared corners are moved
by a deterministic jitter: a valid coverage (no gaps, no overlaps), seven positions a ring like a
Voronoi cell, and the same file for the same N on every machine. The box stays the same for every
N, so more areas means smaller ones, as a city's census blocks are smaller than its community
areas. Points are raw little-endian float64 lon,lat pairs (what `geoserve bench assign` reads),
uniform over the box, seeded.

Standard library only, so the benchmark needs nothing installed.
"""
import json
import math
import random
import struct
import sys

WEST, SOUTH, EAST, NORTH = -87.94, 41.64, -87.52, 42.02


def hex_layer(n):
    # Pointy-top hexagons: columns dx apart, rows dy = 0.75 * height apart, odd rows shifted
    # half a column. Pick the size so that rows * cols is close to n over the box.
    width, height = EAST - WEST, NORTH - SOUTH
    # area per hexagon = width*height/n = dx * dy with dy = dx * sqrt(3)/2
    dx = math.sqrt(width * height / n / (math.sqrt(3) / 2))
    dy = dx * math.sqrt(3) / 2
    cols = max(1, round(width / dx))
    rows = max(1, math.ceil(n / cols))
    dx, dy = width / (cols + 0.5), height / (rows + 1 / 3)
    r = dy / 1.5  # circumradius in the row direction
    jitter = 0.12

    def corner(x2, y3):
        # Corners live on a lattice of half columns (x2) and third rows (y3): exact integer keys,
        # so the hexagons that share a corner move it the same way.
        rng = random.Random(x2 * 1_000_003 + y3)
        x = WEST + x2 * dx / 2 + (rng.random() - 0.5) * 2 * jitter * dx
        y = SOUTH + y3 * r / 2 + (rng.random() - 0.5) * 2 * jitter * r
        return [round(x, 7), round(y, 7)]

    features = []
    for row in range(rows):
        for col in range(cols):
            if len(features) == n:
                break
            cx2 = 2 * col + 1 + (row % 2)   # centre in half columns
            cy3 = 3 * row + 2               # centre in third... of r/2 steps
            ring = [corner(cx2, cy3 - 2), corner(cx2 + 1, cy3 - 1), corner(cx2 + 1, cy3 + 1),
                    corner(cx2, cy3 + 2), corner(cx2 - 1, cy3 + 1), corner(cx2 - 1, cy3 - 1)]
            ring.append(ring[0])
            i = len(features)
            features.append({"type": "Feature", "properties": {"id": f"a{i}", "name": f"Area {i}"},
                             "geometry": {"type": "Polygon", "coordinates": [ring]}})
    return features


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    n, out = int(sys.argv[1]), sys.argv[2]
    features = hex_layer(n)
    with open(out, "w") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f, separators=(",", ":"))
    print(f"{len(features)} areas -> {out}", file=sys.stderr)
    if len(sys.argv) == 5:
        count, path = int(sys.argv[3]), sys.argv[4]
        rng = random.Random(1_000_000)
        with open(path, "wb") as f:
            for _ in range(count):
                f.write(struct.pack("<dd", rng.uniform(WEST, EAST), rng.uniform(SOUTH, NORTH)))
        print(f"{count} points -> {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
