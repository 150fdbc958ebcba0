import DomainKernel
import Testing
import Aggregation

/// The publication ledger: what is released when, and that released blocks and carries always
/// add up to the verified reports.
@Suite("publication planner")
struct PublicationPlannerTests {
    let planner = PublicationPlanner(policy: .default)
    /// A Monday.
    let d1: Day = "2026-11-02"

    private func key(_ hall: String, _ kind: ReportKind = .covid) -> LedgerKey {
        LedgerKey(kind: kind, areaClass: AreaClass([AreaRef(layer: "halls", areaID: hall), AreaRef(layer: "zones", areaID: "Z1")]))
    }

    private func hall(_ id: String) -> [String: String] { ["halls": id, "zones": "Z1"] }

    private func campus(halls: Int = 12) -> LedgerCampus {
        LedgerCampus(layers: ["halls": Set((1...halls).map { $0 < 10 ? "H0\($0)" : "H\($0)" }), "zones": ["Z1"]])
    }

    @Test("an area class keeps its placements and names its area per layer")
    func areaClass() {
        let c = AreaClass([AreaRef(layer: "zones", areaID: "Z 1"), AreaRef(layer: "halls", areaID: "H=05")])
        #expect(c.areas == [AreaRef(layer: "halls", areaID: "H=05"), AreaRef(layer: "zones", areaID: "Z 1")])
        #expect(c.area(in: "zones") == "Z 1")
        #expect(c.area(in: "beats") == nil)
        #expect(AreaClass(key: c.key) == c)
    }

    @Test("a first publication replays history: a busy hall is released on each day, a small one when twelve have gathered")
    func replay() {
        var rows: [VerifiedClassCount] = []
        for day in 0..<5 {
            rows.append(VerifiedClassCount(key: key("H01"), verifiedOn: d1.adding(days: day), count: 20))
            rows.append(VerifiedClassCount(key: key("H02"), verifiedOn: d1.adding(days: day), count: 3))
        }
        let plan = planner.plan(ledger: PublicationLedger(), verified: rows, day: d1.adding(days: 4))
        let busy = plan.blocks.filter { $0.key == key("H01") }
        #expect(busy.map(\.day) == (0..<5).map { d1.adding(days: $0) })
        #expect(busy.allSatisfy { $0.value == 20 })
        let small = plan.blocks.filter { $0.key == key("H02") }
        #expect(small.map(\.day) == [d1.adding(days: 3)])
        #expect(small.map(\.value) == [12])
        let lines = Dictionary(uniqueKeysWithValues: plan.ledger.lines.values.map { ($0.key, $0) })
        #expect(lines[key("H02")].map { ($0.accounted, $0.carry) } ?? (0, 0) == (15, 3))
        #expect(lines[key("H01")].map { ($0.accounted, $0.carry) } ?? (0, 0) == (100, 0))
        #expect(plan.ledger.lastDay == d1.adding(days: 4))
        // Every report is assigned to its class's line.
        #expect(Set(plan.assignments.map(\.to)) == Set(plan.ledger.lines.keys))
        #expect(plan.assignments.allSatisfy { $0.from == nil })
    }

    @Test("a first publication on a weekly schedule replays history week by week: a hall too quiet for any day is released at the first Monday after it gathered twelve")
    func weeklyReplay() {
        let mondays = PublicationDays(weekdays: [1])!
        var rows: [VerifiedClassCount] = []
        // Two reports a day in H01 and one in H02, over three weeks: no day sees twelve changes.
        for day in 0..<21 {
            rows.append(VerifiedClassCount(key: key("H01"), verifiedOn: d1.adding(days: day), count: 2))
            rows.append(VerifiedClassCount(key: key("H02"), verifiedOn: d1.adding(days: day), count: 1))
        }
        let end = d1.adding(days: 21)
        let weekly = planner.plan(ledger: PublicationLedger(), verified: rows, day: end, days: mondays)
        #expect(Set(weekly.blocks.map(\.day)).isSubset(of: [d1, d1.adding(days: 7), d1.adding(days: 14), d1.adding(days: 21)]))
        // The first Monday's interval is that day alone (three changes): H01's two wait for the week after.
        #expect(weekly.blocks.filter { $0.key == key("H01") }.map(\.value) == [16, 14, 12])
        #expect(weekly.blocks.filter { $0.key == key("H01") }.map(\.day) == [d1.adding(days: 7), d1.adding(days: 14), d1.adding(days: 21)])
        #expect(weekly.blocks.filter { $0.key == key("H02") }.map(\.value) == [15])
        #expect(weekly.blocks.filter { $0.key == key("H02") }.map(\.day) == [d1.adding(days: 14)])
        // The same history replayed day by day releases nothing: no day saw a step of changes.
        #expect(planner.plan(ledger: PublicationLedger(), verified: rows, day: end).blocks.isEmpty)
        #expect(mondays.intervalEnd(for: d1.adding(days: 1)) == d1.adding(days: 7))
        #expect(mondays.intervalEnd(for: d1) == d1)
        #expect(PublicationDays(weekdays: []) == nil && PublicationDays(weekdays: [8]) == nil)
    }

