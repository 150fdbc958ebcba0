import GeoCore
@testable import MapTiles
import Testing

@Suite("Choropleth rendering")
struct TileRendererTests {
    let key = try! TileKey(z: 10, x: 512, y: 511)

    func layer(_ areas: [IndexedArea] = Fixtures.grid) throws -> TileLayer {
        TileLayer(id: "grid", version: "1", areas: areas)
    }

    /// The pixel under an area's interior point.
    func pixel(_ layer: TileLayer, _ id: String, _ frame: TileFrame) -> (x: Int, y: Int) {
        let a = layer.labelPoint(ofArea: layer.ordinal(of: id)!)
        let p = frame.pixel(unitX: a.x, unitY: a.y)
        return (Int(p.x), Int(p.y))
    }

    @Test("each area's interior has its class colour; suppressed is hatched; no data is transparent")
    func classColours() throws {
        let layer = try layer()
        let painting = TilePainting(layer: layer, values: Fixtures.gridValues, style: Fixtures.threeClasses, valuesVersion: "d1")
        let frame = key.frame()
        let canvas = try #require(TileRenderer().draw(layer: layer, painting: painting, frame: frame))
        let expected: [String: TileColor] = [
            "low": TileColor(rgb: 0xffeda0), "zero": TileColor(rgb: 0xffeda0),
            "mid": TileColor(rgb: 0xfeb24c), "high": TileColor(rgb: 0xf03b20),
        ]
        for (id, color) in expected {
            let p = pixel(layer, id, frame)
            #expect(canvas.color(x: p.x, y: p.y) == color, "\(id)")
        }
        let none = pixel(layer, "none", frame)
        #expect(canvas.color(x: none.x, y: none.y) == .transparent)

        // Hatching: every pixel of a 4×4 block is line or background, and both occur.
        let hidden = pixel(layer, "hidden", frame)
        let line = TileColor(rgb: 0x969696), background = TileColor(rgb: 0xe0e0e0)
        var seen: Set<TileColor> = []
        for dy in 0..<4 { for dx in 0..<4 { seen.insert(canvas.color(x: hidden.x + dx, y: hidden.y + dy)) } }
        #expect(seen == [line, background])
        #expect(painting.classIndex(ofArea: layer.ordinal(of: "hidden")!) == nil)
    }

    @Test("no data takes the style's no-data colour when it has one, distinct from zero")
    func noDataColour() throws {
        let layer = try layer()
        var style = Fixtures.threeClasses
        style.noData = TileColor(rgb: 0xcccccc)
        let painting = TilePainting(layer: layer, values: Fixtures.gridValues, style: style, valuesVersion: "d1")
        let frame = key.frame()
        let canvas = try #require(TileRenderer().draw(layer: layer, painting: painting, frame: frame))
        let none = pixel(layer, "none", frame), zero = pixel(layer, "zero", frame)
        #expect(canvas.color(x: none.x, y: none.y) == TileColor(rgb: 0xcccccc))
        #expect(canvas.color(x: zero.x, y: zero.y) == TileColor(rgb: 0xffeda0))
    }

    @Test("outlines are drawn in the outline colour on area borders")
    func outline() throws {
        let layer = try layer()
        var style = Fixtures.threeClasses
        style.outlineWidth = 2
        let painting = TilePainting(layer: layer, values: Fixtures.gridValues, style: style, valuesVersion: "d1")
        let frame = key.frame()
        let canvas = try #require(TileRenderer().draw(layer: layer, painting: painting, frame: frame))
        // West edge of "low" at lon 0.02, half-way up the box.
        let edge = frame.pixel(lon: 0.02, lat: 0.06)
        // A 2 px line centred on the edge covers the whole pixel the edge falls in.
        #expect(canvas.color(x: Int(edge.x), y: Int(edge.y)) == TileColor(rgb: 0x555555))
    }

