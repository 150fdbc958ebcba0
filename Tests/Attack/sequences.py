"""Sequences of changes of the maps, random and fixed, against the rule with identities.

  attack.py sequence-SEED URL ADMIN_EMAIL PASSWORD     one generated sequence (run.sh's `sequences` runs a set of seeds,
                                                       each on a fresh server: ATTACK_SEQUENCE_SEEDS)
  attack.py edge-rollback URL ADMIN_EMAIL PASSWORD     an edge moved, then the move rolled back (a busy campus)
  attack.py edge-rollback-quiet URL ADMIN_EMAIL PASSWORD  the same on a quiet campus, exactly one report verified (in the strip)
                                                       between the move and the rollback, and the attacker told so
  attack.py merge-undo URL ADMIN_EMAIL PASSWORD        two halls merged, then the merge undone
  attack.py edge-two-steps URL ADMIN_EMAIL PASSWORD    an edge moved in two steps (two ordinary versions)
  attack.py sliver-rename URL ADMIN_EMAIL PASSWORD     a hall shrunk to a sliver, then renamed
  attack.py merge-line-age URL ADMIN_EMAIL PASSWORD    two halls merged, 14 reports in the merged hall, the merge undone:
                                                       on the rule before identities, which of two lines was older (it took
                                                       the 14) showed that a hall's line existed

A generated sequence (`generate(seed)`): a quiet campus (a few reports a day: most publications see
fewer than twelve changes and release nothing) or a busy one (a hall far from the changes gets 13
or more a day); two to four changes of the maps, each followed by one or two publications, drawn
from: an edge moved between two neighbouring halls (the strip joins the neighbour as a
MultiPolygon part), a hall shrunk to a sliver, a rollback to any earlier version of the halls
(`POST /v1/layers/halls/versions/{v}/publish`), two neighbouring halls merged (under one of their
ids or a new one), a hall split in two, the undo of a merge or a split (a rollback to the version
before it), a renamed hall, and a new area layer (one polygon around the campus, or a 4 x 3 grid
that cuts halls and zones). A withdrawn layer is not among them: the API has no way to withdraw an
area layer (a layer keeps a published version once it has one). Interleaved: reports planted by
location in every piece of ground the changed halls are cut into, small counts (1 to 10) and now
and then a count that reaches the step, revocations of planted reports (the attacker is told when,
not where), and on the quiet campus, now and then, the exact number of reports verified in an
interval that sees fewer than twelve changes (the attacker's side knowledge, "exactly one report
was verified in between"; told the exact number of a busy interval, an attacker would have the
sum of the carries its releases left, whatever the maps did). A publication a day, every public
output read after each and between each change and the next publication.

The invariant the checker holds (`scenarios.solve_and_check`), for every sequence: the rule with
identities (a line's class from its origin and the maps; new reports join the line of their
class's identity on the maps then, its areas' geometries), run over the reports the campus
planted, gives exactly every number that was published (the attacker's programme holds the
truth); and every planted small count — the reports of a changed hall in one interval, of one
piece of ground in one interval, or of a changed hall over the two intervals before a change,
whenever that count is between 1 and k — keeps a feasible range at least k = 11 wide that holds
it, over every assignment of reports to pieces of ground, intervals and lines that explains
every public output together (or, where the attacker is told how many reports an interval had,
fewer than k, the whole range 0..that number). Beside it: no new map moves the public number of
an area it keeps (or a layer's total, where the layer keeps its areas) before the next
publication, and no hall ever shows a negative number.
"""

import collections
import datetime
import json
import os
import random

import scenarios as S
from scenarios import rect

FILLER = "H01"                 # the busy hall, far from every change
CAMPUS_BOX = (-87.602, 41.788, -87.5803113, 41.802373)
MAX_CELLS = 8


# --- the maps ----------------------------------------------------------------------------------------

def shapely_of(geometry):
    from shapely.geometry import shape
    return shape(geometry)


def geojson_of(geometry):
    """A shapely (multi)polygon as GeoJSON, rings counterclockwise, coordinates as lists."""
    from shapely.geometry import MultiPolygon, Polygon, mapping
    from shapely.geometry.polygon import orient
    if isinstance(geometry, Polygon):
        geometry = orient(geometry, 1.0)
    else:
        geometry = MultiPolygon([orient(p, 1.0) for p in geometry.geoms])
    return json.loads(json.dumps(mapping(geometry)))


