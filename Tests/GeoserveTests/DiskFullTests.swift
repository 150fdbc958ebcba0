import Foundation
import FoundationNetworking
import Storage
import Testing
@testable import GeoserveApp

/// A database on a disk that fills up, as a real one does: a 24 MiB tmpfs.
@Suite("full disk", .serialized)
struct DiskFullTests {
    @Test("writes on a full disk answer 507 with Retry-After, readyz turns not-ready and the log says why; freeing space recovers without a restart, and nothing acknowledged is lost")
    func fullDisk() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = try SmallDisk(at: folder.appendingPathComponent("disk"), size: "24m")
        defer { small.unmount() }
        let disk = small.folder
        let db = disk.appendingPathComponent("g.sqlite").path
        let log = folder.appendingPathComponent("log")
        let server = try await LiveServer(database: db, demoData: repositoryRoot.appendingPathComponent("data").path,
                                          arguments: ["--min-free-disk-mb", "0"], log: log, logLevel: "notice")
        var acknowledged = 0
        #expect(try await LiveServer.post(port: server.port, path: "/v1/reports", body: Drafts.misconduct()).0 == 201)
        acknowledged += 1

        let filler = disk.appendingPathComponent("filler")
        fill(filler)

        var refused: (Int, [String: Any])?
        for _ in 0..<200 {
            let answer = try await LiveServer.post(port: server.port, path: "/v1/reports", body: Drafts.misconduct())
            #expect(answer.0 == 201 || answer.0 == 507, "answered \(answer.0)")
            if answer.0 == 201 { acknowledged += 1 } else { refused = answer; break }
        }
        let (status, body) = try #require(refused, "the disk never filled up")
        #expect(status == 507 && errorCode(body) == "insufficient_storage")
        // Once more by hand, for the headers.
        let raw = try RawConnection(port: server.port)
        let draft = Drafts.misconduct()
        raw.send("POST /v1/reports HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(draft.utf8.count)\r\n\r\n\(draft)")
        let head = raw.readResponse(timeout: .seconds(5))?.head.lowercased() ?? ""
        #expect(head.hasPrefix("http/1.1 507") && head.contains("retry-after: 60"), "\(head)")
        #expect(try await server.get("/readyz").0 == 503)
        #expect(try await server.get("/collections/halls/items?limit=2").0 == 200, "reads go on")
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("disk is full") && !text.contains("unhandled error"))

        try FileManager.default.removeItem(at: filler)
        #expect(try await server.get("/readyz").0 == 200)
        #expect(try await LiveServer.post(port: server.port, path: "/v1/reports", body: Drafts.misconduct()).0 == 201)
        acknowledged += 1
        _ = try await server.stop()

        // Started again on a disk already full, the process is not ready until a write goes
        // through: a load balancer must not send it writers that would all get 507.
        fill(filler)
        let again = try await LiveServer(database: db, demoData: nil, arguments: ["--min-free-disk-mb", "0"], log: log, logLevel: "notice")
        let (notReady, reason) = try await again.get("/readyz")
        #expect(notReady == 503 && String(decoding: reason, as: UTF8.self).contains("disk is full"), "\(String(decoding: reason, as: UTF8.self))")
        try FileManager.default.removeItem(at: filler)
        #expect(try await again.get("/readyz").0 == 200)
        _ = try await again.stop()

        let store = try await openKeyedStore(db)
        #expect(try await store.verifyAuditChain() == nil)
        #expect(try await store.checkCounters().isEmpty)
        let queued = try await store.queue(.init(), limit: 1_000, cursor: nil).reports.count
        #expect(queued == acknowledged)
    }

    @Test("readiness asks for the room of a report, not of a row: with 64 KiB free after a full disk, /readyz stays 503 until there is room, and the probe leaves nothing behind")
    func readinessWantsARoomForAReport() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = try SmallDisk(at: folder.appendingPathComponent("disk"), size: "24m")
        defer { small.unmount() }
        let disk = small.folder
        let db = disk.appendingPathComponent("g.sqlite").path
        let server = try await LiveServer(database: db, demoData: repositoryRoot.appendingPathComponent("data").path,
                                          arguments: ["--min-free-disk-mb", "0"], log: folder.appendingPathComponent("log"), logLevel: "notice")
        #expect(try await LiveServer.post(port: server.port, path: "/v1/reports", body: Drafts.misconduct()).0 == 201)
        let filler = disk.appendingPathComponent("filler")
        fill(filler)
        var refused = false
        for _ in 0..<200 where !refused {
            refused = try await LiveServer.post(port: server.port, path: "/v1/reports", body: Drafts.misconduct()).0 == 507
        }
        try #require(refused, "the disk never filled up")
        // Room for a row of the probe's old kind (a page), not for the largest report (256 KiB).
        let size = try FileManager.default.attributesOfItem(atPath: filler.path)[.size] as! UInt64
        let handle = try FileHandle(forWritingTo: filler)
        try handle.truncate(atOffset: size - 64 << 10)
        try handle.close()
        let (status, reason) = try await server.get("/readyz")
        #expect(status == 503 && String(decoding: reason, as: UTF8.self).contains("disk is full"), "\(String(decoding: reason, as: UTF8.self))")
        try FileManager.default.removeItem(at: filler)
        #expect(try await server.get("/readyz").0 == 200)
        #expect(try await LiveServer.post(port: server.port, path: "/v1/reports", body: Drafts.misconduct()).0 == 201)
        _ = try await server.stop()
        let store = try await openKeyedStore(db)
        #expect(try await store.existingSecret(named: "write_probe") == nil, "the probe's row is gone")
        #expect(try await store.checkCounters().isEmpty)
    }

    /// Fills the disk to the last byte with `file`.
    private func fill(_ file: URL) {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        guard let handle = try? FileHandle(forWritingTo: file) else { return }
        let chunk = Data(count: 64 << 10)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        let small = Data(count: 512)
        while (try? handle.write(contentsOf: small)) != nil {}
        try? handle.close()
    }
}
