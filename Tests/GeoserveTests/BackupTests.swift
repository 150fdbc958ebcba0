import ArgumentParser
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Synchronization
import Testing
@testable import GeoserveApp
@testable import geoserve

@Suite("backup and restore")
struct BackupTests {
    @Test("a backup taken while reports keep arriving holds every report acknowledged before it began; restored, its audit trail and counters check out; neither overwrites")
    func underIntake() async throws {
        let service = try await TestService()
        defer { service.remove() }
        let db = service.configuration.database
        let out = service.folder.appendingPathComponent("backups/campus.backup").path
        if db.hasPrefix("postgres") {
            // PostgreSQL has its own tools; the command says so instead of copying nothing.
            let refusal = await #expect(throws: StoreBackup.NotEmbedded.self) { try await BackupCommand.parse(["--database", db, "--out", out]).run() }
            #expect(refusal?.description.contains("pg_dump") == true)
            #expect(!FileManager.default.fileExists(atPath: out))
            return
        }
        let acknowledged = Mutex<[String]>([])
        let beforeBackup = Mutex<[String]>([])
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            for hall in ["H01", "H02"] {
                let (_, created, _) = try await client.submit(Drafts.covid(hall: hall))
                let id = created["id"] as? String ?? ""
                _ = try await client.json(.post, "/v1/reports/\(id)/transitions", token: admin, body: #"{"transition":"verify"}"#)
                acknowledged.withLock { $0.append(id) }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Intake runs here; the backup starts beside it once 20 reports are acknowledged,
                // and what was acknowledged by then must be in it.
                for _ in 0..<150 {
                    let (status, created, _) = try await client.submit(Drafts.misconduct())
                    if status == .created, let id = created["id"] as? String { acknowledged.withLock { $0.append(id) } }
                    if acknowledged.withLock({ $0.count }) == 20 {
                        beforeBackup.withLock { $0 = acknowledged.withLock { $0 } }
                        group.addTask { try await BackupCommand.parse(["--database", db, "--out", out]).run() }
                    }
                }
                try await group.waitForAll()
            }
        }
        let before = beforeBackup.withLock { $0 }
        #expect(before.count >= 20)
        #expect(acknowledged.withLock { $0.count } == 152)

        // A backup never overwrites: the same name again is refused and the file is unchanged.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        await #expect(throws: ValidationError.self) { try await BackupCommand.parse(["--database", db, "--out", out]).run() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: out).deletingLastPathComponent().path) == ["campus.backup"])

        // Restored beside a copy of the key file, the store is whole and checks out.
        let restored = service.folder.appendingPathComponent("restored/store.sqlite").path
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: restored).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: testKeysPath(for: db), toPath: testKeysPath(for: restored))
        try await RestoreCommand.parse([out, "--database", restored]).run()
        let store = try await openKeyedStore(restored)
        for id in before { #expect(try await store.report(id: id) != nil, "\(id) was acknowledged before the backup") }
        #expect(try await store.verifyAuditChain() == nil)
        #expect(try await store.checkCounters().isEmpty)
        #expect(try await store.layers().map(\.name).sorted() == ["halls", "testing-sites", "zones"])

        // Nor does a restore: an existing store is refused and left as it was.
        let size = try FileManager.default.attributesOfItem(atPath: restored)[.size] as? Int
        await #expect(throws: ValidationError.self) { try await RestoreCommand.parse([out, "--database", restored]).run() }
        #expect(try FileManager.default.attributesOfItem(atPath: restored)[.size] as? Int == size)
        // A file that is not a backup is refused before anything is written.
        let junk = service.folder.appendingPathComponent("junk.backup")
        try Data("not a database".utf8).write(to: junk)
        let elsewhere = service.folder.appendingPathComponent("elsewhere/store.sqlite").path
        await #expect(throws: (any Error).self) { try await RestoreCommand.parse([junk.path, "--database", elsewhere]).run() }
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
    }
}
