"""An outsider's attack on geoserve's published numbers, run against a live server.

  attack.py run URL ADMIN_EMAIL PASSWORD plant, publish, collect, solve; prints one check a line
  attack.py SCENARIO URL ADMIN_EMAIL PASSWORD   one of the scenarios of scenarios.py (changes of geography,
                                                a weekly schedule, the paged misconduct search) or of
                                                sequences.py (sequences of changes: fixed ones, and
                                                `sequence-SEED`, generated), each on a fresh server;
                                                `attack.py replay FILE` solves a dumped one again

The suite plays both sides. As the campus it plants small counts (1, 2, 3, 4, 10, reports on
consecutive days, a revocation, COVID and misconduct) among busy halls and publishes once a day
over thirteen days, then verifies a single report and publishes again. As the attacker it reads
every public output after every publication — every layer, kind, window, window end, the layer
totals, every researcher export bucket, the misconduct search and the dashboard's legends — and solves a linear programme
over all of it, knowing the publication rule (blocks of more than k; a released line's carry is
0; an unreleased line's carry is at most k after a busy interval), knowing when revocations
happened and, around the last publication, that exactly one report was verified in between.

It checks that no protected cell is recovered exactly and that each keeps a feasible range at
least k wide (the protection level), that historical views equal what was read at the time, that
refused parameters are refused, and that the misconduct search and the misconduct counts (public
records) agree. Lines are "ok NAME" or "FAIL NAME: why"; the last line counts them.
"""

import datetime
import json
import sys
import urllib.error
import urllib.request

K = 11                       # the service's default public k
STEP = K + 1                 # the release step the rule documents
WINDOWS = {"7d": 7, "14d": 14, "28d": 28}

passed = failed = 0


