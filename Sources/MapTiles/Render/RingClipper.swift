/// Cuts rings in pixel coordinates down to a rectangle around the frame (Sutherland–Hodgman).
///
/// cairo stores path coordinates as 24.8 fixed point, so anything beyond about ±8 million pixels
/// wraps around; at high zooms a large area's far vertices get there (a 10° box at zoom 22 spans
/// 30 million pixels). Rings of such areas are clipped first. The rectangle reaches `margin`
/// pixels past the frame, so the edges the clip adds lie outside the picture even once stroked.
struct RingClipper {
    let minX: Double, minY: Double, maxX: Double, maxY: Double

    /// A clipper for a frame of `width` × `height` pixels with a margin.
    init(width: Int, height: Int, margin: Double) {
        minX = -margin
        minY = -margin
        maxX = Double(width) + margin
        maxY = Double(height) + margin
    }

    /// Pixel coordinates past which a vertex must not reach cairo.
    static let safeLimit = Double(1 << 20)

    /// The ring (flat `x, y` pairs, closed or not) clipped to the rectangle; fewer than three
    /// points when nothing of it is inside.
    func clip(_ ring: [Double]) -> [Double] {
        var points = ring
        points = pass(points, { x, _ in x >= minX }, { a, b in Self.atX(a, b, minX) })
        points = pass(points, { x, _ in x <= maxX }, { a, b in Self.atX(a, b, maxX) })
        points = pass(points, { _, y in y >= minY }, { a, b in Self.atY(a, b, minY) })
        points = pass(points, { _, y in y <= maxY }, { a, b in Self.atY(a, b, maxY) })
        return points
    }

    /// One Sutherland–Hodgman pass against a half-plane.
    private func pass(_ input: [Double], _ inside: (Double, Double) -> Bool,
                      _ cross: ((Double, Double), (Double, Double)) -> (Double, Double)) -> [Double] {
        let n = input.count / 2
        guard n > 0 else { return [] }
        var out: [Double] = []
        out.reserveCapacity(input.count + 8)
        var prev = (input[2 * (n - 1)], input[2 * (n - 1) + 1])
        var prevInside = inside(prev.0, prev.1)
        for k in 0..<n {
            let cur = (input[2 * k], input[2 * k + 1])
            let curInside = inside(cur.0, cur.1)
            if curInside != prevInside {
                let c = cross(prev, cur)
                out.append(c.0); out.append(c.1)
            }
            if curInside { out.append(cur.0); out.append(cur.1) }
            prev = cur
            prevInside = curInside
        }
        return out
    }

    private static func atX(_ a: (Double, Double), _ b: (Double, Double), _ x: Double) -> (Double, Double) {
        (x, a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0))
    }

    private static func atY(_ a: (Double, Double), _ b: (Double, Double), _ y: Double) -> (Double, Double) {
        (a.0 + (b.0 - a.0) * (y - a.1) / (b.1 - a.1), y)
    }
}