def neighbours(features):
    """Pairs (west, east) of rectangular halls in one row of the demo campus and one zone, none of
    them the busy hall or its row neighbour."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "zones.geojson")) as f:
        zones = [(z["id"], shapely_of(z["geometry"])) for z in json.load(f)["features"]]
    shapes = {f["id"]: shapely_of(f["geometry"]) for f in features}
    rectangles = {h for h, g in shapes.items() if abs(g.area - g.envelope.area) < 1e-12 and g.geom_type == "Polygon"}
    zone = {h: next(z for z, g in zones if g.covers(shapes[h].point_on_surface())) for h in shapes}
    out = []
    for h in sorted(shapes):
        number = int(h[1:])
        east = f"H{number + 1:02d}"
        if (number - 1) % 7 == 6 or east not in shapes or h in (FILLER, "H02") or east in (FILLER, "H02"):
            continue
        if h in rectangles and east in rectangles and zone[h] == zone[east] and shapes[h].bounds[2] < shapes[east].bounds[0]:
            out.append((h, east))
    return out


class Maps:
    """The campus's plan of the maps: the versions of halls (1: the demo campus), the one
    published, and new layers; `maps` lists (interval, {layer: (version, {id: geometry})}) from
    which each is in force, as the attacker will read them."""

    def __init__(self, features):
        self.versions = {1: features}
        self.current = 1
        self.parent = {}                 # version made by a merge or split -> the version before it
        self.layers = {}                 # a new layer -> its features
        self.maps = [(0, self.state())]

    def state(self):
        out = {"halls": (self.current, {f["id"]: f["geometry"] for f in self.versions[self.current]})}
        out["zones"] = (1, ZONES)
        for name, features in self.layers.items():
            out[name] = (1, {f["id"]: f["geometry"] for f in features})
        return out

    def features(self):
        return self.versions[self.current]

    def ids(self):
        return {f["id"] for f in self.features()}

    def shape(self, hall):
        return shapely_of(next(f for f in self.features() if f["id"] == hall)["geometry"])

    def new_version(self, features, interval, merge_or_split=False):
        v = max(self.versions) + 1
        self.versions[v] = features
        if merge_or_split:
            self.parent[v] = self.current
        self.current = v
        self.maps.append((interval, self.state()))
        return ("upload", "halls", {"type": "FeatureCollection", "features": features}, v)

    def rollback(self, v, interval):
        self.current = v
        self.maps.append((interval, self.state()))
        return ("rollback", "halls", v)

    def add_layer(self, name, features, interval):
        self.layers[name] = features
        self.maps.append((interval, self.state()))
        return ("upload", name, {"type": "FeatureCollection", "features": features}, 1)

    def edited(self, replace, remove=()):
        """The current features with some replaced ({id: feature}) and some removed, in id order."""
        out = [replace.get(f["id"], f) for f in self.features() if f["id"] not in remove]
        out += [f for i, f in replace.items() if i not in {g["id"] for g in self.features()}]
        return sorted(out, key=lambda f: f["id"])

    def feature(self, hall):
        return next(f for f in self.features() if f["id"] == hall)


def load(name):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", name)) as f:
        return json.load(f)


ZONES = {z["id"]: z["geometry"] for z in load("zones.geojson")["features"]}


def cut(geometry, x, side):
    """The part of a geometry west ("west") or east ("east") of the meridian x."""
    from shapely.geometry import box
    b = geometry.bounds
    half = box(b[0] - 1, b[1] - 1, x, b[3] + 1) if side == "west" else box(x, b[1] - 1, b[2] + 1, b[3] + 1)
    return S.polygonal(geometry.intersection(half))


def at(geometry, fraction):
    """The meridian at a fraction of a geometry's width from its west side, to 6 decimals."""
    b = geometry.bounds
    return round(b[0] + (b[2] - b[0]) * fraction, 6)


def edge(maps, west, east, keep, interval):
    """Moves the part of `west` east of `keep` (a fraction of its width) into `east`."""
    from shapely.ops import unary_union
    a, b = maps.shape(west), maps.shape(east)
    x = at(a, keep)
    rest, strip = cut(a, x, "west"), cut(a, x, "east")
    fa, fb = dict(maps.feature(west)), dict(maps.feature(east))
    fa["geometry"] = geojson_of(rest)
    fb["geometry"] = geojson_of(unary_union([b, strip]))
    return maps.new_version(maps.edited({west: fa, east: fb}), interval), x


def merge(maps, west, east, name, interval):
    from shapely.ops import unary_union
    f = dict(maps.feature(east if name == east else west))
    f["id"] = name
    f["geometry"] = geojson_of(unary_union([maps.shape(west), maps.shape(east)]))
    return maps.new_version(maps.edited({name: f}, remove={west, east} - {name}), interval, merge_or_split=True)


def split(maps, hall, fraction, interval):
    a = maps.shape(hall)
    x = at(a, fraction)
    parts = {}
    for suffix, side in (("a", "west"), ("b", "east")):
        f = dict(maps.feature(hall))
        f["id"] = hall + suffix
        f["properties"] = {**f["properties"], "name": f"{f['properties'].get('name', hall)} {suffix}"}
        f["geometry"] = geojson_of(cut(a, x, side))
        parts[f["id"]] = f
    return maps.new_version(maps.edited(parts, remove={hall}), interval, merge_or_split=True)


def rename(maps, hall, name, interval):
    f = dict(maps.feature(hall))
    f["id"] = name
    return maps.new_version(maps.edited({name: f}, remove={hall}), interval)


def campus_layer():
    return [{"type": "Feature", "id": "CAMPUS", "properties": {"name": "Campus"},
             "geometry": {"type": "Polygon", "coordinates": [rect(-87.603, 41.787, -87.579, 41.8035)]}}]


