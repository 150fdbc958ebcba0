import DomainKernel
import Foundation
import ReportVerification
import Testing

@Suite("covid drafts")
struct CovidDraftValidationTests {
    @Test("a valid draft becomes a covid report with every field carried over")
    func valid() throws {
        var d = Fixtures.covid()
        d.age = 20
        d.diagnosis = "Confirmed"
        d.notes = "  fever since Friday \n"
        let report = try d.validated(now: Fixtures.now, timeZone: Fixtures.utc)
        #expect(report == .covid(CovidReport(affiliation: .student, age: 20, phone: "+1 (336) 555-0142",
                                             place: .area(AreaRef(layer: "halls", areaID: "H07")), testDate: "2026-11-17",
                                             lastOnCampus: "2026-11-16", diagnosis: .confirmed, notes: "fever since Friday")))
        #expect(report.kind == .covid && report.occurredOn == "2026-11-17")
    }

    @Test("a missing kind, and an unknown one, are named")
    func kind() {
        var d = Fixtures.covid()
        d.kind = nil
        #expect(problems(d) == [required("kind")])
        d.kind = "parking"
        #expect(problems(d) == [P("kind", .notOneOf, "must be one of covid, misconduct")])
    }

    @Test("every required covid field is named when missing or blank")
    func requiredFields() {
        var d = ReportDraft()
        d.kind = "covid"
        d.phone = "   "
        #expect(problems(d) == [
            P("location", .required, "a report needs a location or an area"),
            required("affiliation"), required("phone"), required("testDate"), required("lastOnCampus"),
        ])
    }

    @Test("enums accept only their values")
    func enums() {
        var d = Fixtures.covid()
        d.affiliation = "alumnus"
        d.diagnosis = "maybe"
        #expect(problems(d) == [
            P("affiliation", .notOneOf, "must be one of student, faculty, staff"),
            P("diagnosis", .notOneOf, "must be one of confirmed, unconfirmed"),
        ])
    }

    @Test("age must be 0 to 130", arguments: [(-1, false), (0, true), (130, true), (131, false)])
    func age(age: Int, ok: Bool) {
        var d = Fixtures.covid()
        d.age = age
        #expect(problems(d) == (ok ? [] : [P("age", .outOfRange, "must be between 0 and 130")]))
    }

    @Test("notes may be as long as the long-text limit and no longer")
    func notesLength() {
        var d = Fixtures.covid()
        d.notes = String(repeating: "x", count: ReportLimits.longText)
        #expect(problems(d).isEmpty)
        d.notes = String(repeating: "x", count: ReportLimits.longText + 1)
        #expect(problems(d) == [P("notes", .tooLong, "must be at most 5000 characters")])
    }

    @Test("days must be real YYYY-MM-DD dates", arguments: ["2026-02-30", "2026-1-011", "17/11/2026", "2026-11-17T00:00:00Z", "+026-11-17"])
    func badDays(raw: String) {
        var d = Fixtures.covid()
        d.lastOnCampus = raw
        #expect(problems(d) == [P("lastOnCampus", .badFormat, "must be a date YYYY-MM-DD")])
    }

    @Test("days may be today but not in the future")
    func futureDays() {
        var d = Fixtures.covid()
        d.testDate = "2026-11-18"
        d.lastOnCampus = "2026-11-18"
        #expect(problems(d).isEmpty)
        d.testDate = "2026-11-19"
        d.lastOnCampus = "2027-01-01"
        #expect(problems(d) == [P("testDate", .inFuture, "must not be in the future"), P("lastOnCampus", .inFuture, "must not be in the future")])
    }

    @Test("today is the campus's today")
    func campusToday() {
        // 11:06 UTC on the 18th is 23:06 on the 17th at UTC-12.
        var d = Fixtures.covid()
        d.testDate = "2026-11-18"
        d.lastOnCampus = "2026-11-17"
        #expect(problems(d, timeZone: TimeZone(identifier: "Etc/GMT+12")!) == [P("testDate", .inFuture, "must not be in the future")])
        #expect(problems(d, timeZone: Fixtures.utc).isEmpty)
    }

    @Test("no rule orders the test date and the last day on campus (the source states none)")
    func noInventedOrder() {
        var d = Fixtures.covid()
        d.testDate = "2026-11-17"
        d.lastOnCampus = "2026-11-01"
        #expect(problems(d).isEmpty)
        d.testDate = "2026-11-01"
        d.lastOnCampus = "2026-11-17"
        #expect(problems(d).isEmpty)
    }

    @Test("misconduct fields in a covid draft are refused, not dropped")
    func foreignFields() {
        var d = Fixtures.covid()
        d.officerName = "J. Doe"
        d.witnesses = [.init(contact: "x", statement: nil)]
        d.anonymous = true
        d.incidentDescription = "  "   // blank counts as not given
        #expect(problems(d) == [
            P("officerName", .notApplicable, "is not a field of a covid report"),
            P("witnesses", .notApplicable, "is not a field of a covid report"),
            P("anonymous", .notApplicable, "is not a field of a covid report"),
        ])
    }
}
