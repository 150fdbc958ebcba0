import Aggregation
import DomainKernel
import Testing

/// Incremental counters must equal a full recompute after every change a report can go through.
@Suite("counter consistency")
struct CounterConsistencyTests {
    private static let layers = ["halls": (0..<6).map { "H\($0)" }, "zones": (0..<3).map { "Z\($0)" }]
    private static let start = Day(year: 2024, month: 2, day: 20)

    /// Where a report lands in each layer (or nowhere in it).
    private func randomAreas(_ random: inout SplitMix64) -> [AreaRef] {
        Self.layers.keys.sorted().compactMap { layer in
            Int.random(in: 0..<5, using: &random) == 0 ? nil : AreaRef(layer: layer, areaID: Self.layers[layer]!.randomElement(using: &random)!)
        }
    }

    private func newReport(_ random: inout SplitMix64) -> ReportFacts {
        let covid = Bool.random(using: &random)
        let occurred = Self.start.adding(days: Int.random(in: 0..<30, using: &random))
        return ReportFacts(kind: covid ? .covid : .misconduct, status: .pending, occurredOn: occurred,
                           submittedOn: occurred.adding(days: Int.random(in: 0..<4, using: &random)), verifiedOn: nil,
                           group: covid ? [BreakdownGroup.student, .faculty, .staff].randomElement(using: &random)! : nil,
                           areas: randomAreas(&random))
    }

    /// One allowed transition, or nil when the status has none.
    private func transitioned(_ facts: ReportFacts, _ random: inout SplitMix64) -> ReportFacts? {
        var next = facts
        let today = facts.submittedOn.adding(days: Int.random(in: 0..<10, using: &random))
        switch facts.status {
        case .pending:
            switch Int.random(in: 0..<3, using: &random) {
            case 0: next.status = .verified; next.verifiedOn = today
            case 1: next.status = .rejected
            default: next.status = .withdrawn
            }
        case .verified: next.status = .revoked
        case .rejected: next.status = .pending
        default: return nil
        }
        return next
    }

    @Test("applying deltas equals recomputing, after every step", arguments: [1, 7, 42, 2024, 99_991] as [UInt64])
    func incrementalEqualsRecompute(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var reports: [ReportFacts] = []
        var table = CounterTable()
        func change(_ index: Int?, to new: ReportFacts?) {
            let old = index.map { reports[$0] }
            table.apply(Counters.delta(from: old, to: new))
            switch (index, new) {
            case (let i?, let n?): reports[i] = n
            case (let i?, nil): reports.remove(at: i)
            case (nil, let n?): reports.append(n)
            case (nil, nil): break
            }
        }
        for step in 0..<2000 {
            let action = reports.isEmpty ? 0 : Int.random(in: 0..<10, using: &random)
            let i = reports.isEmpty ? 0 : Int.random(in: 0..<reports.count, using: &random)
            switch action {
            case 0, 1, 2:
                change(nil, to: newReport(&random))
            case 3, 4, 5:
                if let next = transitioned(reports[i], &random) { change(i, to: next) }
            case 6:
                var edited = reports[i]
                edited.occurredOn = edited.occurredOn.adding(days: Int.random(in: -3...3, using: &random))
                change(i, to: edited)
            case 7:
                // A layer re-import: every report's placement in one layer may move or vanish.
                let layer = Self.layers.keys.sorted().randomElement(using: &random)!
                for j in reports.indices {
                    var moved = reports[j]
                    moved.areas.removeAll { $0.layer == layer }
                    if Bool.random(using: &random) { moved.areas.append(AreaRef(layer: layer, areaID: Self.layers[layer]!.randomElement(using: &random)!)) }
                    change(j, to: moved)
                }
            case 8:
                change(i, to: nil)                         // purged
            default:
                change(i, to: reports[i])                  // a no-op edit
            }
            let recomputed = CounterTable.recompute(from: reports)
            #expect(table == recomputed, "seed \(seed), step \(step)")
            #expect(table.differences(from: recomputed).isEmpty)
            if table != recomputed { return }
        }
        #expect(table.counts.values.allSatisfy { $0 > 0 })
    }

