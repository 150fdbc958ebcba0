"""The attacker against changes of geography, a quiet campus and the paged misconduct search.
Each scenario runs on a fresh server; attack.py dispatches to them:

  attack.py campus-layer URL ADMIN_EMAIL PASSWORD       a new area layer around the whole campus between publications
  attack.py hall-edge URL ADMIN_EMAIL PASSWORD          a new version of halls that moves a strip of H08 into H09
  attack.py hall-shrink URL ADMIN_EMAIL PASSWORD        the same edge moved until H08 keeps a sliver with none of its reports
  attack.py strip-waits URL ADMIN_EMAIL PASSWORD        the same sliver holding one report, a strip larger than H08 had released
                                                        (it settles, and is not decided again when H08 releases more)
  attack.py strip-whole-release URL ADMIN_EMAIL PASSWORD  a strip holding exactly what H08 had released (it settles)
  attack.py pair-after-release URL ADMIN_EMAIL PASSWORD  the edge of hall-edge right after H08 released its 13 (12 of them in
                                                        the strip): the carry is known to be 0, and the strip's 12 settles
  attack.py pair-after-release-sliver URL ADMIN_EMAIL PASSWORD  the sliver's edge right after H08 released 13 more (46 in all,
                                                        3 in the sliver): the strip's 43 settles
  attack.py hall-split URL ADMIN_EMAIL PASSWORD         a new version of halls that replaces H20 by its two halves (the
                                                        east half's part moves as a pair)
  attack.py hall-split-settles URL ADMIN_EMAIL PASSWORD  the same split when H20 had released less (the east half's part settles)
  attack.py rename URL ADMIN_EMAIL PASSWORD             a new version of halls that renames H20 to H20b
  attack.py weekly URL ADMIN_EMAIL PASSWORD             five reports a day, published weekly; reports come in through
                                                        `geoserve import-reports` (ATTACK_GEOSERVE, ATTACK_DATABASE) so
                                                        that each is verified on its own day
  attack.py misconduct-paging URL ADMIN_EMAIL PASSWORD  the misconduct search around a verification not yet published
  attack.py replay FILE                                 solve a scenario dumped with ATTACK_DUMP=folder again
                                                        (ATTACK_VERBOSE=1: also why each other way of the rule fails)

The attacker's programme (`attack_model`) knows the rule as the source states it, the maps, and
nothing the campus did:

- Pieces: the reports verified in a publication interval in an area class (a combination of areas
  across every area layer: hall H08 in zone Z1). When the map changes, each class before splits by
  the classes its ground lies in after: a hall inside a new campus layer goes whole to (hall, zone,
  campus); after an edge move the strip of H08 that became H09 is a piece of its own, with an
  unknown share of every interval before the change. Every planted cell is a sum of pieces.
- Lines: the ledger's lines, each with a carry and released blocks dated the publication day.
  Every public number (any layer, area, window, total, export cell, also those read between a
  new map and the next publication) is the sum of the blocks of the lines whose class at that
  read lies in the area. At a busy publication (a number the attacker can follow moved) a line is
  either released (its carry becomes 0 and its block is its whole carry, at least 12 either way)
  or keeps its block 0 and a carry of at most 11; where the attacker sees a line alone (one line
  behind a hall, or behind a zone minus its halls) the data decide which, elsewhere a binary does
  (HiGHS MILP). After a quiet publication nothing is released and a carry may be anything.
  Pieces are whole numbers of reports.
- What a change of the map does to lines, two ways. The rule of lines (LineLineage and
  PublicationPlanner): at the first publication after the change, per changed layer (a new
  version, a new layer, a withdrawn one), a line keeps its area while that area still exists and
  holds at least one of the line's reports (or the line holds none); otherwise it takes the
  smallest area id (string order) among the areas holding at least one of them, none of the
  layer when they all lie outside it. No count is compared. The line keeps its history and its
  carry; lines never merge: a line that takes a class another line has stays apart, and new
  reports of the class join the older (the one made first, by its classes' key within a
  publication). Then each part of the line lying in another class (its reports there that no
  publication has decided yet) is decided once, at that publication: taken in the order of the
  classes' keys, it moves to that class's line as a pair of blocks (-n on the line, +n there,
  both carries as they were, dated the publication's day) when 12 <= n <= R - 12 - (the parts
  of the line that moved before it in that publication), R being what the line had released
  before the publication (its blocks, pairs included); otherwise it is settled: it stays counted
  in the line for good and no later publication looks at it again, however much the line
  releases later. (The line keeps at least a step of what it released, 12 for COVID reports,
  the kind the programme is over (misconduct's step is 1): its own area holds at least one of its
  reports, so a part of n >= R would tell that the carry is at least n + 1 - R; and right after a
  release its carry is known to be 0, so what the old area keeps, R - n, is exact and must not
  be a small count.) The attacker knows none of this for sure: which parts of a line's ground
  hold any of its reports (that decides the class it takes), whether each part moved or
  settled, and if it settled whether it held at most 11 or more than the budget, which of two
  lines of one class is older. Each way is a programme of its own (a
  `Choice`, its facts as rows: a part that holds reports has at least 1, one that holds none is
  0, a part that moved holds 12 or more and no more than its budget, one settled as small at
  most 11, one settled as large 12 or more and more than its budget; the age of lines through
  binaries saying which exist after each publication), and the attacker takes every way that
  explains what was published. The old rule (before ledger lines): lines are
  classes; reports that moved leave their old class's line and join the new one through both
  carries. The attacker takes the first rule whose programmes explain what was published, and
  says which.

A scenario's checks: the attacker's programme holds the truth (the numbers the campus planted,
run through the rule, give exactly what was published), every planted small count keeps a range
of at least k = 11 that holds it (over every way of the rule that explains the numbers: they
publish the same, so the attacker cannot tell them apart), and the behaviour the scenario is about (nothing moves, a sum
matches, a number shows, a list stays).
"""

import collections
import csv
import itertools
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

A = None            # the attack module: call, report, Campus, numbers_of, total_numbers


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


# --- the campus side ---------------------------------------------------------------------------------

class Session:
    """One scenario on one fresh server: plants reports, publishes, and reads everything after each
    publication as the attacker does."""

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
        self.truth = collections.Counter()       # piece -> verified reports
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

    def verify(self, report_id):
        status, body = A.call(f"{self.url}/v1/reports/{report_id}/transitions", "POST", {"transition": "verify"}, self.token)
        assert status == 200, (status, body)

    def covid(self, piece, n, day, hall=None, point=None):
        """n verified COVID reports naming `hall` or at `point`, counted in the campus's truth as `piece`."""
        for _ in range(n):
            draft = {"kind": "covid", "affiliation": "student", "phone": "+1 336 555 0142", "testDate": day.isoformat(),
                     "lastOnCampus": day.isoformat()}
            if point:
                draft["location"] = {"lon": point[0], "lat": point[1], "accuracyM": 5}
            else:
                draft["area"] = {"layer": "halls", "id": hall}
            status, body = A.call(f"{self.url}/v1/reports", "POST", draft)
            assert status == 201, (status, body)
            self.verify(body["id"])
        self.truth[piece] += n

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

    def publish(self, day=None):
        status, made = A.call(f"{self.url}/v1/publications", "POST", {"day": day.isoformat()} if day else {}, self.token)
        assert status == 201, (status, made)
        self.days.append(datetime.date.fromisoformat(made["day"]))
        self.reads.append(self.read())
        return made

    def area_layers(self):
        _, body = A.call(f"{self.url}/v1/layers")
        return sorted(l["name"] for l in body["layers"] if l["kind"] == "areas" and l.get("publishedVersion"))

    def read(self):
        """Every area layer, both kinds, and a researcher's exports in every bucket."""
        snapshot = {"items": {}, "exports": {}, "layers": self.area_layers()}
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

    def shown(self, read, layer, prop="verified_all", kind="covid"):
        return {f["id"]: f["properties"][prop] for f in read["items"][(layer, kind)]["features"]}


