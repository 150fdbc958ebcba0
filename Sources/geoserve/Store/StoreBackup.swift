import ArgumentParser
import StorageSQLite

/// Backups of the store: the embedded store copies itself (SQLite's online backup API);
/// PostgreSQL has its own tools, which know its replication and point-in-time recovery.
enum StoreBackup {
    /// The SQLite file of a location; PostgreSQL is refused with where to look instead.
    static func sqlitePath(_ location: StoreLocation, _ what: String) throws -> String {
        switch location {
        case .sqlite(let path): return path
        case .postgres:
            throw ValidationError("\(what) is for the embedded SQLite store; for PostgreSQL use pg_dump or pg_basebackup (docs/operations.md#backup-and-restore)")
        }
    }
}
