"""The attacker against changes of geography, a quiet campus and the paged misconduct search.
Each scenario runs on a fresh server; attack.py dispatches to them:

  attack.py campus-layer URL ADMIN_EMAIL PASSWORD       a new area layer around the whole campus between publications
  attack.py hall-edge URL ADMIN_EMAIL PASSWORD          a new version of halls that moves a strip of H08 into H09 (old H08's
                                                        interior point stays in H08: nothing moves; reports after it open
                                                        new lines of both halls, and H08's carry stays stranded)
  attack.py hall-shrink URL ADMIN_EMAIL PASSWORD        the same edge moved until H08 keeps a sliver: old H08's interior point
                                                        lies in H09, so H08's line goes there whole, history and carry
  attack.py strip-waits URL ADMIN_EMAIL PASSWORD        the sliver holding one report of H08's block, and 12 new reports in it
                                                        after the change (they open a line of the sliver)
  attack.py strip-whole-release URL ADMIN_EMAIL PASSWORD  H08's block wholly in the strip, its carry in the sliver (the line,
                                                        carry included, goes to H09)
  attack.py pair-after-release URL ADMIN_EMAIL PASSWORD  the edge of hall-edge right after H08 released its 13 (12 in the strip):
                                                        nothing moves
  attack.py pair-after-release-sliver URL ADMIN_EMAIL PASSWORD  the sliver's edge right after H08 released 13 more (46 in all,
                                                        3 in the sliver): the line goes whole to H09
  attack.py hall-split URL ADMIN_EMAIL PASSWORD         a new version of halls that replaces H20 by its two halves; H20's line
                                                        goes to the half holding H20's interior point (the west, H20a)
  attack.py hall-split-east URL ADMIN_EMAIL PASSWORD    the same split cut west of H20's interior point: the line goes to the
                                                        east half, H20b, not to the smaller id
  attack.py rename URL ADMIN_EMAIL PASSWORD             a new version of halls that renames H20 to H20b (H20b shows H20's line,
                                                        and reports after it, and those that named H20, join it)
  attack.py weekly URL ADMIN_EMAIL PASSWORD             five reports a day, published weekly; reports come in through
                                                        `geoserve import-reports` (ATTACK_GEOSERVE, ATTACK_DATABASE) so
                                                        that each is verified on its own day
  attack.py misconduct-paging URL ADMIN_EMAIL PASSWORD  the misconduct search around a verification not yet published
  attack.py sequence-SEED URL ADMIN_EMAIL PASSWORD     a random sequence of two to four changes of the maps (sequences.py;
                                                        run.sh's `sequences` runs a set of seeds, each on a fresh server)
  attack.py edge-rollback URL ADMIN_EMAIL PASSWORD      and edge-rollback-quiet, merge-undo, edge-two-steps, sliver-rename:
                                                        the fixed regressions of two changes in a row (sequences.py)
  attack.py replay FILE                                 solve a scenario dumped with ATTACK_DUMP=folder again

The attacker's programme (`attack_model`) knows the rule as the source states it, every map that
was ever published (read from the service: every layer's areas and their published versions after
each publication), and nothing the campus did:

- Pieces: the ground cut by every map of the run — the cells of the common refinement of every
  version of every area layer that was published at some publication (shapely overlays of what
  `/collections/{layer}/items` served). A piece lies in one area class under each map (a class:
  a combination of areas across the area layers, hall H08 in zone Z1; a point belongs to the
  first area by id whose closure covers it). The unknowns are the reports verified in each
  publication interval on each piece (whole numbers); every planted cell is a sum of them.
- Lines, the rule with identities: new reports of class c, at the first publication that sees
  them, join the line whose IDENTITY is c's on the maps then — per area layer published then,
  the stored geometry of c's area there (served geometries compared as text), or none — opened
  by them when no line has it (with its origin: c and the layers' versions then); a report stays
  in its line for good. (ATTACK_IDENTITY=births: per layer, c's area's id and birth, the smallest
  version of its layer with an area of that id and exactly that geometry: a renamed area opens
  new lines.) A line's class at any publication is a function of its ORIGIN (per area layer
  published when it was opened: the version and its area, or none) and the maps alone: per layer
  L published at version v, the origin's area if its version is v; else the area of L@v with the
  same id and exactly the same geometry; else the area of L@v holding the interior point
  (PointOnSurface) of the origin's area; none for an origin outside every area of L; for a layer
  new to the line, the area holding the interior point of its origin's area in the first layer by
  name where it has one. So the attacker computes every possible line (one per identity of a
  class of some map: origins of one identity have areas of the same geometries, so the same class
  under every map), the class it has at every publication and the class whose new reports it
  takes, all from the maps: an unchanged (or renamed) hall keeps its line; a changed one (an edge,
  a merge, a split; a new layer changes every class) opens new lines, and the old ones keep their
  carries, stranded where their origins lie; a rollback brings back the old geometries and their
  lines. Which lines exist is unknown and does not matter: a line no report opened is one whose
  inflow was 0 throughout. (Before identities, new reports joined the OLDEST line of their class,
  and line age told which halls had had a report: `merge-line-age`.)
- Releases: each line has a carry and blocks dated the publication day. Every public number read
  (any layer, area, window, total, export cell, also those read between a new map and the next
  publication) is the sum of the blocks of the lines whose class at the latest publication has
  that area. At a publication where a number the attacker can follow moved, the interval gate
  was open (at least 12 changes: the interval's verifications and revocations sum to 12 or
  more) and each line is either released (its carry becomes 0 and its block, its whole carry,
  is at least 12 either way) or keeps its block 0 and a carry of at most 11; where the attacker
  sees a line alone (one line behind a hall, or behind a zone minus its halls, or beside lines
  that cannot release then) the data decide which, elsewhere a binary does (HiGHS MILP). A line
  that took no report and lost none since a publication at which the gate was known open (every
  carry within k after it) cannot release. Where nothing moved nothing was released, and a
  binary says whether the gate was open (then every carry is at most 11) or shut (then the
  interval's verifications less its revocations were at most 11).
- Side knowledge: when revocations happened and how many (not where: a revoked report leaves a
  line that held it); where a scenario says so, exactly how many reports were verified in an
  interval.

A scenario's checks: the attacker's programme holds the truth (the reports the campus planted,
run through the rule, give exactly what was published), every planted small count keeps a range
of at least k = 11 that holds it (or, where side knowledge caps an interval's reports below k,
the whole range 0..cap), and the behaviour the scenario is about (nothing moves, a line goes to
the area holding its origin's interior point, a sum matches, a number shows, a list stays).
"""

import collections
import csv
import datetime
import json
import os
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

K = 11
STEP = K + 1
WINDOWS = {"7d": 7, "14d": 14, "28d": 28}
EPS_AREA = 1e-11            # square degrees: a piece smaller than about a tenth of a square metre is an overlay's rounding

A = None            # the attack module: call, report, Campus, numbers_of, total_numbers
# What names a line's identity per area layer (`LineIdentity` in Sources): "geometry", the class's
# area's stored geometry (a renamed area, its ground unchanged, keeps its lines), or "births", the
# area's id and birth (the first version with that id and geometry: a renamed area opens new
# lines). ATTACK_IDENTITY=births checks a build of the second kind.
IDENTITY = os.environ.get("ATTACK_IDENTITY", "geometry")
assert IDENTITY in ("geometry", "births"), IDENTITY


def utc_today():
    return datetime.datetime.now(datetime.timezone.utc).date()


def klass(*pairs):
    """An area class: (layer, area) pairs in layer order."""
    return tuple(sorted(pairs))


def area_in(c, layer):
    return next((a for l, a in c if l == layer), None)


def rect(x0, y0, x1, y1):
    """A counterclockwise rectangle ring."""
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]


def interior_point(geometry):
    """GEOS PointOnSurface of a GeoJSON geometry, as (lon, lat)."""
    from shapely.geometry import shape
    p = shape(geometry).point_on_surface()
    return (p.x, p.y)


# --- the campus side ---------------------------------------------------------------------------------