    @Test("the gate counts the publication's interval: a week of quiet days is released by a weekly publication, and by no daily one")
    func intervalGate() {
        var daily = campus(), weekly = campus()
        for day in 0..<7 {
            daily.verify(2, hall("H01"), on: d1.adding(days: day))
            daily.verify(1, hall("H02"), on: d1.adding(days: day))
            weekly.verify(2, hall("H01"), on: d1.adding(days: day))
            weekly.verify(1, hall("H02"), on: d1.adding(days: day))
            // Daily publications from the first day on: each interval holds three changes.
            #expect(daily.publish(d1.adding(days: day)).blocks.isEmpty)
            if day == 0 { weekly.publish(d1) }
        }
        // The week after the first publication: 18 changes, H01's carry 2 + 12 reached the step.
        let week = weekly.publish(d1.adding(days: 6))
        #expect(week.blocks.map(\.value) == [14])
        #expect(week.blocks.allSatisfy { $0.day == d1.adding(days: 6) })
        #expect(weekly.released("halls", "H01") == 14)
        #expect(weekly.released("halls", "H02") == 0)
    }

    @Test("a publication after one verification moves nothing, even where it completes a line's step")
    func oneVerificationAfterARelease() {
        var c = campus()
        c.verify(30, hall("H01"), on: d1)
        c.verify(11, hall("H02"), on: d1)
        #expect(c.publish(d1).blocks.map(\.value) == [30])
        c.verify(1, hall("H02"), on: d1.adding(days: 1))
        #expect(c.publish(d1.adding(days: 1)).blocks.isEmpty)
        // Once an interval sees a step of changes of the kind, the waiting line goes out with them.
        var quiet = c
        quiet.verify(11, hall("H01"), on: d1.adding(days: 2))
        #expect(quiet.publish(d1.adding(days: 2)).blocks.isEmpty)
        c.verify(12, hall("H01"), on: d1.adding(days: 2))
        let later = c.publish(d1.adding(days: 2))
        #expect(later.blocks.map(\.value) == [12, 12])
        #expect(c.released("halls", "H02") == 12 && c.released("halls", "H01") == 42)
    }

    @Test("public records (misconduct) are released on their day, one by one")
    func publicRecords() {
        let rows = [VerifiedClassCount(key: key("H01", .misconduct), verifiedOn: d1, count: 1),
                    VerifiedClassCount(key: key("H02", .misconduct), verifiedOn: d1.adding(days: 1), count: 2)]
        let plan = planner.plan(ledger: PublicationLedger(), verified: rows, day: d1.adding(days: 1))
        #expect(plan.blocks.map(\.value) == [1, 2])
        #expect(plan.blocks.map(\.day) == [d1, d1.adding(days: 1)])
        #expect(plan.ledger.lines.values.allSatisfy { $0.carry == 0 })
    }

    @Test("revocations count on the publication day; a large withdrawal is released as a negative block")
    func revocations() {
        var c = campus()
        c.verify(40, hall("H01"), on: d1)
        c.verify(14, hall("H02"), on: d1)
        c.publish(d1)
        c.revoke(13, hall("H01"))
        c.revoke(2, hall("H02"))
        let plan = c.publish(d1.adding(days: 3))
        #expect(plan.blocks.map(\.value) == [-13])
        #expect(plan.blocks.allSatisfy { $0.day == d1.adding(days: 3) })
        let h02 = plan.ledger.lines.values.first { $0.key == key("H02") }
        #expect(h02?.accounted == 12 && h02?.carry == -2)
    }

