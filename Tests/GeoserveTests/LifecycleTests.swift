import Foundation
import FoundationNetworking
import ReportVerification
import Storage
import Synchronization
import Testing
@testable import GeoserveApp

@Suite("logs and stopping, as a process", .serialized)
struct LifecycleTests {
    /// A store with one admin, ready for a `LiveServer`.
    static func storeWithAdmin(in folder: URL) async throws -> String {
        let db = try testDatabase(in: folder, named: "var/g.sqlite")
        let store = try openStore(db)
        try await store.migrate()
        _ = try await store.createAccount(email: "admin@campus.example", role: .admin,
                                          passwordHash: await Credentials().hash(password: "correct horse battery"))
        return db
    }

    @Test("the JSON log at trace level carries request lines with ids, and none of a report's content, a password, a token or an exact location")
    func redaction() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try await Self.storeWithAdmin(in: folder)
        let log = folder.appendingPathComponent("server.log")
        let server = try await LiveServer(database: db, demoData: repositoryRoot.appendingPathComponent("data").path,
                                          arguments: ["--log-format", "json"], log: log, logLevel: "trace")
        let markers = ["+1 336 555 8642", "NOTEMARKER", "OFFICERMARKER", "BADGE8642", "DESCMARKER", "INCIDENTMARKER",
                       "WITNESSCONTACT", "WITNESSSTATEMENT", "-87.600317", "41.789423", "PASSWORDMARKER", "IDEMPOTENCYMARKER"]
        let covid = #"{"kind":"covid","affiliation":"student","phone":"+1 336 555 8642","testDate":"2026-11-01","lastOnCampus":"2026-10-31","area":{"layer":"halls","id":"H07"},"notes":"NOTEMARKER fever"}"#
        let misconduct = #"{"kind":"misconduct","occurredAt":"2026-11-02T21:30:00Z","location":{"lon":-87.600317,"lat":41.789423,"accuracyM":10},"officerName":"OFFICERMARKER","badgeNumber":"BADGE8642","officerDescription":"DESCMARKER","incidentDescription":"INCIDENTMARKER","witnesses":[{"contact":"WITNESSCONTACT","statement":"WITNESSSTATEMENT"}],"victim":{"race":"Black","gender":"female"},"anonymous":true}"#
        let key = "IDEMPOTENCYMARKER" + String(repeating: "k", count: 32)
        let (s1, first) = try await LiveServer.post(port: server.port, path: "/v1/reports", body: covid, key: key)
        let (s2, second) = try await LiveServer.post(port: server.port, path: "/v1/reports", body: misconduct)
        #expect(s1 == 201 && s2 == 201)
        let receipt = second["receipt"] as? String ?? "no receipt"
        // A refused report: the message names the field, never its value.
        _ = try await LiveServer.post(port: server.port, path: "/v1/reports", body: covid.replacingOccurrences(of: "2026-11-01", with: "NOTEMARKER"))
        _ = try await LiveServer.post(port: server.port, path: "/v1/auth/login", body: #"{"email":"admin@campus.example","password":"PASSWORDMARKER"}"#)
        let (_, login) = try await LiveServer.post(port: server.port, path: "/v1/auth/login", body: #"{"email":"admin@campus.example","password":"correct horse battery"}"#)
        let token = login["token"] as? String ?? "no token"
        let id = first["id"] as? String ?? ""
        let (read, _) = try await server.request("GET", "/v1/reports/\(id)", headers: ["Authorization": "Bearer \(token)"])
        #expect(read == 200)
        _ = try await server.request("POST", "/v1/reports/\(id)/transitions", body: Data(#"{"transition":"reject","reason":"NOTEMARKER reason"}"#.utf8),
                                     headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"])
        _ = try await server.get("/v1/misconduct/near?lon=-87.600317&lat=41.789423&radius_m=500")
        _ = try await server.request("GET", "/healthz", headers: ["X-Request-Id": "trace-me-42"])
        // A body declared too large is refused before the app sees it; its notice names neither the
        // path (ids, and a query's place) nor the client's address.
        let raw = try RawConnection(port: server.port)
        #expect(raw.send("POST /v1/reports/PATHMARKER/attachments?near=-87.600317 HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n"))
        #expect(raw.readResponse(timeout: .seconds(10))?.head.hasPrefix("HTTP/1.1 413") == true)
        #expect(try await server.stop() == 0)

        let text = try String(contentsOf: log, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == lines.count, "every line is one JSON object")
        let requests = objects.filter { $0["message"] as? String == "request" }
        #expect(requests.count >= 10)
        #expect(requests.allSatisfy { ($0["request_id"] as? String)?.isEmpty == false && $0["route"] != nil && $0["status"] != nil && $0["duration_ms"] != nil })
        #expect(requests.contains { $0["request_id"] as? String == "trace-me-42" })
        #expect(requests.contains { $0["route"] as? String == "/v1/reports/{id}" && $0["account"] as? String != nil })
        #expect(objects.contains { $0["level"] as? String == "trace" || $0["level"] as? String == "debug" }, "the log ran at trace level")
        #expect(objects.contains { $0["message"] as? String == "refusing request: declared body too large" })
        #expect(!objects.contains { $0["peer"] != nil }, "no line carries the client's address")
        // The first line says which build runs with what.
        let start = try #require(objects.first { $0["message"] as? String == "starting" })
        #expect(start["version"] as? String == GeoserveVersion.current && start["GEOSERVE_PORT"] as? String == "\(server.port)"
                && start["GEOSERVE_LOG_LEVEL"] as? String == "trace", "\(start)")
        for secret in markers + [token, receipt, "admin@campus.example", id, "PATHMARKER"] {
            #expect(!text.contains(secret), "the log holds \(secret)")
        }
    }

    @Test("at the end of the drain an idle keep-alive connection lingers: a request a proxy sent on it just then is answered, with Connection: close")
    func idleConnectionLingers() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await LiveServer(database: try testDatabase(in: folder, named: "g.sqlite"), demoData: nil,
                                          arguments: ["--drain-delay", "1", "--publish-at", "never"])
        let idle = try RawConnection(port: server.port)
        idle.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(idle.readResponse(timeout: .seconds(5))?.head.hasPrefix("HTTP/1.1 200") == true)
        kill(server.process.processIdentifier, SIGTERM)
        // The listener closes 1 s after the signal (refusing new connections); at that moment,
        // within the connection's linger, a request arrives on it, as one a proxy sent then would.
        let deadline = ContinuousClock.now + .seconds(15)
        var refused = false
        // Polled on this thread (usleep), not by suspending: under the whole suite's load a task
        // resumed after its sleep can wait past the 1 s linger for a free thread of the pool.
        while ContinuousClock.now < deadline {
            if RawConnection.refuses(port: server.port) { refused = true; break }
            usleep(5_000)
        }
        #expect(refused, "the listener closed")
        #expect(idle.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
        let late = idle.readResponse(timeout: .seconds(5))
        #expect(late?.head.hasPrefix("HTTP/1.1 200") == true, "answered, not reset")
        #expect(late?.head.lowercased().contains("connection: close") == true, "\(late?.head ?? "no answer")")
        #expect(idle.readAll(timeout: .seconds(3)).closed, "then closed")
        #expect(try await server.stop() == 0)
    }

    @Test("SIGTERM under load: /readyz drains first, every acknowledged report is stored, and the process exits 0 within the grace")
    func stopUnderLoad() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try await Self.storeWithAdmin(in: folder)
        let server = try await LiveServer(database: db, demoData: repositoryRoot.appendingPathComponent("data").path,
                                          // A drain delay well above the 300 ms the test waits: under the whole
                                          // suite's load that wait can overrun a second.
                                          arguments: ["--shutdown-grace", "10", "--drain-delay", "3"])
        let log = SubmissionLog()
        let port = server.port
        let writers = Task { await log.submit(port: port, prefix: "lifecycle", each: 2_000, untilRefused: true) }
        while log.acknowledged.withLock({ $0.count }) < 200 { try await Task.sleep(for: .milliseconds(10)) }
        let start = ContinuousClock.now
        kill(server.process.processIdentifier, SIGTERM)
        // Within the drain delay the process still answers, and says it is stopping.
        try await Task.sleep(for: .milliseconds(300))
        let (ready, body) = try await server.get("/readyz")
        #expect(ready == 503)
        #expect(String(decoding: body, as: UTF8.self).contains("draining"))
        // The load balancer has seen the drain and sends no more; what is in flight must finish.
        // (Clients that keep sending through the drain met a closed port, and under the whole
        // suite's load one request's body reached the server 7 s late, past the grace.)
        log.stopSending.withLock { $0 = true }
        let status = try await server.stop(signal: SIGTERM, timeout: .seconds(15))
        let took = ContinuousClock.now - start
        await writers.value
        #expect(status == 0)
        #expect(took < .seconds(10), "stopped in \(took)")
        let acked = log.acknowledged.withLock { $0 }
        let store = try await openKeyedStore(db)
        var missing = 0
        for (_, id) in acked where try await store.report(id: id) == nil { missing += 1 }
        #expect(missing == 0, "\(missing) of \(acked.count) acknowledged reports lost")
        #expect(try await store.verifyAuditChain() == nil)
    }

