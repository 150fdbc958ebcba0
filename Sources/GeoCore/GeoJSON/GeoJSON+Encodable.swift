import DomainKernel
import Foundation

/// Writing options, passed to the encoder through `userInfo`.
struct GeoJSONEncodingOptions: Sendable {
    /// Decimal places kept in coordinates; nil keeps full precision.
    var precision: Int?
    static let key = CodingUserInfoKey(rawValue: "geoserve.geojson.encoding")!

    static func from(_ encoder: any Encoder) -> GeoJSONEncodingOptions {
        (encoder.userInfo[key] as? GeoJSONEncodingOptions) ?? GeoJSONEncodingOptions(precision: nil)
    }

    func round(_ v: Double) -> Double {
        guard let precision else { return v }
        let scale = pow(10.0, Double(precision))
        return (v * scale).rounded() / scale
    }
}

private enum Key: String, CodingKey {
    case type, coordinates, geometries, geometry, properties, id, bbox, features
}

extension Position: Encodable {
    public func encode(to encoder: any Encoder) throws {
        let o = GeoJSONEncodingOptions.from(encoder)
        var c = encoder.unkeyedContainer()
        try c.encode(o.round(lon))
        try c.encode(o.round(lat))
        if let altitude { try c.encode(o.round(altitude)) }
    }
}

/// Twice the signed area of a closed ring in the lon/lat plane: positive when counterclockwise.
func signedArea2(_ ring: [Position]) -> Double {
    var sum = 0.0
    guard ring.count > 2 else { return 0 }
    let x0 = ring[0].lon, y0 = ring[0].lat
    for i in 1..<(ring.count - 1) {
        let ax = ring[i].lon - x0, ay = ring[i].lat - y0
        let bx = ring[i + 1].lon - x0, by = ring[i + 1].lat - y0
        sum += ax * by - ay * bx
    }
    return sum
}

extension Polygon {
    /// The same polygon with the RFC 7946 right-hand rule applied: exterior counterclockwise,
    /// holes clockwise.
    public var rightHandRule: Polygon {
        Polygon(trustedRings: rings.enumerated().map { i, ring in
            let ccw = signedArea2(ring) > 0
            let wantCCW = i == 0
            return ccw == wantCCW ? ring : ring.reversed()
        })
    }

    /// Whether every ring already follows the right-hand rule.
    public var followsRightHandRule: Bool {
        rings.enumerated().allSatisfy { i, ring in
            let a = signedArea2(ring)
            return i == 0 ? a >= 0 : a <= 0
        }
    }
}

extension Geometry: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(typeName, forKey: .type)
        switch self {
        case .point(let p): try c.encode(p, forKey: .coordinates)
        case .multiPoint(let ps), .lineString(let ps): try c.encode(ps, forKey: .coordinates)
        case .multiLineString(let ls): try c.encode(ls, forKey: .coordinates)
        case .polygon(let p): try c.encode(p.rightHandRule.rings, forKey: .coordinates)
        case .multiPolygon(let ps): try c.encode(ps.map(\.rightHandRule.rings), forKey: .coordinates)
        case .geometryCollection(let gs): try c.encode(gs, forKey: .geometries)
        }
    }
}

extension FeatureID: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .number(let n): try c.encode(n)
        }
    }
}

extension BoundingBox: Encodable {
    public func encode(to encoder: any Encoder) throws {
        let o = GeoJSONEncodingOptions.from(encoder)
        var c = encoder.unkeyedContainer()
        for v in array { try c.encode(o.round(v)) }
    }
}

extension Feature: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode("Feature", forKey: .type)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encodeIfPresent(bbox, forKey: .bbox)
        // Both members are required by RFC 7946, so they are written as null when absent.
        if let geometry { try c.encode(geometry, forKey: .geometry) } else { try c.encodeNil(forKey: .geometry) }
        if let properties { try c.encode(properties, forKey: .properties) } else { try c.encodeNil(forKey: .properties) }
    }
}

extension FeatureCollection: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode("FeatureCollection", forKey: .type)
        try c.encodeIfPresent(bbox, forKey: .bbox)
        try c.encode(features, forKey: .features)
    }
}

/// Writes RFC 7946 GeoJSON: right-hand-rule rings, no `crs`, coordinates rounded to a chosen
/// number of decimals, keys sorted so that output is byte-for-byte reproducible.
public struct GeoJSONWriter: Sendable {
    /// Decimal places kept in coordinates (RFC 7946 §11.2 suggests 6, about 10 cm); nil keeps all.
    public var precision: Int?

    public init(precision: Int? = 6) {
        self.precision = precision
    }

    /// Encodes any GeoJSON value (geometry, feature, feature collection).
    public func data<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[GeoJSONEncodingOptions.key] = GeoJSONEncodingOptions(precision: precision)
        // Every GeoJSON value is encodable by construction (finite numbers only).
        return try! encoder.encode(value)
    }

    /// The same as `data(_:)`, as a UTF-8 string.
    public func string<T: Encodable>(_ value: T) -> String {
        String(decoding: data(value), as: UTF8.self)
    }
}
