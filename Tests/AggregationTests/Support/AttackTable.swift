import Aggregation
import DomainKernel

/// A layer's verified counts given cell by cell (area × segment × group), the release made of
/// them, and an attacker who knows every published number and how each is defined.
///
/// The attacker's model is written here from the definitions (7d = segment 0, 14d = 0–1,
/// 28d = 0–2, all = 0–4; previous 7d = 1, 14d = 2, 28d = 3), not taken from the code under test.
struct AttackTable {
    let areaIDs: [String]
    /// Breakdown groups; the group index `groups.count` is every other report (no group).
    let groups: [BreakdownGroup]
    /// counts[area][segment][group]
    var counts: [[[Int]]]
    let denominators: [String: Double]

    init(areaIDs: [String], groups: [BreakdownGroup], counts: [[[Int]]], denominators: [String: Double] = [:]) {
        self.areaIDs = areaIDs
        self.groups = groups
        self.counts = counts
        self.denominators = denominators
    }

    /// An empty table.
    init(areas: Int, groups: [BreakdownGroup]) {
        self.init(areaIDs: (0..<areas).map { "A\($0 < 10 ? "0" : "")\($0)" }, groups: groups,
                  counts: Array(repeating: Array(repeating: Array(repeating: 0, count: groups.count + 1), count: 5), count: areas))
    }

    var groupSlots: Int { groups.count + 1 }
    var variableCount: Int { areaIDs.count * 5 * groupSlots }
    func variable(_ area: Int, _ segment: Int, _ group: Int) -> Int { (area * 5 + segment) * groupSlots + group }
    var values: [Int] {
        var v = [Int](repeating: 0, count: variableCount)
        for a in areaIDs.indices { for s in 0..<5 { for g in 0..<groupSlots { v[variable(a, s, g)] = counts[a][s][g] } } }
        return v
    }

    static let windowSegments: [Window: [Int]] = [.d7: [0], .d14: [0, 1], .d28: [0, 1, 2], .all: [0, 1, 2, 3, 4]]
    static let previousSegment: [Window: Int] = [.d7: 1, .d14: 2, .d28: 3]

    var statistics: LayerStatistics {
        var areas: [String: AreaStatistics] = [:]
        for (a, id) in areaIDs.enumerated() {
            var stats = AreaStatistics(denominator: denominators[id])
            for g in 0..<groupSlots {
                var seg = SegmentCounts()
                for s in TimeSegment.allCases { seg[s] = counts[a][s.rawValue][g] }
                stats.verified[g < groups.count ? groups[g] : nil] = seg
            }
            areas[id] = stats
        }
        let request = StatisticsRequest(layer: "halls", kind: .covid, basis: .occurred, end: Day(year: 2024, month: 3, day: 1), groups: groups)
        return LayerStatistics(request: request, areaIDs: areaIDs, breakdownGroups: groups, areas: areas)
    }

    func release(_ audience: Audience = .public, policy: DisclosurePolicy = .default) -> ReleasedLayerStatistics {
        DisclosureControl(policy: policy).release(statistics, for: audience)
    }

    /// A sum over cells as a coefficient vector.
    func vector(areas: [Int], segments: [Int], groups: [Int]? = nil) -> [Int] {
        var v = [Int](repeating: 0, count: variableCount)
        for a in areas { for s in segments { for g in groups ?? Array(0..<groupSlots) { v[variable(a, s, g)] = 1 } } }
        return v
    }

    /// One published (or suppressed) number: what it sums, and what the release says.
    struct Statement {
        let name: String
        let coefficients: [Int]
        let released: Int?
    }

    /// Every number in a release, with its definition over the cells. Changes are `count −
    /// previous`; rates are counts scaled by a known denominator, so a shown rate is a shown count.
    func statements(of release: ReleasedLayerStatistics) -> [Statement] {
        var out: [Statement] = []
        func add(_ name: String, _ stats: ReleasedAreaStatistics, areas: [Int]) {
            for window in Window.allCases {
                let count = vector(areas: areas, segments: Self.windowSegments[window]!)
                out.append(Statement(name: "\(name).counts.\(window.rawValue)", coefficients: count, released: stats.counts[window]!.value))
                if let rate = stats.ratePer1000?[window] {
                    out.append(Statement(name: "\(name).rate.\(window.rawValue)", coefficients: count,
                                         released: rate.value.map { _ in stats.counts[window]!.value ?? -1 }))
                }
                if let p = Self.previousSegment[window] {
                    let previous = vector(areas: areas, segments: [p])
                    out.append(Statement(name: "\(name).previous.\(window.rawValue)", coefficients: previous, released: stats.previous[window]!.value))
                    out.append(Statement(name: "\(name).change.\(window.rawValue)", coefficients: zip(count, previous).map { $0 - $1 },
                                         released: stats.change[window]!.value))
                }
                for (g, group) in groups.enumerated() {
                    out.append(Statement(name: "\(name).groups.\(group).\(window.rawValue)",
                                         coefficients: vector(areas: areas, segments: Self.windowSegments[window]!, groups: [g]),
                                         released: stats.groups[group.name]![window]!.value))
                }
            }
        }
        for (a, id) in areaIDs.enumerated() { add(id, release.areas[id]!, areas: [a]) }
        add("total", release.total, areas: Array(areaIDs.indices))
        return out
    }

    /// Sets of cells an attacker would like to learn: every single cell, and per area (and for
    /// all areas together) every window, previous window, segment, and their group parts.
    var targets: [(name: String, coefficients: [Int])] {
        var out: [(String, [Int])] = []
        for a in areaIDs.indices { for s in 0..<5 { for g in 0..<groupSlots { out.append(("cell \(a)/\(s)/\(g)", vector(areas: [a], segments: [s], groups: [g]))) } } }
        let scopes = areaIDs.indices.map { ("area \($0)", [$0]) } + [("total", Array(areaIDs.indices))]
        for (name, areas) in scopes {
            var segmentSets = Self.windowSegments.values.map { $0 } + (0..<5).map { [$0] }
            segmentSets.append([1, 2]); segmentSets.append([3, 4]); segmentSets.append([1, 2, 3, 4])
            for segments in segmentSets {
                out.append(("\(name) segments \(segments)", vector(areas: areas, segments: segments)))
                for g in 0..<groupSlots { out.append(("\(name) segments \(segments) group \(g)", vector(areas: areas, segments: segments, groups: [g]))) }
            }
        }
        return out
    }

    func value(of coefficients: [Int]) -> Int { zip(coefficients, values).reduce(0) { $0 + $1.0 * $1.1 } }
}