def grid_layer():
    x0, y0, x1, y1 = CAMPUS_BOX
    out = []
    for i in range(4):
        for j in range(3):
            xa, xb = round(x0 + (x1 - x0) * i / 4, 6), round(x0 + (x1 - x0) * (i + 1) / 4, 6)
            ya, yb = round(y0 + (y1 - y0) * j / 3, 6), round(y0 + (y1 - y0) * (j + 1) / 3, 6)
            out.append({"type": "Feature", "id": f"G{i + 1}{j + 1}", "properties": {"name": f"cell {i + 1}{j + 1}"},
                        "geometry": {"type": "Polygon", "coordinates": [rect(xa, ya, xb, yb)]}})
    return out


def safe(maps):
    """Whether every area's interior point lies clearly inside or outside every area of every map
    (a point within 3e-6 degrees, 25 cm, of an edge of halls or a new layer could fall either way between the service's
    geometry and the 6-decimal one it publishes)."""
    from shapely.geometry import Point
    shapes, seen = [], set()
    for _, layers in maps.maps:
        for layer, (version, areas) in layers.items():
            for a, g in areas.items():
                text = json.dumps(g, sort_keys=True)
                if text not in seen:
                    seen.add(text)
                    shapes.append((layer, shapely_of(g)))
    points = [g.point_on_surface() for _, g in shapes]
    # Zones never change: no point is ever asked which zone holds it.
    boundaries = [g.boundary for layer, g in shapes if layer != "zones"]
    return all(b.distance(Point(p.x, p.y)) > 3e-6 for p in points for b in boundaries)


# --- the plan of a run -------------------------------------------------------------------------------

class Plan:
    """What the campus does, interval by interval: `actions[d]` before the reports of interval d
    (uploads and rollbacks), `reports[d]` [(point, n)], `pending` named reports to submit and
    verify later, `revoke[d]` [(interval, point)], `side` the intervals whose number of
    verifications the attacker is told, and `notes` what the sequence is."""

    def __init__(self, name, n, quiet):
        self.name, self.n, self.quiet = name, n, quiet
        self.actions = collections.defaultdict(list)
        self.reports = collections.defaultdict(list)
        self.revoke = collections.defaultdict(list)
        self.side = set()
        self.notes = []
        self.maps = None
        self.watch = []            # (interval, layer, area): areas of changed halls whose reports are cells
        self.cells = []            # extra cells: (label, test(geo, q), first, last)
        self.checks = []           # extra checks: function(session, geo)

    def plant(self, d, point, n):
        if n:
            self.reports[d].append((tuple(point), n))


def changed_halls(maps, bases):
    """The current ids of halls derived from the base halls (renamed, split, merged)."""
    return sorted(h for h in maps.ids() if any(h.startswith(b) for b in bases))


def generate(seed):
    """A random sequence (deterministic for its seed)."""
    for attempt in range(50):
        plan = draw(random.Random(seed * 7919 + attempt), seed)
        if plan is not None and safe(plan.maps):
            return plan
    raise AssertionError(f"no safe sequence for seed {seed}")