def changed(held, between, layers):
    """What differs between two reads of the layers' numbers (both kinds), as text; empty when nothing."""
    out = []
    for layer in layers:
        for kind in ("covid", "misconduct"):
            a = {f["id"]: f["properties"] for f in held["items"][(layer, kind)]["features"]}
            b = {f["id"]: f["properties"] for f in between["items"][(layer, kind)]["features"]}
            out += [f"{layer} {kind} {i}" for i in sorted(set(a) | set(b)) if a.get(i) != b.get(i)]
            if held["items"][(layer, kind)]["statistics"]["total"] != between["items"][(layer, kind)]["statistics"]["total"]:
                out.append(f"{layer} {kind} total")
    return ", ".join(out)


def halls_collection(edit):
    """data/halls.geojson with `edit(features)` applied."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "halls.geojson")) as f:
        collection = json.load(f)
    edit(collection["features"])
    return collection


# --- the attacker's programme ----------------------------------------------------------------------

def class_key(c):
    """The ledger's text key of a class: `layer` US `area` pairs, sorted by layer, joined by RS.
    Lines made in one publication get their numbers in this order, and a line's parts in other
    classes are taken in it."""
    return "\x1e".join(f"{l}\x1f{a}" for l, a in sorted(c))


def hall_name(c):
    return area_in(c, "halls") or "/".join(a for _, a in c) or "outside"


class Geography:
    """What the attacker reads off the maps: the classes before a change, the classes after, and
    where the ground of each class before lies after (one class: it moves whole; more: it splits
    into pieces whose shares the attacker does not know). `change` is the first publication after
    the change."""

    def __init__(self, before, after=None, split=None, change=None):
        self.before, self.change = list(before), change
        self.after = list(after) if after is not None else list(before)
        self.split = split or {c: [c] for c in self.before}

    def changed_layers(self):
        """The layers that changed (a new version, a new layer, a withdrawn one), as far as lines
        can tell: those in which some class's ground now lies in another area, or in none."""
        layers = {l for c in self.before + self.after for l, _ in c}
        return sorted(l for l in layers if any(area_in(c, l) != area_in(t, l) for c in self.before for t in self.split[c]))

    def exists(self, layer, area):
        """Whether the layer's version after the change still has the area."""
        return any((layer, area) in t for t in self.after)

    def destination(self, c, held):
        """The class a line of class c takes at the change when its reports lie in the classes
        `held` (those holding at least one), per changed layer in name order: its area while it
        still exists and holds any of them (or the line holds none), else the smallest area id
        holding any of them, else none of the layer."""
        areas = dict(c)
        for layer in self.changed_layers():
            inside = {area_in(t, layer) for t in held}            # None: outside every area of the layer
            area = areas.get(layer)
            if area is not None and self.exists(layer, area) and (not held or area in inside):
                continue
            named = sorted(a for a in inside if a is not None)
            if named:
                areas[layer] = named[0]
            else:
                areas.pop(layer, None)
        return klass(*areas.items())

    def choices(self, n):
        """Every way the rule may have gone at the change, as the attacker sees it: which of the
        classes a line's ground split into hold any of its reports (that decides the class it
        takes), for each part in another class how the first publication after the change decided
        it, once: settled as small (at most k), moved as a pair (at least k + 1 and no more than
        the line's budget: what it had released, less a step, less the parts that moved before it),
        or settled as large (at least k + 1 and more than that budget); and, where two lines take
        one class, which of them is older (new reports join it). One programme each."""
        g = self.change
        if g is None or g >= n:
            return [Choice({c: None for c in self.before}, {c: c for c in self.before}, [], {c: c for c in self.before})]
        when = ["small", g, "large"]         # decided at publication g, never again
        per_line = []
        for c in self.before:
            targets = sorted(self.split[c], key=class_key)
            if len(targets) == 1:
                # The line takes where all of its reports lie; with none, it is not a line at all.
                per_line.append([(None, self.destination(c, targets), ())])
                continue
            options = []
            for r in range(len(targets) + 1):
                for held in itertools.combinations(targets, r):
                    dest = self.destination(c, held)
                    parts = [t for t in held if t != dest]
                    for timing in itertools.product(when, repeat=len(parts)):
                        options.append((frozenset(held), dest, tuple(zip(parts, timing))))
            per_line.append(options)
        out = []
        for combo in itertools.product(*per_line):
            support = {c: held for c, (held, _, _) in zip(self.before, combo)}
            dest = {c: d for c, (_, d, _) in zip(self.before, combo)}
            parts = [(c, t, w) for c, (_, _, ps) in zip(self.before, combo) for t, w in ps]
            candidates = collections.defaultdict(list)
            for c in self.before:
                if support[c] is None or support[c]:
                    candidates[dest[c]].append(c)
            shared = sorted((x for x in candidates if len(candidates[x]) > 1), key=class_key)
            for mains in itertools.product(*[candidates[x] for x in shared]):
                main = {x: lines[0] for x, lines in candidates.items()}
                main.update(zip(shared, mains))
                out.append(Choice(support, dest, parts, main, {x: candidates[x] for x in shared}))
        return out

    def piece(self, interval, now, before=None):
        """The piece of a report verified in `interval`, in class `now` at the publication that
        ends it (for a report before the change: `before`, its class then)."""
        if self.change is None or interval >= self.change:
            return (interval, now, now)
        return (interval, before or now, now)

    def pieces(self, n):
        out = []
        for j in range(n):
            if self.change is None or j < self.change:
                out += [(j, c, c2) for c in self.before for c2 in (self.split[c] if self.change is not None else [c])]
            else:
                out += [(j, c, c) for c in self.after]
        return out


