import ArgumentParser
import Foundation
import GeoserveApp
import Storage

struct TimeZoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "time-zone",
        abstract: "Print the time zone the store counts its days in, or record another one.",
        discussion: "A store records its zone at its first write, and every command and process uses it (docs/layers-and-data.md).",
        subcommands: [TimeZoneShowCommand.self, TimeZoneSetCommand.self],
        defaultSubcommand: TimeZoneShowCommand.self
    )
}

struct TimeZoneShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the store's time zone.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let opened = try await store.opened(reading: true)
        print(opened.zoneRecorded ? StoreTimeZone.name(opened.timeZone)
              : "none recorded: days are counted in UTC; give the service's zone with --time-zone to any command to record it")
    }
}

struct TimeZoneSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Record another time zone for the store and recount its counters in it (with the service stopped).",
        discussion: "For a store that recorded the wrong zone at its first write (a command run before the environment file named the campus's zone). Publications already made keep the days they were made with."
    )

    @Argument(help: "The campus's IANA time zone, such as America/Chicago.") var zone: String
    @OptionGroup var store: StoreOptions

    func run() async throws {
        guard let target = TimeZone(identifier: zone) else { throw ValidationError("unknown time zone \(zone) (use an IANA name such as America/Chicago)") }
        var settings = try store.settings(bulk: true)
        settings.timeZone = target
        let db = try openStore(settings)
        try await db.migrate()
        do { _ = try await InstallationKeys.load(path: try store.keysFile(), store: db) } catch let problem as InstallationKeys.Problem {
            throw CommandFailure(problem.description)
        }
        // The record first: were the recount cut short, the check in the new zone finds the cells
        // it left and recommends the rebuild that finishes it.
        let before = try await StoreTimeZone.change(db, to: target)
        let repaired = try await db.rebuildCounters()
        let name = StoreTimeZone.name(target)
        try await db.recordEvent(actor: "cli", action: "time-zone", detail: "from=\(before ?? "none") to=\(name) cells repaired=\(repaired)")
        print("the store counts its days in \(name) (was \(before ?? "not recorded")); \(repaired) counter cells recounted")
    }
}