def draw(rng, seed):
    base = S.halls_collection()["features"]
    pairs = neighbours(base)
    quiet = seed % 2 == 1
    chosen = rng.sample(pairs, 2 if rng.random() < 0.4 else 1)
    if len(chosen) == 2 and set(chosen[0]) & set(chosen[1]):
        chosen = chosen[:1]
    bases = sorted({h for pair in chosen for h in pair})
    maps = Maps(base)
    changes = rng.randint(2, 4)
    gaps = [rng.randint(1, 2) for _ in range(changes)]
    n = 2 + sum(gaps)
    plan = Plan(f"sequence-{seed}", n, quiet)
    plan.notes.append(f"{'quiet' if quiet else 'busy'} campus, {n} publications, halls {', '.join(bases)}")
    d = 2
    for k in range(changes):
        options = []
        present = [(w, e) for w, e in chosen if w in maps.ids() and e in maps.ids()]
        for w, e in present:
            options += [("edge", w, e), ("sliver", w, e), ("merge", w, e)]
        for h in changed_halls(maps, bases):
            options += [("split", h), ("rename", h)]
        if len(maps.versions) > 1:
            options.append(("rollback",))
        if maps.current in maps.parent:
            options += [("undo",)] * 3
        for name in ("campus", "grid"):
            if name not in maps.layers and not any(layer in maps.layers for layer in ("campus", "grid")):
                options.append(("layer", name))
        if not options:
            return None
        option = rng.choice(options)
        kind = option[0]
        if kind in ("edge", "sliver"):
            keep = 0.06 if kind == "sliver" else rng.choice([rng.uniform(0.2, 0.42), rng.uniform(0.58, 0.85)])
            action, x = edge(maps, option[1], option[2], keep, d)
            note = f"{option[1]}'s edge moved into {option[2]} at {keep:.2f} of its width" + (" (a sliver)" if kind == "sliver" else "")
        elif kind == "merge":
            name = rng.choice([option[1], option[2], option[1] + "m"])
            action = merge(maps, option[1], option[2], name, d)
            note = f"{option[1]} and {option[2]} merged into {name}"
        elif kind == "split":
            fraction = rng.choice([rng.uniform(0.3, 0.42), rng.uniform(0.58, 0.7)])
            action = split(maps, option[1], fraction, d)
            note = f"{option[1]} split at {fraction:.2f} of its width"
        elif kind == "rename":
            name = option[1] + "r"
            if name in maps.ids():
                return None
            action = rename(maps, option[1], name, d)
            note = f"{option[1]} renamed {name}"
        elif kind == "rollback":
            v = rng.choice([v for v in maps.versions if v != maps.current])
            action = maps.rollback(v, d)
            note = f"halls rolled back to version {v}"
        elif kind == "undo":
            v = maps.parent[maps.current]
            action = maps.rollback(v, d)
            note = f"the merge or split undone (halls version {v} again)"
        else:
            action = maps.add_layer(option[1], campus_layer() if option[1] == "campus" else grid_layer(), d)
            note = f"a new layer, {option[1]}"
        plan.actions[d].append(action)
        plan.notes.append(f"before publication {d}: {note}")
        d += gaps[k]
    plan.maps = maps
    # Where to plant: every piece of ground the changed halls are cut into, by any map.
    geo = S.Geography(maps.maps, n)
    spots = [q for q in geo.pieces if any(S.area_in(geo.cls[t][q], "halls") and any(S.area_in(geo.cls[t][q], "halls").startswith(b)
                                                                                        for b in bases) for t in geo.states)]
    points = {q: geo.point[q] for q in spots}
    others = [h for h in sorted(f["id"] for f in base) if h not in bases and h != FILLER]
    filler_points = {h: next(geo.point[q] for q in geo.pieces if S.area_in(geo.cls[0][q], "halls") == h) for h in others + [FILLER]}
    held = collections.Counter()
    for i in range(n):
        if quiet:
            for _ in range(rng.choice([0, 1, 1, 2, 3])):
                plan.plant(i, filler_points[rng.choice(others)], 1)
            if rng.random() < 0.25:
                plan.plant(i, filler_points[rng.choice(others)], rng.randint(12, 14))
        else:
            plan.plant(i, filler_points[FILLER], rng.randint(13, 16))
        for _ in range(rng.choice([1, 1, 2]) if quiet else rng.choice([1, 1, 2, 2, 3])):
            q = rng.choice(spots)
            if quiet:
                count = rng.choice([1, 1, 1, 2, 2, 3, 4]) if rng.random() > 0.15 else rng.randint(12, 14)
            else:
                count = rng.choice([1, 1, 2, 3, 4, 5, 8, 10, 12, 14, 20])
            plan.plant(i, points[q], count)
            held[(i, points[q])] += count
        if i >= 2 and rng.random() < 0.2:
            earlier = sorted(key for key, v in held.items() if v > 0 and key[0] < i)
            if earlier:
                key = rng.choice(earlier)
                held[key] -= 1
                plan.revoke[i].append(key)
        # The side knowledge the rule is made to withstand: exactly how many reports an interval
        # that the gate keeps shut had (told the exact number of a busy interval, the attacker
        # would have the sum of every carry left after its releases).
        changes = sum(n for _, n in plan.reports.get(i, [])) + len(plan.revoke.get(i, []))
        if quiet and changes <= S.K and rng.random() < 0.3:
            plan.side.add(i)
    plan.bases = bases
    return plan


# --- a plan played on the service -------------------------------------------------------------------

def play(s, plan):
    """Runs a plan on the session's server, checks what it changes in public, and solves."""
    for note in plan.notes:
        print(f"# {s.name}: {note}", flush=True)
    first = s.today - datetime.timedelta(days=plan.n - 1)
    s.first_day = first
    for d in range(plan.n):
        day = first + datetime.timedelta(days=d)
        if plan.actions.get(d):
            held = s.read()
            for action in plan.actions[d]:
                if action[0] == "upload":
                    _, layer, collection, version = action
                    body = s.upload(layer, collection)
                    assert body.get("version") == version, (layer, version, body.get("version"))
                else:
                    s.rollback(action[1], action[2])
            between = s.read_between()
            layers = [l for l in held["layers"] if l in between["layers"]]
            moved = S.changed(held, between, layers)
            s.check(not moved, f"the new map before publication {d} moves no public number before the publication", moved)
        for point, n in plan.reports.get(d, []):
            s.covid(n, day, point=point)
        for interval, point in plan.revoke.get(d, []):
            s.revoke(interval, point)
        if d in plan.side:
            s.side[d] = sum(v for (i, _), v in s.truth.items() if i == d)
        s.publish(day)
    geo = S.Geography.from_reads(s)
    S.no_negative(s)
    for check in plan.checks:
        check(s, geo)
    solve_and_check_plan(s, geo, plan)


