import Support

/// A feature identifier: RFC 7946 allows a string or a number.
public enum FeatureID: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    case number(Double)

    public var description: String {
        switch self {
        case .string(let s): return s
        case .number(let n): return JSONValue.number(n).stringValue ?? String(n)
        }
    }
}

/// A GeoJSON Feature (RFC 7946 §3.2).
public struct Feature: Hashable, Sendable {
    public var id: FeatureID?
    public var geometry: Geometry?
    public var properties: [String: JSONValue]?
    public var bbox: BoundingBox?

    public init(id: FeatureID? = nil, geometry: Geometry?, properties: [String: JSONValue]? = nil, bbox: BoundingBox? = nil) {
        self.id = id
        self.geometry = geometry
        self.properties = properties
        self.bbox = bbox
    }
}

/// A GeoJSON FeatureCollection (RFC 7946 §3.3).
public struct FeatureCollection: Hashable, Sendable {
    public var features: [Feature]
    public var bbox: BoundingBox?

    public init(features: [Feature], bbox: BoundingBox? = nil) {
        self.features = features
        self.bbox = bbox
    }
}
