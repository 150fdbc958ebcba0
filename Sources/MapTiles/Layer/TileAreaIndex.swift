/// Finds the areas whose bounding boxes touch a rectangle, through a uniform grid over the
/// layer's extent, so a tile looks at the areas near it instead of scanning the whole layer.
///
/// Built once per layer version and immutable afterwards. Items are area ordinals, so the
/// index owns no geometry. Simplified geometry keeps a subset of the original vertices, so the
/// boxes of the original areas hold for every zoom.
public struct TileAreaIndex: Sendable {
    /// Bounding box of each area in unit Mercator coordinates, by ordinal.
    public let boxes: [UnitRect]
    private let extent: UnitRect
    private let columns: Int
    private let rows: Int
    private let cellWidth: Double
    private let cellHeight: Double
    /// Items of cell `c` are `items[cellStarts[c] ..< cellStarts[c + 1]]`.
    private let cellStarts: [Int32]
    private let items: [Int32]

    /// Builds the grid with about one cell per area.
    public init(boxes: [UnitRect]) {
        self.boxes = boxes
        var extent = boxes.first ?? UnitRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
        for b in boxes {
            extent.minX = min(extent.minX, b.minX); extent.minY = min(extent.minY, b.minY)
            extent.maxX = max(extent.maxX, b.maxX); extent.maxY = max(extent.maxY, b.maxY)
        }
        self.extent = extent
        let w = max(extent.maxX - extent.minX, .leastNormalMagnitude)
        let h = max(extent.maxY - extent.minY, .leastNormalMagnitude)
        let side = max(Double(boxes.count).squareRoot(), 1)
        let columns = min(max(Int((side * (w / h).squareRoot()).rounded()), 1), 4096)
        let rows = min(max(Int((side * (h / w).squareRoot()).rounded()), 1), 4096)
        let cellWidth = w / Double(columns), cellHeight = h / Double(rows)
        self.columns = columns
        self.rows = rows
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight

        // Two passes (count, then fill) give one flat array instead of an array per cell.
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        func cells(_ b: UnitRect, _ body: (Int) -> Void) {
            let (c0, c1) = Self.span(b.minX, b.maxX, extent.minX, cellWidth, columns)
            let (r0, r1) = Self.span(b.minY, b.maxY, extent.minY, cellHeight, rows)
            for r in r0...r1 { for c in c0...c1 { body(r * columns + c) } }
        }
        for b in boxes { cells(b) { counts[$0 + 1] += 1 } }
        for i in 1..<counts.count { counts[i] += counts[i - 1] }
        var next = counts
        var items = [Int32](repeating: 0, count: Int(counts.last!))
        for (i, b) in boxes.enumerated() {
            cells(b) { items[Int(next[$0])] = Int32(i); next[$0] += 1 }
        }
        self.cellStarts = counts
        self.items = items
    }

    private static func span(_ lo: Double, _ hi: Double, _ origin: Double, _ size: Double, _ n: Int) -> (Int, Int) {
        let a = Int(((lo - origin) / size).rounded(.down))
        let b = Int(((hi - origin) / size).rounded(.down))
        return (min(max(a, 0), n - 1), min(max(b, 0), n - 1))
    }

    /// Ordinals of the areas whose boxes intersect `rect`, ascending.
    public func areas(intersecting rect: UnitRect) -> [Int] {
        guard !boxes.isEmpty, rect.intersects(extent) else { return [] }
        let (c0, c1) = Self.span(rect.minX, rect.maxX, extent.minX, cellWidth, columns)
        let (r0, r1) = Self.span(rect.minY, rect.maxY, extent.minY, cellHeight, rows)
        var found: [Int] = []
        for r in r0...r1 {
            for c in c0...c1 {
                let cell = r * columns + c
                for k in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
                    let i = Int(items[k])
                    let b = boxes[i]
                    guard b.intersects(rect) else { continue }
                    // Report an area only from the cell holding the top-left corner of its
                    // overlap with the query, so an area spanning several cells counts once.
                    let (oc, _) = Self.span(max(b.minX, rect.minX), 0, extent.minX, cellWidth, columns)
                    let (or, _) = Self.span(max(b.minY, rect.minY), 0, extent.minY, cellHeight, rows)
                    if oc == c && or == r { found.append(i) }
                }
            }
        }
        found.sort()
        return found
    }
}
