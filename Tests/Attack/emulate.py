"""The sequences of sequences.py against an emulation of the rule with identities, without a server.

  python3 emulate.py SEED... | edge-rollback | merge-undo | …     (the venv of run.sh: numpy, scipy, shapely)

For working on the attacker's programme and the generator: the campus's plan is run through
`scenarios.run_rule` (the rule as the programme states it), the public outputs it gives are made
up from the blocks (every layer's areas and total in every window, export rows by day, week and
month, and a read between each change and the next publication), and the attacker's programme
is solved over them as over a server's. It tests the programme against itself — that it holds the
truth and how wide it leaves each planted count under the rule — not the service: only run.sh
says whether a build follows the rule. Last line: "emulate: N passed, M failed".
"""

import collections
import datetime
import sys

import attack
import scenarios as S
import sequences as Q


class Emulated:
    """What Session holds for the programme, made from a plan instead of a server."""

    def __init__(self, plan):
        self.name = plan.name
        self.today = datetime.date.today()
        self.first_day = self.today - datetime.timedelta(days=plan.n - 1)
        self.days = [self.first_day + datetime.timedelta(days=d) for d in range(plan.n)]
        self.truth = collections.Counter()
        self.revoked, self.revocations, self.side = [], collections.Counter(), {}
        for d in range(plan.n):
            for point, n in plan.reports.get(d, []):
                self.truth[(d, tuple(point))] += n
            for interval, point in plan.revoke.get(d, []):
                self.revoked.append((d, interval, tuple(point)))
                self.revocations[d] += 1
            if d in plan.side:
                self.side[d] = sum(n for point, n in plan.reports.get(d, []))
        self.reads, self.extra_reads = [], []

    def check(self, ok, name, why=""):
        attack.report(ok, f"{self.name}: {name}", why)

    def shown(self, read, layer, prop="verified_all", kind="covid"):
        return {f["id"]: f["properties"][prop] for f in read["items"][(layer, kind)]["features"]}


def buckets(first, last, bucket):
    out, day = [], first
    while day <= last:
        if bucket == "day":
            end = day
        elif bucket == "week":
            end = day + datetime.timedelta(days=6 - day.weekday())
        else:
            end = (day.replace(day=28) + datetime.timedelta(days=4)).replace(day=1) - datetime.timedelta(days=1)
        out.append((day, min(end, last)))
        day = end + datetime.timedelta(days=1)
    return out


def emulate(plan):
    s = Emulated(plan)
    truth_geo = S.Geography(plan.maps.maps, plan.n)
    lines = S.Lines(truth_geo)
    values = S.run_rule(truth_geo, lines, s)
    block = {(line, i): values.get(("b", line, i), 0) for line in lines.lines for i in range(plan.n)}

    def read(i, at):
        """The read after publication `i` of the map in force at publication `at` (i, or i + 1
        between a change and the next publication)."""
        t = truth_geo.state_at[at]
        versions = truth_geo.versions[t]
        layers = dict(plan.maps.maps[[k for k, (start, _) in enumerate(plan.maps.maps) if start <= at][-1]][1])
        snapshot = {"items": {}, "exports": {}, "layers": sorted(versions), "versions": dict(versions)}
        end = s.days[i]

        def total(members, first, last):
            return sum(block[(l, j)] for l in members for j in range(lines.start[l], i + 1) if first <= s.days[j] <= last)

        def numbers(members):
            counts, previous, change = {}, {}, {}
            for name, w in (("7d", 7), ("14d", 14), ("28d", 28)):
                counts[name] = total(members, end - datetime.timedelta(days=w - 1), end)
                previous[name] = total(members, end - datetime.timedelta(days=2 * w - 1), end - datetime.timedelta(days=w))
                change[name] = counts[name] - previous[name]
            counts["all"] = total(members, datetime.date.min, end)
            return counts, previous, change

        alive = [l for l in lines.lines if lines.exists(l, i)]
        for layer in sorted(versions):
            areas = layers[layer][1]
            # A layer's total holds the lines whose class has an area the layer shows (between a
            # change and the next publication, a line in an area gone from the new map counts in none).
            features, everyone = [], [l for l in alive if S.area_in(lines.cls[l][i], layer) in areas]
            rows = {b: [] for b in ("day", "week", "month")}
            for a in sorted(areas):
                members = [l for l in alive if (layer, a) in lines.cls[l][i]]
                counts, previous, change = numbers(members)
                props = {f"verified_{w}": v for w, v in counts.items()}
                props.update({f"previous_{w}": v for w, v in previous.items()})
                props.update({f"change_{w}": v for w, v in change.items()})
                features.append({"type": "Feature", "id": a, "geometry": areas[a], "properties": props})
                for b in rows:
                    for first, last in buckets(s.first_day, s.today, b):
                        rows[b].append({"areaId": a, "bucketStart": first.isoformat(), "bucketEnd": last.isoformat(),
                                        "verified": total(members, first, last)})
            counts, previous, change = numbers(everyone)
            snapshot["items"][(layer, "covid")] = {"features": features,
                                                   "statistics": {"total": {"counts": counts, "previous": previous, "change": change}}}
            for b in rows:
                snapshot["exports"][(layer, "covid", b)] = {"rows": rows[b]}
        return snapshot

    for i in range(plan.n):
        if i and truth_geo.state_at[i] != truth_geo.state_at[i - 1]:
            s.extra_reads.append((i - 1, read(i - 1, i)))
        s.reads.append(read(i, i))
    for note in plan.notes:
        print(f"# {s.name}: {note}", flush=True)
    geo = S.Geography.from_reads(s)
    S.no_negative(s)
    for check in plan.checks:
        check(s, geo)
    Q.solve_and_check_plan(s, geo, plan)


def main():
    S.A = attack
    for arg in sys.argv[1:]:
        plan = Q.FIXED[arg]() if arg in Q.FIXED else Q.generate(int(arg))
        emulate(plan)
    print(f"emulate: {attack.passed} passed, {attack.failed} failed", flush=True)
    sys.exit(0 if attack.failed == 0 and attack.passed > 0 else 1)


if __name__ == "__main__":
    main()
