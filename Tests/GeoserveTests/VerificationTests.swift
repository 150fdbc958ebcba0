import DomainKernel
import Foundation
import Hummingbird
import HummingbirdTesting
import ReportVerification
import Storage
import Testing
@testable import GeoserveApp

extension TestService {
    /// Stores pending reports directly, as intake would.
    func seedReports(_ ids: [String], kind: ReportKind = .covid) async throws {
        let store = try openStore(configuration.database)
        for (i, id) in ids.enumerated() {
            let at = Date(timeIntervalSince1970: 1_790_000_000 + Double(i))
            let r = ReportRecord(id: id, kind: kind, status: .pending, version: 1, reporterID: nil, submittedAt: at, updatedAt: at,
                                 occurredOn: "2026-11-20", payload: Data(#"{"notes":"x"}"#.utf8), lon: nil, lat: nil,
                                 areas: [AreaAssignment(layer: "halls", layerVersion: 1, areaID: "H01")])
            _ = try await store.submit(ReportSubmission(record: r, idempotencyKey: nil))
        }
    }
}

extension TestClientProtocol {
    /// Creates an account through the API and logs it in.
    func account(_ role: String, admin: String) async throws -> (id: String, token: String) {
        let email = "\(role)-\(UUID().uuidString.prefix(8))@campus.example"
        let (_, created) = try await json(.post, "/v1/accounts", token: admin, body: #"{"email":"\#(email)","role":"\#(role)","password":"a long enough secret"}"#)
        return (created["id"] as? String ?? "", try await login(email, "a long enough secret"))
    }
}

@Suite("verification over HTTP")
struct VerificationTests {
    @Test("the queue is for verifiers: 401 anonymous, 403 reporters and researchers, 200 verifiers and admins")
    func queueAccess() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.seedReports(["a", "b", "c"])
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let verifier = try await client.account("verifier", admin: admin).token
            #expect(try await client.json(.get, "/v1/verification/queue").0 == .unauthorized)
            for role in ["reporter", "researcher", "viewer"] {
                let t = try await client.account(role, admin: admin).token
                #expect(try await client.json(.get, "/v1/verification/queue", token: t).0 == .forbidden)
            }
            let (status, body) = try await client.json(.get, "/v1/verification/queue?limit=2", token: verifier)
            #expect(status == .ok)
            #expect((body["reports"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["a", "b"])
            let next = body["next"] as? String ?? ""
            let (_, page2) = try await client.json(.get, "/v1/verification/queue?limit=2&cursor=\(next)", token: verifier)
            #expect((page2["reports"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["c"])
            #expect(try await client.json(.get, "/v1/verification/queue", token: admin).0 == .ok)
            #expect(try await client.json(.get, "/v1/verification/queue?from=2026-02-30", token: admin).0 == .badRequest)
            #expect(try await client.json(.get, "/v1/verification/queue?status=lost", token: admin).0 == .badRequest)
        }
    }