    @Test("an edit that moves a report takes it from its line's carry to its new class's, on the publication day; the areas did not change")
    func editMovesThroughCarries() {
        var c = campus()
        c.verify(24, hall("H01"), on: d1)
        c.verify(12, hall("H02"), on: d1)
        c.publish(d1)
        for i in 0..<13 { c.edit(i, to: hall("H03")) }
        let plan = c.publish(d1.adding(days: 1))
        // Thirteen changes: H01 gives back 13 and H03 takes them, each a block of its own.
        #expect(plan.blocks.map(\.value).sorted() == [-13, 13])
        #expect(plan.movedLines == 0)
        #expect(c.released("halls", "H01") == 11 && c.released("halls", "H03") == 13)
    }

    @Test("a second publication on the same day with nothing new releases nothing and keeps the ledger")
    func idle() {
        var c = campus()
        c.verify(30, hall("H01"), on: d1)
        c.verify(4, hall("H02"), on: d1)
        c.publish(d1)
        let before = c.ledger
        let again = c.publish(d1)
        #expect(again.blocks.isEmpty && again.assignments.isEmpty)
        #expect(c.ledger == before)
    }

    // MARK: Changes of the areas

    /// A campus with a history: H01 busy, H05 with a carry of 5 after a block, H07 with 8
    /// unreleased, H10 with 2; published daily over five days.
    private func history() -> LedgerCampus {
        var c = campus()
        for day in 0..<5 {
            c.verify(14, hall("H01"), on: d1.adding(days: day))
            if day == 0 { c.verify(12, hall("H05"), on: d1) }
            if day == 3 { c.verify(5, hall("H05"), on: d1.adding(days: day)) }
            if day == 2 { c.verify(8, hall("H07"), on: d1.adding(days: day)) }
            if day == 4 { c.verify(2, hall("H10"), on: d1.adding(days: day)) }
            c.publish(d1.adding(days: day))
        }
        return c
    }