class Choice:
    """One way the rule went at the change: per line before it, the classes holding any of its
    reports (`support`, None where the line's ground lies in one class: then it goes there,
    whatever it holds), the class it took (`dest`), its parts in other classes and when each
    moved (`parts`: (line, class, "small" | publication | "large"): settled holding at most k, moved
    as a pair at that publication, settled holding more than its budget), and for each class the line
    new reports join (`main`; `shared`: the classes several lines took, and which)."""

    def __init__(self, support, dest, parts, main, shared=None):
        self.support, self.dest, self.parts, self.main, self.shared = support, dest, parts, main, shared or {}

    def describe(self):
        out = []
        for c, held in self.support.items():
            if held is None:
                continue
            if not held:
                out.append(f"{hall_name(c)}'s line holds no report")
                continue
            took = "keeps it" if self.dest[c] == c else f"takes {hall_name(self.dest[c])}"
            out.append(f"{hall_name(c)}'s line has reports in {', '.join(hall_name(t) for t in sorted(held, key=class_key))} and {took}")
            for line, t, when in self.parts:
                if line == c:
                    out.append({"small": f"its part in {hall_name(t)} holds at most {K} and settles",
                                "large": f"its part in {hall_name(t)} holds {STEP} or more, more than its budget, and settles"}.get(
                                    when, f"its part in {hall_name(t)} moves as a pair at publication {when}"))
        for x, lines in self.shared.items():
            names = " and ".join(hall_name(c) + "'s" for c in lines)
            out.append(f"{names} lines both take {hall_name(x)}, the older is {hall_name(self.main[x])}'s")
        return "; ".join(out)


class Lines:
    """The ledger lines under a rule: when each exists, its class at each publication, what enters
    its carry in each interval (pieces with coefficients), and under the rule of lines the parts
    that stay or move as pairs (`parts`, `transfers`) for one `Choice`."""

    def __init__(self, rule, geo, n, choice=None):
        self.rule, self.n = rule, n
        self.start, self.cls, self.inflow, self.transfers, self.parts = {}, {}, collections.defaultdict(dict), [], []
        g = geo.change if geo.change is not None else n
        before = [p for p in geo.pieces(n) if p[0] < g]
        after = [p for p in geo.pieces(n) if p[0] >= g]

        def add(line, i, piece, coefficient=1):
            terms = self.inflow[(line, i)]
            terms[piece] = terms.get(piece, 0) + coefficient

        for c in geo.before:
            self.start[c] = 0
            self.cls[c] = [c] * n
        for j, c, c2 in before:
            add(c, j, (j, c, c2))
        if rule == "new":
            # A line keeps its history and carry and takes the class of the choice; new reports
            # of a class join the oldest line of it, or a line made for them.
            owner = dict(choice.main)
            for c in geo.before:
                for i in range(g, n):
                    self.cls[c][i] = choice.dest[c]
            for c in geo.after:
                if c not in owner:
                    line = ("new", c)
                    self.start[line], self.cls[line], owner[c] = g, [None] * g + [c] * (n - g), line
            for c, t, when in choice.parts:
                part = [p for p in before if p[1] == c and p[2] == t]
                self.parts.append((c, t, when, part))
                if when not in ("small", "large"):
                    self.transfers.append((when, c, owner[t], part))
            for j, c, _ in after:
                add(owner[c], j, (j, c, c))
        else:
            for c in geo.after:
                if c not in self.start:
                    self.start[c], self.cls[c] = g, [None] * g + [c] * (n - g)
            if g < n:
                for p in before:
                    if p[2] != p[1]:
                        add(p[1], g, p, -1)
                        add(p[2], g, p, 1)
            for j, c, _ in after:
                add(c, j, (j, c, c))
        self.lines = sorted(self.start, key=repr)

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


