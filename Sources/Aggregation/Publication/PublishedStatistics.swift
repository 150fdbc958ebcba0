import DomainKernel

/// The public numbers of one layer at one publication, built from released blocks and nothing
/// else: each block counts for its class's area in the layer on the day it counts on, and the
/// windows, previous windows, changes, rates and the layer total are the usual sums of those.
/// Every number shown is thus a sum of whole blocks, and none is withheld: protection happened
/// when the blocks were released.
public enum PublishedStatistics {
    /// The released statistics of `layer` for `kind`, windows ending on `end`: the areas with a
    /// block computed, and one zero value for all the others (two when the layer's
    /// denominators make some zeros carry a rate of 0 and others none), since with nothing
    /// withheld at this point each area's numbers are its own. At 300,000 areas, of which a few
    /// hundred have reports, computing and holding every area took about a second and 181 MB
    /// per release; the first request after each publication paid it. `releaseWhole` computes
    /// every area as the same numbers; the tests hold the two equal.
    ///
    /// - Parameters:
    ///   - areaIDs: the layer's areas, in the order the total's denominator is summed in.
    ///   - blocks: every block released up to and including the publication shown (others must
    ///     be left out by the caller).
    ///   - threshold: the k the publication protects with, reported beside the numbers.
    public static func release(layer: String, kind: ReportKind, end: Day, areaIDs: [String], blocks: some Sequence<PublishedBlock>,
                               denominators: [String: Double], threshold: Int, audience: Audience) -> ReleasedLayerStatistics {
        let cells = Self.cells(layer: layer, kind: kind, blocks: blocks.lazy.filter { $0.day <= end })
        let request = StatisticsRequest(layer: layer, kind: kind, basis: Self.basis, end: end, groups: [])
        let blocked = Set(cells.lazy.map(\.0.areaID))
        // One walk in the layer's order: the areas with blocks, the zeros with and without a
        // rate, and the total's denominator as `LayerStatistics.total` sums it.
        var counted: [String] = [], zerosWithRate: [String] = [], zerosWithoutRate: [String] = []
        var denominator = TotalDenominator()
        for id in areaIDs {
            let d = denominators.isEmpty ? nil : denominators[id]
            denominator.add(d)
            if blocked.contains(id) {
                counted.append(id)
            } else if AreaStatistics.hasUsableDenominator(d) {
                zerosWithRate.append(id)
            } else {
                zerosWithoutRate.append(id)
            }
        }
        let stats = Statistics.compute(request, areaIDs: counted, counters: cells, denominators: denominators)
        // The areas without blocks add nothing to the total's counts, but their denominators.
        var total = stats.total
        total.denominator = denominator.value
        // With k = 1 nothing is suppressed and every number is released as it is, so each area,
        // the two zeros and the total are released on their own (as the live view releases the
        // areas a change touched).
        let computed = stats.values
        let released = DisclosureControl.releaseEach(computed + [AreaStatistics(denominator: 1), AreaStatistics(), total],
                                                     groups: DisclosureControl.uniqueGroups(stats.breakdownGroups), audience: audience)
        let withRate = released[computed.count], withoutRate = released[computed.count + 1]
        // The more common zero is the map's fallback; the other is held per area.
        let ratesCommon = zerosWithRate.count > zerosWithoutRate.count
        let (held, heldValue) = ratesCommon ? (zerosWithoutRate, withoutRate) : (zerosWithRate, withRate)
        var areas = AreaMap<ReleasedAreaStatistics>(minimumCapacity: counted.count + held.count,
                                                    fallback: counted.count < areaIDs.count ? (ratesCommon ? withRate : withoutRate) : nil)
        for (i, id) in stats.areaIDs.enumerated() { areas[id] = released[i] }
        for id in held { areas[id] = heldValue }
        return ReleasedLayerStatistics(request: stats.request, audience: audience, threshold: threshold, areas: areas, total: released[computed.count + 2])
    }

    /// The same release computed for every area of the layer, as `DisclosureControl` releases
    /// a layer: the reference `release` is checked against.
    static func releaseWhole(layer: String, kind: ReportKind, end: Day, areaIDs: [String], blocks: some Sequence<PublishedBlock>,
                             denominators: [String: Double], threshold: Int, audience: Audience) -> ReleasedLayerStatistics {
        let cells = Self.cells(layer: layer, kind: kind, blocks: blocks.lazy.filter { $0.day <= end })
        let request = StatisticsRequest(layer: layer, kind: kind, basis: Self.basis, end: end, groups: [])
        let stats = Statistics.compute(request, areaIDs: areaIDs, counters: cells, denominators: denominators)
        let shown = DisclosureControl(policy: DisclosurePolicy(thresholds: [audience: 1])).release(stats, for: audience)
        return ReleasedLayerStatistics(request: shown.request, audience: audience, threshold: threshold, areas: shown.areas, total: shown.total)
    }

    /// The blocks of `kind` as counter cells of `layer`'s areas (verified, `basis`, no group), one
    /// per area and day: what statistics and exports are computed from.
    public static func cells(layer: String, kind: ReportKind, blocks: some Sequence<PublishedBlock>) -> [(CounterKey, Int)] {
        var cells: [CounterKey: Int] = [:]
        var areaOf: [AreaClass: String?] = [:]
        for block in blocks where block.key.kind == kind {
            let area: String?
            if let known = areaOf[block.key.areaClass] {
                area = known
            } else {
                area = block.key.areaClass.area(in: layer)
                areaOf[block.key.areaClass] = area
            }
            guard let area else { continue }
            let key = CounterKey(layer: layer, areaID: area, kind: kind, status: .verified, basis: Self.basis, day: block.day, group: nil)
            cells[key, default: 0] += block.value
        }
        return cells.map { ($0.key, $0.value) }
    }

    /// The basis the counter cells above are filed under: a block counts on the day it was
    /// released, which for a line with reports every day is the day they were verified.
    public static let basis = TimeBasis.verified
}
