import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import GeoserveApp

@Suite("alerts and resources")
struct NoticesTests {
    static func isoAgo(_ seconds: Double) -> String { Timestamp.format(Date().addingTimeInterval(-seconds)) }

    @Test("admins post alerts; the public sees only current ones, most severe first, and admins every state")
    func alertLifecycle() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let verifier = try await client.account("verifier", admin: admin).token
            let (s1, info) = try await client.json(.post, "/v1/alerts", token: admin, body: #"{"title":"  Flu clinic on Friday ","message":"Walk in, 9–5."}"#)
            #expect(s1 == .created && info["title"] as? String == "Flu clinic on Friday" && info["severity"] as? String == "info")
            #expect(info["state"] as? String == "current" && info["endsAt"] is NSNull)
            let (_, critical) = try await client.json(.post, "/v1/alerts", token: admin,
                                                      body: #"{"title":"Outbreak in Reed Hall","severity":"critical","startsAt":"\#(Self.isoAgo(60))"}"#)
            let tomorrow = Timestamp.format(Date().addingTimeInterval(86_400))
            let (_, scheduled) = try await client.json(.post, "/v1/alerts", token: admin, body: #"{"title":"Exams move online","startsAt":"\#(tomorrow)"}"#)
            #expect(scheduled["state"] as? String == "scheduled")

            let (s2, shown) = try await client.json(.get, "/v1/alerts")
            #expect(s2 == .ok)
            #expect((shown["alerts"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [critical["id"] as? String, info["id"] as? String].compactMap { $0 },
                    "critical first; the scheduled one is not public")
            let scheduledID = scheduled["id"] as? String ?? ""
            #expect(try await client.json(.get, "/v1/alerts/\(scheduledID)").0 == .notFound)
            #expect(try await client.json(.get, "/v1/alerts/\(scheduledID)", token: admin).0 == .ok)
            #expect(try await client.json(.get, "/v1/alerts?state=scheduled", token: verifier).0 == .forbidden)
            let (_, all) = try await client.json(.get, "/v1/alerts?state=all", token: admin)
            #expect((all["alerts"] as? [Any])?.count == 3)

            // Expiring ends it now: gone from the public list, kept for admins.
            let infoID = info["id"] as? String ?? ""
            let (s3, expired) = try await client.json(.post, "/v1/alerts/\(infoID)/expire", token: admin)
            #expect(s3 == .ok && expired["state"] as? String == "expired" && expired["endsAt"] is String)
            let (_, after) = try await client.json(.get, "/v1/alerts")
            #expect((after["alerts"] as? [[String: Any]])?.count == 1)
            #expect(((try await client.json(.get, "/v1/alerts?state=expired", token: admin).1)["alerts"] as? [Any])?.count == 1)

            // A replacement takes the whole alert; a delete removes it.
            let (s4, replaced) = try await client.json(.put, "/v1/alerts/\(scheduledID)", token: admin,
                                                       body: #"{"title":"Exams stay on campus","severity":"warning"}"#)
            #expect(s4 == .ok && replaced["title"] as? String == "Exams stay on campus" && replaced["state"] as? String == "current")
            #expect(try await client.json(.delete, "/v1/alerts/\(scheduledID)", token: admin).0 == .noContent)
            #expect(try await client.json(.delete, "/v1/alerts/\(scheduledID)", token: admin).0 == .notFound)
            #expect(try await client.json(.post, "/v1/alerts/\(scheduledID)/expire", token: admin).0 == .notFound)
        }
    }

    @Test("bad alerts are refused with every problem named by field, and nothing is stored")
    func alertValidation() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let long = String(repeating: "x", count: 121)
            let (s1, b1) = try await client.json(.post, "/v1/alerts", token: admin,
                                                 body: #"{"title":"\#(long)","severity":"panic","startsAt":"tomorrow","endsAt":"2026-01-01T00:00:00Z"}"#)
            #expect(s1 == .unprocessableContent)
            let fields = ((b1["error"] as? [String: Any])?["problems"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
            #expect(fields == ["title", "severity", "startsAt"])
            let (s2, b2) = try await client.json(.post, "/v1/alerts", token: admin, body: #"{"title":"   "}"#)
            #expect(s2 == .unprocessableContent && errorField(b2) == "title")
            let (s3, b3) = try await client.json(.post, "/v1/alerts", token: admin,
                                                 body: #"{"title":"x","startsAt":"2026-05-02T00:00:00Z","endsAt":"2026-05-01T00:00:00Z"}"#)
            #expect(s3 == .unprocessableContent && errorField(b3) == "endsAt")
            let (s4, b4) = try await client.json(.post, "/v1/alerts", token: admin, body: #"{"title":"x","body":"y"}"#)
            #expect(s4 == .badRequest && errorField(b4) == "body")
            // Controls and text-direction overrides would make a title read otherwise than typed.
            for (body, field) in [(#"{"title":"Clinic \u202Eclosed"}"#, "title"), (#"{"title":"Clinic\u0007"}"#, "title"),
                                  (#"{"title":"two\nlines"}"#, "title"), (#"{"title":"ok","message":"isolated \u2067text"}"#, "message"),
                                  (#"{"title":"ok","message":"bell \u0085"}"#, "message")] {
                let (status, answer) = try await client.json(.post, "/v1/alerts", token: admin, body: body)
                #expect(status == .unprocessableContent && errorField(answer) == field, "\(body)")
            }
            let (s5, b5) = try await client.json(.post, "/v1/resources", token: admin,
                                                 body: #"{"title":"Help\u202D","category":"health","link":"https://campus.example/help"}"#)
            #expect(s5 == .unprocessableContent && errorField(b5) == "title")
            #expect(((try await client.json(.get, "/v1/alerts?state=all", token: admin).1)["alerts"] as? [Any])?.isEmpty == true)
            #expect(((try await client.json(.get, "/v1/resources", token: admin).1)["resources"] as? [Any])?.isEmpty == true)
            // A message keeps its line breaks and tabs.
            let (s6, _) = try await client.json(.post, "/v1/alerts", token: admin, body: #"{"title":"Flu clinic","message":"Library\n\t9 to 5"}"#)
            #expect(s6 == .created)
        }
    }

    @Test("resources take only http(s) links with a host, and every change is in the audit trail")
    func resources() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            for bad in ["javascript:alert(1)", "data:text/html,hi", "ftp://example.edu/x", "https://", "https://trusted.edu@evil.example/",
                        "https://exa mple.edu/", "/relative", "https://bücher.example/", "https://example.edu/<script>", "https://example.edu/%zz"] {
                let (status, body) = try await client.json(.post, "/v1/resources", token: admin,
                                                           body: #"{"title":"T","category":"Health","link":"\#(bad)"}"#)
                #expect(status == .unprocessableContent && errorField(body) == "link", "\(bad)")
            }
            let (s1, made) = try await client.json(.post, "/v1/resources", token: admin,
                                                   body: #"{"title":"Student health","category":"Health","link":"HTTPS://health.example.edu/covid"}"#)
            #expect(s1 == .created)
            let id = made["id"] as? String ?? ""
            let (_, listed) = try await client.json(.get, "/v1/resources")
            #expect((listed["resources"] as? [[String: Any]])?.first?["link"] as? String == "HTTPS://health.example.edu/covid")
            let (s2, replaced) = try await client.json(.put, "/v1/resources/\(id)", token: admin,
                                                       body: #"{"title":"Student health centre","category":"Health","link":"https://health.example.edu/"}"#)
            #expect(s2 == .ok && replaced["title"] as? String == "Student health centre")
            #expect(try await client.json(.get, "/v1/resources/\(id)").1["category"] as? String == "Health")
            #expect(try await client.json(.delete, "/v1/resources/\(id)", token: admin).0 == .noContent)
            #expect(try await client.json(.get, "/v1/resources/\(id)").0 == .notFound)
        }
        let store = try await openKeyedStore(service.configuration.database)
        #expect(try await store.events(action: "resource-create").count == 1)
        #expect(try await store.events(action: "resource-update").count == 1)
        #expect(try await store.events(action: "resource-delete").count == 1)
        #expect(try await store.verifyAuditChain() == nil)
    }

    @Test("public lists carry an ETag and answer 304 until an admin changes them; the text comes back as written")
    func conditionalAndVerbatim() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            _ = try await client.json(.post, "/v1/alerts", token: admin, body: #"{"title":"<script>alert(1)</script>","message":"<b>hi</b>"}"#)
            let etag = try await client.execute(uri: "/v1/alerts", method: .get) { r in
                #expect(r.headers[.cacheControl] == "public, no-cache")
                let body = try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any]
                #expect((body?["alerts"] as? [[String: Any]])?.first?["title"] as? String == "<script>alert(1)</script>")
                return r.headers[.eTag] ?? ""
            }
            #expect(!etag.isEmpty)
            #expect(try await client.execute(uri: "/v1/alerts", method: .get, headers: [.ifNoneMatch: etag]) { $0.status } == .notModified)
            _ = try await client.json(.post, "/v1/alerts", token: admin, body: #"{"title":"Second"}"#)
            #expect(try await client.execute(uri: "/v1/alerts", method: .get, headers: [.ifNoneMatch: etag]) { $0.status } == .ok)
        }
    }
}