class Session:
    """One scenario on one fresh server: plants reports, publishes, and reads everything after each
    publication as the attacker does. The campus's truth: reports by (interval, point), the
    interval being the publication that first sees them; revocations by (interval, the report's
    interval, point)."""

    def __init__(self, name, url, email, password):
        self.name, self.url = name, url
        status, session = A.call(f"{url}/v1/auth/login", "POST", {"email": email, "password": password})
        assert status == 200, session
        self.token = session["token"]
        status, _ = A.call(f"{url}/v1/accounts", "POST", {"email": "researcher@attack.example", "role": "researcher",
                                                          "password": "attack-password-1"}, self.token)
        assert status == 201
        _, researcher = A.call(f"{url}/v1/auth/login", "POST", {"email": "researcher@attack.example", "password": "attack-password-1"})
        self.researcher = researcher["token"]
        self.campus = A.Campus(url, self.token)
        self.zone_of = self.campus.zone_of
        self.today = utc_today()
        self.truth = collections.Counter()       # (interval, point) -> verified reports
        self.revoked = []                        # (interval, interval verified, point)
        self.revocations = collections.Counter() # interval -> revocations (the attacker knows when and how many)
        self.side = {}                           # interval -> verifications, where the attacker is told
        self.ids = collections.defaultdict(list) # (interval, point) -> report ids
        self.days = []                           # publication days
        self.reads = []                          # what the attacker read after each publication
        self.extra_reads = []                    # (publication, read) between a change of the map and the next publication
        self.first_day = None

    def check(self, ok, name, why=""):
        A.report(ok, f"{self.name}: {name}", why)

    def hall_class(self, hall, *more):
        return klass(("halls", hall), ("zones", self.zone_of[hall]), *more)

    def containing(self, lon, lat):
        _, found = A.call(f"{self.url}/v1/areas/containing?lon={lon}&lat={lat}")
        return klass(*((a["layer"], a["id"]) for a in found.get("areas", [])))

    def interval(self):
        return len(self.days)

    def verify(self, report_id):
        status, body = A.call(f"{self.url}/v1/reports/{report_id}/transitions", "POST", {"transition": "verify"}, self.token)
        assert status == 200, (status, body)

    def named_point(self, hall):
        """Where a report naming `hall` lies for the rule: the hall's interior point in the version
        published now (the service places it in the hall, and in other layers by that point)."""
        status, feature = A.call(f"{self.url}/collections/halls/items/{hall}")
        assert status == 200, (status, feature)
        return interior_point(feature["geometry"])

    def submit(self, day, hall=None, point=None):
        draft = {"kind": "covid", "affiliation": "student", "phone": "+1 336 555 0142", "testDate": day.isoformat(),
                 "lastOnCampus": day.isoformat()}
        if point:
            draft["location"] = {"lon": point[0], "lat": point[1], "accuracyM": 5}
        else:
            draft["area"] = {"layer": "halls", "id": hall}
        status, body = A.call(f"{self.url}/v1/reports", "POST", draft)
        assert status == 201, (status, body)
        return body["id"]

    def covid(self, n, day, hall=None, point=None):
        """n verified COVID reports naming `hall` or at `point`, in the campus's truth at the point
        (a named hall's interior point)."""
        if not n:
            return
        where = tuple(point) if point else self.named_point(hall)
        key = (self.interval(), where)
        for _ in range(n):
            report_id = self.submit(day, hall, point)
            self.verify(report_id)
            self.ids[key].append(report_id)
        self.truth[key] += n

    def verify_pending(self, ids, where):
        """Verifies reports submitted earlier (pending), counted where they lie for the rule now."""
        key = (self.interval(), tuple(where))
        for report_id in ids:
            self.verify(report_id)
            self.ids[key].append(report_id)
        self.truth[key] += len(ids)

    def revoke(self, interval, point):
        """Revokes one report verified in an earlier interval at `point`."""
        key = (interval, tuple(point))
        assert interval < self.interval() and self.ids[key], key
        report_id = self.ids[key].pop()
        status, body = A.call(f"{self.url}/v1/reports/{report_id}/transitions", "POST",
                              {"transition": "revoke", "reason": "planted revocation"}, self.token)
        assert status == 200, (status, body)
        self.revoked.append((self.interval(), interval, tuple(point)))
        self.revocations[self.interval()] += 1

    def misconduct(self, point, day, verify=True):
        draft = {"kind": "misconduct", "occurredAt": f"{day.isoformat()}T00:00:01Z",
                 "location": {"lon": point[0], "lat": point[1], "accuracyM": 10},
                 "officerDescription": "tall", "incidentDescription": "stopped without reason", "anonymous": True}
        status, body = A.call(f"{self.url}/v1/reports", "POST", draft)
        assert status == 201, (status, body)
        if verify:
            self.verify(body["id"])
        return body["id"]

    def upload(self, layer, collection):
        request = urllib.request.Request(f"{self.url}/v1/layers/{layer}/versions?kind=areas&publish=true", json.dumps(collection).encode(),
                                         {"Content-Type": "application/geo+json", "Accept": "application/json",
                                          "Authorization": f"Bearer {self.token}"}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                status, body = answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            status, body = error.code, json.load(error)
        assert status == 201 and body.get("published"), (status, body)
        return body

    def rollback(self, layer, version):
        """Publishes an older version of a layer again (`POST /v1/layers/{layer}/versions/{v}/publish`)."""
        status, body = A.call(f"{self.url}/v1/layers/{layer}/versions/{version}/publish", "POST", None, self.token)
        assert status in (200, 201), (status, body)
        return body

    def publish(self, day=None):
        status, made = A.call(f"{self.url}/v1/publications", "POST", {"day": day.isoformat()} if day else {}, self.token)
        assert status == 201, (status, made)
        self.days.append(datetime.date.fromisoformat(made["day"]))
        self.reads.append(self.read())
        return made

    def layer_versions(self):
        _, body = A.call(f"{self.url}/v1/layers")
        return {l["name"]: l["publishedVersion"] for l in body["layers"] if l["kind"] == "areas" and l.get("publishedVersion")}

    def read(self):
        """Every area layer (its published version and areas), both kinds, and a researcher's
        exports in every bucket."""
        versions = self.layer_versions()
        snapshot = {"items": {}, "exports": {}, "layers": sorted(versions), "versions": versions}
        for layer in snapshot["layers"]:
            for kind in ("covid", "misconduct"):
                status, body = A.call(f"{self.url}/collections/{layer}/items?limit=1000&kind={kind}")
                assert status == 200, (status, body)
                snapshot["items"][(layer, kind)] = body
                for bucket in ("day", "week", "month"):
                    status, export = A.call(f"{self.url}/v1/exports/area-stats?layer={layer}&from={self.first_day}&to={self.today}"
                                            f"&bucket={bucket}&kind={kind}&format=json", token=self.researcher)
                    assert status == 200, (status, export)
                    snapshot["exports"][(layer, kind, bucket)] = export
        return snapshot

    def read_between(self):
        """A read between a change of the map and the next publication, kept for the programme."""
        between = self.read()
        if self.days:
            self.extra_reads.append((len(self.days) - 1, between))
        return between

    def shown(self, read, layer, prop="verified_all", kind="covid"):
        return {f["id"]: f["properties"][prop] for f in read["items"][(layer, kind)]["features"]}


def changed(held, between, layers):
    """What differs between two reads of the layers' numbers (both kinds) for the areas both have,
    as text; empty when nothing."""
    out = []
    for layer in layers:
        for kind in ("covid", "misconduct"):
            # The numbers only: a rate per 1,000 follows the area's capacity, which a new map may change.
            a = {f["id"]: A.numbers_of(f["properties"]) for f in held["items"][(layer, kind)]["features"]}
            b = {f["id"]: A.numbers_of(f["properties"]) for f in between["items"][(layer, kind)]["features"]}
            out += [f"{layer} {kind} {i}" for i in sorted(set(a) & set(b)) if a.get(i) != b.get(i)]
            # A line whose area the new map no longer has counts in no area until the next
            # publication: a layer's total is compared only where the layer keeps its areas.
            same = set(a) == set(b)
            if same and held["items"][(layer, kind)]["statistics"]["total"] != between["items"][(layer, kind)]["statistics"]["total"]:
                out.append(f"{layer} {kind} total")
    return ", ".join(out)


def halls_collection(edit=None):
    """data/halls.geojson with `edit(features)` applied."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "halls.geojson")) as f:
        collection = json.load(f)
    if edit:
        edit(collection["features"])
    return collection


# --- the attacker's programme ----------------------------------------------------------------------

def class_key(c):
    """The ledger's text key of a class: `layer` US `area` pairs, sorted by layer, joined by RS.
    Lines opened in one publication get their numbers in this order."""
    return "\x1e".join(f"{l}\x1f{a}" for l, a in sorted(c))


def hall_name(c):
    return area_in(c, "halls") or "/".join(a for _, a in c) or "outside"


def polygonal(geometry):
    """The polygons of an overlay's result (a GeometryCollection may hold lines and points too)."""
    from shapely.geometry import MultiPolygon, Polygon
    if geometry.is_empty:
        return None
    if isinstance(geometry, (Polygon, MultiPolygon)):
        return geometry
    parts = []
    for g in getattr(geometry, "geoms", []):
        if isinstance(g, Polygon):
            parts.append(g)
        elif isinstance(g, MultiPolygon):
            parts.extend(g.geoms)
    return MultiPolygon(parts) if parts else None


class Geography:
    """The maps of a run as the attacker read them, and what the rule makes of them.

    `maps`: [(publication index from which the map is in force, {layer: (version, {area id:
    GeoJSON geometry})})], one entry per change (a map read after publication i is in force at i:
    reports of interval i are accounted under it). A map is a state: the published version of
    every area layer, so a rollback returns to an earlier state, areas and all.

    - `pieces`: the common refinement of every map's areas; each piece has an interior point
      (`point`) and a class under each state (`cls[t][q]`).
    - `remap(origin, t)`: the class a line of that origin has under state t (the rule above).
    - `birth(layer, version, area)`, `identity(t, c)`: which line takes class c's new reports
      under state t (see `Lines`)."""

    def __init__(self, maps, n):
        from shapely.geometry import shape
        from shapely.prepared import prep
        self.n = n
        self.versions, keys = [], {}
        self.geometry, self.text, self.prepared = {}, {}, {}
        starts = []
        for start, layers in sorted(maps, key=lambda m: m[0]):
            key = tuple(sorted((l, v) for l, (v, _) in layers.items()))
            for layer, (version, areas) in layers.items():
                if (layer, version) not in self.geometry:
                    self.geometry[(layer, version)] = {a: shape(g) for a, g in areas.items()}
                    self.text[(layer, version)] = {a: json.dumps(g, sort_keys=True) for a, g in areas.items()}
                    self.prepared[(layer, version)] = [(a, prep(self.geometry[(layer, version)][a])) for a in sorted(areas)]
            if key not in keys:
                keys[key] = len(self.versions)
                self.versions.append({l: v for l, v in key})
            starts.append((start, keys[key]))
        self.state_at = []
        for i in range(n):
            self.state_at.append([t for s, t in starts if s <= i][-1])
        used = sorted(set(self.state_at))
        self.states = used
        self._interior, self._birth = {}, {}
        self._refine()

    @classmethod
    def from_reads(cls, session):
        """The maps read after each publication (the attacker's own view of them)."""
        maps, last = [], None
        for i, r in enumerate(session.reads):
            key = tuple(sorted(r["versions"].items()))
            if key == last:
                continue
            last = key
            layers = {layer: (r["versions"][layer], {f["id"]: f["geometry"] for f in r["items"][(layer, "covid")]["features"]})
                      for layer in r["layers"]}
            maps.append((i, layers))
        return cls(maps, len(session.reads))

    def locate(self, t, layer, point):
        """The area of `layer` under state t that holds the point: the first by id whose closure covers it."""
        from shapely.geometry import Point
        version = self.versions[t].get(layer)
        if version is None:
            return None
        p = Point(point)
        return next((a for a, g in self.prepared[(layer, version)] if g.covers(p)), None)

    def interior(self, layer, version, area):
        key = (layer, version, area)
        if key not in self._interior:
            p = self.geometry[(layer, version)][area].point_on_surface()
            self._interior[key] = (p.x, p.y)
        return self._interior[key]

    def class_at(self, t, point):
        return klass(*((layer, a) for layer in self.versions[t] for a in [self.locate(t, layer, point)] if a is not None))

    def _refine(self):
        from shapely.ops import unary_union
        shapes, seen = [], set()
        for t in self.states:
            for layer, version in sorted(self.versions[t].items()):
                for a, g in sorted(self.geometry[(layer, version)].items()):
                    if g.wkb not in seen:
                        seen.add(g.wkb)
                        shapes.append(g)
        pieces = [unary_union(shapes)]
        for g in shapes:
            box = g.bounds
            out = []
            for p in pieces:
                b = p.bounds
                if b[0] > box[2] or b[2] < box[0] or b[1] > box[3] or b[3] < box[1] or not p.intersects(g):
                    out.append(p)
                    continue
                for part in (p.intersection(g), p.difference(g)):
                    part = polygonal(part)
                    if part is not None and part.area > EPS_AREA:
                        out.append(part)
            pieces = out
        found = []
        for p in pieces:
            point = p.point_on_surface()
            found.append(((point.x, point.y), p))
        self.cls = {t: {} for t in self.states}
        rows = []
        for point, p in found:
            classes = {t: self.class_at(t, point) for t in self.states}
            if not any(classes.values()):
                continue                   # ground in no area of any layer: no report can lie there
            rows.append((tuple(class_key(classes[t]) for t in self.states), point, p, classes))
        rows.sort(key=lambda r: (r[0], r[1]))
        self.pieces, self.point, self.shape = [], {}, {}
        for q, (_, point, p, classes) in enumerate(rows):
            self.pieces.append(q)
            self.point[q], self.shape[q] = point, p
            for t in self.states:
                self.cls[t][q] = classes[t]
        self.ground = {t: sorted({self.cls[t][q] for q in self.pieces}, key=class_key) for t in self.states}

    def piece_label(self, q):
        names = []
        for t in self.states:
            name = hall_name(self.cls[t][q])
            if not names or names[-1] != name:
                names.append(name)
        return "→".join(names)

    def piece_of(self, point):
        """The piece a planted point lies in."""
        from shapely.geometry import Point
        p = Point(point)
        for q in self.pieces:
            if self.shape[q].covers(p):
                return q
        raise AssertionError(f"a planted point lies in no piece of ground: {point}")

    def piece_class(self, i, q):
        """The class of piece q at publication i."""
        return self.cls[self.state_at[i]][q]

    def origin(self, t, c):
        """The origin of a line opened for class c under state t: (layer, version, area or None)."""
        return tuple((layer, v, area_in(c, layer)) for layer, v in sorted(self.versions[t].items()))

    def remap(self, origin, t):
        """The class of a line of this origin under state t (see the module's docstring)."""
        versions = self.versions[t]
        entries = {l: (u, a) for l, u, a in origin}
        reference = next(((l, u, a) for l, u, a in origin if a is not None), None)
        areas = []
        for layer in sorted(versions):
            v = versions[layer]
            if layer in entries:
                u, a = entries[layer]
                if a is None:
                    continue
                if u == v:
                    areas.append((layer, a))
                    continue
                same = self.text[(layer, v)].get(a)
                if same is not None and same == self.text[(layer, u)][a]:
                    areas.append((layer, a))
                    continue
                found = self.locate(t, layer, self.interior(layer, u, a))
            elif reference is not None:
                found = self.locate(t, layer, self.interior(*reference))
            else:
                found = None
            if found is not None:
                areas.append((layer, found))
        return klass(*areas)

    def pieces_in(self, layer, area, i):
        """The pieces lying in an area at publication i (the reports of interval i there)."""
        return [q for q in self.pieces if (layer, area) in self.piece_class(i, q)]

    def birth(self, layer, version, area):
        """What names the area in a line's identity, as "id@version" (`IDENTITY`): "geometry", the
        first area (by version, then id) of the layer's versions published in the run with exactly
        its geometry, so equal geometries, whatever their ids, get one name; "births", its id and
        birth, the smallest version with an area of that id and exactly that geometry."""
        key = (layer, version, area)
        if key not in self._birth:
            text = self.text[(layer, version)][area]
            same = [(u, a) for (l, u), areas in self.text.items() if l == layer for a, g in areas.items() if g == text
                    and (IDENTITY == "geometry" or a == area)]
            u, a = min(same)
            self._birth[key] = f"{a}@{u}"
        return self._birth[key]

    def identity(self, t, c):
        """The identity of the line that takes class c's new reports under state t: per area layer
        published then, (layer, the name `birth` gives c's area there, or None)."""
        return tuple((layer, self.birth(layer, v, a) if a is not None else None)
                     for layer, v in sorted(self.versions[t].items()) for a in [area_in(c, layer)])


class Lines:
    """The possible ledger lines of a run under the rule with identities. A line is named by its
    identity (`Geography.identity`): new reports of class c under state t join the line of
    identity(t, c), opened by them if no report had that identity before. Per line: the
    publications at which it takes new reports (`takes[(line, i)]`: the class whose reports it
    takes then), its class at each publication from the first of them (`cls`: from its origin and
    the maps alone, `Geography.remap`; origins of one identity have one area geometry in every
    layer, so they agree under every state). Which lines exist does not matter: a line no report
    opened is a line whose inflow was 0 at every publication (its carry and blocks 0), so the
    programme keeps every possible line from the first publication that could open it."""

    def __init__(self, geo):
        n, self.geo = geo.n, geo
        column = {t: k for k, t in enumerate(geo.states)}
        self.column = column
        self.opener, self.trajectory = {}, {}
        for t in geo.states:
            for c in geo.ground[t]:
                line = geo.identity(t, c)
                self.opener[(t, c)] = line
                path = tuple(geo.remap(geo.origin(t, c), u) for u in geo.states)
                assert self.trajectory.setdefault(line, path) == path, (line, path, self.trajectory[line])
                assert path[column[t]] == c, (line, t, c, path)
        self.openable = collections.defaultdict(list)
        self.takes, self.taker = {}, {}
        for i in range(n):
            t = geo.state_at[i]
            for c in geo.ground[t]:
                line = self.opener[(t, c)]
                self.openable[line].append(i)
                self.takes[(line, i)] = c
                self.taker[(c, i)] = line
        self.start = {line: at[0] for line, at in self.openable.items()}
        self.lines = sorted(self.start, key=lambda line: (self.start[line], class_key(self.trajectory[line][column[geo.state_at[self.start[line]]]]),
                                                           line))
        self.cls = {line: [self.trajectory[line][column[geo.state_at[i]]] if i >= self.start[line] else None for i in range(n)]
                    for line in self.lines}

    def name(self, line):
        i = self.start[line]
        names = []
        for c in self.trajectory[line]:
            if not names or names[-1] != hall_name(c):
                names.append(hall_name(c))
        births = "/".join(b for _, b in line if b is not None)
        return f"line {'→'.join(names)} (of {births}, from {i})"

    def exists(self, line, i):
        return self.start[line] <= i


class Program:
    """A sparse MILP: named variables with bounds, rows lo <= a.x <= hi, labelled for diagnosis."""

    def __init__(self):
        self.index, self.lb, self.ub, self.integer = {}, [], [], []
        self.rows, self.cols, self.vals, self.lo, self.hi, self.labels = [], [], [], [], [], []

    def var(self, name, lb=0.0, ub=float("inf"), integer=False):
        if name not in self.index:
            self.index[name] = len(self.lb)
            self.lb.append(lb)
            self.ub.append(ub)
            self.integer.append(1 if integer else 0)
        return self.index[name]

    def bound(self, name, lb, ub):
        k = self.index[name]
        self.lb[k], self.ub[k] = lb, ub

    def row(self, terms, lo, hi, label):
        r = len(self.lo)
        for name, coefficient in terms.items():
            if coefficient:
                self.rows.append(r)
                self.cols.append(self.index[name])
                self.vals.append(coefficient)
        self.lo.append(lo)
        self.hi.append(hi)
        self.labels.append(label)

    def freeze(self):
        import numpy as np
        from scipy.sparse import coo_matrix
        self.A = coo_matrix((self.vals, (self.rows, self.cols)), shape=(len(self.lo), len(self.lb))).tocsr()
        self.arrays = tuple(np.array(x, dtype=float) for x in (self.lo, self.hi, self.lb, self.ub))

    def violations(self, values):
        """Rows and bounds the given assignment breaks (the truth must break none)."""
        import numpy as np
        x = np.zeros(len(self.lb))
        for name, k in self.index.items():
            x[k] = values.get(name, 0)
        lo, hi, lb, ub = self.arrays
        ax = self.A @ x
        bad = [f"{self.labels[r]}: {ax[r]:g} not in {lo[r]:g}..{hi[r]:g}" for r in np.nonzero((ax < lo - 1e-6) | (ax > hi + 1e-6))[0]]
        names = {k: name for name, k in self.index.items()}
        bad += [f"{names[k]} = {x[k]:g} not in {lb[k]:g}..{ub[k]:g}" for k in np.nonzero((x < lb - 1e-6) | (x > ub + 1e-6))[0]]
        return bad

    def optimum(self, objective, sense):
        """min (sense 1) or max (sense -1) of Σ objective; None when infeasible, ±inf when unbounded.
        A MILP cut short by its time limit answers its bound, which only widens the range. HiGHS's
        presolve now and then calls a feasible programme infeasible for one objective (seen on a
        settled strip's share): such an answer is asked again without presolve, and one that
        neither finds is None (the check fails), never a range made wider than it is."""
        import numpy as np
        from scipy.optimize import Bounds, LinearConstraint, milp
        c = np.zeros(len(self.lb))
        for name, coefficient in objective.items():
            c[self.index[name]] = sense * coefficient
        lo, hi, lb, ub = self.arrays
        for presolve in (True, False):
            result = milp(c, constraints=LinearConstraint(self.A, lo, hi), integrality=np.array(self.integer), bounds=Bounds(lb, ub),
                          options={"time_limit": 60.0, "presolve": presolve})
            if result.status == 0:
                return sense * result.fun
            if result.status == 1:
                bound = getattr(result, "mip_dual_bound", None)
                if bound is not None and abs(bound) < float("inf"):
                    return sense * bound
                return float("-inf") if sense == 1 else float("inf")
            if result.status == 3:
                return float("-inf") if sense == 1 else float("inf")
        return None


def window_span(days, i, name):
    kind, window = name
    end = days[i]
    if window == "all":
        return datetime.date.min, end
    n = WINDOWS[window]
    if kind == "previous":
        return end - datetime.timedelta(days=2 * n - 1), end - datetime.timedelta(days=n)
    return end - datetime.timedelta(days=n - 1), end




def attack_model(session, geo):
    """The attacker's programme over everything read, under the rule with identities. Returns
    (program, lines, inconsistencies, busy, simulate) where `simulate(session)` runs the rule over
    the campus's truth and gives every variable's value."""
    days, reads, n = session.days, session.reads, len(session.days)
    lines = Lines(geo)
    p = Program()
    alltime = [{(layer, f["id"]): f["properties"]["verified_all"] for layer in r["layers"] for f in r["items"][(layer, "covid")]["features"]}
               for r in reads]
    largest = max([sum(v for (layer, _), v in a.items() if layer == "zones") for a in alltime] + [0])
    M = 2 * largest + STEP * len(lines.lines) + sum(session.side.values()) + 200
    for i in range(n):
        for q in geo.pieces:
            p.var(("x", i, q), 0, M, integer=True)          # whole reports
    of_class = collections.defaultdict(list)
    for i in range(n):
        for q in geo.pieces:
            of_class[(geo.piece_class(i, q), i)].append(q)

    def X(c, i):
        return {("x", i, q): 1 for q in of_class.get((c, i), [])}

    revoking = sorted(i for i, count in session.revocations.items() if count)
    for line in lines.lines:
        for i in range(lines.start[line], n):
            p.var(("b", line, i), float("-inf"))
            p.var(("c", line, i), float("-inf"))
            if i in revoking:
                p.var(("r", line, i), 0, session.revocations[i], integer=True)

    def plus(*terms):
        out = {}
        for sign, t in terms:
            for k_, v in t.items():
                out[k_] = out.get(k_, 0) + sign * v
        return out

    def inflow(line, i):
        """The new reports the line takes at publication i: those of the class whose identity is
        the line's on the maps then (a function of the maps alone)."""
        c = lines.takes.get((line, i))
        return X(c, i) if c is not None else {}

    # Revocations: when and how many are known, not where; a revoked report leaves a line that held it.
    for i in revoking:
        p.row({("r", line, i): 1 for line in lines.lines if lines.exists(line, i)}, session.revocations[i], session.revocations[i],
              f"{session.revocations[i]} revoked in interval {i}")
        for line in lines.lines:
            if not lines.exists(line, i) or lines.start[line] == i:
                if lines.exists(line, i):
                    p.bound(("r", line, i), 0, 0)
                continue
            held = {}
            for j in range(lines.start[line], i):
                held = plus((1, held), (1, inflow(line, j)), (-1, {("r", line, j): 1} if j in revoking else {}))
            p.row(plus((1, held), (-1, {("r", line, i): 1})), 0, float("inf"), f"{lines.name(line)} held what was revoked at {i}")
    for i, count in session.side.items():
        p.row({("x", i, q): 1 for q in geo.pieces}, count, count, f"side knowledge: {count} verified in interval {i}")

    # What each read shows per line: the areas its class has in the layers as read.
    present = [{(layer, f["id"]) for layer in r["layers"] for f in r["items"][(layer, "covid")]["features"]} for r in reads]

    def mapped(line, i, shown=None):
        shown = present[i] if shown is None else shown
        return tuple(pair for pair in lines.cls[line][i] if pair in shown) if lines.exists(line, i) else ()

    def group_of(line, i):
        """The lines the attacker sees together with `line` at read i, and their all-time sum
        (None when the read does not show them apart)."""
        m = mapped(line, i)
        hall, zone = area_in(m, "halls"), area_in(m, "zones")
        alive = [l for l in lines.lines if lines.exists(l, i)]
        if hall:
            members = [l for l in alive if ("halls", hall) in mapped(l, i)]
            return members, alltime[i][("halls", hall)]
        if zone:
            members = [l for l in alive if ("zones", zone) in mapped(l, i) and area_in(mapped(l, i), "halls") is None]
            halls = {area_in(mapped(l, i), "halls") for l in alive if ("zones", zone) in mapped(l, i)} - {None}
            if any(area_in(mapped(l, i), "zones") != zone for l in alive for h in halls if ("halls", h) in mapped(l, i)):
                return members, None
            return members, alltime[i][("zones", zone)] - sum(alltime[i][("halls", h)] for h in halls)
        return [line], None

    # A publication was busy (the gate was open) when some number the attacker can follow moved:
    # a group of lines, or a layer's total, whose lines are those of the read before (and new
    # ones, which held nothing).
    def followed(i):
        out = {}
        for line in lines.lines:
            if lines.exists(line, i):
                members, value = group_of(line, i)
                if value is not None:
                    out[("group", frozenset(members))] = (frozenset(members), value)
        for layer in reads[i]["layers"]:
            members = frozenset(l for l in lines.lines if lines.exists(l, i) and area_in(mapped(l, i), layer) is not None)
            out[("total", layer)] = (members, reads[i]["items"][(layer, "covid")]["statistics"]["total"]["counts"]["all"])
        return out

    busy = []
    for i in range(n):
        now, before = followed(i), followed(i - 1) if i else {}
        moved = False
        for key, (members, value) in now.items():
            was_members, was = before.get(key, (frozenset(), 0))
            if was_members <= members and all(lines.start[l] == i for l in members - was_members) and value != was:
                moved = True
        busy.append(moved)
    # A line that took no report and lost none since a publication the gate is known to have been
    # open at (which left every carry within k) cannot have reached the step: it releases nothing.
    # Lines a change left behind (their class's new reports now join another line) are such.
    frozen = set()
    for line in lines.lines:
        clean = True                # no carry before the line's first publication
        for i in range(lines.start[line], n):
            touched = (line, i) in lines.takes or i in revoking
            if busy[i] and clean and not touched:
                frozen.add((line, i))
            clean = busy[i] or (clean and not touched)

    # (line, i) -> its block, when the attacker sees the line alone (one line behind a hall, or
    # behind a zone minus its halls), or beside lines that release nothing then.
    seen = {}
    for line in lines.lines:
        for i in range(lines.start[line], n):
            members, value = group_of(line, i)
            if value is None or line not in members:
                continue
            others = [l for l in members if l != line]
            if not all((l, i) in frozen for l in others):
                continue
            if i == lines.start[line]:
                # A new line: alone, or beside lines that read i - 1 showed together.
                if not others:
                    seen[(line, i)] = value
                elif all(lines.exists(l, i - 1) for l in others):
                    previous, before = group_of(others[0], i - 1)
                    if before is not None and set(previous) == set(others):
                        seen[(line, i)] = value - before
                continue
            previous, before = group_of(line, i - 1)
            if before is not None and set(previous) == set(members):
                seen[(line, i)] = value - before

    inconsistent = [f"{lines.name(line)} moved by {v} at publication {i}, less than a block" for (line, i), v in seen.items() if v and abs(v) < STEP]

    changes = {}
    for i in range(n):
        changes[i] = plus((1, {("x", i, q): 1 for q in geo.pieces}),
                          (1, {("r", line, i): 1 for line in lines.lines if i in revoking and lines.exists(line, i)}))
        net = plus((1, {("x", i, q): 1 for q in geo.pieces}),
                   (-1, {("r", line, i): 1 for line in lines.lines if i in revoking and lines.exists(line, i)}))
        if busy[i]:
            p.row(changes[i], STEP, float("inf"), f"the gate was open at {i}: at least {STEP} changes")
        else:
            # Nothing moved: nothing was released. Either the gate was shut (at most 11 changes,
            # so the net of them is within 11) or it was open and no line had reached the step.
            g = ("g", i)
            p.var(g, 0, 1, integer=True)
            p.row(plus((1, net), (-M, {g: 1})), float("-inf"), K, f"gate shut at {i}: at most {K} changes")
            p.row(plus((1, net), (M, {g: 1})), -K, float("inf"), f"gate shut at {i}: at most {K} changes")
            p.row(plus((1, changes[i]), (-M, {g: 1})), STEP - M, float("inf"), f"gate open at {i}: at least {STEP} changes")

    for line in lines.lines:
        for i in range(lines.start[line], n):
            rel = {("b", line, i): 1}
            carry = plus((1, {("c", line, i): 1}), (-1, inflow(line, i)), (1, rel),
                         (1, {("r", line, i): 1} if i in revoking else {}),
                         (-1, {("c", line, i - 1): 1} if i > lines.start[line] else {}))
            p.row(carry, 0, 0, f"carry of {lines.name(line)} at {i}")
            if not busy[i]:
                p.row(rel, 0, 0, f"nothing released at quiet publication {i}: {lines.name(line)}")
                g = ("g", i)
                p.row({("c", line, i): 1, g: M}, float("-inf"), K + M, f"gate open at {i}: {lines.name(line)} below the step")
                p.row({("c", line, i): -1, g: M}, float("-inf"), K + M, f"gate open at {i}: {lines.name(line)} below the step")
            elif (line, i) in frozen:
                p.row(rel, 0, 0, f"{lines.name(line)} took no report since the gate was last open: nothing to release at {i}")
                p.bound(("c", line, i), -K, K)
            elif (line, i) in seen:
                if seen[(line, i)]:
                    p.bound(("c", line, i), 0, 0)
                else:
                    p.row(rel, 0, 0, f"{lines.name(line)} not released at {i}")
                    p.bound(("c", line, i), -K, K)
            else:
                p.bound(("c", line, i), -K, K)
                p.var(("z", line, i), 0, 1, integer=True)
                p.var(("y", line, i), 0, 1, integer=True)
                z, y = ("z", line, i), ("y", line, i)
                p.row({("c", line, i): 1, z: K}, float("-inf"), K, f"released {lines.name(line)} at {i}: carry 0")
                p.row({("c", line, i): -1, z: K}, float("-inf"), K, f"released {lines.name(line)} at {i}: carry 0")
                p.row({**rel, z: -M}, float("-inf"), 0, f"unreleased {lines.name(line)} at {i}: no block")
                p.row({**{k_: -v for k_, v in rel.items()}, z: -M}, float("-inf"), 0, f"unreleased {lines.name(line)} at {i}: no block")
                p.row({**rel, z: -STEP, y: -M}, -M, float("inf"), f"a block of {lines.name(line)} at {i} is at least {STEP}")
                p.row({**rel, z: STEP, y: -M}, float("-inf"), 0, f"a block of {lines.name(line)} at {i} is at least {STEP}")

    # Every public number read is a sum of blocks of the lines its area holds at that read.
    def blocks(members, i, first, last):
        terms = {}
        for line in members:
            for j in range(lines.start[line], i + 1):
                if first <= days[j] <= last:
                    terms[("b", line, j)] = terms.get(("b", line, j), 0) + 1
        return terms

    def number(members, i, name):
        if name[0] == "change":
            now, before = number(members, i, ("count", name[1])), number(members, i, ("previous", name[1]))
            return {k_: now.get(k_, 0) - before.get(k_, 0) for k_ in set(now) | set(before)}
        return blocks(members, i, *window_span(days, i, name))

    # The reads after each publication, and those between a change of the map and the next
    # publication (they show the blocks of publication i in the areas of the new map).
    for i, r in list(enumerate(reads)) + list(getattr(session, "extra_reads", [])):
        tag = f"read {i}{'' if r is reads[i] else ' (map changed)'}"
        shown = {(layer, f["id"]) for layer in r["layers"] for f in r["items"][(layer, "covid")]["features"]}
        alive = [l for l in lines.lines if lines.exists(l, i)]
        for layer in r["layers"]:
            body = r["items"][(layer, "covid")]
            members = {f["id"]: [l for l in alive if (layer, f["id"]) in mapped(l, i, shown)] for f in body["features"]}
            for feature in body["features"]:
                for name, value in A.numbers_of(feature["properties"]).items():
                    if value is not None:
                        p.row(number(members[feature["id"]], i, name), value, value, f"{tag} {layer} {feature['id']} {name}")
            everyone = [l for l in alive if area_in(mapped(l, i, shown), layer) is not None]
            for name, value in A.total_numbers(body["statistics"]).items():
                if value is not None:
                    p.row(number(everyone, i, name), value, value, f"{tag} {layer} total {name}")
            for bucket in ("day", "week", "month"):
                for row in r["exports"][(layer, "covid", bucket)]["rows"]:
                    if row.get("verified") is None:
                        continue
                    first, last = datetime.date.fromisoformat(row["bucketStart"]), datetime.date.fromisoformat(row["bucketEnd"])
                    p.row(blocks(members.get(row["areaId"], []), i, first, last), row["verified"], row["verified"],
                          f"{tag} {layer} export {bucket} {row['areaId']} {row['bucketStart']}")
    p.freeze()

    def simulate(s):
        """The rule run over the campus's truth, as the programme's variables."""
        return run_rule(geo, lines, s)

    return p, lines, inconsistent, busy, simulate


def run_rule(geo, lines, s):
    """The rule with identities run over a session's truth (its reports by interval and point, its
    revocations): every variable of the attacker's programme by name (a programme ignores those it
    does not have): x the reports per interval and piece, r revocations per line, g the gate, and
    per line and publication its block b and carry c (z, y: released, and upwards). New reports
    join the line of their class's identity on the maps then (`Lines.taker`), for good."""
    n = geo.n
    truth = collections.Counter()
    for (i, point), v in s.truth.items():
        truth[(i, geo.piece_of(point))] += v
    revoked = [(i, j, geo.piece_of(point)) for i, j, point in s.revoked]
    values = {("x", i, q): v for (i, q), v in truth.items()}
    assigned, carry = {}, collections.Counter()
    for i in range(n):
        inflow = collections.Counter()
        for q in geo.pieces:
            if truth.get((i, q)):
                line = lines.taker[(geo.piece_class(i, q), i)]
                inflow[line] += truth[(i, q)]
                assigned[(i, q)] = line
        out = collections.Counter(assigned[(j, q)] for k_, j, q in revoked if k_ == i)
        for line in out:
            values[("r", line, i)] = out[line]
        gate = sum(abs(inflow[l] - out[l]) for l in set(inflow) | set(out)) >= STEP
        values[("g", i)] = int(gate)
        for line in lines.lines:
            if not lines.exists(line, i):
                continue
            pre = carry[line] + inflow[line] - out[line]
            released = pre if gate and abs(pre) >= STEP else 0
            carry[line] = pre - released
            values[("c", line, i)] = carry[line]
            values[("b", line, i)] = released
            values[("z", line, i)] = int(released != 0)
            values[("y", line, i)] = int(released > 0)
    return values


def solve_and_check(session, geo, cells):
    """The attacker's attack: the programme of the rule, the truth check, and the range of each
    planted cell. `cells`: (label, [("x", interval, piece)…], true value, cap) — cap: what side
    knowledge allows the cell at most (None: nothing)."""
    if os.environ.get("ATTACK_DUMP"):          # for working on the programme without a server
        import pickle
        with open(os.path.join(os.environ["ATTACK_DUMP"], f"{session.name}.pickle"), "wb") as f:
            pickle.dump((session, cells), f)
    started = time.monotonic()
    p, lines, inconsistent, busy, simulate = attack_model(session, geo)
    binaries = sum(k for name, k in zip(p.index, p.integer) if name[0] != "x")
    print(f"# {session.name}: {len(geo.versions)} maps, {len(geo.pieces)} pieces of ground, {len(lines.lines)} possible lines"
          f"; {len(p.lo)} rows over {len(p.lb)} unknowns ({binaries} binary, pieces whole)"
          f" from {len(session.reads)} publications", flush=True)
    if inconsistent:
        session.check(False, "the rule explains the published numbers", inconsistent[0])
        return
    if p.optimum({}, 1) is None:
        session.check(False, "the rule explains the published numbers", "the programme has no solution: today's numbers do not follow the rule")
        return
    bad = p.violations(simulate(session))
    session.check(not bad, "the attacker's model holds the truth (the planted reports through the rule give what was published)",
                  "; ".join(bad[:5]) + (f" … {len(bad)} in all" if len(bad) > 5 else ""))
    for label, keys, value, cap in cells:
        objective = {key: 1 for key in keys}
        low, high = p.optimum(objective, 1), p.optimum(objective, -1)
        if low is None or high is None:
            session.check(False, f"{label} ({value})", "the solver found no optimum (the programme has no solution?)")
            continue
        need = K if cap is None else min(K, cap)
        session.check(high - low >= need - 1e-6 and low - 1e-6 <= value <= high + 1e-6,
                      f"{label} ({value}): feasible {low:g}..{high:g}, at least {need} wide", f"only {low:g}..{high:g}")
    print(f"# {session.name}: solved in {time.monotonic() - started:.1f} s", flush=True)


def truth_of(session, geo, keys):
    want = set(keys)
    return sum(v for (i, point), v in session.truth.items() if ("x", i, geo.piece_of(point)) in want)


def cell(geo, session, hall, first, last=None, cap=None):
    """A planted small count: the reports of a hall (its area at each interval; `hall` may be a
    tuple of names, an area renamed) verified in intervals first..last."""
    names = hall if isinstance(hall, tuple) else (hall,)
    last = first if last is None else last
    keys = [("x", i, q) for i in range(first, last + 1) for name in names for q in geo.pieces_in("halls", name, i)]
    span = f"interval {first}" if first == last else f"intervals {first}-{last}"
    return (f"{'/'.join(names)} {span}", keys, truth_of(session, geo, keys), cap)


def piece_cell(geo, session, label, first, last, test):
    """The reports of the pieces for which test(q) holds, verified in intervals first..last."""
    keys = [("x", i, q) for i in range(first, last + 1) for q in geo.pieces if test(q)]
    span = f"interval {first}" if first == last else f"intervals {first}-{last}"
    return (f"{label} {span}", keys, truth_of(session, geo, keys), None)


def other_halls_still(s, g, keep, busy=("H01",)):
    """Halls that moved at publication g though neither the change nor the busy hall touch them."""
    h_before, h_after = s.shown(s.reads[g - 1], "halls"), s.shown(s.reads[g], "halls")
    return {h: h_after[h] - h_before[h] for h in h_before if h in h_after and h not in keep + busy and h_after[h] != h_before[h]}


def no_negative(s):
    negative = {h: v for i in range(len(s.reads)) for h, v in s.shown(s.reads[i], "halls").items() if v < 0}
    s.check(not negative, "no hall shows a negative number of reports", f"{negative}")


# --- 1. a new layer between publications -----------------------------------------------------------

def campus_layer(session):
    """H10, H11 and H13 have a released block and then a carry of 2, 5 and 8; H12 holds 8, never
    released, and 2 more after the change; H14 gets 3 after the change. The new layer's one polygon holds the
    interior point of every line's origin hall (or zone): every line takes CAMPUS, and nothing
    moves in halls or zones. A new layer gives every class a new identity (its CAMPUS area is
    new), so the reports after it open new lines everywhere and the carries before it stay
    stranded (H10's 2, H11's 5, H13's 8 and H12's 8; H12's 2 after it open its new line)."""
    s = session
    first = s.today - datetime.timedelta(days=7)
    s.first_day = first
    g = 5
    small = {0: [("H10", 12), ("H13", 13)], 1: [("H11", 12)], 2: [("H10", 2), ("H12", 8)], 3: [("H11", 5)], 4: [("H13", 8)],
             5: [("H12", 2), ("H14", 3)]}
    for d in range(7):
        day = first + datetime.timedelta(days=d)
        if d == g:
            held = s.read()
            s.upload("campus", {"type": "FeatureCollection", "features": [{
                "type": "Feature", "id": "CAMPUS", "properties": {"name": "Campus"},
                "geometry": {"type": "Polygon", "coordinates": [rect(-87.603, 41.787, -87.579, 41.8035)]}}]})
            between = s.read_between()
            moved = changed(held, between, ("halls", "zones"))
            s.check(not moved, "the new layer moves no number of halls or zones before a publication", moved)
        for hall, n in [("H01", 13)] + small.get(d, []):
            s.covid(n, day, hall=hall)
        s.publish(day)
    geo = Geography.from_reads(s)
    halls_before, halls_after = s.shown(s.reads[g - 1], "halls"), s.shown(s.reads[g], "halls")
    moved = {h: halls_after[h] - halls_before[h] for h in halls_before if h != "H01" and halls_after[h] != halls_before[h]}
    s.check(not moved, "at the publication after the new layer no hall moves but the busy one", f"moved: {moved}")
    busy_step = halls_after["H01"] - halls_before["H01"]
    zones_before, zones_after = s.shown(s.reads[g - 1], "zones"), s.shown(s.reads[g], "zones")
    odd = {z: zones_after[z] - zones_before[z] for z in zones_before
           if zones_after[z] - zones_before[z] != (busy_step if z == s.zone_of["H01"] else 0)}
    s.check(not odd, "no zone moves but by the busy hall's block", f"moved: {odd}")
    for i in (g, g + 1):
        body = s.reads[i]["items"][("campus", "covid")]
        shown = A.numbers_of(body["features"][0]["properties"])
        zones = [A.numbers_of(f["properties"]) for f in s.reads[i]["items"][("zones", "covid")]["features"]]
        wrong = {f"{k}_{w}": (v, sum(z[(k, w)] for z in zones)) for (k, w), v in shown.items() if v != sum(z[(k, w)] for z in zones)}
        s.check(not wrong, f"publication {i}: the campus layer shows the sum of the zones' released numbers (every window)",
                f"campus vs zones: {wrong}")
    # The day of each planted count, and all that the hall gathered since its last block (what
    # the carry holds at the change).
    cells = [cell(geo, s, h, d) for h, d in (("H10", 2), ("H11", 3), ("H13", 4), ("H12", 2), ("H12", 5), ("H14", 5))]
    cells += [cell(geo, s, h, first_, g) for h, first_ in (("H10", 1), ("H11", 2), ("H13", 1), ("H12", 0))]
    solve_and_check(s, geo, cells)


# --- 2. a new version of halls moving an edge -------------------------------------------------------

H08_WEST, H08_EAST, H08_SOUTH, H08_NORTH = -87.6003253, -87.5995953, 41.7916097, 41.7925159
H09_RING = rect(-87.59728, 41.7916727, -87.5965537, 41.7925923)
SLIVER_EDGE = H08_WEST + 0.00006


def hall_edge(session, edge=-87.5998, strip=(-87.59970, 41.79206), rest=(-87.60010, 41.79206),
              plan=None, story="", whole=False, shares=((1, None),)):
    """A new version of halls in which the part of H08 east of `edge` (the strip) becomes part of
    H09 (a MultiPolygon: H09 and the strip), before the reports of day 4. `plan`: day →
    [("strip" | "rest", n)] of H08's reports, placed by location. Nothing is decided by counts:
    H08's line takes the hall holding old H08's interior point (its centre): H08 itself when the
    edge lies east of it, H09 (`whole`: the sliver edges, 5 m from H08's west side) with all its
    history and its carry. New reports count where they lie, in new lines: both halls' geometry
    changed (a new identity), so reports in the strip open a line of H09
    and reports in what is left of H08 a new line of H08, and the old lines keep their carries,
    stranded (they take no new report, so no busy interval releases them). `shares`: intervals
    (first, last; None: the last before the change) over which the strip's and the rest's shares
    of H08's reports are cells too."""
    s = session
    first = s.today - datetime.timedelta(days=6)
    s.first_day = first
    g = 4
    assert s.zone_of["H08"] == s.zone_of["H09"]
    for point in (strip, rest):
        assert s.containing(*point) == s.hall_class("H08"), (point, s.containing(*point))
    for d in range(6):
        day = first + datetime.timedelta(days=d)
        if d == g:
            held = s.read()

            def edit(features):
                for f in features:
                    if f["id"] == "H08":
                        f["geometry"] = {"type": "Polygon", "coordinates": [rect(H08_WEST, H08_SOUTH, edge, H08_NORTH)]}
                    if f["id"] == "H09":
                        f["geometry"] = {"type": "MultiPolygon", "coordinates": [[H09_RING], [rect(edge, H08_SOUTH, H08_EAST, H08_NORTH)]]}
            s.upload("halls", halls_collection(edit))
            assert s.containing(*strip) == s.hall_class("H09") and s.containing(*rest) == s.hall_class("H08")
            between = s.read_between()
            moved = changed(held, between, ("halls", "zones"))
            s.check(not moved, "the new version moves no public number before a publication", moved)
        s.covid(13, day, hall="H01")
        for where, n in plan.get(d, []):
            s.covid(n, day, point=strip if where == "strip" else rest)
        if d == 1:
            s.covid(3, day, hall="H10")
        if d == 2:
            s.covid(12, day, hall="H09")
        s.publish(day)
    geo = Geography.from_reads(s)
    moved = other_halls_still(s, g, ("H08", "H09"))
    s.check(not moved, "at the publication after the new version no other hall moves but the busy one", f"moved: {moved}")
    h_before = s.shown(s.reads[g - 1], "halls")
    shown = [(s.shown(s.reads[i], "halls")["H08"], s.shown(s.reads[i], "halls")["H09"]) for i in range(g, len(s.reads))]
    if whole:
        # After the change H08 shows only a new line: the sliver's reports of publication g,
        # released when they reach the step (nothing planted later does).
        sliver = sum(n for where, n in plan.get(g, []) if where == "rest")
        expect = sliver if sliver >= STEP else 0
        s.check(all(x == (expect, h_before["H08"] + h_before["H09"]) for x in shown),
                f"{story}: old H08's interior point lies in H09, so H08's line went there whole: H09 shows its own {h_before['H09']}"
                f" and H08's {h_before['H08']}, H08 {expect} (only a new line's, of what came after the change) at every"
                " publication from the change on (H08's carry stranded in H09)",
                f"(H08, H09) before {h_before['H08'], h_before['H09']}, from publication {g}: {shown}")
    else:
        s.check(all(x == (h_before["H08"], h_before["H09"]) for x in shown),
                f"{story}: old H08's interior point stays in H08, so nothing moves: H08 goes on showing its {h_before['H08']} (the"
                f" strip's reports included) and H09 its own {h_before['H09']} at every publication from the change on; the"
                " reports after the change open new lines of H08 and H09 (both changed), and H08's carry stays stranded though"
                " every interval is busy",
                f"(H08, H09) before {h_before['H08'], h_before['H09']}, from publication {g}: {shown}")
    no_negative(s)
    # H08's carry, alone and with whatever else came before the change (and at the publication
    # after it, when none of H08's reports came in then: else that publication's block holds
    # them); the strip's and the rest's shares; H10 beside it; and each count planted after the
    # change, in the hall it lies in then.
    cells = [cell(geo, s, "H08", 1), cell(geo, s, "H08", 1, g if g not in plan else g - 1), cell(geo, s, "H10", 1)]
    last = len(s.days) - 1
    for low, high in shares:
        high = g - 1 if high is None else high
        for name, now in (("strip", "H09"), ("rest", "H08")):
            cells.append(piece_cell(geo, s, f"H08's {name}", low, high,
                                    lambda q, now=now: ("halls", "H08") in geo.cls[geo.state_at[0]][q]
                                    and ("halls", now) in geo.piece_class(last, q)))
    # (A count of twelve or more is no small count: the 12 of strip-waits open a line of their own
    # and are released at once, exactly.)
    cells += [cell(geo, s, "H09" if where == "strip" else "H08", d) for d in plan if d >= g for where, n in plan[d] if n <= K]
    solve_and_check(s, geo, cells)


def hall_edge_strip(session):
    """The strip at H08's east edge holds 13 of the 40 reports of H08's first block and the 5 that
    followed (its carry); H09 has a block of 12 two days later. Old H08's interior point lies in
    what is left of H08: the line stays, the strip's 18 keep counting in H08. Both halls changed,
    so the 7 reports that arrive in what is left of H08 right after the change open a new line
    of H08 (on the rule before identities they joined H08's line, whose carry of 5 reached 12 and was
    released), and the 2 that arrive in the strip a day later a new line of H09: H08's carry of 5
    stays stranded, and nothing moves."""
    hall_edge(session, plan={0: [("strip", 13), ("rest", 27)], 1: [("strip", 5)], 4: [("rest", 7)], 5: [("strip", 2)]},
              story="the strip's 18 stay in H08's line")


def strip_waits(session):
    """The edge moved almost to H08's west side, as in hall-shrink, but the sliver left to H08
    holds 1 of the reports of its block of 13 (the other 12 lie in what becomes H09's), and the 8
    that followed (its carry) lie in the strip too. Old H08's interior point lies in H09: the line
    goes there whole, the sliver's one report with it. The 12 that arrive in the sliver at the
    publication after the change open a line of H08 and are released there."""
    hall_edge(session, edge=SLIVER_EDGE, strip=(-87.59990, 41.79206), rest=(-87.60030, 41.79206),
              plan={0: [("strip", 12), ("rest", 1)], 1: [("strip", 8)], 4: [("rest", 12)]}, whole=True,
              story="the sliver's one report went with H08's line")


def strip_whole_release(session):
    """The edge moved almost to H08's west side: H08's block of 12 lies wholly in the strip, and
    the 8 that followed (its carry) in the sliver left to H08. Old H08's interior point lies in
    H09: the line goes there with its block and its carry (whose reports lie in the sliver: they
    stay in the line for good). After the change 2 reports arrive in the sliver and open a line
    of H08."""
    hall_edge(session, edge=SLIVER_EDGE, strip=(-87.59990, 41.79206), rest=(-87.60030, 41.79206),
              plan={0: [("strip", 12)], 1: [("rest", 8)], 5: [("rest", 2)]}, whole=True,
              story="H08's carry of 8 in the sliver went with its line")


def pair_after_release(session):
    """The edge of hall-edge. H08's 13 reports all come on one day, 12 in the strip and 1 in
    what stays H08, and are released as one block at the publication before the change: right
    after it, H08's carry is known to be 0. Nothing moves at the change (a pair of 12 would have
    left H08 at 1, exactly what its part of the hall holds)."""
    hall_edge(session, plan={3: [("strip", 12), ("rest", 1)]}, shares=((0, 3), (3, 3)),
              story="right after H08 released 13, 12 of them in the strip")


def pair_after_release_sliver(session):
    """The edge moved almost to H08's west side: H08 releases 33 (30 in the strip, 3 in the
    sliver left to it), then 13 more in the strip, released at the publication before the change
    (its carry is known to be 0 after it). Old H08's interior point lies in H09: the line goes
    there whole, and H08 shows 0 (a pair of 43 would have left H08 at 3, exactly what the sliver
    holds)."""
    hall_edge(session, edge=SLIVER_EDGE, strip=(-87.59990, 41.79206), rest=(-87.60030, 41.79206),
              plan={0: [("strip", 30), ("rest", 3)], 3: [("strip", 13)]}, whole=True, shares=((0, 3), (3, 3)),
              story="right after H08 released 13 more")


def hall_shrink(session):
    """The same edge moved almost to H08's west side: H08 keeps a sliver 5 m wide that holds none
    of its line's reports, and the rest (its block of 12 and its carry of 8) becomes part of H09.
    Old H08's interior point lies in H09, so the line goes there with its history and its carry:
    H08 shows 0 and H09 its own 12 and H08's 12. The line stays apart from H09's own line (two
    carries), and new reports in H09 would join neither (H09's geometry changed: a new line).
    After the change 2 reports arrive in the sliver: they open a new line of H08."""
    hall_edge(session, edge=SLIVER_EDGE, strip=(-87.59990, 41.79206), rest=(-87.60030, 41.79206),
              plan={0: [("strip", 12)], 1: [("strip", 8)], 5: [("rest", 2)]}, whole=True,
              story="H08 shrunk to a sliver")


# --- 2b. a new version splitting an area in two --------------------------------------------------------

H20_WEST, H20_EAST, H20_SOUTH, H20_NORTH, H20_MIDDLE = -87.5846049, -87.5838182, 41.7935255, 41.7947198, -87.5842


def hall_split_cut(session, plan, middle, story):
    """H20 is replaced by H20a (west of `middle`) and H20b (east of it). `plan`: day → [("west" |
    "east", n)] of H20's reports, placed by location (the change comes before the reports of day
    3). H20 is gone, so its line takes the half holding H20's interior point (its centre), with
    its whole history and its carry; the other half shows only what arrives there after the
    change. `story`: which half."""
    s = session
    first = s.today - datetime.timedelta(days=5)
    s.first_day = first
    g = 3
    zone = s.zone_of["H20"]
    centre = (H20_WEST + H20_EAST) / 2
    takes, other = ("H20a", "H20b") if centre < middle else ("H20b", "H20a")
    points = {"west": ((H20_WEST + middle) / 2, 41.7941), "east": ((middle + H20_EAST) / 2, 41.7941)}
    for point in points.values():
        assert s.containing(*point) == s.hall_class("H20"), point
    for d in range(5):
        day = first + datetime.timedelta(days=d)
        if d == g:
            held = s.read()

            def edit(features):
                h20 = next(f for f in features if f["id"] == "H20")
                features.remove(h20)
                for name, x0, x1 in (("H20a", H20_WEST, middle), ("H20b", middle, H20_EAST)):
                    features.append({"type": "Feature", "id": name, "properties": {**h20["properties"], "name": f"{h20['properties']['name']} {name[-1]}"},
                                     "geometry": {"type": "Polygon", "coordinates": [rect(x0, H20_SOUTH, x1, H20_NORTH)]}})
            s.upload("halls", halls_collection(edit))
            assert s.containing(*points["west"])[0] == ("halls", "H20a") and s.containing(*points["east"])[0] == ("halls", "H20b")
            between = s.read_between()
            moved = changed(held, between, ("zones",))
            s.check(not moved, "the new version moves no zone's number before a publication", moved)
        s.covid(13, day, hall="H01")
        for where, n in plan.get(d, []):
            s.covid(n, day, point=points[where])
        if d == 1:
            s.covid(4, day, hall="H21")
        s.publish(day)
    geo = Geography.from_reads(s)
    was = s.shown(s.reads[g - 1], "halls")
    shown = [(s.shown(s.reads[i], "halls")[takes], s.shown(s.reads[i], "halls")[other]) for i in range(g, len(s.reads))]
    s.check(all(x == (was["H20"], 0) for x in shown), f"{story}: {takes} shows H20's {was['H20']} and {other} 0 at every publication"
            " from the change on", f"({takes}, {other}) from publication {g}: {shown}")
    no_negative(s)
    z_before, z_after = s.shown(s.reads[g - 1], "zones"), s.shown(s.reads[g], "zones")
    s.check(z_before[zone] == z_after[zone], f"{zone} (H20's zone) does not move", f"{z_before[zone]} → {z_after[zone]}")
    # H20's carry (what it gathered after its block, before the change), its east and west
    # shares, H21 beside it, and what arrives after the change.
    last = len(s.days) - 1
    cells = [cell(geo, s, "H20", 1), cell(geo, s, "H20", 1, g - 1), cell(geo, s, "H21", 1)]
    cells += [cell(geo, s, "H20a" if where == "west" else "H20b", d) for d in plan if d >= g for where, _ in plan[d]]
    for half in ("H20a", "H20b"):
        cells.append(piece_cell(geo, s, f"H20's part in {half}", 1, g - 1,
                                lambda q, half=half: ("halls", "H20") in geo.cls[geo.state_at[0]][q] and ("halls", half) in geo.piece_class(last, q)))
    solve_and_check(s, geo, cells)


def hall_split(session):
    """H20 had a block of 30 (20 in the west half, 10 in the east) and then a carry of 5 in the
    east half. Its centre lies in the west half: H20a takes the line, its 30 and its carry (whose
    reports lie in the east half); H20b shows 0. The 2 that arrive in H20b after the change open
    H20b's line."""
    hall_split_cut(session, {0: [("west", 20), ("east", 10)], 1: [("east", 5)], 4: [("east", 2)]}, H20_MIDDLE,
                   story="H20's line took H20a, the half holding its interior point")


def hall_split_east(session):
    """The same split cut 8 m west of H20's centre: the centre lies in the east half, so H20b
    (not the smaller id) takes H20's line, its block of 24 and its carry; H20a shows 0 (14 of
    H20's 24 lie in it). The 2 that arrive in H20a after the change open H20a's line."""
    hall_split_cut(session, {0: [("west", 14), ("east", 10)], 1: [("east", 5)], 4: [("west", 2)]}, -87.5843,
                   story="H20's line took H20b, the half holding its interior point")


# --- 3. a new version renaming an area ---------------------------------------------------------------

def rename(session):
    """H20 becomes H20b (same geometry) before the reports of day 3. H20's reports are placed by
    location: a block of 12, then a carry of 5; 2 more on day 4. Twelve reports that named H20
    (the COVID form's pick) were submitted on day 2 and are verified on day 4, after the rename:
    the service places them in the area holding H20's interior point, H20b. H20b has H20's
    geometry, so H20's identity: the 2 and the 12 join H20's line, which releases its carry of 5
    with them at publication 4 (19). (ATTACK_IDENTITY=births: H20b is a new id, so the 2 and the
    12 open H20b's own line, released (14), and H20's carry of 5 stays stranded in H20b.)"""
    s = session
    first = s.today - datetime.timedelta(days=5)
    s.first_day = first
    g = 3
    inside = s.campus.point["H20"]
    named_at = s.named_point("H20")
    pending = []
    for d in range(5):
        day = first + datetime.timedelta(days=d)
        if d == g:
            held = s.read()

            def edit(features):
                for f in features:
                    if f["id"] == "H20":
                        f["id"] = "H20b"
            s.upload("halls", halls_collection(edit))
            assert s.containing(*inside) == klass(("halls", "H20b"), ("zones", s.zone_of["H20"]))
            between = s.read_between()
            moved = changed(held, between, ("zones",))
            s.check(not moved, "the new version moves no zone's number before a publication", moved)
        s.covid(13, day, hall="H01")
        n = {0: 12, 1: 5, 4: 2}.get(d)
        if n:
            s.covid(n, day, point=inside)
        if d == 1:
            s.covid(4, day, hall="H21")
        if d == 2:
            pending = [s.submit(day, hall="H20") for _ in range(12)]
        if d == 4:
            s.verify_pending(pending, named_at)
        s.publish(day)
    geo = Geography.from_reads(s)
    before_read, after_read = s.reads[g - 1]["items"][("halls", "covid")], s.reads[g]["items"][("halls", "covid")]
    was = next(f for f in before_read["features"] if f["id"] == "H20")["properties"]
    now = next((f for f in after_read["features"] if f["id"] == "H20b"), {"properties": {}})["properties"]
    windows = ("verified_all", "verified_28d", "verified_14d", "verified_7d")
    s.check(all(was[w] == now.get(w) for w in windows), "H20b shows what H20 showed (every window)",
            f"H20 {[was[w] for w in windows]}, H20b {[now.get(w) for w in windows]}")
    z_before, z_after = s.shown(s.reads[g - 1], "zones"), s.shown(s.reads[g], "zones")
    zone = s.zone_of["H20"]
    s.check(z_before[zone] == z_after[zone], f"{zone} (H20's zone) does not move", f"{z_before[zone]} → {z_after[zone]}")
    late = s.shown(s.reads[g + 1], "halls")["H20b"] - now.get("verified_all", 0)
    if IDENTITY == "geometry":
        s.check(late == 5 + 2 + 12, "the 12 reports that named H20, verified after the rename, count in H20b: H20b has H20's"
                " geometry, so they join H20's line, which releases its carry of 5, the 2 and the 12 (19)", f"H20b moved by {late}")
    else:
        s.check(late == 2 + 12, "the 12 reports that named H20, verified after the rename, count in H20b: with the 2 placed there"
                " they open H20b's own line (a new id), released (14), and H20's carry of 5 stays stranded", f"H20b moved by {late}")
    cells = [cell(geo, s, "H20", 1), cell(geo, s, ("H20", "H20b"), 1, g), cell(geo, s, "H21", 1)]
    solve_and_check(s, geo, cells)


# --- 4. a quiet campus published weekly --------------------------------------------------------------

def weekly(session):
    s = session
    binary, database = os.environ.get("ATTACK_GEOSERVE"), os.environ.get("ATTACK_DATABASE")
    assert binary and database, "ATTACK_GEOSERVE and ATTACK_DATABASE name the binary and the server's database"
    weeks = 5
    start = s.today - datetime.timedelta(days=7 * weeks)
    s.first_day = start
    steady, rotating = "H07", ["H10", "H11", "H12", "H13", "H15"]
    points = {h: s.named_point(h) for h in [steady] + rotating}
    s.publish(start)                      # the installation's first publication, before any report
    for week in range(1, weeks + 1):
        rows = []
        for d in range(1, 8):
            day = start + datetime.timedelta(days=7 * (week - 1) + d)
            t = 7 * (week - 1) + d - 1
            for hall in [steady] * 3 + [rotating[(2 * t) % 5], rotating[(2 * t + 1) % 5]]:
                # 09:00 of the day, or now for today before 09:00 UTC: a submission time in
                # the future is refused by the import.
                now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0, tzinfo=None)
                submitted = min(datetime.datetime.combine(day, datetime.time(9)), now).isoformat() + "Z"
                rows.append({"kind": "covid", "status": "verified", "occurred_on": day.isoformat(), "submitted_at": submitted,
                             "verified_on": day.isoformat(), "area_layer": "halls", "area_id": hall, "group": "student"})
                s.truth[(week, points[hall])] += 1
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        done = subprocess.run([binary, "import-reports", f.name, "--database", database], capture_output=True, text=True)
        os.unlink(f.name)
        assert done.returncode == 0, done.stderr or done.stdout
        s.publish(start + datetime.timedelta(days=7 * week))
    geo = Geography.from_reads(s)
    shown = s.shown(s.reads[1], "halls")[steady]
    s.check(shown > 0, f"{steady} (3 a day, 21 in the first week) shows a number at the first weekly publication", f"it shows {shown}")
    late = []
    for i in range(1, weeks + 1):
        numbers = s.shown(s.reads[i], "halls")
        for hall in [steady] + rotating:
            held = sum(v for (j, point), v in s.truth.items() if j <= i and point == points[hall]) - numbers[hall]
            if held > K:
                late.append(f"{hall} at week {i}: {held} held back")
    s.check(not late, "every hall shows its reports within k at every weekly publication", "; ".join(late[:6]))
    cells = [cell(geo, s, hall, week) for hall in rotating for week in range(1, weeks + 1)]
    solve_and_check(s, geo, cells)