    @Test("an idle process stops well inside a short grace, its background services with it: exit 0, not a grace run out")
    func idleStopsInsideTheGrace() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try await Self.storeWithAdmin(in: folder)
        // A service that waits 10 s between its rounds without minding the stop (the webhook
        // backlog gauge once did) runs the 3 s grace out, and the process exits 1.
        let server = try await LiveServer(database: db, demoData: repositoryRoot.appendingPathComponent("data").path,
                                          arguments: ["--shutdown-grace", "3", "--drain-delay", "0"])
        #expect(try await server.get("/readyz").0 == 200)
        #expect(try await server.stop(signal: SIGTERM, timeout: .seconds(20)) == 0)
    }

    @Test("a request still running at the end of the grace is cut off: the process exits 1, within the grace and a few seconds")
    func graceRunsOut() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try await Self.storeWithAdmin(in: folder)
        let server = try await LiveServer(database: db, demoData: nil, arguments: ["--shutdown-grace", "2", "--body-timeout", "60"])
        // A body that never completes keeps its request in flight.
        let stalled = try RawConnection(port: server.port)
        stalled.send("POST /v1/reports HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"kind\":")
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        let status = try await server.stop(signal: SIGTERM, timeout: .seconds(20))
        let took = ContinuousClock.now - start
        #expect(status == 1)
        #expect(took >= .seconds(2) && took < .seconds(10), "stopped in \(took)")
        _ = stalled
    }
}
