import CPrefetch
import Dispatch
import DomainKernel
import Foundation
import Support

/// Counts of points per area after a batch assignment.
public struct AssignmentCounts: Equatable, Sendable {
    /// Points per area, indexed like `AreaIndex.areas`.
    public var perArea: [Int]
    /// Points in no area.
    public var unassigned: Int

    public init(perArea: [Int], unassigned: Int) {
        self.perArea = perArea
        self.unassigned = unassigned
    }

    /// All points counted.
    public var total: Int { perArea.reduce(unassigned, +) }
}

/// Answers "which area contains this point" for one version of one layer.
///
/// Built once, immutable afterwards, safe to share between any number of tasks. The answer for a
/// point is the first area, in ascending byte order of area id, whose closure covers the point
/// (GEOS's prepared `covers`). So a point inside one area belongs to it; a point on an edge or
/// vertex shared by several areas belongs to the one with the smallest id; a point in a hole
/// belongs to no area unless another area covers it.
///
/// The answer comes from a uniform grid whose cells list the boundary segments crossing them
/// (see `AreaGrid`) with certified floating-point orientation tests. Only points the grid cannot
/// decide exactly — on or within rounding distance of a boundary — are handed to GEOS.
public final class AreaIndex: Sendable {
    /// The areas, in the index's order (ascending byte order of id).
    public let areas: [IndexedArea]
    /// Bounding box of all areas, nil for an empty layer.
    public let boundingBox: BoundingBox?
    let grid: AreaGrid
    private let coverage: GEOSCoveragePool
    /// A grid larger than this many bytes does not stay in the processor's caches: a batch's
    /// points are then visited in cell order (`regionOrdered`). Measured on one thread, 1,000,000
    /// uniform points: grids of 17 MB (10,000 generated areas) and 22 MB (4,000 Chicago cells)
    /// ran 2.7× and 1.4× faster in cell order; one of 3 MB (77 Chicago community areas, already
    /// at 38 M points/s) ran at 0.4× of its speed, the sort costing more than the misses it saves.
    let orderedVisitBytes: Int

    /// Builds the index. The areas must be GEOS-valid (`AreaValidator` output) with unique ids.
    /// - Parameters:
    ///   - areas: the layer's areas, in any order.
    ///   - cellsPerSegment: grid density (cells per boundary segment).
    ///   - threads: workers for the build; defaults to every core.
    public convenience init(areas: [IndexedArea], cellsPerSegment: Double = 2, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.init(areas: areas, cellsPerSegment: cellsPerSegment, threads: threads, orderedVisitBytes: 8 << 20)
    }

    /// The same, with the grid size from which batches are visited in cell order (tests use 0).
    convenience init(areas: [IndexedArea], cellsPerSegment: Double, threads: Int, orderedVisitBytes: Int) {
        self.init(sortedAreas: Self.inIndexOrder(areas), cellsPerSegment: cellsPerSegment, threads: threads, orderedVisitBytes: orderedVisitBytes)
    }

    /// Builds the index over areas already in index order (`inIndexOrder`).
    convenience init(sortedAreas sorted: [IndexedArea], cellsPerSegment: Double = defaultCellsPerSegment,
                     threads: Int = ProcessInfo.processInfo.activeProcessorCount, orderedVisitBytes: Int = 8 << 20) {
        var segments: [Segment] = []
        var segmentStart = [0]
        var box: BoundingBox?
        for a in sorted {
            for p in a.polygons {
                for ring in p.rings {
                    for k in 0..<(ring.count - 1) {
                        segments.append(Segment(ax: ring[k].lon, ay: ring[k].lat, bx: ring[k + 1].lon, by: ring[k + 1].lat))
                    }
                }
            }
            segmentStart.append(segments.count)
            if !a.polygons.isEmpty {
                if box == nil { box = a.boundingBox } else { box!.extend(a.boundingBox) }
            }
        }
        let grid = AreaGrid(segments: segments, segmentStart: segmentStart,
                            box: box ?? BoundingBox(west: 0, south: 0, east: 0, north: 0),
                            cellsPerSegment: cellsPerSegment, threads: threads)
        self.init(sortedAreas: sorted, boundingBox: box, grid: grid, orderedVisitBytes: orderedVisitBytes)
    }

