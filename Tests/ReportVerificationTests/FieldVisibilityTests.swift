import DomainKernel
import Foundation
import ReportVerification
import Support
import Testing

@Suite("field visibility")
struct FieldVisibilityTests {
    static func fullCovid() -> CovidReport {
        CovidReport(affiliation: .staff, age: 41, phone: "+1 336 555 0142", place: .area(AreaRef(layer: "halls", areaID: "H07")),
                    testDate: "2026-11-17", lastOnCampus: "2026-11-16", diagnosis: .confirmed, notes: "fever")
    }

    static func fullMisconduct() -> MisconductReport {
        MisconductReport(occurredAt: "2026-11-17T22:40:00Z", place: .location(lon: -87.61, lat: 41.79, accuracyMetres: 12),
                         officerName: "J. Doe", badgeNumber: "4711", officerDescription: "tall, grey uniform",
                         incidentDescription: "stopped without reason", witnesses: [Witness(contact: "555-0100", statement: "saw it")],
                         victim: Victim(race: "Black", gender: "female", comments: "shaken"),
                         attachments: [AttachmentID(rawValue: "att-1")], anonymous: false)
    }

    @Test("every encoded field of each kind is declared, and nothing else but the derived public ones")
    func tableCoversEveryField() throws {
        #expect(try jsonKeys(Self.fullCovid()) == Set(CovidReport.fieldNames))
        #expect(try jsonKeys(Self.fullMisconduct()) == Set(MisconductReport.fieldNames))
        #expect(Set(ReportKind.covid.fieldVisibility.keys) == Set(CovidReport.fieldNames))
        #expect(Set(ReportKind.misconduct.fieldVisibility.keys) == Set(MisconductReport.fieldNames).union(["occurredOn", "area"]))
    }

    @Test("no covid field is public; public covid numbers come only from aggregates")
    func covidNothingPublic() {
        #expect(ReportKind.covid.fields(.public).isEmpty)
        #expect(ReportKind.covid.fields(.reporterOnly) == ["phone"])
    }

    @Test("misconduct: only descriptions, day and area are public; officer name and badge are not")
    func misconductPublic() {
        let kind = ReportKind.misconduct
        #expect(kind.fields(.public) == ["officerDescription", "incidentDescription", "occurredOn", "area"])
        #expect(kind.fieldVisibility["officerName"] == .verifierOnly && kind.fieldVisibility["badgeNumber"] == .verifierOnly)
        #expect(kind.fields(.reporterOnly) == ["witnesses", "attachments"])
        for secret in ["occurredAt", "place", "victim", "witnesses", "attachments", "anonymous"] {
            #expect(!kind.fields(visibleTo: .public).contains(secret))
        }
    }

    @Test("who sees which visibility")
    func matrix() {
        let seen = Dictionary(uniqueKeysWithValues: FieldVisibility.allCases.map { v in
            (v, Set(ReportAudience.allCases.filter { v.isVisible(to: $0) }))
        })
        #expect(seen[.public] == Set(ReportAudience.allCases))
        #expect(seen[.verifierOnly] == [.grantedViewer, .reporter, .verifier])
        #expect(seen[.reporterOnly] == [.reporter, .verifier])
    }

    @Test("an account's audience for a report follows its role, authorship and grants")
    func audiences() {
        #expect(ReportAudience(role: nil, isReporter: false, isGranted: false) == .public)
        #expect(ReportAudience(role: .researcher, isReporter: false, isGranted: true) == .public)
        #expect(ReportAudience(role: .reporter, isReporter: false, isGranted: false) == .public)
        #expect(ReportAudience(role: .reporter, isReporter: true, isGranted: false) == .reporter)
        #expect(ReportAudience(role: .viewer, isReporter: false, isGranted: false) == .public)
        #expect(ReportAudience(role: .viewer, isReporter: false, isGranted: true) == .grantedViewer)
        #expect(ReportAudience(role: .verifier, isReporter: false, isGranted: false) == .verifier)
        #expect(ReportAudience(role: .admin, isReporter: true, isGranted: false) == .verifier)
    }

    @Test("redaction keeps exactly the fields the table lets through")
    func redaction() throws {
        let covid = Report.covid(Self.fullCovid())
        #expect(try covid.fields(visibleTo: .public).isEmpty)
        #expect(Set(try covid.fields(visibleTo: .grantedViewer).keys) == Set(CovidReport.fieldNames).subtracting(["phone"]))
        #expect(try covid.fields(visibleTo: .verifier)["phone"] == .string("+1 336 555 0142"))
        #expect(Set(try covid.fields(visibleTo: .reporter).keys) == Set(CovidReport.fieldNames))

        let misconduct = Report.misconduct(Self.fullMisconduct())
        #expect(try misconduct.fields(visibleTo: .public) == [
            "officerDescription": .string("tall, grey uniform"), "incidentDescription": .string("stopped without reason"),
        ])
        let viewer = try misconduct.fields(visibleTo: .grantedViewer)
        #expect(viewer["witnesses"] == nil && viewer["attachments"] == nil)
        #expect(viewer["officerName"] == .string("J. Doe") && viewer["badgeNumber"] == .string("4711"))
        #expect(Set(try misconduct.fields(visibleTo: .verifier).keys) == Set(MisconductReport.fieldNames))
    }
}
