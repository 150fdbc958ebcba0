import DomainKernel

/// Turns counter cells into the raw statistics of one layer.
public enum Statistics {
    /// Sums the counters of `request.layer` (and kind, basis) into per-segment counts per area.
    ///
    /// - Parameters:
    ///   - areaIDs: every area of the layer; areas without counters get zeros, counters of areas
    ///     not listed (e.g. left over from an older layer version) are ignored, so the layer total
    ///     is exactly the sum of the listed areas.
    ///   - counters: counter cells, of any layers; days after `request.end` are ignored.
    ///   - denominators: capacity or population per area id, for rates per 1,000.
    public static func compute(_ request: StatisticsRequest, areaIDs: [String], counters: some Sequence<(CounterKey, Int)>,
                               denominators: [String: Double]) -> LayerStatistics {
        let ids = LayerStatistics.sortedUnique(areaIDs)
        // One hash of each id to find its position, one per counter cell to find its area.
        var position = [String: Int](minimumCapacity: ids.count)
        for (i, id) in ids.enumerated() { position[id] = i }
        var values = denominators.isEmpty
            ? [AreaStatistics](repeating: AreaStatistics(), count: ids.count)
            : ids.map { AreaStatistics(denominator: denominators[$0]) }
        var seenGroups = Set<BreakdownGroup>()
        let collectGroups = request.groups == nil
        for (key, count) in counters where key.layer == request.layer && key.basis == request.basis
            && (request.kind == nil || key.kind == request.kind) && count != 0 {
            guard key.status == .verified || key.status == .pending else { continue }
            if collectGroups, let group = key.group { seenGroups.insert(group) }
            guard let i = position[key.areaID], let segment = TimeSegment(daysBeforeEnd: request.end.days(since: key.day)) else { continue }
            if key.status == .verified {
                values[i].verified[key.group, default: SegmentCounts()][segment] += count
            } else {
                values[i].pending[segment] += count
            }
        }
        let groups = request.groups ?? seenGroups.sorted()
        return LayerStatistics(request: request, sortedIDs: ids, breakdownGroups: groups, values: values)
    }
}
