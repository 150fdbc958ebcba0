import ArgumentParser
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import StorageSQLite
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
        await #expect(throws: CommandFailure.self) { try await BackupCommand.parse(["--database", db, "--out", out]).run() }
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
        await #expect(throws: CommandFailure.self) { try await RestoreCommand.parse([out, "--database", restored]).run() }
        #expect(try FileManager.default.attributesOfItem(atPath: restored)[.size] as? Int == size)
        // A file that is not a backup is refused before anything is written.
        let junk = service.folder.appendingPathComponent("junk.backup")
        try Data("not a database".utf8).write(to: junk)
        let elsewhere = service.folder.appendingPathComponent("elsewhere/store.sqlite").path
        await #expect(throws: (any Error).self) { try await RestoreCommand.parse([junk.path, "--database", elsewhere]).run() }
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
    }

    @Test("a store holding a trigger no migration made is not served: the start refuses, naming it, before anything is written; `check schema` names it too")
    func plantedTriggerRefusedAtStart() async throws {
        let service = try await TestService()
        defer { service.remove() }
        let db = service.configuration.database
        let postgres = db.hasPrefix("postgres")
        let check = ["--database", db, "--keys", testKeysPath(for: db)]
        try await CheckSchemaCommand.parse(check).run()
        if postgres {
            try rawSQL("""
                CREATE FUNCTION planted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE accounts SET role = 'admin'; RETURN NEW; END $$;
                CREATE TRIGGER planted AFTER INSERT ON reports FOR EACH ROW EXECUTE FUNCTION planted()
                """, on: db)
        } else {
            try rawSQL("CREATE TRIGGER planted AFTER INSERT ON reports BEGIN UPDATE accounts SET role = 'admin'; END", on: db)
        }
        let named = postgres ? "trigger reports.planted: not made by any migration" : "trigger planted: not made by any migration"
        let reports = try rawColumn("SELECT count(*) FROM reports", on: db)
        do {
            try await service.run { _ in Issue.record("a store with a planted trigger was served") }
        } catch let refused as StoreSchemaCheck.Foreign {
            #expect(refused.description.contains(named), "\(refused)")
        }
        #expect(try rawColumn("SELECT count(*) FROM reports", on: db) == reports, "nothing was written")
        await #expect(throws: ExitCode(1)) { try await CheckSchemaCommand.parse(check).run() }
        try rawSQL(postgres ? "DROP TRIGGER planted ON reports; DROP FUNCTION planted()" : "DROP TRIGGER planted", on: db)
        try await CheckSchemaCommand.parse(check).run()
        try await service.run { client in
            let (status, _) = try await client.json(.get, "/readyz")
            #expect(status == .ok)
        }
    }

    @Test("a backup changed after it was made, unsealed, or checked with another key file is refused before anything is written; a restore that fails its checks removes what it wrote; files are the owner's alone")
    func sealed() async throws {
        let service = try await TestService()
        defer { service.remove() }
        let db = service.configuration.database
        guard !db.hasPrefix("postgres") else { return }  // PostgreSQL's backups are pg_dump's (the test above)
        // The usual umask, which would leave files readable by everyone.
        let previous = umask(0o022)
        defer { umask(previous) }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            _ = try await client.account("verifier", admin: admin)
            for hall in ["H01", "H02", "H03"] { _ = try await client.submit(Drafts.covid(hall: hall)) }
        }
        func mode(_ path: String) throws -> Int { (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1 }
        let out = service.folder.appendingPathComponent("backups/campus.backup").path
        try await BackupCommand.parse(["--database", db, "--out", out]).run()
        let modes = [try mode(out), try mode(db), try mode(testKeysPath(for: db))]
        #expect(modes == [0o600, 0o600, 0o600], "backup, store, key file: \(modes.map { String($0, radix: 8) })")

        var n = 0
        func restore(_ backup: String, _ extra: [String] = [], keys: String? = nil) async throws -> (destination: String, error: (any Error)?) {
            n += 1
            let destination = service.folder.appendingPathComponent("restored-\(n)/store.sqlite").path
            try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: destination).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: keys ?? testKeysPath(for: db), toPath: testKeysPath(for: destination))
            do { try await RestoreCommand.parse([backup, "--database", destination] + extra).run() } catch { return (destination, error) }
            return (destination, nil)
        }
        func copy(_ name: String, _ sql: String) throws -> String {
            let path = service.folder.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: out, toPath: path)
            try rawSQL(sql, on: path)
            return path
        }
        // Someone with the file makes themselves admin, or rewrites the phone numbers: refused, nothing written.
        for tampered in [try copy("admin.backup", "UPDATE accounts SET role = 'admin' WHERE role = 'verifier'"),
                         try copy("phones.backup", "UPDATE reports SET payload = replace(payload, '336', '555')")] {
            let (destination, error) = try await restore(tampered)
            #expect((error as? ExitCode) == ExitCode(1), "\(tampered)")
            #expect(!FileManager.default.fileExists(atPath: destination), "\(tampered): nothing restored")
        }
        // The seal covers the schema too: a trigger that makes whoever gets a token an admin, the
        // audit trail's append-only trigger dropped, a table whose name a LIKE took for SQLite's own.
        for tampered in [try copy("trigger.backup", "CREATE TRIGGER planted AFTER INSERT ON tokens BEGIN UPDATE accounts SET role = 'admin'; END"),
                         try copy("audit.backup", "DROP TRIGGER audit_no_update"),
                         try copy("notes.backup", "CREATE TABLE sqliteXnotes (x TEXT)")] {
            let (destination, error) = try await restore(tampered)
            #expect((error as? ExitCode) == ExitCode(1), "\(tampered)")
            #expect(!FileManager.default.fileExists(atPath: destination), "\(tampered): nothing restored")
        }
        // Without a seal to check (--unsealed), the schema is compared with the migrations: a
        // planted trigger is refused, named, and nothing stays behind.
        let plantedUnsealed = try copy("planted-unsealed.backup", """
            DROP TABLE backup_seal;
            CREATE TRIGGER planted AFTER INSERT ON tokens BEGIN UPDATE accounts SET role = 'admin'; END;
            """)
        let (plantedDestination, plantedError) = try await restore(plantedUnsealed, ["--unsealed"])
        #expect((plantedError as? ExitCode) == ExitCode(1))
        #expect(!FileManager.default.fileExists(atPath: plantedDestination))
        #expect(try SQLiteSchema.differences(ofFileAt: plantedUnsealed).map(\.description) == ["trigger planted: not made by any migration"])
        #expect(try SQLiteSchema.differences(ofFileAt: db).isEmpty, "the served store is as the migrations made it")
        // A seal removed is a backup without one: refused unless asked for.
        let bare = try copy("bare.backup", "DROP TABLE backup_seal")
        #expect(try await restore(bare).error as? ExitCode == ExitCode(1))
        let (asked, askedError) = try await restore(bare, ["--unsealed"])
        #expect(askedError == nil && FileManager.default.fileExists(atPath: asked))
        // Checked with another installation's key file, the seal does not verify.
        let other = try await TestService(demo: false)
        defer { other.remove() }
        _ = try await openKeyedStore(other.configuration.database)
        let (foreign, foreignError) = try await restore(out, keys: testKeysPath(for: other.configuration.database))
        #expect(foreignError as? ExitCode == ExitCode(1) && !FileManager.default.fileExists(atPath: foreign))
        // The untouched backup restores, 0600, without the seal in the store.
        let (good, goodError) = try await restore(out)
        let goodMode = try mode(good)
        #expect(goodError == nil && goodMode == 0o600)
        #expect(try rawColumn("SELECT count(*) FROM sqlite_master WHERE name = 'backup_seal'", on: good) == ["0"])
        // What a restore writes is a drill copy until promoted.
        let restored = try await openKeyedStore(good)
        #expect(try await DrillCopy.since(restored) != nil)
        try await DrillPromoteCommand.parse(["--database", good]).run()
        #expect(try await DrillCopy.since(restored) == nil)
        // A rollback restores production as production, even from a backup of a drill copy.
        try await DrillMarkCommand.parse(["--database", db]).run()
        let fromDrill = service.folder.appendingPathComponent("backups/drill.backup").path
        try await BackupCommand.parse(["--database", db, "--out", fromDrill]).run()
        try await DrillPromoteCommand.parse(["--database", db]).run()
        let (production, productionError) = try await restore(fromDrill, ["--as-production"])
        #expect(productionError == nil)
        #expect(try await DrillCopy.since(try await openKeyedStore(production)) == nil, "--as-production restores the installation's store")
        let (drill, _) = try await restore(fromDrill)
        #expect(try await DrillCopy.since(try await openKeyedStore(drill)) != nil)
        // `drill mark` never takes production's store from the environment.
        #expect(throws: (any Error).self) { try DrillMarkCommand.parse([]) }

        // A store whose counters were edited before the backup: the seal is good, the check fails,
        // and what was restored is removed (or kept, when asked).
        try rawSQL("UPDATE counters SET n = n + 1", on: db)
        let drifted = service.folder.appendingPathComponent("backups/drifted.backup").path
        try await BackupCommand.parse(["--database", db, "--out", drifted]).run()
        let (failed, failedError) = try await restore(drifted)
        #expect(failedError as? ExitCode == ExitCode(1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: failed).deletingLastPathComponent().path) == ["geoserve.keys"],
                "the store and its WAL are gone; the key file put there by the operator stays")
        let (kept, keptError) = try await restore(drifted, ["--keep-failed"])
        #expect(keptError as? ExitCode == ExitCode(1) && FileManager.default.fileExists(atPath: kept))
    }

    @Test("a backup that fails on a full disk leaves nothing beside its target, and the next one with room succeeds")
    func backupOnAFullDisk() async throws {
        let service = try await TestService()
        defer { service.remove() }
        let db = service.configuration.database
        guard !db.hasPrefix("postgres") else { return }  // PostgreSQL's backups are pg_dump's
        try await service.run { client in
            for hall in ["H01", "H02", "H03"] { _ = try await client.submit(Drafts.covid(hall: hall)) }
        }
        // A folder on a file system smaller than the store (the demo campus is over a megabyte).
        let disk = try SmallDisk(at: service.folder.appendingPathComponent("small"), size: "256k")
        defer { disk.unmount() }
        let small = disk.folder
        let out = small.appendingPathComponent("campus.backup").path
        await #expect(throws: (any Error).self) { try await BackupCommand.parse(["--database", db, "--out", out]).run() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: small.path) == [], "nothing left beside the target")
        let roomy = service.folder.appendingPathComponent("campus.backup").path
        try await BackupCommand.parse(["--database", db, "--out", roomy]).run()
        #expect(FileManager.default.fileExists(atPath: roomy))
    }
}
