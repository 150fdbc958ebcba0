import DomainKernel
import Foundation
import Storage
import Testing

@Suite("area assignment coding")
struct AreaAssignmentCodingTests {
    @Test("a revision's areas keep the flat shape stored revisions have (layer, layerVersion, areaID) and read back equal")
    func flatShape() throws {
        let areas = [AreaAssignment(layer: "halls", layerVersion: 3, areaID: "H07"), AreaAssignment(layer: "zones", layerVersion: 1, areaID: "Z\"1")]
        let revision = ReportRevision(reportID: "r1", revision: 1, at: Date(), actor: "a", occurredOn: Day(year: 2026, month: 11, day: 2), lon: nil, lat: nil,
                                      areas: areas, payload: Data("{}".utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(revision.areasJSON.utf8)) as? [[String: Any]])
        #expect(object.count == 2)
        #expect(Set(object[0].keys) == ["layer", "layerVersion", "areaID"])
        #expect(object[0]["layerVersion"] as? Int == 3 && object[1]["areaID"] as? String == "Z\"1")
        #expect(ReportRevision.areas(fromJSON: revision.areasJSON) == areas)
        #expect(areas[0].area == AreaRef(layer: "halls", areaID: "H07"))
        // Text written before, by the synthesized coding, still reads.
        #expect(ReportRevision.areas(fromJSON: #"[{"layer":"halls","layerVersion":2,"areaID":"H01"}]"#)
                == [AreaAssignment(layer: "halls", layerVersion: 2, areaID: "H01")])
        #expect(ReportRevision.areas(fromJSON: "not json").isEmpty)
    }
}
