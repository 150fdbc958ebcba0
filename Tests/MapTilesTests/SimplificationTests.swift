import GeoCore
@testable import MapTiles
import Testing

@Suite("Per-zoom simplification")
struct SimplificationTests {
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
        let layer = try TileLayer(id: "s", version: "1", areas: areas)
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

    @Test("tolerance is half a pixel of the tile's scale")
    func tolerance() {
        #expect(TileLayer.tolerance(zoom: 0) == 0.5 / 256)
        #expect(TileLayer.tolerance(zoom: 10, scale: .x2) == 0.5 / 512 / 1024)
    }
}
