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

    /// Builds blocks greedily from one block per positive cell: while some block is unsafe
    /// (total in 1..<k, or several cells all of count 1), merge it with its nearest block —
    /// the same area first, then areas near in id order; within that, the nearest time segment
    /// (the same segment first, which keeps area windows intact at the cost of the group
    /// breakdown), then a shared group, then another unsafe block, then the smallest total. A
    /// block that is unsafe and alone is withheld: nothing touching it is published.
    init(counts: [AtomicCell: Int], threshold: Int) {
        self.threshold = threshold
        let counts = counts.filter { $0.value > 0 }
        var blocks: [Int: Block] = [:]
        var blocksInArea: [Int: Set<Int>] = [:]
        let order = counts.keys.sorted()
        for (id, cell) in order.enumerated() {
            blocks[id] = Block(cell: cell, count: counts[cell]!)
            blocksInArea[cell.area, default: []].insert(id)
        }
        let areaSpan = (order.last?.area ?? 0) + 1
        var withheldIDs: Set<Int> = []
        // Blocks only grow, and a safe block stays safe when it absorbs another, so one pass in
        // cell order leaves every block safe or withheld.
        for id in order.indices {
            while let block = blocks[id], block.isUnsafe(threshold: threshold) {
                guard let partner = Self.nearest(to: id, blocks: blocks, blocksInArea: blocksInArea, areaSpan: areaSpan, threshold: threshold) else {
                    withheldIDs.insert(id)
                    break
                }
                let absorbed = blocks.removeValue(forKey: partner)!
                for area in absorbed.areas { blocksInArea[area]!.remove(partner); blocksInArea[area]!.insert(id) }
                blocks[id]!.absorb(absorbed)
            }
        }
        for (id, block) in blocks.sorted(by: { $0.key < $1.key }) {
            if withheldIDs.contains(id) { withheld.insert(cellsOfBlock.count) }
            for cell in block.cells { blockOfCell[cell] = cellsOfBlock.count }
            cellsOfBlock.append(block.cells)
        }
    }

    /// The preferred merge partner of block `id`: among the blocks in the nearest areas (its own
    /// first), the one with the smallest `preference`; nil when no other block exists.
    private static func nearest(to id: Int, blocks: [Int: Block], blocksInArea: [Int: Set<Int>], areaSpan: Int, threshold: Int) -> Int? {
        let block = blocks[id]!
        for distance in 0..<areaSpan {
            var candidates = Set<Int>()
            for area in block.areas {
                candidates.formUnion(blocksInArea[area - distance] ?? [])
                candidates.formUnion(blocksInArea[area + distance] ?? [])
            }
            candidates.remove(id)
            if candidates.isEmpty { continue }
            return candidates.map { ($0, block.preference(for: blocks[$0]!, threshold: threshold)) }
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

    /// A set of positive cells merged for suppression, with what the merge order needs.
    private struct Block {
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

        /// Smaller is a better merge partner among blocks equally near in area order; ties end
        /// at the partner's first cell, so the result depends only on the table.
        func preference(for other: Block, threshold: Int) -> [Int] {
            [Self.distance(segments, other.segments),
             groups.isDisjoint(with: other.groups) ? 1 : 0,
             other.isUnsafe(threshold: threshold) ? 0 : 1,
             other.total,
             other.firstCell.area, other.firstCell.segment.rawValue, other.firstCell.group]
        }

        private static func distance(_ a: Set<Int>, _ b: Set<Int>) -> Int {
            var best = Int.max
            for x in a { for y in b { best = min(best, abs(x - y)) } }
            return best
        }
    }
}
