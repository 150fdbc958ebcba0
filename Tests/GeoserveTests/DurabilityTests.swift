import DomainKernel
import Foundation
import FoundationNetworking
import ReportVerification
import Storage
import Synchronization
import Testing
@testable import GeoserveApp

@Suite("durability", .serialized)
struct DurabilityTests {
    @Test("reports acknowledged with 201 survive a SIGKILL mid-stream; retries after the restart create no duplicates")
    func killMidStream() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try testDatabase(in: folder, named: "var/g.sqlite")
        let demo = repositoryRoot.appendingPathComponent("data").path
        do {
            let store = try openStore(db)
            try await store.migrate()
            _ = try await store.createAccount(email: "admin@campus.example", role: .admin,
                                              passwordHash: await Credentials().hash(password: "correct horse battery"))
        }
        var server = try await LiveServer(database: db, demoData: demo)
        let log = SubmissionLog()
        let port = server.port
        let writers = Task { await log.submit(port: port, prefix: "durability", each: 400) }
        // Let some reports land, then kill the process without warning.
        while log.acknowledged.withLock({ $0.count }) < 150 { try await Task.sleep(for: .milliseconds(10)) }
        _ = try await server.stop(signal: SIGKILL)
        await writers.value
        let acked = log.acknowledged.withLock { $0 }
        #expect(acked.count >= 150)

        server = try await LiveServer(database: db, demoData: demo)
        let (_, login) = try await LiveServer.post(port: server.port, path: "/v1/auth/login", body: #"{"email":"admin@campus.example","password":"correct horse battery"}"#)
        let token = login["token"] as? String ?? ""
        var missing: [String] = []
        for (_, id) in acked {
            let (status, _) = try await server.request("GET", "/v1/reports/\(id)", headers: ["Authorization": "Bearer \(token)"])
            if status != 200 { missing.append(id) }
        }
        #expect(missing.isEmpty, "\(missing.count) acknowledged reports lost")
        // Every client retries what it sent: acknowledged keys replay the same report, the rest
        // are stored now, and nothing is stored twice.
        var ids = Set<String>()
        for key in log.sent.withLock({ $0 }) {
            let (status, body) = try await LiveServer.post(port: server.port, path: "/v1/reports", body: Drafts.misconduct(), key: key)
            #expect(status == 201)
            let id = body["id"] as? String ?? ""
            if let first = acked[key] { #expect(id == first) }
            ids.insert(id)
        }
        #expect(ids.count == log.sent.withLock { $0.count })
        let store = try await openKeyedStore(db)
        let all = try await store.queue(QueueFilter(statuses: [.pending]), limit: 10_000, cursor: nil)
        #expect(all.reports.count == ids.count)
        #expect(try await store.verifyAuditChain() == nil)
        _ = try await server.stop()
    }
}

/// What the writers sent and what the server acknowledged.
final class SubmissionLog: Sendable {
    /// Idempotency key -> report id, for every 201.
    let acknowledged = Mutex<[String: String]>([:])
    let sent = Mutex<Set<String>>([])
    /// Set when the writers are to start no more requests, as a load balancer does once a
    /// process's `/readyz` says it is draining; requests already sent still run to their answer.
    let stopSending = Mutex(false)

    /// Eight writers each submitting up to `each` anonymous misconduct reports with keys of their
    /// own; a writer stops when the server stops answering, (`untilRefused`) answers other than
    /// 201, or `stopSending` is set.
    func submit(port: Int, prefix: String, each: Int, untilRefused: Bool = false) async {
        await withTaskGroup(of: Void.self) { group in
            for w in 0..<8 {
                group.addTask {
                    for i in 0..<each {
                        if self.stopSending.withLock({ $0 }) { return }
                        let key = "\(prefix)-\(w)-\(i)-\(UUID().uuidString)"
                        self.sent.withLock { _ = $0.insert(key) }
                        guard let (status, body) = try? await LiveServer.post(port: port, path: "/v1/reports", body: Drafts.misconduct(), key: key) else { return }
                        if status == 201, let id = body["id"] as? String { self.acknowledged.withLock { $0[key] = id } }
                        if untilRefused, status != 201 { return }
                    }
                }
            }
        }
    }
}

extension LiveServer {
    /// POSTs JSON to a server on a loopback port.
    static func post(port: Int, path: String, body: String, key: String? = nil) async throws -> (Int, [String: Any]) {
        var headers = ["Content-Type": "application/json"]
        if let key { headers["Idempotency-Key"] = key }
        let answer = try await LoopbackHTTP.exchange(port: port, method: "POST", path: path, body: Data(body.utf8), headers: headers)
        return (answer.status, (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:])
    }
}
