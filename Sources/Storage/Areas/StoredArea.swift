import GeoCore

/// One feature of a layer as stored: id, display name, public properties and geometry.
public struct StoredArea: Hashable, Sendable {
    public let id: String
    public let name: String?
    /// Public properties (e.g. `capacity`); never personal data.
    public let properties: [String: JSONValue]
    /// Polygon / MultiPolygon for area layers, Point for point layers.
    public let geometry: Geometry

    public init(id: String, name: String?, properties: [String: JSONValue], geometry: Geometry) {
        self.id = id
        self.name = name
        self.properties = properties
        self.geometry = geometry
    }
}