def attack_model(session, geo, rule, choice=None):
    """The attacker's programme over everything read, under `rule` (for the rule of lines, one
    `Choice` of how it went at the change). Returns (program, lines, inconsistencies, busy,
    simulate) where `simulate(truth)` runs the rule over the truth."""
    days, reads, n = session.days, session.reads, len(session.days)
    lines = Lines(rule, geo, n, choice)
    p = Program()
    for piece in geo.pieces(n):
        p.var(("p",) + piece, integer=True)          # whole reports
    g = geo.change if geo.change is not None else n
    if rule == "new":
        # Which of the classes a line's ground split into hold any of its reports: that decided
        # the class it took.
        for c, held in choice.support.items():
            if held is None:
                continue
            for t in geo.split[c]:
                part = [("p",) + q for q in geo.pieces(n) if q[0] < g and q[1] == c and q[2] == t]
                if t in held:
                    p.row({q: 1 for q in part}, 1, float("inf"), f"{hall_name(c)}'s line holds reports in {hall_name(t)}")
                else:
                    for q in part:
                        p.bound(q, 0, 0)
    for line in lines.lines:
        for i in range(lines.start[line], n):
            p.var(("b", line, i), float("-inf"))
            p.var(("c", line, i), float("-inf"))

    # What each read shows per line: the areas its class has in the layers as read.
    present = [{(layer, f["id"]) for layer in r["layers"] for f in r["items"][(layer, "covid")]["features"]} for r in reads]
    alltime = [{(layer, f["id"]): f["properties"]["verified_all"] for layer in r["layers"] for f in r["items"][(layer, "covid")]["features"]}
               for r in reads]

    def mapped(line, i, shown=None):
        """The areas of the line's class at publication i that a read shows (by default the read
        right after publication i)."""
        shown = present[i] if shown is None else shown
        return tuple(pair for pair in lines.cls[line][i] if pair in shown) if lines.exists(line, i) else ()

    def group(line, i):
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

    moving = collections.defaultdict(set)
    for i, source, target, _ in lines.transfers:
        moving[i] |= {source, target}
    seen = {}                      # (line, i) -> its block when the attacker sees the line alone
    for line in lines.lines:
        for i in range(lines.start[line], n):
            members, value = group(line, i)
            if members != [line] or value is None or line in moving[i]:
                continue
            if i == lines.start[line]:
                seen[(line, i)] = value
            else:
                previous, before = group(line, i - 1)
                if previous == [line] and before is not None:
                    seen[(line, i)] = value - before
    # A publication was busy (it released every line whose carry reached the step) when some
    # number the attacker can follow moved by anything but a transfer: a group of lines, or a
    # layer's total, whose lines are those of the read before (and new ones, which held nothing).
    def followed(i):
        out = {}
        for line in lines.lines:
            if lines.exists(line, i):
                members, value = group(line, i)
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
            if members & moving[i]:
                continue
            was_members, was = before.get(key, (frozenset(), 0))
            if key[0] == "total" and key not in before:
                was_members, was = frozenset(), 0
            if was_members <= members and all(lines.start[l] == i for l in members - was_members) and value != was:
                moved = True
        busy.append(moved)
    inconsistent = [f"{line} moved by {v} at publication {i}, less than a block" for (line, i), v in seen.items() if v and abs(v) < STEP]

    M = 2 * max([sum(v for (layer, _), v in a.items() if layer == "zones") for a in alltime] + [0]) + STEP * len(lines.lines) + 1000
    tin, tout = collections.defaultdict(dict), collections.defaultdict(dict)
    for k, (i, source, target, parts) in enumerate(lines.transfers):
        # A pair: -n on the line, +n on the line new reports of the part's class join.
        p.var(("t", k), 0, M)
        p.row({("t", k): 1, **{("p",) + q: -1 for q in parts}}, 0, 0, f"transfer {k}: the whole part moves at {i}")
        tout[(source, i)][("t", k)] = 1
        tin[(target, i)][("t", k)] = 1

    # How the first publication after the change decided each part, once. Its budget: what its
    # line had released before that publication (its blocks, pairs included) less a step, less the
    # parts of the line that moved before it there (in the order of their classes' keys). It
    # moved when it held a step or more and no more than the budget; otherwise it settled, holding
    # at most k ("small") or a step or more and more than the budget ("large").
    for c, t, when, part in lines.parts:
        size = {("p",) + q: 1 for q in part}
        label = f"{hall_name(c)}'s part in {hall_name(t)}"
        if when == "small":
            p.row(size, float("-inf"), K, f"{label} holds at most {K}: it settles")
            continue
        p.row(size, STEP, float("inf"), f"{label} holds at least {STEP}")
        over = dict(size)                   # n - R + the parts that moved before it
        for j in range(lines.start[c], g):
            over[("b", c, j)] = over.get(("b", c, j), 0) - 1
        for c2, t2, when2, part2 in lines.parts:
            if c2 == c and when2 == g and class_key(t2) < class_key(t):
                for q in part2:
                    over[("p",) + q] = over.get(("p",) + q, 0) + 1
        # The budget is R - 12 - those parts: n <= budget is over <= -12.
        if when == "large":
            p.row(over, 1 - STEP, float("inf"), f"{label} more than its line's budget at {g} (what it had released, less {STEP}): it settles")
        else:
            p.row(over, float("-inf"), -STEP, f"{label} no more than its line's budget at {g} (what it had released, less {STEP}): it moves")

    # Where lines took one class, new reports of it joined the oldest: a line is made at the
    # publication that first accounts a report of its class, those made at one publication
    # numbered in the order of their classes' keys. e: the line exists after publication j.
    if rule == "new":
        for x, group in choice.shared.items():
            for c in group:
                for j in range(g):
                    made = {("p",) + q: 1 for q in geo.pieces(n) if q[0] <= j and q[1] == c}
                    p.var(("e", c, j), 0, 1, integer=True)
                    p.row({**made, ("e", c, j): -1}, 0, float("inf"), f"{hall_name(c)}'s line made by publication {j}")
                    p.row({**made, ("e", c, j): -M}, float("-inf"), 0, f"{hall_name(c)}'s line not made by publication {j}")
            main = choice.main[x]
            for c in group:
                if c == main:
                    continue
                for j in range(g):
                    label = f"{hall_name(main)}'s line is older than {hall_name(c)}'s"
                    if class_key(main) < class_key(c):
                        p.row({("e", main, j): 1, ("e", c, j): -1}, 0, float("inf"), label)
                    elif j == 0:
                        p.bound(("e", c, 0), 0, 0)
                    else:
                        p.row({("e", main, j - 1): 1, ("e", c, j): -1}, 0, float("inf"), label)

    for line in lines.lines:
        for i in range(lines.start[line], n):
            rel = {("b", line, i): 1}
            for name in tin[(line, i)]:
                rel[name] = rel.get(name, 0) - 1
            for name in tout[(line, i)]:
                rel[name] = rel.get(name, 0) + 1
            carry = {("c", line, i): 1, **{("p",) + q: -coefficient for q, coefficient in lines.inflow[(line, i)].items()}}
            if i > lines.start[line]:
                carry[("c", line, i - 1)] = -1
            for name, coefficient in rel.items():
                carry[name] = carry.get(name, 0) + coefficient
            p.row(carry, 0, 0, f"carry of {line} at {i}")
            if not busy[i]:
                p.row(rel, 0, 0, f"nothing released at quiet publication {i}: {line}")
            elif (line, i) in seen:
                if seen[(line, i)]:
                    p.bound(("c", line, i), 0, 0)
                else:
                    p.row(rel, 0, 0, f"{line} not released at {i}")
                    p.bound(("c", line, i), -K, K)
            else:
                p.bound(("c", line, i), -K, K)
                z, y = p.var(("z", line, i), 0, 1, integer=True), p.var(("y", line, i), 0, 1, integer=True)
                p.row({("c", line, i): 1, ("z", line, i): K}, float("-inf"), K, f"released {line} at {i}: carry 0")
                p.row({("c", line, i): -1, ("z", line, i): K}, float("-inf"), K, f"released {line} at {i}: carry 0")
                p.row({**rel, ("z", line, i): -M}, float("-inf"), 0, f"unreleased {line} at {i}: no block")
                p.row({**{k_: -v for k_, v in rel.items()}, ("z", line, i): -M}, float("-inf"), 0, f"unreleased {line} at {i}: no block")
                p.row({**rel, ("z", line, i): -STEP, ("y", line, i): -M}, -M, float("inf"), f"a block of {line} at {i} is at least {STEP}")
                p.row({**rel, ("z", line, i): STEP, ("y", line, i): -M}, float("-inf"), 0, f"a block of {line} at {i} is at least {STEP}")

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
        shown = {(layer, f["id"]) for layer in r["layers"] for f in r["items"][(layer, "covid")]["features"]}
        alive = [l for l in lines.lines if lines.exists(l, i)]
        for layer in r["layers"]:
            body = r["items"][(layer, "covid")]
            ids = [f["id"] for f in body["features"]]
            members = {a: [l for l in alive if (layer, a) in mapped(l, i, shown)] for a in ids}
            for feature in body["features"]:
                for name, value in A.numbers_of(feature["properties"]).items():
                    if value is not None:
                        p.row(number(members[feature["id"]], i, name), value, value, f"read {i}{'' if r is reads[i] else ' (map changed)'} {layer} {feature['id']} {name}")
            everyone = [l for l in alive if area_in(mapped(l, i, shown), layer) is not None]
            for name, value in A.total_numbers(body["statistics"]).items():
                if value is not None:
                    p.row(number(everyone, i, name), value, value, f"read {i}{'' if r is reads[i] else ' (map changed)'} {layer} total {name}")
            for bucket in ("day", "week", "month"):
                for row in r["exports"][(layer, "covid", bucket)]["rows"]:
                    if row.get("verified") is None:
                        continue          # withheld (a negative cell, after a move): nothing to add
                    first, last = datetime.date.fromisoformat(row["bucketStart"]), datetime.date.fromisoformat(row["bucketEnd"])
                    p.row(blocks(members.get(row["areaId"], []), i, first, last), row["verified"], row["verified"],
                          f"read {i}{'' if r is reads[i] else ' (map changed)'} {layer} export {bucket} {row['areaId']} {row['bucketStart']}")
    p.freeze()

    def simulate(truth):
        """The rule run over the campus's truth, as the programme's variables (under the choice,
        which the programme's rows then check against the truth)."""
        values = {("p",) + q: truth.get(q, 0) for q in geo.pieces(n)}
        for name in p.index:
            if name[0] == "e":
                values[name] = int(sum(v for q, v in truth.items() if q[0] <= name[2] and q[1] == name[1]) >= 1)
        carry = {}
        for i in range(n):
            moved = collections.Counter()
            for k, (j, source, target, parts) in enumerate(lines.transfers):
                if j == i:
                    values[("t", k)] = sum(truth.get(q, 0) for q in parts)
                    moved[source] -= values[("t", k)]
                    moved[target] += values[("t", k)]
            for line in lines.lines:
                if not lines.exists(line, i):
                    continue
                pre = carry.get(line, 0) + sum(coefficient * truth.get(q, 0) for q, coefficient in lines.inflow[(line, i)].items())
                released = pre if busy[i] and abs(pre) >= STEP else 0
                carry[line] = pre - released
                values[("c", line, i)] = carry[line]
                values[("b", line, i)] = released + moved[line]
                values[("z", line, i)] = int(released != 0)
                values[("y", line, i)] = int(released > 0)
        return values

    return p, lines, inconsistent, busy, simulate


