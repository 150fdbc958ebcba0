#!/usr/bin/env python3
"""Writes a layer of N areas for the scaling benchmark, and optionally uniform points over it.

    python3 bench/make_scale_layer.py [--shape hex|voronoi] N OUT.geojson [POINTS POINTS.f64]

The shape comes from --shape, else the environment's SHAPE, else hex. Both shapes are valid
coverages (no gaps, no overlaps) over a fixed box around Chicago, rings counter-clockwise from
their lowest corner, coordinates rounded to 7 decimals, ids a0 ... a{N-1} in rows from south to
north and west to east within a row, properties `id` and `name` ("Area i"):

- hex: a hexagonal tiling whose shared corners are moved by a deterministic jitter, seven
  positions a ring (six corners and the closing one) like a Voronoi cell, every cell the same
  size give or take the jitter; ragged along the box's edges (5 % of the box left out at 1,000
  cells, 0.2 % at 300,000). Python alone; the same file for the same N on every machine.
- voronoi: the Voronoi cells of N uniform random points (seeded by N) clipped to the box, which
  they cover exactly: sizes, shapes and neighbour counts vary as real areas' do; six corners a
  cell on average (5.99 at 300,000 cells, seven positions with the closing one). Built by the
  system's GEOS C library (libgeos_c.so.1) through ctypes: about 7 s at 100,000 cells and 25 s
  at 300,000 (650 MB). The same file for the same N wherever the same GEOS builds it (the ids
  follow the cells' positions, not GEOS's output order).

The box stays the same for every N, so more areas means smaller ones, as a city's census blocks
are smaller than its community areas. Points are raw little-endian float64 lon,lat pairs (what
`geoserve bench assign` reads), uniform over the box, seeded, whatever the shape.

Standard library only (and, for voronoi, the GEOS C library the system has), so the benchmark
needs nothing installed.
"""
import ctypes
import ctypes.util
import json
import math
import os
import random
import struct
import sys

WEST, SOUTH, EAST, NORTH = -87.94, 41.64, -87.52, 42.02
SHAPES = ("hex", "voronoi")


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
            features.append(feature(len(features), ring))
    return features


def feature(i, ring):
    return {"type": "Feature", "properties": {"id": f"a{i}", "name": f"Area {i}"},
            "geometry": {"type": "Polygon", "coordinates": [ring]}}