    /// An index from its parts: areas in index order and their grid, built or read back.
    init(sortedAreas sorted: [IndexedArea], boundingBox: BoundingBox?, grid: AreaGrid, orderedVisitBytes: Int = 8 << 20) {
        // `ordinal(of:)` searches the ids by halves.
        assert(zip(sorted, sorted.dropFirst()).allSatisfy { ByteOrderedSearch.precedes($0.id, $1.id) }, "areas not in index order")
        self.orderedVisitBytes = orderedVisitBytes
        self.areas = sorted
        self.boundingBox = boundingBox
        self.grid = grid
        self.coverage = GEOSCoveragePool(areas: sorted)
    }

    /// Grid cells per boundary segment unless told otherwise: about 2 balances build and query.
    public static let defaultCellsPerSegment = 2.0

    /// The areas in the index's order: ascending byte order of id.
    public static func inIndexOrder(_ areas: [IndexedArea]) -> [IndexedArea] {
        areas.sorted { ByteOrderedSearch.precedes($0.id, $1.id) }
    }

    /// Position of an area id in `areas`.
    /// The area with this id (the areas are in ascending byte order of id).
    public func ordinal(of id: String) -> Int? {
        ByteOrderedSearch.position(of: id, count: areas.count) { areas[$0].id }
    }

    /// The area covering the point, as an index into `areas`, or nil when none does.
    public func locate(lon: Double, lat: Double) -> Int? {
        let i = Self.locate(grid: grid, x: lon, y: lat) { coverage.covers(area: $0, lon: lon, lat: lat) }
        return i < 0 ? nil : i
    }

    /// The area covering the point, or nil.
    public func area(containingLon lon: Double, lat: Double) -> IndexedArea? {
        locate(lon: lon, lat: lat).map { areas[$0] }
    }

    /// Assigns many points, given as interleaved lon, lat pairs, using `threads` workers.
    /// - Returns: per point the index into `areas`, or -1 when no area covers it.
    public func assign(_ lonLat: UnsafeBufferPointer<Double>, threads: Int = ProcessInfo.processInfo.activeProcessorCount) -> [Int32] {
        let n = lonLat.count / 2
        guard n > 0 else { return [] }
        return [Int32](unsafeUninitializedCapacity: n) { out, initialized in
            let sink = DisjointWrites(base: out.baseAddress!)
            inVisitOrder(lonLat) { xy, positions in
                let points = SharedReads(base: xy.baseAddress!, count: xy.count)
                forEachChunk(n, threads: threads) { _, range, coverage in
                    self.locate(points, range, coverage, prefetching: positions != nil) { k, area in
                        sink.write(area, at: positions.map { Int($0[k]) } ?? k)
                    }
                }
            }
            initialized = n
        }
    }

    /// Counts many points per area (interleaved lon, lat pairs) using `threads` workers.
    public func count(_ lonLat: UnsafeBufferPointer<Double>, threads: Int = ProcessInfo.processInfo.activeProcessorCount) -> AssignmentCounts {
        inVisitOrder(lonLat) { xy, positions in count(points: xy, threads: threads, prefetching: positions != nil) }
    }

    /// Runs `body` over the points in the order they are best visited: cell order for a large
    /// grid (`regionOrdered`, with each point's input position), else as given (positions nil).
    private func inVisitOrder<T>(_ lonLat: UnsafeBufferPointer<Double>, _ body: (UnsafeBufferPointer<Double>, [Int32]?) -> T) -> T {
        guard let ordered = regionOrdered(lonLat) else { return body(lonLat, nil) }
        return ordered.coordinates.withUnsafeBufferPointer { body($0, ordered.positions) }
    }

