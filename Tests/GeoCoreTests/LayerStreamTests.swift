import Foundation
@testable import GeoCore
import Support
import Testing

@Suite("Layer files read a feature at a time")
struct LayerStreamTests {
    /// A random layer file: polygons, multipolygons, points, null geometry, unclosed rings,
    /// self-intersections, duplicate and missing ids, odd properties, spacing of every kind.
    static func randomDocument(seed: UInt64, features: Int, pointsFirst: Bool = false) throws -> String {
        var rng = SeededRandom(seed: seed)
        var parts: [String] = []
        for i in 0..<features {
            var geometry: String
            if pointsFirst && i == 0 {
                geometry = #"{"type":"Point","coordinates":[1.5,2.5]}"#
            } else {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: geometry = "null"
                case 1: geometry = #"{"type":"Polygon","coordinates":[[[0,0],[2,2],[2,0],[0,2],[0,0]]]}"# // a bow tie
                case 2: geometry = #"{"type":"Polygon","coordinates":[[[10,10],[11,10],[11,11],[10,11]]]}"# // not closed
                default: geometry = String(decoding: try JSONEncoder().encode(try randomGeometry(&rng)), as: UTF8.self)
                }
            }
            let id: String = switch Int.random(in: 0..<12, using: &rng) {
            case 0: ""
            case 1: #""id":"dup","#
            default: #""id":"f\#(i)","#
            }
            let properties = Bool.random(using: &rng) ? #"{"name":"Hall \"\#(i)\" \u00e9","capacity":\#(i),"tags":[1,{"a":null}]}"# : "null"
            let space = [" ", "\n", "\t", "", "\r\n "][Int.random(in: 0..<5, using: &rng)]
            parts.append("\(space){\(space)\"type\":\"Feature\",\(id)\"properties\":\(properties),\(space)\"geometry\"\(space):\(space)\(geometry)}\(space)")
        }
        return #"{ "type" : "FeatureCollection", "name": "layer", "bbox": [-180, -90, 180, 90], "features" : ["# + parts.joined(separator: ",") + "] }\n"
    }

    /// The document read by `read`, by the streamed path alone (nil when the scan declines the
    /// layout) and decoded whole.
    static func bothWays(_ text: String, _ reader: LayerReader = LayerReader())
        -> (stream: Result<LayerReadResult, GeoJSONError>, streamedOnly: Result<LayerReadResult?, GeoJSONError>, whole: Result<LayerReadResult, GeoJSONError>) {
        var geoJSON = GeoJSONReader()
        geoJSON.closeUnclosedRings = true
        let data = Data(text.utf8)
        return (Result { () throws(GeoJSONError) in try reader.read(data) },
                Result { () throws(GeoJSONError) in try reader.readStreamed(data, reader: geoJSON) },
                Result { () throws(GeoJSONError) in try reader.readWhole(data, reader: geoJSON) })
    }

    /// The streamed path's own result: it read the document (not declined it) and equals `whole`.
    static func streamedEquals(_ streamedOnly: Result<LayerReadResult?, GeoJSONError>, _ whole: Result<LayerReadResult, GeoJSONError>) -> Bool {
        switch streamedOnly {
        case .success(let result?): same(.success(result), whole)
        case .success(nil): false
        case .failure(let error): same(.failure(error), whole)
        }
    }

    static func same(_ a: Result<LayerReadResult, GeoJSONError>, _ b: Result<LayerReadResult, GeoJSONError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x.kind == y.kind && x.features == y.features && x.report == y.report
        case (.failure(let x), .failure(let y)): x == y
        default: false
        }
    }

    @Test("a random layer read a feature at a time equals the layer decoded whole: features, repairs, rejections, kind", arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func equalsWhole(seed: UInt64) throws {
        let text = try Self.randomDocument(seed: seed, features: 150, pointsFirst: seed == 6)
        #expect(try GeoJSONFeatureStream(data: Data(text.utf8), reader: GeoJSONReader()) != nil, "an ordinary file is streamed")
        for reader in [LayerReader(), LayerReader(kind: .areas), LayerReader(kind: .points), LayerReader(nameField: "capacity")] {
            let (stream, streamedOnly, whole) = Self.bothWays(text, reader)
            #expect(Self.same(stream, whole))
            #expect(Self.streamedEquals(streamedOnly, whole), "read a feature at a time, not decoded whole")
            let result = try stream.get()
            #expect(result.report.features.count == 150)
            if reader.kind == nil { #expect(result.kind == .areas) }
        }
        let repaired = try Self.bothWays(text).stream.get().report.features.filter { if case .repaired = $0.outcome { true } else { false } }
        #expect(!repaired.isEmpty, "the file has repairs, reading notes included")
    }

    @Test("pagesRead is called after the scan and every 4,096 features, and changes nothing read")
    func pagesReadCalls() throws {
        let square = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}"#
        let features = (0..<10_000).map { #"{"type":"Feature","properties":{"code":"c\#($0)","name":"Area \#($0)"},"geometry":\#(square)}"# }
        let data = Data((#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}").utf8)
        let reader = LayerReader(idField: "code")
        let calls = Counter()
        let withCalls = try reader.read(data, pagesRead: { calls.value += 1 })
        #expect(calls.value == 1 + 10_000 / LayerReader.pagesReadInterval)
        let without = try reader.read(data)
        #expect(withCalls.features == without.features && withCalls.report == without.report)
        #expect(withCalls.features.count == 10_000)
    }

    @Test("the id field is taken out of the properties; the others are kept, and none leaves them empty")
    func idFieldLeavesProperties() throws {
        let square = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}"#
        let text = #"{"type":"FeatureCollection","features":["#
            + #"{"type":"Feature","properties":{"code":"a","name":"A","pop":3,"tags":[1,"x"]},"geometry":\#(square)},"#
            + #"{"type":"Feature","properties":{"code":"b"},"geometry":\#(square)},"#
            + #"{"type":"Feature","properties":{"code":7,"name":"Seven"},"geometry":\#(square)}"#
            + "]}"
        let result = try LayerReader(idField: "code").read(Data(text.utf8))
        #expect(result.features.map(\.id) == ["a", "b", "7"])
        #expect(result.features[0].properties == ["name": .string("A"), "pop": .number(3), "tags": .array([.number(1), .string("x")])])
        #expect(result.features[0].name == "A")
        #expect(result.features[1].properties == [:])
        #expect(result.features[2].properties == ["name": .string("Seven")])
        // Without an id field the properties are kept as they are, `id` included.
        let plain = try LayerReader().read(Data(text.replacingOccurrences(of: "\"code\"", with: "\"id\"").utf8))
        #expect(plain.features[1].properties == ["id": .string("b")])
    }

    @Test("points throughout make a point layer; a point first and an area later make an area layer")
    func kindDetection() throws {
        let points = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"n","geometry":null,"properties":null},{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}},{"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[3,4]},"properties":{}}]}"#
        let (stream, streamedOnly, whole) = Self.bothWays(points)
        #expect(Self.same(stream, whole))
        #expect(Self.streamedEquals(streamedOnly, whole))
        #expect(try stream.get().kind == .points)
        #expect(try stream.get().features.map(\.id) == ["a", "b"])
        let mixed = points.replacingOccurrences(of: #"{"type":"Point","coordinates":[3,4]}"#, with: #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}"#)
        let (s2, o2, w2) = Self.bothWays(mixed)
        #expect(Self.same(s2, w2))
        #expect(Self.streamedEquals(o2, w2), "the streamed path reads it again as areas")
        #expect(try s2.get().kind == .areas)
        #expect(try s2.get().features.map(\.id) == ["b"])
        let empty = #"{"type":"FeatureCollection","features":[]}"#
        let (s3, o3, w3) = Self.bothWays(empty)
        #expect(Self.same(s3, w3))
        #expect(Self.streamedEquals(o3, w3))
        #expect(try s3.get().kind == .areas)
    }

    @Test("a bad document fails with exactly the error and path reading it whole gives")
    func sameErrors() throws {
        let good = #"{"type":"Feature","id":"a","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}}"#
        func collection(_ features: String, head: String = #""type":"FeatureCollection","#) -> String { "{\(head)\"features\":[\(features)]}" }
        let cases: [(String, String)] = [
            ("latitude beyond 90 in a feature", collection(good + "," + good.replacingOccurrences(of: "[1,1]", with: "[1,95.2]"))),
            ("a feature of the wrong type", collection(good + "," + good.replacingOccurrences(of: #""Feature""#, with: #""Faeture""#))),
            ("a syntax error inside a feature", collection(good + "," + good.replacingOccurrences(of: "[0,1]", with: "[0,,1]"))),
            ("a foreign CRS on a feature", collection(good.replacingOccurrences(of: #""id":"a","#, with: #""id":"a","crs":{"type":"name","properties":{"name":"EPSG:3857"}},"#))),
            ("the wrong collection type", collection(good, head: #""type":"Feature","#)),
            ("a foreign CRS on the collection", collection(good, head: #""type":"FeatureCollection","crs":{"type":"name","properties":{"name":"EPSG:3857"}},"#)),
            ("a bad bbox after a bad feature", collection(good.replacingOccurrences(of: "[1,1]", with: "[1,95.2]"), head: #""type":"FeatureCollection","bbox":[1,2],"#)),
            ("an unknown member with bad JSON", collection(good, head: #""type":"FeatureCollection","extra":{"a":tru},"#)),
            ("no features", #"{"type":"FeatureCollection"}"#),
            ("features not an array", #"{"type":"FeatureCollection","features":{}}"#),
            ("a missing comma between features", collection(good + " " + good)),
            ("trailing bytes", collection(good) + " x"),
            ("not an object", "[" + good + "]"),
            ("an unterminated string", #"{"type":"FeatureCollection","features":[{"type":"Feature}]}"#),
            ("nesting too deep", collection(String(repeating: "[", count: 70) + String(repeating: "]", count: 70))),
            ("empty", ""),
        ]
        for (k, (what, text)) in cases.enumerated() {
            let (stream, streamedOnly, whole) = Self.bothWays(text)
            if k < 4 { #expect(Self.streamedEquals(streamedOnly, whole), "\(what): the streamed path itself gives the error") }
            guard case .failure(let expected) = whole else { Issue.record("\(what): decoded whole without error"); continue }
            guard case .failure(let got) = stream else { Issue.record("\(what): streamed without error"); continue }
            #expect(got == expected, "\(what)")
        }
        // Layouts the scan leaves alone are read whole, with the same result.
        // A member named twice is refused by both, with one error (the strict check comes first).
        let twice = collection(good, head: #""type":"FeatureCollection","type":"FeatureCollection","#)
        let (twiceStreamed, _, twiceWhole) = Self.bothWays(twice)
        guard case .failure(let twiceError) = twiceWhole else { Issue.record("a member named twice was read"); return }
        #expect(Self.same(twiceStreamed, twiceWhole) && twiceError.reason.contains("appears twice"))
        for odd in [collection(good, head: #""typ\u0065":"FeatureCollection","#),
                    "\u{FEFF}" + collection(good)] {
            #expect(try GeoJSONFeatureStream(data: Data(odd.utf8), reader: GeoJSONReader()) == nil)
            let (stream, streamedOnly, whole) = Self.bothWays(odd)
            #expect(Self.same(stream, whole))
            #expect(try streamedOnly.get() == nil, "declined by the scan, read whole")
        }
        let spaced = collection(good, head: #""type":"FeatureCollection","name":"a \"quoted\" name","#)
        #expect(try GeoJSONFeatureStream(data: Data(spaced.utf8), reader: GeoJSONReader()) != nil)
        #expect(try GeoJSONFeatureStream(data: Data(("\u{FEFF}" + spaced).utf8), reader: GeoJSONReader()) == nil)
        #expect(try LayerReader().read(Data(("\u{FEFF}" + spaced).utf8)).features.count == LayerReader().read(Data(spaced.utf8)).features.count)
    }
}

/// A count a non-escaping closure can add to.
private final class Counter {
    var value = 0
}
