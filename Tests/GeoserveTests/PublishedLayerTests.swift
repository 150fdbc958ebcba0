import GeoCore
import DomainKernel
import Foundation
import Storage
import Support
import Testing
@testable import GeoserveApp

@Suite("published layers")
struct PublishedLayerTests {
    /// A unit square at (x, 0).
    func square(_ x: Double) throws -> Geometry {
        let ring = try [(x, 0.0), (x + 1, 0), (x + 1, 1), (x, 1), (x, 0)].map { try Position(lon: $0.0, lat: $0.1) }
        return .polygon(try Polygon(rings: [ring]))
    }

    @Test("features are found by id in any input order, and every feature's properties read back exactly as stored, whether kept in memory or let go")
    func propertiesReadBack() throws {
        let cases: [(id: String, name: String?, properties: [String: JSONValue], letGo: Bool)] = [
            ("a10", "Hall A", ["name": .string("Hall A"), "capacity": .number(120), "open": .bool(true), "note": .string("a \"quoted\" \\ line\nü")], true),
            ("a9", nil, ["code": .number(-7), "empty": .null], true),
            ("é", nil, [:], true),
            ("Z", "Zed", ["name": .string("Zed"), "area": .number(1.25)], false),  // a fraction stays
            ("z", "Zee", ["name": .string("Zee"), "tags": .array([.string("x")])], false),  // so does an array
            ("b", "Title", ["title": .string("Title"), "name": .string("other")], false),  // a name from another field
            ("c", "Named", ["capacity": .number(3)], false),  // a name without a name property
            ("d", nil, ["big": .number(1e16)], false),
        ]
        let features = try cases.enumerated().map { i, c in StoredArea(id: c.id, name: c.name, properties: c.properties, geometry: try square(Double(i))) }
        let info = LayerVersionInfo(layer: "l", version: 1, kind: .areas, createdAt: Date(), source: nil, featureCount: features.count, repairedCount: 0, rejectedCount: 0)
        for order in [features, features.reversed(), features.shuffled()] {
            let layer = PublishedLayer(info: info, features: order)
            // Served in the order of the ids' bytes.
            #expect(layer.encoded.ids == ["Z", "a10", "a9", "b", "c", "d", "z", "é"])
            for c in cases {
                let f = try #require(layer.feature(id: c.id), "\(c.id)")
                #expect(f.name == c.name)
                #expect(layer.properties(of: c.id) == c.properties, "\(c.id)")
                // Let go only where it reads back exactly.
                #expect(f.properties.isEmpty == (c.letGo || c.properties.isEmpty), "\(c.id)")
                #expect(layer.encoded.ordinal(of: c.id).map { layer.encoded.ids[$0] } == c.id)
                // The area index finds it by the same halving search over its own order.
                let index = try #require(layer.areaIndex)
                #expect(index.ordinal(of: c.id).map { index.areas[$0].id } == c.id)
                #expect(layer.interiorPoint(of: c.id) != nil)
            }
            for missing in ["", "a", "a1", "zz", "ê", "A10"] {
                #expect(layer.feature(id: missing) == nil && layer.encoded.ordinal(of: missing) == nil, "\(missing)")
                #expect(layer.areaIndex?.ordinal(of: missing) == nil && layer.interiorPoint(of: missing) == nil, "\(missing)")
            }
            #expect(layer.propertyTypes == ["capacity": "integer", "open": "boolean", "note": "string", "code": "integer", "empty": "object",
                                            "area": "number", "tags": "object", "title": "string", "big": "integer"])
            #expect(layer.denominators == ["a10": 120, "c": 3])
        }
    }
}