def solve_and_check(session, geo, cells):
    """The attacker's attack: the first rule that explains what was read, the truth check, and the
    range of each planted cell. `cells`: (label, [pieces], true value)."""
    if os.environ.get("ATTACK_DUMP"):          # for working on the programme without a server
        import pickle
        with open(os.path.join(os.environ["ATTACK_DUMP"], f"{session.name}.pickle"), "wb") as f:
            pickle.dump((session, geo, cells), f)
    started = time.monotonic()
    usable = []
    for rule in ("new", "old"):
        title = "rule of lines" if rule == "new" else "old rule (lines are classes)"
        options = geo.choices(len(session.days)) if rule == "new" else [None]
        refused = []
        for choice in options:
            way = choice.describe() if choice is not None else ""
            name = title + (f" ({way})" if way else "")
            p, lines, inconsistent, busy, simulate = attack_model(session, geo, rule, choice)
            if inconsistent:
                refused.append(f"{name}: {inconsistent[0]}")
            elif p.optimum({}, 1) is None:
                refused.append(f"{name}: its programme has no solution")
            else:
                print(f"# {session.name}: the {name} explains the published numbers; {len(p.lo)} rows over {len(p.lb)} unknowns "
                      f"({sum(k for name, k in zip(p.index, p.integer) if name[0] != 'p')} binary, pieces whole) from {len(session.reads)} publications", flush=True)
                usable.append((name, p, simulate))
        if len(options) > 1 or not usable:
            print(f"# {session.name}: {len(usable)} of the {len(options)} ways the {title} may have gone at the change explain the published numbers",
                  flush=True)
        for why in refused if not usable or os.environ.get("ATTACK_VERBOSE") else []:
            print(f"# {session.name}: the numbers do not follow the {why}", flush=True)
        if usable:
            break
    if not usable:
        session.check(False, "a rule explains the published numbers", "neither the rule of lines nor the old rule")
        return
    # The campus's truth run through the rule must give what was published, under one of them.
    verdicts = [(name, p.violations(simulate(session.truth))) for name, p, simulate in usable]
    holding = [name for name, bad in verdicts if not bad]
    bad = verdicts[0][1]
    session.check(bool(holding), f"the attacker's model holds the truth ({holding[0] if holding else verdicts[0][0]})",
                  "; ".join(bad[:5]) + (f" … {len(bad)} in all" if len(bad) > 5 else ""))
    for label, pieces, value in cells:
        objective = {("p",) + q: 1 for q in pieces}
        spans = [(p.optimum(objective, 1), p.optimum(objective, -1)) for _, p, _ in usable]
        if any(low is None or high is None for low, high in spans):
            session.check(False, f"{label} ({value})", "the solver found no optimum (the programme has no solution?)")
            continue
        low, high = min(s[0] for s in spans), max(s[1] for s in spans)
        session.check(high - low >= K - 1e-6 and low - 1e-6 <= value <= high + 1e-6,
                      f"{label} ({value}): feasible {low:g}..{high:g}, at least {K} wide", f"only {low:g}..{high:g}")
    print(f"# {session.name}: solved in {time.monotonic() - started:.1f} s", flush=True)


def cell(geo, session, hall, first, last=None):
    """A planted small count: the pieces of a hall's reports verified in intervals first..last,
    whatever class they went to. `hall` may be a tuple of names (an area renamed)."""
    names = hall if isinstance(hall, tuple) else (hall,)
    last = first if last is None else last
    out = [q for q in geo.pieces(len(session.days)) if first <= q[0] <= last and area_in(q[1], "halls") in names]
    value = sum(session.truth.get(q, 0) for q in out)
    span = f"interval {first}" if first == last else f"intervals {first}-{last}"
    return (f"{'/'.join(names)} {span}", out, value)


def base_classes(session):
    return [session.hall_class(h) for h in session.campus.halls] + [klass(("zones", z)) for z in session.campus.zones]


# --- 1. a new layer between publications -----------------------------------------------------------

def campus_layer(session):
    s = session
    first = s.today - datetime.timedelta(days=7)
    s.first_day = first
    before = base_classes(s)
    campus = ("campus", "CAMPUS")
    geo = Geography(before, [klass(*c, campus) for c in before], {c: [klass(*c, campus)] for c in before}, change=5)
    # Beside the busy hall: H10, H11 and H13 have a released block and then a carry of 2, 5 and 8;
    # H12 holds 8 and then 10, never released; H14 gets 3 after the change.
    small = {0: [("H10", 12), ("H13", 13)], 1: [("H11", 12)], 2: [("H10", 2), ("H12", 8)], 3: [("H11", 5)], 4: [("H13", 8)],
             5: [("H12", 2), ("H14", 3)]}
    for d in range(7):
        day = first + datetime.timedelta(days=d)
        if d == geo.change:
            held = s.read()
            s.upload("campus", {"type": "FeatureCollection", "features": [{
                "type": "Feature", "id": "CAMPUS", "properties": {"name": "Campus"},
                "geometry": {"type": "Polygon", "coordinates": [rect(-87.603, 41.787, -87.579, 41.8035)]}}]})
            between = s.read()
            s.extra_reads.append((len(s.days) - 1, between))
            moved = changed(held, between, ("halls", "zones"))
            s.check(not moved, "the new layer moves no number of halls or zones before a publication")
        for hall, n in [("H01", 13)] + small.get(d, []):
            s.covid(geo.piece(d, s.hall_class(hall, campus), s.hall_class(hall)), n, day, hall=hall)
        s.publish(day)
    g = geo.change
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
    cells += [cell(geo, s, h, first, g) for h, first in (("H10", 1), ("H11", 2), ("H13", 1), ("H12", 0))]
    solve_and_check(s, geo, cells)


# --- 2. a new version of halls moving an edge -------------------------------------------------------

H08_WEST, H08_EAST, H08_SOUTH, H08_NORTH = -87.6003253, -87.5995953, 41.7916097, 41.7925159
H09_RING = rect(-87.59728, 41.7916727, -87.5965537, 41.7925923)


