/// The only way statistics leave the module: applies the audience's threshold k with primary
/// and complementary suppression (see `SuppressionPlan` for the guarantee and its limits), and
/// derives changes and rates only from numbers that are shown.
public struct DisclosureControl: Sendable {
    public let policy: DisclosurePolicy

    /// Creates the control for a policy.
    public init(policy: DisclosurePolicy = .default) {
        self.policy = policy
    }

    /// Releases one layer's statistics to an audience: every area (zeros included) and the layer
    /// total, all protected together. Pending counts are included for verifiers only.
    public func release(_ stats: LayerStatistics, for audience: Audience) -> ReleasedLayerStatistics {
        let threshold = policy.threshold(for: audience)
        let groups = Self.uniqueGroups(stats.breakdownGroups)
        let residual = groups.count
        let groupIndex = Dictionary(uniqueKeysWithValues: groups.enumerated().map { ($1, $0) })

        var cellCounts: [AtomicCell: Int] = [:]
        for (areaIndex, id) in stats.areaIDs.enumerated() {
            for (group, counts) in stats.areas[id]!.verified {
                for segment in TimeSegment.allCases where counts[segment] != 0 {
                    cellCounts[AtomicCell(area: areaIndex, segment: segment, group: groupIndex[group] ?? residual), default: 0] += counts[segment]
                }
            }
        }
        let plan = SuppressionPlan(counts: cellCounts, threshold: threshold)
        let layout = CellLayout(groupCount: groups.count + 1)

        var areas: [String: ReleasedAreaStatistics] = [:]
        for (areaIndex, id) in stats.areaIDs.enumerated() {
            areas[id] = release(stats.areas[id]!, groups: groups, cells: layout, areaIndices: [areaIndex], plan: plan, audience: audience)
        }
        let total = release(stats.total, groups: groups, cells: layout, areaIndices: Array(stats.areaIDs.indices), plan: plan, audience: audience)
        return ReleasedLayerStatistics(request: stats.request, audience: audience, threshold: threshold, areas: areas, total: total)
    }

    private func release(_ area: AreaStatistics, groups: [String], cells: CellLayout, areaIndices: [Int],
                         plan: SuppressionPlan, audience: Audience) -> ReleasedAreaStatistics {
        func shown(_ value: Int, _ segments: [TimeSegment], groups: [Int]? = nil) -> Released<Int> {
            plan.isPublishable(cells.cells(areas: areaIndices, segments: segments, groups: groups)) ? .value(value) : .suppressed
        }
        var counts: [Window: Released<Int>] = [:], previous: [Window: Released<Int>] = [:], change: [Window: Released<Int>] = [:]
        var rates: [Window: Released<Double>] = [:], pending: [Window: Int] = [:]
        var groupCounts: [String: [Window: Released<Int>]] = [:]
        for window in Window.allCases {
            let count = shown(area.count(window), window.segments)
            counts[window] = count
            if let segment = window.previousSegment, let before = area.previous(window) {
                let prior = shown(before, [segment])
                previous[window] = prior
                if case .value(let now) = count, case .value(let then) = prior { change[window] = .value(now - then) } else { change[window] = .suppressed }
            }
            if AreaStatistics.rate(count: 0, denominator: area.denominator) != nil {
                rates[window] = count.map { AreaStatistics.rate(count: $0, denominator: area.denominator)! }
            }
            pending[window] = area.pendingCount(window)
            for (index, group) in groups.enumerated() {
                groupCounts[group, default: [:]][window] = shown(area.count(group: group, window), window.segments, groups: [index])
            }
        }
        return ReleasedAreaStatistics(counts: counts, previous: previous, change: change,
                                      ratePer1000: rates.isEmpty ? nil : rates,
                                      pending: audience == .verifier ? pending : nil, groups: groupCounts)
    }

    /// Breakdown groups without duplicates or the empty group, first occurrence kept.
    static func uniqueGroups(_ groups: [String]) -> [String] {
        var seen = Set<String>()
        return groups.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}

/// The atomic cells a published number sums over.
struct CellLayout {
    let groupCount: Int

    /// Cells of the given areas and segments, for some groups or (nil) all of them.
    func cells(areas: [Int], segments: [TimeSegment], groups: [Int]?) -> Set<AtomicCell> {
        var out = Set<AtomicCell>()
        for area in areas {
            for segment in segments {
                for group in groups ?? Array(0..<groupCount) { out.insert(AtomicCell(area: area, segment: segment, group: group)) }
            }
        }
        return out
    }
}