    @Test("areas under two pixels across are filled without outlines, which cover them; larger ones are outlined")
    func smallAreasUnoutlined() throws {
        // 20 × 20 boxes of 0.001° (0.73 px at zoom 10, 11.7 px at zoom 14), all of the top class.
        var areas: [IndexedArea] = []
        var values: [String: TileValue] = [:]
        for r in 0..<20 {
            for c in 0..<20 {
                let id = "b\(r)-\(c)"
                let west = 0.02 + Double(c) * 0.001, south = 0.02 + Double(r) * 0.001
                areas.append(Fixtures.box(id, west, south, west + 0.001, south + 0.001))
                values[id] = .value(100)
            }
        }
        let layer = try layer(areas)
        var style = Fixtures.threeClasses
        style.outlineWidth = 2
        let painting = TilePainting(layer: layer, values: values, style: style, valuesVersion: "d1")
        let top = TileColor(rgb: 0xf03b20), outline = TileColor(rgb: 0x555555)
        for zoom in [10, 14] {
            let frame = try TileKey.containing(lon: 0.03, lat: 0.03, zoom: zoom).frame()
            let canvas = try #require(TileRenderer().draw(layer: layer, painting: painting, frame: frame))
            // Pixels well inside the block (at zoom 14 from box edge to box edge along a row).
            let a = frame.pixel(lon: 0.0255, lat: 0.0305), b = frame.pixel(lon: 0.0345, lat: 0.0305)
            let row = Int(a.y)
            let colors = (Int(a.x)...Int(b.x)).map { canvas.color(x: $0, y: row) }
            if zoom == 10 {
                #expect(colors.allSatisfy { $0 == top }, "zoom 10: \(Set(colors))")
            } else {
                #expect(colors.contains(outline), "zoom 14: box borders outlined")
                #expect(colors.contains(top), "zoom 14: box interiors filled")
            }
        }
    }

    @Test("a tile no area touches is the shared empty PNG")
    func empty() throws {
        let layer = try layer()
        let painting = TilePainting(layer: layer, values: Fixtures.gridValues, style: Fixtures.threeClasses, valuesVersion: "d1")
        let far = try TileKey(z: 10, x: 100, y: 100)
        #expect(TileRenderer().png(layer: layer, painting: painting, key: far) == PNGEncoder.emptyTile(.x1))
        #expect(TileRenderer().png(layer: layer, painting: painting, key: far, scale: .x2) == PNGEncoder.emptyTile(.x2))
        let empty = try DecodedPNG(PNGEncoder.emptyTile(.x1))
        #expect(empty.width == 256 && empty.rgba.allSatisfy { $0 == 0 })
    }

    @Test("two neighbouring tiles equal the two halves of one drawing of both: no seam, no edge outline")
    func seamless() throws {
        let areas = [
            Fixtures.box("across", -0.1, 0.02, 0.1, 0.1),
            Fixtures.box("next", 0.1, 0.02, 0.2, 0.1),
            IndexedArea(id: "round", polygons: [try Polygon(rings: [Fixtures.wiggly(lon: 0, lat: 0.2, radius: 0.07, n: 400)])]),
        ]
        let layer = TileLayer(id: "seam", version: "1", areas: areas)
        let painting = TilePainting(layer: layer, values: ["across": .value(5), "next": .value(50), "round": .suppressed],
                                    style: Fixtures.threeClasses, valuesVersion: "d1")
        let left = try TileKey(z: 10, x: 511, y: 511), right = try TileKey(z: 10, x: 512, y: 511)
        let l = try #require(TileRenderer().draw(layer: layer, painting: painting, frame: left.frame()))
        let r = try #require(TileRenderer().draw(layer: layer, painting: painting, frame: right.frame()))
        let f = left.frame()
        let both = TileFrame(zoom: 10, originX: f.originX, originY: f.originY, width: 512, height: 256, pixelsPerUnit: f.pixelsPerUnit)
        let wide = try #require(TileRenderer().draw(layer: layer, painting: painting, frame: both))
        // Fills are not anti-aliased, and cairo clips a path at the surface's edge: where a
        // vertex lies exactly on the seam (the round area's top and bottom here) the pixel on
        // either side of it may come out filled in a tile and not in the wide drawing. Anywhere
        // else, and on all but those pixels of the seam, the tiles are the wide drawing exactly.
        var mismatches = 0, onTheSeam = 0
        for y in 0..<256 {
            for x in 0..<256 {
                if l.premultipliedPixel(x: x, y: y) != wide.premultipliedPixel(x: x, y: y) { if x == 255 { onTheSeam += 1 } else { mismatches += 1 } }
                if r.premultipliedPixel(x: x, y: y) != wide.premultipliedPixel(x: 256 + x, y: y) { if x == 0 { onTheSeam += 1 } else { mismatches += 1 } }
            }
        }
        #expect(mismatches == 0)
        #expect(onTheSeam <= 4, "a seam would differ along the whole edge")
        // Along the shared edge inside "across": fill on both sides, no outline at the tile edge.
        let row = Int(f.pixel(lon: 0, lat: 0.06).y)
        #expect(l.color(x: 255, y: row) == TileColor(rgb: 0xffeda0))
        #expect(r.color(x: 0, y: row) == TileColor(rgb: 0xffeda0))
    }