def solve_and_check_plan(s, geo, plan):
    """The cells of a plan: its own, then the planted small counts of changed halls (the two
    intervals before each change, single pieces, single intervals), at most MAX_CELLS in all."""
    cells, seen = [], set()

    def cap(first, last):
        intervals = range(first, last + 1)
        return sum(s.side[i] for i in intervals) if all(i in s.side for i in intervals) else None

    def add(label, keys, value, cap_):
        key = frozenset(keys)
        if key in seen or not keys:
            return
        seen.add(key)
        cells.append((label, keys, value, cap_))

    for label, test, first, last in plan.cells:
        keys = [("x", i, q) for i in range(first, last + 1) for q in geo.pieces if test(geo, q)]
        add(f"{label} intervals {first}-{last}" if first != last else f"{label} interval {first}", keys, S.truth_of(s, geo, keys), cap(first, last))
    bases = getattr(plan, "bases", [])

    def changed_at(i):
        return sorted({S.area_in(geo.piece_class(i, q), "halls") for q in geo.pieces} - {None})

    halls = lambda i: [h for h in changed_at(i) if any(h.startswith(b) for b in bases)]
    candidates = []
    for g in range(1, plan.n):
        if geo.state_at[g] != geo.state_at[g - 1] and g >= 2:
            for h in halls(g - 1):
                # The ground of the hall as it was at g - 1, over both intervals.
                candidates.append((0, f"{h}'s ground at {g - 1}, intervals {g - 2}-{g - 1} (before the change at {g})", g - 2, g - 1, h, g - 1))
    for (i, point), v in sorted(s.truth.items()):
        q = geo.piece_of(point)
        h = S.area_in(geo.piece_class(i, q), "halls")
        if h and any(h.startswith(b) for b in bases) and len(geo.pieces_in("halls", h, i)) > 1:
            candidates.append((1, f"piece {geo.piece_label(q)} interval {i}", i, i, None, q))
    for i in range(plan.n):
        for h in halls(i):
            candidates.append((2, f"{h} interval {i}", i, i, h, None))
    rng = random.Random(plan.name)
    by_rank = collections.defaultdict(list)
    for c in candidates:
        by_rank[c[0]].append(c)
    ordered = []
    for rank in sorted(by_rank):
        group = by_rank[rank]
        rng.shuffle(group)
        ordered += group
    for _, label, first, last, h, q in ordered:
        if len(cells) >= MAX_CELLS:
            break
        if h is not None and q is not None:
            keys = [("x", i, p) for i in range(first, last + 1) for p in geo.pieces_in("halls", h, q)]
        elif h is not None:
            keys = [("x", i, p) for i in range(first, last + 1) for p in geo.pieces_in("halls", h, i)]
        else:
            keys = [("x", first, q)]
        value = S.truth_of(s, geo, keys)
        limit = cap(first, last)
        if 1 <= value <= S.K:
            add(label, keys, value, limit)
    S.solve_and_check(s, geo, cells)


# --- the fixed regressions ---------------------------------------------------------------------------

H08_WEST, H08_EAST, H08_SOUTH, H08_NORTH = S.H08_WEST, S.H08_EAST, S.H08_SOUTH, S.H08_NORTH
STRIP, REST = (-87.59970, 41.79206), (-87.60010, 41.79206)
H09_POINT = S.interior_point(next(f for f in load("halls.geojson")["features"] if f["id"] == "H09")["geometry"])   # H09 has a courtyard


def strip_test(geo, q):
    """A piece of old H08 east of the edge of hall-edge (-87.5998)."""
    return ("halls", "H08") in geo.cls[geo.state_at[0]][q] and geo.point[q][0] > -87.5998


def rest_test(geo, q):
    return ("halls", "H08") in geo.cls[geo.state_at[0]][q] and geo.point[q][0] < -87.5998


def still(g, halls, why):
    """A check: the halls show at publication g what they showed at g - 1."""
    def check(s_, geo):
        before, after = s_.shown(s_.reads[g - 1], "halls"), s_.shown(s_.reads[g], "halls")
        s_.check(all(before.get(h) == after.get(h) for h in halls), f"at publication {g} {why}: {', '.join(halls)} do not move",
                 f"{[(h, before.get(h), after.get(h)) for h in halls]}")
    return check


def moves(g, hall, by, why):
    """A check: the hall's public number moves by `by` at publication g."""
    def check(s_, geo):
        before, after = s_.shown(s_.reads[g - 1], "halls").get(hall), s_.shown(s_.reads[g], "halls").get(hall)
        s_.check(before is not None and after == before + by, f"at publication {g} {hall} moves by {by}: {why}", f"{before} → {after}")
    return check


