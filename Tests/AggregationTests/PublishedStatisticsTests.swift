import DomainKernel
import Testing
@testable import Aggregation

/// A published release computes the areas with blocks and gives the others one zero value; it
/// must give every area, and the total, exactly what computing every area gives.
@Suite("published statistics")
struct PublishedStatisticsTests {
    let end: Day = "2026-11-20"

    /// A random layer, its denominators and blocks over some of its areas, a class in another
    /// layer and an area the layer no longer has.
    func randomCase(seed: UInt64) -> (ids: [String], denominators: [String: Double], blocks: [PublishedBlock]) {
        var rng = SplitMix64(seed: seed)
        let count = Int.random(in: 0...400, using: &rng)
        let ids = (0..<count).map { i in ["a\(i)", "Hall \(i)", "é\(i)", "Z-\(i)"][i % 4] }.sorted()
        // Denominator layouts: none, every area positive, or mixed (absent, zero, negative,
        // infinite, fractions).
        var denominators: [String: Double] = [:]
        switch seed % 3 {
        case 0: break
        case 1: for id in ids { denominators[id] = Double(Int.random(in: 1...5_000, using: &rng)) / 2 }
        default:
            for id in ids {
                let pick = Int.random(in: 0..<6, using: &rng)
                if pick == 0 { continue }
                denominators[id] = [0, -3, .infinity, 0.25, 120, 1e6][pick]
            }
        }
        var blocks: [PublishedBlock] = []
        let blocked = ids.isEmpty ? [] : (0..<Int.random(in: 0...min(40, ids.count), using: &rng)).map { _ in ids.randomElement(using: &rng)! }
        for id in blocked + ["gone"] {
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let kind: ReportKind = Bool.random(using: &rng) ? .covid : .misconduct
                let areaClass = AreaClass([AreaRef(layer: "blocks", areaID: id), AreaRef(layer: "zones", areaID: "Z\(Int.random(in: 1...3, using: &rng))")])
                blocks.append(PublishedBlock(key: LedgerKey(kind: kind, areaClass: areaClass), day: end.adding(days: -Int.random(in: -3...70, using: &rng)),
                                             value: Int.random(in: -5...30, using: &rng)))
            }
        }
        return (ids, denominators, blocks)
    }

    @Test("every area and the total equal the release computed for every area, for random layers, denominators and blocks",
          arguments: Array(UInt64(1)...UInt64(24)))
    func equalsWhole(seed: UInt64) {
        let (ids, denominators, blocks) = randomCase(seed: seed)
        for kind in [ReportKind.covid, .misconduct] {
            for audience in [Audience.public, .verifier] {
                let fast = PublishedStatistics.release(layer: "blocks", kind: kind, end: end, areaIDs: ids, blocks: blocks,
                                                       denominators: denominators, threshold: 11, audience: audience)
                let whole = PublishedStatistics.releaseWhole(layer: "blocks", kind: kind, end: end, areaIDs: ids, blocks: blocks,
                                                             denominators: denominators, threshold: 11, audience: audience)
                #expect(fast.total == whole.total, "seed \(seed) \(kind) \(audience): total")
                #expect(fast.request == whole.request && fast.threshold == whole.threshold)
                for id in ids where fast.areas[id] != whole.areas[id] {
                    Issue.record("seed \(seed) \(kind) \(audience): area \(id) differs")
                }
                // Only the areas with blocks, and the less common kind of zero, are held.
                let withBlocks = Set(blocks.compactMap { $0.key.areaClass.area(in: "blocks") }).intersection(ids).count
                #expect(fast.areas.count <= withBlocks + ids.count / 2, "seed \(seed): \(fast.areas.count) of \(ids.count) held")
                #expect(fast.approximateBytes <= whole.approximateBytes)
            }
        }
    }

    @Test("a layer without blocks holds nothing and reads zero everywhere; a layer without areas has no fallback")
    func emptyCases() {
        let ids = (0..<1_000).map { "a\($0)" }
        let quiet = PublishedStatistics.release(layer: "blocks", kind: .covid, end: end, areaIDs: ids, blocks: [PublishedBlock](),
                                                denominators: [:], threshold: 11, audience: .public)
        #expect(quiet.areas.count == 0)
        #expect(quiet.areas["a999"]?.counts[.all] == .value(0) && quiet.areas["a999"]?.ratePer1000 == nil)
        #expect(quiet.total.counts[.all] == .value(0) && quiet.total.ratePer1000 == nil)
        let none = PublishedStatistics.release(layer: "blocks", kind: .covid, end: end, areaIDs: [], blocks: [PublishedBlock](),
                                               denominators: [:], threshold: 11, audience: .public)
        #expect(none.areas.fallback == nil && none.areas["a1"] == nil)
    }
}