# --- 5. the misconduct search paged around an unpublished verification -----------------------------

def misconduct_paging(session):
    s = session
    point = s.campus.point["H05"]
    # Six records in H05 that occurred over the last six days, one in H04 beside it; published today.
    for d in range(1, 7):
        s.misconduct(point, s.today - datetime.timedelta(days=d))
    s.misconduct(s.campus.point["H04"], s.today - datetime.timedelta(days=2))
    status, _ = A.call(f"{s.url}/v1/publications", "POST", {}, s.token)
    assert status == 201
    limits = list(range(1, 9)) + [100]
    queries = {"area": lambda n: f"/v1/misconduct?layer=halls&area=H05&limit={n}",
               "near": lambda n: f"/v1/misconduct/near?lon={point[0]}&lat={point[1]}&radius_m=500&layer=halls&limit={n}"}

    def lists():
        out = {}
        for key, query in queries.items():
            for n in limits:
                status, body = A.call(s.url + query(n))
                assert status == 200, (status, body)
                out[(key, n)] = body["reports"]
        return out

    published = lists()
    # Verified after the publication, so not published yet: one that occurred today (the search
    # lists newest first, so it comes first) and one three days ago (in the middle); one pending.
    s.misconduct(point, s.today)
    s.misconduct(point, s.today - datetime.timedelta(days=3))
    s.misconduct(point, s.today, verify=False)
    unpublished = lists()
    for key, query in queries.items():
        differ = {n: (len(published[(key, n)]), len(unpublished[(key, n)])) for n in limits if published[(key, n)] != unpublished[(key, n)]}
        s.check(not differ, f"{query(4)} (and limits 1-8, 100) lists the same before and after an unpublished verification",
                f"lengths (before, after) per limit: {differ}")
        short = {n: len(unpublished[(key, n)]) for n in limits if len(unpublished[(key, n)]) != min(n, len(published[(key, 100)]))}
        s.check(not short, f"{key} search around an unpublished verification: every limit gets as many published reports as it asks for",
                f"limit: listed {short}, of {len(published[(key, 100)])} published")
    status, _ = A.call(f"{s.url}/v1/publications", "POST", {}, s.token)
    assert status == 201
    after = lists()
    _, items = A.call(f"{s.url}/collections/halls/items?limit=1000&kind=misconduct")
    counted = next(f for f in items["features"] if f["id"] == "H05")["properties"]["verified_all"]
    s.check(len(after[("area", 100)]) == counted == 8 and len(published[("area", 100)]) == 6,
            "the next publication lists the verifications, and the list agrees with the count",
            f"listed {len(published[('area', 100)])} then {len(after[('area', 100)])}, counted {counted}")
    prefixes = {(key, n) for key in queries for n in limits if after[(key, n)] != after[(key, 100)][:n]}
    s.check(not prefixes, "each limit is the head of the full list (area and near)", f"{sorted(prefixes)}")