def edge_rollback(quiet):
    """H08 releases 40 (13 of them in the strip at its east edge), then gathers a carry of 5 in the
    strip; H09 releases 12. The strip moves to H09 before publication 3 and back (a rollback to
    version 1) before publication 5. Between the two, 2 reports (the busy campus) or exactly one
    (the quiet campus, whose attacker is told that interval 4 had one verification and intervals 3
    and 5 none) are verified in the strip: both halls changed, so they open a new line of H09
    (its geometry is new), which shows in H09 and stays there after the rollback (its
    origin's interior point lies in old H09). On the busy campus 7 reports arrive in what is left
    of H08 right after the move: a new line of H08 too (on the rule before identities they joined
    H08's line, which released 12). The rollback brings back version 1's geometries: the 7 that
    arrive in H08 after it join H08's first line again, which releases its 5 with them (12).
    Nothing moves at either change, so the difference of two pairs (20 - 18 on the rule before
    lines) is gone."""
    plan = Plan("edge-rollback-quiet" if quiet else "edge-rollback", 7, quiet)
    base = S.halls_collection()["features"]
    maps = Maps(base)
    action, _ = edge(maps, "H08", "H09", (-87.5998 - H08_WEST) / (H08_EAST - H08_WEST), 3)
    plan.actions[3].append(action)
    plan.actions[5].append(maps.rollback(1, 5))
    plan.maps = maps
    plan.notes += [f"{'quiet' if quiet else 'busy'} campus: H08's strip moves into H09 before publication 3, rolled back before 5"]
    filler = S.interior_point(next(f for f in base if f["id"] == FILLER)["geometry"])
    for d in range(7):
        if not quiet:
            plan.plant(d, filler, 13)
    plan.plant(0, STRIP, 13)
    plan.plant(0, REST, 27)
    plan.plant(1, STRIP, 5)
    plan.plant(2, H09_POINT, 12)
    if quiet:
        plan.plant(4, STRIP, 1)
        plan.side |= {3, 4, 5}
    else:
        plan.plant(3, STRIP, 1)
        plan.plant(3, REST, 7)
        plan.plant(4, STRIP, 1)
        plan.plant(6, REST, 7)
    plan.cells += [("H08's strip between the move and the rollback", strip_test, 3, 4),
                   ("H08's strip", strip_test, 4, 4), ("H08's rest", rest_test, 4, 4),
                   ("H08's carry in the strip", strip_test, 1, 1)]
    plan.checks += [still(3, ["H08", "H09"], "(the move)"), still(5, ["H08", "H09"], "(the rollback)")]
    if not quiet:
        plan.checks.append(moves(6, "H08", 5 + 7, "after the rollback H08's new reports join its first line again, which releases its"
                                 " carry of 5 with the 7 (the 7 of the move's new line stay stranded)"))
    plan.bases = ["H08", "H09"]
    return plan


def merge_undo(merged="H09"):
    """H08 releases 30 and gathers a carry of 5; H09 releases 12. They merge into one hall under
    H09's id (a MultiPolygon of both) before publication 2, and 3 reports arrive in H09's part of
    it: the merged hall is a new area (a new geometry), so they open a line of their own (on
    the rule before identities they joined the older of H08's and H09's lines, H08's by class key).
    The merge is undone (a rollback) before publication 4: each line goes back to the hall it was
    opened in, H08 shows 30 and H09 12 as before, the merged period's line shows where its
    origin's interior point falls, and nothing tells the carry. Version 1's geometries are back, so
    the 1 and the 7 that arrive in H08 after the undo join H08's first line, which releases 13
    at publication 5 (16 on the rule before identities, with the merged period's 3). (On the rule
    before origins, H08's line stayed in H09 after the undo, since H09 held some of its reports:
    H08 showed 0 and H09 42.)"""
    plan = Plan("merge-undo", 6, False)
    base = S.halls_collection()["features"]
    maps = Maps(base)
    plan.actions[2].append(merge(maps, "H08", "H09", merged, 2))
    plan.actions[4].append(maps.rollback(1, 4))
    plan.maps = maps
    plan.notes.append(f"busy campus: H08 and H09 merge into {merged} before publication 2, undone before 4")
    filler = S.interior_point(next(f for f in base if f["id"] == FILLER)["geometry"])
    for d in range(6):
        plan.plant(d, filler, 13)
    plan.plant(0, REST, 30)
    plan.plant(0, H09_POINT, 12)
    plan.plant(1, STRIP, 5)
    plan.plant(2, H09_POINT, 3)
    plan.plant(4, REST, 1)
    plan.plant(5, REST, 7)
    h09 = lambda geo, q: ("halls", "H09") in geo.cls[geo.state_at[0]][q]
    plan.cells += [("H08's carry", lambda geo, q: ("halls", "H08") in geo.cls[geo.state_at[0]][q], 1, 1),
                   ("H09's part of the merged hall", h09, 2, 2), ("H09's part of the merged hall", h09, 2, 3)]

    def sums(s, geo):
        before, merged, after = (s.shown(s.reads[i], "halls") for i in (1, 2, 4))
        s.check(merged.get(plan.merged) == before["H08"] + before["H09"],
                "the merged hall shows the sum of H08's and H09's blocks", f"H08 {before['H08']}, H09 {before['H09']}, merged {merged.get(plan.merged)}")
        s.check(after["H08"] == before["H08"] and after["H09"] == before["H09"],
                "after the undo H08 and H09 show what they showed before the merge (each line back in the hall it was opened in)",
                f"before ({before['H08']}, {before['H09']}), after ({after['H08']}, {after['H09']})")
    plan.checks += [sums, moves(5, "H08", 5 + 1 + 7, "after the undo H08's new reports join its first line again (its carry of 5"
                                                       " with the 1 and the 7; the merged period's 3 stay in their own line)")]
    plan.bases = ["H08", "H09"]
    plan.merged = merged
    return plan


