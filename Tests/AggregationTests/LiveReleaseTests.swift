import Aggregation
import DomainKernel
import Foundation
import Testing

/// The verifiers' live view releases an area when it is asked for, from the raw numbers it
/// keeps: it must give what releasing the whole layer gives, area by area, in every way a
/// release is read (by id, walked, compared, encoded).
@Suite("live release made on request")
struct LiveReleaseTests {
    private let end = Day(year: 2024, month: 3, day: 1)
    private let groups: [BreakdownGroup] = [.student, .faculty, .staff]

    /// Random verified and pending covid reports over `areas` areas, some with a group, some
    /// without, some outside the layer, over 90 days.
    private func counters(areas: Int, reports: Int, seed: UInt64) -> [(CounterKey, Int)] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var facts: [ReportFacts] = []
        for _ in 0..<reports {
            let day = end.adding(days: -next(90))
            let verified = next(4) > 0
            let group: BreakdownGroup? = [BreakdownGroup.student, .faculty, .staff, nil][next(4)]
            facts.append(ReportFacts(kind: .covid, status: verified ? .verified : .pending, occurredOn: day, submittedOn: day,
                                     verifiedOn: verified ? day : nil, group: group,
                                     areas: [AreaRef(layer: "cells", areaID: "c\(next(areas + 3))")]))
        }
        return CounterTable.recompute(from: facts).counts.map { ($0.key, $0.value) }
    }

    @Test("every area, the total, the walk and the JSON equal the whole release, with rates and pending counts", arguments: [1, 2, 3] as [UInt64])
    func equalsWholeRelease(seed: UInt64) throws {
        let ids = (0..<200).map { "c\($0)" }.shuffled()
        let denominators = Dictionary(uniqueKeysWithValues: ids.prefix(150).map { ($0, Double($0.count * 100)) })
        let request = StatisticsRequest(layer: "cells", kind: .covid, basis: .occurred, end: end, groups: groups)
        let stats = Statistics.compute(request, areaIDs: ids, counters: counters(areas: 200, reports: 600, seed: seed), denominators: denominators)
        let whole = DisclosureControl().release(stats, for: .verifier)
        let live = try #require(LiveStatistics(stats, control: DisclosureControl(), audience: .verifier)).released

        #expect(live.areas.count == 200)
        for id in ids { #expect(live.areas[id] == whole.areas[id], "area \(id)") }
        #expect(live.areas["c200"] == nil, "an id outside the layer has no numbers")
        #expect(live.total == whole.total)
        #expect(live.areas == whole.areas)
        #expect(Dictionary(uniqueKeysWithValues: live.areas.map { ($0.key, $0.value) }) == Dictionary(uniqueKeysWithValues: whole.areas.map { ($0.key, $0.value) }))
        #expect(!live.areas.hasSuppressed && !whole.areas.hasSuppressed)
        #expect(live.areas[ids[0]]?.pending != nil, "verifiers see pending counts")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(live) == encoder.encode(whole))
    }

    @Test("the live release holds raw numbers only: its size is the raw numbers', a fraction of a release held area by area")
    func holdsRawNumbersOnly() throws {
        let ids = (0..<2_000).map { "c\($0)" }
        let request = StatisticsRequest(layer: "cells", kind: .covid, basis: .occurred, end: end, groups: groups)
        let stats = Statistics.compute(request, areaIDs: ids, counters: counters(areas: 2_000, reports: 4_000, seed: 9), denominators: [:])
        let live = try #require(LiveStatistics(stats, control: DisclosureControl(), audience: .verifier))
        let held = DisclosureControl().release(stats, for: .verifier)
        #expect(live.approximateBytes == live.released.approximateBytes)
        #expect(live.approximateBytes < held.approximateBytes, "released areas are not held beside the raw numbers")
    }

    @Test("statistics list each area once in id order, whatever order and repeats the ids came in, and find an area by id")
    func areasByPosition() {
        let request = StatisticsRequest(layer: "cells", kind: .covid, basis: .occurred, end: end, groups: groups)
        let cells = counters(areas: 5, reports: 60, seed: 4)
        let sorted = Statistics.compute(request, areaIDs: ["c0", "c1", "c2", "c3", "c4"], counters: cells, denominators: [:])
        let shuffled = Statistics.compute(request, areaIDs: ["c3", "c0", "c4", "c1", "c3", "c2", "c0"], counters: cells, denominators: [:])
        #expect(shuffled.areaIDs == ["c0", "c1", "c2", "c3", "c4"])
        #expect(shuffled.values == sorted.values)
        #expect(shuffled.total == sorted.total)
        for (i, id) in sorted.areaIDs.enumerated() { #expect(sorted[area: id] == sorted.values[i]) }
        #expect(sorted[area: "c5"] == nil && sorted[area: ""] == nil)
        #expect(sorted.areas.count == 5)
        // The total is the sum of the listed areas only: cells of c5…c7 (outside) count nowhere.
        var verified = 0
        for area in sorted.values { verified += area.count(.all) }
        #expect(sorted.total.count(.all) == verified)
        #expect(verified > 0)
    }
}
