import GeoCore
import DomainKernel
import Foundation
@testable import MapTiles
import Testing

@Suite("Per-zoom simplification")
struct SimplificationTests {
    @Test("geometry kept for all 23 zooms of a 200,000-point polygon stays within three times its full detail")
    func boundedMemory() throws {
        // A star of 200,000 points whose spikes are a metre deep: every point shows from about
        // zoom 16 on, so without sharing each deeper zoom would hold a full copy.
        let n = 200_000
        var ring = (0..<n).map { k -> Position in
            let t = Double(k) / Double(n) * 2 * .pi
            let r = 0.5 + (k % 2 == 0 ? 0 : 0.00001)
            return try! Position(lon: -87.6 + r * cos(t), lat: 41.8 + r * sin(t))
        }
        ring.append(ring[0])
        let cache = TileGeometryCache(capacityBytes: .max)
        let layer = TileLayer(id: "m", version: "1", areas: [IndexedArea(id: "star", polygons: [try Polygon(rings: [ring])])], geometryCache: cache)
        layer.prepare(zooms: 0...22)
        #expect(layer.fullPointCount >= n)
        let full = layer.geometry(zoom: 22).byteCount
        #expect(cache.statistics.bytes > 0 && cache.statistics.bytes <= 3 * full, "\(cache.statistics.bytes) bytes kept for \(full) of full detail")
        // The deepest zooms draw the full detail, one geometry shared between them.
        #expect(layer.geometry(zoom: 22).pointCount >= layer.fullPointCount * 9 / 10)
        let same = layer.geometry(zoom: 21).coordinates == layer.geometry(zoom: 22).coordinates
        #expect(same)
    }

    @Test("every area stays valid and non-empty at every zoom, and low zooms drop points")
    func validAtEveryZoom() throws {
        let areas = [
            IndexedArea(id: "big", polygons: [try Polygon(rings: [Fixtures.wiggly(lon: -87.6, lat: 41.8, radius: 0.05, n: 2000)])]),
            IndexedArea(id: "tiny", polygons: [try Polygon(rings: [Fixtures.wiggly(lon: -87.5, lat: 41.8, radius: 0.0001, n: 50)])]),
            IndexedArea(id: "holed", polygons: [try Polygon(rings: [
                Fixtures.rectangle(west: -87.7, south: 41.7, east: -87.65, north: 41.75),
                Fixtures.wiggly(lon: -87.675, lat: 41.725, radius: 0.01, n: 300).reversed(),
            ])]),
        ]
        let layer = TileLayer(id: "s", version: "1", areas: areas)
        let context = GEOSContext()
        var counts: [Int] = []
        for z in 0...18 {
          for scale in TileScale.allCases {
            let g = layer.geometry(zoom: z, scale: scale)
            if scale == .x1 { counts.append(g.pointCount) }
            for i in 0..<layer.areaCount {
                let rings = g.rings(ofArea: i)
                #expect(!rings.isEmpty, "area \(i) at z\(z)")
                #expect(rings.allSatisfy { $0.count >= 8 }, "area \(i) at z\(z)")
                // Rebuild polygons: a positive ring starts one, negative ones are its holes.
                var polygons: [[[Double]]] = []
                for ring in rings {
                    if ZoomGeometry.signedArea(ring) > 0 { polygons.append([ring]) } else { polygons[polygons.count - 1].append(ring) }
                }
                let geometry = try context.geometry(planar: polygons.map { PlanarPolygon(rings: $0) })
                #expect(try geometry.invalidity() == nil, "area \(i) at z\(z)")
                #expect(!geometry.isEmpty)
            }
          }
        }
        #expect(counts[8] < counts[18] / 4)
        #expect(counts == counts.sorted())
    }

