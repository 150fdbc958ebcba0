/// An area to draw, and by how much to move it east (in world widths) to reach the frame:
/// 0 normally, ±1 for the copy of an area that a frame sees across the antimeridian.
struct WorldCopy {
    let area: Int
    let shift: Double
}

extension TileLayer {
    /// Areas whose boxes touch a rectangle of the unit square, including their copies one world
    /// east or west when the rectangle reaches over the antimeridian (tiles at x = 0 and
    /// x = 2^z − 1 grown by a margin), so outlines at ±180° match on both sides.
    func areas(touching rect: UnitRect) -> [WorldCopy] {
        var out = index.areas(intersecting: rect).map { WorldCopy(area: $0, shift: 0) }
        if rect.minX < 0 {
            out += index.areas(intersecting: rect.shifted(x: 1)).map { WorldCopy(area: $0, shift: -1) }
        }
        if rect.maxX > 1 {
            out += index.areas(intersecting: rect.shifted(x: -1)).map { WorldCopy(area: $0, shift: 1) }
        }
        return out
    }
}
