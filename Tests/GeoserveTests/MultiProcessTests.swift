import ArgumentParser
import Foundation
import ReportVerification
import FoundationNetworking
import Storage
import Synchronization
import Testing
@testable import StoragePostgres
@testable import GeoserveApp
@testable import geoserve

/// Several `geoserve` processes on one PostgreSQL, as behind a load balancer: what SQLite gets
/// from its single writer must hold across processes.
@Suite("several processes on PostgreSQL", .serialized, .timeLimit(.minutes(3)))
struct MultiProcessTests {
    static let demo = repositoryRoot.appendingPathComponent("data").path

    /// A day a few days back, so the reports count in every window.
    static var recentDay: String {
        Date(timeIntervalSinceNow: -2 * 86_400).formatted(.iso8601.year().month().day())
    }

    @Test("two processes started together import the demo once; reports submitted and verified across both leave counters and audit clean, both serve identical numbers, and a layer imported by a third is served by both within a second")
    func twoProcesses() async throws {
        let db = try postgresTestDatabase()
        try await LiveServer.prepareAdmin(database: db)
        async let first = LiveServer(database: db, demoData: Self.demo)
        async let second = LiveServer(database: db, demoData: Self.demo)
        let servers = try await [first, second]
        defer { for s in servers { s.process.terminate() } }
        let layers = try await openStore(db).layers()
        #expect(layers.map(\.name).sorted() == ["halls", "testing-sites", "zones"])
        #expect(layers.allSatisfy { $0.versions.count == 1 && $0.publishedVersion == 1 })
        // Both caught up the missed scheduled time at start; the slot check let one publish.
        #expect(try await openStore(db).publications().count == 1)

        // A token issued by one process is honoured by the other: tokens live in the database.
        let token = try await servers[0].login()
        var ids: [String] = []
        for i in 0..<24 {
            let (status, body) = try await LiveServer.post(port: servers[i % 2].port, path: "/v1/reports",
                                                           body: Drafts.covid(hall: i < 12 ? "H01" : "H02", testDate: Self.recentDay))
            #expect(status == 201)
            ids.append(body["id"] as? String ?? "")
        }
        for (i, id) in ids.enumerated() {
            let (status, _) = try await servers[(i + 1) % 2].request("POST", "/v1/reports/\(id)/transitions", body: Data(#"{"transition":"verify"}"#.utf8),
                                                                     headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"])
            #expect(status == 200)
        }
        // A publication made through one process is served by both.
        let (published, _) = try await servers[0].request("POST", "/v1/publications", body: nil, headers: ["Authorization": "Bearer \(token)"])
        #expect(published == 201)
        let path = "/collections/halls/items?limit=100"
        // The same document from both, but for the links, which name the server asked.
        func body(_ server: LiveServer) async throws -> String {
            String(decoding: try await server.get(path).1, as: UTF8.self).replacingOccurrences(of: "127.0.0.1:\(server.port)", with: "HOST")
        }
        #expect(try await eventually(within: 2) { try await body(servers[0]) == body(servers[1]) })
        let features = try JSONSerialization.jsonObject(with: try await servers[1].get(path).1) as? [String: Any]
        let h01 = (features?["features"] as? [[String: Any]])?.first { $0["id"] as? String == "H01" }
        #expect((h01?["properties"] as? [String: Any])?["verified_28d"] as? Int == 12)
        try await AggregatesCheckCommand.parse(["--database", db, "--keys", testKeysPath(for: db)]).run()
        #expect(try await openKeyedStore(db).verifyAuditChain() == nil)

        // A layer imported by the command line is served by both processes within a second.
        let file = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: file) }
        try write(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"b1","properties":{"name":"Block 1"},"geometry":{"type":"Polygon","coordinates":[[[-87.61,41.78],[-87.59,41.78],[-87.59,41.80],[-87.61,41.80],[-87.61,41.78]]]}}]}"#,
                  to: file.appendingPathComponent("blocks.geojson"))
        try await ImportAreasCommand.parse([file.appendingPathComponent("blocks.geojson").path, "--layer", "blocks", "--database", db, "--keys", testKeysPath(for: db)]).run()
        let imported = ContinuousClock.now
        for server in servers {
            // When the request that found the layer was sent: under the whole suite's load one
            // request can take a tenth of a second, which is the test's time, not the service's.
            var askedAt: ContinuousClock.Instant?
            _ = try await eventually(within: 3) {
                let asked = ContinuousClock.now
                guard try await server.get("/collections/blocks").0 == 200 else { return false }
                askedAt = asked
                return true
            }
            let served = try #require(askedAt, "the layer was never served")
            #expect(served - imported < .seconds(1))
        }
    }

    @Test("while another transaction holds the reports tables exclusively (an installation's first import), /readyz is 503 and names them; at its commit, 200")
    func exclusiveHoldNotReady() async throws {
        let db = try postgresTestDatabase()
        try await LiveServer.prepareAdmin(database: db)
        let server = try await LiveServer(database: db, demoData: Self.demo)
        defer { server.process.terminate() }
        #expect(try await server.get("/readyz").0 == 200)
        // What a first import holds while it builds the empty tables' indexes after their rows.
        let holder = try PostgresConnection(location: db, settings: [])
        try holder.execute("BEGIN; LOCK TABLE reports, report_areas IN ACCESS EXCLUSIVE MODE")
        let (status, body) = try await server.get("/readyz")
        #expect(status == 503)
        #expect(String(decoding: body, as: UTF8.self).contains("holds report_areas, reports exclusively"))
        try holder.execute("COMMIT")
        #expect(try await server.get("/readyz").0 == 200)
    }

    @Test("the same report verified at once through two processes: one 200, one 409, counted once")
    func concurrentVerification() async throws {
        let db = try postgresTestDatabase()
        try await LiveServer.prepareAdmin(database: db)
        let a = try await LiveServer(database: db, demoData: Self.demo)
        let b = try await LiveServer(database: db, demoData: "none")
        defer { a.process.terminate(); b.process.terminate() }
        let token = try await a.login()
        var ids: [String] = []
        for _ in 0..<10 {
            let (_, created) = try await LiveServer.post(port: a.port, path: "/v1/reports", body: Drafts.covid(hall: "H03", testDate: Self.recentDay))
            let id = created["id"] as? String ?? ""
            ids.append(id)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for server in [a, b] {
                    group.addTask {
                        try await server.request("POST", "/v1/reports/\(id)/transitions", body: Data(#"{"transition":"verify"}"#.utf8),
                                                 headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]).0
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }.sorted()
            }
            #expect(statuses == [200, 409])
        }
        try await AggregatesCheckCommand.parse(["--database", db, "--keys", testKeysPath(for: db)]).run()
        let store = try await openKeyedStore(db)
        for id in ids {
            #expect(try await store.history(reportID: id).filter { $0.action == "verify" }.count == 1)
        }
        #expect(try await store.verifyAuditChain() == nil)
    }

    @Test("processes migrating one new database at once apply each migration exactly once")
    func migrationRace() async throws {
        let db = try postgresTestDatabase()
        let processes = try (0..<4).map { _ in
            let p = Process()
            p.executableURL = LiveServer.executable
            p.arguments = ["migrate", "--database", db, "--keys", testKeysPath(for: db)]
            p.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            p.standardError = errors
            try ProcessLaunch.lock.withLock { try p.run() }
            return (p, errors)
        }
        for (p, errors) in processes {
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "\(said)")
        }
        guard case .postgres(let uri) = try StoreLocation(db) else { Issue.record("not a PostgreSQL location"); return }
        let rows = try PostgresConnection(location: uri, settings: []).query("SELECT count(*), count(DISTINCT version), max(version) FROM schema_migrations")
        #expect(rows.int(0, 0) == Int64(PostgresMigrations.latest))
        #expect(rows.int(0, 1) == Int64(PostgresMigrations.latest))
        #expect(rows.int(0, 2) == Int64(PostgresMigrations.latest))
    }

    @Test("PostgreSQL stopped mid-load: 503 with Retry-After and readyz not ready, never a hang; service resumes within 5 s of its return; every acknowledged report is stored exactly once")
    func databaseRestart() async throws {
        let pg = try PrivatePostgres()
        defer { pg.close() }
        let db = pg.uri
        try await LiveServer.prepareAdmin(database: db)
        let server = try await LiveServer(database: db, demoData: Self.demo)
        defer { server.process.terminate() }
        let load = LoadLog()
        let port = server.port
        let writers = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        while !load.done.withLock({ $0 }) {
                            let key = UUID().uuidString
                            load.sent.withLock { _ = $0.insert(key) }
                            let started = ContinuousClock.now
                            let answer = try? await LiveServer.postReport(port: port, key: key)
                            load.record(answer, key: key, took: ContinuousClock.now - started)
                            try? await Task.sleep(for: .milliseconds(5))
                        }
                    }
                }
            }
        }
        while load.acknowledged.withLock({ $0.count }) < 100 { try await Task.sleep(for: .milliseconds(10)) }
        try pg.stop()
        #expect(try await eventually(within: 5) { load.unavailable.withLock { $0 } > 0 })
        #expect(try await server.get("/readyz").0 == 503)
        try await Task.sleep(for: .seconds(1))
        try pg.start()
        let restarted = ContinuousClock.now
        let acknowledgedAtRestart = load.acknowledged.withLock { $0.count }
        #expect(try await eventually(within: 5) { load.acknowledged.withLock { $0.count } > acknowledgedAtRestart })
        #expect(ContinuousClock.now - restarted < .seconds(5))
        #expect(try await eventually(within: 5) { try await server.get("/readyz").0 == 200 })
        load.done.withLock { $0 = true }
        await writers.value

        #expect(load.unavailableWithoutRetryAfter.withLock { $0 } == 0)
        #expect(load.otherFailures.withLock { $0 } == [])
        #expect(load.slowest.withLock { $0 } < .seconds(10))
        // Every client retries what it sent: acknowledged keys replay their report, the rest are
        // stored now, and nothing is stored twice.
        let acknowledged = load.acknowledged.withLock { $0 }
        var ids = Set<String>()
        for key in load.sent.withLock({ $0 }) {
            let answer = try await LiveServer.postReport(port: port, key: key)
            #expect(answer.status == 201)
            if let first = acknowledged[key] { #expect(answer.id == first) }
            ids.insert(answer.id ?? "")
        }
        #expect(ids.count == load.sent.withLock { $0.count })
        let stored = try PostgresConnection(location: db, settings: []).query("SELECT count(*) FROM reports").int(0, 0)
        #expect(stored == Int64(ids.count))
        #expect(try await openKeyedStore(db).verifyAuditChain() == nil)
        try await AggregatesCheckCommand.parse(["--database", db, "--keys", testKeysPath(for: db)]).run()
    }
}

