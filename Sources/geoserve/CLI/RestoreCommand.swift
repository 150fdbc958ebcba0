import ArgumentParser
import Foundation
import GeoserveApp
import Storage
import StorageSQLite

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into a new store location, then check its seal, audit trail and counters.",
        discussion: """
            Refuses a --database that exists: a restore never overwrites. Put the installation's \
            key file where --keys says (by default beside the restored database) before \
            restoring: the backup's seal and the audit trail are checked with it. A backup \
            changed since it was made, or sealed with another installation's key file, is \
            refused before anything is written. Exits 1 when a check fails, and then removes \
            what it restored. What it restores is a drill copy (`geoserve drill`): served, it \
            sends no status notifications and publishes nothing on its schedule until promoted. \
            To bring production back from a backup (a rollback), restore with --as-production.
            """
    )

    @Argument(help: "The backup file.") var backup: String

    @Flag(help: "Restore a backup that carries no seal (made before backups were sealed); its content cannot be proved unchanged.")
    var unsealed = false

    @Flag(name: .customLong("as-production"), help: "Restore as the installation's store (a rollback): it sends status notifications and publishes on its schedule. Without it the restored store is a drill copy.")
    var asProduction = false

    @Flag(name: .customLong("keep-failed"), help: "Keep the restored store even when a check fails, to inspect or repair it (geoserve aggregates rebuild).")
    var keepFailed = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let destination = try StoreBackup.sqlitePath(try store.settings().location, "restore")
        guard !FileManager.default.fileExists(atPath: destination) else { throw CommandFailure(SQLiteBackup.Problem.exists(destination).description) }
        guard FileManager.default.fileExists(atPath: backup) else { throw CommandFailure("no backup at \(backup)") }
        let keysFile = try store.keysFile()
        guard let keys = try readKeys(keysFile) else {
            throw CommandFailure("no key file at \(keysFile): put the installation's key file there (or name it with --keys); the backup's seal and audit trail are checked with it")
        }
        switch try StoreBackup.check(backup, keys: keys) {
        case .intact:
            printError("seal: intact (the backup is as it was made)")
        case .missing where unsealed:
            printError("seal: none (restored as asked with --unsealed; its content cannot be proved unchanged)")
        case .missing:
            printError("\(backup) carries no seal: it was made before backups were sealed, or by another tool. Nothing restored; --unsealed restores it anyway")
            throw ExitCode(1)
        case .changed:
            printError("\(backup) does not match its seal: it was changed after it was made, or sealed with another installation's key file than \(keysFile). Nothing restored")
            throw ExitCode(1)
        }
        let restored: SQLiteBackup.Summary
        do {
            restored = try SQLiteBackup.restore(from: backup, to: destination)
        } catch let problem as SQLiteBackup.Problem {
            throw CommandFailure(problem.description)
        }
        printError("restored \(restored.reports) reports into \(destination)")
        do {
            // The schema before anything opens the store to write (a planted trigger would run).
            let foreign = try SQLiteSchema.differences(ofFileAt: destination)
            for difference in foreign { printError("schema: \(difference) (not what the migrations make)") }
            if !foreign.isEmpty { throw ExitCode(1) }
            printError("schema: as the migrations make it")
            try await check()
        } catch {
            if keepFailed {
                printError("kept \(destination) as asked (--keep-failed); do not serve it before it passes")
                throw error
            }
            SQLiteBackup.remove(destination)
            printError("removed \(destination): a restore that fails its checks leaves nothing behind")
            throw error
        }
    }

    private func check() async throws {
        let db = try await store.open(bulk: true)
        var failed = false
        if let broken = try await db.verifyAuditChain() {
            printError("audit trail: broken at entry \(broken) (geoserve audit verify)")
            failed = true
        } else {
            printError("audit trail: intact")
        }
        let differences = try await db.checkCounters()
        printError(differences.isEmpty ? "counters: equal to a recompute from the reports" : "counters: \(differences.count) cells differ (geoserve aggregates rebuild)")
        if failed || !differences.isEmpty { throw ExitCode(1) }
        if asProduction {
            // A backup of a drill copy carries the mark: production brought back from it must not be one.
            try await DrillCopy.promote(db)
            printError("restored as the installation's store (--as-production): served, it sends status notifications and publishes on its schedule")
            return
        }
        try await DrillCopy.mark(db, at: Date())
        printError("marked as a drill copy: served, it sends no status notifications and publishes nothing on its schedule; `geoserve drill promote` makes it the installation's store, `--as-production` restores as it")
    }
}