SCENARIOS = {"campus-layer": campus_layer, "hall-edge": hall_edge_strip, "hall-shrink": hall_shrink, "strip-waits": strip_waits,
             "strip-whole-release": strip_whole_release, "pair-after-release": pair_after_release,
             "pair-after-release-sliver": pair_after_release_sliver, "hall-split": hall_split, "hall-split-east": hall_split_east,
             "rename": rename, "weekly": weekly,
             "misconduct-paging": misconduct_paging}


def scenario(name):
    """The scenario of that name: those above, the fixed sequences of sequences.py, or
    `sequence-SEED` (one generated sequence)."""
    if name in SCENARIOS:
        return SCENARIOS[name]
    import sequences
    return sequences.scenario(name)


def run(module, name, url, email, password):
    global A
    A = module
    session = None
    try:
        play = scenario(name)
        session = Session(name, url, email, password)
        play(session)
    except Exception as error:           # an assertion of the scenario, or anything unexpected
        import traceback
        traceback.print_exc()
        A.report(False, f"{name}: the scenario ran", repr(error)[:2000])


def replay(module, path):
    """Solves a dumped scenario again (ATTACK_DUMP=folder when it ran)."""
    global A
    A = module
    import pickle
    with open(path, "rb") as f:
        session, cells = pickle.load(f)
    solve_and_check(session, Geography.from_reads(session), cells)