    @Test("the bulk recount equals summing contributions, for all bases and for each one", arguments: [3, 11, 500] as [UInt64])
    func recountEqualsDefinition(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var reports: [ReportFacts] = []
        for _ in 0..<Int.random(in: 0..<400, using: &random) {
            var report = newReport(&random)
            for _ in 0..<Int.random(in: 0..<3, using: &random) { report = transitioned(report, &random) ?? report }
            if Int.random(in: 0..<10, using: &random) == 0, let first = report.areas.first { report.areas.append(first) }
            if Int.random(in: 0..<20, using: &random) == 0 { report.occurredOn = report.occurredOn.adding(days: Bool.random(using: &random) ? -4000 : -400_000) }
            reports.append(report)
        }
        func definition(_ bases: Set<TimeBasis>) -> CounterTable {
            var counts: [CounterKey: Int] = [:]
            for report in reports { for key in Counters.contributions(of: report) where bases.contains(key.basis) { counts[key, default: 0] += 1 } }
            return CounterTable(counts: counts)
        }
        #expect(CounterTable.recompute(from: reports) == definition(Set(TimeBasis.allCases)), "seed \(seed)")
        for basis in TimeBasis.allCases {
            #expect(Counters.recount(ReportColumns(reports), bases: [basis]).table == definition([basis]), "seed \(seed), \(basis)")
        }
    }

    @Test("the verified basis counts only while verified, on the verification day")
    func verifiedBasis() {
        let day = Day(year: 2024, month: 3, day: 1)
        var facts = ReportFacts(kind: .covid, status: .verified, occurredOn: day, submittedOn: day, verifiedOn: day.adding(days: 2),
                                group: .staff, areas: [AreaRef(layer: "halls", areaID: "H1")])
        #expect(Counters.contributions(of: facts).map(\.basis) == [.occurred, .submitted, .verified])
        #expect(Counters.contributions(of: facts).last?.day == day.adding(days: 2))
        facts.status = .revoked
        #expect(Counters.contributions(of: facts).map(\.basis) == [.occurred, .submitted])
        #expect(Counters.delta(from: facts, to: facts).isEmpty)
    }

    @Test("differences name each disagreeing cell with both counts")
    func differences() {
        let key = CounterKey(layer: "halls", areaID: "H1", kind: .covid, status: .verified, basis: .occurred,
                             day: Day(year: 2024, month: 1, day: 1), group: nil)
        let mine = CounterTable(counts: [key: 2]), theirs = CounterTable()
        let diff = mine.differences(from: theirs)
        #expect(diff.count == 1 && diff[0].key == key && diff[0].mine == 2 && diff[0].theirs == 0)
        let reverse = theirs.differences(from: mine)
        #expect(reverse.count == 1 && reverse[0].key == key && reverse[0].mine == 0 && reverse[0].theirs == 2)

        // Cells on one side, on the other, on both alike and on both unlike: the last three named.
        func cell(_ area: String) -> CounterKey {
            CounterKey(layer: "halls", areaID: area, kind: .covid, status: .verified, basis: .occurred, day: Day(year: 2024, month: 1, day: 1), group: nil)
        }
        let left = CounterTable(counts: [cell("A"): 1, cell("B"): 3, cell("C"): 4]), right = CounterTable(counts: [cell("B"): 3, cell("C"): 5, cell("D"): 6])
        let named = left.differences(from: right).sorted { $0.key.areaID < $1.key.areaID }
        #expect(named.map(\.key.areaID) == ["A", "C", "D"])
        #expect(named.map(\.mine) == [1, 4, 0] && named.map(\.theirs) == [0, 5, 6])
    }
}
