import DomainKernel
import Foundation
@testable import GeoCore
import Support
import Testing

@Suite("Writing geometries without the encoder")
struct GeoJSONWriterGeometryTests {
    @Test("a geometry is written as JSONEncoder writes it, byte for byte, at every precision")
    func sameBytes() throws {
        var rng = SeededRandom(seed: 11)
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
            for _ in 0..<300 { geometries.append(try randomGeometry(&rng)) }
            // Clockwise exteriors, which the writer turns.
            geometries.append(.polygon(try Polygon(rings: [[try Position(lon: 0, lat: 0), try Position(lon: 0, lat: 1),
                                                            try Position(lon: 1, lat: 1), try Position(lon: 0, lat: 0)]])))
            for g in geometries {
                #expect(writer.string(g) == String(decoding: writer.data(g), as: UTF8.self), "\(g)")
            }
        }
    }
}
