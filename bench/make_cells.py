#!/usr/bin/env python3
"""Writes a Voronoi layer of N cells over the outline of the peers' Chicago cells, densified to
25 m segments like theirs, for memory and scaling measurements beyond 4,000 areas.

    $PY bench/make_cells.py PEERS_DATA_DIR N OUT.geojson      # PY: the peers' venv python
"""
import json
import sys

import numpy as np
import shapely
from pyproj import Transformer

data, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
cells = json.load(open(f"{data}/chicago_cells.geojson"))["features"]
to_m = Transformer.from_crs("EPSG:4326", "EPSG:32616", always_xy=True)
to_deg = Transformer.from_crs("EPSG:32616", "EPSG:4326", always_xy=True)
geoms = shapely.transform(np.array([shapely.geometry.shape(f["geometry"]) for f in cells]),
                          lambda xy: np.column_stack(to_m.transform(xy[:, 0], xy[:, 1])))
outline = shapely.union_all(geoms).buffer(5).buffer(-5)
rng = np.random.default_rng(5000)
minx, miny, maxx, maxy = outline.bounds
seeds = np.empty((0, 2))
while len(seeds) < n:
    cand = np.column_stack([rng.uniform(minx, maxx, 4 * n), rng.uniform(miny, maxy, 4 * n)])
    seeds = np.vstack([seeds, cand[shapely.contains_xy(outline, cand[:, 0], cand[:, 1])]])
seeds = seeds[:n]
vor = shapely.get_parts(shapely.voronoi_polygons(shapely.multipoints(seeds), extend_to=outline.envelope.buffer(1000)))
vor = shapely.segmentize(shapely.intersection(vor, outline), 25.0)
vor = vor[~shapely.is_empty(vor)]
features = []
for i, g in enumerate(vor):
    g = shapely.make_valid(shapely.transform(g, lambda xy: np.column_stack(to_deg.transform(xy[:, 0], xy[:, 1]))))
    polys = [p for p in shapely.get_parts(g) if p.geom_type == "Polygon"]
    g = polys[0] if len(polys) == 1 else shapely.multipolygons(polys)
    features.append({"type": "Feature", "properties": {"id": i}, "geometry": json.loads(shapely.to_geojson(shapely.set_precision(g, 1e-7)))})
json.dump({"type": "FeatureCollection", "features": features}, open(out, "w"))
print(f"{len(features)} cells -> {out}")