def report(ok, name, why=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok {name}", flush=True)
    else:
        failed += 1
        print(f"FAIL {name}: {why}", flush=True)


def call(url, method="GET", body=None, token=None):
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


# --- the campus ------------------------------------------------------------------------------------

def candidate_points(geometry):
    """Points that may lie inside a (multi)polygon: the vertex mean of its first ring, the
    centroids of its fan triangles, then a grid over its box. The service says which is inside."""
    ring = geometry["coordinates"][0] if geometry["type"] == "Polygon" else geometry["coordinates"][0][0]
    points = ring[:-1]
    yield sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
    for i in range(1, len(points) - 1):
        a, b, c = points[0], points[i], points[i + 1]
        yield (a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    for i in range(1, 10):
        for j in range(1, 10):
            yield min(xs) + (max(xs) - min(xs)) * i / 10, min(ys) + (max(ys) - min(ys)) * j / 10


class Campus:
    def __init__(self, url, token):
        self.url, self.token = url, token
        _, halls = call(f"{url}/collections/halls/items?limit=1000")
        _, zones = call(f"{url}/collections/zones/items?limit=1000")
        self.halls = sorted(f["id"] for f in halls["features"])
        self.zones = sorted(f["id"] for f in zones["features"])
        # The attacker knows the map: a point inside each hall, and the zone it lies in.
        self.point, self.zone_of = {}, {}
        for feature in halls["features"]:
            hall = feature["id"]
            for lon, lat in candidate_points(feature["geometry"]):
                _, found = call(f"{url}/v1/areas/containing?lon={lon}&lat={lat}")
                areas = {a["layer"]: a["id"] for a in found.get("areas", [])}
                if areas.get("halls") == hall:
                    self.point[hall], self.zone_of[hall] = (lon, lat), areas.get("zones")
                    break
            assert hall in self.point, f"no point found inside {hall}"
        self.truth = {}          # (kind, class, interval) -> verified count
        self.revoked = {}        # (kind, class, interval) -> revoked count
        self.interval = 0
        self.planted_ids = {}

    def verify(self, report_id):
        status, body = call(f"{self.url}/v1/reports/{report_id}/transitions", "POST", {"transition": "verify"}, self.token)
        assert status == 200, (status, body)

    def covid(self, hall, n, tag=None):
        for _ in range(n):
            draft = {"kind": "covid", "affiliation": "student", "phone": "+1 336 555 0142", "testDate": self.today.isoformat(),
                     "lastOnCampus": self.today.isoformat(), "area": {"layer": "halls", "id": hall}}
            status, body = call(f"{self.url}/v1/reports", "POST", draft)
            assert status == 201, (status, body)
            self.verify(body["id"])
            cls = (hall, self.zone_of[hall])
            key = ("covid", cls, self.interval)
            self.truth[key] = self.truth.get(key, 0) + 1
            if tag:
                self.planted_ids.setdefault(tag, []).append(body["id"])

    def misconduct(self, hall, n):
        lon, lat = self.point[hall]
        for _ in range(n):
            draft = {"kind": "misconduct", "occurredAt": f"{self.today.isoformat()}T12:00:00Z",
                     "location": {"lon": lon, "lat": lat, "accuracyM": 10},
                     "officerDescription": "tall", "incidentDescription": "stopped without reason", "anonymous": True}
            status, body = call(f"{self.url}/v1/reports", "POST", draft)
            assert status == 201, (status, body)
            self.verify(body["id"])
            key = ("misconduct", (hall, self.zone_of[hall]), self.interval)
            self.truth[key] = self.truth.get(key, 0) + 1

    def revoke(self, tag, hall):
        report_id = self.planted_ids[tag].pop()
        status, body = call(f"{self.url}/v1/reports/{report_id}/transitions", "POST",
                            {"transition": "revoke", "reason": "planted revocation"}, self.token)
        assert status == 200, (status, body)
        key = ("covid", (hall, self.zone_of[hall]), self.interval)
        self.revoked[key] = self.revoked.get(key, 0) + 1


# --- the attacker's view ---------------------------------------------------------------------------

class Reader:
    """Everything public (and a researcher's exports) after each publication."""

    def __init__(self, url, researcher):
        self.url, self.researcher = url, researcher
        self.snapshots = []      # per publication: {"publication":…, "items":{(layer,kind):…}, "exports":{…}}

    def items(self, layer, kind, datetime_=None):
        query = f"limit=1000&kind={kind}" + (f"&datetime={datetime_}" if datetime_ else "")
        status, body = call(f"{self.url}/collections/{layer}/items?{query}")
        assert status == 200, (status, body)
        return body

    def read(self, first_day, last_day):
        snapshot = {"items": {}, "exports": {}}
        for layer in ("halls", "zones"):
            for kind in ("covid", "misconduct"):
                body = self.items(layer, kind)
                snapshot["items"][(layer, kind)] = body
                snapshot["publication"] = body["statistics"].get("publication")
                for bucket in ("day", "week", "month"):
                    status, export = call(f"{self.url}/v1/exports/area-stats?layer={layer}&from={first_day}&to={last_day}"
                                          f"&bucket={bucket}&kind={kind}&format=json", token=self.researcher)
                    assert status == 200, (status, export)
                    snapshot["exports"][(layer, kind, bucket)] = export
        self.snapshots.append(snapshot)
        return snapshot


def numbers_of(feature_props):
    out = {}
    for window in ("7d", "14d", "28d", "all"):
        out[("count", window)] = feature_props[f"verified_{window}"]
    for window in WINDOWS:
        out[("previous", window)] = feature_props[f"previous_{window}"]
        out[("change", window)] = feature_props[f"change_{window}"]
    return out


def total_numbers(statistics):
    total = statistics["total"]
    out = {("count", w): total["counts"][w] for w in ("7d", "14d", "28d", "all")}
    for w in WINDOWS:
        out[("previous", w)] = total["previous"][w]
        out[("change", w)] = total["change"][w]
    return out


def solve(campus, reader, publications, revocation_intervals, single_verification_interval):
    """The linear programme over every collected output; returns (min, max) per protected cell."""
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    kind = "covid"
    classes = [(h, campus.zone_of[h]) for h in campus.halls] + [(None, z) for z in campus.zones]
    n_int = len(publications)
    days = [datetime.date.fromisoformat(p["day"]) for p in publications]
    index = {}

    def var(name):
        if name not in index:
            index[name] = len(index)
        return index[name]

    # v: verified in an interval; r: revoked in an interval (only where revocations happened);
    # c: the carry after a publication. T(c, i) = Σ_{j≤i} v − r; R(c, i) = T − carry.
    for c in classes:
        for i in range(n_int):
            var(("v", c, i))
            var(("c", c, i))
            if i in revocation_intervals:
                var(("r", c, i))

    def released(c, i):
        """R(c, i) as {variable: coefficient}."""
        terms = {}
        if i < 0:
            return terms
        for j in range(i + 1):
            terms[index[("v", c, j)]] = terms.get(index[("v", c, j)], 0) + 1
            if ("r", c, j) in index:
                terms[index[("r", c, j)]] = terms.get(index[("r", c, j)], 0) - 1
        terms[index[("c", c, i)]] = terms.get(index[("c", c, i)], 0) - 1
        return terms

    def blocks_between(c, i, first_day, last_day):
        """Σ of the class's blocks released by publications up to i dated within [first, last]."""
        terms = {}
        for j in range(i + 1):
            if first_day <= days[j] <= last_day:
                for sign, at in ((1, j), (-1, j - 1)):
                    for k_, coefficient in released(c, at).items():
                        terms[k_] = terms.get(k_, 0) + sign * coefficient
        return terms

    rows, cols, vals, rhs = [], [], [], []

    def equation(terms, value):
        r = len(rhs)
        for k_, coefficient in terms.items():
            if coefficient:
                rows.append(r)
                cols.append(k_)
                vals.append(coefficient)
        rhs.append(value)

    def area_classes(layer, area):
        return [c for c in classes if (c[0] == area if layer == "halls" else c[1] == area)]

    def window_terms(members, i, name):
        kind_, window = name
        end = days[i]
        if window == "all":
            first, last = datetime.date.min, end
        else:
            n = WINDOWS[window]
            first, last = end - datetime.timedelta(days=n - 1), end
            if kind_ == "previous":
                first, last = end - datetime.timedelta(days=2 * n - 1), end - datetime.timedelta(days=n)
        terms = {}
        for c in members:
            for k_, coefficient in blocks_between(c, i, first, last).items():
                terms[k_] = terms.get(k_, 0) + coefficient
        if kind_ == "change":
            current = window_terms(members, i, ("count", window))
            previous = window_terms(members, i, ("previous", window))
            terms = {k_: current.get(k_, 0) - previous.get(k_, 0) for k_ in set(current) | set(previous)}
        return terms

    for i, snapshot in enumerate(reader.snapshots):
        for layer in ("halls", "zones"):
            body = snapshot["items"][(layer, kind)]
            for feature in body["features"]:
                members = area_classes(layer, feature["id"])
                for name, value in numbers_of(feature["properties"]).items():
                    equation(window_terms(members, i, name), value)
            members = [c for c in classes if (c[0] is not None if layer == "halls" else True)]
            for name, value in total_numbers(body["statistics"]).items():
                equation(window_terms(members, i, name), value)
            for bucket in ("day", "week", "month"):
                for row in snapshot["exports"][(layer, kind, bucket)]["rows"]:
                    first = datetime.date.fromisoformat(row["bucketStart"])
                    last = datetime.date.fromisoformat(row["bucketEnd"])
                    terms = {}
                    for c in area_classes(layer, row["areaId"]):
                        for k_, coefficient in blocks_between(c, i, first, last).items():
                            terms[k_] = terms.get(k_, 0) + coefficient
                    equation(terms, row["verified"])

    # The rule, as anyone reading the source knows it.
    observed = {}
    for i, snapshot in enumerate(reader.snapshots):
        halls = {f["id"]: f["properties"]["verified_all"] for f in snapshot["items"][("halls", kind)]["features"]}
        zones = {f["id"]: f["properties"]["verified_all"] for f in snapshot["items"][("zones", kind)]["features"]}
        for c in classes:
            if c[0] is not None:
                observed[(c, i)] = halls[c[0]]
            else:
                observed[(c, i)] = zones[c[1]] - sum(halls[h] for h in campus.halls if campus.zone_of[h] == c[1])
    # The carry bound follows from the smallest block ever released: every block is at least the
    # step, so a line left unreleased in a busy interval holds less than that.
    steps = [abs(observed[(c, i)] - observed.get((c, i - 1), 0)) for c in classes for i in range(n_int)]
    carry_bound = min([s for s in steps if s > 0], default=STEP) - 1
    print(f"# smallest released block {carry_bound + 1}: an unreleased line holds at most {carry_bound}", flush=True)
    bounds = [(0, None)] * len(index)
    for (name, c, i), k_ in index.items():
        if name == "c":
            bounds[k_] = (None, None)
    for i in range(n_int):
        changed = [c for c in classes if observed[(c, i)] != observed.get((c, i - 1), 0)]
        for c in classes:
            k_ = index[("c", c, i)]
            if c in changed:
                bounds[k_] = (0, 0)               # a released line starts again from zero
            elif changed:
                bounds[k_] = (-carry_bound, carry_bound)   # a busy interval released every line at its step
    # Side information: how many revocations happened when, and the single verification.
    for i, count in revocation_intervals.items():
        equation({index[("r", c, i)]: 1 for c in classes}, count)
    if single_verification_interval is not None:
        equation({index[("v", c, single_verification_interval)]: 1 for c in classes}, 1)

    A = coo_matrix((vals, (rows, cols)), shape=(len(rhs), len(index))).tocsr()
    b = np.array(rhs, dtype=float)

    truth = np.zeros(len(index))
    for (name, c, i), k_ in index.items():
        if name == "v":
            truth[k_] = campus.truth.get((kind, c, i), 0)
        elif name == "r":
            truth[k_] = campus.revoked.get((kind, c, i), 0)
    for (name, c, i), k_ in index.items():
        if name == "c":
            t = sum(campus.truth.get((kind, c, j), 0) - campus.revoked.get((kind, c, j), 0) for j in range(i + 1))
            truth[k_] = t - observed[(c, i)]
    residual = np.abs(A @ truth - b).max() if len(b) else 0
    in_bounds = all((lo is None or truth[k_] >= lo) and (hi is None or truth[k_] <= hi) for k_, (lo, hi) in enumerate(bounds))
    report(residual < 1e-6 and in_bounds, "the attacker's model holds the truth (the published numbers are what the rule says)",
           f"residual {residual}, within bounds {in_bounds}")

    def extremes(k_):
        objective = np.zeros(len(index))
        out = []
        for sign in (1, -1):
            objective[k_] = sign
            result = linprog(objective, A_eq=A, b_eq=b, bounds=bounds, method="highs")
            if result.status != 0:
                return None
            out.append(sign * result.fun)
        return out[0], out[1]

    return index, extremes, len(rhs)


def run(url, email, password):
    status, session = call(f"{url}/v1/auth/login", "POST", {"email": email, "password": password})
    assert status == 200, session
    token = session["token"]
    status, _ = call(f"{url}/v1/accounts", "POST", {"email": "researcher@attack.example", "role": "researcher",
                                                    "password": "attack-password-1"}, token)
    assert status == 201
    _, researcher = call(f"{url}/v1/auth/login", "POST", {"email": "researcher@attack.example", "password": "attack-password-1"})
    campus = Campus(url, token)
    reader = Reader(url, researcher["token"])
    today = datetime.date.today()
    first_day = today - datetime.timedelta(days=12)
    busy = campus.halls[:3]
    # What the campus plants on each of thirteen days (day index → [(hall, n)]), beside the busy halls.
    # H20, H24 and H25 reach the step and are released: the day that completes a block is the
    # cell an attacker would pin if the rule let them.
    small = {
        2: [("H20", 3), ("H21", 1)],
        3: [("H22", 2), ("H23", 4), ("H26", 3)],
        4: [("H22", 2)],
        5: [("H20", 9)],
        6: [("H24", 10), ("H30", 2)],
        7: [("H24", 2), ("H25", 1)],
        8: [("H25", 1), ("H28", 5)],
        9: [("H25", 1), ("H28", 6)],   # eleven: one short of the step
        11: [("H25", 10)],
        12: [("H27", 11)],       # one short of the step: the single verification below completes it
    }
    protected = [("H20", 2), ("H20", 5), ("H21", 2), ("H22", 3), ("H22", 4), ("H23", 3), ("H24", 6), ("H24", 7), ("H30", 6),
                 ("H25", 7), ("H25", 8), ("H25", 9), ("H25", 11), ("H26", 3), ("H28", 8), ("H28", 9)]
    revocations = {}
    publications = []
    for d in range(13):
        campus.today = first_day + datetime.timedelta(days=d)
        campus.interval = d
        for hall in busy:
            campus.covid(hall, 14)
        for hall, n in small.get(d, []):
            campus.covid(hall, n, tag=hall)
        if d in (1, 5, 9):
            campus.misconduct("H05", 1 + d % 3)
        if d == 10:
            campus.revoke("H26", "H26")
            revocations[d] = 1
        status, made = call(f"{url}/v1/publications", "POST", {"day": campus.today.isoformat()}, token)
        assert status == 201, (status, made)
        publications.append(made)
        reader.read(first_day.isoformat(), today.isoformat())
    # Around one verification: read, one report is verified, a publication, read again.
    campus.interval = 13
    campus.today = today
    before = reader.snapshots[-1]
    campus.covid("H27", 1, tag="H27")
    status, made = call(f"{url}/v1/publications", "POST", {}, token)
    assert status == 201
    publications.append(made)
    after = reader.read(first_day.isoformat(), today.isoformat())
    same = all(before["items"][key]["features"] == after["items"][key]["features"] for key in before["items"])
    report(same, "a publication after a single verification moves no public number", "numbers moved")
    released = {f["id"]: f["properties"]["verified_all"] for f in after["items"][("halls", "covid")]["features"]}
    report(released["H20"] == 12 and released["H24"] == 12 and released["H25"] == 13 and released["H21"] == 0,
           "small halls are published once more than k reports gathered, in one block", f"{released}")

    # Historical views are the frozen publications, read again later.
    for d in (2, 6, 10):
        day = (first_day + datetime.timedelta(days=d)).isoformat()
        again = reader.items("halls", "covid", day)
        report(again["features"] == reader.snapshots[d]["items"][("halls", "covid")]["features"],
               f"the view as of {day} is what was published then")

    # What cannot be asked for.
    for query, field in (("basis=verified", "basis"), ("basis=submitted", "basis")):
        status, body = call(f"{url}/collections/halls/items?{query}")
        report(status == 400 and body.get("error", {}).get("field") == field, f"public ?{query} is refused", f"{status}")
    plain = reader.items("halls", "covid")
    unnamed = call(f"{url}/collections/halls/items?limit=1000")[1]
    report(unnamed["features"] == plain["features"] and unnamed["statistics"]["kind"] == "covid",
           "without kind the public gets COVID cases, never a sum of kinds")

    # The dashboard's own data requests: its legends (TileJSON with quantile, equal or the
    # dashboard's fixed breaks) carry only numbers that are published values (or the client's
    # breaks, or steps between published values), never a count a protected hall holds back.
    for window in ("7d", "14d", "28d", "all"):
        published = {f["properties"][f"verified_{window}"] for f in plain["features"]} | {0}
        low, high = min(published), max(published)
        for method, query, allowed in (("quantile", "", lambda v: v in published),
                                       ("equal", "&method=equal", lambda v: low <= v <= high),
                                       ("fixed", "&method=fixed&breaks=1,5,20", lambda v: v in published or v in (1, 5, 20))):
            status, tilejson = call(f"{url}/tiles/halls.json?metric=verified_{window}{query}")
            numbers = [c[edge] for c in tilejson.get("legend", {}).get("classes", []) for edge in ("min", "max") if edge in c]
            strays = [v for v in numbers if not allowed(v)]
            report(status == 200 and numbers and not strays, f"the {method} legend of verified_{window} shows only published values",
                   f"{status}: {strays or numbers}")
    for path in ("/v1/alerts", "/v1/resources", "/v1/layers", "/v1/publications"):
        status, body = call(url + path)
        text = json.dumps(body)
        report(status == 200 and "verified_" not in text and "carry" not in text, f"{path} carries no counts", text[:120])

    # Misconduct reports are public records: the search lists exactly what the counts count.
    status, found = call(f"{url}/v1/misconduct?layer=halls&area=H05&limit=100")
    counted = next(f for f in after["items"][("halls", "misconduct")]["features"] if f["id"] == "H05")["properties"]["verified_all"]
    report(status == 200 and len(found["reports"]) == counted == 6, "the misconduct search and the misconduct counts agree",
           f"search {len(found.get('reports', []))}, count {counted}")

    index, extremes, equations = solve(campus, reader, publications, revocations, 13)
    print(f"# {equations} equations over {len(index)} unknowns from {len(reader.snapshots)} publications", flush=True)
    for hall, d in protected:
        cls = (hall, campus.zone_of[hall])
        value = campus.truth.get(("covid", cls, d), 0)
        span = extremes(index[("v", cls, d)])
        if span is None:
            report(False, f"{hall} day {d} ({value})", "the programme has no solution")
            continue
        low, high = span
        report(high - low >= K - 1e-6 and low <= value <= high, f"{hall} day {d} ({value}): feasible {low:g}..{high:g}, at least {K} wide",
               f"only {low:g}..{high:g}")
    cls = ("H26", campus.zone_of["H26"])
    span = extremes(index[("r", cls, 10)])
    report(span is not None and span[1] - span[0] >= 1 - 1e-6, f"the revocation in H26: {span} — not pinned to H26", f"{span}")
    cls = ("H27", campus.zone_of["H27"])
    span = extremes(index[("v", cls, 13)])
    report(span is not None and span[0] <= 0 + 1e-6 and span[1] >= 1 - 1e-6,
           f"the single verification in H27: {span} — not pinned to H27", f"{span}")


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "run":
        try:
            run(*sys.argv[2:5])
        except AssertionError as error:
            report(False, "the scenario ran", repr(error))
        print(f"attack: {passed} passed, {failed} failed", flush=True)
        sys.exit(0 if failed == 0 and passed > 0 else 1)
    import scenarios
    if command == "replay":
        scenarios.replay(sys.modules[__name__], sys.argv[2])
        print(f"attack: {passed} passed, {failed} failed", flush=True)
        sys.exit(0 if failed == 0 and passed > 0 else 1)
    try:
        known = scenarios.scenario(command) is not None
    except KeyError:
        known = False
    if known:
        scenarios.run(sys.modules[__name__], command, *sys.argv[2:5])
        print(f"attack: {passed} passed, {failed} failed", flush=True)
        sys.exit(0 if failed == 0 and passed > 0 else 1)
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