def edge_two_steps():
    """H08 releases 40: 12 in the part that moves to H09 first (east of 0.75 of its width), 6 in
    the part that moves second (between 0.55 and 0.75), 22 in what stays; then a carry of 3 in
    the second part. Two ordinary versions move the edge to 0.75 (before publication 2) and to
    0.55 (before 4): old H08's interior point (its centre) stays in H08, so nothing moves at either
    (on the old rule the second step moved the first step's settled reports again, -12/+12).
    Reports in the strips after the moves count in H09, in new lines (its area is new at each
    step), and the 9 that arrive in what is left of H08 after the second step in a new line of
    H08: H08's carry of 3 stays stranded (on the rule before identities the 9 joined H08's line,
    which released 12)."""
    plan = Plan("edge-two-steps", 6, False)
    base = S.halls_collection()["features"]
    maps = Maps(base)
    a1, x1 = edge(maps, "H08", "H09", 0.75, 2)
    plan.actions[2].append(a1)
    target = at(shapely_of({"type": "Polygon", "coordinates": [rect(H08_WEST, H08_SOUTH, H08_EAST, H08_NORTH)]}), 0.55)
    b = maps.shape("H08").bounds
    a2, x2 = edge(maps, "H08", "H09", (target - b[0]) / (b[2] - b[0]), 4)
    plan.actions[4].append(a2)
    plan.maps = maps
    plan.notes.append(f"busy campus: H08's edge moves into H09 at {x1} before publication 2, at {x2} before 4")
    y = (H08_SOUTH + H08_NORTH) / 2
    first_part, second_part, rest = ((x1 + H08_EAST) / 2, y), ((x2 + x1) / 2, y), ((H08_WEST + x2) / 2, y)
    filler = S.interior_point(next(f for f in base if f["id"] == FILLER)["geometry"])
    for d in range(6):
        plan.plant(d, filler, 13)
    plan.plant(0, first_part, 12)
    plan.plant(0, second_part, 6)
    plan.plant(0, rest, 22)
    plan.plant(1, second_part, 3)
    plan.plant(2, first_part, 2)
    plan.plant(4, second_part, 1)
    plan.plant(5, rest, 9)
    old = lambda geo, q: ("halls", "H08") in geo.cls[geo.state_at[0]][q]
    plan.cells += [("H08's second part", lambda geo, q: old(geo, q) and x2 < geo.point[q][0] < x1, 1, 1),
                   ("H08's first part", lambda geo, q: old(geo, q) and geo.point[q][0] > x1, 2, 3),
                   ("H08's second part", lambda geo, q: old(geo, q) and x2 < geo.point[q][0] < x1, 4, 4)]
    plan.checks += [still(2, ["H08", "H09"], "(the first step)"), still(4, ["H08", "H09"], "(the second step)"),
                    still(5, ["H08", "H09"], "(the 9 in what is left of H08 open a new line; its old carry of 3 stays stranded)")]
    plan.bases = ["H08", "H09"]
    return plan


def sliver_rename():
    """H08 releases 13 (12 in the strip, 1 in what becomes its sliver) and gathers a carry of 8 in
    the strip. The edge moves to 5 m from H08's west side before publication 2: old H08's interior
    point lies in H09, so H08's line goes there whole. 12 reports arrive in the sliver and open a
    line of H08, released at once. H08 is renamed H08r (the sliver's geometry) before publication
    4: the sliver's line (opened under version 2, whose H08 the sliver is) goes to H08r, and H08's
    first line stays in H09 (old H08's interior point still lies there). 5 more arrive in the
    sliver before the rename (the sliver's line's carry) and 7 after it: H08r has the sliver's
    geometry, so its identity, and they join the sliver's line, which releases 12.
    (ATTACK_IDENTITY=births: H08r is a new id, so they open a line of their own and the carry of
    5 stays stranded.)"""
    plan = Plan("sliver-rename", 6, False)
    base = S.halls_collection()["features"]
    maps = Maps(base)
    action, x = edge(maps, "H08", "H09", 0.06, 2)
    plan.actions[2].append(action)
    plan.actions[4].append(rename(maps, "H08", "H08r", 4))
    plan.maps = maps
    plan.notes.append(f"busy campus: H08 shrinks to a sliver west of {x} before publication 2, renamed H08r before 4")
    y = (H08_SOUTH + H08_NORTH) / 2
    sliver, strip = ((H08_WEST + x) / 2, y), ((x + H08_EAST) / 2, y)
    filler = S.interior_point(next(f for f in base if f["id"] == FILLER)["geometry"])
    for d in range(6):
        plan.plant(d, filler, 13)
    plan.plant(0, strip, 12)
    plan.plant(0, sliver, 1)
    plan.plant(1, strip, 8)
    plan.plant(2, sliver, 12)
    plan.plant(3, sliver, 5)
    plan.plant(4, sliver, 7)
    old = lambda geo, q: ("halls", "H08") in geo.cls[geo.state_at[0]][q]
    plan.cells += [("H08's sliver", lambda geo, q: old(geo, q) and geo.point[q][0] < x, 0, 0),
                   ("H08's carry", old, 1, 1), ("the sliver", lambda geo, q: old(geo, q) and geo.point[q][0] < x, 4, 4)]

    def where(s, geo):
        before, shrunk, renamed = (s.shown(s.reads[i], "halls") for i in (1, 2, 4))
        s.check(shrunk["H09"] == before["H09"] + before["H08"] and shrunk["H08"] == 12,
                "H08 shrunk to a sliver: its line went whole to H09 (old H08's interior point lies there), the sliver's 12 opened a line of H08",
                f"H08 {before['H08']}→{shrunk['H08']}, H09 {before['H09']}→{shrunk['H09']}")
        late = 5 + 7 if S.IDENTITY == "geometry" else 0
        s.check(renamed.get("H08r") == shrunk["H08"] + late and renamed["H09"] == shrunk["H09"] and "H08" not in renamed,
                "after the rename H08r shows the sliver's line and H09 keeps H08's first line; the 7 after the rename "
                + ("join the sliver's line (H08r has its geometry), which releases 12" if late else
                   "open H08r's own line (a new id), and the sliver line's carry of 5 stays stranded"),
                f"H08 {shrunk['H08']}→H08r {renamed.get('H08r')}, H09 {shrunk['H09']}→{renamed['H09']}")
    plan.checks.append(where)
    plan.bases = ["H08", "H09"]
    return plan


