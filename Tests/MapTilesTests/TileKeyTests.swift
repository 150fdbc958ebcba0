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

    @Test("the OSM wiki's slippy-map example and values worked out from its formula")
    func osmWiki() throws {
        // wiki.openstreetmap.org/wiki/Slippy_map_tilenames: Berlin, z17 → 70406 / 42987.
        #expect(try TileKey.containing(lon: 13.37771496361961, lat: 52.51628011262304, zoom: 17) == TileKey(z: 17, x: 70406, y: 42987))
        // x = ⌊(lon + 180) / 360 · 2^z⌋, y = ⌊(1 − ln(tan φ + sec φ) / π) / 2 · 2^z⌋.
        #expect(try TileKey.containing(lon: -87.6298, lat: 41.8781, zoom: 12) == TileKey(z: 12, x: 1050, y: 1522))
        #expect(try TileKey.containing(lon: -87.6298, lat: 41.8781, zoom: 16) == TileKey(z: 16, x: 16815, y: 24357))
        #expect(try TileKey.containing(lon: 151.2093, lat: -33.8688, zoom: 10) == TileKey(z: 10, x: 942, y: 614))
        #expect(try TileKey.containing(lon: -0.1278, lat: 51.5074, zoom: 15) == TileKey(z: 15, x: 16372, y: 10896))
        // (0, 0) is the corner of four tiles; it belongs to the south-east one.
        #expect(try TileKey.containing(lon: 0, lat: 0, zoom: 1) == TileKey(z: 1, x: 1, y: 1))
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
        #expect(throws: TileKey.Problem.zoomOutOfRange(-1)) { try TileKey(z: -1, x: 0, y: 0) }
        #expect(throws: TileKey.Problem.columnOutOfRange(2, zoom: 1)) { try TileKey(z: 1, x: 2, y: 0) }
        #expect(throws: TileKey.Problem.columnOutOfRange(-1, zoom: 3)) { try TileKey(z: 3, x: -1, y: 0) }
        #expect(throws: TileKey.Problem.rowOutOfRange(-1, zoom: 1)) { try TileKey(z: 1, x: 0, y: -1) }
        #expect(throws: TileKey.Problem.rowOutOfRange(1024, zoom: 10)) { try TileKey(z: 10, x: 0, y: 1024) }
        #expect(throws: TileKey.Problem.zoomOutOfRange(23)) { try TileKey.containing(lon: 0, lat: 0, zoom: 23) }
    }
}

@Suite("Pixel frames of tiles")
struct TileFrameTests {
    @Test("corners of a tile are pixels 0 and 256 (512 at @2x)")
    func corners() throws {
        let key = try TileKey(z: 10, x: 486, y: 332)
        let b = key.bounds
        for scale in TileScale.allCases {
            let f = key.frame(scale: scale)
            let nw = f.pixel(lon: b.west, lat: b.north)
            let se = f.pixel(lon: b.east, lat: b.south)
            #expect(abs(nw.x) < 1e-6 && abs(nw.y) < 1e-6)
            #expect(abs(se.x - Double(scale.pixels)) < 1e-6 && abs(se.y - Double(scale.pixels)) < 1e-6)
        }
        #expect(TileScale.x2.pixels == 512 && TileScale.x2.suffix == "@2x")
    }

    @Test("pixel ↔ lon/lat round trip, and a point's pixel agrees with its tile")
    func roundTrip() throws {
        let key = try TileKey.containing(lon: 13.37771496361961, lat: 52.51628011262304, zoom: 17)
        let f = key.frame()
        let p = f.pixel(lon: 13.37771496361961, lat: 52.51628011262304)
        #expect((0..<256.0).contains(p.x) && (0..<256.0).contains(p.y))
        let back = f.lonLat(pixelX: p.x, pixelY: p.y)
        #expect(abs(back.lon - 13.37771496361961) < 1e-9 && abs(back.lat - 52.51628011262304) < 1e-9)
    }

    @Test("a margin of 256 px reaches the neighbouring tiles' far edges")
    func margin() throws {
        let key = try TileKey(z: 4, x: 5, y: 6)
        let grown = key.bounds(marginPixels: 256)
        let west = try TileKey(z: 4, x: 4, y: 6).bounds, east = try TileKey(z: 4, x: 6, y: 6).bounds
        let north = try TileKey(z: 4, x: 5, y: 5).bounds, south = try TileKey(z: 4, x: 5, y: 7).bounds
        #expect(abs(grown.west - west.west) < 1e-9 && abs(grown.east - east.east) < 1e-9)
        #expect(abs(grown.north - north.north) < 1e-9 && abs(grown.south - south.south) < 1e-9)
    }
}
