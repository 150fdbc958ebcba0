import Aggregation
import DomainKernel
import Testing

@Suite("rates and change")
struct RateAndChangeTests {
    private let end = Day(year: 2024, month: 3, day: 1)

    private func counters(_ entries: [(area: String, daysBack: Int, status: ReportStatus, count: Int)]) -> [(CounterKey, Int)] {
        entries.map { e in
            (CounterKey(layer: "halls", areaID: e.area, kind: .covid, status: e.status, basis: .occurred,
                        day: end.adding(days: -e.daysBack), group: .student), e.count)
        }
    }

    private var stats: LayerStatistics {
        Statistics.compute(StatisticsRequest(layer: "halls", kind: .covid, basis: .occurred, end: end, groups: [.student]),
                           areaIDs: ["H1", "H2", "H3"],
                           counters: counters([("H1", 0, .verified, 20), ("H1", 8, .verified, 12), ("H1", 20, .verified, 15),
                                               ("H1", 40, .verified, 30), ("H1", 100, .verified, 11), ("H1", 2, .pending, 4),
                                               ("H2", 3, .verified, 25), ("H2", 9, .verified, 25), ("H2", -1, .verified, 99),
                                               ("H3", 1, .rejected, 50), ("H9", 1, .verified, 7)]),
                           denominators: ["H1": 400, "H2": 0])
    }

    @Test("known counts give known windows, previous windows and changes")
    func changes() {
        let h1 = stats.areas["H1"]!
        #expect(Window.allCases.map { h1.count($0) } == [20, 32, 47, 88])
        #expect(h1.previous(.d7) == 12 && h1.previous(.d14) == 15 && h1.previous(.d28) == 30 && h1.previous(.all) == nil)
        #expect(h1.change(.d7) == 8 && h1.change(.d14) == 17 && h1.change(.d28) == 17)
        #expect(h1.pendingCount(.d7) == 4)
        #expect(stats.areas["H2"]!.count(.all) == 50, "the day after the end is not counted")
        #expect(stats.areas["H3"]!.count(.all) == 0, "only verified reports count")
        #expect(stats.total.count(.all) == 138, "areas not in the layer are not counted")
    }

    @Test("rates per 1,000 of the denominator; none without a positive denominator")
    func rates() {
        let release = DisclosureControl().release(stats, for: .public)
        let h1 = release.areas["H1"]!
        #expect(h1.ratePer1000?[.d7] == .value(50))
        #expect(h1.ratePer1000?[.all] == .value(220))
        #expect(h1.change[.d7] == .value(8))
        #expect(release.areas["H2"]!.ratePer1000 == nil, "zero denominator")
        #expect(release.areas["H3"]!.ratePer1000 == nil, "missing denominator")
        #expect(release.total.ratePer1000 == nil, "the total has a rate only when every area has a denominator")
        #expect(AreaStatistics.rate(count: 3, denominator: 1500) == 2)
    }

    @Test("verifiers see the real pending counts; the public sees none")
    func pendingForVerifiers() {
        let verifier = DisclosureControl().release(stats, for: .verifier)
        #expect(verifier.areas["H1"]!.pending?[.d7] == 4)
        #expect(verifier.areas["H1"]!.pending?[.all] == 4)
        #expect(verifier.areas["H2"]!.pending?[.d7] == 0)
        #expect(verifier.total.pending?[.d7] == 4)
        #expect(DisclosureControl().release(stats, for: .public).areas["H1"]!.pending == nil)
    }

    @Test("the layer total's denominator is the sum when every area has one")
    func totalRate() {
        let full = Statistics.compute(StatisticsRequest(layer: "halls", kind: nil, basis: .occurred, end: end),
                                      areaIDs: ["H1", "H2"], counters: counters([("H1", 0, .verified, 20), ("H2", 0, .verified, 30)]),
                                      denominators: ["H1": 400, "H2": 600])
        #expect(full.total.ratePer1000(.d7) == 50)
        #expect(full.breakdownGroups == [.student])
    }
}
