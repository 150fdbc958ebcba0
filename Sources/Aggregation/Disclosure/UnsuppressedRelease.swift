import DomainKernel

/// Releases areas one at a time with nothing suppressed (k = 1): with no suppression an area's
/// released numbers depend on its own cells alone, so each is what `DisclosureControl.release`
/// gives that area when k = 1. The live view releases an area when it is asked for, the
/// published view the few areas with blocks.
struct UnsuppressedRelease: Sendable {
    let groups: [BreakdownGroup]
    let audience: Audience
    private let numbers: [PublishedNumber]
    private let slots: GroupSlots

    /// - Parameter groups: the breakdown groups, without duplicates.
    init(groups: [BreakdownGroup], audience: Audience) {
        self.groups = groups
        self.audience = audience
        numbers = PublishedNumber.all(groupCount: groups.count)
        slots = GroupSlots(groups)
    }

    /// The released numbers of one area (or of a total, given the sum of the areas).
    func release(_ stats: AreaStatistics) -> ReleasedAreaStatistics {
        let grid = CellGrid(areaCount: 1, groupCount: groups.count + 1)
        var counts = [Int](repeating: 0, count: grid.cellCount)
        slots.add(stats, area: 0, grid: grid, to: &counts)
        return AreaRelease(grid: grid, counts: counts, groups: groups, numbers: numbers, plan: nil, audience: audience).area(0, stats)
    }
}
