/// Which sums of atomic cells may be published together: a partition of the positive cells
/// into blocks, each released block totalling at least k.
///
/// ## The guarantee
/// Within one release (one `ReleasedLayerStatistics`): a number is published exactly when its
/// set of atomic cells is a union of whole released blocks (cells with count 0 are blocks of
/// their own). So every published number, and every linear combination of published numbers an
/// attacker can form, is constant on each block and is a sum of block totals — each 0 or ≥ k.
/// Hence:
/// 1. No set of atomic cells whose count is in 1..<k has a count that is a linear combination of
///    published numbers (differences of nested windows, total minus other areas, area minus
///    groups, …): such a combination would be a sum of block totals.
/// 2. Every suppressed number has at least two values consistent with all published numbers,
///    nonnegative cells, and "a suppressed number is at least 1" (true, since zeros are shown):
///    it cuts a released block that has a cell of at least 2 (moving one report inside the block
///    changes it and nothing published), or it contains a withheld cell (which can grow freely).
///    This is why a merged block whose cells are all 1 counts as unsafe and is merged further.
///
/// ## Limits
/// - Only one release is covered. Two releases with different `end` days, kinds, bases or
///   audiences, or a release next to an export, can be differenced outside this guarantee.
/// - "Not a single value" is all (2) promises; the feasible range may be narrow (e.g. 1–2).
/// - Which numbers are suppressed depends on the data (that is what suppression is); an attacker
///   who simulates this algorithm over candidate tables may learn more than the linear and
///   interval reasoning above. Zeros are shown, so a suppressed number is known to be ≥ 1.
struct SuppressionPlan {
    let threshold: Int
    private var blockOfCell: [AtomicCell: Int] = [:]
    private var cellsOfBlock: [[AtomicCell]] = []
    private var withheld: Set<Int> = []
    private let counts: [AtomicCell: Int]

    /// Builds blocks greedily from one block per positive cell: while some block is unsafe
    /// (total in 1..<k, or several cells all of count 1), merge it with its nearest block —
    /// the same area first, then areas near in id order; within that, the nearest time segment
    /// (the same segment first, which keeps area windows intact at the cost of the group
    /// breakdown), then a shared group, then another unsafe block, then the smallest total. A
    /// block that is unsafe and alone is withheld: nothing touching it is published.
    init(counts: [AtomicCell: Int], threshold: Int) {
        self.threshold = threshold
        self.counts = counts.filter { $0.value > 0 }
        var blocks = self.counts.keys.sorted().map { Block(cell: $0, count: self.counts[$0]!) }
        while let i = blocks.firstIndex(where: { $0.isUnsafe(threshold: threshold) }) {
            guard blocks.count > 1 else {
                withheld.insert(0)
                break
            }
            let j = blocks.indices.lazy.filter { $0 != i }
                .map { ($0, blocks[i].preference(for: blocks[$0], threshold: threshold)) }
                .min { $0.1.lexicographicallyPrecedes($1.1) }!.0
            blocks[i].absorb(blocks[j])
            blocks.remove(at: j)
        }
        for (id, block) in blocks.enumerated() {
            cellsOfBlock.append(block.cells)
            for cell in block.cells { blockOfCell[cell] = id }
        }
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

        /// Smaller is a better merge partner; ties end at the partner's first cell, so the
        /// result depends only on the table.
        func preference(for other: Block, threshold: Int) -> [Int] {
            [Self.distance(areas, other.areas),
             Self.distance(segments, other.segments),
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