    @Test("a verifier cannot decide a report they submitted, alone or in bulk; another verifier can")
    func ownReport() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let mine = try await client.account("verifier", admin: admin).token
            let other = try await client.account("verifier", admin: admin).token
            let (status, submitted, _) = try await client.submit(Drafts.covid(), token: mine)
            #expect(status == .created)
            let id = submitted["id"] as? String ?? ""
            let (s1, b1) = try await client.json(.post, "/v1/reports/\(id)/transitions", token: mine, body: #"{"transition":"verify"}"#)
            #expect(s1 == .forbidden && errorCode(b1) == "own_report")
            let (_, bulk) = try await client.json(.post, "/v1/verification/bulk", token: mine, body: #"{"ids":["\#(id)"],"transition":"verify"}"#)
            #expect(((bulk["results"] as? [[String: Any]])?.first?["ok"] as? Bool) == false)
            let (_, history) = try await client.json(.get, "/v1/reports/\(id)/history", token: admin)
            #expect((history["entries"] as? [[String: Any]])?.count == 1, "only the submission is in the trail")
            let (s2, b2) = try await client.json(.post, "/v1/reports/\(id)/transitions", token: other, body: #"{"transition":"verify"}"#)
            #expect(s2 == .ok && b2["status"] as? String == "verified")
        }
    }

    @Test("transitions apply once; invalid ones answer 409 with the current status; reasons are required")
    func transitions() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.seedReports(["r"])
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let v = try await client.account("verifier", admin: admin).token
            let (s1, b1) = try await client.json(.post, "/v1/reports/r/transitions", token: v, body: #"{"transition":"reject"}"#)
            #expect(s1 == .unprocessableContent && errorField(b1) == "reason")
            let (s2, b2) = try await client.json(.post, "/v1/reports/r/transitions", token: v, body: #"{"transition":"verify","version":1}"#)
            #expect(s2 == .ok && b2["status"] as? String == "verified" && b2["version"] as? Int == 2)
            let (s3, b3) = try await client.json(.post, "/v1/reports/r/transitions", token: v, body: #"{"transition":"verify"}"#)
            #expect(s3 == .conflict && (b3["error"] as? [String: Any])?["current"] as? String == "verified")
            let (s4, b4) = try await client.json(.post, "/v1/reports/r/transitions", token: v, body: #"{"transition":"revoke","reason":"wrong hall","version":1}"#)
            #expect(s4 == .conflict && errorCode(b4) == "stale_version")
            #expect(try await client.json(.post, "/v1/reports/r/transitions", token: v, body: #"{"transition":"withdraw"}"#).0 == .forbidden)
            #expect(try await client.json(.post, "/v1/reports/nope/transitions", token: v, body: #"{"transition":"verify"}"#).0 == .notFound)
            // A bulk decision that needs a reason is refused whole when it has none; an unknown member too.
            let (s5, b5) = try await client.json(.post, "/v1/verification/bulk", token: v, body: #"{"ids":["r"],"transition":"revoke","reason":" "}"#)
            #expect(s5 == .unprocessableContent && errorField(b5) == "reason")
            let (s6, b6) = try await client.json(.post, "/v1/reports/r/transitions", token: v, body: #"{"transition":"revoke","reason":"x","reasn":"y"}"#)
            #expect(s6 == .badRequest && errorField(b6) == "reasn")
            let (_, history) = try await client.json(.get, "/v1/reports/r/history", token: v)
            #expect((history["entries"] as? [[String: Any]])?.compactMap { $0["action"] as? String } == ["submit", "verify"])
        }
    }

    @Test("a claim keeps a second verifier from deciding the report; releasing it lets them")
    func claims() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.seedReports(["r"])
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (aliceID, alice) = try await client.account("verifier", admin: admin)
            let bob = try await client.account("verifier", admin: admin).token
            let (s1, claim) = try await client.json(.post, "/v1/reports/r/claim", token: alice)
            #expect(s1 == .ok && claim["holder"] as? String == aliceID)
            let (s2, b2) = try await client.json(.post, "/v1/reports/r/claim", token: bob)
            #expect(s2 == .conflict && errorCode(b2) == "claimed")
            #expect(try await client.json(.post, "/v1/reports/r/transitions", token: bob, body: #"{"transition":"verify"}"#).0 == .conflict)
            #expect(try await client.json(.delete, "/v1/reports/r/claim", token: alice).0 == .noContent)
            #expect(try await client.json(.post, "/v1/reports/r/transitions", token: bob, body: #"{"transition":"verify"}"#).0 == .ok)
        }
    }

    @Test("bulk transitions report per id")
    func bulk() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.seedReports(["a", "b"])
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            _ = try await client.json(.post, "/v1/reports/b/transitions", token: admin, body: #"{"transition":"verify"}"#)
            let (status, body) = try await client.json(.post, "/v1/verification/bulk", token: admin,
                                                       body: #"{"ids":["a","b","zzz"],"transition":"reject","reason":"test entries"}"#)
            #expect(status == .ok)
            let results = body["results"] as? [[String: Any]] ?? []
            #expect(results.map { $0["ok"] as? Bool } == [true, false, false])
            #expect(results[1]["status"] as? String == "verified")
            #expect(try await client.json(.post, "/v1/verification/bulk", token: admin, body: #"{"ids":[],"transition":"verify"}"#).0 == .unprocessableContent)
        }
    }

    @Test("only admins grant viewers access; grants need a viewer account")
    func grants() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.seedReports(["r"])
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (viewerID, _) = try await client.account("viewer", admin: admin)
            let (verifierID, verifier) = try await client.account("verifier", admin: admin)
            #expect(try await client.json(.post, "/v1/reports/r/grants", token: verifier, body: #"{"viewerId":"\#(viewerID)"}"#).0 == .forbidden)
            #expect(try await client.json(.post, "/v1/reports/r/grants", token: admin, body: #"{"viewerId":"\#(viewerID)"}"#).0 == .noContent)
            #expect(try await client.json(.post, "/v1/reports/r/grants", token: admin, body: #"{"viewerId":"\#(verifierID)"}"#).0 == .notFound)
            #expect(try await client.json(.delete, "/v1/reports/r/grants/\(viewerID)", token: admin).0 == .noContent)
        }
    }
}
