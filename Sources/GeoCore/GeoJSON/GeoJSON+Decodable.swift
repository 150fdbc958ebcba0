import DomainKernel
import Foundation
import Support

/// Options that shape strict GeoJSON reading, passed to the decoder through `userInfo`.
struct GeoJSONDecodingOptions: Sendable {
    var closeUnclosedRings: Bool
    var maxCollectionDepth: Int
    var notes: GeoJSONReadingNotes

    static let key = CodingUserInfoKey(rawValue: "geoserve.geojson.options")!

    static func from(_ decoder: any Decoder) -> GeoJSONDecodingOptions {
        (decoder.userInfo[key] as? GeoJSONDecodingOptions)
            ?? GeoJSONDecodingOptions(closeUnclosedRings: false, maxCollectionDepth: 8, notes: GeoJSONReadingNotes())
    }
}

private enum GeoJSONKey: String, CodingKey {
    case type, coordinates, geometries, geometry, properties, id, bbox, features, crs
}

private func corrupt(_ path: [any CodingKey], _ reason: String) -> DecodingError {
    .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: reason))
}

private func decodeBBox(_ c: KeyedDecodingContainer<GeoJSONKey>) throws -> BoundingBox? {
    guard let values = try c.decodeIfPresent([Double].self, forKey: .bbox) else { return nil }
    let path = c.codingPath + [GeoJSONKey.bbox]
    guard values.count == 4 || values.count == 6 else {
        throw corrupt(path, "bbox must have 4 (or 6 with altitude) numbers, found \(values.count)")
    }
    guard values.allSatisfy(\.isFinite) else { throw corrupt(path, "bbox holds a non-finite number") }
    let half = values.count / 2
    return BoundingBox(west: values[0], south: values[1], east: values[half], north: values[half + 1])
}

private func rejectForeignCRS(_ c: KeyedDecodingContainer<GeoJSONKey>) throws {
    guard c.contains(.crs), (try? c.decodeNil(forKey: .crs)) != true else { return }
    let crs = try c.decode(JSONValue.self, forKey: .crs)
    if case .object(let o) = crs, case .object(let props)? = o["properties"],
       let name = props["name"]?.stringValue,
       name.hasSuffix("CRS84") || name.hasSuffix("EPSG::4326") || name == "EPSG:4326" {
        return
    }
    throw corrupt(c.codingPath + [GeoJSONKey.crs],
                  "a crs other than WGS 84 (OGC CRS84) is not supported; RFC 7946 GeoJSON is always longitude/latitude WGS 84")
}

extension Position: Decodable {
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        var values: [Double] = []
        values.reserveCapacity(3)
        while !c.isAtEnd {
            let v = try c.decode(Double.self)
            guard v.isFinite else {
                throw corrupt(c.codingPath + [IndexKey(c.currentIndex - 1)], "coordinate is not a finite number")
            }
            values.append(v)
        }
        guard values.count >= 2 else {
            throw corrupt(decoder.codingPath, "a position needs at least 2 numbers (longitude, latitude), found \(values.count)")
        }
        do {
            try self.init(lon: values[0], lat: values[1], altitude: values.count > 2 ? values[2] : nil)
        } catch {
            throw corrupt(decoder.codingPath, error.description)
        }
    }
}

/// A coding key for array indices in error paths.
struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ i: Int) { intValue = i }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

extension Polygon {
    /// Decodes the `coordinates` of a Polygon at `path`, closing unclosed rings when allowed.
    static func decodeRings(_ rings: [[Position]], path: [any CodingKey], options: GeoJSONDecodingOptions) throws -> Polygon {
        var rings = rings
        for i in rings.indices {
            let ringPath = path + [IndexKey(i)]
            if let first = rings[i].first, let last = rings[i].last,
               first.lon != last.lon || first.lat != last.lat {
                guard options.closeUnclosedRings else {
                    throw corrupt(ringPath, "ring is not closed: its first and last positions differ")
                }
                rings[i].append(first)
                options.notes.add(path: ringPath, "ring was not closed; closed by repeating its first position")
            }
            guard rings[i].count >= 4 else {
                throw corrupt(ringPath, "ring has \(rings[i].count) positions; a linear ring needs at least 4")
            }
        }
        guard !rings.isEmpty else { throw corrupt(path, "polygon has no rings") }
        return Polygon(trustedRings: rings)
    }
}

