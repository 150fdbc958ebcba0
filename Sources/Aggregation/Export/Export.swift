import DomainKernel

/// Builds researcher exports from counter cells.
public enum Export {
    /// The export table of `request`: verified counts per area (every id in `areaIDs`, sorted)
    /// and bucket, each count in 1..<k suppressed together with its rate, k being the
    /// researcher threshold of `control`'s policy.
    public static func table(_ request: ExportRequest, areaIDs: [String], counters: some Sequence<(CounterKey, Int)>,
                             denominators: [String: Double], control: DisclosureControl) -> ExportTable {
        let threshold = control.policy.threshold(for: .researcher)
        let ranges = request.bucket.ranges(from: request.from, to: request.to)
        let ids = Array(Set(areaIDs)).sorted()
        let first = ranges.first?.start, last = ranges.last?.end
        var counts: [String: [Day: Int]] = [:]
        let known = Set(ids)
        for (key, count) in counters where key.layer == request.layer && key.basis == request.basis
            && key.status == .verified && (request.kind == nil || key.kind == request.kind) && known.contains(key.areaID) {
            guard let first, let last, key.day >= first, key.day <= last else { continue }
            counts[key.areaID, default: [:]][request.bucket.start(of: key.day), default: 0] += count
        }
        var rows: [ExportTable.Row] = []
        for id in ids {
            for range in ranges {
                let n = counts[id]?[range.start] ?? 0
                let verified: Released<Int> = n == 0 || n >= threshold ? .value(n) : .suppressed
                let rate = AreaStatistics.releasedRate(denominator: denominators[id]).map { $0(verified) }
                rows.append(ExportTable.Row(areaID: id, bucketStart: range.start, bucketEnd: range.end, verified: verified, ratePer1000: rate))
            }
        }
        return ExportTable(request: request, threshold: threshold, rows: rows)
    }
}
