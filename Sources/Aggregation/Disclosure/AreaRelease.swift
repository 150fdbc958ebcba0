import DomainKernel

/// Turns the chosen plan into the released numbers of each area and of the layer total, reading
/// values from the dense cell counts (no per-area dictionaries of raw counts are summed again).
struct AreaRelease {
    let grid: CellGrid
    let counts: [Int]
    let groups: [BreakdownGroup]
    let numbers: [PublishedNumber]
    /// nil: nothing is suppressed (k = 1).
    let plan: SuppressionPlan?
    let audience: Audience

    /// The released numbers of the area with index `area`.
    func area(_ area: Int, _ stats: AreaStatistics) -> ReleasedAreaStatistics {
        release(cells: counts, from: grid.cell(area: area, segment: 0, group: 0), area: area, stats)
    }

    /// The released numbers of the layer total (`stats` is `LayerStatistics.total`).
    func total(_ stats: AreaStatistics) -> ReleasedAreaStatistics {
        var cells = [Int](repeating: 0, count: CellGrid.segmentCount * grid.groupCount)
        for area in 0..<grid.areaCount {
            let base = grid.cell(area: area, segment: 0, group: 0)
            for i in cells.indices { cells[i] += counts[base + i] }
        }
        return release(cells: cells, from: 0, area: nil, stats)
    }

    /// `cells[base...]`: one area's (or the total's) counts by segment × group. Dictionaries are
    /// sized up front: a 20,000-area layer builds hundreds of thousands of them.
    private func release(cells: [Int], from base: Int, area: Int?, _ stats: AreaStatistics) -> ReleasedAreaStatistics {
        let width = grid.groupCount
        func value(_ n: PublishedNumber) -> Int {
            var sum = 0
            for segment in 0..<CellGrid.segmentCount where n.segments & 1 << UInt8(segment) != 0 {
                let row = base + segment * width
                if let g = n.group { sum += cells[row + g] } else { for g in 0..<width { sum += cells[row + g] } }
            }
            return sum
        }
        let windows = Window.allCases.count
        var counts = WindowValues<Released<Int>>(minimumCapacity: windows), previous = WindowValues<Released<Int>>(minimumCapacity: windows)
        var change = WindowValues<Released<Int>>(minimumCapacity: windows)
        var byGroup = [WindowValues<Released<Int>>](repeating: WindowValues<Released<Int>>(minimumCapacity: windows), count: groups.count)
        for n in numbers {
            let shown: Released<Int> = plan.map { $0.isPublishable(area: area, segments: n.segments, group: n.group) } ?? true
                ? .value(value(n)) : .suppressed
            switch n.role {
            case .count(let w): counts[w] = shown
            case .previous(let w): previous[w] = shown
            case .group(let w, let g): byGroup[g][w] = shown
            }
        }
        for (window, before) in previous {
            if case .value(let now) = counts[window]!, case .value(let then) = before { change[window] = .value(now - then) } else { change[window] = .suppressed }
        }
        var groupCounts = [String: WindowValues<Released<Int>>](minimumCapacity: groups.count)
        for (g, group) in groups.enumerated() { groupCounts[group.name] = byGroup[g] }
        let rates = AreaStatistics.releasedRate(denominator: stats.denominator).map { counts.mapValues($0) }
        var pending: WindowValues<Int>?
        if audience == .verifier {
            var p = WindowValues<Int>(minimumCapacity: windows)
            for window in Window.allCases { p[window] = stats.pendingCount(window) }
            pending = p
        }
        return ReleasedAreaStatistics(counts: counts, previous: previous, change: change, ratePer1000: rates,
                                      pending: pending, groups: groupCounts)
    }
}