extension Geometry: Decodable {
    public init(from decoder: any Decoder) throws {
        let options = GeoJSONDecodingOptions.from(decoder)
        let collectionDepth = decoder.codingPath.filter { $0.stringValue == GeoJSONKey.geometries.stringValue }.count
        let c = try decoder.container(keyedBy: GeoJSONKey.self)
        try rejectForeignCRS(c)
        let type = try c.decode(String.self, forKey: .type)
        let coordsPath = c.codingPath + [GeoJSONKey.coordinates]
        switch type {
        case "Point":
            self = .point(try c.decode(Position.self, forKey: .coordinates))
        case "MultiPoint":
            self = .multiPoint(try c.decode([Position].self, forKey: .coordinates))
        case "LineString":
            let ps = try c.decode([Position].self, forKey: .coordinates)
            guard ps.count >= 2 else { throw corrupt(coordsPath, "a LineString needs at least 2 positions, found \(ps.count)") }
            self = .lineString(ps)
        case "MultiLineString":
            let ls = try c.decode([[Position]].self, forKey: .coordinates)
            for (i, l) in ls.enumerated() where l.count < 2 {
                throw corrupt(coordsPath + [IndexKey(i)], "a LineString needs at least 2 positions, found \(l.count)")
            }
            self = .multiLineString(ls)
        case "Polygon":
            let rings = try c.decode([[Position]].self, forKey: .coordinates)
            self = .polygon(try Polygon.decodeRings(rings, path: coordsPath, options: options))
        case "MultiPolygon":
            let polys = try c.decode([[[Position]]].self, forKey: .coordinates)
            self = .multiPolygon(try polys.enumerated().map { i, rings in
                try Polygon.decodeRings(rings, path: coordsPath + [IndexKey(i)], options: options)
            })
        case "GeometryCollection":
            guard collectionDepth < options.maxCollectionDepth else {
                throw corrupt(c.codingPath, "GeometryCollections nested deeper than \(options.maxCollectionDepth) levels")
            }
            self = .geometryCollection(try c.decode([Geometry].self, forKey: .geometries))
        default:
            throw corrupt(c.codingPath + [GeoJSONKey.type], "unknown geometry type \"\(type)\"")
        }
    }
}

extension FeatureID: Decodable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let n = try? c.decode(Double.self) { self = .number(n); return }
        throw corrupt(decoder.codingPath, "a feature id must be a string or a number")
    }
}

extension Feature: Decodable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: GeoJSONKey.self)
        let type = try c.decode(String.self, forKey: .type)
        guard type == "Feature" else {
            throw corrupt(c.codingPath + [GeoJSONKey.type], "expected \"Feature\", found \"\(type)\"")
        }
        try rejectForeignCRS(c)
        // RFC 7946 requires both members; absent ones are read as null, which is what every
        // producer that omits them means.
        id = try c.decodeIfPresent(FeatureID.self, forKey: .id)
        geometry = try c.decodeIfPresent(Geometry.self, forKey: .geometry)
        properties = try c.decodeIfPresent([String: JSONValue].self, forKey: .properties)
        bbox = try decodeBBox(c)
    }
}

extension FeatureCollection: Decodable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: GeoJSONKey.self)
        let type = try c.decode(String.self, forKey: .type)
        guard type == "FeatureCollection" else {
            throw corrupt(c.codingPath + [GeoJSONKey.type], "expected \"FeatureCollection\", found \"\(type)\"")
        }
        try rejectForeignCRS(c)
        features = try c.decode([Feature].self, forKey: .features)
        bbox = try decodeBBox(c)
    }
}
