/// The regular grid laid over a layer's bounding box: cell addressing and cell centres.
///
/// Cell centres are computed by one function so that the build and every query use bit-for-bit
/// the same reference points.
struct GridFrame: Sendable {
    let x0: Double, y0: Double, x1: Double, y1: Double
    let nx: Int, ny: Int
    let cellWidth: Double, cellHeight: Double
    let inverseWidth: Double, inverseHeight: Double

    /// A grid of about `cells` cells over the box, with cells as square as the box allows.
    init(box: BoundingBox, cells: Int) {
        let w = max(box.east - box.west, .leastNormalMagnitude), h = max(box.north - box.south, .leastNormalMagnitude)
        let target = Double(max(cells, 1))
        let fx = (target * w / h).squareRoot()
        let nx = max(1, min(Int(fx.rounded()), Self.maximumSide))
        let ny = max(1, min(Int((target / Double(nx)).rounded()), Self.maximumSide))
        self.init(x0: box.west, y0: box.south, x1: box.east, y1: box.north, nx: nx, ny: ny)
    }

    /// The grid with these bounds and cells; read back from an index file, it gives the same
    /// cell centres bit for bit as the grid that was built.
    init(x0: Double, y0: Double, x1: Double, y1: Double, nx: Int, ny: Int) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
        self.nx = nx; self.ny = ny
        let w = max(x1 - x0, .leastNormalMagnitude), h = max(y1 - y0, .leastNormalMagnitude)
        cellWidth = w / Double(nx)
        cellHeight = h / Double(ny)
        inverseWidth = 1 / cellWidth
        inverseHeight = 1 / cellHeight
    }

    /// Columns and rows at most.
    static let maximumSide = 1 << 14

    var cellCount: Int { nx * ny }

    @inline(__always)
    func centreX(_ cx: Int) -> Double { x0 + (Double(cx) + 0.5) * cellWidth }

    @inline(__always)
    func centreY(_ cy: Int) -> Double { y0 + (Double(cy) + 0.5) * cellHeight }

    /// Column of x, clamped to the grid; x must lie within [x0, x1].
    @inline(__always)
    func column(_ x: Double) -> Int {
        let c = Int((x - x0) * inverseWidth)
        return c < 0 ? 0 : (c >= nx ? nx - 1 : c)
    }

    /// Row of y, clamped to the grid; y must lie within [y0, y1].
    @inline(__always)
    func row(_ y: Double) -> Int {
        let r = Int((y - y0) * inverseHeight)
        return r < 0 ? 0 : (r >= ny ? ny - 1 : r)
    }

    /// Columns whose cells, widened by a small margin, overlap [lo, hi]. The margin covers the
    /// rounding in `column(_:)`, so a point is never tested against a cell that misses an edge
    /// passing next to it.
    func columns(_ lo: Double, _ hi: Double) -> ClosedRange<Int> {
        let m = 1e-6
        let a = Int(((lo - x0) * inverseWidth - m).rounded(.down))
        let b = Int(((hi - x0) * inverseWidth + m).rounded(.down))
        return max(a, 0)...min(max(b, 0), nx - 1)
    }

    /// Rows whose cells, widened by the same margin, overlap [lo, hi].
    func rows(_ lo: Double, _ hi: Double) -> ClosedRange<Int> {
        let m = 1e-6
        let a = Int(((lo - y0) * inverseHeight - m).rounded(.down))
        let b = Int(((hi - y0) * inverseHeight + m).rounded(.down))
        return max(a, 0)...min(max(b, 0), ny - 1)
    }
}
