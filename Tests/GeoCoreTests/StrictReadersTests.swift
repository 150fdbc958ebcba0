import Foundation
import Testing
@testable import GeoCore

/// Every reader of a layer file refuses what the strict JSON parser refuses, so no two readers
/// take one file to mean two things: a property named twice (Foundation's readers kept one copy
/// or the other), an unpaired surrogate, invalid UTF-8 in a member name, a number out of range
/// either way (`1e-400` read as 0 put a hall's vertex at latitude 0).
@Suite("strict layer readers")
struct StrictReadersTests {
    static func collection(properties: String = #"{"name":"Hall"}"#, coordinates: String = "[[0,0],[1,0],[1,1],[0,1],[0,0]]", top: String = "") -> Data {
        Data(("{\(top)\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":\"H01\",\"properties\":\(properties),"
              + "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[\(coordinates)]}}]}").utf8)
    }

    /// Made for each use, not kept in a static: the sanitized run's leak check counts what a
    /// static array of `Data` holds at exit.
    static var refused: [(String, Data)] { [
        ("a property named twice", collection(properties: #"{"name":"Hall","name":"Other"}"#)),
        ("a member named twice, once escaped", collection(properties: #"{"name":"Hall","\u006eame":"Other"}"#)),
        ("an unpaired surrogate", collection(properties: #"{"name":"\uD800"}"#)),
        ("a number too large", collection(coordinates: "[[0,0],[1e400,0],[1,1],[0,1],[0,0]]")),
        ("a number too small to be told from 0", collection(coordinates: "[[0,0],[1,0],[1,1e-400],[0,1],[0,0]]")),
        ("invalid UTF-8 in a top-level member name", Data(#"{"x"#.utf8) + Data([0xFF]) + Data(#"":1,"#.utf8)
            + collection().dropFirst()),
    ] }

    @Test("the whole-document reader and the streamed reader both refuse it", arguments: 0..<refused.count)
    func bothRefuse(index: Int) {
        let (what, data) = Self.refused[index]
        let whole = #expect(throws: GeoJSONError.self, "\(what): whole") { _ = try GeoJSONReader().featureCollection(from: data) }
        let streamed = #expect(throws: GeoJSONError.self, "\(what): streamed") { _ = try GeoJSONFeatureStream(data: data, reader: GeoJSONReader()) }
        #expect(whole?.reason.hasPrefix("not valid JSON") == true, "\(what): \(whole?.reason ?? "-")")
        #expect(whole?.reason == streamed?.reason, "one refusal, one reason")
    }

    @Test("a valid layer still reads, whole and streamed, to the same feature")
    func validReads() throws {
        let data = Self.collection()
        let whole = try GeoJSONReader().featureCollection(from: data)
        let stream = try #require(try GeoJSONFeatureStream(data: data, reader: GeoJSONReader()))
        #expect(whole.features.count == 1 && stream.count == 1)
        #expect(try stream.feature(0).feature.id == whole.features[0].id)
    }
}
