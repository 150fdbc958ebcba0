import GeoCore

/// The address of one XYZ map tile: zoom, column from the west, row from the north.
public struct TileKey: Hashable, Sendable, CustomStringConvertible {
    public let z: Int
    public let x: Int
    public let y: Int

    /// Deepest zoom served.
    public static let maxZoom = 22

    /// Why an address is not a tile.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case zoomOutOfRange(Int)
        case columnOutOfRange(Int, zoom: Int)
        case rowOutOfRange(Int, zoom: Int)

        public var description: String {
            switch self {
            case .zoomOutOfRange(let z): return "zoom \(z) is outside 0...\(TileKey.maxZoom)"
            case .columnOutOfRange(let x, let z): return "x \(x) is outside 0...\((1 << z) - 1) at zoom \(z)"
            case .rowOutOfRange(let y, let z): return "y \(y) is outside 0...\((1 << z) - 1) at zoom \(z)"
            }
        }
    }

    /// Creates a checked tile address.
    public init(z: Int, x: Int, y: Int) throws(Problem) {
        guard (0...Self.maxZoom).contains(z) else { throw .zoomOutOfRange(z) }
        let n = 1 << z
        guard (0..<n).contains(x) else { throw .columnOutOfRange(x, zoom: z) }
        guard (0..<n).contains(y) else { throw .rowOutOfRange(y, zoom: z) }
        self.z = z
        self.x = x
        self.y = y
    }

    /// The tile containing a position at a zoom (positions on the antimeridian or the
    /// Mercator cut-off fall into the last column / row).
    public static func containing(lon: Double, lat: Double, zoom: Int) throws(Problem) -> TileKey {
        guard (0...maxZoom).contains(zoom) else { throw .zoomOutOfRange(zoom) }
        let n = Double(1 << zoom)
        let u = WebMercator.unit(lon: lon, lat: lat)
        let x = min(Int((u.x * n).rounded(.down)), (1 << zoom) - 1)
        let y = min(Int((u.y * n).rounded(.down)), (1 << zoom) - 1)
        return try TileKey(z: zoom, x: max(x, 0), y: max(y, 0))
    }

    /// West, south, east, north of the tile in degrees.
    public var bounds: BoundingBox {
        let n = Double(1 << z)
        let nw = WebMercator.lonLat(unitX: Double(x) / n, unitY: Double(y) / n)
        let se = WebMercator.lonLat(unitX: Double(x + 1) / n, unitY: Double(y + 1) / n)
        return BoundingBox(west: nw.lon, south: se.lat, east: se.lon, north: nw.lat)
    }

    public var description: String { "\(z)/\(x)/\(y)" }
}