    @Test("neighbours sharing a wiggly border get exactly the same simplified border")
    func sharedBorders() throws {
        // A border from (0, 0) to (0, 0.1) with 400 small wiggles, shared by a west and an east area.
        let border = (0...400).map { k -> (Double, Double) in
            let t = Double(k) / 400
            return (k == 0 || k == 400 ? 0 : 0.002 * sin(t * 90), 0.1 * t)
        }
        func area(_ id: String, _ outerX: Double) throws -> IndexedArea {
            var ring = border.map { try! Position(lon: $0.0, lat: $0.1) }
            ring += [try Position(lon: outerX, lat: 0.1), try Position(lon: outerX, lat: 0), ring[0]]
            return IndexedArea(id: id, polygons: [try Polygon(rings: [ring])])
        }
        let layer = TileLayer(id: "pair", version: "1", areas: [try area("west", -0.1), try area("east", 0.1)])
        for z in [4, 8, 12, 16] {
            let g = layer.geometry(zoom: z)
            #expect(!g.ownOutline[0] && !g.ownOutline[1], "z\(z)")
            func points(_ i: Int) -> Set<[Double]> {
                let r = g.rings(ofArea: i)[0]
                return Set(stride(from: 0, to: r.count, by: 2).map { [r[$0], r[$0 + 1]] })
            }
            // Apart from each area's two outer corners, both rings hold the same points.
            #expect(points(0).symmetricDifference(points(1)).count == 4, "z\(z)")
            // Outlines: the shared border is one arc, stroked once for both areas.
            let arcs0 = Set(g.outlineArcs[Int(g.outlineStarts[0])..<Int(g.outlineStarts[1])])
            let arcs1 = Set(g.outlineArcs[Int(g.outlineStarts[1])..<Int(g.outlineStarts[2])])
            #expect(arcs0.intersection(arcs1).count == 1)
        }
        #expect(layer.geometry(zoom: 4).pointCount < layer.geometry(zoom: 16).pointCount)
    }

    @Test("a zoom simplified on every core equals the same zoom simplified on one thread")
    func parallelEqualsSerial() throws {
        // 50 × 50 cells whose shared edges bend through a jittered midpoint (the same for both
        // neighbours), so arcs have points to drop; some cells are slivers GEOS must take alone.
        var rng = SystemRandomNumberGenerator()
        let n = 50, step = 0.002
        var corner: [[(Double, Double)]] = []
        for i in 0...n { corner.append((0...n).map { j in (Double(j) * step + Double.random(in: -0.3...0.3, using: &rng) * step * (j == 0 || j == n ? 0 : 1),
                                                        Double(i) * step + Double.random(in: -0.3...0.3, using: &rng) * step * (i == 0 || i == n ? 0 : 1)) }) }
        var bend: [String: (Double, Double)] = [:]
        func middle(_ a: (Int, Int), _ b: (Int, Int)) -> (Double, Double) {
            let key = a < b ? "\(a)\(b)" : "\(b)\(a)"
            if let m = bend[key] { return m }
            let p = corner[a.0][a.1], q = corner[b.0][b.1]
            let m = ((p.0 + q.0) / 2 + Double.random(in: -0.1...0.1, using: &rng) * step, (p.1 + q.1) / 2 + Double.random(in: -0.1...0.1, using: &rng) * step)
            bend[key] = m
            return m
        }
        var areas: [IndexedArea] = []
        for i in 0..<n {
            for j in 0..<n {
                let cs = [(i, j), (i, j + 1), (i + 1, j + 1), (i + 1, j)]
                var ring: [(Double, Double)] = []
                for k in 0..<4 { ring.append(corner[cs[k].0][cs[k].1]); ring.append(middle(cs[k], cs[(k + 1) % 4])) }
                ring.append(ring[0])
                areas.append(IndexedArea(id: "c\(i)-\(j)", polygons: [try Polygon(rings: [ring.map { try Position(lon: $0.0, lat: $0.1) }])]))
            }
        }
        let layer = TileLayer(id: "cells", version: "1", areas: areas)
        #expect(layer.areaCount >= TileLayer.parallelFrom)
        for zoom in [8, 12, 16] {
            let tolerance = TileLayer.tolerance(zoom: zoom)
            let serial = layer.simplified(tolerance: tolerance, parallelFrom: .max)
            let parallel = layer.simplified(tolerance: tolerance, parallelFrom: 1)
            #expect(parallel == serial, "zoom \(zoom)")
            #expect(parallel.coordinates.count < layer.simplified(tolerance: 0, parallelFrom: 1).coordinates.count || zoom == 16, "zoom \(zoom) drops points")
        }
    }

    @Test("tolerance is half a pixel of the tile's scale")
    func tolerance() {
        #expect(TileLayer.tolerance(zoom: 0) == 0.5 / 256)
        #expect(TileLayer.tolerance(zoom: 10, scale: .x2) == 0.5 / 512 / 1024)
    }
}
