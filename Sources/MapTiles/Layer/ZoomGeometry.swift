import GeoCore

/// The drawable geometry of every area of a layer at one zoom: projected to unit Mercator
/// coordinates, simplified for the zoom, rings oriented for the non-zero fill rule.
///
/// Flat arrays (not an array per ring) keep a layer of thousands of areas in a few allocations
/// and make drawing a tight loop.
public struct ZoomGeometry: Equatable, Sendable {
    /// Coordinates of all rings, `x, y` pairs.
    let coordinates: [Double]
    /// Ring `r` is points `ringStarts[r] ..< ringStarts[r + 1]`.
    let ringStarts: [Int32]
    /// Area `i` is rings `areaStarts[i] ..< areaStarts[i + 1]`.
    let areaStarts: [Int32]
    /// Simplified shared borders, flat `x, y` pairs; arc `a` is points `arcStarts[a] ..< arcStarts[a + 1]`.
    let arcCoordinates: [Double]
    let arcStarts: [Int32]
    /// Arcs outlining area `i`: `outlineArcs[outlineStarts[i] ..< outlineStarts[i + 1]]`.
    let outlineArcs: [Int32]
    let outlineStarts: [Int32]
    /// Whether area `i` draws its outline from its rings (it was simplified on its own).
    let ownOutline: [Bool]

    /// Builds the flat form. Exterior rings are turned so their signed area is positive and
    /// holes so theirs is negative: with the non-zero rule, several areas of one class can then
    /// be filled as one path without cancelling each other, and holes still cut.
    /// - Parameters:
    ///   - areas: polygons per area.
    ///   - arcs: the simplified shared borders.
    ///   - perArea: the arcs outlining each area, nil for an area outlined by its own rings.
    init(areas: [[PlanarPolygon]], arcs: ArcSet, outlineArcs perArea: [[Int32]?]) {
        self.arcCoordinates = arcs.points
        self.arcStarts = arcs.starts
        // Every array reserved from a first count: at 300,000 areas growing them by doubling
        // copied the coordinates over and over and was most of building the full detail.
        var outlineArcs: [Int32] = []
        var outlineStarts: [Int32] = [0]
        outlineArcs.reserveCapacity(perArea.reduce(0) { $0 + ($1?.count ?? 0) })
        outlineStarts.reserveCapacity(perArea.count + 1)
        for list in perArea {
            if let list { outlineArcs.append(contentsOf: list) }
            outlineStarts.append(Int32(outlineArcs.count))
        }
        self.outlineArcs = outlineArcs
        self.outlineStarts = outlineStarts
        self.ownOutline = perArea.map { $0 == nil }

        var coordinates: [Double] = []
        var ringStarts: [Int32] = [0]
        var areaStarts: [Int32] = [0]
        var rings = 0, values = 0
        for polygons in areas { for polygon in polygons { rings += polygon.rings.count; for ring in polygon.rings { values += ring.count } } }
        coordinates.reserveCapacity(values)
        ringStarts.reserveCapacity(rings + 1)
        areaStarts.reserveCapacity(areas.count + 1)
        for polygons in areas {
            for polygon in polygons {
                for (k, ring) in polygon.rings.enumerated() {
                    let wantPositive = k == 0
                    if (Self.signedArea(ring) > 0) == wantPositive {
                        coordinates.append(contentsOf: ring)
                    } else {
                        var i = ring.count - 2
                        while i >= 0 { coordinates.append(ring[i]); coordinates.append(ring[i + 1]); i -= 2 }
                    }
                    ringStarts.append(Int32(coordinates.count / 2))
                }
            }
            areaStarts.append(Int32(ringStarts.count - 1))
        }
        self.coordinates = coordinates
        self.ringStarts = ringStarts
        self.areaStarts = areaStarts
    }

    /// Shoelace area of a flat ring (positive when clockwise on screen, y pointing south).
    static func signedArea(_ ring: [Double]) -> Double {
        var s = 0.0
        var i = 0
        while i + 3 < ring.count {
            s += ring[i] * ring[i + 3] - ring[i + 2] * ring[i + 1]
            i += 2
        }
        return s / 2
    }

    /// Number of areas.
    public var areaCount: Int { areaStarts.count - 1 }
    /// Number of points over all areas (to compare zooms and measure simplification).
    public var pointCount: Int { coordinates.count / 2 }

    /// Bytes the arrays hold: what the tile-geometry cache's budget counts.
    public var byteCount: Int {
        8 * (coordinates.count + arcCoordinates.count) + 4 * (ringStarts.count + areaStarts.count + arcStarts.count + outlineArcs.count + outlineStarts.count)
            + ownOutline.count
    }

    /// The rings of one area as flat `x, y` pairs: a ring of positive signed area starts a
    /// polygon, the negative ones after it are its holes.
    public func rings(ofArea i: Int) -> [[Double]] {
        (Int(areaStarts[i])..<Int(areaStarts[i + 1])).map { r in
            Array(coordinates[2 * Int(ringStarts[r]) ..< 2 * Int(ringStarts[r + 1])])
        }
    }
}
