import DomainKernel

/// A polygon: one exterior ring followed by zero or more holes.
///
/// Rings are closed (first position equals last) and have at least four positions; the
/// initialiser checks both. Orientation is not enforced here: writers normalise it.
public struct Polygon: Hashable, Sendable {
    public let rings: [[Position]]

    /// Why a ring list cannot be a polygon.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case noRings
        case ringNotClosed(ring: Int)
        case ringTooShort(ring: Int, positions: Int)

        public var description: String {
            switch self {
            case .noRings: return "polygon has no rings"
            case .ringNotClosed(let r): return "ring \(r) is not closed (first and last positions differ)"
            case .ringTooShort(let r, let n): return "ring \(r) has \(n) positions; a linear ring needs at least 4"
            }
        }
    }

    /// Creates a checked polygon.
    /// - Throws: `Polygon.Problem` for an empty ring list, an unclosed ring or a ring of fewer
    ///   than four positions.
    public init(rings: [[Position]]) throws(Problem) {
        guard !rings.isEmpty else { throw .noRings }
        for (i, ring) in rings.enumerated() {
            guard ring.count >= 4 else { throw .ringTooShort(ring: i, positions: ring.count) }
            guard ring.first!.lon == ring.last!.lon, ring.first!.lat == ring.last!.lat else {
                throw .ringNotClosed(ring: i)
            }
        }
        self.rings = rings
    }

    init(trustedRings: [[Position]]) {
        self.rings = trustedRings
    }

    /// The exterior ring.
    public var exterior: [Position] { rings[0] }
    /// The holes.
    public var holes: ArraySlice<[Position]> { rings.dropFirst() }
}

/// A GeoJSON geometry (RFC 7946 §3.1).
public indirect enum Geometry: Hashable, Sendable {
    case point(Position)
    case multiPoint([Position])
    case lineString([Position])
    case multiLineString([[Position]])
    case polygon(Polygon)
    case multiPolygon([Polygon])
    case geometryCollection([Geometry])

    /// The GeoJSON `type` member.
    public var typeName: String {
        switch self {
        case .point: return "Point"
        case .multiPoint: return "MultiPoint"
        case .lineString: return "LineString"
        case .multiLineString: return "MultiLineString"
        case .polygon: return "Polygon"
        case .multiPolygon: return "MultiPolygon"
        case .geometryCollection: return "GeometryCollection"
        }
    }

    /// The polygons of a Polygon or MultiPolygon; empty for every other type.
    public var polygons: [Polygon] {
        switch self {
        case .polygon(let p): return [p]
        case .multiPolygon(let ps): return ps
        default: return []
        }
    }

    /// Every position of the geometry, in document order.
    public func forEachPosition(_ body: (Position) -> Void) {
        switch self {
        case .point(let p): body(p)
        case .multiPoint(let ps), .lineString(let ps): ps.forEach(body)
        case .multiLineString(let ls): ls.forEach { $0.forEach(body) }
        case .polygon(let p): p.rings.forEach { $0.forEach(body) }
        case .multiPolygon(let ps): ps.forEach { $0.rings.forEach { $0.forEach(body) } }
        case .geometryCollection(let gs): gs.forEach { $0.forEachPosition(body) }
        }
    }

    /// The bounding box, or nil for a geometry without positions.
    public var boundingBox: BoundingBox? {
        var box: BoundingBox?
        forEachPosition { p in
            if box == nil { box = BoundingBox(west: p.lon, south: p.lat, east: p.lon, north: p.lat) }
            else { box!.extend(lon: p.lon, lat: p.lat) }
        }
        return box
    }
}

/// A longitude/latitude bounding box (west, south, east, north).
public struct BoundingBox: Hashable, Sendable {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// Grows the box to include a position.
    public mutating func extend(lon: Double, lat: Double) {
        west = min(west, lon); east = max(east, lon)
        south = min(south, lat); north = max(north, lat)
    }

    /// Grows the box to include another box.
    public mutating func extend(_ other: BoundingBox) {
        west = min(west, other.west); east = max(east, other.east)
        south = min(south, other.south); north = max(north, other.north)
    }

    /// Whether the box contains the position (edges included).
    public func contains(lon: Double, lat: Double) -> Bool {
        lon >= west && lon <= east && lat >= south && lat <= north
    }

    /// Whether two boxes share at least one point.
    public func intersects(_ other: BoundingBox) -> Bool {
        west <= other.east && other.west <= east && south <= other.north && other.south <= north
    }

    /// The GeoJSON `bbox` array.
    public var array: [Double] { [west, south, east, north] }
}
