import DomainKernel

/// Raw, unreleased numbers of a layer: every area of it and the layer total. Only
/// `DisclosureControl.release` turns them into something that may be shown.
///
/// The areas' numbers are an array beside the sorted ids, not a dictionary by id: at 300,000
/// areas building, filling and walking dictionaries keyed by id was most of the verifiers' first
/// live view after a start (1.3 of 1.6 s, hashing the same ids four times over).
public struct LayerStatistics: Sendable {
    public let request: StatisticsRequest
    /// Every area of the layer, in id order (the order complementary suppression walks).
    public let areaIDs: [String]
    /// The groups counts are broken down by; other groups (and "") are in no breakdown.
    public let breakdownGroups: [BreakdownGroup]
    /// The numbers of `areaIDs[i]` at `values[i]`.
    public let values: [AreaStatistics]
    /// The layer total: the sum over the areas. Its denominator is the sum of the areas' only
    /// when every area has a positive one, so a rate never mixes covered and uncovered areas.
    public let total: AreaStatistics

    /// Creates the statistics; areas missing from `areas` count as zero.
    public init(request: StatisticsRequest, areaIDs: [String], breakdownGroups: [BreakdownGroup], areas: [String: AreaStatistics]) {
        let ids = Self.sortedUnique(areaIDs)
        self.init(request: request, sortedIDs: ids, breakdownGroups: breakdownGroups, values: ids.map { areas[$0] ?? AreaStatistics() })
    }

    /// `values[i]` for `sortedIDs[i]`, the ids ascending and unique.
    init(request: StatisticsRequest, sortedIDs: [String], breakdownGroups: [BreakdownGroup], values: [AreaStatistics]) {
        precondition(sortedIDs.count == values.count)
        self.request = request
        self.areaIDs = sortedIDs
        self.breakdownGroups = breakdownGroups
        self.values = values
        self.total = Self.sum(values)
    }

    /// The numbers of one area, nil for an id outside the layer.
    public subscript(area id: String) -> AreaStatistics? {
        var low = 0, high = areaIDs.count
        while low < high {
            let mid = (low + high) / 2
            if areaIDs[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low < areaIDs.count && areaIDs[low] == id ? values[low] : nil
    }

    /// The numbers per area id, built at each call: for tools and tests that want a dictionary.
    public var areas: [String: AreaStatistics] { Dictionary(uniqueKeysWithValues: zip(areaIDs, values)) }

    /// `ids` ascending without duplicates: as they are when they already are (a layer's ids
    /// usually are), which spares building a set and sorting 300,000 strings.
    static func sortedUnique(_ ids: [String]) -> [String] {
        var ascending = true
        for i in ids.indices.dropFirst() where !(ids[i - 1] < ids[i]) {
            ascending = false
            break
        }
        return ascending ? ids : Array(Set(ids)).sorted()
    }

    /// The total of `values`, groups summed in a short list rather than a dictionary: a layer
    /// has a handful of groups and hundreds of thousands of areas.
    private static func sum(_ values: [AreaStatistics]) -> AreaStatistics {
        var groups: [BreakdownGroup?] = [], counts: [SegmentCounts] = []
        var pending = SegmentCounts()
        var denominator = TotalDenominator()
        for area in values {
            for (group, segmentCounts) in area.verified {
                if let i = groups.firstIndex(of: group) {
                    counts[i].add(segmentCounts, times: 1)
                } else {
                    groups.append(group)
                    counts.append(segmentCounts)
                }
            }
            pending.add(area.pending, times: 1)
            denominator.add(area.denominator)
        }
        return AreaStatistics(verified: Dictionary(uniqueKeysWithValues: zip(groups, counts)), pending: pending, denominator: denominator.value)
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
