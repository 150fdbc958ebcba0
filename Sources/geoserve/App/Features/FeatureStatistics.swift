/// The statistics that features of one layer carry for one request, as JSON fragments: per
/// area the property members to add, and members for the collection (window, threshold, totals).
///
/// Produced only from the disclosure-controlled release for the caller's audience, so the
/// features never compute a number of their own.
struct FeatureStatistics: Sendable {
    /// Area id → property members (without braces).
    let areaMembers: [String: String]
    /// Foreign members of the FeatureCollection (without braces).
    let collectionMembers: String
    /// Whether the numbers depend on who asked (verifier audience): such responses are private.
    let isPrivate: Bool
}

/// Who the numbers are released to, from the caller's account.
enum StatisticsAudience: String, Sendable {
    case `public`, researcher, verifier
}
