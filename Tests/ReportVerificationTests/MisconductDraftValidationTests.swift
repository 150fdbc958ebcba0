import DomainKernel
import Foundation
import ReportVerification
import Testing

@Suite("misconduct drafts")
struct MisconductDraftValidationTests {
    @Test("a valid draft becomes a misconduct report, anonymous by default")
    func valid() throws {
        let report = try Fixtures.misconduct().validated(now: Fixtures.now, timeZone: Fixtures.utc)
        #expect(report == .misconduct(MisconductReport(
            occurredAt: "2026-11-17T22:40:00Z", place: .location(lon: -87.61, lat: 41.79, accuracyMetres: 12),
            officerName: "J. Doe", badgeNumber: "4711", officerDescription: "tall, grey uniform",
            incidentDescription: "stopped without reason", witnesses: [Witness(contact: "555-0100", statement: "saw it")],
            victim: Victim(race: "Black", gender: "female", comments: "shaken"), attachments: [AttachmentID(rawValue: "att-1")],
            anonymous: true)))
        #expect(report.occurredOn == "2026-11-17")
    }

    @Test("text reads as it was typed: control and text-direction characters are refused in every field, named with the character; descriptions keep their line breaks")
    func hiddenCharacters() throws {
        var lines = Fixtures.misconduct()
        lines.incidentDescription = "stopped\nsearched\tand let go"
        guard case .misconduct(let r) = try lines.validated(now: Fixtures.now, timeZone: Fixtures.utc) else {
            Issue.record("expected a misconduct report")
            return
        }
        #expect(r.incidentDescription == "stopped\nsearched\tand let go")
        // An override that shows "4711" for a badge typed "1174", an isolate, a bell, a line break in a name.
        for (field, set) in [("badgeNumber", { (d: inout ReportDraft) in d.badgeNumber = "\u{202E}1174" }),
                             ("officerDescription", { (d: inout ReportDraft) in d.officerDescription = "tall \u{2066}grey\u{2069}" }),
                             ("incidentDescription", { (d: inout ReportDraft) in d.incidentDescription = "stopped\u{07}" }),
                             ("officerName", { (d: inout ReportDraft) in d.officerName = "J.\nDoe" }),
                             ("witnesses[0].statement", { (d: inout ReportDraft) in d.witnesses = [.init(contact: nil, statement: "saw \u{85}it")] })] {
            var d = Fixtures.misconduct()
            set(&d)
            #expect(throws: ReportValidationError.self, "\(field)") { try d.validated(now: Fixtures.now, timeZone: Fixtures.utc) }
            do { _ = try d.validated(now: Fixtures.now, timeZone: Fixtures.utc) } catch {
                #expect(error.problems.map(\.field) == [field])
                #expect(error.problems.first?.description.contains("text-direction") == true)
            }
        }
    }

    @Test("a reporter may choose not to be anonymous; optional sections may be left out or blank")
    func optionalParts() throws {
        var d = Fixtures.misconduct()
        d.anonymous = false
        d.officerName = " "
        d.badgeNumber = nil
        d.witnesses = nil
        d.victim = .init(race: "", gender: " ", comments: nil)
        d.attachments = []
        guard case .misconduct(let r) = try d.validated(now: Fixtures.now, timeZone: Fixtures.utc) else {
            Issue.record("expected a misconduct report")
            return
        }
        #expect(!r.anonymous && r.officerName == nil && r.badgeNumber == nil)
        #expect(r.witnesses.isEmpty && r.victim == nil && r.attachments.isEmpty)
    }

    @Test("time, officer description and incident description are required; blanks do not count")
    func requiredFields() {
        var d = Fixtures.misconduct()
        d.occurredAt = nil
        d.officerDescription = "  \n "
        d.incidentDescription = nil
        #expect(problems(d) == [required("occurredAt"), required("officerDescription"), required("incidentDescription")])
    }

    @Test("short and long text limits", arguments: [
        ("officerName", ReportLimits.shortText), ("badgeNumber", ReportLimits.shortText),
        ("officerDescription", ReportLimits.longText), ("incidentDescription", ReportLimits.longText),
    ])
    func lengths(field: String, limit: Int) {
        func draft(length: Int) -> ReportDraft {
            var d = Fixtures.misconduct()
            let text = String(repeating: "a", count: length)
            switch field {
            case "officerName": d.officerName = text
            case "badgeNumber": d.badgeNumber = text
            case "officerDescription": d.officerDescription = text
            default: d.incidentDescription = text
            }
            return d
        }
        #expect(problems(draft(length: limit)).isEmpty)
        #expect(problems(draft(length: limit + 1)) == [P(field, .tooLong, "must be at most \(limit) characters")])
    }

    @Test("witness problems carry the witness's index")
    func witnesses() {
        var d = Fixtures.misconduct()
        d.witnesses = [
            .init(contact: nil, statement: " "),
            .init(contact: "x", statement: String(repeating: "y", count: ReportLimits.longText + 1)),
            .init(contact: String(repeating: "c", count: ReportLimits.shortText + 1), statement: "ok"),
        ]
        #expect(problems(d) == [
            P("witnesses[0]", .required, "a witness needs a contact or a statement"),
            P("witnesses[1].statement", .tooLong, "must be at most 5000 characters"),
            P("witnesses[2].contact", .tooLong, "must be at most 200 characters"),
        ])
    }

    @Test("at most 20 witnesses")
    func tooManyWitnesses() {
        var d = Fixtures.misconduct()
        d.witnesses = Array(repeating: .init(contact: "c", statement: nil), count: ReportLimits.witnesses)
        #expect(problems(d).isEmpty)
        d.witnesses?.append(.init(contact: "c", statement: nil))
        #expect(problems(d) == [P("witnesses", .tooMany, "must have at most 20 witnesses")])
    }

    @Test("victim details have their own paths")
    func victim() {
        var d = Fixtures.misconduct()
        d.victim = .init(race: String(repeating: "r", count: 201), gender: "f", comments: String(repeating: "c", count: 5001))
        #expect(problems(d) == [
            P("victim.race", .tooLong, "must be at most 200 characters"),
            P("victim.comments", .tooLong, "must be at most 5000 characters"),
        ])
    }

    @Test("attachment ids: present, short, distinct, at most 10")
    func attachments() {
        var d = Fixtures.misconduct()
        d.attachments = ["a", " ", "a", String(repeating: "i", count: ReportLimits.idText + 1)]
        #expect(problems(d) == [
            required("attachments[1]"),
            P("attachments[2]", .conflicting, "repeats attachments[0]"),
            P("attachments[3]", .tooLong, "must be at most 128 characters"),
        ])
        d.attachments = (0...ReportLimits.attachments).map { "a\($0)" }
        #expect(problems(d) == [P("attachments", .tooMany, "must have at most 10 attachments")])
    }

    @Test("the incident time must be an ISO 8601 date-time with a zone",
          arguments: ["yesterday", "2026-11-17", "2026-11-17T22:40:00", "2026-11-17 22:40:00Z"])
    func badInstant(raw: String) {
        var d = Fixtures.misconduct()
        d.occurredAt = raw
        #expect(problems(d) == [P("occurredAt", .badFormat, "must be an ISO 8601 date-time with a zone, such as 2026-11-20T21:15:00Z")])
    }

    @Test("the incident time may not be in the future beyond five minutes of clock skew")
    func futureInstant() {
        var d = Fixtures.misconduct()
        d.occurredAt = "2026-11-18T11:11:40Z"   // now + 5 min
        #expect(problems(d).isEmpty)
        d.occurredAt = "2026-11-18T11:11:41Z"
        #expect(problems(d) == [P("occurredAt", .inFuture, "must not be in the future")])
    }

    @Test("the incident time is kept in the campus zone, so its day is the campus day")
    func campusDay() throws {
        var d = Fixtures.misconduct()
        d.occurredAt = "2026-11-18T03:00:00.250Z"
        let chicago = try d.validated(now: Fixtures.now, timeZone: TimeZone(identifier: "America/Chicago")!)
        guard case .misconduct(let r) = chicago else { Issue.record("expected misconduct"); return }
        #expect(r.occurredAt == "2026-11-17T21:00:00-06:00")
        #expect(chicago.occurredOn == "2026-11-17")
        d.occurredAt = "2026-11-17T23:00:00+02:00"
        #expect(try d.validated(now: Fixtures.now, timeZone: Fixtures.utc).occurredOn == "2026-11-17")
        guard case .misconduct(let u) = try d.validated(now: Fixtures.now, timeZone: Fixtures.utc) else { return }
        #expect(u.occurredAt == "2026-11-17T21:00:00Z")
    }

    @Test("covid fields in a misconduct draft are refused, not dropped")
    func foreignFields() {
        var d = Fixtures.misconduct()
        d.phone = "5550142"
        d.age = 30
        d.notes = "x"
        #expect(problems(d) == [
            P("age", .notApplicable, "is not a field of a misconduct report"),
            P("phone", .notApplicable, "is not a field of a misconduct report"),
            P("notes", .notApplicable, "is not a field of a misconduct report"),
        ])
    }
}
