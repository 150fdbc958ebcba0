import DomainKernel
import Foundation
@testable import GeoCore
import Support
import Testing

@Suite("area validation and repair")
struct AreaValidatorTests {
    let validator = AreaValidator()

    func polygon(_ corners: [(Double, Double)], holes: [[(Double, Double)]] = []) -> Geometry {
        .polygon(Polygon(trustedRings: [closedRing(corners)] + holes.map(closedRing)))
    }

    @Test("a valid counterclockwise square passes unchanged")
    func valid() {
        #expect(validator.validate(polygon([(0, 0), (1, 0), (1, 1), (0, 1)])) == .valid([square(0, 0, 1)]))
    }

    @Test("a clockwise exterior is reoriented and reported")
    func orientation() {
        let result = validator.validate(polygon([(0, 0), (0, 1), (1, 1), (1, 0)]))
        guard case .repaired(let ps, let notes) = result else { Issue.record("expected repaired, got \(result)"); return }
        #expect(ps[0].followsRightHandRule)
        #expect(notes.map(\.problem) == ["rings not oriented by the right-hand rule"])
    }

    @Test("a bow-tie becomes two triangles")
    func bowTie() {
        let result = validator.validate(polygon([(0, 0), (2, 2), (2, 0), (0, 2)]))
        guard case .repaired(let ps, let notes) = result else { Issue.record("expected repaired, got \(result)"); return }
        #expect(ps.count == 2)
        #expect(ps.allSatisfy { $0.followsRightHandRule })
        #expect(notes.contains { $0.problem.contains("Self-intersection") && $0.action.contains("2 polygons") })
        // The repaired area is what GEOS considers valid.
        let g = try? GEOSContext().geometry(.multiPolygon(ps))
        #expect((try? g?.invalidity()) == .some(nil))
    }

    @Test("repeated consecutive positions are removed and counted")
    func repeatedPoints() {
        let result = validator.validate(polygon([(0, 0), (1, 0), (1, 0), (1, 0), (1, 1), (0, 1)]))
        guard case .repaired(let ps, let notes) = result else { Issue.record("expected repaired, got \(result)"); return }
        #expect(ps == [square(0, 0, 1)])
        #expect(notes.map(\.description) == ["2 repeated consecutive positions: removed"])
    }

    @Test("a spike is cut off")
    func spike() {
        // A square with a needle going out from (1, 0.5) to (3, 0.5) and back.
        let result = validator.validate(polygon([(0, 0), (1, 0), (1, 0.5), (3, 0.5), (1, 0.5), (1, 1), (0, 1)]))
        guard case .repaired(let ps, let notes) = result else { Issue.record("expected repaired, got \(result)"); return }
        #expect(ps.count == 1)
        #expect(ps[0].exterior.allSatisfy { $0.lon <= 1 })
        #expect(!notes.isEmpty)
    }

    @Test("a self-intersecting figure-eight with a hole keeps its holes")
    func holeKept() {
        let result = validator.validate(polygon([(0, 0), (4, 0), (4, 4), (0, 4)], holes: [[(1, 1), (1, 2), (2, 2), (2, 1)]]))
        #expect(result.polygons?.first?.holes.count == 1)
    }

    @Test("collinear points cannot become an area")
    func collapsed() {
        let result = validator.validate(polygon([(0, 0), (1, 1), (2, 2)]))
        guard case .rejected(let reason, _) = result else { Issue.record("expected rejected, got \(result)"); return }
        #expect(reason.contains("repair leaves no area"))
    }

    @Test("a ring that collapses to two points is rejected with the reason")
    func tooFewDistinct() {
        let result = validator.validate(polygon([(0, 0), (1, 0), (1, 0), (0, 0)]))
        guard case .rejected(let reason, let notes) = result else { Issue.record("expected rejected, got \(result)"); return }
        #expect(reason.contains("3 distinct positions"))
        #expect(notes.contains { $0.problem.contains("exterior ring") })
    }

    @Test("lines, points and missing geometries are rejected")
    func wrongTypes() {
        for g: Geometry? in [.lineString([pos(0, 0), pos(1, 1)]), .point(pos(0, 0)), nil] {
            guard case .rejected = validator.validate(g) else { Issue.record("expected rejection of \(String(describing: g))"); continue }
        }
    }

