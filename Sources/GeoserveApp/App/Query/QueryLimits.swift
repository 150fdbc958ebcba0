/// The values the query table declares and its parsers use, kept beside the table so that it
/// reads nothing from the handlers it serves.
package enum QueryLimits {
    /// Features per page when none is asked for, and at most (OGC API – Features clamps above).
    static let defaultFeatures = 100
    static let maxFeatures = 10_000
    /// The statistics a tile can draw.
    package static let tileMetrics = ["verified_7d", "verified_14d", "verified_28d", "verified_all", "rate_7d", "rate_14d", "rate_28d", "rate_all"]
    /// A misconduct search circle's radius in metres: smaller circles would let repeated searches
    /// close in on a report's exact location.
    static let searchRadius = 250.0...50_000.0
}