    private func count(points lonLat: UnsafeBufferPointer<Double>, threads: Int, prefetching: Bool) -> AssignmentCounts {
        let chunks = max(1, threads)
        let width = areas.count + 1
        var tallies = [Int](repeating: 0, count: chunks * width)
        let n = lonLat.count / 2
        guard n > 0 else { return AssignmentCounts(perArea: [Int](repeating: 0, count: areas.count), unassigned: 0) }
        let points = SharedReads(base: lonLat.baseAddress!, count: lonLat.count)
        tallies.withUnsafeMutableBufferPointer { t in
            let sink = DisjointWrites(base: t.baseAddress!)
            forEachChunk(n, threads: chunks) { chunk, range, coverage in
                var local = [Int](repeating: 0, count: width)
                self.locate(points, range, coverage, prefetching: prefetching) { _, area in local[Int(area) + 1] += 1 }
                for k in 0..<width { sink.update(at: chunk * width + k) { $0 = local[k] } }
            }
        }
        var perArea = [Int](repeating: 0, count: areas.count)
        var unassigned = 0
        for c in 0..<chunks {
            unassigned += tallies[c * width]
            for a in 0..<areas.count { perArea[a] += tallies[c * width + 1 + a] }
        }
        return AssignmentCounts(perArea: perArea, unassigned: unassigned)
    }

    /// Regions of the first of the two sorts (see `regionOrdered`).
    static let visitRegions = 256

    /// A point on its way through the first sort: everything the second one reads, in one
    /// record, so that each region is one stream of writes.
    private struct SortEntry {
        var x: Double, y: Double
        var cell: Int32, position: Int32
    }

    /// The points of a large layer's batch sorted by grid cell, with each one's position in the
    /// input; nil when the grid is small or the batch too small to repay the sort. Random points
    /// over a 300,000-area grid each missed the caches three times (cell, groups, edges): 1.9 M
    /// points/s against 13 M/s for 1,000 areas. In cell order the three arrays are read front to
    /// back, which the processor prefetches.
    ///
    /// Two counting sorts keep the sort itself in cache: by region of consecutive cells (a few
    /// hundred output streams), then within each region by cell (a region's counts stay in the
    /// second-level cache).
    func regionOrdered(_ lonLat: UnsafeBufferPointer<Double>) -> (coordinates: [Double], positions: [Int32])? {
        let n = lonLat.count / 2
        let cells = grid.frame.cellCount
        guard grid.byteCount >= orderedVisitBytes, n >= 4096, n < Int(Int32.max) else { return nil }
        let regions = Self.visitRegions
        let cellsPerRegion = (cells + regions - 1) / regions
        let cellOf = UnsafeMutableBufferPointer<Int32>.allocate(capacity: n)
        defer { cellOf.deallocate() }
        var start = [Int](repeating: 0, count: regions + 1)
        for i in 0..<n {
            let cell = grid.cellIndex(x: lonLat[2 * i], y: lonLat[2 * i + 1]) ?? 0
            cellOf[i] = Int32(cell)
            start[cell / cellsPerRegion + 1] += 1
        }
        for r in 0..<regions { start[r + 1] += start[r] }
        let bounds = start
        let entries = UnsafeMutableBufferPointer<SortEntry>.allocate(capacity: n)
        defer { entries.deallocate() }
        for i in 0..<n {
            let cell = cellOf[i]
            let r = Int(cell) / cellsPerRegion
            let k = start[r]
            start[r] = k + 1
            (entries.baseAddress! + k).initialize(to: SortEntry(x: lonLat[2 * i], y: lonLat[2 * i + 1], cell: cell, position: Int32(i)))
        }
        var positions = [Int32](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        let coordinates = [Double](unsafeUninitializedCapacity: 2 * n) { xy, initialized in
            positions.withUnsafeMutableBufferPointer { positions in
                var counts = [Int](repeating: 0, count: cellsPerRegion + 1)
                for r in 0..<regions where bounds[r + 1] > bounds[r] {
                    let range = bounds[r]..<bounds[r + 1]
                    let low = r * cellsPerRegion
                    for c in counts.indices { counts[c] = 0 }
                    for k in range { counts[Int(entries[k].cell) - low + 1] += 1 }
                    counts[0] = range.lowerBound
                    for c in 0..<cellsPerRegion { counts[c + 1] += counts[c] }
                    for k in range {
                        let e = entries[k]
                        let c = Int(e.cell) - low
                        let to = counts[c]
                        counts[c] = to + 1
                        xy[2 * to] = e.x
                        xy[2 * to + 1] = e.y
                        positions[to] = e.position
                    }
                }
            }
            initialized = 2 * n
        }
        return (coordinates, positions)
    }

    /// How many points ahead of the one being located the loads for its cell are started: the
    /// groups at twice this distance, the edges (which need the group's start) at this distance.
    static let prefetchDistance = 8

    /// Locates the points of `range` in order, handing each position and answer to `each`.
    /// With `prefetching` (points in cell order over a grid larger than the caches), the cell
    /// tables of the points a little ahead are asked of memory while this one is tested: the
    /// loads are in ascending order but too far apart for the processor to guess.
    @inline(__always)
    private func locate(_ lonLat: SharedReads<Double>, _ range: Range<Int>, _ coverage: LazyCoverage, prefetching: Bool,
                        _ each: (Int, Int32) -> Void) {
        guard prefetching else {
            for k in range { each(k, locateUnchecked(lonLat, k, coverage)) }
            return
        }
        let d = Self.prefetchDistance
        let groups = grid.groups, edges = grid.edges
        for k in range {
            if k + 2 * d < range.upperBound, let cell = cellIndex(lonLat, k + 2 * d) {
                geoserve_prefetch(groups.baseAddress! + Int(grid.cellStart[cell]))
            }
            if k + d < range.upperBound, let cell = cellIndex(lonLat, k + d) {
                let lo = Int(grid.cellStart[cell])
                if lo < groups.count {
                    let edge = edges.baseAddress! + Int(groups[lo].edgeStart)
                    geoserve_prefetch(edge)
                    geoserve_prefetch(UnsafeRawPointer(edge) + 64)
                }
            }
            each(k, locateUnchecked(lonLat, k, coverage))
        }
    }

    @inline(__always)
    private func cellIndex(_ lonLat: SharedReads<Double>, _ i: Int) -> Int? {
        grid.cellIndex(x: lonLat.base[2 * i], y: lonLat.base[2 * i + 1])
    }

    @inline(__always)
    private func locateUnchecked(_ lonLat: SharedReads<Double>, _ i: Int, _ coverage: LazyCoverage) -> Int32 {
        let x = lonLat.base[2 * i], y = lonLat.base[2 * i + 1]
        return Int32(Self.locate(grid: grid, x: x, y: y) { coverage.get(self.areas).covers(area: $0, lon: x, lat: y) })
    }

    /// Splits the points into `threads` contiguous chunks, each run by one worker with its own
    /// (lazily created) GEOS coverage.
    private func forEachChunk(_ n: Int, threads: Int, _ body: @Sendable (Int, Range<Int>, LazyCoverage) -> Void) {
        let chunks = max(1, threads)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            let range = (c * n / chunks)..<((c + 1) * n / chunks)
            body(c, range, LazyCoverage())
        }
    }

