import Foundation
import Testing
@testable import GeoCore

@Suite("Reading stored geometries")
struct StoredGeometryReaderTests {
    let full = GeoJSONReader()

    /// A random polygon with a hole, or a multipolygon of such, written as the store writes it.
    func randomGeometry(_ rng: inout some RandomNumberGenerator) throws -> Geometry {
        func ring(_ cx: Double, _ cy: Double, _ r: Double) throws -> [Position] {
            let n = Int.random(in: 3...12, using: &rng)
            var ps = try (0..<n).map { i -> Position in
                let a = Double(i) / Double(n) * 2 * .pi
                let rr = r * Double.random(in: 0.6...1, using: &rng)
                return try Position(lon: cx + rr * cos(a), lat: cy + rr * sin(a))
            }
            ps.append(ps[0])
            return ps
        }
        func polygon() throws -> Polygon {
            let cx = Double.random(in: -170...170, using: &rng), cy = Double.random(in: -80...80, using: &rng)
            let r = Double.random(in: 1e-6...5, using: &rng)
            return try Polygon(rings: Bool.random(using: &rng) ? [try ring(cx, cy, r), try ring(cx, cy, r / 4)] : [try ring(cx, cy, r)])
        }
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return .point(try Position(lon: Double.random(in: -180...180, using: &rng), lat: Double.random(in: -90...90, using: &rng)))
        case 1: return .polygon(try polygon())
        default: return .multiPolygon(try (0..<Int.random(in: 1...4, using: &rng)).map { _ in try polygon() })
        }
    }

    @Test("what the store writes reads back as the full reader reads it, at every precision")
    func agreesWithFullReader() throws {
        var rng = SystemRandomNumberGenerator()
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

@Suite("Writing geometries without the encoder")
struct GeometryTextTests {
    @Test("text(_:) writes what JSONEncoder writes, byte for byte, at every precision")
    func sameBytes() throws {
        var rng = SystemRandomNumberGenerator()
        let reading = StoredGeometryReaderTests()
        let edges: [Geometry] = [
            .point(try Position(lon: -0.0, lat: 0.0000001)),
            .point(try Position(lon: 180, lat: -90, altitude: 1e-5)),
            .point(try Position(lon: 1e-7, lat: 12.5, altitude: -0.0)),
            .point(try Position(lon: -179.99999949, lat: 89.9999995)),
            .lineString([try Position(lon: 0, lat: 0), try Position(lon: 1, lat: 1)]),
        ]
        for precision in [nil, 0, 6, 7, 15] as [Int?] {
            let writer = GeoJSONWriter(precision: precision)
            var geometries = edges
            for _ in 0..<300 { geometries.append(try reading.randomGeometry(&rng)) }
            // Clockwise exteriors, which the writer turns.
            geometries.append(.polygon(try Polygon(rings: [[try Position(lon: 0, lat: 0), try Position(lon: 0, lat: 1),
                                                            try Position(lon: 1, lat: 1), try Position(lon: 0, lat: 0)]])))
            for g in geometries {
                #expect(writer.text(g) == writer.string(g), "\(g)")
            }
        }
    }
}
