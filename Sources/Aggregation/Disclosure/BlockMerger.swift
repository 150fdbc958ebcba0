import DomainKernel

/// The greedy merge behind `SuppressionPlan`, on flat arrays so that a 20,000-area layer costs
/// time proportional to its cells rather than to cells × blocks.
///
/// A block is named by the cell it started from (its id); an absorbed block points to its
/// absorber (union–find), so nothing has to be renamed when blocks merge. Every block is listed
/// under each (area, segment) pair of its areas × segments: the grid itself lists a cell's own
/// block, `extra` the pairs a merge added. A partner search then walks outward from the block,
/// nearest in the order's first dimension, then nearest in the other, and stops at the first
/// pair of distances that holds any block — exactly the partner the preference order names,
/// without looking at every block in the layer. A class, so that path compression during a
/// search updates the one `parent` array in place instead of copying it.
final class BlockMerger {
    private let grid: CellGrid
    private let counts: [Int]
    private let threshold: Int
    private let order: SuppressionPlan.MergeOrder

    /// Per cell: the block it was absorbed into (itself while it leads a block).
    private var parent: [Int]
    // Per block id (meaningful while the id leads a block):
    private var total: [Int]
    private var largest: [Int]
    private var cellCount: [Int]
    private var firstCell: [Int]
    private var segments: [UInt8]
    /// Empty means just the area of the id's own cell, so one-area blocks never allocate.
    private var manyAreas: [Set<Int>]
    private var groups: [GroupSet?]
    private var withheld: [Bool]
    /// Per (area, segment) pair: blocks listed there by a merge (the grid lists the rest).
    private var extra: [[Int]]
    /// Per coordinate of the first dimension: how many blocks have it.
    private var blocksAtPlace: [Int]

    init(grid: CellGrid, counts: [Int], threshold: Int, order: SuppressionPlan.MergeOrder) {
        self.grid = grid
        self.counts = counts
        self.threshold = threshold
        self.order = order
        let n = grid.cellCount
        parent = Array(0..<n)
        total = counts.map { max($0, 0) }
        largest = total
        cellCount = [Int](repeating: 1, count: n)
        firstCell = Array(0..<n)
        segments = (0..<n).map { UInt8(1) << UInt8(grid.segment(of: $0)) }
        manyAreas = [Set<Int>](repeating: [], count: n)
        groups = [GroupSet?](repeating: nil, count: n)
        withheld = [Bool](repeating: false, count: n)
        extra = [[Int]](repeating: [], count: grid.areaCount * CellGrid.segmentCount)
        blocksAtPlace = [Int](repeating: 0, count: order == .timeWithinArea ? grid.areaCount : CellGrid.segmentCount)
        for cell in 0..<n where counts[cell] > 0 {
            groups[cell] = GroupSet(grid.group(of: cell))
            blocksAtPlace[order == .timeWithinArea ? grid.area(of: cell) : grid.segment(of: cell)] += 1
        }
    }

    /// Runs the merge: unsafe blocks in cell order, each absorbing its preferred partner until
    /// safe, or withheld when no other block is left. Returns per cell the id of its final block
    /// (meaningless for cells of count 0) and per id whether that block is withheld.
    func run() -> (blockOf: [Int], withheld: [Bool]) {
        for id in 0..<grid.cellCount where counts[id] > 0 && parent[id] == id {
            while isUnsafe(id) {
                guard let partner = partner(of: id) else {
                    withheld[id] = true
                    break
                }
                absorb(partner, into: id)
            }
        }
        let blockOf = (0..<grid.cellCount).map { counts[$0] > 0 ? find($0) : -1 }
        return (blockOf, withheld)
    }

    /// The summary `SuppressionPlan` keeps per final block: its only area (nil if several), its
    /// segments, its only group (nil if several).
    func summary(of block: Int) -> (area: Int?, segments: UInt8, group: Int?) {
        let areas = manyAreas[block]
        return (areas.isEmpty ? grid.area(of: block) : nil, segments[block], groups[block]?.single)
    }

    /// Too small to publish, or several cells that are all ones (then the ≥ 1 bound of every
    /// suppressed number could pin each of them).
    private func isUnsafe(_ block: Int) -> Bool {
        total[block] > 0 && (total[block] < threshold || (cellCount[block] > 1 && largest[block] < 2))
    }

    private func find(_ cell: Int) -> Int {
        var c = cell
        while parent[c] != c {
            parent[c] = parent[parent[c]]
            c = parent[c]
        }
        return c
    }

    private func areas(of block: Int) -> [Int] {
        manyAreas[block].isEmpty ? [grid.area(of: block)] : manyAreas[block].sorted()
    }

    private func hasArea(_ block: Int, _ area: Int) -> Bool {
        manyAreas[block].isEmpty ? grid.area(of: block) == area : manyAreas[block].contains(area)
    }

    private func areaCount(of block: Int) -> Int { max(1, manyAreas[block].count) }