    /// The grid answer with GEOS deciding what the grid cannot: the first covering area in
    /// index order, or -1.
    @inline(__always)
    static func locate(grid: AreaGrid, x: Double, y: Double, covers: (Int) -> Bool) -> Int {
        guard let (c, r) = grid.cell(x: x, y: y) else { return -1 }
        let cell = r * grid.frame.nx + c
        let cx = grid.frame.centreX(c), cy = grid.frame.centreY(r)
        let groups = grid.groups, edges = grid.edges
        let lo = Int(grid.cellStart[cell]), hi = Int(grid.cellStart[cell + 1])
        for k in lo..<hi {
            let g = groups[k]
            switch AreaGrid.test(g, x: x, y: y, cx: cx, cy: cy, edges: edges) {
            case .inside: return Int(g.area)
            case .outside: continue
            case .undecided: if covers(Int(g.area)) { return Int(g.area) }
            }
        }
        return -1
    }
}

/// One worker's GEOS coverage, created on first need: most chunks never need GEOS at all.
///
/// `@unchecked Sendable` is sound because each instance is created inside one worker's closure
/// and used only by that worker.
final class LazyCoverage: @unchecked Sendable {
    private var coverage: GEOSCoverage?

    func get(_ areas: [IndexedArea]) -> GEOSCoverage {
        if let coverage { return coverage }
        let c = GEOSCoverage(areas: areas)
        coverage = c
        return c
    }
}
