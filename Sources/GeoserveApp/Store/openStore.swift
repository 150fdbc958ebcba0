import Foundation
import Storage
import StoragePostgres
import StorageSQLite

/// How to open the store: where it is, the campus's zone, and what a server backend is allowed.
package struct StoreSettings: Sendable {
    package var location: StoreLocation
    package var timeZone = TimeZone(identifier: "UTC")!
    /// The most PostgreSQL connections one process opens: PostgreSQL's own rule of thumb is
    /// about two per core of the database machine, shared by every process.
    package var connections = StoreSettings.defaultConnections
    /// The longest one PostgreSQL statement may run before the server cancels it.
    package var statementTimeout = Duration.seconds(30)
    /// Told of every store call's duration: the service's metrics; nil for commands.
    var observer: (any StoreObserver)?

    package init(location: StoreLocation, timeZone: TimeZone = TimeZone(identifier: "UTC")!, connections: Int = StoreSettings.defaultConnections,
                 statementTimeout: Duration = .seconds(30), observer: (any StoreObserver)? = nil) {
        self.location = location
        self.timeZone = timeZone
        self.connections = connections
        self.statementTimeout = statementTimeout
        self.observer = observer
    }

    /// Two per core of this machine, at least 2 and at most 16.
    static var defaultConnections: Int { min(16, max(2, 2 * ProcessInfo.processInfo.activeProcessorCount)) }
}

/// Opens the store. The only place that names a backend: everything else holds the store as the
/// narrow `Storage` protocols it needs.
package func openStore(_ settings: StoreSettings) throws -> any GeoserveStore {
    switch settings.location {
    case .sqlite(let path):
        try SQLiteStore(path: path, timeZone: settings.timeZone, observer: settings.observer)
    case .postgres(let uri):
        PostgresStore(location: uri, timeZone: settings.timeZone, connections: settings.connections, statementTimeout: settings.statementTimeout,
                      observer: settings.observer)
    }
}

/// Opens the store at a location given as text (`--database`) with the default settings.
package func openStore(_ location: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws -> any GeoserveStore {
    try openStore(StoreSettings(location: StoreLocation(location), timeZone: timeZone))
}
