import Dispatch
import Synchronization

/// One boundary segment of an area.
struct Segment: Sendable {
    var ax: Double, ay: Double, bx: Double, by: Double
}

/// A boundary segment filed under a cell, with the side of the cell's reference point.
struct CellEdge: Sendable {
    var ax: Double, ay: Double, bx: Double, by: Double
    /// Certified orientation of (a, b, reference point); never 0 in a decided group.
    var referenceSide: Double
}

/// The part of one area that touches one cell.
struct CellGroup: Sendable {
    var area: Int32
    var edgeStart: Int32
    var edgeCount: Int32
    var flags: Int32

    /// The cell's reference point lies in the area's interior.
    static let referenceInside: Int32 = 1
    /// The reference point is too close to this area's boundary to decide by floating point:
    /// every point of the cell is decided by GEOS for this area.
    static let undecided: Int32 = 2
}

/// A uniform grid over a layer in which every cell lists, per area touching it, the area's
/// boundary segments that cross the cell and whether the cell's reference point (its centre) is
/// inside the area.
///
/// A query point P in a cell with reference point C is inside an area exactly when C is inside
/// XOR the segment PC properly crosses an odd number of the area's segments in that cell. Every
/// orientation is evaluated with a certified sign; when one cannot be certified (P on or within
/// rounding distance of a boundary, a vertex on PC) the grid says "undecided" and the caller asks
/// GEOS. Decided answers are therefore the exact ones, which are GEOS's `covers` answers.
struct AreaGrid: Sendable {
    let frame: GridFrame
    let tables: GridTables

    /// Groups of cell c are `groups[cellStart[c] ..< cellStart[c + 1]]`, in ascending area order.
    var cellStart: UnsafeBufferPointer<Int32> { tables.cellStart }
    var groups: UnsafeBufferPointer<CellGroup> { tables.groups }
    var edges: UnsafeBufferPointer<CellEdge> { tables.edges }

    /// A grid read back from its tables (`AreaIndexFile`).
    init(frame: GridFrame, tables: GridTables) {
        self.frame = frame
        self.tables = tables
    }

    /// Outcome of testing one point against one group.
    enum Answer { case inside, outside, undecided }