    /// Coordinates `d` away from any of `coordinates` (which are sorted), within 0..<span, sorted and unique.
    private static func spread(_ coordinates: [Int], by d: Int, below span: Int) -> [Int] {
        if d == 0 { return coordinates }
        if coordinates.count == 1 {
            let c = coordinates[0]
            return c - d >= 0 ? (c + d < span ? [c - d, c + d] : [c - d]) : (c + d < span ? [c + d] : [])
        }
        var out: [Int] = []
        out.reserveCapacity(coordinates.count * 2)
        for c in coordinates {
            if c - d >= 0 { out.append(c - d) }
            if c + d < span { out.append(c + d) }
        }
        out.sort()
        var unique: [Int] = []
        unique.reserveCapacity(out.count)
        for c in out where unique.last != c { unique.append(c) }
        return unique
    }

    /// The preferred partner of `block`: among the blocks nearest in the order's first
    /// dimension, those nearest in the other; among those, one sharing a group, then an unsafe
    /// one, then the smallest total, then the first cell. nil when no other block exists.
    private func partner(of block: Int) -> Int? {
        let byArea = order == .timeWithinArea
        let placeSpan = byArea ? grid.areaCount : CellGrid.segmentCount
        let otherSpan = byArea ? CellGrid.segmentCount : grid.areaCount
        let blockAreas = areas(of: block), blockSegments = CellGrid.segments(in: segments[block])
        let places = byArea ? blockAreas : blockSegments
        let others = byArea ? blockSegments : blockAreas
        for d in 0..<placeSpan {
            let near = Self.spread(places, by: d, below: placeSpan)
            let occupied = near.contains { place in
                let own = byArea ? hasArea(block, place) : segments[block] & 1 << UInt8(place) != 0
                return blocksAtPlace[place] > (own ? 1 : 0)
            }
            guard occupied else { continue }
            for distance in 0..<otherSpan {
                var best: (key: (Int, Int, Int, Int), id: Int)?
                let around = Self.spread(others, by: distance, below: otherSpan)
                for place in near {
                    for other in around {
                        let (area, segment) = byArea ? (place, other) : (other, place)
                        for cell in grid.cells(area: area, segment: segment) where counts[cell] > 0 {
                            consider(find(cell), for: block, best: &best)
                        }
                        for listed in extra[area * CellGrid.segmentCount + segment] {
                            consider(find(listed), for: block, best: &best)
                        }
                    }
                }
                if let best { return best.id }
            }
        }
        return nil
    }

    private func consider(_ candidate: Int, for block: Int, best: inout (key: (Int, Int, Int, Int), id: Int)?) {
        guard candidate != block else { return }
        let key = (groups[block]!.isDisjoint(with: groups[candidate]!) ? 1 : 0, isUnsafe(candidate) ? 0 : 1,
                   total[candidate], firstCell[candidate])
        if best == nil || key < best!.key { best = (key, candidate) }
    }

    /// Merges block `other` into `block`, keeping the listing under every (area, segment) pair
    /// of the merged block's areas × segments.
    private func absorb(_ other: Int, into block: Int) {
        let mine = segments[block], theirs = segments[other]
        // Pairs neither block was listed under: my areas × their new segments, and back.
        if theirs & ~mine != 0 {
            let added = CellGrid.segments(in: theirs & ~mine)
            for area in areas(of: block) where !hasArea(other, area) {
                for segment in added { extra[area * CellGrid.segmentCount + segment].append(block) }
            }
        }
        if mine & ~theirs != 0 {
            let added = CellGrid.segments(in: mine & ~theirs)
            for area in areas(of: other) where !hasArea(block, area) {
                for segment in added { extra[area * CellGrid.segmentCount + segment].append(block) }
            }
        }
        // One block fewer at every place both had.
        if order == .timeWithinArea {
            let (small, large) = areaCount(of: block) <= areaCount(of: other) ? (block, other) : (other, block)
            for area in areas(of: small) where hasArea(large, area) { blocksAtPlace[area] -= 1 }
        } else {
            for segment in CellGrid.segments(in: mine & theirs) { blocksAtPlace[segment] -= 1 }
        }
        if !(manyAreas[block].isEmpty && manyAreas[other].isEmpty && grid.area(of: block) == grid.area(of: other)) {
            // Taken out of the arrays first so the union mutates the only reference, not a copy.
            var large = manyAreas[block], small = manyAreas[other]
            manyAreas[block] = []
            manyAreas[other] = []
            if large.isEmpty { large = [grid.area(of: block)] }
            if small.isEmpty { small = [grid.area(of: other)] }
            if large.count < small.count { swap(&large, &small) }
            large.formUnion(small)
            manyAreas[block] = large.count == 1 ? [] : large
        }
        segments[block] = mine | theirs
        groups[block]!.formUnion(groups[other]!)
        total[block] += total[other]
        largest[block] = max(largest[block], largest[other])
        cellCount[block] += cellCount[other]
        firstCell[block] = min(firstCell[block], firstCell[other])
        parent[other] = block
    }
}
