/// The only way statistics leave the module: applies the audience's threshold k with primary
/// and complementary suppression, and derives changes and rates only from numbers that are shown.
///
/// ## How
/// Every number of a release (per area and for the layer total: the windows 7d ⊂ 14d ⊂ 28d ⊂
/// all, the previous windows, the group breakdown) is a sum of atomic cells: area × time segment
/// (days 0–6, 7–13, 14–27, 28–55, 56+ before the end day) × group (each breakdown group, plus one
/// for all other reports). The positive cells are partitioned into blocks, merged greedily until
/// each totals at least k and, if it has several cells, holds one of at least 2; a block that
/// cannot be made so is withheld. Two merge orders are tried — small cells joined with other
/// times of the same area (keeps area numbers) or with other areas at the same time (keeps the
/// layer total's windows) — and the release that shows more is used, each shown total number
/// weighing as much as one number of every area (`score`). A number
/// is shown exactly when its cells are a union of whole released blocks; zero cells are blocks of
/// their own, so zeros are shown as true zeros. Primary and complementary suppression are the
/// same rule, so the two look alike.
///
/// ## Guarantee (within one release)
/// 1. Linear: every linear combination of shown numbers — differences of nested windows, total
///    minus other areas, an area minus its groups, … — is constant on each block, so it is a sum
///    of released block totals, each ≥ k. No set of cells whose count is in 1..<k has a count
///    derivable this way.
/// 2. Intervals: every suppressed number has at least two values consistent with the shown
///    numbers, nonnegative cells and "every suppressed number is ≥ 1" (true, zeros being shown):
///    it either cuts a released block holding a cell ≥ 2 (move one report inside the block: it
///    changes, nothing shown does, no suppressed number drops below 1) or contains a withheld cell
///    (which can grow without changing anything shown).
/// 3. A suppressed count also suppresses its change and rate; a rate appears only with its count.
///
/// ## Limits
/// - Only one release is covered. Releases with different `end` days, kinds, bases or audiences,
///   or a release next to an export, can be differenced outside this guarantee; callers serve
///   one `end` per data version and keep researcher exports to whole buckets.
/// - (2) promises "not a single value", not a wide range: an attacker may learn that a suppressed
///   number is, say, 1 or 2.
/// - What is suppressed depends on the data; an attacker who reruns this algorithm on candidate
///   tables may learn more than linear and interval reasoning gives.
/// - With `StatisticsRequest.groups` nil, the list of groups reveals which groups occur at all.
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
        let layout = CellLayout(groupCount: groups.count + 1)
        let candidates = SuppressionPlan.MergeOrder.allCases.map { order in
            let plan = SuppressionPlan(counts: cellCounts, threshold: threshold, order: order)
            var areas: [String: ReleasedAreaStatistics] = [:]
            for (areaIndex, id) in stats.areaIDs.enumerated() {
                areas[id] = release(stats.areas[id]!, groups: groups, cells: layout, areaIndices: [areaIndex], plan: plan, audience: audience)
            }
            let total = release(stats.total, groups: groups, cells: layout, areaIndices: Array(stats.areaIDs.indices), plan: plan, audience: audience)
            return (areas: areas, total: total)
        }
        let best = candidates.max { Self.score($0.areas, $0.total) < Self.score($1.areas, $1.total) }!
        return ReleasedLayerStatistics(request: stats.request, audience: audience, threshold: threshold, areas: best.areas, total: best.total)
    }

    /// How much a release shows: one point per shown area number, and as many for each shown
    /// total number as there are areas, since the layer total is the headline of every view.
    /// Either candidate is safe; this only picks the more useful one (the first on a tie).
    static func score(_ areas: [String: ReleasedAreaStatistics], _ total: ReleasedAreaStatistics) -> Int {
        func shown(_ stats: ReleasedAreaStatistics) -> Int {
            let numbers = Array(stats.counts.values) + Array(stats.previous.values) + stats.groups.values.flatMap(\.values)
            return numbers.filter { !$0.isSuppressed }.count
        }
        return areas.values.reduce(0) { $0 + shown($1) } + max(1, areas.count) * shown(total)
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