    /// Builds the grid for areas given as their boundary segments (all rings of all parts).
    /// - Parameters:
    ///   - segments: every area's segments, concatenated; `segmentStart[i] ..< segmentStart[i + 1]`
    ///     are area i's.
    ///   - cellsPerSegment: grid cells per boundary segment (about 2 balances build and query).
    ///   - threads: workers for the per-area phase.
    init(segments: [Segment], segmentStart: [Int], box: BoundingBox, cellsPerSegment: Double, threads: Int) {
        let areaCount = segmentStart.count - 1
        let frame = GridFrame(box: box, cells: Int(cellsPerSegment * Double(max(segments.count, 1))))
        self.frame = frame
        var perArea = [AreaCells](repeating: AreaCells(), count: areaCount)
        let next = Atomic<Int>(0)
        segments.withUnsafeBufferPointer { segs in
            let shared = SharedReads(base: segs.baseAddress!, count: segs.count)
            perArea.withUnsafeMutableBufferPointer { out in
                let sink = DisjointWrites(base: out.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: max(1, min(threads, areaCount))) { _ in
                    while true {
                        let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                        if i >= areaCount { break }
                        let mine = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(start: shared.base, count: shared.count)[segmentStart[i]..<segmentStart[i + 1]])
                        let cells = AreaCells(segments: mine, frame: frame)
                        sink.update(at: i) { $0 = cells }
                    }
                }
            }
        }
        // Merge into cell-major order; groups of a cell come out in ascending area order
        // because areas are visited in order.
        let start = UnsafeMutableBufferPointer<Int32>.allocate(capacity: frame.cellCount + 1)
        start.initialize(repeating: 0)
        for a in perArea { for c in a.cells { start[Int(c) + 1] += 1 } }
        for c in 0..<frame.cellCount { start[c + 1] += start[c] }
        var cursor = Array(start)
        let groups = UnsafeMutableBufferPointer<CellGroup>.allocate(capacity: Int(start[frame.cellCount]))
        // Edges are stored in cell order, beside the groups of their cell, not area by area:
        // a point then reads one stretch of memory for its cell (a third of the cache misses
        // at 300,000 areas went to edges stored with areas far apart in id order).
        for (i, a) in perArea.enumerated() {
            for k in a.cells.indices {
                let c = Int(a.cells[k])
                groups.initializeElement(at: Int(cursor[c]), to: CellGroup(area: Int32(i), edgeStart: a.edgeStart[k],
                                                                          edgeCount: a.edgeStart[k + 1] - a.edgeStart[k], flags: a.flags[k]))
                cursor[c] += 1
            }
        }
        let edges = UnsafeMutableBufferPointer<CellEdge>.allocate(capacity: perArea.reduce(0) { $0 + $1.edges.count })
        var written = 0
        for k in groups.indices {
            let g = groups[k]
            let from = Int(g.edgeStart)
            groups[k].edgeStart = Int32(written)
            written = UnsafeMutableBufferPointer(rebasing: edges[written...])
                .initialize(fromContentsOf: perArea[Int(g.area)].edges[from ..< from + Int(g.edgeCount)]) + written
        }
        self.tables = GridTables(allocatedCellStart: start, groups: groups, edges: edges)
    }

    /// Bytes a point's look-up may read from: cell starts, groups and edges.
    var byteCount: Int { tables.byteCount }

    /// The cell of a point, or nil outside the grid (NaN included).
    @inline(__always)
    func cell(x: Double, y: Double) -> (column: Int, row: Int)? {
        guard x >= frame.x0, x <= frame.x1, y >= frame.y0, y <= frame.y1 else { return nil }
        return (frame.column(x), frame.row(y))
    }

    /// The index of a point's cell (row-major), or nil outside the grid.
    @inline(__always)
    func cellIndex(x: Double, y: Double) -> Int? {
        guard let (c, r) = cell(x: x, y: y) else { return nil }
        return r * frame.nx + c
    }

    /// Tests one point against one group of its cell, whose reference point is (cx, cy).
    @inline(__always)
    static func test(_ g: CellGroup, x: Double, y: Double, cx: Double, cy: Double,
                     edges: UnsafeBufferPointer<CellEdge>) -> Answer {
        if g.flags & CellGroup.undecided != 0 { return .undecided }
        var parity = g.flags & CellGroup.referenceInside
        var k = Int(g.edgeStart)
        let end = k + Int(g.edgeCount)
        while k < end {
            let e = edges[k]
            k += 1
            // Sides of the segment's ends relative to the line through C and P.
            let sa = certifiedOrientation(cx, cy, e.ax, e.ay, x, y)
            let sb = certifiedOrientation(cx, cy, e.bx, e.by, x, y)
            if sa == 0 || sb == 0 { return .undecided }
            if (sa > 0) == (sb > 0) { continue }
            // Sides of P and C relative to the segment's line.
            let sp = certifiedOrientation(e.ax, e.ay, e.bx, e.by, x, y)
            if sp == 0 { return .undecided }
            if (sp > 0) != (e.referenceSide > 0) { parity ^= 1 }
        }
        return parity != 0 ? .inside : .outside
    }
}

/// The cells one area touches, with its segments per cell: the per-area half of the build.
struct AreaCells: Sendable {
    var cells: [Int32] = []
    var flags: [Int32] = []
    /// Edges of `cells[k]` are `edges[edgeStart[k] ..< edgeStart[k + 1]]`.
    var edgeStart: [Int32] = [0]
    var edges: [CellEdge] = []

    init() {}

    private struct Crossing {
        var row: Int32
        var segment: Int32
        var x: Double
    }

