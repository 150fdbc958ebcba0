import GeoCore

/// A rectangle of pixels over the Web Mercator plane at one zoom: the drawing frame of a tile.
///
/// Positions are projected to unit Mercator coordinates once (per layer), so a frame only
/// scales and shifts: `pixel = (unit − origin) × pixelsPerUnit`. Because neighbouring tiles use
/// the same zoom geometry and differ by whole pixels, they rasterise shared edges identically.
public struct TileFrame: Hashable, Sendable {
    /// Zoom whose simplified geometry is drawn.
    public let zoom: Int
    /// Unit Mercator x of the left edge of pixel column 0.
    public let originX: Double
    /// Unit Mercator y of the top edge of pixel row 0.
    public let originY: Double
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Pixels per unit of the Mercator square (`2^zoom × 256 × scale`).
    public let pixelsPerUnit: Double

    /// The frame of a tile.
    public init(_ key: TileKey, scale: TileScale = .x1) {
        let n = Double(1 << key.z)
        self.init(zoom: key.z, originX: Double(key.x) / n, originY: Double(key.y) / n,
                  width: scale.pixels, height: scale.pixels, pixelsPerUnit: n * Double(scale.pixels))
    }

    /// A frame of any size, for example two neighbouring tiles drawn as one image.
    public init(zoom: Int, originX: Double, originY: Double, width: Int, height: Int, pixelsPerUnit: Double) {
        self.zoom = zoom
        self.originX = originX
        self.originY = originY
        self.width = width
        self.height = height
        self.pixelsPerUnit = pixelsPerUnit
    }

    /// Pixel position of unit Mercator coordinates (fractional; pixel centres are at .5).
    @inline(__always)
    public func pixel(unitX: Double, unitY: Double) -> (x: Double, y: Double) {
        ((unitX - originX) * pixelsPerUnit, (unitY - originY) * pixelsPerUnit)
    }

    /// Pixel position of a longitude and latitude.
    public func pixel(lon: Double, lat: Double) -> (x: Double, y: Double) {
        let u = WebMercator.unit(lon: lon, lat: lat)
        return pixel(unitX: u.x, unitY: u.y)
    }

    /// Longitude and latitude of a pixel position.
    public func lonLat(pixelX: Double, pixelY: Double) -> (lon: Double, lat: Double) {
        WebMercator.lonLat(unitX: originX + pixelX / pixelsPerUnit, unitY: originY + pixelY / pixelsPerUnit)
    }

    /// The frame's extent in unit Mercator coordinates, grown by `margin` pixels on every side
    /// (what a query must cover so that outlines and labels just outside still draw).
    public func unitBounds(marginPixels margin: Double = 0) -> UnitRect {
        let m = margin / pixelsPerUnit
        return UnitRect(minX: originX - m, minY: originY - m,
                        maxX: originX + Double(width) / pixelsPerUnit + m,
                        maxY: originY + Double(height) / pixelsPerUnit + m)
    }

    /// The frame's extent in degrees, grown by `margin` pixels on every side.
    public func bounds(marginPixels margin: Double = 0) -> BoundingBox {
        let r = unitBounds(marginPixels: margin)
        let nw = WebMercator.lonLat(unitX: r.minX, unitY: r.minY)
        let se = WebMercator.lonLat(unitX: r.maxX, unitY: r.maxY)
        return BoundingBox(west: nw.lon, south: se.lat, east: se.lon, north: nw.lat)
    }
}

/// An axis-aligned rectangle in unit Mercator coordinates (x east, y south).
public struct UnitRect: Hashable, Sendable {
    /// West edge.
    public var minX: Double
    /// North edge (y grows southward).
    public var minY: Double
    /// East edge.
    public var maxX: Double
    /// South edge.
    public var maxY: Double

    /// Creates a rectangle from its corners.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Whether the rectangles share at least one point.
    @inline(__always)
    public func intersects(_ o: UnitRect) -> Bool {
        minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
    }

    /// The rectangle moved east by `dx`.
    public func shifted(x dx: Double) -> UnitRect {
        UnitRect(minX: minX + dx, minY: minY, maxX: maxX + dx, maxY: maxY)
    }
}