    @Test("areas at ±180° draw the same on both sides of the antimeridian (x = 0 and x = 2^z − 1)")
    func antimeridian() throws {
        // One area split at the antimeridian, as RFC 7946 asks, plus one just west of it.
        let split = IndexedArea(id: "split", polygons: [
            try Polygon(rings: [Fixtures.rectangle(west: 170, south: 10, east: 180, north: 30)]),
            try Polygon(rings: [Fixtures.rectangle(west: -180, south: 10, east: -170, north: 30)]),
        ])
        let near = Fixtures.box("near", 150, -30, 160, -10)
        let layer = TileLayer(id: "world", version: "1", areas: [split, near])
        let painting = TilePainting(layer: layer, values: ["split": .value(100), "near": .value(1)],
                                    style: Fixtures.threeClasses, valuesVersion: "d1")
        for z in 1...2 {
            let n = 1 << z
            let east = try TileKey.containing(lon: 175, lat: 20, zoom: z), west = try TileKey.containing(lon: -175, lat: 20, zoom: z)
            #expect(east.x == n - 1 && west.x == 0 && east.y == west.y)
            let e = try #require(TileRenderer().draw(layer: layer, painting: painting, frame: east.frame()))
            let w = try #require(TileRenderer().draw(layer: layer, painting: painting, frame: west.frame()))
            let top = Int(east.frame().pixel(lon: 175, lat: 28).y), bottom = Int(east.frame().pixel(lon: 175, lat: 12).y)
            for y in top...bottom {
                #expect(e.premultipliedPixel(x: 255, y: y) == w.premultipliedPixel(x: 0, y: y), "z\(z) row \(y)")
                #expect(e.premultipliedPixel(x: 254, y: y) == w.premultipliedPixel(x: 1, y: y), "z\(z) row \(y)")
            }
            let inside = east.frame().pixel(lon: 175, lat: 20)
            #expect(e.color(x: Int(inside.x), y: Int(inside.y)) == TileColor(rgb: 0xf03b20))
        }
        // The area west of the antimeridian does not leak into the tile east of it.
        let z2 = try TileKey.containing(lon: -175, lat: -20, zoom: 2)
        #expect(TileRenderer().png(layer: layer, painting: painting, key: z2) == PNGEncoder.emptyTile(.x1))
    }

    @Test("at zoom 22 a large area, millions of pixels across, still fills and outlines correctly")
    func deepZoom() throws {
        let layer = TileLayer(id: "big", version: "1", areas: [Fixtures.box("big", 0, 0, 10, 10)])
        let painting = TilePainting(layer: layer, values: ["big": .value(100)], style: Fixtures.threeClasses, valuesVersion: "d1")
        let inside = try TileKey.containing(lon: 5, lat: 5, zoom: 22)
        let canvas = try #require(TileRenderer().draw(layer: layer, painting: painting, frame: inside.frame()))
        for (x, y) in [(0, 0), (255, 255), (128, 7), (3, 250)] {
            #expect(canvas.color(x: x, y: y) == TileColor(rgb: 0xf03b20))
        }
        // On the west edge (lon 0): the area on the east half only, outline on the edge.
        let edge = try TileKey.containing(lon: 0, lat: 5, zoom: 22)
        let frame = edge.frame()
        let c = try #require(TileRenderer().draw(layer: layer, painting: painting, frame: frame))
        let x = frame.pixel(lon: 0, lat: 5).x
        #expect(x >= 0 && x < 1)  // lon 0 is the tile's west edge
        #expect(c.color(x: 128, y: 128) == TileColor(rgb: 0xf03b20))
        #expect(c.color(x: 0, y: 128).alpha == 255)
        // The fill alone makes that pixel opaque: the outline (#555555) must darken it away from
        // the fill colour, while a pixel just east of the line keeps the plain fill.
        let border = c.color(x: 0, y: 128)
        #expect(border != TileColor(rgb: 0xf03b20))
        #expect(border.red < 0xf0)
        #expect(c.color(x: 2, y: 128) == TileColor(rgb: 0xf03b20))
    }