    init(segments: UnsafeBufferPointer<Segment>, frame: GridFrame) {
        guard !segments.isEmpty else { return }
        // 1. Segments filed under every cell their (widened) bounding box overlaps.
        var entries: [UInt64] = []
        entries.reserveCapacity(segments.count * 2)
        for (k, s) in segments.enumerated() {
            for r in frame.rows(min(s.ay, s.by), max(s.ay, s.by)) {
                for c in frame.columns(min(s.ax, s.bx), max(s.ax, s.bx)) {
                    entries.append(UInt64(r * frame.nx + c) << 32 | UInt64(k))
                }
            }
        }
        entries.sort()

        // 2. Crossings of the boundary with each row's centre line (half-open in y, so that a
        //    vertex on the line is counted once), sorted by row and x.
        var crossings: [Crossing] = []
        var minRow = Int.max, maxRow = -1
        for (k, s) in segments.enumerated() {
            let lo = min(s.ay, s.by), hi = max(s.ay, s.by)
            guard lo < hi else { continue }
            let r0 = max(0, Int(((lo - frame.y0) * frame.inverseHeight - 0.5).rounded(.down)))
            let r1 = min(frame.ny - 1, Int(((hi - frame.y0) * frame.inverseHeight - 0.5).rounded(.up)))
            guard r0 <= r1 else { continue }
            for r in r0...r1 {
                let yc = frame.centreY(r)
                guard lo <= yc, yc < hi else { continue }
                let t = (yc - s.ay) / (s.by - s.ay)
                crossings.append(Crossing(row: Int32(r), segment: Int32(k), x: s.ax + t * (s.bx - s.ax)))
                minRow = min(minRow, r); maxRow = max(maxRow, r)
            }
        }
        crossings.sort { $0.row != $1.row ? $0.row < $1.row : $0.x < $1.x }
        var rowStart: [Int] = []
        if maxRow >= minRow {
            rowStart = [Int](repeating: 0, count: maxRow - minRow + 2)
            for c in crossings { rowStart[Int(c.row) - minRow + 1] += 1 }
            for i in 1..<rowStart.count { rowStart[i] += rowStart[i - 1] }
        }
        func rowCrossings(_ r: Int) -> Range<Int> {
            guard r >= minRow, r <= maxRow else { return 0..<0 }
            return rowStart[r - minRow]..<rowStart[r - minRow + 1]
        }
        // Crossings nearer than this to a reference point are decided by exact orientation;
        // beyond it the computed x is certainly on the right side.
        let tolerance = 1e-12 * (abs(frame.x0) + abs(frame.x1) + (frame.x1 - frame.x0) + 1)

        /// Whether the reference point (cx, yc) of row r is inside: an odd number of crossings to
        /// its right. nil when one crossing is too close to call.
        func referenceInside(row r: Int, cx: Double, cy: Double) -> Bool? {
            var right = 0
            for i in rowCrossings(r) {
                let c = crossings[i]
                if c.x > cx + tolerance { right += 1; continue }
                if c.x < cx - tolerance { continue }
                let s = segments[Int(c.segment)]
                let (lx, ly, ux, uy) = s.ay < s.by ? (s.ax, s.ay, s.bx, s.by) : (s.bx, s.by, s.ax, s.ay)
                let o = certifiedOrientation(lx, ly, ux, uy, cx, cy)
                if o == 0 { return nil }
                if o > 0 { right += 1 }
            }
            return right & 1 == 1
        }

        // 3. Walk boundary cells (from the entries) and interior cells (from the row spans) in
        //    cell order, emitting one group per cell.
        var e = 0
        func emitBoundaryCell() {
            let cell = Int(entries[e] >> 32)
            let r = cell / frame.nx, c = cell % frame.nx
            let cx = frame.centreX(c), cy = frame.centreY(r)
            var flag: Int32 = 0
            switch referenceInside(row: r, cx: cx, cy: cy) {
            case .some(true): flag = CellGroup.referenceInside
            case .some(false): flag = 0
            case .none: flag = CellGroup.undecided
            }
            while e < entries.count, Int(entries[e] >> 32) == cell {
                let s = segments[Int(entries[e] & 0xffff_ffff)]
                let side = certifiedOrientation(s.ax, s.ay, s.bx, s.by, cx, cy)
                if side == 0 { flag = CellGroup.undecided }
                edges.append(CellEdge(ax: s.ax, ay: s.ay, bx: s.bx, by: s.by, referenceSide: side))
                e += 1
            }
            cells.append(Int32(cell))
            flags.append(flag)
            edgeStart.append(Int32(edges.count))
        }
        func emitInteriorCell(_ cell: Int) {
            cells.append(Int32(cell))
            flags.append(CellGroup.referenceInside)
            edgeStart.append(Int32(edges.count))
        }
        if maxRow >= minRow {
            for r in minRow...maxRow {
                let range = rowCrossings(r)
                var i = range.lowerBound
                while i + 1 < range.upperBound {
                    let a = crossings[i].x, b = crossings[i + 1].x
                    i += 2
                    let c0 = max(0, Int(((a - frame.x0) * frame.inverseWidth - 0.5).rounded(.up)))
                    let c1 = min(frame.nx - 1, Int(((b - frame.x0) * frame.inverseWidth - 0.5).rounded(.down)))
                    guard c0 <= c1 else { continue }
                    for c in c0...c1 {
                        let cell = r * frame.nx + c
                        while e < entries.count, Int(entries[e] >> 32) < cell { emitBoundaryCell() }
                        if e < entries.count, Int(entries[e] >> 32) == cell { continue }
                        emitInteriorCell(cell)
                    }
                }
            }
        }
        while e < entries.count { emitBoundaryCell() }
    }
}
