import Foundation
import MapTiles
import Testing

@Suite("TileJSON and legend")
struct TileJSONTests {
    @Test("TileJSON 3.0.0 golden string with the legend")
    func golden() throws {
        let layer = TileLayer(id: "grid", version: "1", areas: Fixtures.grid)
        let painting = TilePainting(layer: layer, values: Fixtures.gridValues, style: Fixtures.threeClasses, valuesVersion: "d42")
        let url = TileJSON.tilesURL(base: "https://maps.example.org", layer: "grid", valuesVersion: "d42")
        let doc = TileJSON(layer: layer, painting: painting, tilesURL: url, minzoom: 8, maxzoom: 18, attribution: "Campus counts")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(doc), as: UTF8.self)
        let expected = ##"{"attribution":"Campus counts","bounds":[0.02,0.02,0.3,0.2],"center":[0.16,0.11,10],"##
            + ##""legend":{"classes":[{"color":"#ffeda0","max":10,"min":0},{"color":"#feb24c","max":60,"min":10},{"color":"#f03b20","max":100,"min":60}],"##
            + ##""noData":{"color":"#00000000","label":"no data","pattern":"fill"},"##
            + ##""suppressed":{"color":"#e0e0e0","label":"suppressed","line":"#969696","pattern":"hatch"}},"##
            + ##""maxzoom":18,"minzoom":8,"name":"grid","tilejson":"3.0.0","##
            + ##""tiles":["https://maps.example.org/tiles/grid/{z}/{x}/{y}.png?v=d42"],"version":"d42"}"##
        #expect(json == expected)
        #expect(TileJSON.tilesURL(base: "", layer: "g", valuesVersion: "7", scale: .x2) == "/tiles/g/{z}/{x}/{y}@2x.png?v=7")
    }

    @Test("the legend PNG is a valid image with a row per class plus suppressed and no data")
    func legendPNG() throws {
        let layer = TileLayer(id: "grid", version: "1", areas: Fixtures.grid)
        let painting = TilePainting(layer: layer, values: Fixtures.gridValues, style: Fixtures.threeClasses, valuesVersion: "d1")
        let png = try DecodedPNG(LegendRenderer().png(painting.legend, style: painting.style))
        #expect(png.width == 180 && png.height == 5 * 18 + 12)
        let retina = try DecodedPNG(LegendRenderer(scale: .x2).png(painting.legend, style: painting.style))
        #expect(retina.width == 360)
        // The first swatch spans x 6.5…28.5, y 9.5…21.5 (scale 1): its middle is the first class colour.
        let first = try #require(painting.legend.classes.first).color
        #expect(first == TileColor(rgb: 0xffeda0))
        func rgba(_ image: DecodedPNG, _ x: Int, _ y: Int) -> [UInt8] {
            let o = 4 * (y * image.width + x)
            return Array(image.rgba[o..<(o + 4)])
        }
        let expected = [first.red, first.green, first.blue, first.alpha]
        #expect(rgba(png, 17, 15) == expected)
        #expect(rgba(retina, 34, 30) == expected)
    }

    @Test("the style fingerprint is stable and tells styles apart")
    func fingerprint() {
        let a = TileStyle(), b = TileStyle(ramp: .blues)
        #expect(a.fingerprint == TileStyle().fingerprint)
        #expect(a.fingerprint != b.fingerprint && a.fingerprint.count == 16)
    }
}

@Suite("Classes and ramps")
struct ClassificationTests {
    @Test("quantile breaks as the benchmark computes them (sorted[k·n/7])")
    func quantiles() {
        let values = (1...70).map(Double.init)
        #expect(Classification.quantiles(classes: 7).breaks(for: values) == [11, 21, 31, 41, 51, 61])
        #expect(Classification.classIndex(of: 10, breaks: [11, 21]) == 0)
        #expect(Classification.classIndex(of: 11, breaks: [11, 21]) == 1)
        #expect(Classification.classIndex(of: 99, breaks: [11, 21]) == 2)
    }

    @Test("equal intervals and fixed breaks")
    func intervals() {
        #expect(Classification.equalInterval(classes: 4).breaks(for: [0, 10, 100]) == [25, 50, 75])
        #expect(Classification.fixedBreaks([5, 1]).breaks(for: []) == [1, 5])
        #expect(Classification.fixedBreaks([5, 1]).classCount == 3)
    }

    @Test("painting: classes by area, suppressed and no data marked, NaN drawn as no data")
    func painting() {
        let p = TilePainting(values: [.value(1), .value(50), .suppressed, .noData, .value(.nan)], areaCount: 6,
                             style: TileStyle(classification: .fixedBreaks([10, 60])), valuesVersion: "d")
        #expect((0..<6).map { p.classIndex(ofArea: $0) } == [0, 1, nil, nil, nil, nil])
        #expect(p.legend.classes.map(\.min) == [1, 10, 60] && p.legend.classes.map(\.max) == [10, 60, nil])
    }

    @Test("ramps have the published colours for 3 to 9 classes")
    func ramps() {
        for ramp in ColorRamp.allCases {
            for n in ColorRamp.classRange { #expect(ramp.colors(classes: n).count == n) }
        }
        #expect(ColorRamp.ylOrRd.colors(classes: 7).map(\.description) == ["#ffffb2", "#fed976", "#feb24c", "#fd8d3c", "#fc4e2a", "#e31a1c", "#b10026"])
        #expect(ColorRamp.blues.colors(classes: 3).map(\.description) == ["#deebf7", "#9ecae1", "#3182bd"])
        #expect(TileColor(hex: "#fc4e2a") == TileColor(rgb: 0xfc4e2a))
        #expect(TileColor(hex: "#fc4e2a80")?.alpha == 0x80)
    }
}
