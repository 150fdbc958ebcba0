import Foundation
import Storage
import StorageSQLite

/// Opens the store at a location. The only place that names a backend: everything else holds
/// the store as the narrow `Storage` protocols it needs.
func openStore(_ location: StoreLocation, timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws -> any GeoserveStore {
    switch location {
    case .sqlite(let path): try SQLiteStore(path: path, timeZone: timeZone)
    }
}

/// Opens the store at a location given as text (`--database`).
func openStore(_ location: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws -> any GeoserveStore {
    try openStore(StoreLocation(location), timeZone: timeZone)
}
