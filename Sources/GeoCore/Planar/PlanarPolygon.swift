import DomainKernel

/// A polygon in a projected plane (for example the Web Mercator unit square), held as flat
/// `x, y` pairs per ring.
///
/// `Polygon` checks WGS 84 ranges on every position; projected coordinates are not degrees, so
/// they get their own light type instead of being smuggled through `Position`.
public struct PlanarPolygon: Hashable, Sendable {
    /// Rings as flat coordinate pairs `[x0, y0, x1, y1, …]`, exterior first, each closed.
    public let rings: [[Double]]

    /// Creates a polygon from closed rings of at least four points (not checked further:
    /// the rings come from valid polygons or from GEOS).
    public init(rings: [[Double]]) {
        self.rings = rings
    }

    /// Number of points over all rings.
    public var pointCount: Int { rings.reduce(0) { $0 + $1.count / 2 } }
}
