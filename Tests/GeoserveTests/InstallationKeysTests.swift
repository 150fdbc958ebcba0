import ArgumentParser
import Foundation
import Storage
import Testing
@testable import GeoserveApp
@testable import geoserve

/// The installation's keys live in a file beside the database, not in it.
@Suite("installation keys")
struct InstallationKeysTests {
    @Test("first start creates a private key file; the database keeps only its fingerprint; several processes starting together share one file")
    func created() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try testDatabase(in: folder, named: "g.sqlite")
        let path = folder.appendingPathComponent("geoserve.keys").path
        let stores = try (0..<4).map { _ in try openStore(db) }
        try await stores[0].migrate()
        let loaded = try await withThrowingTaskGroup(of: String.self) { group in
            for s in stores { group.addTask { try await InstallationKeys.load(path: path, store: s).receipts } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(loaded.count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let keys = try #require(try InstallationKeys.read(path))
        #expect(try await stores[0].existingSecret(named: "receipts") == nil)
        #expect(try await stores[0].existingSecret(named: InstallationKeys.fingerprintName) == keys.fingerprint)
        let dump = try rawColumn("SELECT value FROM secrets", on: db).joined()
        #expect(!dump.contains(keys.receipts) && !dump.contains(keys.audit))
    }

    @Test("a store from before the key file keeps its receipt key, so receipts already handed out stay valid, and the database loses it")
    func legacyReceipts() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try testDatabase(in: folder, named: "g.sqlite")
        let store = try openStore(db)
        try await store.migrate()
        let old = try await store.secret(named: "receipts", ifAbsent: String(repeating: "5e", count: 32))
        let keys = try await InstallationKeys.load(path: folder.appendingPathComponent("k").path, store: store)
        #expect(keys.receipts == old)
        #expect(try await store.existingSecret(named: "receipts") == nil)
    }

    @Test("another installation's key file, or none where one existed, is refused with a clear message")
    func wrongOrMissing() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = try testDatabase(in: folder, named: "g.sqlite")
        let store = try openStore(db)
        try await store.migrate()
        let path = folder.appendingPathComponent("geoserve.keys").path
        _ = try await InstallationKeys.load(path: path, store: store)
        let elsewhere = folder.appendingPathComponent("other.keys").path
        let otherDB = try testDatabase(in: folder, named: "other.sqlite")
        let other = try openStore(otherDB)
        try await other.migrate()
        _ = try await InstallationKeys.load(path: elsewhere, store: other)
        await #expect(throws: InstallationKeys.Problem.self) { try await InstallationKeys.load(path: elsewhere, store: store) }
        try FileManager.default.removeItem(atPath: path)
        do {
            _ = try await InstallationKeys.load(path: path, store: store)
            Issue.record("a missing key file was replaced by a new one")
        } catch let problem as InstallationKeys.Problem {
            #expect(problem.description.contains("is missing"))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a service given another key file than its database's stops before it imports, seeds or publishes anything")
    func keysBeforeWrites() async throws {
        var service = try await TestService(demo: false)
        defer { service.remove() }
        // The database was keyed (TestService's own file); the service is pointed elsewhere, with the demo campus and reports on.
        _ = try await openKeyedStore(service.configuration.database)
        service.configuration.keysPath = service.folder.appendingPathComponent("elsewhere/geoserve.keys").path
        service.configuration.demoDataPath = repositoryRoot.appendingPathComponent("data").path
        service.configuration.demoReports = true
        let refused = await #expect(throws: InstallationKeys.Problem.self) { try await buildApplication(service.configuration) }
        #expect(refused?.description.contains("is missing") == true, "\(refused?.description ?? "")")
        let store = try await openKeyedStore(service.configuration.database)
        #expect(try await store.layers().isEmpty, "no layer imported")
        #expect(try await store.publications().isEmpty, "nothing published")
        #expect(!FileManager.default.fileExists(atPath: service.configuration.keysPath!), "no second key file")
    }

    @Test("on PostgreSQL the key file is named by the configuration: a command without --keys or GEOSERVE_KEYS refuses before it opens the database")
    func postgresNamesItsKeys() async throws {
        // The old default, under the working folder: it must not appear (nor change, if some run left one).
        let oldDefault = "var/geoserve.keys"
        let before = try? FileManager.default.attributesOfItem(atPath: oldDefault)[.modificationDate] as? Date
        // An address nothing listens on: the refusal must come before any connection.
        let refused = await #expect(throws: ValidationError.self) {
            try await MigrateCommand.parse(["--database", "postgres://nobody@127.0.0.1:1/none"]).run()
        }
        #expect(refused?.message.contains("GEOSERVE_KEYS") == true, "\(refused?.message ?? "")")
        #expect((try? FileManager.default.attributesOfItem(atPath: oldDefault)[.modificationDate] as? Date) == before, "no key file in the working folder")
        #expect(throws: InstallationKeys.Problem.self) { try InstallationKeys.defaultPath(for: StoreLocation("postgres://x@127.0.0.1/db")) }
    }

    @Test("audit verify --head finds entries deleted from the end, which the chain alone cannot; a forged head is refused")
    func signedHead() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // SQLite: the triggers are dropped in its dialect; the chain on both backends has tests of its own.
        let db = folder.appendingPathComponent("g.sqlite").path
        let options = ["--database", db, "--keys", testKeysPath(for: db)]
        let store = try await (try StoreOptions.parse(options)).open()
        for i in 0..<8 { try await store.recordEvent(actor: "system", action: "e", detail: "event \(i)") }
        let keys = try #require(try InstallationKeys.read(folder.appendingPathComponent("geoserve.keys").path))
        let tail = try await store.auditHead()
        let head = folder.appendingPathComponent("head.txt")
        try AuditHead(sequence: tail.sequence, hash: tail.hash, keys: keys).text.write(to: head, atomically: true, encoding: .utf8)
        try await AuditVerifyCommand.parse(options + ["--head", head.path]).run()

        try rawSQL("DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete; DELETE FROM audit WHERE sequence > 5", on: db)
        #expect(try await store.verifyAuditChain() == nil, "a shortened chain is still a chain")
        await #expect(throws: ExitCode(1)) { try await AuditVerifyCommand.parse(options + ["--head", head.path]).run() }

        let forged = folder.appendingPathComponent("forged.txt")
        let five = try #require(try await store.auditHash(sequence: 5))
        try "5 \(five) \(String(repeating: "0", count: 64))\n".write(to: forged, atomically: true, encoding: .utf8)
        await #expect(throws: ExitCode(1)) { try await AuditVerifyCommand.parse(options + ["--head", forged.path]).run() }
    }
}