    @Test("a MultiPolygon with overlapping parts is merged into a valid area")
    func overlappingParts() {
        let result = validator.validate(.multiPolygon([square(0, 0, 2), square(1, 1, 2)]))
        guard case .repaired(let ps, _) = result else { Issue.record("expected repaired, got \(result)"); return }
        let g = try? GEOSContext().geometry(ps.count == 1 ? .polygon(ps[0]) : .multiPolygon(ps))
        #expect((try? g?.invalidity()) == .some(nil))
        #expect(abs((g?.area ?? 0) - 7) < 1e-9)
    }
}

@Suite("layer reading")
struct LayerReaderTests {
    @Test("features are reported one by one: valid, repaired, rejected, duplicate id, missing id")
    func report() throws {
        let text = #"""
        {"type":"FeatureCollection","features":[
         {"type":"Feature","id":"ok","properties":{"name":"Fine","capacity":10},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}},
         {"type":"Feature","id":"open","properties":{},"geometry":{"type":"Polygon","coordinates":[[[2,0],[3,0],[3,1],[2,1]]]}},
         {"type":"Feature","id":"line","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}},
         {"type":"Feature","id":"ok","properties":{},"geometry":{"type":"Polygon","coordinates":[[[5,0],[6,0],[6,1],[5,1],[5,0]]]}},
         {"type":"Feature","properties":{"name":"anonymous"},"geometry":{"type":"Polygon","coordinates":[[[7,0],[8,0],[8,1],[7,1],[7,0]]]}}
        ]}
        """#
        let result = try LayerReader().read(Data(text.utf8))
        #expect(result.kind == .areas)
        #expect(result.features.map(\.id) == ["ok", "open"])
        #expect(result.features[0].name == "Fine")
        #expect(result.features[0].properties["capacity"] == .number(10))
        let r = result.report
        #expect((r.validCount, r.repairedCount, r.rejectedCount) == (1, 1, 3))
        guard case .repaired(let notes) = r.features[1].outcome else { Issue.record("feature 1 should be repaired"); return }
        #expect(notes.first?.problem == "coordinates[0]: ring not closed")
        #expect(r.lines.count == 4)
        #expect(r.lines[2].contains("already used by feature 0"))
        #expect(r.lines[3].contains("neither an id member nor an id property"))
    }

    @Test("an id property and a name field can be chosen")
    func fields() throws {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"code":17,"label":"Zone A"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}}]}"#
        let result = try LayerReader(idField: "code", nameField: "label").read(Data(text.utf8))
        #expect(result.features.first?.id == "17")
        #expect(result.features.first?.name == "Zone A")
        #expect(result.features.first?.properties["code"] == nil)
    }

    @Test("a layer of points is read as a point layer")
    func points() throws {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"t1","properties":{"name":"Site"},"geometry":{"type":"Point","coordinates":[1,2]}}]}"#
        let result = try LayerReader().read(Data(text.utf8))
        #expect(result.kind == .points)
        #expect(result.features.first?.geometry == .point(pos(1, 2)))
    }
}

@Suite("nearest sites")
struct PointLayerIndexTests {
    @Test("great-circle distance of one degree of latitude")
    func oneDegree() {
        let d = greatCircleMetres(lon1: 0, lat1: 0, lon2: 0, lat2: 1)
        #expect(abs(d - 111_195.08) < 0.1)
        // Chicago Loop to O'Hare, about 25.6 km.
        let ohare = greatCircleMetres(lon1: -87.6298, lat1: 41.8781, lon2: -87.9073, lat2: 41.9742)
        #expect(abs(ohare - 25_500) < 500)
    }

    @Test("nearest returns the closest sites, nearest first, ties by id")
    func nearest() {
        let index = PointLayerIndex(sites: [
            PointSite(id: "far", lon: 1, lat: 1), PointSite(id: "b", lon: 0, lat: 0.01),
            PointSite(id: "a", lon: 0, lat: -0.01), PointSite(id: "mid", lon: 0.1, lat: 0),
        ])
        let n = index.nearest(lon: 0, lat: 0, count: 3)
        #expect(n.map(\.site.id) == ["a", "b", "mid"])
        #expect(abs(n[0].distanceMetres - 1_111.95) < 0.1)
        #expect(index.nearest(lon: 0, lat: 0, count: 0).isEmpty)
        #expect(index.nearest(lon: 0, lat: 0, count: 10).count == 4)
    }
}
