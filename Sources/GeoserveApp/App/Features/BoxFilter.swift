import GeoCore

/// A `bbox` query: one box, or two when it crosses the antimeridian (west > east).
struct BoxFilter: Hashable, Sendable {
    let boxes: [BoundingBox]
    /// The box as given, for links.
    let original: BoundingBox
}
