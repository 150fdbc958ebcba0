/// Lines stored end to end in one array: arc `a` is the points `starts[a] ..< starts[a + 1]` of
/// `points` (flat `x, y` pairs).
///
/// One allocation for every border of a layer instead of one per border: 300,000 areas have
/// about 900,000 borders, and an array each cost more in headers than their points.
struct ArcSet: Sendable {
    private(set) var points: [Double] = []
    private(set) var starts: [Int32] = [0]

    init() {}

    /// Arcs read back: `starts` ascending from 0 to the number of points (`points.count / 2`).
    init(points: [Double], starts: [Int32]) {
        self.points = points
        self.starts = starts
    }

    /// Number of arcs.
    var count: Int { starts.count - 1 }

    /// The flat coordinates of arc `a`.
    subscript(a: Int) -> ArraySlice<Double> { points[2 * Int(starts[a]) ..< 2 * Int(starts[a + 1])] }

    /// Appends an arc given as flat coordinates.
    mutating func append<C: Collection<Double>>(_ flat: C) {
        points.append(contentsOf: flat)
        starts.append(Int32(points.count / 2))
    }

    /// Appends every arc of another set, in its order.
    mutating func append(contentsOf other: ArcSet) {
        let offset = Int32(points.count / 2)
        points.append(contentsOf: other.points)
        starts.append(contentsOf: other.starts.dropFirst().lazy.map { $0 + offset })
    }

    mutating func reserve(arcs: Int, points count: Int) {
        starts.reserveCapacity(arcs + 1)
        points.reserveCapacity(2 * count)
    }
}
