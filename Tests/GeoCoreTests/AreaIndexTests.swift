import DomainKernel
import Foundation
@testable import GeoCore
import Support
import Testing

@Suite("AreaIndex")
struct AreaIndexTests {
    @Test("a point on an edge shared by two areas belongs to the smaller id, whatever the input order")
    func sharedEdgeGoesToSmallestID() {
        let left = square(0, 0, 1), right = square(1, 0, 1)
        for areas in [[IndexedArea(id: "b", polygons: [left]), IndexedArea(id: "a", polygons: [right])],
                      [IndexedArea(id: "a", polygons: [right]), IndexedArea(id: "b", polygons: [left])]] {
            let index = AreaIndex(areas: areas)
            #expect(index.area(containingLon: 1, lat: 0.5)?.id == "a")
            #expect(index.area(containingLon: 1, lat: 0)?.id == "a")
            #expect(index.area(containingLon: 0.5, lat: 0.5)?.id == "b")
            #expect(index.area(containingLon: 1.5, lat: 0.5)?.id == "a")
        }
    }

    @Test("a vertex shared by four areas belongs to the smallest id")
    func sharedVertex() {
        let areas = [
            IndexedArea(id: "q4", polygons: [square(0, 0, 1)]), IndexedArea(id: "q2", polygons: [square(1, 0, 1)]),
            IndexedArea(id: "q3", polygons: [square(0, 1, 1)]), IndexedArea(id: "q1", polygons: [square(1, 1, 1)]),
        ]
        let index = AreaIndex(areas: areas)
        #expect(index.area(containingLon: 1, lat: 1)?.id == "q1")
        #expect(index.area(containingLon: 0, lat: 0)?.id == "q4")
        #expect(index.area(containingLon: 2, lat: 2)?.id == "q1")
    }

    @Test("ids order by bytes, so \"10\" comes before \"9\"")
    func byteOrder() {
        let index = AreaIndex(areas: [IndexedArea(id: "9", polygons: [square(0, 0, 1)]), IndexedArea(id: "10", polygons: [square(1, 0, 1)])])
        #expect(index.areas.map(\.id) == ["10", "9"])
        #expect(index.area(containingLon: 1, lat: 0.25)?.id == "10")
    }

    @Test("a point in a hole is outside, unless an island area covers it")
    func holes() throws {
        let outer = try Polygon(rings: [closedRing([(0, 0), (4, 0), (4, 4), (0, 4)]), closedRing([(1, 1), (1, 3), (3, 3), (3, 1)])])
        let island = square(1.5, 1.5, 1)
        let index = AreaIndex(areas: [IndexedArea(id: "ring", polygons: [outer]), IndexedArea(id: "z-island", polygons: [island])])
        #expect(index.area(containingLon: 0.5, lat: 0.5)?.id == "ring")
        #expect(index.area(containingLon: 1.2, lat: 2)?.id == nil)          // in the hole, beside the island
        #expect(index.area(containingLon: 2, lat: 2)?.id == "z-island")
        #expect(index.area(containingLon: 1, lat: 2)?.id == "ring")          // on the hole's edge: boundary of "ring"
        #expect(index.area(containingLon: 5, lat: 5) == nil)
    }

    @Test("every part of a MultiPolygon belongs to its area")
    func multiPolygon() {
        let index = AreaIndex(areas: [IndexedArea(id: "two", polygons: [square(0, 0, 1), square(5, 5, 1)]),
                                      IndexedArea(id: "one", polygons: [square(2, 2, 1)])])
        #expect(index.area(containingLon: 0.5, lat: 0.5)?.id == "two")
        #expect(index.area(containingLon: 5.5, lat: 5.5)?.id == "two")
        #expect(index.area(containingLon: 2.5, lat: 2.5)?.id == "one")
        #expect(index.area(containingLon: 4, lat: 4) == nil)
    }

    @Test("points outside the layer, NaN and infinities are unassigned")
    func outsideAndNonFinite() {
        let index = AreaIndex(areas: [IndexedArea(id: "a", polygons: [square(0, 0, 1)])])
        for (x, y) in [(-1.0, 0.5), (0.5, 7.0), (.nan, 0.5), (0.5, .nan), (.infinity, 0.5)] {
            #expect(index.locate(lon: x, lat: y) == nil)
        }
        let xy = [-1.0, 0.5, 0.5, 0.5, .nan, .nan]
        let counts = xy.withUnsafeBufferPointer { index.count($0, threads: 2) }
        #expect(counts == AssignmentCounts(perArea: [1], unassigned: 2))
    }

