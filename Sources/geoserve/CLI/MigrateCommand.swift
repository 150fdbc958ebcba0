import ArgumentParser
import GeoserveApp
import Storage

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or upgrade the database schema (serve does this on start)."
    )

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let db = try await store.open()
        let version = try await db.migrate()
        print("schema at version \(version): \(try store.settings().location)")
    }
}
