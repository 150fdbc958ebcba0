import ArgumentParser
import Foundation
import Storage

/// Resolves an option: the flag if given, else the `GEOSERVE_*` variable, else the default.
enum EnvironmentDefault {
    static func string(_ flag: String?, _ variable: String, _ fallback: String) -> String {
        flag ?? ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
    }

    static func int(_ flag: Int?, _ variable: String, _ fallback: Int) throws -> Int {
        if let flag { return flag }
        guard let raw = ProcessInfo.processInfo.environment[variable], !raw.isEmpty else { return fallback }
        guard let v = Int(raw) else { throw ValidationError("\(variable)=\(raw) is not a whole number") }
        return v
    }
}

/// The store option shared by every command that opens the database.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("SQLite database file (env GEOSERVE_DATABASE).", valueName: "path"))
    var database: String?

    @Option(name: .customLong("time-zone"), help: ArgumentHelp("The campus's IANA time zone: report days are its days (env GEOSERVE_TIME_ZONE, default UTC).", valueName: "zone"))
    var timeZoneName: String?

    /// The database path in effect.
    var databasePath: String {
        EnvironmentDefault.string(database, "GEOSERVE_DATABASE", "var/geoserve.sqlite")
    }

    /// The campus time zone in effect.
    func timeZone() throws -> TimeZone {
        let name = EnvironmentDefault.string(timeZoneName, "GEOSERVE_TIME_ZONE", "UTC")
        guard let zone = TimeZone(identifier: name) else { throw ValidationError("unknown time zone \(name) (use an IANA name such as America/Chicago)") }
        return zone
    }

    /// Opens the store.
    func open() throws -> SQLiteStore {
        try SQLiteStore(path: databasePath, timeZone: timeZone())
    }
}