def hall_edge(session, edge=-87.5998, strip=(-87.59970, 41.79206), rest=(-87.60010, 41.79206),
              plan=None, story="the strip moved as a pair of blocks, not through a carry", whole=False, settles=False,
              shares=((1, None),)):
    """A new version of halls in which the part of H08 east of `edge` (the strip) becomes part of
    H09 (a MultiPolygon: H09 and the strip). `plan`: day → [("strip" | "rest", n)] of H08's
    reports, placed by location; `story`: how H08 and H09 together stay as they were; `whole`:
    H08's line goes whole to H09 (none of its reports lies in what is left of H08); `settles`:
    H08 keeps its line and the strip's part is settled in it (no pair, then or later); else H08
    keeps its line and its reports in the strip move as a pair. `shares`: where the strip's part
    settled, the intervals (first, last; None: the last before the change) over which the strip's
    and the rest's shares of H08's reports are cells too."""
    s = session
    first = s.today - datetime.timedelta(days=6)
    s.first_day = first
    before = base_classes(s)
    a, b = s.hall_class("H08"), s.hall_class("H09")
    assert s.zone_of["H08"] == s.zone_of["H09"]
    geo = Geography(before, before, {**{c: [c] for c in before}, a: [a, b]}, change=4)
    for point in (strip, rest):
        assert s.containing(*point) == a, (point, s.containing(*point))
    for d in range(6):
        day = first + datetime.timedelta(days=d)
        if d == geo.change:
            held = s.read()

            def edit(features):
                for f in features:
                    if f["id"] == "H08":
                        f["geometry"] = {"type": "Polygon", "coordinates": [rect(H08_WEST, H08_SOUTH, edge, H08_NORTH)]}
                    if f["id"] == "H09":
                        f["geometry"] = {"type": "MultiPolygon", "coordinates": [[H09_RING], [rect(edge, H08_SOUTH, H08_EAST, H08_NORTH)]]}
            s.upload("halls", halls_collection(edit))
            assert s.containing(*strip) == b and s.containing(*rest) == a
            between = s.read()
            s.extra_reads.append((len(s.days) - 1, between))
            moved = changed(held, between, ("halls", "zones"))
            s.check(not moved, "the new version moves no public number before a publication", moved)
        s.covid(geo.piece(d, s.hall_class("H01"), s.hall_class("H01")), 13, day, hall="H01")
        for where, n in plan.get(d, []):
            # Where the report lies in the new version; before the change it was H08's.
            s.covid(geo.piece(d, b if where == "strip" else a, a), n, day, point=strip if where == "strip" else rest)
        if d == 1:
            s.covid(geo.piece(d, s.hall_class("H10")), 3, day, hall="H10")
        if d == 2:
            s.covid(geo.piece(d, b), 12, day, hall="H09")
        s.publish(day)
    g = geo.change
    h_before, h_after = s.shown(s.reads[g - 1], "halls"), s.shown(s.reads[g], "halls")
    moved = {h: h_after[h] - h_before[h] for h in h_before if h not in ("H01", "H08", "H09") and h_after[h] != h_before[h]}
    s.check(not moved, "at the publication after the new version no other hall moves but the busy one", f"moved: {moved}")
    if settles:
        # The part is decided once: no pair at the publication after the change, nor at any later
        # one, however much H08 releases in between. H09 shows only its own block, H08 never falls.
        shown = [(s.shown(s.reads[i], "halls")["H08"], s.shown(s.reads[i], "halls")["H09"]) for i in range(g - 1, len(s.reads))]
        s.check(all(h09 == h_before["H09"] for _, h09 in shown) and all(b >= a for (a, _), (b, _) in zip(shown, shown[1:])),
                f"{story}: H09 shows its own {h_before['H09']} at every publication from the change on, and H08 never falls",
                f"(H08, H09) from publication {g - 1}: {shown}")
    else:
        pair = (h_after["H08"] + h_after["H09"]) - (h_before["H08"] + h_before["H09"])
        s.check(pair == 0, f"H08 and H09 together are unchanged (H08 {h_before['H08']}→{h_after['H08']}, H09 {h_before['H09']}→{h_after['H09']}):"
                f" {story}", f"together they moved by {pair}")
    if whole:
        s.check(h_after["H08"] == 0 and h_after["H09"] == h_before["H08"] + h_before["H09"],
                "H08's line took H09: H08 shows 0, H09 its own number and H08's", f"H08 {h_after['H08']}, H09 {h_after['H09']}")
    elif not settles:
        n = h_before["H08"] - h_after["H08"]
        s.check(STEP <= n <= h_before["H08"] - STEP, f"the strip's {n} moved as a pair: at least {STEP}, and H08 keeps at least"
                f" {STEP} of what it had released", f"H08 {h_before['H08']}→{h_after['H08']}")
    negative = {h: v for i in range(len(s.reads)) for h, v in s.shown(s.reads[i], "halls").items() if v < 0}
    s.check(not negative, "no hall shows a negative number of reports", f"{negative}")
    # H08's carry, alone and with whatever else came before the change (and at the publication
    # after it, when none of H08's reports came in then: else that publication's block holds them);
    # where a strip settled, the strip's and the rest's shares (of the carry, or of the intervals
    # `shares` names); H10 beside it; and each count planted after the change, in the hall it lies
    # in then.
    cells = [cell(geo, s, "H08", 1), cell(geo, s, "H08", 1, g if g not in plan else g - 1), cell(geo, s, "H10", 1)]
    if settles:
        a, b = s.hall_class("H08"), s.hall_class("H09")
        for low, high in shares:
            high = g - 1 if high is None else high
            span = f"interval {low}" if low == high else f"intervals {low}-{high}"
            for name, now in (("strip", b), ("rest", a)):
                pieces = [q for q in geo.pieces(len(s.days)) if low <= q[0] <= high and q[1] == a and q[2] == now]
                cells.append((f"H08's {name} {span}", pieces, sum(s.truth.get(q, 0) for q in pieces)))
    cells += [cell(geo, s, "H09" if where == "strip" else "H08", d) for d in plan if d >= g for where, _ in plan[d]]
    solve_and_check(s, geo, cells)


def hall_edge_strip(session):
    """The strip at H08's east edge holds 13 of the 40 reports of H08's first block and the 5 that
    followed (its carry); H09 has a block of 12 two days later (its carry is 0). H08 keeps its
    line (what is left of it holds 27 of its reports) and the strip's 18 move as a pair:
    12 <= 18 <= 28, what the line had released less a step."""
    hall_edge(session, plan={0: [("strip", 13), ("rest", 27)], 1: [("strip", 5)], 5: [("strip", 2)]})


def strip_waits(session):
    """The edge moved almost to H08's west side, as in hall-shrink, but the sliver left to H08
    holds 1 of the reports of its block of 13 (the other 12 lie in what becomes H09's), and the 8
    that followed (its carry) lie in the strip too. H08 keeps its line; the strip's part of 20
    is more than the line's budget (13 released, less a step: 1), so it settles: it stays counted
    in H08 for good. 12 arrive in the sliver at the publication after the change, and H08
    releases 20 there (its carry and those 12): at the next publication the line has released 33,
    whose budget (21) the part would fit, but a settled part is not decided again (a part that
    waited for the released total to grow and then moved told that the carry was at least 8)."""
    hall_edge(session, edge=H08_WEST + 0.00006, strip=(-87.59990, 41.79206), rest=(-87.60030, 41.79206),
              plan={0: [("strip", 12), ("rest", 1)], 1: [("strip", 8)], 4: [("rest", 12)]}, settles=True,
              story="the strip's part of 20 settled in H08, then and after H08 released more")


