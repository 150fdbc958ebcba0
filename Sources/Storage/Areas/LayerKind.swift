import Foundation

/// What a layer holds.
public enum LayerKind: String, Codable, Hashable, Sendable {
    /// Polygons and multipolygons: residence halls, zones, community areas.
    case areas
    /// Points: testing sites and other places for nearest-feature queries.
    case points
}
