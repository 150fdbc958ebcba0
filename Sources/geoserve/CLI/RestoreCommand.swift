import ArgumentParser
import Foundation
import GeoserveApp
import Storage
import StorageSQLite

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into a new store location, then check its audit trail and counters.",
        discussion: """
            Refuses a --database that exists: a restore never overwrites. Put the installation's \
            key file where --keys says (by default beside the restored database) before \
            restoring, so the audit trail can be verified. Exits 1 when a check fails.
            """
    )

    @Argument(help: "The backup file.") var backup: String

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let destination = try StoreBackup.sqlitePath(try store.settings().location, "restore")
        let restored: SQLiteBackup.Summary
        do {
            restored = try SQLiteBackup.restore(from: backup, to: destination)
        } catch let problem as SQLiteBackup.Problem {
            throw ValidationError(problem.description)
        }
        printError("restored \(restored.reports) reports into \(destination)")
        let db = try await store.open()
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
    }
}
