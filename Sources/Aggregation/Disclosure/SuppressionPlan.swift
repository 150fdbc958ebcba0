/// Which sums of atomic cells may be published together: a partition of the positive cells
/// into blocks, each released block totalling at least k and holding a cell of at least 2 when
/// it has several cells; unsafe leftovers are withheld. A number is published exactly when its
/// cells are a union of whole released blocks (zero cells count as blocks of their own); see
/// `DisclosureControl` for the guarantee this gives.
struct SuppressionPlan {
    let threshold: Int
    private var blockOfCell: [AtomicCell: Int] = [:]
    private var cellsOfBlock: [[AtomicCell]] = []
    private var withheld: Set<Int> = []

    /// Builds blocks greedily from one block per positive cell, taking unsafe blocks (total in
    /// 1..<k, or several cells all of count 1) in cell order and merging each with its nearest
    /// block until it is safe. `timeWithinArea` looks in the same area first, then in areas near
    /// in id order, preferring the nearest time segment; `areaWithinTime` looks in the same
    /// segment first, then in nearer segments, preferring the nearest area. Either way the same
    /// segment of the same area comes first (other groups: only the group breakdown is lost),
    /// then a shared group, another unsafe block, the smallest total. A block that is unsafe and
    /// alone is withheld: nothing touching it is published.
    init(counts: [AtomicCell: Int], threshold: Int, order mergeOrder: MergeOrder = .timeWithinArea) {
        self.threshold = threshold
        let counts = counts.filter { $0.value > 0 }
        var blocks: [Int: Block] = [:]
        var blocksAt: [Int: Set<Int>] = [:]
        let order = counts.keys.sorted()
        for (id, cell) in order.enumerated() {
            blocks[id] = Block(cell: cell, count: counts[cell]!)
            for place in mergeOrder.places(of: blocks[id]!) { blocksAt[place, default: []].insert(id) }
        }
        let span = mergeOrder == .timeWithinArea ? (order.last?.area ?? 0) + 1 : TimeSegment.allCases.count
        var withheldIDs: Set<Int> = []
        // Blocks only grow, and a safe block stays safe when it absorbs another, so one pass in
        // cell order leaves every block safe or withheld.
        for id in order.indices {
            while let block = blocks[id], block.isUnsafe(threshold: threshold) {
                guard let partner = Self.nearest(to: id, blocks: blocks, blocksAt: blocksAt, span: span, order: mergeOrder, threshold: threshold) else {
                    withheldIDs.insert(id)
                    break
                }
                let absorbed = blocks.removeValue(forKey: partner)!
                for place in mergeOrder.places(of: absorbed) { blocksAt[place]!.remove(partner); blocksAt[place]!.insert(id) }
                blocks[id]!.absorb(absorbed)
            }
        }
        for (id, block) in blocks.sorted(by: { $0.key < $1.key }) {
            if withheldIDs.contains(id) { withheld.insert(cellsOfBlock.count) }
            for cell in block.cells { blockOfCell[cell] = cellsOfBlock.count }
            cellsOfBlock.append(block.cells)
        }
    }

    /// The preferred merge partner of block `id`: among the blocks nearest in the order's first
    /// dimension (its own places first), the one with the smallest `preference`; nil when no
    /// other block exists.
    private static func nearest(to id: Int, blocks: [Int: Block], blocksAt: [Int: Set<Int>], span: Int, order: MergeOrder, threshold: Int) -> Int? {
        let block = blocks[id]!
        for distance in 0..<span {
            var candidates = Set<Int>()
            for place in order.places(of: block) {
                candidates.formUnion(blocksAt[place - distance] ?? [])
                candidates.formUnion(blocksAt[place + distance] ?? [])
            }
            candidates.remove(id)
            if candidates.isEmpty { continue }
            return candidates.map { ($0, block.preference(for: blocks[$0]!, order: order, threshold: threshold)) }
                .min { $0.1.lexicographicallyPrecedes($1.1) }!.0
        }
        return nil
    }

    /// Whether the sum over `cells` may be published: every released block it touches lies
    /// wholly inside it, and it touches no withheld block.
    func isPublishable(_ cells: Set<AtomicCell>) -> Bool {
        for cell in cells {
            guard let block = blockOfCell[cell] else { continue }     // a zero cell
            if withheld.contains(block) { return false }
            if !cellsOfBlock[block].allSatisfy(cells.contains) { return false }
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

        /// The coordinates of a block in the first dimension.
        func places(of block: Block) -> Set<Int> {
            self == .timeWithinArea ? block.areas : block.segments
        }
    }

    /// A set of positive cells merged for suppression, with what the merge order needs.
    struct Block {
        var cells: [AtomicCell]
        var total: Int
        var largestCell: Int
        var areas: Set<Int>
        var segments: Set<Int>
        var groups: Set<Int>
        var firstCell: AtomicCell

        init(cell: AtomicCell, count: Int) {
            cells = [cell]
            firstCell = cell
            total = count
            largestCell = count
            areas = [cell.area]
            segments = [cell.segment.rawValue]
            groups = [cell.group]
        }

        /// Too small to publish, or all ones (then the ≥ 1 bound of every suppressed number
        /// could pin each of them).
        func isUnsafe(threshold: Int) -> Bool {
            total > 0 && (total < threshold || (cells.count > 1 && largestCell < 2))
        }

        mutating func absorb(_ other: Block) {
            cells += other.cells
            total += other.total
            largestCell = max(largestCell, other.largestCell)
            areas.formUnion(other.areas)
            segments.formUnion(other.segments)
            groups.formUnion(other.groups)
            firstCell = min(firstCell, other.firstCell)
        }

        /// Smaller is a better merge partner among blocks equally near in the order's first
        /// dimension; ties end at the partner's first cell, so the result depends only on the table.
        func preference(for other: Block, order: MergeOrder, threshold: Int) -> [Int] {
            [order == .timeWithinArea ? Self.distance(segments, other.segments) : Self.distance(areas, other.areas),
             groups.isDisjoint(with: other.groups) ? 1 : 0,
             other.isUnsafe(threshold: threshold) ? 0 : 1,
             other.total,
             other.firstCell.area, other.firstCell.segment.rawValue, other.firstCell.group]
        }

        private static func distance(_ a: Set<Int>, _ b: Set<Int>) -> Int {
            let (small, large) = a.count <= b.count ? (a, b) : (b, a)
            if small.contains(where: large.contains) { return 0 }
            var best = Int.max
            for x in small { for y in large { best = min(best, abs(x - y)) } }
            return best
        }
    }
}
