import ArgumentParser
import Foundation
import Storage

/// The store options shared by every command that opens the database.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Where the store lives: a SQLite file path or sqlite:PATH (env GEOSERVE_DATABASE, default var/geoserve.sqlite).", valueName: "location"))
    var database: String?

    @Option(name: .customLong("time-zone"), help: ArgumentHelp("The campus's IANA time zone: report days are its days (env GEOSERVE_TIME_ZONE, default UTC).", valueName: "zone"))
    var timeZoneName: String?

    /// The store location in effect, as given.
    var location: String {
        EnvironmentDefault.string(database, "GEOSERVE_DATABASE", "var/geoserve.sqlite")
    }

    /// The campus time zone in effect.
    func timeZone() throws -> TimeZone {
        let name = EnvironmentDefault.string(timeZoneName, "GEOSERVE_TIME_ZONE", "UTC")
        guard let zone = TimeZone(identifier: name) else { throw ValidationError("unknown time zone \(name) (use an IANA name such as America/Chicago)") }
        return zone
    }

    /// Opens the store and brings its schema up to date, as every command but `migrate` wants.
    func open() async throws -> any GeoserveStore {
        let store: any GeoserveStore
        do { store = try openStore(location, timeZone: timeZone()) } catch let refused as StoreLocation.Refused {
            throw ValidationError(refused.description)
        }
        try await store.migrate()
        return store
    }
}
