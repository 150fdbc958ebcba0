import ArgumentParser
import Foundation
import GeoserveApp

struct DrillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drill",
        abstract: "Mark a restored store as a drill copy, or make it the installation's store again.",
        discussion: "A drill copy, served, sends no status notifications and makes no scheduled publications: its outbox holds events production may already have sent. `geoserve restore` marks what it restores; mark a PostgreSQL database restored with pg_restore yourself.",
        subcommands: [DrillMarkCommand.self, DrillPromoteCommand.self]
    )
}

struct DrillMarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark",
        abstract: "Mark the store a drill copy: served, it sends no notifications and publishes nothing on its schedule."
    )

    @OptionGroup var store: StoreOptions

    func validate() throws {
        // The environment file names production's store: marking it silences production, so the
        // store to mark is never taken from there.
        guard store.database != nil else {
            throw ValidationError("name the store to mark with --database: a drill copy sends no notifications and publishes nothing, and the store in GEOSERVE_DATABASE is production's")
        }
    }

    func run() async throws {
        let db = try await store.open()
        try await DrillCopy.mark(db, at: Date())
        print("\(try store.settings().location) is a drill copy (since \(try await DrillCopy.since(db) ?? "now"))")
    }
}

struct DrillPromoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promote",
        abstract: "Make a drill copy the installation's store: served, it sends pending notifications and publishes on its schedule."
    )

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let db = try await store.open()
        let was = try await DrillCopy.promote(db)
        print(was ? "\(try store.settings().location) is the installation's store again: it sends notifications and publishes on its schedule"
                  : "\(try store.settings().location) was not a drill copy; nothing changed")
    }
}
