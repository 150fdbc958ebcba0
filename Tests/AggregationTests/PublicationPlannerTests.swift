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

    /// Hall Hnn holds cells nn00 ..< nn00 + 100; zone Z1 holds every hall.
    private static func cells(_ id: String) -> Range<Int> {
        let n = Int(id.dropFirst())!
        return (n * 100)..<(n * 100 + 100)
    }

    /// The cells of a hall, in order: reports verified in it take them one by one.
    private func hall(_ id: String) -> [Int] { Array(Self.cells(id)) }

    private static func hallMap(_ halls: Int = 12) -> LedgerCampus.Map {
        var map: LedgerCampus.Map = [:]
        for n in 1...halls { map[n < 10 ? "H0\(n)" : "H\(n)"] = Set(cells(n < 10 ? "H0\(n)" : "H\(n)")) }
        return map
    }

    private func campus(halls: Int = 12) -> LedgerCampus {
        LedgerCampus(layers: ["halls": Self.hallMap(halls), "zones": ["Z1": Set(100..<(halls * 100 + 100))]])
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
        for i in 0..<13 { c.edit(i, to: 300 + i) }
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

    /// Every line's class is what its origin and the maps alone give, and released plus carry
    /// is each line's reports.
    private func expectLinesFollowTheMaps(_ c: LedgerCampus, _ note: String = "") {
        for kind in ReportKind.allCases {
            let accounted = c.accountedPerLine(kind: kind)
            for line in c.ledger.lines.values where line.key.kind == kind {
                #expect(line.key.areaClass == c.classFromMaps(line), "\(note) line \(line.id)")
                #expect(c.releasedBy(line.id) + line.carry == (accounted[line.id] ?? 0), "\(note) line \(line.id)")
            }
        }
    }

    @Test("a new layer around the campus moves no number of the other layers, and shows their sum")
    func newLayer() {
        var c = history()
        let halls = c.releasedLayer("halls"), zones = c.releasedLayer("zones")
        #expect(halls["H05"] == 12 && halls["H07"] == 0 && halls["H10"] == 0)
        c.newVersion(of: "campus", ["C": Set(0..<10_000)])
        c.verify(14, hall("H01"), on: d1.adding(days: 5))
        let plan = c.publish(d1.adding(days: 5))
        // Only the day's busy hall moves; every carry stays hidden where it was.
        #expect(plan.blocks.map(\.value) == [14])
        #expect(plan.movedLines == 4)
        var expected = halls
        expected["H01"]! += 14
        #expect(c.releasedLayer("halls") == expected)
        #expect(c.releasedLayer("zones")["Z1"] == zones["Z1"]! + 14)
        #expect(c.released("campus", "C") == expected.values.reduce(0, +))
        // H01's fourteen open a line of the new class (the class's ground now names the campus
        // area); every earlier line keeps its carry where it was.
        #expect(c.ledger.lines.values.map(\.carry).sorted() == [0, 0, 2, 5, 8])
        expectLinesFollowTheMaps(c)
    }

    @Test("a renamed area with its shape keeps its history, carry and new reports under its new id")
    func rename() {
        var c = history()
        let halls = c.releasedLayer("halls")
        var map = c.map("halls")
        map["H05b"] = map.removeValue(forKey: "H05")
        c.newVersion(of: "halls", map)
        let plan = c.publish(d1.adding(days: 5))
        #expect(plan.blocks.isEmpty)
        #expect(plan.movedLines == 1)
        #expect(c.released("halls", "H05b") == halls["H05"])
        #expect(c.released("halls", "H05") == 0)
        // Seven more in H05b complete the old carry of five: the line goes on where it was.
        c.verify(7, hall("H05"), on: d1.adding(days: 6))
        c.verify(14, hall("H01"), on: d1.adding(days: 6))
        #expect(c.publish(d1.adding(days: 6)).blocks.map(\.value).sorted() == [12, 14])
        #expect(c.released("halls", "H05b") == 24)
        expectLinesFollowTheMaps(c)
    }

    @Test("a merge and its undo: the lines stay apart, the merged hall's new reports open a line of its own (never the older of the two: line age told a hall had reports), and the undo puts every line back where it was opened")
    func mergeAndUndo() {
        var c = history()
        let before = c.releasedLayer("halls")
        let h05 = c.line(of: ["halls": "H05", "zones": "Z1"])!, h07 = c.line(of: ["halls": "H07", "zones": "Z1"])!
        var map = c.map("halls")
        map["H57"] = map.removeValue(forKey: "H05")!.union(map.removeValue(forKey: "H07")!)
        c.newVersion(of: "halls", map)
        c.verify(14, hall("H01"), on: d1.adding(days: 5))
        let plan = c.publish(d1.adding(days: 5))
        // 5 + 8 would reach the step as one line; as two they stay hidden.
        #expect(plan.blocks.map(\.value) == [14])
        #expect(c.released("halls", "H57") == 12)
        #expect(c.ledger.lines.values.filter { $0.key == key("H57") }.map(\.carry).sorted() == [5, 8])
        // Six more, in what was H07's ground, join the merged hall's own line: its ground is new.
        c.verify(6, Array(hall("H07").suffix(6)), on: d1.adding(days: 6))
        c.verify(14, hall("H01"), on: d1.adding(days: 6))
        #expect(c.publish(d1.adding(days: 6)).blocks.map(\.value).sorted() == [14])
        #expect(c.ledger.lines[h05.id]!.carry == 5 && c.ledger.lines[h07.id]!.carry == 8)
        let merged = try! #require(c.ledger.lines.values.first { $0.id != h05.id && $0.id != h07.id && $0.key == key("H57") })
        #expect(merged.carry == 6)
        // The undo: both lines go back to their halls with their carries; the six stay in the
        // merged hall's line, which counts where its origin's interior point lies (cell 7_00,
        // H07's), and nothing moves but H01's block; new reports in H05 join H05's line again.
        c.rollBack("halls", to: 1)
        c.verify(14, hall("H01"), on: d1.adding(days: 7))
        let undo = c.publish(d1.adding(days: 7))
        #expect(undo.blocks.map(\.value) == [14])
        #expect(c.ledger.lines[h05.id]!.key == key("H05") && c.ledger.lines[h07.id]!.key == key("H07"))
        #expect(c.released("halls", "H05") == before["H05"] && c.released("halls", "H07") == before["H07"])
        #expect(c.ledger.lines[h05.id]!.carry == 5 && c.ledger.lines[h07.id]!.carry == 8)
        #expect(c.ledger.lines[merged.id]!.key == key("H07"))
        c.verify(7, hall("H05"), on: d1.adding(days: 8))
        c.verify(14, hall("H01"), on: d1.adding(days: 8))
        #expect(c.publish(d1.adding(days: 8)).blocks.map(\.value).sorted() == [12, 14], "H05's carry of 5 and the 7 are released together")
        expectLinesFollowTheMaps(c)
    }

    @Test("which line takes a merged hall's new reports does not depend on which halls had reports: the halls' numbers after the undo are the same whether the quieter hall had a hidden carry or none")
    func lineAgeTellsNothing() {
        // H05 with a hidden carry of 5, or with nothing; H07 released 12 either way.
        var shown: [[String: Int]] = []
        for hidden in [5, 0] {
            var c = campus()
            c.verify(12, hall("H07"), on: d1)
            if hidden > 0 { c.verify(hidden, hall("H05"), on: d1) }
            c.publish(d1)
            var map = c.map("halls")
            map["H57"] = map.removeValue(forKey: "H05")!.union(map.removeValue(forKey: "H07")!)
            c.newVersion(of: "halls", map)
            c.verify(14, Array(hall("H07").suffix(14)), on: d1.adding(days: 1))
            c.publish(d1.adding(days: 1))
            c.rollBack("halls", to: 1)
            c.verify(12, hall("H01"), on: d1.adding(days: 2))
            c.publish(d1.adding(days: 2))
            shown.append(c.releasedLayer("halls"))
        }
        #expect(shown[0] == shown[1], "\(shown)")
    }

    @Test("a moved edge and its rollback move no report between lines: the strip's reports count where they were counted, each line releases only its own blocks")
    func movedEdgeAndRollback() {
        for quiet in [false, true] {
            var c = campus()
            c.verify(12, hall("H05"), on: d1)
            c.verify(18, Array(580..<600), on: d1)
            c.verify(14, hall("H01"), on: d1)
            c.publish(d1)
            // Cells 5_80 … 5_99 of H05, with eighteen of its thirty reports, go to H06.
            var map = c.map("halls")
            let strip = Set(580..<600)
            map["H05"]!.subtract(strip)
            map["H06"]!.formUnion(strip)
            c.newVersion(of: "halls", map)
            c.verify(14, hall("H01"), on: d1.adding(days: 1))
            let move = c.publish(d1.adding(days: 1))
            #expect(move.blocks.map(\.value) == [14], "no pair")
            #expect(c.released("halls", "H05") == 30 && c.released("halls", "H06") == 0)
            // Verified in the strip in between: one report (quiet) or two with a busy campus.
            c.verify(quiet ? 1 : 2, [590], on: d1.adding(days: 2))
            if !quiet { c.verify(14, hall("H01"), on: d1.adding(days: 2)) }
            #expect(c.publish(d1.adding(days: 2)).blocks.map(\.value) == (quiet ? [] : [14]))
            c.rollBack("halls", to: 1)
            if !quiet { c.verify(14, hall("H01"), on: d1.adding(days: 3)) }
            let back = c.publish(d1.adding(days: 3))
            // Nothing but H01's own block: the strip's reports are not paired back, so the
            // reports verified in the strip in between are not told by any difference.
            #expect(back.blocks.map(\.value) == (quiet ? [] : [14]), "quiet \(quiet)")
            #expect(c.released("halls", "H05") == 30 && c.released("halls", "H06") == 0, "quiet \(quiet)")
            #expect(c.line(of: ["halls": "H06", "zones": "Z1"])!.carry == (quiet ? 1 : 2), "the strip's new reports wait in H06's line")
            expectLinesFollowTheMaps(c, "quiet \(quiet)")
        }
    }

    @Test("an edge moved in two steps moves nothing at either step")
    func edgeInTwoSteps() {
        var c = campus()
        c.verify(15, hall("H05"), on: d1)
        c.verify(15, Array(570..<600), on: d1)
        c.verify(14, hall("H01"), on: d1)
        c.publish(d1)
        var map = c.map("halls")
        for (day, strip) in [(1, 585..<600), (2, 570..<585)] {
            map["H05"]!.subtract(strip)
            map["H06"]!.formUnion(strip)
            c.newVersion(of: "halls", map)
            c.verify(14, hall("H01"), on: d1.adding(days: day))
            #expect(c.publish(d1.adding(days: day)).blocks.map(\.value) == [14], "step \(day)")
            #expect(c.released("halls", "H05") == 30 && c.released("halls", "H06") == 0, "step \(day)")
        }
        expectLinesFollowTheMaps(c)
    }

    @Test("a hall shrunk to a sliver, then renamed: its line goes where its interior point went, with its whole history, decided by the maps alone")
    func sliverThenRename() {
        for inSliver in [0, 1, 5] {
            var c = history()
            let h05 = c.line(of: ["halls": "H05", "zones": "Z1"])!
            // The sliver keeps cells 5_90 … 5_99 (H05's interior point, cell 5_50, goes to H06);
            // `inSliver` of H05's reports lie there (put there before the change, as if they
            // had always been).
            for i in c.reports.indices.filter({ Self.cells("H05").contains(c.reports[$0].cell) }).prefix(inSliver) { c.reports[i].cell = 595 }
            var map = c.map("halls")
            let moved = Set(500..<590)
            map["H05"]!.subtract(moved)
            map["H06"]!.formUnion(moved)
            c.newVersion(of: "halls", map)
            #expect(c.publish(d1.adding(days: 5)).blocks.isEmpty, "\(inSliver)")
            // However many reports the sliver holds, the line goes to H06: the public learns
            // nothing about the sliver.
            #expect(c.ledger.lines[h05.id]!.key.areaClass.area(in: "halls") == "H06", "\(inSliver)")
            #expect(c.released("halls", "H06") == 12 && c.released("halls", "H05") == 0, "\(inSliver)")
            map["H05b"] = map.removeValue(forKey: "H05")
            c.newVersion(of: "halls", map)
            #expect(c.publish(d1.adding(days: 6)).blocks.isEmpty, "\(inSliver)")
            #expect(c.ledger.lines[h05.id]!.key.areaClass.area(in: "halls") == "H06", "\(inSliver)")
            expectLinesFollowTheMaps(c, "\(inSliver)")
        }
    }

    @Test("a new layer that cuts a line's reports gives the line the area holding its hall's interior point, whatever part holds more")
    func split() {
        for cut in [10, 14, 40, 60, 90] {
            var c = history()
            // A grid cut through H05 at its cell 5_`cut`: H05's seventeen reports lie in cells
            // 5_00 … 5_16, so the west part holds 10, 14 or all of them; its interior point
            // (cell 5_50) decides, and the counts do not.
            c.newVersion(of: "grid", ["W": Set(0..<(500 + cut)), "E": Set((500 + cut)..<10_000)])
            let plan = c.publish(d1.adding(days: 5))
            #expect(plan.blocks.isEmpty, "cut \(cut)")
            let h05InWest = cut > 50
            #expect(c.released("grid", "E") == (h05InWest ? 0 : 12), "cut \(cut)")
            #expect(c.released("grid", "W") == c.releasedLayer("halls").values.reduce(0, +) - (h05InWest ? 0 : 12), "cut \(cut)")
            expectLinesFollowTheMaps(c, "cut \(cut)")
        }
    }

    @Test("a withdrawn layer drops out of every class; its lines keep their carries")
    func withdrawn() {
        var c = history()
        let halls = c.releasedLayer("halls")
        c.withdraw("zones")
        #expect(c.publish(d1.adding(days: 5)).blocks.isEmpty)
        #expect(c.releasedLayer("halls") == halls)
        #expect(c.ledger.lines.values.allSatisfy { $0.key.areaClass.area(in: "zones") == nil })
        expectLinesFollowTheMaps(c)
    }

    @Test("over random sequences of changes (edges moved, rollbacks to any version, merges, splits, renames, slivers, a grid) with verifications, revocations and edits: no report ever leaves its line but by an edit or a status change, every line's class is the maps' alone, every block is a whole step, and released blocks plus carries equal each line's reports")
    func sequences() {
        for seed in UInt64(1)...12 {
            var rng = SplitMix64(seed: seed)
            var c = campus()
            var lineOf: [Int: Int64] = [:]      // report → the line it was first accounted to
            for day in 0..<60 {
                let today = d1.adding(days: day)
                for n in 1...12 where rng.next() % 3 == 0 {
                    let id = n < 10 ? "H0\(n)" : "H\(n)"
                    let cells = Self.cells(id)
                    c.verify(Int(rng.next() % 4) + 1, [cells.lowerBound + Int(rng.next() % 100)], on: today)
                    if rng.next() % 11 == 0 { c.revoke(1, hall(id)) }
                    if rng.next() % 17 == 0 { c.verify(1, [cells.lowerBound + Int(rng.next() % 100)], on: today, kind: .misconduct) }
                }
                if rng.next() % 29 == 0, let i = c.reports.indices.randomElement(using: &rng) {
                    c.edit(i, to: 100 + Int(rng.next() % 1_200))
                    lineOf[i] = nil
                }
                if rng.next() % 5 == 0 { changeTheMaps(&c, &rng, day: day) }
                guard rng.next() % 3 != 0 else { continue }
                let plan = c.publish(today)
                for block in plan.blocks { #expect(abs(block.value) >= planner.policy.releaseStep(for: block.key.kind), "seed \(seed)") }
                for (i, r) in c.reports.enumerated() where r.verified {
                    guard let line = r.line else { continue }
                    if let first = lineOf[i] { #expect(first == line, "seed \(seed): report \(i) left its line") } else { lineOf[i] = line }
                }
                expectLinesFollowTheMaps(c, "seed \(seed) day \(day)")
            }
        }
    }

    /// One change of the maps, drawn at random: a moved edge, a rollback to any earlier version,
    /// a merge, a split, a rename, a sliver, a grid layer put up or withdrawn.
    private func changeTheMaps(_ c: inout LedgerCampus, _ rng: inout SplitMix64, day: Int) {
        var map = c.map("halls")
        let ids = map.keys.sorted()
        guard ids.count > 2 else { return }
        let a = ids[Int(rng.next() % UInt64(ids.count))]
        var b = ids[Int(rng.next() % UInt64(ids.count))]
        if b == a { b = ids[(ids.firstIndex(of: a)! + 1) % ids.count] }
        switch rng.next() % 7 {
        case 0, 1:      // an edge: some of a's cells go to b (the smallest stays, or with a sliver goes too)
            let give = Set(map[a]!.sorted().dropFirst(rng.next() % 4 == 0 ? 0 : 1).filter { _ in rng.next() % 3 == 0 })
            guard !give.isEmpty, give.count < map[a]!.count else { return }
            map[a]!.subtract(give)
            map[b]!.formUnion(give)
        case 2:
            let versions = c.versions["halls"]!.keys.sorted()
            c.rollBack("halls", to: versions[Int(rng.next() % UInt64(versions.count))])
            return
        case 3:
            map["M\(day)"] = map.removeValue(forKey: a)!.union(map.removeValue(forKey: b)!)
        case 4:
            let cells = map.removeValue(forKey: a)!.sorted()
            let cut = cells.count / 2
            map["\(a)w\(day)"] = Set(cells[..<cut])
            map["\(a)e\(day)"] = Set(cells[cut...])
        case 5:
            map["R\(day)"] = map.removeValue(forKey: a)
        default:
            if c.published["grid"] != nil {
                c.withdraw("grid")
            } else {
                let cut = 100 + Int(rng.next() % 1_200)
                c.newVersion(of: "grid", ["W": Set(0..<cut), "E": Set(cut..<10_000)])
            }
            return
        }
        c.newVersion(of: "halls", map)
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
        #expect(after.nextLineID == 4)
    }
}
