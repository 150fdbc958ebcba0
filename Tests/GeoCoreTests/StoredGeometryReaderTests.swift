import Foundation
@testable import GeoCore
import Support
import Testing

@Suite("Reading stored geometries")
struct StoredGeometryReaderTests {
    let full = GeoJSONReader()

    @Test("what the store writes reads back as the full reader reads it, at every precision")
    func agreesWithFullReader() throws {
        var rng = SeededRandom(seed: 7)
        for precision in [nil, 6, 9] as [Int?] {
            let writer = GeoJSONWriter(precision: precision)
            for _ in 0..<300 {
                let text = writer.string(try randomGeometry(&rng))
                let fast = try #require(StoredGeometryReader.geometry(text), "not read: \(text)")
                #expect(fast == (try full.geometry(from: Data(text.utf8))), "\(text)")
            }
        }
    }

    @Test("spacing, key order, altitudes and exponents read as the full reader reads them")
    func variants() throws {
        let texts = [
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#,
            #" { "coordinates" : [ [ [ 0 , 0 ] , [ 1 , 0 ] , [ 1 , 1 ] , [ 0 , 0 ] ] ] , "type" : "Polygon" } "#,
            #"{"coordinates":[1.5e1,-2E-3,100],"type":"Point"}"#,
            #"{"coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]],"type":"MultiPolygon"}"#,
            #"{"coordinates":[-0.0,0.000001],"type":"Point"}"#,
        ]
        for text in texts {
            let fast = try #require(StoredGeometryReader.geometry(text), "not read: \(text)")
            #expect(fast == (try full.geometry(from: Data(text.utf8))), "\(text)")
        }
    }

    @Test("anything else is left to the full reader, which refuses what is wrong")
    func leavesTheRest() {
        let texts = [
            #"{"type":"LineString","coordinates":[[0,0],[1,1]]}"#,  // a type the store has no use for
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]],"crs":{}}"#,  // another member
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}"#,  // unclosed
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}"#,  // short ring
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]"#,  // cut off
            #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}x"#,  // trailing bytes
            #"{"type":"Point","coordinates":[181,0]}"#,  // out of range
            #"{"type":"Point","coordinates":[01,0]}"#,  // not JSON's grammar
            #"{"type":"Point","coordinates":[1.,0]}"#,
            #"{"type":"Point","coordinates":[+1,0]}"#,
            #"{"type":"Point","coordinates":[nan,0]}"#,
            #"{"type":"Point","coordinates":[0x10,0]}"#,
            #"{"type":"Point","coordinates":[1,2,3,4]}"#,
            #"{"type":"Poi\u006et","coordinates":[1,2]}"#,  // an escape
            #"{"type":"Polygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]}"#,  // too deep for its type
            #"{"type":"Point","type":"Point","coordinates":[1,2]}"#,
            #"{"type":"Point","coordinates":[1,2],"coordinates":[1,2]}"#,
            #"{"type":"Point","coordinates":[]}"#,
            "",
        ]
        for text in texts {
            #expect(StoredGeometryReader.geometry(text) == nil, "\(text)")
        }
    }
}
