import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import GeoserveApp

@Suite("edits and revisions over HTTP")
struct RevisionTests {
    @Test("a reporter edits while pending; the location edit re-places the report; six edits keep five revisions; a restore brings one back")
    func editAndRestore() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let reporter = try await client.account("reporter", admin: admin).token
            let (_, created, _) = try await client.submit(Drafts.covid(hall: "H07"), token: reporter)
            let id = created["id"] as? String ?? ""
            for hall in ["H08", "H09", "H10", "H11", "H12", "H13"] {
                let (s, _) = try await client.json(.patch, "/v1/reports/\(id)", token: reporter, body: #"{"report":\#(Drafts.covid(hall: hall))}"#)
                #expect(s == .ok)
            }
            let (_, full) = try await client.json(.get, "/v1/reports/\(id)", token: admin)
            let areas = (full["areas"] as? [[String: Any]] ?? []).map { "\($0["layer"] ?? ""):\($0["areaID"] ?? "")" }
            #expect(areas.contains("halls:H13"))
            let (_, kept) = try await client.json(.get, "/v1/reports/\(id)/revisions", token: reporter)
            let numbers = (kept["revisions"] as? [[String: Any]] ?? []).compactMap { $0["revision"] as? Int }
            #expect(numbers == [7, 6, 5, 4, 3])
            let (s, restored) = try await client.json(.post, "/v1/reports/\(id)/revisions/4/restore", token: admin)
            #expect(s == .ok)
            let after = (restored["areas"] as? [[String: Any]] ?? []).map { "\($0["layer"] ?? ""):\($0["areaID"] ?? "")" }
            #expect(after.contains("halls:H10"))
            #expect(try await client.json(.post, "/v1/reports/\(id)/revisions/1/restore", token: admin).0 == .notFound)
        }
    }

    @Test("a reporter cannot edit after verification, nor another's report; invalid edits change nothing")
    func rules() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let alice = try await client.account("reporter", admin: admin).token
            let bob = try await client.account("reporter", admin: admin).token
            let (_, created, _) = try await client.submit(Drafts.covid(), token: alice)
            let id = created["id"] as? String ?? ""
            #expect(try await client.json(.patch, "/v1/reports/\(id)", token: bob, body: #"{"report":\#(Drafts.covid(hall: "H02"))}"#).0 == .notFound)
            let (s1, b1) = try await client.json(.patch, "/v1/reports/\(id)", token: alice, body: #"{"report":\#(Drafts.covid(hall: "H99"))}"#)
            #expect(s1 == .unprocessableContent && errorField(b1) == "area.id")
            #expect(try await client.json(.patch, "/v1/reports/\(id)", token: alice, body: #"{"report":\#(Drafts.misconduct())}"#).0 == .unprocessableContent)
            _ = try await client.json(.post, "/v1/reports/\(id)/transitions", token: admin, body: #"{"transition":"verify"}"#)
            let (s2, b2) = try await client.json(.patch, "/v1/reports/\(id)", token: alice, body: #"{"report":\#(Drafts.covid(hall: "H02"))}"#)
            #expect(s2 == .conflict && errorCode(b2) == "not_editable")
            let (_, kept) = try await client.json(.get, "/v1/reports/\(id)/revisions", token: admin)
            #expect((kept["revisions"] as? [[String: Any]])?.isEmpty == true)
            #expect(try await client.json(.patch, "/v1/reports/\(id)", token: admin, body: #"{"report":\#(Drafts.covid(hall: "H02")),"version":1}"#).0 == .conflict)
            #expect(try await client.json(.patch, "/v1/reports/\(id)", token: admin, body: #"{"report":\#(Drafts.covid(hall: "H02")),"version":2}"#).0 == .ok)
        }
    }
}