def strip_whole_release(session):
    """The edge moved almost to H08's west side: H08's block of 12 lies wholly in the strip, and
    the 8 that followed (its carry) in the sliver left to H08. H08 keeps its line (the sliver
    holds some of its reports); the strip's part of 12 equals what the line had released, more
    than its budget (0), so it settles and H08 goes on showing 12 (a pair of -12 would have
    left H08 at 0 while keeping its line, telling that the carry was at least 1). After the
    change 2 reports arrive in the sliver and join H08's line."""
    hall_edge(session, edge=H08_WEST + 0.00006, strip=(-87.59990, 41.79206), rest=(-87.60030, 41.79206),
              plan={0: [("strip", 12)], 1: [("rest", 8)], 5: [("rest", 2)]}, settles=True,
              story="the strip's part of 12, all that H08 had released, settled in H08")


def pair_after_release(session):
    """The edge of hall-edge. H08's 13 reports all come on one day, 12 in the strip and 1 in
    what stays H08, and are released as one block at the publication before the change: right
    after it, H08's carry is known to be 0. At the change the strip's part of 12 is more than the
    line's budget (13 released, less a step: 1), so it settles and H08 goes on showing 13 (a
    pair of 12 would have left H08 at 1, exactly what its part of the hall holds)."""
    hall_edge(session, plan={3: [("strip", 12), ("rest", 1)]}, settles=True, shares=((0, 3), (3, 3)),
              story="the strip's part of 12, right after H08 released 13, settled in H08")


def pair_after_release_sliver(session):
    """The edge moved almost to H08's west side: H08 releases 33 (30 in the strip, 3 in the
    sliver left to it), then 13 more in the strip, released at the publication before the change
    (its carry is known to be 0 after it). At the change the strip's part of 43 is more than the
    line's budget (46 released, less a step: 34), so it settles and H08 goes on showing 46 (a pair
    of 43 would have left H08 at 3, exactly what the sliver holds)."""
    hall_edge(session, edge=H08_WEST + 0.00006, strip=(-87.59990, 41.79206), rest=(-87.60030, 41.79206),
              plan={0: [("strip", 30), ("rest", 3)], 3: [("strip", 13)]}, settles=True, shares=((0, 3), (3, 3)),
              story="the strip's part of 43, right after H08 released 13 more, settled in H08")


def hall_shrink(session):
    """The same edge moved almost to H08's west side: H08 keeps a sliver 5 m wide that holds none
    of its line's reports, and the rest (its block of 12 and its carry of 8) becomes part of H09.
    H08 still exists but holds none of them, so the line goes where they lie, H09, with its
    history and its carry: H08 shows 0 and H09 its own 12 and H08's 12. No pair, so nothing falls
    below zero (a pair of -20 against a released 12 would have shown H08 at -8, its carry). The
    line stays apart from H09's own line (two carries); being the older, it is the one new
    reports in H09 would join. After the change 2 reports arrive in the sliver: no line has H08
    any more, so they start a new one."""
    hall_edge(session, edge=H08_WEST + 0.00006, strip=(-87.59990, 41.79206), rest=(-87.60030, 41.79206),
              plan={0: [("strip", 12)], 1: [("strip", 8)], 5: [("rest", 2)]}, whole=True,
              story="H08's line went whole to H09, its history with it, and no pair of blocks")


# --- 2b. a new version splitting an area in two --------------------------------------------------------

H20_WEST, H20_EAST, H20_SOUTH, H20_NORTH, H20_MIDDLE = -87.5846049, -87.5838182, 41.7935255, 41.7947198, -87.5842


def hall_split_cut(session, plan, settles, story):
    """H20 is replaced by H20a (its west half) and H20b (its east half). `plan`: day →
    [("west" | "east", n)] of H20's reports, placed by location (the change comes before the
    reports of day 3). No count is compared: H20 is gone, so its line takes H20a, the smallest id
    holding any of its reports, with its history and its carry. The east half's part of its
    reports is decided at the publication after the change: it moves to a new line of H20b as a
    pair of blocks when 12 <= n <= R - 12, R being what the line had released; else (`settles`)
    it stays counted in H20a for good. Reports that arrive in H20b after the change join H20b's
    line. `story`: what the rule did."""
    s = session
    first = s.today - datetime.timedelta(days=5)
    s.first_day = first
    before = base_classes(s)
    zone = s.zone_of["H20"]
    old, west, east = s.hall_class("H20"), klass(("halls", "H20a"), ("zones", zone)), klass(("halls", "H20b"), ("zones", zone))
    half = {"west": west, "east": east}
    after = [c for c in before if c != old] + [west, east]
    geo = Geography(before, after, {**{c: [c] for c in before}, old: [west, east]}, change=3)
    points = {west: ((H20_WEST + H20_MIDDLE) / 2, 41.7941), east: ((H20_MIDDLE + H20_EAST) / 2, 41.7941)}
    for point in points.values():
        assert s.containing(*point) == old, point
    for d in range(5):
        day = first + datetime.timedelta(days=d)
        if d == geo.change:
            held = s.read()

            def edit(features):
                h20 = next(f for f in features if f["id"] == "H20")
                features.remove(h20)
                for name, x0, x1 in (("H20a", H20_WEST, H20_MIDDLE), ("H20b", H20_MIDDLE, H20_EAST)):
                    features.append({"type": "Feature", "id": name, "properties": {**h20["properties"], "name": f"{h20['properties']['name']} {name[-1]}"},
                                     "geometry": {"type": "Polygon", "coordinates": [rect(x0, H20_SOUTH, x1, H20_NORTH)]}})
            s.upload("halls", halls_collection(edit))
            assert s.containing(*points[west]) == west and s.containing(*points[east]) == east
            between = s.read()
            s.extra_reads.append((len(s.days) - 1, between))
            moved = changed(held, between, ("zones",))
            s.check(not moved, "the new version moves no zone's number before a publication", moved)
        s.covid(geo.piece(d, s.hall_class("H01")), 13, day, hall="H01")
        for where, n in plan.get(d, []):
            s.covid(geo.piece(d, half[where], old), n, day, point=points[half[where]])
        if d == 1:
            s.covid(geo.piece(d, s.hall_class("H21")), 4, day, hall="H21")
        s.publish(day)
    g = geo.change
    was, now = s.shown(s.reads[g - 1], "halls"), s.shown(s.reads[g], "halls")
    s.check(now.get("H20a", 0) + now.get("H20b", 0) == was["H20"], "H20a and H20b together show what H20 showed",
            f"H20 {was['H20']}, H20a {now.get('H20a')}, H20b {now.get('H20b')}")
    if settles:
        # Decided once: no pair at the publication after the change nor later; H20b shows only
        # its own line (the reports that arrive there after the change), H20a all of H20's.
        shown = [(s.shown(s.reads[i], "halls")["H20a"], s.shown(s.reads[i], "halls")["H20b"]) for i in range(g, len(s.reads))]
        s.check(all(a == was["H20"] and b == 0 for a, b in shown), f"{story}: H20a shows H20's {was['H20']} and H20b 0 at every"
                " publication from the change on", f"(H20a, H20b) from publication {g}: {shown}")
    else:
        n = now.get("H20b", 0)
        s.check(STEP <= n <= was["H20"] - STEP, f"{story}: the east half's {n} moved to H20b as a pair, at least {STEP}, and H20a"
                f" keeps at least {STEP} of what H20 had released", f"H20 {was['H20']}, H20a {now.get('H20a')}, H20b {now.get('H20b')}")
    negative = {h: v for i in range(len(s.reads)) for h, v in s.shown(s.reads[i], "halls").items() if v < 0}
    s.check(not negative, "no hall shows a negative number of reports", f"{negative}")
    z_before, z_after = s.shown(s.reads[g - 1], "zones"), s.shown(s.reads[g], "zones")
    s.check(z_before[zone] == z_after[zone], f"{zone} (H20's zone) does not move", f"{z_before[zone]} → {z_after[zone]}")
    # H20's carry (what it gathered after its block, before the change), its east and west
    # shares, H21 beside it, and the 2 that join H20b's line after the change.
    cells = [cell(geo, s, "H20", 1), cell(geo, s, "H20", 1, g - 1), cell(geo, s, "H21", 1), cell(geo, s, "H20b", 4)]
    for name, now_ in (("east", east), ("west", west)):
        pieces = [q for q in geo.pieces(len(s.days)) if 1 <= q[0] < g and q[1] == old and q[2] == now_]
        cells.append((f"H20's {name} half intervals 1-{g - 1}", pieces, sum(s.truth.get(q, 0) for q in pieces)))
    solve_and_check(s, geo, cells)


