import DomainKernel

/// Which sums of atomic cells may be published together: a partition of the positive cells
/// into blocks, each released block totalling at least k and holding a cell of at least 2 when
/// it has several cells; unsafe leftovers are withheld. A number is published exactly when its
/// cells are a union of whole released blocks (zero cells count as blocks of their own); see
/// `DisclosureControl` for the guarantee this gives.
///
/// Blocks are built greedily from one block per positive cell, taking unsafe blocks (total in
/// 1..<k, or several cells all of count 1) in cell order and merging each with its nearest
/// block until it is safe (`BlockMerger`). `timeWithinArea` looks in the same area first, then
/// in areas near in id order, preferring the nearest time segment; `areaWithinTime` looks in the
/// same segment first, then in nearer segments, preferring the nearest area. Either way the same
/// segment of the same area comes first (other groups: only the group breakdown is lost), then a
/// shared group, another unsafe block, the smallest total. A block that is unsafe and alone is
/// withheld: nothing touching it is published.
struct SuppressionPlan {
    let grid: CellGrid
    /// Per cell: its block's id (-1 for a zero cell).
    private let blockOf: [Int]
    // Per block id, what "every touched block lies inside the number" needs:
    private let onlyArea: [Int]
    private let blockSegments: [UInt8]
    private let onlyGroup: [Int]
    private let withheld: [Bool]

    /// Plans the release of `counts` (one per cell of `grid`).
    init(grid: CellGrid, counts: [Int], threshold: Int, order: MergeOrder = .timeWithinArea) {
        self.grid = grid
        let merger = BlockMerger(grid: grid, counts: counts, threshold: threshold, order: order)
        let (blockOf, withheld) = merger.run()
        self.blockOf = blockOf
        self.withheld = withheld
        var onlyArea = [Int](repeating: -1, count: grid.cellCount)
        var blockSegments = [UInt8](repeating: 0, count: grid.cellCount)
        var onlyGroup = [Int](repeating: -1, count: grid.cellCount)
        for cell in 0..<grid.cellCount where blockOf[cell] == cell {
            let summary = merger.summary(of: cell)
            onlyArea[cell] = summary.area ?? -1
            blockSegments[cell] = summary.segments
            onlyGroup[cell] = summary.group ?? -1
        }
        self.onlyArea = onlyArea
        self.blockSegments = blockSegments
        self.onlyGroup = onlyGroup
    }

    /// Whether a number may be published: the sum over one area (nil: every area), the segments
    /// in `segments`, one group (nil: every group). True exactly when every block it touches is
    /// released and lies wholly inside it.
    func isPublishable(area: Int?, segments: UInt8, group: Int?) -> Bool {
        let groupRange = group.map { $0..<($0 + 1) } ?? 0..<grid.groupCount
        func inside(_ cell: Int) -> Bool {
            let block = blockOf[cell]
            if block < 0 { return true }                                   // a zero cell
            return !withheld[block] && blockSegments[block] & ~segments == 0
                && (area == nil || onlyArea[block] == area!) && (group == nil || onlyGroup[block] == group!)
        }
        let areas = area.map { $0..<($0 + 1) } ?? 0..<grid.areaCount
        for segment in 0..<CellGrid.segmentCount where segments & 1 << UInt8(segment) != 0 {
            for a in areas {
                let first = grid.cell(area: a, segment: segment, group: 0)
                for g in groupRange where !inside(first + g) { return false }
            }
        }
        return true
    }

    /// Which neighbours a small block looks at first.
    enum MergeOrder: CaseIterable {
        /// Other segments and groups of the same area, then areas near in id order: keeps area
        /// numbers, may cost the layer total's short windows.
        case timeWithinArea
        /// Other groups and areas in the same segment, then nearer segments: keeps the layer
        /// total's windows, may cost small areas their numbers.
        case areaWithinTime
    }
}
