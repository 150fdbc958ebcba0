import DomainKernel

/// Raw, unreleased numbers of a layer: every area of it and the layer total. Only
/// `DisclosureControl.release` turns them into something that may be shown.
public struct LayerStatistics: Sendable {
    public let request: StatisticsRequest
    /// Every area of the layer, in id order (the order complementary suppression walks).
    public let areaIDs: [String]
    /// The groups counts are broken down by; other groups (and "") are in no breakdown.
    public let breakdownGroups: [BreakdownGroup]
    /// The numbers per area id, one entry for every id in `areaIDs`.
    public let areas: [String: AreaStatistics]

    /// Creates the statistics; areas missing from `areas` count as zero.
    public init(request: StatisticsRequest, areaIDs: [String], breakdownGroups: [BreakdownGroup], areas: [String: AreaStatistics]) {
        self.request = request
        self.areaIDs = Array(Set(areaIDs)).sorted()
        self.breakdownGroups = breakdownGroups
        var filled: [String: AreaStatistics] = [:]
        for id in self.areaIDs { filled[id] = areas[id] ?? AreaStatistics() }
        self.areas = filled
    }

    /// The layer total: the sum over `areaIDs`. Its denominator is the sum of the areas' only
    /// when every area has a positive one, so a rate never mixes covered and uncovered areas.
    public var total: AreaStatistics {
        var total = AreaStatistics()
        var denominator = TotalDenominator()
        for id in areaIDs {
            let area = areas[id]!
            for (group, counts) in area.verified { total.verified[group] = (total.verified[group] ?? SegmentCounts()) + counts }
            total.pending = total.pending + area.pending
            denominator.add(area.denominator)
        }
        total.denominator = denominator.value
        return total
    }
}

/// A layer total's denominator, area by area in the layer's order: the sum of the areas' only
/// when every area has a positive one, so a rate never mixes covered and uncovered areas; none
/// for a layer without areas.
struct TotalDenominator {
    private var sum: Double? = 0
    private var areas = 0

    mutating func add(_ denominator: Double?) {
        areas += 1
        if let d = denominator, d > 0, let s = sum { sum = s + d } else { sum = nil }
    }

    var value: Double? { areas == 0 ? nil : sum }
}