class _GEOS:
    """The few GEOS C functions the Voronoi shape needs, on one context handle."""

    def __init__(self):
        name = ctypes.util.find_library("geos_c") or "libgeos_c.so.1"
        try:
            lib = ctypes.CDLL(name)
        except OSError as e:
            sys.exit(f"the voronoi shape needs the GEOS C library, libgeos_c.so.1: {e}")
        p, i, d = ctypes.c_void_p, ctypes.c_int, ctypes.c_double
        for fn, restype, argtypes in (
                ("GEOS_init_r", p, []),
                ("GEOS_finish_r", None, [p]),
                ("GEOSContext_setErrorMessageHandler_r", p, [p, p, p]),
                ("GEOSWKTReader_create_r", p, [p]),
                ("GEOSWKTReader_read_r", p, [p, p, ctypes.c_char_p]),
                ("GEOSWKTReader_destroy_r", None, [p, p]),
                ("GEOSVoronoiDiagram_r", p, [p, p, p, d, i]),
                ("GEOSIntersection_r", p, [p, p, p]),
                ("GEOSGetNumGeometries_r", i, [p, p]),
                ("GEOSGetGeometryN_r", p, [p, p, i]),
                ("GEOSGeomTypeId_r", i, [p, p]),
                ("GEOSGetExteriorRing_r", p, [p, p]),
                ("GEOSGeom_getCoordSeq_r", p, [p, p]),
                ("GEOSCoordSeq_getSize_r", i, [p, p, ctypes.POINTER(ctypes.c_uint)]),
                ("GEOSCoordSeq_getXY_r", i, [p, p, ctypes.c_uint, ctypes.POINTER(d), ctypes.POINTER(d)]),
                ("GEOSGeom_destroy_r", None, [p, p])):
            f = getattr(lib, fn)
            f.restype, f.argtypes = restype, argtypes
        self.lib = lib
        self.handle = lib.GEOS_init_r()
        self.error = ""

        def on_error(message, _):
            self.error = message.decode(errors="replace")
        self._on_error = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)(on_error)
        lib.GEOSContext_setErrorMessageHandler_r(self.handle, self._on_error, None)
        # One call a ring instead of one a position when GEOS has it (3.10 and later).
        self.copy = getattr(lib, "GEOSCoordSeq_copyToBuffer_r", None)
        if self.copy is not None:
            self.copy.restype, self.copy.argtypes = i, [p, p, ctypes.POINTER(d), i, i]
        self.buffer = (d * 256)()
        self.size = ctypes.c_uint()
        self.x, self.y = d(), d()

    def call(self, fn, *args):
        result = getattr(self.lib, fn)(self.handle, *args)
        if not result:
            sys.exit(f"GEOS {fn} failed: {self.error or 'no message'}")
        return result

    def read(self, wkt):
        reader = self.call("GEOSWKTReader_create_r")
        try:
            return self.call("GEOSWKTReader_read_r", reader, wkt.encode())
        finally:
            self.lib.GEOSWKTReader_destroy_r(self.handle, reader)

    def destroy(self, geometry):
        self.lib.GEOSGeom_destroy_r(self.handle, geometry)

    def shell(self, polygon):
        """The exterior ring's positions, flat: x0, y0, x1, y1, ... (the polygon keeps them)."""
        seq = self.call("GEOSGeom_getCoordSeq_r", self.call("GEOSGetExteriorRing_r", polygon))
        self.lib.GEOSCoordSeq_getSize_r(self.handle, seq, ctypes.byref(self.size))
        n = self.size.value
        if self.copy is not None:
            if 2 * n > len(self.buffer):
                self.buffer = (ctypes.c_double * (4 * n))()
            self.copy(self.handle, seq, self.buffer, 0, 0)
            return self.buffer[:2 * n]
        flat = []
        for k in range(n):
            self.lib.GEOSCoordSeq_getXY_r(self.handle, seq, k, ctypes.byref(self.x), ctypes.byref(self.y))
            flat += (self.x.value, self.y.value)
        return flat

    def close(self):
        self.lib.GEOS_finish_r(self.handle)


def _give_back_freed_memory():
    # What GEOS freed stays in glibc's heap, where Python's small objects do not go: hand it back
    # (about 300 MB at 300,000 cells). Nothing to do elsewhere than glibc.
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (AttributeError, OSError):
        pass


def normal_ring(flat):
    """Positions rounded to 7 decimals as the hex shape's, repeats that rounding made dropped,
    counter-clockwise from the lowest (then westernmost) corner, closed."""
    ring = []
    for x, y in zip(flat[0:-2:2], flat[1:-2:2]):  # the closing position comes back at the end
        p = [round(x, 7), round(y, 7)]
        if not ring or p != ring[-1]:
            ring.append(p)
    while len(ring) > 1 and ring[-1] == ring[0]:
        ring.pop()
    if len(ring) < 3:
        return None
    twice_area = sum(ring[k - 1][0] * ring[k][1] - ring[k][0] * ring[k - 1][1] for k in range(len(ring)))
    if twice_area < 0:
        ring.reverse()
    low = min(range(len(ring)), key=lambda k: (ring[k][1], ring[k][0]))
    ring = ring[low:] + ring[:low]
    ring.append(ring[0])
    return ring