def hall_split(session):
    """H20 had a block of 30 (20 in the west half, 10 in the east) and then a carry of 5 in the
    east half. The east half's part (15) moves to a new line of H20b as a pair of blocks (-15,
    +15): 12 <= 15 <= 18, what the line had released less a step. The 2 that arrive in H20b after
    the change join H20b's line."""
    hall_split_cut(session, {0: [("west", 20), ("east", 10)], 1: [("east", 5)], 4: [("east", 2)]}, settles=False,
                   story="H20's line took H20a")


def hall_split_settles(session):
    """H20 had a block of 24 (14 in the west half, 10 in the east) and then a carry of 5 in the
    east half. The east half's part (15) is more than the line's budget (24 released, less a
    step: 12), so it settles in H20a for good: H20a shows H20's 24 and H20b 0, then and after.
    The 2 that arrive in H20b after the change start H20b's line."""
    hall_split_cut(session, {0: [("west", 14), ("east", 10)], 1: [("east", 5)], 4: [("east", 2)]}, settles=True,
                   story="H20's line took H20a and the east half's part of 15 settled in it")


# --- 3. a new version renaming an area ---------------------------------------------------------------

def rename(session):
    s = session
    first = s.today - datetime.timedelta(days=5)
    s.first_day = first
    before = base_classes(s)
    old, new = s.hall_class("H20"), klass(("halls", "H20b"), ("zones", s.zone_of["H20"]))
    after = [new if c == old else c for c in before]
    geo = Geography(before, after, {**{c: [c] for c in before}, old: [new]}, change=3)
    inside = s.campus.point["H20"]
    # H20's reports are placed by location (a report naming H20 would name an area that is gone):
    # a block of 12, then a carry of 5; at the second publication after the rename 2 more.
    for d in range(5):
        day = first + datetime.timedelta(days=d)
        if d == geo.change:
            held = s.read()

            def edit(features):
                for f in features:
                    if f["id"] == "H20":
                        f["id"] = "H20b"
            s.upload("halls", halls_collection(edit))
            assert s.containing(*inside) == new
            between = s.read()
            s.extra_reads.append((len(s.days) - 1, between))
            moved = changed(held, between, ("zones",))
            s.check(not moved, "the new version moves no zone's number before a publication", moved)
        s.covid(geo.piece(d, s.hall_class("H01")), 13, day, hall="H01")
        n = {0: 12, 1: 5, 4: 2}.get(d)
        if n:
            s.covid(geo.piece(d, new, old), n, day, point=inside)
        if d == 1:
            s.covid(geo.piece(d, s.hall_class("H21")), 4, day, hall="H21")
        s.publish(day)
    g = geo.change
    before_read, after_read = s.reads[g - 1]["items"][("halls", "covid")], s.reads[g]["items"][("halls", "covid")]
    was = next(f for f in before_read["features"] if f["id"] == "H20")["properties"]
    now = next((f for f in after_read["features"] if f["id"] == "H20b"), {"properties": {}})["properties"]
    windows = ("verified_all", "verified_28d", "verified_14d", "verified_7d")
    s.check(all(was[w] == now.get(w) for w in windows), "H20b shows what H20 showed (every window)",
            f"H20 {[was[w] for w in windows]}, H20b {[now.get(w) for w in windows]}")
    z_before, z_after = s.shown(s.reads[g - 1], "zones"), s.shown(s.reads[g], "zones")
    zone = s.zone_of["H20"]
    s.check(z_before[zone] == z_after[zone], f"{zone} (H20's zone) does not move", f"{z_before[zone]} → {z_after[zone]}")
    cells = [cell(geo, s, "H20", 1), cell(geo, s, ("H20", "H20b"), 1, g), cell(geo, s, "H21", 1), cell(geo, s, "H20b", 4)]
    solve_and_check(s, geo, cells)


# --- 4. a quiet campus published weekly --------------------------------------------------------------

def weekly(session):
    s = session
    binary, database = os.environ.get("ATTACK_GEOSERVE"), os.environ.get("ATTACK_DATABASE")
    assert binary and database, "ATTACK_GEOSERVE and ATTACK_DATABASE name the binary and the server's database"
    weeks = 5
    start = s.today - datetime.timedelta(days=7 * weeks)
    s.first_day = start
    geo = Geography(base_classes(s))
    steady, rotating = "H07", ["H10", "H11", "H12", "H13", "H15"]
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
                s.truth[geo.piece(week, s.hall_class(hall))] += 1
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        done = subprocess.run([binary, "import-reports", f.name, "--database", database], capture_output=True, text=True)
        os.unlink(f.name)
        assert done.returncode == 0, done.stderr or done.stdout
        s.publish(start + datetime.timedelta(days=7 * week))
    shown = s.shown(s.reads[1], "halls")[steady]
    s.check(shown > 0, f"{steady} (3 a day, 21 in the first week) shows a number at the first weekly publication", f"it shows {shown}")
    late = []
    for i in range(1, weeks + 1):
        numbers = s.shown(s.reads[i], "halls")
        for hall in [steady] + rotating:
            held = sum(v for (j, c, _), v in s.truth.items() if j <= i and area_in(c, "halls") == hall) - numbers[hall]
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
             "pair-after-release-sliver": pair_after_release_sliver, "hall-split": hall_split, "hall-split-settles": hall_split_settles,
             "rename": rename, "weekly": weekly,
             "misconduct-paging": misconduct_paging}


def run(module, name, url, email, password):
    global A
    A = module
    session = None
    try:
        session = Session(name, url, email, password)
        SCENARIOS[name](session)
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
        session, geo, cells = pickle.load(f)
    solve_and_check(session, geo, cells)
