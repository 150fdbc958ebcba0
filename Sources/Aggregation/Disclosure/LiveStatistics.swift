import DomainKernel

/// A release with nothing suppressed (k = 1: the verifiers' live view), kept as the raw numbers
/// it comes from: an area's released numbers are made when it is asked for, and a change to a
/// few areas is released by recomputing those areas and adjusting the total, not the whole
/// layer: at 300,000 areas the whole layer takes seconds, a verification's area a fraction of a
/// millisecond.
///
/// With k = 1 an area's released numbers depend on its own cells alone and the total's on the
/// sum over the areas. With k > 1 complementary suppression ties every area to the others, so
/// such releases are not kept this way (`init` returns nil) and are recomputed whole.
public struct LiveStatistics: Sendable {
    /// The release, equal to `DisclosureControl.release` of the same numbers computed whole.
    public let released: ReleasedLayerStatistics
    private let raw: AreaMap<AreaStatistics>
    private let rawTotal: AreaStatistics
    private let release: UnsuppressedRelease

    /// Keeps `stats` to release them; nil when the audience's k is above 1 or the breakdown
    /// groups are not fixed by the request (they would depend on every area's cells).
    public init?(_ stats: LayerStatistics, control: DisclosureControl, audience: Audience) {
        guard control.policy.threshold(for: audience) == 1, stats.request.groups != nil else { return nil }
        self.init(request: stats.request, raw: AreaMap(keys: stats.areaIDs, values: stats.values), rawTotal: stats.total,
                  release: UnsuppressedRelease(groups: DisclosureControl.uniqueGroups(stats.breakdownGroups), audience: audience))
    }

    private init(request: StatisticsRequest, raw: AreaMap<AreaStatistics>, rawTotal: AreaStatistics, release: UnsuppressedRelease) {
        self.raw = raw
        self.rawTotal = rawTotal
        self.release = release
        released = ReleasedLayerStatistics(request: request, audience: release.audience, threshold: 1,
                                           areas: ReleasedAreas(unsuppressed: raw, release), total: release.release(rawTotal))
    }

    /// These statistics with the areas in `areaIDs` recomputed from `cells`, which must hold every
    /// current cell of those areas (an area without any is all zero). Ids outside the layer are
    /// ignored, as a full computation ignores them.
    public func updating(areaIDs: [String], cells: some Sequence<(CounterKey, Int)>) -> LiveStatistics {
        let known = areaIDs.filter { self.raw[$0] != nil }
        guard !known.isEmpty else { return self }
        var denominators: [String: Double] = [:]
        for id in known { if let d = self.raw[id]!.denominator { denominators[id] = d } }
        let fresh = Statistics.compute(released.request, areaIDs: known, counters: cells, denominators: denominators)
        var raw = self.raw, total = rawTotal
        for (id, area) in zip(fresh.areaIDs, fresh.values) {
            total.add(raw[id]!, times: -1)
            total.add(area, times: 1)
            raw[id] = area
        }
        return LiveStatistics(request: released.request, raw: raw, rawTotal: total, release: release)
    }
}

extension LiveStatistics {
    /// About the bytes these statistics hold, for byte-bounded caches: per area its raw numbers
    /// (a dictionary of counts per group, pending counts) in the map's tables, which the release
    /// shares: 316 bytes an area with one breakdown group, 95 MB at 300,000 areas. (Holding a
    /// release beside them took 388 MB of heap there.)
    public var approximateBytes: Int { released.approximateBytes }
}
