import DomainKernel

/// The public numbers of one layer at one publication, built from released blocks and nothing
/// else: each block counts for its class's area in the layer on the day it counts on, and the
/// windows, previous windows, changes, rates and the layer total are the usual sums of those.
/// Every number shown is thus a sum of whole blocks, and none is withheld: protection happened
/// when the blocks were released.
public enum PublishedStatistics {
    /// The released statistics of `layer` for `kind`, windows ending on `end`.
    ///
    /// - Parameters:
    ///   - blocks: every block released up to and including the publication shown (others must
    ///     be left out by the caller).
    ///   - threshold: the k the publication protects with, reported beside the numbers.
    public static func release(layer: String, kind: ReportKind, end: Day, areaIDs: [String], blocks: some Sequence<PublishedBlock>,
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
            let key = CounterKey(layer: layer, areaID: area, kind: kind, status: .verified, basis: Self.basis, day: block.day, group: "")
            cells[key, default: 0] += block.value
        }
        return cells.map { ($0.key, $0.value) }
    }

    /// The basis the counter cells above are filed under: a block counts on the day it was
    /// released, which for a line with reports every day is the day they were verified.
    public static let basis = TimeBasis.verified
}
