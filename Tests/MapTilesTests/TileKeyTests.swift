import GeoCore
import MapTiles
import Testing

@Suite("XYZ tile addressing")
struct TileKeyTests {
    @Test("mercantile's published examples")
    func mercantile() throws {
        // mercantile.tile(-105.0, 40.0, 1) == Tile(x=0, y=0, z=1)
        #expect(try TileKey.containing(lon: -105, lat: 40, zoom: 1) == TileKey(z: 1, x: 0, y: 0))
        // mercantile.bounds(486, 332, 10) == (-9.140625, 53.12040528310657, -8.7890625, 53.33087298301705)
        let b = try TileKey(z: 10, x: 486, y: 332).bounds
        #expect(abs(b.west - -9.140625) < 1e-12)
        #expect(abs(b.east - -8.7890625) < 1e-12)
        #expect(abs(b.south - 53.12040528310657) < 1e-9)
        #expect(abs(b.north - 53.33087298301705) < 1e-9)
    }

    @Test("zoom 0 is the whole Mercator square; the antimeridian falls in the last column")
    func world() throws {
        let b = try TileKey(z: 0, x: 0, y: 0).bounds
        #expect(b.west == -180 && b.east == 180)
        #expect(abs(b.north - WebMercator.maxLatitude) < 1e-9)
        #expect(try TileKey.containing(lon: 180, lat: 0, zoom: 3).x == 7)
        #expect(try TileKey.containing(lon: -180, lat: 0, zoom: 3).x == 0)
        #expect(try TileKey.containing(lon: 0, lat: 89.9, zoom: 4).y == 0)
    }

    @Test("out-of-range addresses are refused with the reason")
    func bad() {
        #expect(throws: TileKey.Problem.zoomOutOfRange(23)) { try TileKey(z: 23, x: 0, y: 0) }
        #expect(throws: TileKey.Problem.columnOutOfRange(2, zoom: 1)) { try TileKey(z: 1, x: 2, y: 0) }
        #expect(throws: TileKey.Problem.rowOutOfRange(-1, zoom: 1)) { try TileKey(z: 1, x: 0, y: -1) }
    }
}
