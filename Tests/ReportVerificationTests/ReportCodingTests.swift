import Foundation
import Testing
import ReportVerification

@Suite("report coding")
struct ReportCodingTests {
    @Test("reports of both kinds survive a JSON round trip")
    func roundTrip() throws {
        for report in [Report.covid(FieldVisibilityTests.fullCovid()), .misconduct(FieldVisibilityTests.fullMisconduct())] {
            #expect(try JSONDecoder().decode(Report.self, from: JSONEncoder().encode(report)) == report)
        }
    }

    @Test("misconduct payloads stored before attachments existed still read")
    func oldPayload() throws {
        let old = #"{"kind":"misconduct","misconduct":{"occurredAt":"2026-11-02T21:30:00Z","place":{"area":{"layer":"halls","id":"H01"}},"officerDescription":"tall","incidentDescription":"stopped","witnesses":[],"anonymous":false}}"#
        guard case .misconduct(let r) = try JSONDecoder().decode(Report.self, from: Data(old.utf8)) else {
            Issue.record("expected misconduct")
            return
        }
        #expect(r.attachments.isEmpty && !r.anonymous && r.place == .area(layer: "halls", areaID: "H01"))
    }

    @Test("a place with both or neither form, or bad coordinates, does not decode", arguments: [
        #"{"location":{"lon":1,"lat":2},"area":{"layer":"a","id":"b"}}"#,
        #"{}"#,
        #"{"location":{"lon":1,"lat":95}}"#,
    ])
    func strictPlace(text: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ReportPlace.self, from: Data(text.utf8)) }
    }

    @Test("a draft in the API's JSON shape decodes and validates")
    func apiDraft() throws {
        let body = #"{"kind":"misconduct","occurredAt":"2026-11-02T21:30:00Z","location":{"lon":-87.6003,"lat":41.7894,"accuracyM":10},"officerDescription":"tall","incidentDescription":"stopped","witnesses":[{"contact":"555-0100","statement":"saw it"}],"victim":{"race":"Black","gender":"female"},"attachments":["v1"],"anonymous":false}"#
        let draft = try JSONDecoder().decode(ReportDraft.self, from: Data(body.utf8))
        guard case .misconduct(let r) = try draft.validated(now: Fixtures.now, timeZone: Fixtures.utc) else {
            Issue.record("expected misconduct")
            return
        }
        #expect(r.attachments == [AttachmentID(rawValue: "v1")] && !r.anonymous && r.witnesses.count == 1)
        #expect(try json(r).contains(#""attachments":["v1"]"#))
    }

    @Test("problems encode as field, code and reason for the API")
    func problemJSON() throws {
        #expect(try json(P("witnesses[1].statement", .tooLong, "must be at most 5000 characters"))
                == #"{"code":"tooLong","field":"witnesses[1].statement","reason":"must be at most 5000 characters"}"#)
    }
}
