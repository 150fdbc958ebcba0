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
        let known = Set(areaIDs)
        var areas: [String: AreaStatistics] = [:]
        for id in known { areas[id] = AreaStatistics(denominator: denominators[id]) }
        var seenGroups = Set<BreakdownGroup>()
        for (key, count) in counters where key.layer == request.layer && key.basis == request.basis
            && (request.kind == nil || key.kind == request.kind) && count != 0 {
            guard key.status == .verified || key.status == .pending else { continue }
            if let group = key.group { seenGroups.insert(group) }
            guard known.contains(key.areaID), let segment = TimeSegment(daysBeforeEnd: request.end.days(since: key.day)) else { continue }
            if key.status == .verified {
                areas[key.areaID]!.verified[key.group, default: SegmentCounts()][segment] += count
            } else {
                areas[key.areaID]!.pending[segment] += count
            }
        }
        let groups = request.groups ?? seenGroups.sorted()
        return LayerStatistics(request: request, areaIDs: areaIDs, breakdownGroups: groups, areas: areas)
    }
}
