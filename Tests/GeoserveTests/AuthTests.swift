import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ReportVerification
import Storage
import Testing
@testable import GeoserveApp

/// A service on a fresh store with one admin, and helpers that read like the API.
struct TestService {
    // var so that a test can adjust the configuration before starting the service.

    let folder: URL
    var configuration: AppConfiguration
    static let adminEmail = "admin@campus.example"
    static let password = "correct horse battery"

    init(demo: Bool = true) async throws {
        folder = try temporaryFolder()
        var c = AppConfiguration()
        c.database = try testDatabase(in: folder)
        c.attachmentsPath = folder.appendingPathComponent("var/attachments").path
        c.keysPath = testKeysPath(for: c.database)
        c.demoDataPath = demo ? repositoryRoot.appendingPathComponent("data").path : nil
        c.logLevel = .error
        // Tests submit many anonymous reports from one address; the limit has tests of its own.
        c.anonymousPerMinute = 0
        // Many services log in at once in this one test process; production has one service a
        // process and the bound has a test of its own.
        c.credentials = Credentials(workers: BcryptWorkers(threads: 2, queued: 10_000))
        configuration = c
        let store = try openStore(c.database)
        try await store.migrate()
        _ = try await store.createAccount(email: Self.adminEmail, role: .admin, passwordHash: await c.credentials.hash(password: Self.password))
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Runs the service in-process (`.router`) or on a loopback port (`.live`, where the client
    /// has an address), counting into `metrics`.
    func run(_ setup: TestingSetup = .router, metrics: ServiceMetrics = ServiceMetrics(),
             _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = try await buildApplication(configuration, metrics: metrics)
        try await app.test(setup, body)
    }
}

extension TestClientProtocol {
    /// Sends JSON and returns status and parsed body.
    @discardableResult
    func json(_ method: HTTPRequest.Method, _ uri: String, token: String? = nil, body: String? = nil) async throws -> (HTTPResponse.Status, [String: Any]) {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { r in
            let data = Data(r.body.readableBytesView)
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            return (r.status, object)
        }
    }

    /// Makes a publication as an admin (`token`), dated `day` when given; returns its id.
    @discardableResult
    func publish(_ token: String, day: String? = nil) async throws -> Int {
        let (status, body) = try await json(.post, "/v1/publications", token: token, body: day.map { #"{"day":"\#($0)"}"# })
        #expect(status == .created, "\(body)")
        return body["id"] as? Int ?? 0
    }

    /// Logs in and returns the token.
    func login(_ email: String, _ password: String = TestService.password) async throws -> String {
        let (status, body) = try await json(.post, "/v1/auth/login", body: #"{"email":"\#(email)","password":"\#(password)"}"#)
        #expect(status == .ok)
        return body["token"] as? String ?? ""
    }
}

func errorCode(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["code"] as? String }
func errorField(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["field"] as? String }
func errorMessage(_ body: [String: Any]) -> String? { (body["error"] as? [String: Any])?["message"] as? String }

@Suite("accounts and tokens")
struct AuthTests {
    @Test("guessing from 20 addresses cannot keep the owner out at an address they signed in from; one address is held to its budgets")
    func loginThrottle() async throws {
        var service = try await TestService(demo: false)
        defer { service.remove() }
        service.configuration.loginFailuresPerAccount = 3
        service.configuration.loginFailuresPerAddress = 6
        try await service.run(.live) { client in
            // The proxy on loopback (trusted by default) names each client in X-Forwarded-For.
            func login(_ email: String, _ password: String, from address: String) async throws -> (HTTPResponse.Status, [String: Any], String?) {
                try await client.execute(uri: "/v1/auth/login", method: .post, headers: [.contentType: "application/json", .xForwardedFor: address],
                                         body: ByteBuffer(string: #"{"email":"\#(email)","password":"\#(password)"}"#)) { r in
                    (r.status, (try? JSONSerialization.jsonObject(with: Data(r.body.readableBytesView))) as? [String: Any] ?? [:], r.headers[.retryAfter])
                }
            }
            let home = "10.0.0.1"
            #expect(try await login(TestService.adminEmail, TestService.password, from: home).0 == .ok)
            // 1,000 wrong passwords from 20 addresses: three are checked, the rest refused unhashed.
            var answers: [HTTPResponse.Status: Int] = [:]
            for n in 0..<1_000 { answers[try await login(TestService.adminEmail, "guess \(n)", from: "10.1.0.\(n % 20 + 1)").0, default: 0] += 1 }
            #expect(answers == [.unauthorized: 3, .tooManyRequests: 997], "\(answers)")
            // The owner, at home, is let in, and again after a wrong try of their own.
            #expect(try await login(TestService.adminEmail, TestService.password, from: home).0 == .ok)
            #expect(try await login(TestService.adminEmail, "a slip", from: home).0 == .unauthorized)
            #expect(try await login(TestService.adminEmail, TestService.password, from: home).0 == .ok)
            // An address the account does not know waits for the window, right password or not, in any case of the email;
            // the owner signing in at home gave the guessers no fresh budget.
            let (status, body, retry) = try await login(TestService.adminEmail.uppercased(), TestService.password, from: "10.2.0.1")
            #expect(status == .tooManyRequests && errorCode(body) == "rate_limited")
            #expect((Int(retry ?? "") ?? 0) > 800, "until the 15-minute window ends")

            // One address guessing one account: its pair budget of 3, then 429, even at a known address.
            let admin = try await login(TestService.adminEmail, TestService.password, from: home).1["token"] as? String
            _ = try await client.json(.post, "/v1/accounts", token: admin, body: #"{"email":"reader@campus.example","role":"verifier","password":"\#(TestService.password)"}"#)
            let desk = "10.3.0.1"
            #expect(try await login("reader@campus.example", TestService.password, from: desk).0 == .ok)
            for _ in 0..<3 { #expect(try await login("reader@campus.example", "wrong", from: desk).0 == .unauthorized) }
            #expect(try await login("reader@campus.example", TestService.password, from: desk).0 == .tooManyRequests)
            // One address trying many accounts: its budget of 6 over all of them.
            for n in 0..<6 { #expect(try await login("nobody\(n)@campus.example", "x", from: "10.4.0.1").0 == .unauthorized) }
            #expect(try await login("nobody9@campus.example", "x", from: "10.4.0.1").0 == .tooManyRequests)
            #expect(try await login("nobody9@campus.example", "x", from: "10.4.0.2").0 == .unauthorized, "another address has its own budget")
        }
    }

    @Test("bcrypt runs on a bounded set of threads; logins beyond its queue are refused at once, not queued for seconds")
    func bcryptBound() async throws {
        let workers = BcryptWorkers(threads: 1, queued: 1)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask { (try? await workers.tryRun { usleep(300_000); return true }) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 2 && results.filter { !$0 }.count == 2)
        #expect(try await workers.tryRun { 7 } == 7, "the bound frees as work ends")
    }

    @Test("login gives a token that identifies the account; logout revokes it")
    func loginLogout() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let token = try await client.login(TestService.adminEmail)
            #expect(token.count >= 40)
            let (s1, me) = try await client.json(.get, "/v1/me", token: token)
            #expect(s1 == .ok && me["role"] as? String == "admin" && me["email"] as? String == TestService.adminEmail)
            #expect(me["passwordHash"] == nil)
            #expect(try await client.json(.post, "/v1/auth/logout", token: token).0 == .noContent)
            let (s2, body) = try await client.json(.get, "/v1/me", token: token)
            #expect(s2 == .unauthorized && errorCode(body) == "unauthorized")
        }
    }

    @Test("a wrong password and an unknown email fail alike")
    func wrongCredentials() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let (s1, b1) = try await client.json(.post, "/v1/auth/login", body: #"{"email":"\#(TestService.adminEmail)","password":"not the password"}"#)
            let (s2, b2) = try await client.json(.post, "/v1/auth/login", body: #"{"email":"nobody@campus.example","password":"not the password"}"#)
            #expect(s1 == .unauthorized && s2 == .unauthorized)
            #expect((b1["error"] as? [String: Any])?["message"] as? String == (b2["error"] as? [String: Any])?["message"] as? String)
            let (s3, b3) = try await client.json(.post, "/v1/auth/login", body: #"{"email":"x"}"#)
            #expect(s3 == .badRequest && errorCode(b3) == "bad_request")
        }
    }

    @Test("a malformed or unknown bearer token is refused, not treated as anonymous")
    func badTokens() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            #expect(try await client.json(.get, "/v1/me", token: "made-up").0 == .unauthorized)
            let (status, _) = try await client.execute(uri: "/v1/layers", method: .get, headers: [.authorization: "Basic abc"]) { ($0.status, 0) }
            #expect(status == .unauthorized)
            #expect(try await client.json(.get, "/v1/layers").0 == .ok)
        }
    }

    @Test("admins create accounts; duplicates, bad emails and short passwords are refused with the field")
    func createAccounts() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let create = #"{"email":"v@campus.example","role":"verifier","password":"a long enough secret"}"#
            let (s1, b1) = try await client.json(.post, "/v1/accounts", token: admin, body: create)
            #expect(s1 == .created && b1["role"] as? String == "verifier")
            #expect(try await client.json(.post, "/v1/accounts", token: admin, body: create.replacingOccurrences(of: "v@", with: "V@")).0 == .conflict)
            let (s3, b3) = try await client.json(.post, "/v1/accounts", token: admin, body: #"{"email":"nope","role":"viewer","password":"a long enough secret"}"#)
            #expect(s3 == .unprocessableContent && errorField(b3) == "email")
            let (s4, b4) = try await client.json(.post, "/v1/accounts", token: admin, body: #"{"email":"w@campus.example","role":"viewer","password":"short"}"#)
            #expect(s4 == .unprocessableContent && errorField(b4) == "password")
            #expect(try await client.json(.post, "/v1/accounts", token: admin, body: #"{"email":"w@campus.example","role":"king","password":"a long enough secret"}"#).0 == .badRequest)
            // A member the request does not take is refused, not ignored.
            let (s5, b5) = try await client.json(.post, "/v1/accounts", token: admin,
                                                 body: #"{"email":"x@campus.example","role":"viewer","password":"a long enough secret","admin":true}"#)
            #expect(s5 == .badRequest && errorField(b5) == "admin")
            let (_, list) = try await client.json(.get, "/v1/accounts", token: admin)
            #expect((list["accounts"] as? [[String: Any]])?.count == 2)
        }
    }

    @Test("a passphrase longer than bcrypt's 72 bytes works in full: a change after byte 72 no longer logs in")
    func longPassphrase() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let phrase = String(repeating: "correct horse battery staple ", count: 4)
            let (created, _) = try await client.json(.post, "/v1/accounts", token: admin,
                                                     body: #"{"email":"long@campus.example","role":"viewer","password":"\#(phrase)"}"#)
            #expect(created == .created)
            #expect(try await client.login("long@campus.example", phrase).count > 20)
            let changedLate = String(phrase.dropLast()) + "!"
            let (refused, _) = try await client.json(.post, "/v1/auth/login", body: #"{"email":"long@campus.example","password":"\#(changedLate)"}"#)
            #expect(refused == .unauthorized)
        }
    }

    @Test("only admins manage accounts: 401 anonymous, 403 for other roles")
    func accountAdminIsAdminOnly() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            try await client.json(.post, "/v1/accounts", token: admin, body: #"{"email":"v@campus.example","role":"verifier","password":"a long enough secret"}"#)
            let verifier = try await client.login("v@campus.example", "a long enough secret")
            #expect(try await client.json(.get, "/v1/accounts").0 == .unauthorized)
            let (status, body) = try await client.json(.get, "/v1/accounts", token: verifier)
            #expect(status == .forbidden && errorCode(body) == "forbidden")
        }
    }

    @Test("disabling an account revokes its tokens and stops logins; admins cannot disable themselves")
    func disable() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (_, created) = try await client.json(.post, "/v1/accounts", token: admin, body: #"{"email":"r@campus.example","role":"reporter","password":"a long enough secret"}"#)
            let id = created["id"] as? String ?? ""
            let reporter = try await client.login("r@campus.example", "a long enough secret")
            let (s1, b1) = try await client.json(.patch, "/v1/accounts/\(id)", token: admin, body: #"{"disabled":true}"#)
            #expect(s1 == .ok && b1["disabled"] as? Bool == true)
            #expect(try await client.json(.get, "/v1/me", token: reporter).0 == .unauthorized)
            #expect(try await client.json(.post, "/v1/auth/login", body: #"{"email":"r@campus.example","password":"a long enough secret"}"#).0 == .unauthorized)
            let (_, me) = try await client.json(.get, "/v1/me", token: admin)
            #expect(try await client.json(.patch, "/v1/accounts/\(me["id"] as? String ?? "")", token: admin, body: #"{"disabled":true}"#).0 == .conflict)
            #expect(try await client.json(.patch, "/v1/accounts/nope", token: admin, body: #"{"role":"viewer"}"#).0 == .notFound)
        }
    }

    @Test("an admin can revoke every token of an account")
    func revokeAll() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (_, created) = try await client.json(.post, "/v1/accounts", token: admin, body: #"{"email":"x@campus.example","role":"viewer","password":"a long enough secret"}"#)
            let t1 = try await client.login("x@campus.example", "a long enough secret")
            let t2 = try await client.login("x@campus.example", "a long enough secret")
            #expect(try await client.json(.post, "/v1/accounts/\(created["id"] as? String ?? "")/revoke-tokens", token: admin).0 == .noContent)
            #expect(try await client.json(.get, "/v1/me", token: t1).0 == .unauthorized)
            #expect(try await client.json(.get, "/v1/me", token: t2).0 == .unauthorized)
        }
    }
}
