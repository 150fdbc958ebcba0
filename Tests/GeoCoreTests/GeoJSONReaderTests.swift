import DomainKernel
import Foundation
@testable import GeoCore
import Support
import Testing

@Suite("GeoJSON reading")
struct GeoJSONReaderTests {
    let reader = GeoJSONReader()

    func fc(_ geometry: String, properties: String = "{}") -> Data {
        Data(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","properties":\#(properties),"geometry":\#(geometry)}]}"#.utf8)
    }

    func failure(_ data: Data, reader: GeoJSONReader? = nil) -> GeoJSONError? {
        do {
            _ = try (reader ?? self.reader).featureCollection(from: data)
            return nil
        } catch {
            return error
        }
    }

    @Test("every geometry type reads, and writes back to the same value")
    func allTypesRoundTrip() throws {
        let text = #"""
        {"type":"FeatureCollection","bbox":[-1,-1,3,3],"features":[
         {"type":"Feature","id":7,"properties":{"name":"p","n":1.5,"ok":true,"none":null,"list":[1,"x"]},"geometry":{"type":"Point","coordinates":[1,2]}},
         {"type":"Feature","id":"mp","properties":null,"geometry":{"type":"MultiPoint","coordinates":[[1,2],[3,2.5,10]]}},
         {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}},
         {"type":"Feature","properties":{},"geometry":{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3]]]}},
         {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,2],[0,0]],[[0.5,0.5],[0.5,1],[1,1],[0.5,0.5]]]}},
         {"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[2,2],[3,2],[3,3],[2,2]]]]}},
         {"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[0,0]},{"type":"LineString","coordinates":[[0,0],[1,0]]}]}},
         {"type":"Feature","properties":{},"geometry":null}
        ]}
        """#
        let c = try reader.featureCollection(from: Data(text.utf8))
        #expect(c.features.count == 8)
        #expect(c.bbox == BoundingBox(west: -1, south: -1, east: 3, north: 3))
        #expect(c.features[0].id == .number(7))
        #expect(c.features[1].id == .string("mp"))
        #expect(c.features[0].properties?["list"] == .array([.number(1), .string("x")]))
        #expect(c.features[1].geometry == .multiPoint([pos(1, 2), try Position(lon: 3, lat: 2.5, altitude: 10)]))
        #expect(c.features[4].geometry?.polygons.first?.holes.count == 1)
        #expect(c.features[7].geometry == nil)
        let again = try reader.featureCollection(from: GeoJSONWriter(precision: nil).data(c))
        #expect(again == FeatureCollection(features: c.features.map { f in
            var f = f
            f.geometry = f.geometry.map { g in
                switch g {
                case .polygon(let p): return .polygon(p.rightHandRule)
                case .multiPolygon(let ps): return .multiPolygon(ps.map(\.rightHandRule))
                default: return g
                }
            }
            return f
        }, bbox: c.bbox))
    }

    @Test("an unclosed ring fails at its path")
    func unclosedRing() {
        let e = failure(fc(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}"#))
        #expect(e?.path == "$.features[0].geometry.coordinates[0]")
        #expect(e?.reason.contains("not closed") == true)
    }

    @Test("with closing allowed, an unclosed ring is closed and noted")
    func unclosedRingClosed() throws {
        var lenient = reader
        lenient.closeUnclosedRings = true
        let (c, notes) = try lenient.featureCollectionWithNotes(from: fc(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}"#))
        #expect(c.features[0].geometry?.polygons.first?.exterior.count == 5)
        #expect(notes.map(\.path) == ["$.features[0].geometry.coordinates[0]"])
    }

    @Test("a ring of three positions fails")
    func shortRing() {
        let e = failure(fc(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}"#))
        #expect(e?.path == "$.features[0].geometry.coordinates[0]")
        #expect(e?.reason.contains("at least 4") == true)
    }

    @Test("a non-numeric coordinate fails at the coordinate")
    func nonNumeric() {
        let e = failure(fc(#"{"type":"Point","coordinates":[1,"north"]}"#))
        #expect(e?.path == "$.features[0].geometry.coordinates[1]")
        #expect(e?.reason == "expected a number")
    }

    @Test("NaN is not JSON and fails as such")
    func nanLiteral() {
        let e = failure(fc(#"{"type":"Point","coordinates":[NaN,1]}"#))
        #expect(e?.path == "$")
        #expect(e?.reason.hasPrefix("not valid JSON") == true)
    }

    @Test("a number too large for a double fails")
    func infinite() {
        let e = failure(fc(#"{"type":"Point","coordinates":[1e999,1]}"#))
        #expect(e != nil)
        #expect(e?.reason.isEmpty == false)
    }

    @Test("latitude beyond 90 fails with the value")
    func latitudeRange() {
        let e = failure(fc(#"{"type":"MultiPoint","coordinates":[[0,0],[10,95.5]]}"#))
        #expect(e?.path == "$.features[0].geometry.coordinates[1]")
        #expect(e?.reason == "latitude 95.5 is outside -90...90")
    }

    @Test("longitude beyond 180 fails with the value")
    func longitudeRange() {
        let e = failure(fc(#"{"type":"Point","coordinates":[-180.5,0]}"#))
        #expect(e?.reason == "longitude -180.5 is outside -180...180")
    }

    @Test("a position needs two numbers")
    func shortPosition() {
        let e = failure(fc(#"{"type":"Point","coordinates":[1]}"#))
        #expect(e?.path == "$.features[0].geometry.coordinates")
        #expect(e?.reason.contains("at least 2 numbers") == true)
    }

    @Test("deep JSON nesting is refused before decoding")
    func nesting() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let e = failure(fc(#"{"type":"Point","coordinates":\#(deep)}"#))
        #expect(e?.reason.contains("nested deeper than 64") == true)
    }

    @Test("GeometryCollections nested beyond the limit fail")
    func collectionNesting() {
        var g = #"{"type":"Point","coordinates":[0,0]}"#
        for _ in 0..<10 { g = #"{"type":"GeometryCollection","geometries":[\#(g)]}"# }
        let e = failure(fc(g))
        #expect(e?.reason.contains("GeometryCollections nested deeper than 8") == true)
    }

    @Test("documents over the size limit fail without being parsed")
    func sizeLimit() {
        let small = GeoJSONReader(maxBytes: 64)
        let e = failure(fc(#"{"type":"Point","coordinates":[0,0]}"#), reader: small)
        #expect(e?.path == "$")
        #expect(e?.reason.contains("the limit is 64") == true)
    }

    @Test("an unknown geometry type fails at type")
    func unknownType() {
        let e = failure(fc(#"{"type":"Circle","coordinates":[0,0]}"#))
        #expect(e?.path == "$.features[0].geometry.type")
        #expect(e?.reason == "unknown geometry type \"Circle\"")
    }

    @Test("a missing member is named")
    func missingMember() {
        let e = failure(fc(#"{"type":"Point"}"#))
        #expect(e?.path == "$.features[0].geometry.coordinates")
        #expect(e?.reason == "required member \"coordinates\" is missing")
    }

    @Test("a crs other than WGS 84 is refused; CRS84 is accepted")
    func crs() throws {
        let foreign = #"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::3435"}},"features":[]}"#
        #expect(failure(Data(foreign.utf8))?.path == "$.crs")
        let wgs = #"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},"features":[]}"#
        #expect(try reader.featureCollection(from: Data(wgs.utf8)).features.isEmpty)
    }

    @Test("broken JSON fails with a syntax message")
    func brokenJSON() {
        let e = failure(Data(#"{"type":"FeatureCollection","features":[{]}"#.utf8))
        #expect(e?.path == "$")
        #expect(e?.reason.hasPrefix("not valid JSON") == true)
    }

    @Test("a Feature where a FeatureCollection is expected fails at type")
    func wrongTopLevel() {
        let e = failure(Data(#"{"type":"Feature","properties":{},"geometry":null}"#.utf8))
        #expect(e?.path == "$.type")
    }
}

@Suite("GeoJSON writing")
struct GeoJSONWriterTests {
    @Test("output has sorted keys, right-hand-rule rings, rounded coordinates and no crs")
    func golden() throws {
        // Exterior given clockwise, hole given counterclockwise: both must be flipped.
        let poly = try Polygon(rings: [
            closedRing([(0, 0), (0, 1.123456789), (1, 1), (1, 0)]),
            closedRing([(0.25, 0.25), (0.75, 0.25), (0.75, 0.75), (0.25, 0.75)]),
        ])
        let f = Feature(id: .string("h1"), geometry: .polygon(poly), properties: ["name": .string("Elm"), "capacity": .number(120)])
        let text = GeoJSONWriter(precision: 6).string(FeatureCollection(features: [f]))
        #expect(text == #"{"features":[{"geometry":{"coordinates":[[[0,0],[1,0],[1,1],[0,1.123457],[0,0]],[[0.25,0.25],[0.25,0.75],[0.75,0.75],[0.75,0.25],[0.25,0.25]]],"type":"Polygon"},"id":"h1","properties":{"capacity":120,"name":"Elm"},"type":"Feature"}],"type":"FeatureCollection"}"#)
        #expect(!text.contains("crs"))
    }

    @Test("a feature without geometry or properties writes both as null")
    func nulls() {
        let text = GeoJSONWriter().string(Feature(geometry: nil))
        #expect(text == #"{"geometry":null,"properties":null,"type":"Feature"}"#)
    }

    @Test("precision nil keeps every digit")
    func fullPrecision() {
        let text = GeoJSONWriter(precision: nil).string(Geometry.point(pos(-87.123456789, 41.5)))
        #expect(text == #"{"coordinates":[-87.123456789,41.5],"type":"Point"}"#)
    }
}