def voronoi_layer(n):
    # N uniform sites, seeded by N; their Voronoi diagram over the box (GEOS extends it past the
    # envelope given), each cell that reaches outside the box intersected with it.
    rng = random.Random(7_000_000 + n)
    sites = [(rng.uniform(WEST, EAST), rng.uniform(SOUTH, NORTH)) for _ in range(n)]
    geos = _GEOS()
    box = geos.read(f"POLYGON(({WEST!r} {SOUTH!r},{EAST!r} {SOUTH!r},{EAST!r} {NORTH!r},"
                    f"{WEST!r} {NORTH!r},{WEST!r} {SOUTH!r}))")
    points = geos.read("MULTIPOINT(" + ",".join(f"({x!r} {y!r})" for x, y in sites) + ")")
    del sites
    diagram = geos.call("GEOSVoronoiDiagram_r", points, box, 0.0, 0)
    geos.destroy(points)
    rings = []
    try:
        for k in range(geos.lib.GEOSGetNumGeometries_r(geos.handle, diagram)):
            cell = geos.call("GEOSGetGeometryN_r", diagram, k)
            flat = geos.shell(cell)
            xs, ys = flat[0::2], flat[1::2]
            if min(xs) < WEST or max(xs) > EAST or min(ys) < SOUTH or max(ys) > NORTH:
                clipped = geos.call("GEOSIntersection_r", cell, box)
                try:
                    # A convex cell around a site inside the box, cut by the box: one convex polygon.
                    if geos.lib.GEOSGeomTypeId_r(geos.handle, clipped) != 3:
                        sys.exit(f"voronoi: cell {k} clipped to the box is not one polygon")
                    flat = geos.shell(clipped)
                finally:
                    geos.destroy(clipped)
            ring = normal_ring(flat)
            if ring is None:
                sys.exit(f"voronoi: cell {k} vanished when rounded")
            rings.append(ring)
    finally:
        geos.destroy(diagram)
        geos.destroy(box)
        geos.close()
    _give_back_freed_memory()
    if len(rings) != n:
        sys.exit(f"voronoi: {len(rings)} cells for {n} sites")
    # Ids in rows about a cell high, south to north, west to east within a row (as hex_layer's):
    # by each cell's mean corner, so they follow the cells and not GEOS's output order.
    band = math.sqrt((EAST - WEST) * (NORTH - SOUTH) / n)

    def key(ring):
        corners = ring[:-1]
        cx = sum(p[0] for p in corners) / len(corners)
        cy = sum(p[1] for p in corners) / len(corners)
        return int((cy - SOUTH) / band), cx, cy
    rings.sort(key=key)
    return [feature(i, ring) for i, ring in enumerate(rings)]


def layer(shape, n):
    """The features of a layer of n areas of the given shape (one of SHAPES)."""
    if shape == "hex":
        return hex_layer(n)
    if shape == "voronoi":
        return voronoi_layer(n)
    sys.exit(f"unknown shape {shape!r} (one of {', '.join(SHAPES)})")


def write_layer(path, features):
    """Writes the FeatureCollection under a temporary name and renames it into place, so that an
    interrupted run leaves no partial layer for the benchmark's cache to reuse (points likewise)."""
    temporary = f"{path}.{os.getpid()}.tmp"
    with open(temporary, "w") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f, separators=(",", ":"))
    os.replace(temporary, path)


def main():
    args, shape = sys.argv[1:], os.environ.get("SHAPE") or "hex"
    if "--shape" in args:
        at = args.index("--shape")
        if at + 1 >= len(args):
            sys.exit(__doc__)
        shape = args[at + 1]
        del args[at:at + 2]
    if len(args) not in (2, 4):
        sys.exit(__doc__)
    if shape not in SHAPES:
        sys.exit(f"unknown shape {shape!r} (one of {', '.join(SHAPES)})")
    n, out = int(args[0]), args[1]
    features = layer(shape, n)
    write_layer(out, features)
    print(f"{len(features)} {shape} areas -> {out}", file=sys.stderr)
    del features
    if len(args) == 4:
        count, path = int(args[2]), args[3]
        rng = random.Random(1_000_000)
        temporary = f"{path}.{os.getpid()}.tmp"
        with open(temporary, "wb") as f:
            for _ in range(count):
                f.write(struct.pack("<dd", rng.uniform(WEST, EAST), rng.uniform(SOUTH, NORTH)))
        os.replace(temporary, path)
        print(f"{count} points -> {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
