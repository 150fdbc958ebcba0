import CCairo
@testable import MapTiles
import Testing

@Suite("PNG encoding")
struct PNGEncoderTests {
    /// A rendered choropleth tile: few colours, indexed path.
    func choropleth() throws -> TileCanvas {
        let layer = TileLayer(id: "grid", version: "1", areas: Fixtures.grid)
        let painting = TilePainting(layer: layer, values: Fixtures.gridValues, style: Fixtures.threeClasses, valuesVersion: "d1")
        return try #require(TileRenderer().draw(layer: layer, painting: painting, frame: TileKey(z: 10, x: 512, y: 511).frame()))
    }

    /// A canvas of smooth translucent gradients: thousands of colours.
    func gradient() -> TileCanvas {
        let canvas = TileCanvas(width: 200, height: 120)
        // cairo_pattern_create_linear returns a new pattern we own; destroyed after use.
        let pattern = cairo_pattern_create_linear(0, 0, 200, 120)!
        defer { cairo_pattern_destroy(pattern) }
        cairo_pattern_add_color_stop_rgba(pattern, 0, 1, 0, 0, 0.2)
        cairo_pattern_add_color_stop_rgba(pattern, 0.5, 0, 1, 0.5, 1)
        cairo_pattern_add_color_stop_rgba(pattern, 1, 0, 0, 1, 0.7)
        cairo_set_source(canvas.context, pattern)
        cairo_rectangle(canvas.context, 0, 0, 180, 120)
        cairo_fill(canvas.context)
        cairo_set_source_rgba(canvas.context, 0.2, 0.3, 0.4, 1)
        cairo_rectangle(canvas.context, 150, 20, 40, 40)
        cairo_fill(canvas.context)
        return canvas
    }

    /// Every decoded pixel, premultiplied again, equals the surface pixel.
    func mismatches(_ decoded: DecodedPNG, _ canvas: TileCanvas) -> Int {
        var n = 0
        for y in 0..<canvas.height { for x in 0..<canvas.width where decoded.premultiplied(x: x, y: y) != canvas.premultipliedPixel(x: x, y: y) { n += 1 } }
        return n
    }

    @Test("indexed path: signature, IHDR, CRCs, PLTE + tRNS, and the same pixels back")
    func indexed() throws {
        let canvas = try choropleth()
        let decoded = try DecodedPNG(canvas.png())
        #expect(decoded.width == 256 && decoded.height == 256)
        #expect(decoded.colorType == 3)
        #expect(decoded.chunks.map(\.type).contains("PLTE") && decoded.chunks.map(\.type).contains("tRNS"))
        #expect(mismatches(decoded, canvas) == 0)
    }

    @Test("RGBA path without quantisation: colour type 6 and the same pixels back")
    func rgba() throws {
        let canvas = gradient()
        let decoded = try DecodedPNG(canvas.png(PNGEncoder(quantize: false)))
        #expect(decoded.colorType == 6 && decoded.bitDepth == 8)
        #expect(decoded.width == 200 && decoded.height == 120)
        #expect(mismatches(decoded, canvas) == 0)
    }

    @Test("quantised path: 256 colours, frequent colours exact, the rest bounded")
    func quantized() throws {
        let canvas = gradient()
        let decoded = try DecodedPNG(canvas.png(PNGEncoder(quantize: true)))
        #expect(decoded.colorType == 3 && decoded.bitDepth == 8)
        // The flat square and the untouched corner are exact.
        #expect(decoded.premultiplied(x: 170, y: 40) == canvas.premultipliedPixel(x: 170, y: 40))
        #expect(decoded.premultiplied(x: 195, y: 100) == 0)
        var worst = 0
        for y in stride(from: 0, to: 120, by: 7) {
            for x in stride(from: 0, to: 200, by: 7) {
                let a = decoded.premultiplied(x: x, y: y), b = canvas.premultipliedPixel(x: x, y: y)
                for s in stride(from: 0, through: 24, by: 8) { worst = max(worst, abs(Int(a >> UInt32(s) & 0xff) - Int(b >> UInt32(s) & 0xff))) }
            }
        }
        // A smooth gradient is the worst case for a popularity palette (every colour is rare);
        // choropleth tiles only lose precision on anti-aliased edge pixels.
        #expect(worst <= 48)
    }

    @Test("bit depth follows the palette size: 1, 2, 4 bits")
    func bitDepths() throws {
        for (colours, depth) in [(2, 1), (4, 2), (9, 4)] {
            let canvas = TileCanvas(width: 37, height: 5)
            for k in 1..<colours {
                cairo_set_source_rgb(canvas.context, Double(k) / 10, 0.5, 1 - Double(k) / 10)
                cairo_rectangle(canvas.context, Double(k * 3), 0, 3, 5)
                cairo_fill(canvas.context)
            }
            let decoded = try DecodedPNG(canvas.png())
            #expect(decoded.bitDepth == depth, "\(colours) colours")
            #expect(mismatches(decoded, canvas) == 0)
        }
    }

    @Test("a corrupted byte fails its chunk's CRC")
    func corrupted() throws {
        var png = try choropleth().png()
        png[40] ^= 0xff
        #expect(throws: DecodedPNG.Failure.self) { try DecodedPNG(png) }
    }
}