    @Test("the ring clipper keeps what is inside and cuts the rest at the rectangle")
    func clipper() {
        let clipper = RingClipper(width: 10, height: 10, margin: 0)
        // A square from -5 to 5 clipped to 0…10: the quarter 0…5.
        let out = clipper.clip([-5, -5, 5, -5, 5, 5, -5, 5])
        var area = 0.0
        for k in 0..<(out.count / 2) {
            let j = (k + 1) % (out.count / 2)
            area += out[2 * k] * out[2 * j + 1] - out[2 * j] * out[2 * k + 1]
        }
        #expect(abs(area / 2) == 25)
        #expect(out.enumerated().allSatisfy { (0...10).contains($0.element) })
        #expect(clipper.clip([20, 20, 30, 20, 30, 30]).isEmpty)
    }

    @Test("@2x tiles draw the same picture at twice the pixels")
    func retina() throws {
        let layer = try layer()
        let painting = TilePainting(layer: layer, values: Fixtures.gridValues, style: Fixtures.threeClasses, valuesVersion: "d1")
        let frame = key.frame(scale: .x2)
        let canvas = try #require(TileRenderer().draw(layer: layer, painting: painting, frame: frame, scale: .x2))
        #expect(canvas.width == 512 && canvas.height == 512)
        let p = pixel(layer, "high", frame)
        #expect(canvas.color(x: p.x, y: p.y) == TileColor(rgb: 0xf03b20))
    }

    @Test("labels draw at high zoom only when the style asks")
    func labels() throws {
        let layer = TileLayer(id: "grid", version: "1", areas: Fixtures.grid, labels: ["mid": "Midway"])
        var style = Fixtures.threeClasses
        let plain = TilePainting(layer: layer, values: Fixtures.gridValues, style: style, valuesVersion: "d1")
        style.labels = true
        style.labelMinZoom = 10
        let labelled = TilePainting(layer: layer, values: Fixtures.gridValues, style: style, valuesVersion: "d1")
        let a = try #require(TileRenderer().draw(layer: layer, painting: plain, frame: key.frame()))
        let b = try #require(TileRenderer().draw(layer: layer, painting: labelled, frame: key.frame()))
        #expect(a.png() != b.png())
        // The label map is used: without it "mid" is labelled with its id, not "Midway".
        let unnamed = try self.layer()
        let byID = TilePainting(layer: unnamed, values: Fixtures.gridValues, style: style, valuesVersion: "d1")
        let c = try #require(TileRenderer().draw(layer: unnamed, painting: byID, frame: key.frame()))
        #expect(c.png() != b.png())
        #expect(c.png() != a.png())
        style.labelMinZoom = 11
        let tooFar = TilePainting(layer: layer, values: Fixtures.gridValues, style: style, valuesVersion: "d1")
        #expect(TileRenderer().png(layer: layer, painting: tooFar, key: key) == TileRenderer().png(layer: layer, painting: plain, key: key))
    }

    @Test("concurrent renders of one layer give identical tiles")
    func concurrent() async throws {
        let layer = try layer()
        let painting = TilePainting(layer: layer, values: Fixtures.gridValues, style: Fixtures.threeClasses, valuesVersion: "d1")
        let key = self.key
        // The zoom's geometry is built lazily by whichever render comes first.
        let results = await withTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 { group.addTask { TileRenderer().png(layer: layer, painting: painting, key: key) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8 && results.allSatisfy { $0 == results[0] })
    }
}
