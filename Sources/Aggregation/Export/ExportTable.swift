import DomainKernel

/// An export as released to researchers: one row per area × bucket, zeros included, ordered
/// by area id then bucket start. Rows are disjoint cells and there are no total rows, so
/// suppressing each small cell on its own is complete: no published number is a sum of others.
public struct ExportTable: Sendable, Hashable {
    /// One area in one bucket.
    public struct Row: Sendable, Hashable {
        public let areaID: String
        public let bucketStart: Day
        /// Inclusive last day of the bucket.
        public let bucketEnd: Day
        public let verified: Released<Int>
        /// nil when the area has no positive denominator.
        public let ratePer1000: Released<Double>?
    }

    public let request: ExportRequest
    /// The k applied to every row.
    public let threshold: Int
    public let rows: [Row]

    /// The CSV columns, in order.
    public static let columns = ["area_id", "bucket_start", "bucket_end", "verified", "rate_per_1000", "suppressed"]

    /// What each column holds and in which unit.
    public static let units: [String: String] = [
        "area_id": "area identifier within the layer",
        "bucket_start": "first day of the bucket, ISO 8601 date",
        "bucket_end": "last day of the bucket (inclusive), ISO 8601 date",
        "verified": "verified reports in the bucket; empty when suppressed",
        "rate_per_1000": "verified reports per 1,000 of the area's capacity or population, 3 decimals; empty when suppressed or without a denominator",
        "suppressed": "true when the count (and so the rate) is withheld because it is between 1 and the threshold minus 1",
    ]
}
