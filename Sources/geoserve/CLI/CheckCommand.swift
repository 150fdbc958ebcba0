import ArgumentParser
import Foundation
import GeoserveApp
import Storage

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a store for what its migrations did not make.",
        subcommands: [CheckSchemaCommand.self]
    )
}

/// The schema check `serve` makes at every start, on demand: after a restore (`pg_restore`, or a
/// file from elsewhere) and before the service writes to it.
struct CheckSchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Compare the store's schema with the one its migrations make; exit 1 naming every object that differs.",
        discussion: """
        Every table, index, constraint, trigger (and whether it is enabled), function, view, rule, \
        policy and type is compared with a reference the migrations build up to the store's schema \
        version: on SQLite in memory, on PostgreSQL in a schema of its own inside a transaction \
        that is rolled back (the role needs CREATE on the database; exit 2 when it lacks it). \
        Nothing is migrated or written. `serve` makes the same check at start and refuses a store \
        that fails it.
        """
    )

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let settings = try store.settings()
        if case .sqlite(let path) = settings.location, !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure("no store at \(path): this command reads a store and makes none (check --database or GEOSERVE_DATABASE)")
        }
        // Opened, not migrated: a planted trigger must not run before the check, and the check
        // compares with the migrations up to the version the store is at.
        let db = try openStore(settings)
        let differences: [SchemaDifference]
        do {
            differences = try await db.schemaDifferences()
        } catch let unavailable as SchemaCheckUnavailable {
            printError(unavailable.description)
            throw ExitCode(2)
        }
        for difference in differences { printError("schema: \(difference)") }
        guard differences.isEmpty else {
            printError("\(differences.count) schema object\(differences.count == 1 ? "" : "s") of \(settings.location) differ from what the migrations make")
            throw ExitCode(1)
        }
        print("schema: as the migrations make it")
    }
}
