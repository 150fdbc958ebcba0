import GeoCore
@testable import MapTiles
import Testing

@Suite("Shared borders as arcs")
struct ArcTopologyTests {
    /// An n × n grid of unit squares (with a midpoint on every edge, so arcs have three points),
    /// rings in mixed directions, and one square with a square hole whose island is an area too.
    func grid(_ n: Int) -> [[PlanarPolygon]] {
        var areas: [[PlanarPolygon]] = []
        for r in 0..<n {
            for c in 0..<n {
                let x = Double(c), y = Double(r)
                var ring = [x, y, x + 0.5, y, x + 1, y, x + 1, y + 0.5, x + 1, y + 1, x + 0.5, y + 1, x, y + 1, x, y + 0.5, x, y]
                if (r + c) % 2 == 1 {
                    // The same ring the other way round.
                    ring = stride(from: ring.count - 2, through: 0, by: -2).flatMap { [ring[$0], ring[$0 + 1]] }
                }
                var rings = [ring]
                if r == 0 && c == 0 { rings.append([0.25, 0.25, 0.25, 0.75, 0.75, 0.75, 0.75, 0.25, 0.25, 0.25]) }
                areas.append([PlanarPolygon(rings: rings)])
            }
        }
        areas.append([PlanarPolygon(rings: [[0.25, 0.25, 0.75, 0.25, 0.75, 0.75, 0.25, 0.75, 0.25, 0.25]])])
        return areas
    }

    @Test("every border is stored once: inner borders are used twice, outer ones once")
    func bordersOnce() {
        let n = 12
        let topology = ArcTopology(full: grid(n))
        var uses: [Int32: [Bool]] = [:]
        for u in topology.uses { uses[u.arc, default: []].append(u.reversed) }
        #expect(topology.areaCount == n * n + 1)
        #expect((0..<topology.areaCount).flatMap { topology.outline(ofArea: $0) } == topology.uses.map(\.arc), "outlines, area by area, are every use")
        // Edges of an n × n grid: 2n(n+1), each one arc between junctions, except at the four
        // outer corners, where two edges meet alone and make one arc. The hole and its island
        // are one closed arc, used by both.
        #expect(topology.arcs.count == 2 * n * (n + 1) - 4 + 1)
        #expect(uses.count == topology.arcs.count)
        let inner = uses.values.filter { $0.count == 2 }
        #expect(inner.count == 2 * n * (n - 1) + 1)
        // Grid neighbours turn opposite ways, so both walk a shared edge the same way; the hole
        // (clockwise) and its island (counterclockwise) walk theirs in opposite directions.
        #expect(inner.filter { Set($0).count == 1 }.count == 2 * n * (n - 1))
        #expect(inner.filter { Set($0) == [false, true] }.count == 1)
        #expect(uses.values.filter { $0.count == 1 }.count == 4 * n - 4)
    }

    @Test("areas put together again from the unsimplified arcs are their rings, each started elsewhere at most")
    func reassembles() {
        let full = grid(6)
        let topology = ArcTopology(full: full)
        for (i, area) in full.enumerated() {
            let rebuilt = topology.polygons(ofArea: i, arcs: topology.arcs)
            #expect(rebuilt.count == area.count)
            for (p, polygon) in area.enumerated() {
                for (k, ring) in polygon.rings.enumerated() {
                    let points = { (r: [Double]) in stride(from: 0, to: r.count - 2, by: 2).map { [r[$0], r[$0 + 1]] } }
                    let want = points(ring), got = points(rebuilt[p].rings[k])
                    #expect(got.count == want.count, "area \(i) ring \(k)")
                    // The same cycle in the same direction, perhaps from another start.
                    let start = want.firstIndex(of: got.first ?? []) ?? -1
                    #expect(start >= 0 && (0..<want.count).allSatisfy { got[$0] == want[(start + $0) % want.count] }, "area \(i) ring \(k)")
                }
            }
        }
    }
}
