import Foundation
import Hummingbird
import Logging
import HummingbirdTesting
import Testing
@testable import GeoserveApp

@Suite("HTTP")
struct HTTPTests {
    func configuration(folder: URL, demo: Bool = true) throws -> AppConfiguration {
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
        return c
    }

    struct Layers: Decodable {
        struct Layer: Decodable { let name: String; let kind: String; let publishedVersion: Int?; let featureCount: Int }
        let layers: [Layer]
    }

    struct ErrorBody: Decodable {
        struct Detail: Decodable { let code: String; let message: String }
        let error: Detail
    }

    @Test("healthz answers, readyz is ready with the demo layers, and /v1/layers lists them")
    func demoService() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await buildApplication(try configuration(folder: folder))
        try await app.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { r in
                #expect(r.status == .ok)
                #expect(String(buffer: r.body) == #"{"status":"ok"}"#)
            }
            try await client.execute(uri: "/readyz", method: .get) { r in
                #expect(r.status == .ok)
                #expect(String(buffer: r.body).contains(#""layers":3"#))
            }
            try await client.execute(uri: "/v1/layers", method: .get) { r in
                #expect(r.status == .ok)
                let body = try JSONDecoder().decode(Layers.self, from: Data(r.body.readableBytesView))
                #expect(body.layers.map(\.name) == ["halls", "testing-sites", "zones"])
                #expect(body.layers.map(\.kind) == ["areas", "points", "areas"])
                #expect(body.layers.allSatisfy { $0.publishedVersion == 1 })
                #expect(body.layers.first { $0.name == "halls" }?.featureCount == 42)
            }
        }
    }

    @Test("the demo data is imported only into an empty store")
    func demoImportedOnce() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let c = try configuration(folder: folder)
        _ = try await buildApplication(c)
        let app = try await buildApplication(c)
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/layers", method: .get) { r in
                let body = try JSONDecoder().decode(Layers.self, from: Data(r.body.readableBytesView))
                #expect(body.layers.allSatisfy { $0.publishedVersion == 1 })
            }
        }
    }

    @Test("without layers readyz answers 503 with the JSON error shape")
    func notReady() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await buildApplication(try configuration(folder: folder, demo: false))
        try await app.test(.router) { client in
            try await client.execute(uri: "/readyz", method: .get) { r in
                #expect(r.status == .serviceUnavailable)
                #expect(r.headers[.contentType] == "application/json; charset=utf-8")
                let body = try JSONDecoder().decode(ErrorBody.self, from: Data(r.body.readableBytesView))
                #expect(body.error.code == "unavailable")
                #expect(body.error.message == "no layer is loaded")
            }
        }
    }

    @Test("unknown routes answer 404 with the JSON error shape")
    func notFound() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await buildApplication(try configuration(folder: folder, demo: false))
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/nothing-here", method: .get) { r in
                #expect(r.status == .notFound)
                let body = try JSONDecoder().decode(ErrorBody.self, from: Data(r.body.readableBytesView))
                #expect(body.error.code == "not_found")
            }
        }
    }

    @Test("a known path with another method answers 405 with Allow; OPTIONS lists the methods; HEAD answers wherever GET does")
    func methods() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await buildApplication(try configuration(folder: folder))
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/layers", method: .delete) { r in
                #expect(r.status == .methodNotAllowed)
                #expect(r.headers[.allow] == "GET, HEAD, OPTIONS")
                let body = try JSONDecoder().decode(ErrorBody.self, from: Data(r.body.readableBytesView))
                #expect(body.error.code == "method_not_allowed")
            }
            // Path parameters match too, and a path with several methods lists them all.
            try await client.execute(uri: "/v1/reports/abc/claim", method: .put) { r in
                #expect(r.status == .methodNotAllowed)
                #expect(r.headers[.allow] == "DELETE, OPTIONS, POST")
            }
            try await client.execute(uri: "/v1/accounts", method: .options) { r in
                #expect(r.status == .noContent)
                #expect(r.headers[.allow] == "GET, HEAD, OPTIONS, POST")
            }
            try await client.execute(uri: "/collections/halls/items", method: .head) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "application/geo+json")
                #expect(r.body.readableBytes == 0)
            }
            // An unknown path stays 404.
            try await client.execute(uri: "/v1/nothing", method: .delete) { r in #expect(r.status == .notFound) }
        }
    }

    @Test("no answer of the API is kept by a cache unless its route allows it: a report's status, the queue, a submission, a refusal are no-store; the public misconduct search keeps its own rule")
    func privateAnswersAreNotStored() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            let (created, report, submitted) = try await client.submit(Drafts.misconduct())
            #expect(created == .created && submitted[.cacheControl] == "no-store")
            let id = report["id"] as? String ?? "", receipt = report["receipt"] as? String ?? ""
            func cacheControl(_ uri: String, token: String? = nil, headers extra: HTTPFields = [:]) async throws -> (HTTPResponse.Status, String?) {
                var headers = extra
                if let token { headers[.authorization] = "Bearer \(token)" }
                return try await client.execute(uri: uri, method: .get, headers: headers) { ($0.status, $0.headers[.cacheControl]) }
            }
            for (uri, token, extra) in [("/v1/reports/\(id)", admin, HTTPFields()), ("/v1/verification/queue", admin, HTTPFields()),
                                        ("/v1/accounts", admin, HTTPFields()), ("/v1/accounts", nil, HTTPFields()),
                                        ("/v1/reports/\(id)", nil, [.receiptToken: receipt]), ("/v1/reports/no-such-report", admin, HTTPFields())] {
                let (status, caching) = try await cacheControl(uri, token: token, headers: extra)
                #expect(caching == "no-store", "\(uri) (\(status)): \(caching ?? "none")")
            }
            let (_, search) = try await cacheControl("/v1/misconduct?layer=halls&area=H01")
            #expect(search == "public, max-age=60")
        }
    }
}
