import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import GeoserveApp

/// Bodies of valid reports against the demo campus.
enum Drafts {
    static func covid(hall: String = "H07", testDate: String = "2026-11-01") -> String {
        #"{"kind":"covid","affiliation":"student","phone":"+1 336 555 0142","testDate":"\#(testDate)","lastOnCampus":"2026-10-31","area":{"layer":"halls","id":"\#(hall)"},"notes":"fever since Friday"}"#
    }
    /// A location inside hall H01 of the demo campus.
    static func misconduct(anonymous: Bool = true) -> String {
        #"{"kind":"misconduct","occurredAt":"2026-11-02T21:30:00Z","location":{"lon":-87.6003,"lat":41.7894,"accuracyM":10},"officerName":"J. Doe","badgeNumber":"4711","officerDescription":"tall, grey uniform","incidentDescription":"stopped and searched without reason","witnesses":[{"contact":"555-0100","statement":"saw it"}],"victim":{"race":"Black","gender":"female"},"anonymous":\#(anonymous)}"#
    }
}

extension TestClientProtocol {
    func submit(_ body: String, token: String? = nil, key: String? = nil) async throws -> (HTTPResponse.Status, [String: Any], HTTPFields) {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let key { headers[.idempotencyKey] = key }
        return try await execute(uri: "/v1/reports", method: .post, headers: headers, body: ByteBuffer(string: body)) { r in
            (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body.readableBytesView))) as? [String: Any] ?? [:], r.headers)
        }
    }
}