    @Test("a new layer around the campus moves no number of the other layers, and shows their sum")
    func newLayer() {
        var c = history()
        let halls = c.releasedLayer("halls"), zones = c.releasedLayer("zones")
        #expect(halls["H05"] == 12 && halls["H07"] == 0 && halls["H10"] == 0)
        c.newVersion(of: "campus", areas: ["C"]) { _ in "C" }
        c.verify(14, ["halls": "H01", "zones": "Z1", "campus": "C"], on: d1.adding(days: 5))
        let plan = c.publish(d1.adding(days: 5))
        // Only the day's busy hall moves; every carry stays hidden where it was.
        #expect(plan.blocks.map(\.value) == [14])
        #expect(plan.movedLines == 4)
        var expected = halls
        expected["H01"]! += 14
        #expect(c.releasedLayer("halls") == expected)
        #expect(c.releasedLayer("zones")["Z1"] == zones["Z1"]! + 14)
        #expect(c.released("campus", "C") == expected.values.reduce(0, +))
        // The carries went with their lines: released plus carry is each line's reports.
        for line in c.ledger.lines.values { #expect(line.carry == (c.accountedPerLine()[line.id] ?? 0) - c.blocks.filter { $0.line == line.id }.reduce(0) { $0 + $1.value }) }
        #expect(c.ledger.lines.values.map(\.carry).sorted() == [0, 2, 5, 8])
    }

    @Test("a renamed area keeps its history and carry under its new id")
    func rename() {
        var c = history()
        let halls = c.releasedLayer("halls")
        var areas = c.layers["halls"]!.areas
        areas.remove("H05")
        areas.insert("H05b")
        c.newVersion(of: "halls", areas: areas) { $0["halls"] == "H05" ? "H05b" : $0["halls"] }
        let plan = c.publish(d1.adding(days: 5))
        #expect(plan.blocks.isEmpty)
        #expect(plan.movedLines == 1)
        #expect(c.released("halls", "H05b") == halls["H05"])
        #expect(c.released("halls", "H05") == 0)
        // Seven more in H05b complete the old carry of five: the line goes on where it was.
        c.verify(7, hall("H05b"), on: d1.adding(days: 6))
        c.verify(14, hall("H01"), on: d1.adding(days: 6))
        #expect(c.publish(d1.adding(days: 6)).blocks.map(\.value).sorted() == [12, 14])
        #expect(c.released("halls", "H05b") == 24)
    }

    @Test("merged areas keep their lines apart: no two carries are released as one sum")
    func merge() {
        var c = history()
        var areas = c.layers["halls"]!.areas
        areas.subtract(["H05", "H07"])
        areas.insert("H57")
        c.newVersion(of: "halls", areas: areas) { ["H05", "H07"].contains($0["halls"]) ? "H57" : $0["halls"] }
        c.verify(14, hall("H01"), on: d1.adding(days: 5))
        let plan = c.publish(d1.adding(days: 5))
        // 5 + 8 would reach the step as one line; as two they stay hidden.
        #expect(plan.blocks.map(\.value) == [14])
        #expect(c.released("halls", "H57") == 12)
        #expect(c.ledger.lines.values.filter { $0.key == key("H57") }.map(\.carry).sorted() == [5, 8])
        // New reports join the older line.
        c.verify(7, hall("H57"), on: d1.adding(days: 6))
        c.verify(14, hall("H01"), on: d1.adding(days: 6))
        #expect(c.publish(d1.adding(days: 6)).blocks.map(\.value).sorted() == [12, 14])
    }

    @Test("a moved edge: a few reports stay counted in their old hall for good, a step of a line that released more moves as a pair that sums to zero")
    func movedEdge() {
        var c = history()
        // Three of H05's seventeen reports, every one of H07's eight, and twelve of H01's seventy
        // now lie in the neighbouring hall.
        let moved = Set(c.reports.indices.filter { c.reports[$0].areas["halls"] == "H05" }.prefix(3))
            .union(c.reports.indices.filter { c.reports[$0].areas["halls"] == "H07" })
        let busy = Set(c.reports.indices.filter { c.reports[$0].areas["halls"] == "H01" }.prefix(12))
        let before = c.releasedLayer("halls")
        c.layers["halls"]!.version += 1
        for i in moved { c.reports[i].areas["halls"] = "H06" }
        for i in busy { c.reports[i].areas["halls"] = "H02" }
        c.verify(14, hall("H01"), on: d1.adding(days: 5))
        let carries = c.ledger.lines.mapValues(\.carry)
        let plan = c.publish(d1.adding(days: 5))
        // H05 keeps its line (three are fewer than a step: settled); H07 holds none of its
        // line's reports any more, so its line (nothing released, a carry of eight) goes where
        // they lie; H01's twelve move as a pair (its line released seventy).
        #expect(plan.blocks.map(\.value).sorted() == [-12, 12, 14])
        #expect(plan.movedLines == 1)
        var expected = before
        expected["H01"]! += 14 - 12
        expected["H02"]! += 12
        #expect(c.releasedLayer("halls") == expected)
        #expect(c.ledger.lines.filter { carries[$0.key] != nil }.mapValues(\.carry) == carries, "no carry moved")
        // Reports verified in the strip from now on count in H06, with the eight it took over.
        c.verify(12, hall("H06"), on: d1.adding(days: 6))
        c.verify(2, hall("H01"), on: d1.adding(days: 6))
        _ = c.publish(d1.adding(days: 6))
        #expect(c.released("halls", "H06") == 20)
        // A later version moves nine more of H05's: fewer than a step, settled; the three are
        // not decided again, so the twelve together never move.
        let more = c.reports.indices.filter { c.reports[$0].areas["halls"] == "H05" }.prefix(9)
        c.layers["halls"]!.version += 1
        for i in more { c.reports[i].areas["halls"] = "H06" }
        #expect(c.publish(d1.adding(days: 7)).blocks.isEmpty)
        #expect(c.released("halls", "H05") == 12)
    }

    @Test("a new layer that splits a line's reports gives the line the smallest area id holding any of them, never the part holding more (which would tell about the carry)")
    func split() {
        for westShare in [3, 10, 14] {
            var c = history()
            // A grid whose west cell holds `westShare` of H05's 17 reports and the east cell the rest.
            let h05 = c.reports.indices.filter { c.reports[$0].areas["halls"] == "H05" }
            let west = Set(h05.prefix(westShare))
            c.layers["grid"] = (1, ["W", "E"])
            for i in c.reports.indices { c.reports[i].areas["grid"] = west.contains(i) || c.reports[i].areas["halls"] != "H05" ? "W" : "E" }
            let plan = c.publish(d1.adding(days: 5))
            // Whichever part holds more, H05's line counts in E; its west part (fewer than a
            // step, or a step but more than its twelve released) stays with it.
            #expect(plan.blocks.isEmpty, "west \(westShare)")
            #expect(c.released("grid", "E") == 12, "west \(westShare)")
            #expect(c.released("grid", "W") == c.releasedLayer("halls").values.reduce(0, +) - 12, "west \(westShare)")
        }
    }

    @Test("a strip moves only when its line keeps a step of what it released; else it stays, for good, so no number falls below zero or is left exact and small; a hall left with none of its line's reports gives the line to where they lie")
    func strips() {
        // H05: twelve released, a carry of five. Twelve, then fourteen, of its seventeen move to H06.
        for n in [12, 14] {
            var c = history()
            let h05 = c.reports.indices.filter { c.reports[$0].areas["halls"] == "H05" }
            c.layers["halls"]!.version += 1
            for i in h05.prefix(n) { c.reports[i].areas["halls"] = "H06" }
            #expect(c.publish(d1.adding(days: 5)).blocks.isEmpty, "\(n)")
            #expect(c.released("halls", "H05") == 12 && c.released("halls", "H06") == 0, "\(n)")
            // The line releases more later; the strip is not measured against it again.
            c.verify(12, hall("H05"), on: d1.adding(days: 6))
            #expect(c.publish(d1.adding(days: 6)).blocks.map(\.value) == [17], "\(n)")
            c.newVersion(of: "zones", areas: ["Z1"]) { $0["zones"] }
            c.verify(12, hall("H01"), on: d1.adding(days: 7))
            #expect(c.publish(d1.adding(days: 7)).blocks.map(\.value) == [12], "\(n)")
            #expect(c.released("halls", "H05") == 29 && c.released("halls", "H06") == 0, "\(n)")
        }
        // A line that released 24 with no carry: a strip of 12 moves (12 of the released stay),
        // one of 13 would leave fewer than a step of it, exactly known, and settles.
        for (n, moves) in [(12, true), (13, false)] {
            var c = campus()
            c.verify(24, hall("H05"), on: d1)
            c.publish(d1)
            let h05 = c.reports.indices.filter { c.reports[$0].areas["halls"] == "H05" }
            c.layers["halls"]!.version += 1
            for i in h05.prefix(n) { c.reports[i].areas["halls"] = "H06" }
            let plan = c.publish(d1.adding(days: 1))
            #expect(plan.blocks.map(\.value).sorted() == (moves ? [-n, n] : []), "\(n)")
            #expect(c.released("halls", "H05") == (moves ? 24 - n : 24), "\(n)")
        }
        // All seventeen in H06 (H05 a sliver without reports): the line goes with them.
        var c = history()
        let h05 = c.reports.indices.filter { c.reports[$0].areas["halls"] == "H05" }
        c.layers["halls"]!.version += 1
        for i in h05 { c.reports[i].areas["halls"] = "H06" }
        let plan = c.publish(d1.adding(days: 5))
        #expect(plan.blocks.isEmpty && plan.movedLines == 1)
        #expect(c.released("halls", "H05") == 0 && c.released("halls", "H06") == 12)
        #expect(c.ledger.lines.values.filter { $0.key == key("H06") }.map(\.carry) == [5])
    }

    @Test("a withdrawn layer drops out of every class; its lines keep their carries")
    func withdrawn() {
        var c = history()
        let halls = c.releasedLayer("halls")
        c.withdraw("zones")
        #expect(c.publish(d1.adding(days: 5)).blocks.isEmpty)
        #expect(c.releasedLayer("halls") == halls)
        #expect(c.ledger.lines.values.allSatisfy { $0.key.areaClass.area(in: "zones") == nil })
    }

    @Test("over random histories with revocations and changes of the areas, released blocks plus carries always equal each line's reports, every block is a step or half of a pair, and no area's number moves without a block")
    func invariant() {
        var rng = SplitMix64(seed: 7)
        var c = campus()
        var hallIDs = Array(c.layers["halls"]!.areas).sorted()
        for day in 0..<90 {
            let today = d1.adding(days: day)
            for hall in hallIDs {
                let add = Int(rng.next() % 4)
                if add > 0 { c.verify(add, ["halls": hall, "zones": "Z1"], on: today) }
                if rng.next() % 9 == 0 { c.revoke(1, ["halls": hall, "zones": "Z1"]) }
                if rng.next() % 13 == 0 { c.verify(1, ["halls": hall, "zones": "Z1"], on: today, kind: .misconduct) }
            }
            // Now and then the areas change: a rename, a merge, or a moved edge.
            switch rng.next() % 17 {
            case 0:
                let old = hallIDs.remove(at: Int(rng.next() % UInt64(hallIDs.count)))
                let new = "R\(day)"
                hallIDs.append(new)
                c.newVersion(of: "halls", areas: Set(hallIDs)) { $0["halls"] == old ? new : $0["halls"] }
            case 1 where hallIDs.count > 4:
                let a = hallIDs.removeLast(), b = hallIDs.removeLast(), merged = "M\(day)"
                hallIDs.append(merged)
                c.newVersion(of: "halls", areas: Set(hallIDs)) { [a, b].contains($0["halls"]) ? merged : $0["halls"] }
            case 2:
                let from = hallIDs[Int(rng.next() % UInt64(hallIDs.count))], to = hallIDs[Int(rng.next() % UInt64(hallIDs.count))]
                var n = 0
                c.newVersion(of: "halls", areas: Set(hallIDs)) { areas in
                    guard areas["halls"] == from, n < 16 else { return areas["halls"] }
                    n += 1
                    return to
                }
            default: break
            }
            guard day % 3 == 2 else { continue }
            let before = c
            let plan = c.publish(today)
            for block in plan.blocks {
                let step = planner.policy.releaseStep(for: block.key.kind)
                let pairs = plan.blocks.filter { $0.day == today && $0.value == -block.value && $0.line != block.line }
                #expect(abs(block.value) >= step || !pairs.isEmpty)
            }
            for kind in ReportKind.allCases {
                let accounted = c.accountedPerLine(kind: kind)
                for line in c.ledger.lines.values where line.key.kind == kind {
                    let released = c.blocks.filter { $0.line == line.id }.reduce(0) { $0 + $1.value }
                    #expect(released + line.carry == (accounted[line.id] ?? 0))
                    #expect(line.accounted == (accounted[line.id] ?? 0))
                }
                let verified = c.reports.filter { $0.verified && $0.kind == kind && $0.areaClass != nil }.count
                #expect(accounted.values.reduce(0, +) == verified)
            }
            // A publication without blocks moves no area's number, whatever changed in the areas.
            if plan.blocks.isEmpty {
                for hall in Set(before.layers["halls"]!.areas).intersection(c.layers["halls"]!.areas) where before.layers["halls"]!.version == c.layers["halls"]!.version {
                    #expect(before.released("halls", hall) == c.released("halls", hall))
                }
                #expect(before.released("zones", "Z1") == c.released("zones", "Z1"))
            }
        }
    }

    @Test("published statistics count each block for its class's area in the layer, on its day")
    func statistics() {
        let blocks = [PublishedBlock(key: key("H01"), day: d1, value: 20), PublishedBlock(key: key("H02"), day: d1.adding(days: 8), value: 12),
                      PublishedBlock(key: key("H01", .misconduct), day: d1, value: 2)]
        let halls = PublishedStatistics.release(layer: "halls", kind: .covid, end: d1.adding(days: 8), areaIDs: ["H01", "H02", "H03"], blocks: blocks,
                                                denominators: [:], threshold: 11, audience: .public)
        #expect(halls.threshold == 11)
        #expect(halls.areas["H01"]?.counts[.d7] == .value(0))
        #expect(halls.areas["H01"]?.counts[.d14] == .value(20))
        #expect(halls.areas["H02"]?.counts[.d7] == .value(12))
        #expect(halls.areas["H03"]?.counts[.all] == .value(0))
        #expect(halls.total.counts[.all] == .value(32))
        #expect(halls.areas.values.allSatisfy { $0.suppressedFields.isEmpty })
        let zones = PublishedStatistics.release(layer: "zones", kind: .covid, end: d1.adding(days: 8), areaIDs: ["Z1"], blocks: blocks,
                                                denominators: [:], threshold: 11, audience: .public)
        #expect(zones.areas["Z1"]?.counts[.all] == .value(32))
    }

    @Test("the ledger's changes are the new and changed lines, nothing else")
    func ledgerChanges() {
        let a = LedgerLine(id: 1, key: key("H01"), accounted: 5, carry: 5)
        let b = LedgerLine(id: 2, key: key("H02"), accounted: 12, carry: 0)
        let before = PublicationLedger(lines: [a, b])
        var a2 = a
        a2.accounted = 6
        a2.carry = 6
        var b2 = b
        b2.key = key("H03")
        let c = LedgerLine(id: 3, key: key("H01", .misconduct), accounted: 1, carry: 0)
        let after = PublicationLedger(lines: [a2, b2, c])
        #expect(after.changes(since: before).map(\.id) == [1, 2, 3])
        #expect(PublicationLedger(lines: [a2, b, c]).changes(since: before).map(\.id) == [1, 3])
        #expect(after.changes(since: after).isEmpty)
        #expect(after.nextLineID == 4 && after.mainLines()[key("H01")] == 1)
    }
}
