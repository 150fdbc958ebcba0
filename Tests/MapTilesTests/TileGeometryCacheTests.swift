import GeoCore
import Foundation
@testable import MapTiles
import Testing

@Suite("Tile-geometry cache")
struct TileGeometryCacheTests {
    /// A grid of wiggly cells: enough points that each zoom's geometry is tens of kilobytes.
    static func grid(_ side: Int) throws -> [IndexedArea] {
        try (0..<side * side).map { i in
            let lon = -87.7 + Double(i % side) * 0.02, lat = 41.7 + Double(i / side) * 0.02
            return IndexedArea(id: "c\(i)", polygons: [try Polygon(rings: [Fixtures.wiggly(lon: lon, lat: lat, radius: 0.008, n: 120)])])
        }
    }

    @Test("geometry held stays within the byte budget over every zoom, evicted zooms come back identical, and hits are counted")
    func honoursBudget() throws {
        let areas = try Self.grid(8)
        let probe = TileLayer(id: "g", version: "1", areas: areas)
        let sizes = (8...16).map { probe.geometry(zoom: $0).byteCount }
        // Room for about two zooms of the middle of the range.
        let budget = 2 * sizes[4] + sizes[4] / 2
        let cache = TileGeometryCache(capacityBytes: budget)
        let layer = TileLayer(id: "g", version: "1", areas: areas, geometryCache: cache)
        let second = TileLayer(id: "h", version: "1", areas: try Self.grid(3), geometryCache: cache)
        for zoom in 8...16 {
            #expect(layer.geometry(zoom: zoom).byteCount == sizes[zoom - 8])
            _ = second.geometry(zoom: zoom)
            #expect(cache.statistics.bytes <= budget, "zoom \(zoom): \(cache.statistics.bytes) bytes held for a budget of \(budget)")
        }
        #expect(cache.statistics.evictions > 0)
        // An evicted zoom is simplified again to exactly the same geometry: tiles drawn before
        // and after the eviction meet without seams.
        let again = layer.geometry(zoom: 8)
        let before = probe.geometry(zoom: 8)
        #expect(again.coordinates == before.coordinates && again.arcCoordinates == before.arcCoordinates)
        let hits = cache.statistics.hits
        _ = layer.geometry(zoom: 8)
        #expect(cache.statistics.hits == hits + 1)
        #expect(cache.statistics.bytes <= budget)
    }

    @Test("a zoom larger than the whole budget is drawn but not kept")
    func tooLarge() throws {
        let cache = TileGeometryCache(capacityBytes: 1024)
        let layer = TileLayer(id: "g", version: "1", areas: try Self.grid(4), geometryCache: cache)
        let g = layer.geometry(zoom: 14)
        #expect(g.byteCount > 1024)
        #expect(g.areaCount == 16)
        #expect(cache.statistics.bytes == 0)
        let misses = cache.statistics.misses
        #expect(layer.geometry(zoom: 14).coordinates == g.coordinates)
        #expect(cache.statistics.misses > misses, "asked again, it is built again")
    }
}