    @Test("an empty layer assigns nothing")
    func emptyLayer() {
        let index = AreaIndex(areas: [])
        #expect(index.locate(lon: 0, lat: 0) == nil)
        let counts = [0.0, 0.0].withUnsafeBufferPointer { index.count($0) }
        #expect(counts.unassigned == 1 && counts.perArea.isEmpty)
    }

    @Test("random points agree with GEOS prepared covers", arguments: [(8, UInt64(1)), (15, UInt64(2)), (30, UInt64(3))])
    func randomPointsAgreeWithGEOS(n: Int, seed: UInt64) {
        let layer = WarpedGridLayer(n: n, seed: seed)
        let index = AreaIndex(areas: layer.areas)
        let reference = GEOSReference(index)
        var rng = SeededRandom(seed: seed &* 7919)
        let b = layer.box
        let padX = (b.east - b.west) * 0.05, padY = (b.north - b.south) * 0.05
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            let x = Double.random(in: (b.west - padX)...(b.east + padX), using: &rng)
            let y = Double.random(in: (b.south - padY)...(b.north + padY), using: &rng)
            if index.locate(lon: x, lat: y) != reference.locate(x, y) { mismatches.append("\(x) \(y)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(3))")
    }

    @Test("vertices, points on edges and in holes agree with GEOS prepared covers")
    func boundaryPointsAgreeWithGEOS() {
        let layer = WarpedGridLayer(n: 12, seed: 42)
        let index = AreaIndex(areas: layer.areas)
        let reference = GEOSReference(index)
        var probes: [(Double, Double)] = layer.vertices + layer.holeCentres
        // Points along every edge (on the segment up to rounding) and a hair beside it.
        for a in layer.areas {
            for p in a.polygons {
                for ring in p.rings {
                    for k in 0..<(ring.count - 1) {
                        let (ax, ay, bx, by) = (ring[k].lon, ring[k].lat, ring[k + 1].lon, ring[k + 1].lat)
                        for t in [0.5, 0.25, 1.0 / 3.0] {
                            let x = ax + t * (bx - ax), y = ay + t * (by - ay)
                            probes.append((x, y))
                            probes.append((x.nextUp, y))
                            probes.append((x, y.nextDown))
                            probes.append((x + 1e-13, y - 1e-13))
                        }
                    }
                }
            }
        }
        var mismatches: [String] = []
        for (x, y) in probes where index.locate(lon: x, lat: y) != reference.locate(x, y) {
            mismatches.append("\(x) \(y): index \(String(describing: index.locate(lon: x, lat: y))) GEOS \(String(describing: reference.locate(x, y)))")
        }
        #expect(probes.count > 5_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(probes.count) differ, first: \(mismatches.prefix(3))")
    }

    @Test("axis-aligned data whose edges pass through cell centres still agrees with GEOS")
    func edgesThroughReferencePoints() {
        // Unit squares over a 0..8 box: the grid is built so that some cell centres fall
        // exactly on edges, which forces the "undecided" path.
        var areas: [IndexedArea] = []
        for i in 0..<8 { for j in 0..<8 { areas.append(IndexedArea(id: "s\(i)-\(j)", polygons: [square(Double(i), Double(j), 1)])) } }
        let index = AreaIndex(areas: areas, cellsPerSegment: 0.25)
        let reference = GEOSReference(index)
        var rng = SeededRandom(seed: 9)
        for _ in 0..<5_000 {
            let x = (Double.random(in: 0...8, using: &rng) * 16).rounded() / 16
            let y = Double.random(in: 0...8, using: &rng)
            #expect(index.locate(lon: x, lat: y) == reference.locate(x, y))
        }
    }

    @Test("batch assignment on many threads equals the serial answer and the per-point answer")
    func parallelEqualsSerial() {
        let layer = WarpedGridLayer(n: 20, seed: 5)
        let index = AreaIndex(areas: layer.areas, threads: 1)
        var rng = SeededRandom(seed: 77)
        var xy: [Double] = []
        for _ in 0..<50_000 {
            xy.append(Double.random(in: layer.box.west...layer.box.east, using: &rng))
            xy.append(Double.random(in: layer.box.south...layer.box.north, using: &rng))
        }
        xy.append(contentsOf: layer.vertices.flatMap { [$0.0, $0.1] })
        let serial = xy.withUnsafeBufferPointer { index.assign($0, threads: 1) }
        for threads in [2, 3, 8] {
            #expect(xy.withUnsafeBufferPointer { index.assign($0, threads: threads) } == serial)
        }
        let perPoint = (0..<(xy.count / 2)).map { Int32(index.locate(lon: xy[2 * $0], lat: xy[2 * $0 + 1]) ?? -1) }
        #expect(perPoint == serial)
        let counts = xy.withUnsafeBufferPointer { index.count($0, threads: 4) }
        var histogram = [Int](repeating: 0, count: index.areas.count)
        for a in serial where a >= 0 { histogram[Int(a)] += 1 }
        #expect(counts.perArea == histogram)
        #expect(counts.unassigned == serial.filter { $0 < 0 }.count)
        #expect(counts.total == xy.count / 2)
    }

    /// 2 × 2 areas give fewer grid cells than the sort has regions (one cell a region), 20 × 20
    /// many cells a region, not a multiple of the regions.
    @Test("a batch visited in cell order (as on large layers) gives every point the answer it gets alone, in input order",
          arguments: [2, 20])
    func cellOrderedBatch(side: Int) {
        let layer = WarpedGridLayer(n: side, seed: 9)
        let ordered = AreaIndex(areas: layer.areas, cellsPerSegment: 2, threads: 1, orderedVisitBytes: 0)
        #expect((ordered.grid.frame.cellCount < AreaIndex.visitRegions) == (side == 2))
        var rng = SeededRandom(seed: 91)
        var xy: [Double] = []
        for _ in 0..<30_000 {
            xy.append(Double.random(in: (layer.box.west - 0.1)...(layer.box.east + 0.1), using: &rng))
            xy.append(Double.random(in: (layer.box.south - 0.1)...(layer.box.north + 0.1), using: &rng))
        }
        xy.append(contentsOf: layer.vertices.flatMap { [$0.0, $0.1] })
        xy.append(contentsOf: [.nan, 0, .infinity, -.infinity])
        let sorted = xy.withUnsafeBufferPointer { ordered.regionOrdered($0) }
        #expect(sorted.map { $0.positions.sorted() } == (0..<Int32(xy.count / 2)).map { $0 }, "every point once")
        let cells = sorted.map { s in (0..<s.positions.count).map { k in ordered.grid.cell(x: s.coordinates[2 * k], y: s.coordinates[2 * k + 1]).map { $0.row * ordered.grid.frame.nx + $0.column } ?? 0 } } ?? []
        #expect(zip(cells, cells.dropFirst()).allSatisfy { $0 <= $1 }, "visited in cell order")
        let perPoint = (0..<(xy.count / 2)).map { Int32(ordered.locate(lon: xy[2 * $0], lat: xy[2 * $0 + 1]) ?? -1) }
        for threads in [1, 3] {
            #expect(xy.withUnsafeBufferPointer { ordered.assign($0, threads: threads) } == perPoint)
        }
        var histogram = [Int](repeating: 0, count: ordered.areas.count)
        for a in perPoint where a >= 0 { histogram[Int(a)] += 1 }
        let counts = xy.withUnsafeBufferPointer { ordered.count($0, threads: 2) }
        #expect(counts.perArea == histogram)
        #expect(counts.unassigned == perPoint.filter { $0 < 0 }.count)
        // A small layer keeps the input order: no sort below the threshold.
        #expect(xy.withUnsafeBufferPointer { AreaIndex(areas: layer.areas, threads: 1).regionOrdered($0) } == nil)
    }

    @Test("concurrent single-point queries from many tasks equal the serial answers")
    func concurrentLocate() async {
        let layer = WarpedGridLayer(n: 10, seed: 11)
        let index = AreaIndex(areas: layer.areas)
        let probes = layer.vertices + layer.holeCentres
        let serial = probes.map { index.locate(lon: $0.0, lat: $0.1) }
        let results = await withTaskGroup(of: [Int?].self) { group in
            for _ in 0..<8 { group.addTask { probes.map { index.locate(lon: $0.0, lat: $0.1) } } }
            var all: [[Int?]] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(results.count == 8)
        for r in results { #expect(r == serial) }
    }

    @Test("a denser or coarser grid gives the same answers")
    func gridDensityDoesNotChangeAnswers() {
        let layer = WarpedGridLayer(n: 10, seed: 3)
        var rng = SeededRandom(seed: 5)
        let xy = (0..<20_000).flatMap { _ in
            [Double.random(in: layer.box.west...layer.box.east, using: &rng), Double.random(in: layer.box.south...layer.box.north, using: &rng)]
        }
        let answers = [0.05, 0.5, 2, 16].map { density in
            xy.withUnsafeBufferPointer { AreaIndex(areas: layer.areas, cellsPerSegment: density).assign($0) }
        }
        for a in answers.dropFirst() { #expect(a == answers[0]) }
    }
}
