import GeoCore
import ArgumentParser
import Foundation
import GeoserveApp
import Storage

/// The store options shared by every command that opens the database.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Where the store lives: a SQLite file path, sqlite:PATH, or a PostgreSQL URI postgres://user@host/db (env GEOSERVE_DATABASE, default var/geoserve.sqlite).", valueName: "location"))
    var database: String?

    @Option(name: .customLong("database-connections"), help: ArgumentHelp("PostgreSQL connections this process opens at most (env GEOSERVE_DATABASE_CONNECTIONS, default twice the cores, 2-16).", valueName: "n"))
    var connections: Int?

    @Option(name: .customLong("statement-timeout"), help: ArgumentHelp("Seconds one PostgreSQL statement may run (env GEOSERVE_STATEMENT_TIMEOUT, default 30; commands that move many rows: none unless given here).", valueName: "seconds"))
    var statementTimeout: Int?

    @Option(name: .customLong("time-zone"), help: ArgumentHelp("The campus's IANA time zone: report days are its days (env GEOSERVE_TIME_ZONE, default UTC).", valueName: "zone"))
    var timeZoneName: String?

    @Option(name: .customLong("keys"), help: ArgumentHelp("The installation's key file, created on first use (env GEOSERVE_KEYS; default geoserve.keys beside a SQLite database; required for PostgreSQL).", valueName: "file"))
    var keys: String?

    @Option(name: .customLong("index-cache"), help: ArgumentHelp("Folder where area indexes and tile topologies of large layers are saved and read back at the next start, or 'none' (env GEOSERVE_INDEX_CACHE; default index-cache/ beside a SQLite file, var/index-cache for PostgreSQL).", valueName: "folder"))
    var indexCache: String?

    /// The index folder in effect; nil when turned off.
    func indexFolder() throws -> URL? {
        let given = EnvironmentDefault.string(indexCache, "GEOSERVE_INDEX_CACHE", "")
        if given == "none" { return nil }
        return given.isEmpty ? try settings().location.defaultIndexFolder : URL(fileURLWithPath: given)
    }

    /// The saved area indexes, when kept.
    func indexFiles() throws -> AreaIndexFiles? { try indexFolder().map { AreaIndexFiles(directory: $0) } }

    /// The key file in effect.
    func keysFile() throws -> String {
        let given = EnvironmentDefault.string(keys, "GEOSERVE_KEYS", "")
        guard given.isEmpty else { return given }
        do { return try InstallationKeys.defaultPath(for: try settings().location) } catch let problem as InstallationKeys.Problem {
            throw ValidationError(problem.description)
        }
    }

    /// The store location in effect, as given.
    var location: String {
        EnvironmentDefault.string(database, "GEOSERVE_DATABASE", "var/geoserve.sqlite")
    }

    /// The campus time zone given by flag or environment; nil when neither names one (the
    /// store's recorded zone is used, see `StoreTimeZone`).
    func givenTimeZone() throws -> TimeZone? {
        let name = EnvironmentDefault.string(timeZoneName, "GEOSERVE_TIME_ZONE", "")
        guard !name.isEmpty else { return nil }
        guard let zone = TimeZone(identifier: name) else { throw ValidationError("unknown time zone \(name) (use an IANA name such as America/Chicago)") }
        return zone
    }

    /// Everything that opens the store, checked. A bulk command (an import, a recount, an
    /// export) runs without a statement timeout unless one is given on its command line: the
    /// environment's is the service's, for requests, and a 1,000,000-report import ran into it
    /// in 2 of 3 tries.
    func settings(bulk: Bool = false) throws -> StoreSettings {
        let location: StoreLocation
        do { location = try StoreLocation(self.location) } catch let refused as StoreLocation.Refused {
            throw ValidationError(refused.description)
        }
        var settings = StoreSettings(location: location, timeZone: try givenTimeZone() ?? TimeZone(identifier: "UTC")!)
        settings.connections = try EnvironmentDefault.int(connections, "GEOSERVE_DATABASE_CONNECTIONS", settings.connections)
        guard (1...1000).contains(settings.connections) else { throw ValidationError("database connections must be 1 to 1000") }
        let seconds = try EnvironmentDefault.int(statementTimeout, "GEOSERVE_STATEMENT_TIMEOUT", 30)
        guard (1...86_400).contains(seconds) else { throw ValidationError("the statement timeout must be 1 to 86400 seconds") }
        settings.statementTimeout = bulk && statementTimeout == nil ? .zero : .seconds(seconds)
        return settings
    }

    /// Opens the store, brings its schema up to date, gives it the installation's keys and
    /// settles its zone, as every command but `migrate` wants.
    func open(bulk: Bool = false, reading: Bool = false) async throws -> any GeoserveStore {
        try await opened(bulk: bulk, reading: reading).store
    }

    /// A store opened for a command, with what opening it settled.
    struct Opened {
        let store: any GeoserveStore
        let keys: InstallationKeys
        /// The zone the store counts its days in (`StoreTimeZone`).
        let timeZone: TimeZone
        /// False for a store from before zones were recorded, opened with no zone given.
        let zoneRecorded: Bool
    }

    /// `open`, also handing back the keys it gave the store and the store's zone.
    /// - Parameters:
    ///   - bulk: a command that moves many rows (no statement timeout unless given).
    ///   - reading: a command that only reads, which refuses an embedded store that does not
    ///     exist instead of creating an empty one (an export from a mistyped path wrote 0 reports,
    ///     a check of it passed, and both exited 0).
    func opened(bulk: Bool = false, reading: Bool = false) async throws -> Opened {
        let settings = try settings(bulk: bulk)
        if reading, case .sqlite(let path) = settings.location, !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure("no store at \(path): this command reads a store and makes none (check --database or GEOSERVE_DATABASE)")
        }
        // Where the keys live is settled before the store is touched.
        let keysPath = try keysFile()
        let store = try openStore(settings)
        try await store.migrate()
        let keys: InstallationKeys
        do { keys = try await InstallationKeys.load(path: keysPath, store: store) } catch let problem as InstallationKeys.Problem {
            throw CommandFailure(problem.description)
        }
        do {
            let (settled, zone) = try await StoreTimeZone.settled(store, opened: settings, given: try givenTimeZone(), keys: keys)
            return Opened(store: settled, keys: keys, timeZone: zone.zone, zoneRecorded: zone.recorded)
        } catch let mismatch as StoreTimeZone.Mismatch {
            throw CommandFailure(mismatch.description)
        }
    }
}

/// The key file at `path` as the commands report its problems; nil when there is none.
func readKeys(_ path: String) throws -> InstallationKeys? {
    do { return try InstallationKeys.read(path) } catch let problem as InstallationKeys.Problem {
        throw CommandFailure(problem.description)
    }
}