/// What the load sent and how each request was answered.
final class LoadLog: Sendable {
    let sent = Mutex<Set<String>>([])
    /// Idempotency key -> report id, for every 201.
    let acknowledged = Mutex<[String: String]>([:])
    let unavailable = Mutex(0)
    let unavailableWithoutRetryAfter = Mutex(0)
    let otherFailures = Mutex<[String]>([])
    let slowest = Mutex(Duration.zero)
    let done = Mutex(false)

    func record(_ answer: LiveServer.ReportAnswer?, key: String, took: Duration) {
        slowest.withLock { $0 = max($0, took) }
        guard let answer else {
            otherFailures.withLock { $0.append("no answer") }
            return
        }
        switch answer.status {
        case 201: acknowledged.withLock { $0[key] = answer.id }
        case 503:
            unavailable.withLock { $0 += 1 }
            if answer.retryAfter == nil { unavailableWithoutRetryAfter.withLock { $0 += 1 } }
        default: otherFailures.withLock { $0.append("\(answer.status)") }
        }
    }
}

extension LiveServer {
    /// Migrates the store and creates the admin account the tests log in with.
    static func prepareAdmin(database: String) async throws {
        let store = try openStore(database)
        try await store.migrate()
        _ = try await store.createAccount(email: "admin@campus.example", role: .admin,
                                          passwordHash: await Credentials().hash(password: "correct horse battery"))
    }

    /// Logs the admin in; returns the token.
    func login() async throws -> String {
        let (_, body) = try await LiveServer.post(port: port, path: "/v1/auth/login",
                                                  body: #"{"email":"admin@campus.example","password":"correct horse battery"}"#)
        return body["token"] as? String ?? ""
    }

    struct ReportAnswer: Sendable {
        let status: Int
        let id: String?
        let retryAfter: String?
    }

    /// Submits an anonymous misconduct report with an idempotency key.
    static func postReport(port: Int, key: String) async throws -> ReportAnswer {
        let answer = try await LoopbackHTTP.exchange(port: port, method: "POST", path: "/v1/reports", body: Data(Drafts.misconduct().utf8),
                                                     headers: ["Content-Type": "application/json", "Idempotency-Key": key])
        let body = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any]
        return ReportAnswer(status: answer.status, id: body?["id"] as? String, retryAfter: answer.headers["retry-after"])
    }
}
