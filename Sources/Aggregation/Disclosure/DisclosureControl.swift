import DomainKernel

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
    ///
    /// Counts are laid out in a dense `CellGrid` once; with k = 1 nothing can be suppressed, so
    /// no plan is built at all. Otherwise both merge orders are planned, scored without building
    /// any output, and only the better one is turned into released numbers.
    public func release(_ stats: LayerStatistics, for audience: Audience) -> ReleasedLayerStatistics {
        let threshold = policy.threshold(for: audience)
        let groups = Self.uniqueGroups(stats.breakdownGroups)
        let grid = CellGrid(areaCount: stats.areaIDs.count, groupCount: groups.count + 1)
        let areaStats = stats.values
        let counts = Self.cellCounts(areaStats, groups: groups, grid: grid)
        let numbers = PublishedNumber.all(groupCount: groups.count)

        var plan: SuppressionPlan?
        if threshold > 1 {
            var best = -1
            for order in SuppressionPlan.MergeOrder.allCases {
                let candidate = SuppressionPlan(grid: grid, counts: counts, threshold: threshold, order: order)
                let score = Self.score(candidate, numbers)
                if score > best { (plan, best) = (candidate, score) }
            }
        }
        let released = AreaRelease(grid: grid, counts: counts, groups: groups, numbers: numbers, plan: plan, audience: audience)
        var areas = AreaMap<ReleasedAreaStatistics>(minimumCapacity: stats.areaIDs.count)
        for (index, id) in stats.areaIDs.enumerated() {
            areas[id] = released.area(index, areaStats[index])
        }
        let total = released.total(stats.total)
        return ReleasedLayerStatistics(request: stats.request, audience: audience, threshold: threshold, areas: areas, total: total)
    }

    /// Each of `areas` released on its own with nothing suppressed, as `release` releases every
    /// area (and, given the sum of the areas, the total) when k = 1.
    static func releaseEach(_ areas: [AreaStatistics], groups: [BreakdownGroup], audience: Audience) -> [ReleasedAreaStatistics] {
        let release = UnsuppressedRelease(groups: groups, audience: audience)
        return areas.map(release.release)
    }

    /// The verified counts per cell (`areas` in id order): breakdown groups by their index, every other group
    /// (including "") in the residual slot.
    static func cellCounts(_ areas: [AreaStatistics], groups: [BreakdownGroup], grid: CellGrid) -> [Int] {
        let slots = GroupSlots(groups)
        var counts = [Int](repeating: 0, count: grid.cellCount)
        for (area, stats) in areas.enumerated() { slots.add(stats, area: area, grid: grid, to: &counts) }
        return counts
    }

    /// How much a release shows: one point per shown area number (counts, previous windows,
    /// groups), and as many for each shown total number as there are areas, since the layer total
    /// is the headline of every view. Either plan is safe; this only picks the more useful one
    /// (the first on a tie).
    static func score(_ plan: SuppressionPlan, _ numbers: [PublishedNumber]) -> Int {
        var score = 0
        for area in 0..<plan.grid.areaCount {
            for n in numbers where plan.isPublishable(area: area, segments: n.segments, group: n.group) { score += 1 }
        }
        let totalShown = numbers.filter { plan.isPublishable(area: nil, segments: $0.segments, group: $0.group) }.count
        return score + max(1, plan.grid.areaCount) * totalShown
    }

    /// Breakdown groups without duplicates, first occurrence kept.
    static func uniqueGroups(_ groups: [BreakdownGroup]) -> [BreakdownGroup] {
        var seen = Set<BreakdownGroup>()
        return groups.filter { seen.insert($0).inserted }
    }
}

/// Which cell slot a report's group counts in: each breakdown group by its index, every other
/// group (including none) in the residual slot after them.
struct GroupSlots: Sendable {
    private let index: [BreakdownGroup: Int]
    private let residual: Int

    init(_ groups: [BreakdownGroup]) {
        index = Dictionary(uniqueKeysWithValues: groups.enumerated().map { ($1, $0) })
        residual = groups.count
    }

    /// Adds one area's verified counts to its cells of `counts`.
    func add(_ stats: AreaStatistics, area: Int, grid: CellGrid, to counts: inout [Int]) {
        for (group, segmentCounts) in stats.verified {
            let slot = group.flatMap { index[$0] } ?? residual
            for segment in TimeSegment.allCases {
                counts[grid.cell(area: area, segment: segment.rawValue, group: slot)] += segmentCounts[segment]
            }
        }
    }
}
