import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import GeoserveApp

/// Page sessions: the cookie the admin console signs in with, and the CSRF token every change
/// made through it needs.
@Suite("page sessions")
struct SessionTests {
    struct Session {
        let cookie: String
        let setCookie: String
        let csrf: String
    }

    static func signIn(_ client: some TestClientProtocol, _ email: String, _ password: String = TestService.password) async throws -> Session {
        try await client.execute(uri: "/v1/auth/session", method: .post, headers: [.contentType: "application/json"],
                                 body: ByteBuffer(string: #"{"email":"\#(email)","password":"\#(password)"}"#)) { r in
            #expect(r.status == .created)
            let set = r.headers[.setCookie] ?? ""
            let body = try JSONSerialization.jsonObject(with: Data(r.body.readableBytesView)) as? [String: Any]
            let value = set.split(separator: ";").first.map(String.init) ?? ""
            return Session(cookie: value, setCookie: set, csrf: body?["csrfToken"] as? String ?? "")
        }
    }

    @Test("signing in sets an HttpOnly, SameSite=Strict cookie (Secure behind https) and answers the account with its CSRF token")
    func cookieFlags() async throws {
        var service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let s = try await Self.signIn(client, TestService.adminEmail)
            let attributes = Set(s.setCookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
            #expect(s.cookie.hasPrefix("geoserve_session=") && s.cookie.count > 40)
            #expect(attributes.contains("httponly") && attributes.contains("samesite=strict") && attributes.contains("path=/"))
            #expect(!attributes.contains("secure"), "plain http: a Secure cookie would never come back")
            #expect(s.csrf.count >= 40)
            // The same session read back gives the same CSRF token.
            let (status, again) = try await client.json(.get, "/v1/auth/session", headers: [.cookie: s.cookie])
            #expect(status == .ok && again["csrfToken"] as? String == s.csrf && (again["account"] as? [String: Any])?["role"] as? String == "admin")
            // A wrong password sets no cookie.
            let refused = try await client.execute(uri: "/v1/auth/session", method: .post, headers: [.contentType: "application/json"],
                                                   body: ByteBuffer(string: #"{"email":"\#(TestService.adminEmail)","password":"wrong wrong wrong"}"#)) { $0 }
            #expect(refused.status == .unauthorized && refused.headers[.setCookie] == nil)
            // Another site's form cannot sign someone in: forms cannot send JSON.
            let form = try await client.execute(uri: "/v1/auth/session", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                                                body: ByteBuffer(string: "email=a&password=b")) { $0.status }
            #expect(form == .unsupportedMediaType)
        }
        service.configuration.publicURL = "https://campus.example"
        try await service.run { client in
            let s = try await Self.signIn(client, TestService.adminEmail)
            #expect(s.setCookie.lowercased().contains("; secure"))
        }
    }

    @Test("a change with the cookie needs its CSRF token: without it or with another session's, 403 and nothing changes")
    func csrf() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.seedReports(["r"])
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            _ = try await client.json(.post, "/v1/accounts", token: admin, body: #"{"email":"v@campus.example","role":"verifier","password":"a long enough secret"}"#)
            let s = try await Self.signIn(client, "v@campus.example", "a long enough secret")
            let other = try await Self.signIn(client, TestService.adminEmail)
            let verify = ByteBuffer(string: #"{"transition":"verify"}"#)
            for token in [nil, other.csrf, "x"] {
                var headers: HTTPFields = [.cookie: s.cookie, .contentType: "application/json"]
                if let token { headers[.csrfToken] = token }
                let (status, body) = try await client.execute(uri: "/v1/reports/r/transitions", method: .post, headers: headers, body: verify) { r in
                    (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body.readableBytesView))) as? [String: Any] ?? [:])
                }
                #expect(status == .forbidden && errorCode(body) == "csrf", "token \(token ?? "none")")
            }
            #expect(try await client.json(.get, "/v1/reports/r", token: admin).1["status"] as? String == "pending")
            // Reads need no token; with it, the change goes through.
            #expect(try await client.json(.get, "/v1/verification/queue", headers: [.cookie: s.cookie]).0 == .ok)
            let done = try await client.execute(uri: "/v1/reports/r/transitions", method: .post,
                                                headers: [.cookie: s.cookie, .contentType: "application/json", .csrfToken: s.csrf], body: verify) { $0.status }
            #expect(done == .ok)
            #expect(try await client.json(.get, "/v1/reports/r", token: admin).1["status"] as? String == "verified")
        }
    }

    @Test("the cookie is ignored outside /v1, and a signed-out cookie leaves public reads anonymous")
    func scopeAndSignOut() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let s = try await Self.signIn(client, TestService.adminEmail)
            // An admin with a token gets the live view (private); with the cookie, the public one.
            let live = try await client.execute(uri: "/collections/halls/items?f=json", method: .get,
                                                headers: [.authorization: "Bearer \(try await client.login(TestService.adminEmail))"]) { $0.headers[.cacheControl] }
            let withCookie = try await client.execute(uri: "/collections/halls/items?f=json", method: .get, headers: [.cookie: s.cookie]) { $0.headers[.cacheControl] }
            #expect(live == Conditional.privateCaching && withCookie == Conditional.publicCaching)

            // Signing out needs the token too, then revokes the session and clears the cookie.
            #expect(try await client.execute(uri: "/v1/auth/session", method: .delete, headers: [.cookie: s.cookie]) { $0.status } == .forbidden)
            let out = try await client.execute(uri: "/v1/auth/session", method: .delete, headers: [.cookie: s.cookie, .csrfToken: s.csrf]) { $0 }
            #expect(out.status == .noContent && (out.headers[.setCookie] ?? "").lowercased().contains("max-age=0"))
            #expect(try await client.json(.get, "/v1/auth/session", headers: [.cookie: s.cookie]).0 == .unauthorized)
            #expect(try await client.json(.get, "/v1/layers", headers: [.cookie: s.cookie]).0 == .ok, "a stale cookie is no reason to refuse a public read")
            #expect(try await client.json(.get, "/v1/accounts", headers: [.cookie: s.cookie]).0 == .unauthorized)
            let token = String(s.cookie.dropFirst("geoserve_session=".count))
            #expect(try await client.json(.get, "/v1/me", token: token).0 == .unauthorized, "the session's token is revoked")
        }
    }
}

extension TestClientProtocol {
    /// Sends a request with extra headers and returns status and parsed JSON body.
    func json(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await execute(uri: uri, method: method, headers: headers) { r in
            (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body.readableBytesView))) as? [String: Any] ?? [:])
        }
    }
}
