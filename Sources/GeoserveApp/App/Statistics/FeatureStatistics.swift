import Aggregation

/// The statistics that features of one layer carry for one request, as JSON fragments: per
/// area the property members to add, and members for the collection (window, threshold, totals);
/// the released numbers themselves for the HTML pages.
///
/// Made only from the disclosure-controlled release for the caller's audience, so features
/// never compute a number of their own.
struct FeatureStatistics: Sendable {
    /// Area id → the released numbers the members are written from.
    let released: ReleasedAreas
    /// The property names and order the members follow.
    let flat: FlatStatistics
    /// Foreign members of the FeatureCollection (without braces).
    let collectionMembers: String
    /// Whether the numbers depend on who asked (researchers, verifiers): such responses are private.
    let isPrivate: Bool
    /// What the numbers are, in a sentence for the HTML pages.
    let caption: String

    /// An area's property members (without braces), written when a page asks for the area: a
    /// page of 10 features out of 300,000 writes 10, not the layer.
    func members(of id: String) -> String? {
        released[id].map(flat.members)
    }
}
