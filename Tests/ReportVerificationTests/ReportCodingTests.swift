import DomainKernel
import Foundation
import ReportVerification
import Support
import Testing

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
        #expect(r.attachments.isEmpty && !r.anonymous && r.place == .area(AreaRef(layer: "halls", areaID: "H01")))
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

@Suite("stored report JSON")
struct StoredJSONTests {
    static let pieces = ["a", "Ü", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "😀", "e\u{301}", " ", "<>&", "\u{2028}", "x"]

    static func text(_ g: inout SeededRandom) -> String {
        (0..<Int.random(in: 0...12, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
    }

    static func optionalText(_ g: inout SeededRandom) -> String? { Bool.random(using: &g) ? text(&g) : nil }

    /// Any day from 1900 to 2099.
    static func day(_ g: inout SeededRandom) -> Day { Day(ordinal: Int.random(in: -25_567...47_481, using: &g)) }

    /// Any whole second from 1900 to 2099, at any offset of whole quarter hours up to 14 hours.
    static func instant(_ g: inout SeededRandom) -> Instant {
        Instant(date: Date(timeIntervalSince1970: Double(Int.random(in: -2_208_988_800...4_102_444_799, using: &g))),
                offsetSeconds: Int.random(in: -56...56, using: &g) * 900)
    }

    static func place(_ g: inout SeededRandom) -> ReportPlace {
        if Bool.random(using: &g) { return .area(AreaRef(layer: text(&g), areaID: text(&g))) }
        return .location(lon: Double.random(in: -180...180, using: &g), lat: Double.random(in: -90...90, using: &g),
                         accuracyMetres: Bool.random(using: &g) ? Double(Int.random(in: 0...5000, using: &g)) / 7 : nil)
    }

    static func report(_ g: inout SeededRandom) -> Report {
        if Bool.random(using: &g) {
            return .covid(CovidReport(affiliation: Affiliation.allCases.randomElement(using: &g)!, age: Bool.random(using: &g) ? Int.random(in: 0...120, using: &g) : nil,
                                      phone: text(&g), place: place(&g), testDate: day(&g), lastOnCampus: day(&g),
                                      diagnosis: Bool.random(using: &g) ? Diagnosis.allCases.randomElement(using: &g) : nil, notes: optionalText(&g)))
        }
        return .misconduct(MisconductReport(
            occurredAt: instant(&g), place: place(&g), officerName: optionalText(&g), badgeNumber: optionalText(&g),
            officerDescription: text(&g), incidentDescription: text(&g),
            witnesses: (0..<Int.random(in: 0...3, using: &g)).map { _ in Witness(contact: optionalText(&g), statement: optionalText(&g)) },
            victim: Bool.random(using: &g) ? Victim(race: optionalText(&g), gender: optionalText(&g), comments: optionalText(&g)) : nil,
            attachments: (0..<Int.random(in: 0...3, using: &g)).map { _ in AttachmentID(rawValue: text(&g)) }, anonymous: Bool.random(using: &g)))
    }

    @Test("the hand-written JSON reads back as the same report and holds the same members as JSONEncoder's")
    func agreesWithCodable() throws {
        var g = SeededRandom(seed: 20_261_123)
        let fixed = [Report.covid(FieldVisibilityTests.fullCovid()), .misconduct(FieldVisibilityTests.fullMisconduct())]
        for report in fixed + (0..<500).map({ _ in Self.report(&g) }) {
            let written = Data(report.storedJSON)
            #expect(try JSONDecoder().decode(Report.self, from: written) == report)
            let mine = try JSONSerialization.jsonObject(with: written) as? NSDictionary
            let theirs = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? NSDictionary
            #expect(mine != nil && mine == theirs, "\(String(decoding: written, as: UTF8.self))")
        }
    }

    @Test("keys come out sorted and strings escaped as RFC 8259 asks")
    func text() {
        let r = Report.misconduct(MisconductReport(occurredAt: "2026-11-02T21:30:00Z", place: .area(AreaRef(layer: "halls", areaID: "H\"1")),
                                                   officerDescription: "tall\n\u{1}", incidentDescription: "a\\b"))
        #expect(String(decoding: r.storedJSON, as: UTF8.self) == #"{"kind":"misconduct","misconduct":{"anonymous":true,"attachments":[],"#
            + #""incidentDescription":"a\\b","occurredAt":"2026-11-02T21:30:00Z","officerDescription":"tall\n\u0001","#
            + #""place":{"area":{"id":"H\"1","layer":"halls"}},"witnesses":[]}}"#)
    }
}
