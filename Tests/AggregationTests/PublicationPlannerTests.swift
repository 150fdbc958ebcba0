import DomainKernel
import Testing
import Aggregation

/// The publication ledger: what is released when, and that released blocks and carries always
/// add up to the verified reports.
@Suite("publication planner")
struct PublicationPlannerTests {
    let planner = PublicationPlanner(policy: .default)
    let d1: Day = "2026-11-02"

    private func line(_ hall: String, _ kind: ReportKind = .covid) -> LedgerKey {
        LedgerKey(kind: kind, areaClass: AreaClass([AreaRef(layer: "halls", areaID: hall), AreaRef(layer: "zones", areaID: "Z1")]))
    }

    private func counts(_ rows: [(LedgerKey, Day, Int)]) -> [VerifiedClassCount] {
        rows.map { VerifiedClassCount(key: $0.0, verifiedOn: $0.1, count: $0.2) }
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
        var rows: [(LedgerKey, Day, Int)] = []
        for day in 0..<5 {
            rows.append((line("H01"), d1.adding(days: day), 20))
            rows.append((line("H02"), d1.adding(days: day), 3))
        }
        let (blocks, ledger) = planner.plan(ledger: PublicationLedger(), verified: counts(rows), day: d1.adding(days: 4))
        let busy = blocks.filter { $0.key == line("H01") }
        #expect(busy.map(\.day) == (0..<5).map { d1.adding(days: $0) })
        #expect(busy.allSatisfy { $0.value == 20 })
        let small = blocks.filter { $0.key == line("H02") }
        #expect(small.map(\.day) == [d1.adding(days: 3)])
        #expect(small.map(\.value) == [12])
        #expect(ledger.entries[line("H02")] == PublicationLedger.Entry(accounted: 15, carry: 3))
        #expect(ledger.entries[line("H01")] == PublicationLedger.Entry(accounted: 100, carry: 0))
        #expect(ledger.lastDay == d1.adding(days: 4))
    }

