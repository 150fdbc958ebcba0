import DomainKernel
import Foundation
import ReportVerification
import Testing

@Suite("public misconduct projection")
struct PublicProjectionTests {
    let projection = FieldVisibilityTests.fullMisconduct().publicProjection(layer: "zones", areaID: "Z1")

    @Test("carries the descriptions, the day and the area")
    func content() {
        #expect(projection.officerDescription == "tall, grey uniform")
        #expect(projection.incidentDescription == "stopped without reason")
        #expect(projection.occurredOn == "2026-11-17")
        #expect(projection.layer == "zones" && projection.area == "Z1")
    }

    @Test("its JSON has only public keys, each one a public field of the table")
    func keys() throws {
        let keys = try jsonKeys(projection)
        #expect(keys == ["officerDescription", "incidentDescription", "occurredOn", "area", "layer"])
        let publicFields = ReportKind.misconduct.fields(.public)
        for key in keys {
            #expect(PublicMisconductReport.sourceFields[key].map(publicFields.contains) == true, "\(key) is not declared public")
        }
    }

    @Test("its JSON never carries witnesses, victims, contacts, coordinates, the time, attachments or the reporter")
    func nothingPrivate() throws {
        let text = try json(projection)
        let forbiddenKeys = ["witness", "victim", "contact", "statement", "race", "gender", "comments", "phone", "lon", "lat",
                             "location", "place", "accuracy", "attachment", "officerName", "badge", "anonymous", "reporter",
                             "occurredAt"]
        for key in forbiddenKeys {
            #expect(!text.lowercased().contains("\"\(key.lowercased())"), "public JSON has a key like \(key)")
        }
        let forbiddenValues = ["J. Doe", "4711", "555-0100", "saw it", "Black", "female", "shaken", "-87.61", "41.79",
                               "att-1", "22:40", "T22"]
        for value in forbiddenValues {
            #expect(!text.contains(value), "public JSON leaks \(value)")
        }
    }
}
