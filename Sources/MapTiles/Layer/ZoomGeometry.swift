import GeoCore

/// The drawable geometry of every area of a layer at one zoom: projected to unit Mercator
/// coordinates, simplified for the zoom, rings oriented for the non-zero fill rule.
///
/// Flat arrays (not an array per ring) keep a layer of thousands of areas in a few allocations
/// and make drawing a tight loop.
public struct ZoomGeometry: Sendable {
    /// Coordinates of all rings, `x, y` pairs.
    let coordinates: [Double]
    /// Ring `r` is points `ringStarts[r] ..< ringStarts[r + 1]`.
    let ringStarts: [Int32]
    /// Area `i` is rings `areaStarts[i] ..< areaStarts[i + 1]`.
    let areaStarts: [Int32]

    /// Builds the flat form. Exterior rings are turned so their signed area is positive and
    /// holes so theirs is negative: with the non-zero rule, several areas of one class can then
    /// be filled as one path without cancelling each other, and holes still cut.
    init(areas: [[PlanarPolygon]]) {
        var coordinates: [Double] = []
        var ringStarts: [Int32] = [0]
        var areaStarts: [Int32] = [0]
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

    /// The rings of one area as flat `x, y` pairs: a ring of positive signed area starts a
    /// polygon, the negative ones after it are its holes.
    public func rings(ofArea i: Int) -> [[Double]] {
        (Int(areaStarts[i])..<Int(areaStarts[i + 1])).map { r in
            Array(coordinates[2 * Int(ringStarts[r]) ..< 2 * Int(ringStarts[r + 1])])
        }
    }
}