    @Test("a publication after one verification moves nothing, even where it completes a line's step")
    func oneVerificationAfterARelease() {
        let first = counts([(line("H01"), d1, 30), (line("H02"), d1, 11)])
        let (released, ledger) = planner.plan(ledger: PublicationLedger(), verified: first, day: d1)
        #expect(released.map(\.key) == [line("H01")])
        #expect(ledger.entries[line("H02")]?.carry == 11)
        let second = counts([(line("H01"), d1, 30), (line("H02"), d1, 11), (line("H02"), d1.adding(days: 1), 1)])
        let (blocks, after) = planner.plan(ledger: ledger, verified: second, day: d1.adding(days: 1))
        #expect(blocks.isEmpty)
        #expect(after.entries[line("H02")]?.carry == 12)
        // Once an interval sees a step of changes of the kind, the waiting line goes out with them.
        let quiet = second + counts([(line("H01"), d1.adding(days: 2), 11)])
        #expect(planner.plan(ledger: after, verified: quiet, day: d1.adding(days: 2)).blocks.isEmpty)
        let third = second + counts([(line("H01"), d1.adding(days: 2), 12)])
        let (later, _) = planner.plan(ledger: after, verified: third, day: d1.adding(days: 2))
        #expect(later == [PublishedBlock(key: line("H01"), day: d1.adding(days: 2), value: 12),
                          PublishedBlock(key: line("H02"), day: d1.adding(days: 2), value: 12)])
    }

    @Test("public records (misconduct) are released on their day, one by one")
    func publicRecords() {
        let rows = counts([(line("H01", .misconduct), d1, 1), (line("H02", .misconduct), d1.adding(days: 1), 2)])
        let (blocks, ledger) = planner.plan(ledger: PublicationLedger(), verified: rows, day: d1.adding(days: 1))
        #expect(blocks.map(\.value) == [1, 2])
        #expect(blocks.map(\.day) == [d1, d1.adding(days: 1)])
        #expect(ledger.entries.values.allSatisfy { $0.carry == 0 })
    }

    @Test("revocations and moves count on the publication day; a large withdrawal is released as a negative block")
    func revocations() {
        let (_, ledger) = planner.plan(ledger: PublicationLedger(), verified: counts([(line("H01"), d1, 40), (line("H02"), d1, 14)]), day: d1)
        // 13 of H01's reports revoked, two of H02's moved to H03.
        let now = counts([(line("H01"), d1, 27), (line("H02"), d1, 12), (line("H03"), d1, 2)])
        let (blocks, after) = planner.plan(ledger: ledger, verified: now, day: d1.adding(days: 3))
        #expect(blocks == [PublishedBlock(key: line("H01"), day: d1.adding(days: 3), value: -13)])
        #expect(after.entries[line("H02")] == PublicationLedger.Entry(accounted: 12, carry: -2))
        #expect(after.entries[line("H03")] == PublicationLedger.Entry(accounted: 2, carry: 2))
    }

    @Test("a second publication on the same day with nothing new releases nothing and keeps the ledger")
    func idle() {
        let rows = counts([(line("H01"), d1, 30), (line("H02"), d1, 4)])
        let (_, ledger) = planner.plan(ledger: PublicationLedger(), verified: rows, day: d1)
        let (blocks, again) = planner.plan(ledger: ledger, verified: rows, day: d1)
        #expect(blocks.isEmpty)
        #expect(again == ledger)
    }

    @Test("over random histories with revocations, released blocks plus carries always equal the verified reports, and every block is at least a step")
    func invariant() {
        var rng = SplitMix64(seed: 7)
        let lines = (0..<12).map { line("H\($0 < 10 ? "0" : "")\($0)") } + [line("H00", .misconduct)]
        var verified: [LedgerKey: [Day: Int]] = [:]
        var ledger = PublicationLedger()
        var released: [LedgerKey: Int] = [:]
        for day in 0..<60 {
            let today = d1.adding(days: day)
            for key in lines {
                let add = Int(rng.next() % 4)
                if add > 0 { verified[key, default: [:]][today, default: 0] += add }
                // Now and then a revocation of an earlier report.
                if rng.next() % 9 == 0, let (past, n) = verified[key]?.first(where: { $0.value > 0 }) { verified[key]![past] = n - 1 }
            }
            guard day % 3 == 2 else { continue }
            let rows = verified.flatMap { key, days in days.map { VerifiedClassCount(key: key, verifiedOn: $0.key, count: $0.value) } }
            let (blocks, next) = planner.plan(ledger: ledger, verified: rows, day: today)
            for block in blocks {
                #expect(abs(block.value) >= planner.policy.releaseStep(for: block.key.kind))
                #expect(block.day <= today && ledger.lastDay.map { block.day > $0 || block.day == today } ?? true)
                released[block.key, default: 0] += block.value
            }
            ledger = next
            for key in lines {
                let total = verified[key]?.values.reduce(0, +) ?? 0
                #expect(released[key, default: 0] + (ledger.entries[key]?.carry ?? 0) == total)
            }
        }
    }

    @Test("published statistics count each block for its class's area in the layer, on its day")
    func statistics() {
        let blocks = [PublishedBlock(key: line("H01"), day: d1, value: 20), PublishedBlock(key: line("H02"), day: d1.adding(days: 8), value: 12),
                      PublishedBlock(key: line("H01", .misconduct), day: d1, value: 2)]
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

    @Test("the ledger's changes are the new and changed lines and the removed keys, nothing else")
    func ledgerChanges() {
        let a = LedgerKey(kind: .covid, areaClass: AreaClass([AreaRef(layer: "halls", areaID: "H01")]))
        let b = LedgerKey(kind: .covid, areaClass: AreaClass([AreaRef(layer: "halls", areaID: "H02")]))
        let c = LedgerKey(kind: .misconduct, areaClass: AreaClass([AreaRef(layer: "halls", areaID: "H01")]))
        let before = PublicationLedger(entries: [a: .init(accounted: 5, carry: 5), b: .init(accounted: 12, carry: 0)])
        let after = PublicationLedger(entries: [a: .init(accounted: 6, carry: 6), c: .init(accounted: 1, carry: 0)])
        let (write, remove) = after.changes(since: before)
        #expect(Set(write.map(\.key)) == [a, c])
        #expect(write.first { $0.key == a }?.entry == .init(accounted: 6, carry: 6))
        #expect(remove == [b])
        #expect(after.changes(since: after).write.isEmpty && after.changes(since: after).remove.isEmpty)
    }
}
