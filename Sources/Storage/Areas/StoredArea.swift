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

extension StoredArea {
    /// Stored properties read with the service's own JSON parser, nil when they are not one JSON
    /// object (the caller's `JSONDecoder` then says why): at 300,000 areas a `JSONDecoder` per
    /// row took a second of every start.
    public static func properties(_ text: String) -> [String: JSONValue]? {
        var text = text
        return text.withUTF8 { bytes in
            guard case .object(let members)? = try? JSONParser.parse(bytes) else { return nil }
            return members
        }
    }
}
