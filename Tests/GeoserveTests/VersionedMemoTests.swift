import Aggregation
import DomainKernel
import Testing
@testable import GeoserveApp

@Suite("versioned memo")
struct VersionedMemoTests {
    static func key(_ n: Int) -> VersionedKey {
        VersionedKey(layer: "halls", layerVersion: 1, numbers: .live(dataVersion: Int64(n)), day: Day(year: 2026, month: 11, day: 26),
                     selector: .release(kind: nil, basis: .verified, audience: .public, generation: 0))
    }

    @Test("values are kept within the byte bound, least recently used dropped first")
    func byteBound() {
        let keySize = Self.key(0).size
        let memo = VersionedMemo<Int>(bound: 100, bytes: 3 * (keySize + 100)) { $0 }
        for n in 0..<3 { memo.put(Self.key(n), 100) }
        #expect(memo.statistics.count == 3)
        #expect(memo.get(Self.key(0)) == 100, "read, so the most recently used")
        memo.put(Self.key(3), 100)
        #expect(memo.get(Self.key(1)) == nil, "the least recently used went")
        #expect(memo.get(Self.key(0)) == 100 && memo.get(Self.key(2)) == 100 && memo.get(Self.key(3)) == 100)
        memo.put(Self.key(4), 250)
        #expect(memo.statistics.bytes <= 3 * (keySize + 100))
        #expect(memo.get(Self.key(4)) == 250)
        memo.put(Self.key(5), 10_000)
        #expect(memo.get(Self.key(5)) == nil, "a value larger than the bound is not kept")
        #expect(memo.get(Self.key(4)) == 250, "and does not empty the memo")
    }

    @Test("the entry bound holds too, and 0 keeps nothing")
    func entryBound() {
        let memo = VersionedMemo<Int>(bound: 2)
        for n in 0..<5 { memo.put(Self.key(n), n) }
        #expect(memo.statistics.count == 2)
        #expect(memo.get(Self.key(3)) == 3 && memo.get(Self.key(4)) == 4 && memo.get(Self.key(2)) == nil)
        let none = VersionedMemo<Int>(bound: 0)
        none.put(Self.key(0), 0)
        #expect(none.get(Self.key(0)) == nil)
    }

    @Test("a release's cost grows with its areas and its groups, so a byte-bounded memo keeps fewer large releases")
    func releaseCost() {
        func release(areas: Int, groups: [BreakdownGroup]?) -> ReleasedLayerStatistics {
            let ids = (0..<areas).map { "a\($0)" }
            let stats = Statistics.compute(StatisticsRequest(layer: "halls", kind: .covid, basis: .occurred, end: Day(year: 2026, month: 11, day: 26), groups: groups),
                                           areaIDs: ids, counters: [], denominators: [:])
            return DisclosureControl().release(stats, for: .verifier)
        }
        let small = release(areas: 1_000, groups: []).approximateBytes
        let large = release(areas: 10_000, groups: []).approximateBytes
        let grouped = release(areas: 10_000, groups: ["student", "staff"].compactMap(BreakdownGroup.init)).approximateBytes
        #expect(large > 9 * small && large < 11 * small)
        #expect(grouped > large)
        #expect(small > 1_000 * 200, "each area's numbers are counted, not only its id")
        let memo = VersionedMemo<ReleasedLayerStatistics>(bound: 256, bytes: 2 * large + 1_000) { $0.approximateBytes }
        for n in 0..<4 { memo.put(Self.key(n), release(areas: 10_000, groups: [])) }
        #expect(memo.statistics.count == 2)
        #expect(memo.statistics.bytes <= 2 * large + 1_000)
    }

    @Test("live views are kept within their byte bound: a view larger than it is not kept, a smaller one replaces the older")
    func liveViewBound() throws {
        func live(areas: Int) throws -> LiveStatistics {
            let ids = (0..<areas).map { "a\($0)" }
            let stats = Statistics.compute(StatisticsRequest(layer: "halls", kind: .covid, basis: .occurred, end: Day(year: 2026, month: 11, day: 26), groups: [BreakdownGroup("student")!]),
                                           areaIDs: ids, counters: [], denominators: [:])
            return try #require(LiveStatistics(stats, control: DisclosureControl(), audience: .verifier))
        }
        let small = try live(areas: 1_000), large = try live(areas: 10_000)
        #expect(large.approximateBytes > 9 * small.approximateBytes)
        #expect(small.approximateBytes > 1_000 * MemoryLayout<AreaStatistics>.stride, "each area's raw numbers are counted")
        #expect(small.released.approximateBytes == small.approximateBytes, "the release is made from the raw numbers and holds none of its own")
        let views = LiveViews(bound: 16, bytes: large.approximateBytes + 1_000)
        func key(_ selector: String) -> VersionedKey {
            VersionedKey(layer: "halls", layerVersion: 1, numbers: .publication(7), day: Day(year: 2026, month: 11, day: 26), selector: .tileRequest(selector))
        }
        views.put(key("a"), LiveViews.Entry(dataVersion: 7, statistics: large))
        #expect(views.get(key("a"))?.dataVersion == 7)
        views.put(key("b"), LiveViews.Entry(dataVersion: 7, statistics: small))
        #expect(views.get(key("a")) == nil, "two do not fit: the older went")
        #expect(views.get(key("b"))?.dataVersion == 7)
        #expect(views.statistics.bytes <= large.approximateBytes + 1_000)
        let tight = LiveViews(bound: 16, bytes: small.approximateBytes)
        tight.put(key("a"), LiveViews.Entry(dataVersion: 7, statistics: large))
        #expect(tight.get(key("a")) == nil, "a view larger than the bound is not kept")
    }
}