@Suite("report intake")
struct ReportIntakeTests {
    @Test("a covid report naming a hall is stored pending and placed in the hall and its zone")
    func covidByHall() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let reporter = try await client.account("reporter", admin: admin).token
            let (status, body, headers) = try await client.submit(Drafts.covid(), token: reporter)
            #expect(status == .created)
            #expect(body["status"] as? String == "pending" && body["receipt"] == nil)
            let areas = (body["areas"] as? [[String: Any]] ?? []).map { "\($0["layer"] ?? ""):\($0["areaID"] ?? "")" }
            #expect(areas.contains("halls:H07") && areas.contains { $0.hasPrefix("zones:Z") })
            #expect(headers[.location] == "/v1/reports/\(body["id"] as? String ?? "")")
            let (s2, mine) = try await client.json(.get, "/v1/reports/\(body["id"] as? String ?? "")", token: reporter)
            #expect(s2 == .ok && mine["status"] as? String == "pending" && mine["report"] == nil)
        }
    }

    @Test("an anonymous misconduct report gets a receipt that alone shows its status and lets it be withdrawn")
    func receipt() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let (status, body, _) = try await client.submit(Drafts.misconduct())
            #expect(status == .created)
            let id = body["id"] as? String ?? ""
            let receipt = body["receipt"] as? String ?? ""
            #expect(receipt.count >= 40)
            let areas = (body["areas"] as? [[String: Any]] ?? []).map { "\($0["layer"] ?? ""):\($0["areaID"] ?? "")" }
            #expect(areas.contains("halls:H01"))
            #expect(try await client.json(.get, "/v1/reports/\(id)").0 == .notFound)
            let read = try await client.execute(uri: "/v1/reports/\(id)", method: .get, headers: [.receiptToken: receipt]) { r in
                (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body.readableBytesView))) as? [String: Any] ?? [:])
            }
            #expect(read.0 == .ok && read.1["status"] as? String == "pending" && read.1["report"] == nil)
            let wrong = try await client.execute(uri: "/v1/reports/\(id)", method: .get, headers: [.receiptToken: String(receipt.reversed())]) { $0.status }
            #expect(wrong == .notFound)
            let w = try await client.execute(uri: "/v1/reports/\(id)/withdraw", method: .post, headers: [.receiptToken: receipt]) { $0.status }
            #expect(w == .ok)
            let again = try await client.execute(uri: "/v1/reports/\(id)/withdraw", method: .post, headers: [.receiptToken: receipt]) { $0.status }
            #expect(again == .conflict)
        }
    }

    @Test("a retry with the same Idempotency-Key returns the first report, receipt included, and stores nothing new")
    func idempotentRetry() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let key = UUID().uuidString
            let first = try await client.submit(Drafts.misconduct(), key: key)
            let retry = try await client.submit(Drafts.misconduct(), key: key)
            #expect(first.0 == .created && retry.0 == .created)
            #expect(retry.1["id"] as? String == first.1["id"] as? String)
            #expect(retry.1["receipt"] as? String == first.1["receipt"] as? String)
            #expect(retry.2[.idempotencyReplayed] == "true" && first.2[.idempotencyReplayed] == nil)
            let admin = try await client.login(TestService.adminEmail)
            let (_, queue) = try await client.json(.get, "/v1/verification/queue", token: admin)
            #expect((queue["reports"] as? [[String: Any]])?.count == 1)
            for bad in ["short", "thirty-two-characters-with space", "thirty-two-characters-non-ascii-é", String(repeating: "k", count: 201),
                        String(UUID().uuidString.prefix(31)), String(repeating: "ab", count: 20)] {
                let (status, body, _) = try await client.submit(Drafts.misconduct(), key: bad)
                #expect(status == .unprocessableContent && errorField(body) == "Idempotency-Key", "\(bad)")
            }
            let (_, after) = try await client.json(.get, "/v1/verification/queue", token: admin)
            #expect((after["reports"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test("a key sent again with a different report is refused with 422; the first report and its receipt stay the owner's; keys are stored keyed")
    func keyReusedForAnotherRequest() async throws {
        let service = try await TestService()
        defer { service.remove() }
        let key = UUID().uuidString
        try await service.run { client in
            let (s1, first, _) = try await client.submit(Drafts.misconduct(), key: key)
            #expect(s1 == .created)
            let other = Drafts.misconduct().replacingOccurrences(of: "tall, grey uniform", with: "short, blue uniform")
            let (s2, squat, headers) = try await client.submit(other, key: key)
            #expect(s2 == .unprocessableContent && errorCode(squat) == "idempotency_key_reused" && errorField(squat) == "Idempotency-Key")
            #expect(squat["id"] == nil && squat["receipt"] == nil && headers[.idempotencyReplayed] == nil)
            let (s3, retry, _) = try await client.submit(Drafts.misconduct(), key: key)
            #expect(s3 == .created && retry["id"] as? String == first["id"] as? String)
            let admin = try await client.login(TestService.adminEmail)
            let (_, queue) = try await client.json(.get, "/v1/verification/queue", token: admin)
            #expect((queue["reports"] as? [[String: Any]])?.count == 1)
        }
        let stored = try rawColumn("SELECT idempotency_key FROM reports WHERE idempotency_key IS NOT NULL", on: service.configuration.database)
        let keys = try #require(try InstallationKeys.read(service.configuration.keysFile))
        #expect(stored == [IdempotencyKeys(secretHex: keys.receipts).digest(key)], "the key is stored as its keyed digest, never as sent")
    }

    @Test("a report sent as another media type is refused with 415 and nothing is stored; JSON without a type is read")
    func mediaType() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            for type in ["text/plain", "image/png", "application/x-www-form-urlencoded"] {
                let (status, body) = try await client.execute(uri: "/v1/reports", method: .post, headers: [.contentType: type],
                                                              body: ByteBuffer(string: Drafts.misconduct())) { r in
                    (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body.readableBytesView))) as? [String: Any] ?? [:])
                }
                #expect(status == .unsupportedMediaType && errorCode(body) == "unsupported_type", "\(type)")
            }
            let typed = try await client.execute(uri: "/v1/reports", method: .post, headers: [.contentType: "application/json; charset=utf-8"],
                                                 body: ByteBuffer(string: Drafts.misconduct())) { $0.status }
            let untyped = try await client.execute(uri: "/v1/reports", method: .post, body: ByteBuffer(string: Drafts.misconduct())) { $0.status }
            #expect(typed == .created && untyped == .created)
            let admin = try await client.login(TestService.adminEmail)
            let (_, queue) = try await client.json(.get, "/v1/verification/queue", token: admin)
            #expect((queue["reports"] as? [[String: Any]])?.count == 2)
        }
    }

    @Test("a body naming a member twice is refused with 400 naming it, and nothing is stored: reports, edits and every other JSON body alike")
    func duplicateMembers() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            // A report whose kind is covid to one reader and misconduct to another; a login whose password is two.
            let draft = Drafts.misconduct()
            let twice = "{\"kind\":\"covid\"," + draft.dropFirst()
            let (status, body) = try await client.json(.post, "/v1/reports", body: twice)
            #expect(status == .badRequest && errorField(body) == "kind" && (errorMessage(body) ?? "").contains("appears twice"), "\(body)")
            let (login, refused) = try await client.json(.post, "/v1/auth/login",
                                                         body: #"{"email":"\#(TestService.adminEmail)","password":"x","password":"\#(TestService.password)"}"#)
            #expect(login == .badRequest && errorField(refused) == "password", "\(refused)")
            let admin = try await client.login(TestService.adminEmail)
            let (_, queue) = try await client.json(.get, "/v1/verification/queue", token: admin)
            #expect((queue["reports"] as? [[String: Any]])?.isEmpty == true, "nothing stored")
        }
    }

    @Test("implausible input is refused with a clear 4xx and nothing is stored: ancient dates, a place outside every area, JSON nested past the limit")
    func implausibleInput() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let reporter = try await client.account("reporter", admin: admin).token
            let (s1, b1, _) = try await client.submit(Drafts.covid(testDate: "0001-01-01"), token: reporter)
            #expect(s1 == .unprocessableContent && errorField(b1) == "testDate")
            let ancient = Drafts.misconduct().replacingOccurrences(of: "2026-11-02T21:30:00Z", with: "1926-11-02T21:30:00Z")
            let (s2, b2, _) = try await client.submit(ancient)
            #expect(s2 == .unprocessableContent && errorField(b2) == "occurredAt")
            let nowhere = Drafts.misconduct().replacingOccurrences(of: #""lon":-87.6003,"lat":41.7894"#, with: #""lon":0,"lat":0"#)
            let (s3, b3, _) = try await client.submit(nowhere)
            #expect(s3 == .unprocessableContent && errorCode(b3) == "outside_areas" && errorField(b3) == "location")
            let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
            let nested = #"{"kind":"covid","notes":\#(deep)}"#
            let (s4, b4, _) = try await client.submit(nested)
            let message = (b4["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(s4 == .badRequest && message.contains("deeper than 64 levels"), "\(message)")
            let (_, queue) = try await client.json(.get, "/v1/verification/queue", token: admin)
            #expect((queue["reports"] as? [[String: Any]])?.isEmpty == true)
        }
    }

    @Test("a second covid report within 14 days is refused with the date it becomes possible; nothing is stored")
    func fourteenDays() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let reporter = try await client.account("reporter", admin: admin).token
            #expect(try await client.submit(Drafts.covid(), token: reporter).0 == .created)
            let (status, body, _) = try await client.submit(Drafts.covid(hall: "H08"), token: reporter)
            #expect(status == .conflict && errorCode(body) == "too_soon")
            let opens = ((body["error"] as? [String: Any])?["nextAllowed"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
            #expect(opens.map { abs($0.timeIntervalSinceNow - 14 * 86_400) < 120 } == true)
            let (_, queue) = try await client.json(.get, "/v1/verification/queue", token: admin)
            #expect((queue["reports"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test("invalid reports answer 422 naming every problem, and nothing is stored")
    func invalid() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let bad = #"{"kind":"covid","affiliation":"alumnus","phone":"x","testDate":"2999-01-01","area":{"layer":"halls","id":"H07"}}"#
            let (status, body, _) = try await client.submit(bad)
            #expect(status == .unprocessableContent && errorCode(body) == "invalid")
            let fields = ((body["error"] as? [String: Any])?["problems"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
            #expect(Set(fields) == ["affiliation", "phone", "testDate", "lastOnCampus"])
            #expect(try await client.submit(Drafts.covid(hall: "H99")).0 == .unprocessableContent)
            let (s1, b1, _) = try await client.submit(#"{"kind":"covid""#)
            #expect(s1 == .badRequest && errorCode(b1) == "bad_request" && errorMessage(b1) == "the body is not valid JSON")
            let (s2, b2, _) = try await client.submit(#"{"kind":"covid","location":{"lon":"-87.6","lat":41.79}}"#)
            #expect(s2 == .badRequest && errorMessage(b2) == #"member "location.lon" has the wrong type"#)
            let (s3, b3, _) = try await client.submit("[]")
            #expect(s3 == .badRequest && errorMessage(b3) == "the body is not the expected JSON object")
            #expect(try await client.submit(Drafts.covid().replacingOccurrences(of: "\"halls\"", with: "\"nowhere\"")).0 == .unprocessableContent)
            let admin = try await client.login(TestService.adminEmail)
            let (_, queue) = try await client.json(.get, "/v1/verification/queue", token: admin)
            #expect((queue["reports"] as? [[String: Any]])?.isEmpty == true)
            let researcher = try await client.account("researcher", admin: admin).token
            #expect(try await client.submit(Drafts.covid(), token: researcher).0 == .forbidden)
        }
    }

    @Test("a reporter never sees another's report; verifiers see everything")
    func visibility() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let alice = try await client.account("reporter", admin: admin).token
            let bob = try await client.account("reporter", admin: admin).token
            let (_, body, _) = try await client.submit(Drafts.misconduct(anonymous: false), token: alice)
            let id = body["id"] as? String ?? ""
            #expect(try await client.json(.get, "/v1/reports/\(id)", token: bob).0 == .notFound)
            #expect(try await client.json(.get, "/v1/reports/\(id)", token: alice).0 == .ok)
            let (s, full) = try await client.json(.get, "/v1/reports/\(id)", token: admin)
            #expect(s == .ok && (full["report"] as? [String: Any]) != nil && full["location"] != nil)
        }
    }

    @Test("a granted viewer reads the fields the visibility table gives viewers: no contact details of the reporter or of witnesses")
    func grantedViewer() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (viewerID, viewer) = try await client.account("viewer", admin: admin)
            func fields(_ draft: String) async throws -> (staff: [String: Any], viewer: [String: Any]) {
                let (_, body, _) = try await client.submit(draft)
                let id = body["id"] as? String ?? ""
                #expect(try await client.json(.post, "/v1/reports/\(id)/grants", token: admin, body: #"{"viewerId":"\#(viewerID)"}"#).0 == .noContent)
                let (s1, staff) = try await client.json(.get, "/v1/reports/\(id)", token: admin)
                let (s2, granted) = try await client.json(.get, "/v1/reports/\(id)", token: viewer)
                #expect(s1 == .ok && s2 == .ok)
                let kind = staff["kind"] as? String ?? ""
                return (((staff["report"] as? [String: Any])?[kind] as? [String: Any]) ?? [:],
                        ((granted["report"] as? [String: Any])?[kind] as? [String: Any]) ?? [:])
            }
            let covid = try await fields(Drafts.covid())
            #expect(covid.staff["phone"] != nil && covid.viewer["phone"] == nil)
            #expect(covid.viewer["testDate"] as? String == "2026-11-01" && covid.viewer["notes"] != nil)
            let misconduct = try await fields(Drafts.misconduct())
            #expect(misconduct.staff["witnesses"] != nil && misconduct.viewer["witnesses"] == nil)
            #expect(misconduct.viewer["officerDescription"] as? String == "tall, grey uniform")
        }
    }
}
