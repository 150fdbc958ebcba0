import Aggregation
import DomainKernel
import Testing

@Suite("disclosure control")
struct DisclosureControlTests {
    private let end = Day(year: 2024, month: 3, day: 1)

    /// Verified covid reports, `count` in `hall`, `daysBack` days before the end.
    private func reports(_ count: Int, in hall: String, daysBack: Int, group: BreakdownGroup? = .student) -> [ReportFacts] {
        let day = end.adding(days: -daysBack)
        return Array(repeating: ReportFacts(kind: .covid, status: .verified, occurredOn: day, submittedOn: day, verifiedOn: day,
                                            group: group, areas: [AreaRef(layer: "halls", areaID: hall)]), count: count)
    }

    private func release(_ facts: [ReportFacts], areaIDs: [String], for audience: Audience = .public) -> ReleasedLayerStatistics {
        let counters = CounterTable.recompute(from: facts).counts.map { ($0.key, $0.value) }
        let stats = Statistics.compute(StatisticsRequest(layer: "halls", kind: .covid, basis: .occurred, end: end,
                                                         groups: [.student, .faculty, .staff]),
                                       areaIDs: areaIDs, counters: counters, denominators: [:])
        return DisclosureControl().release(stats, for: audience)
    }

    @Test("from reports to a release: every area listed, zeros shown, a lone small hall hidden with a partner")
    func endToEnd() {
        let facts = reports(14, in: "H1", daysBack: 1) + reports(3, in: "H2", daysBack: 2) + reports(20, in: "H3", daysBack: 3)
            + reports(1, in: "H3", daysBack: 3, group: .faculty) + reports(12, in: "H1", daysBack: 60)
        let r = release(facts, areaIDs: ["H3", "H1", "H2", "H4"])
        #expect(Set(r.areas.keys) == ["H1", "H2", "H3", "H4"])
        #expect(r.areas["H4"]!.counts[.all] == .value(0))
        #expect(r.areas["H2"]!.counts[.d7] == .suppressed)
        #expect(r.areas["H3"]!.groups["faculty"]![.d7] == .suppressed)
        #expect(r.total.counts[.d7] == .value(38))
        #expect(r.total.counts[.all] == .value(50))
        let verifier = release(facts, areaIDs: ["H1", "H2", "H3", "H4"], for: .verifier)
        #expect(verifier.areas["H2"]!.counts[.d7] == .value(3))
    }

    @Test("the release depends on the areas, not on the order they are listed in")
    func orderIndependent() {
        let facts = reports(2, in: "B", daysBack: 0) + reports(30, in: "A", daysBack: 0) + reports(12, in: "C", daysBack: 9)
        let one = release(facts, areaIDs: ["A", "B", "C"]), other = release(facts, areaIDs: ["C", "A", "B", "A"])
        #expect(one.areas == other.areas)
        #expect(one.total == other.total)
    }

    @Test("default thresholds: public and researchers 11, verifiers 1; unknown audiences fall back to 11")
    func defaults() {
        #expect(DisclosurePolicy.default.threshold(for: .public) == 11)
        #expect(DisclosurePolicy.default.threshold(for: .researcher) == 11)
        #expect(DisclosurePolicy.default.threshold(for: .verifier) == 1)
        #expect(DisclosurePolicy(thresholds: [:]).threshold(for: .verifier) == 11)
        #expect(DisclosurePolicy(thresholds: [.public: 0]).threshold(for: .public) == 1)
    }
}
