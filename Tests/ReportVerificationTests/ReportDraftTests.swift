import Foundation
import Testing
import ReportVerification

@Suite("report drafts")
struct ReportDraftTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)   // 2026-11-18T08:26:40Z
    let utc = TimeZone(identifier: "UTC")!

    func covid() -> ReportDraft {
        var d = ReportDraft()
        d.kind = "covid"
        d.affiliation = "student"
        d.phone = "+1 (336) 555-0142"
        d.testDate = "2026-11-17"
        d.lastOnCampus = "2026-11-16"
        d.area = .init(layer: "halls", id: "H07")
        return d
    }

    func misconduct() -> ReportDraft {
        var d = ReportDraft()
        d.kind = "misconduct"
        d.occurredAt = "2026-11-17T22:40:00Z"
        d.location = .init(lon: -87.61, lat: 41.79, accuracyM: 12)
        d.officerDescription = "tall, grey uniform"
        d.incidentDescription = "stopped without reason"
        d.officerName = "J. Doe"
        d.badgeNumber = "4711"
        d.witnesses = [.init(contact: "555-0100", statement: "saw it")]
        d.victim = .init(race: "Black", gender: "female", comments: nil)
        return d
    }

    func problems(_ d: ReportDraft) -> [String] {
        do {
            _ = try d.validated(now: now, timeZone: utc)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("valid drafts of both kinds become typed reports")
    func valid() throws {
        let c = try covid().validated(now: now, timeZone: utc)
        #expect(c.kind == .covid && c.occurredOn == "2026-11-17" && c.place == .area(layer: "halls", areaID: "H07"))
        let m = try misconduct().validated(now: now, timeZone: utc)
        guard case .misconduct(let r) = m else { Issue.record("expected misconduct"); return }
        #expect(r.anonymous, "anonymous by default")
        #expect(r.witnesses.count == 1 && m.occurredOn == "2026-11-17")
    }

    @Test("every problem is named with its field")
    func everyProblem() {
        var d = covid()
        d.affiliation = "alumnus"
        d.phone = "call me"
        d.testDate = "2026-11-19"
        d.lastOnCampus = "2026-02-30"
        d.age = 200
        d.notes = String(repeating: "x", count: ReportLimits.longText + 1)
        #expect(Set(problems(d)) == [
            "affiliation: must be student, faculty or staff",
            "phone: a phone number has 7 to 20 digits and only + - ( ) . or spaces besides them",
            "testDate: is in the future", "lastOnCampus: must be a date YYYY-MM-DD", "age: must be between 0 and 130",
            "notes: at most 5000 characters",
        ])
    }

    @Test("required fields, kind, and place rules")
    func required() {
        #expect(problems(ReportDraft()) == ["location: a report needs a location or an area", "kind: is required (covid or misconduct)"])
        var d = misconduct()
        d.officerDescription = "   "
        d.incidentDescription = nil
        d.area = .init(layer: "halls", id: "H01")
        #expect(Set(problems(d)) == ["area: give a location or an area, not both", "officerDescription: is required", "incidentDescription: is required"])
        var k = covid()
        k.kind = "parking"
        #expect(problems(k) == ["kind: must be covid or misconduct"])
    }

    @Test("coordinates, accuracy, witnesses and instants are checked")
    func ranges() {
        var d = misconduct()
        d.location = .init(lon: -87.6, lat: 95, accuracyM: nil)
        #expect(problems(d) == ["location: latitude 95.0 is outside -90...90"])
        d.location = .init(lon: -87.6, lat: 41.8, accuracyM: -3)
        #expect(problems(d) == ["location.accuracyM: must be between 0 and 10000 metres"])
        d = misconduct()
        d.witnesses = [.init(contact: nil, statement: " "), .init(contact: "x", statement: String(repeating: "y", count: 6000))]
        #expect(Set(problems(d)) == ["witnesses[0]: a witness needs a contact or a statement", "witnesses[1].statement: at most 5000 characters"])
        d = misconduct()
        d.occurredAt = "yesterday"
        #expect(problems(d) == ["occurredAt: must be an ISO 8601 date-time such as 2026-11-20T21:15:00Z"])
        d.occurredAt = "2026-12-01T00:00:00Z"
        #expect(problems(d) == ["occurredAt: is in the future"])
    }

    @Test("the public projection of a misconduct report carries none of the private fields")
    func publicProjection() throws {
        guard case .misconduct(let r) = try misconduct().validated(now: now, timeZone: utc) else { return }
        let json = String(decoding: try JSONEncoder().encode(PublicMisconductReport(r, layer: "zones", areaID: "Z1")), as: UTF8.self)
        for secret in ["J. Doe", "4711", "555-0100", "saw it", "Black", "female", "-87.61", "41.79", "witness", "victim", "badge", "officerName"] {
            #expect(!json.contains(secret), "public output leaks \(secret)")
        }
        #expect(json.contains("tall, grey uniform") && json.contains("2026-11-17") && json.contains("Z1"))
        #expect(ReportKind.misconduct.fields(.public) == ["officerDescription", "incidentDescription", "occurredOn", "area"])
    }

    @Test("one covid self-report per 14 days; withdrawn and rejected ones do not count")
    func resubmission() {
        let day: TimeInterval = 24 * 3600
        let first = now.addingTimeInterval(-13 * day)
        #expect(ResubmissionRule.nextAllowed(after: [(first, .pending)], now: now) == first.addingTimeInterval(14 * day))
        #expect(ResubmissionRule.nextAllowed(after: [(now.addingTimeInterval(-14 * day), .verified)], now: now) == nil)
        #expect(ResubmissionRule.nextAllowed(after: [(now.addingTimeInterval(-15 * day), .verified)], now: now) == nil)
        #expect(ResubmissionRule.nextAllowed(after: [(first, .withdrawn), (first, .rejected)], now: now) == nil)
        #expect(ResubmissionRule.nextAllowed(after: [], now: now) == nil)
    }
}