def merge_line_age():
    """The finding that made identities (not in run.sh's default list before them): where two lines
    had one class (a merge), new reports joined the older, and an undo showed which line took
    them, so which was older, so that the younger-looking hall's line existed. H09 releases 12 at
    publication 0 (its line exists, in public); H08 gets 5 (a carry: H08 shows 0). H08 and H09
    merge under H08's id before publication 2, where 14 reports arrive in H09's part. On the
    rule before identities, both lines were opened at publication 0 and H08's comes first by class
    key, so it took them and released 19, and after the undo (before publication 3) H08 showed
    19: had H08 held no report at publication 0, H09's line would have been the older and H09
    would have shown 26. So H08's 5 of interval 0 was at least 1: its range 1..11, 10 wide. Now
    the merged hall is a new area (a new geometry): the 14 open a line of their own, released
    at once, and after the undo that line shows in the hall of version 1 holding the merged
    hall's interior point, whatever H08 held."""
    plan = Plan("merge-line-age", 4, False)
    base = S.halls_collection()["features"]
    maps = Maps(base)
    plan.actions[2].append(merge(maps, "H08", "H09", "H08", 2))
    merged_point = maps.shape("H08").point_on_surface()
    plan.actions[3].append(maps.rollback(1, 3))
    holder = next(f["id"] for f in base if f["id"] in ("H08", "H09") and shapely_of(f["geometry"]).covers(merged_point))
    plan.maps = maps
    plan.notes.append("busy campus: H08 (a carry of 5) and H09 (a block of 12) merge before publication 2, undone before 3;"
                      f" the merged hall's interior point lies in old {holder}")
    filler = S.interior_point(next(f for f in base if f["id"] == FILLER)["geometry"])
    for d in range(4):
        plan.plant(d, filler, 13)
    plan.plant(0, REST, 5)
    plan.plant(0, H09_POINT, 12)
    plan.plant(2, H09_POINT, 14)
    plan.cells.append(("H08", lambda geo, q: ("halls", "H08") in geo.cls[geo.state_at[0]][q], 0, 0))

    def where(s, geo):
        before, merged, after = (s.shown(s.reads[i], "halls") for i in (1, 2, 3))
        s.check(merged.get("H08") == before["H08"] + before["H09"] + 14,
                "the merged hall shows H08's and H09's blocks and the merged period's 14 (a line of its own, released)",
                f"H08 {before['H08']}, H09 {before['H09']}, merged {merged.get('H08')}")
        expect = {h: before[h] + (14 if h == holder else 0) for h in ("H08", "H09")}
        s.check(all(after[h] == expect[h] for h in expect),
                f"after the undo the merged period's line shows in {holder} (the hall holding the merged hall's interior point),"
                " H08's and H09's lines in their halls: nothing says which lines existed",
                f"expected {expect}, shown {({h: after[h] for h in expect})}")
    plan.checks.append(where)
    plan.bases = ["H08", "H09"]
    return plan


FIXED = {"edge-rollback": lambda: edge_rollback(False), "edge-rollback-quiet": lambda: edge_rollback(True),
         "merge-undo": merge_undo, "edge-two-steps": edge_two_steps, "sliver-rename": sliver_rename,
         "merge-line-age": merge_line_age}


def scenario(name):
    """The function that plays a fixed regression or `sequence-SEED` on a session."""
    if name in FIXED:
        return lambda session: play(session, FIXED[name]())
    if name.startswith("sequence-") and name[len("sequence-"):].isdigit():
        seed = int(name[len("sequence-"):])
        return lambda session: play(session, generate(seed))
    raise KeyError(name)


if __name__ == "__main__":          # prints the plans of some seeds: python3 sequences.py 1 2 3
    import sys
    for arg in sys.argv[1:]:
        plan = FIXED[arg]() if arg in FIXED else generate(int(arg))
        print(f"{plan.name}:")
        for note in plan.notes:
            print(f"  {note}")
        for d in range(plan.n):
            print(f"  {d}: {sum(n for _, n in plan.reports.get(d, []))} reports, {len(plan.revoke.get(d, []))} revoked"
                  + (", the attacker told how many" if d in plan.side else ""))
