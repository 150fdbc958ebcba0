import Logging

/// Everything the service needs to start; the `serve` command maps flags and `GEOSERVE_*`
/// variables into it and tests build it directly.
struct AppConfiguration: Sendable {
    var host = "127.0.0.1"
    var port = 8080
    /// SQLite database file.
    var databasePath = "var/geoserve.sqlite"
    /// Folder whose layers are imported when the store has none; nil imports nothing.
    var demoDataPath: String? = "data"
    var logLevel: Logger.Level = .info
    /// Password hashing and token lifetime.
    var credentials = Credentials()
}
