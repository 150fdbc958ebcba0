import Foundation
@testable import GeoCore
import Testing

@Suite("area size limits")
struct AreaLimitsTests {
    /// A closed ring of `n` positions around (0, 0).
    static func ring(_ n: Int, radius: Double = 0.01, lon: Double = 0) -> String {
        let points = (0..<n).map { i -> String in
            let a = Double(i) / Double(n) * 2 * .pi
            return "[\(lon + radius * cos(a)),\(radius * sin(a))]"
        }
        return "[" + (points + [points[0]]).joined(separator: ",") + "]"
    }

    static func feature(_ id: String, geometry: String, properties: String = "{}") -> String {
        #"{"type":"Feature","id":"\#(id)","properties":\#(properties),"geometry":\#(geometry)}"#
    }

    static func read(_ features: [String], limits: AreaLimits) throws -> LayerReadResult {
        try LayerReader(kind: .areas, limits: limits).read(Data((#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}").utf8))
    }

    @Test("a feature over a limit is rejected by name, with the rule and its flag; the others are read")
    func perFeature() throws {
        var limits = AreaLimits()
        limits.vertices = 1_000
        limits.parts = 3
        limits.propertyBytes = 1_024
        let parts = "[" + (0..<4).map { "[\(Self.ring(8, lon: Double($0)))]" }.joined(separator: ",") + "]"
        let result = try Self.read([
            Self.feature("ok", geometry: #"{"type":"Polygon","coordinates":[\#(Self.ring(100))]}"#),
            Self.feature("dense", geometry: #"{"type":"Polygon","coordinates":[\#(Self.ring(5_000))]}"#),
            Self.feature("scattered", geometry: #"{"type":"MultiPolygon","coordinates":\#(parts)}"#),
            Self.feature("wordy", geometry: #"{"type":"Polygon","coordinates":[\#(Self.ring(8))]}"#,
                         properties: #"{"name":"\#(String(repeating: "x", count: 5_000))"}"#),
        ], limits: limits)
        #expect(result.features.map(\.id) == ["ok"])
        let lines = result.report.lines.joined(separator: "\n")
        #expect(lines.contains("(id dense): REJECTED — geometry has 5001 positions; at most 1000 are allowed (--max-area-vertices)"))
        #expect(lines.contains("(id scattered): REJECTED — geometry has 4 parts; at most 3 are allowed (--max-area-parts)"))
        #expect(lines.contains("(id wordy): REJECTED — properties take") && lines.contains("(--max-area-property-kb)"))
    }

    @Test("a layer stops taking features at its feature and position limits")
    func perLayer() throws {
        var limits = AreaLimits()
        limits.features = 2
        let three = try Self.read((0..<3).map { Self.feature("a\($0)", geometry: #"{"type":"Polygon","coordinates":[\#(Self.ring(8, lon: Double($0)))]}"#) },
                                  limits: limits)
        #expect(three.features.count == 2 && three.report.rejectedCount == 1)
        limits = AreaLimits()
        limits.layerVertices = 250
        let dense = try Self.read((0..<3).map { Self.feature("b\($0)", geometry: #"{"type":"Polygon","coordinates":[\#(Self.ring(100, lon: Double($0)))]}"#) },
                                  limits: limits)
        #expect(dense.features.count == 2 && dense.report.lines.joined().contains("--max-layer-vertices"))
    }
}
