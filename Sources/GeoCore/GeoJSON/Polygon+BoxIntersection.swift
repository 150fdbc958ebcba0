import DomainKernel

/// Exact "does this polygon share a point with a box" for OGC `bbox` filters.
///
/// A box filter must keep a feature whose geometry meets the box, not merely one whose
/// bounding box does: an L-shaped area's bounding box covers ground the area does not.
extension Polygon {
    /// Whether the polygon (boundary included) and the closed box have a point in common.
    public func intersects(_ box: BoundingBox) -> Bool {
        var bounds = BoundingBox(west: .infinity, south: .infinity, east: -.infinity, north: -.infinity)
        for p in exterior { bounds.extend(lon: p.lon, lat: p.lat) }
        guard bounds.intersects(box) else { return false }
        // A boundary segment that touches the box decides it.
        for ring in rings {
            for k in 0..<(ring.count - 1) where segment(ring[k], ring[k + 1], meets: box) { return true }
        }
        // No boundary meets the box: the box lies wholly inside the polygon or wholly outside
        // it, and any one of its points tells which.
        return covers(lon: box.west, lat: box.south)
    }

    /// Even-odd point-in-polygon over every ring (holes excluded).
    func covers(lon: Double, lat: Double) -> Bool {
        var inside = false
        for ring in rings {
            var j = ring.count - 2
            for i in 0..<(ring.count - 1) {
                let a = ring[i], b = ring[j]
                if (a.lat > lat) != (b.lat > lat), lon < (b.lon - a.lon) * (lat - a.lat) / (b.lat - a.lat) + a.lon {
                    inside.toggle()
                }
                j = i
            }
        }
        return inside
    }

    /// Liang–Barsky clipping: whether the segment a–b has a point inside the closed box.
    private func segment(_ a: Position, _ b: Position, meets box: BoundingBox) -> Bool {
        let dx = b.lon - a.lon, dy = b.lat - a.lat
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-dx, a.lon - box.west), (dx, box.east - a.lon), (-dy, a.lat - box.south), (dy, box.north - a.lat)] {
            if p == 0 {
                if q < 0 { return false }
            } else {
                let r = q / p
                if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                if t0 > t1 { return false }
            }
        }
        return true
    }
}

extension Geometry {
    /// Whether the geometry and the closed box have a point in common (points: inside the box).
    public func intersects(_ box: BoundingBox) -> Bool {
        switch self {
        case .point(let p): return box.contains(lon: p.lon, lat: p.lat)
        default: return polygons.contains { $0.intersects(box) }
        }
    }
}
