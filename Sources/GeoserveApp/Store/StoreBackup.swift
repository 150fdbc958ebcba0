import StorageSQLite

/// Backups of the store: the embedded store copies itself (SQLite's online backup API);
/// PostgreSQL has its own tools, which know its replication and point-in-time recovery.
package enum StoreBackup {
    /// A backup or restore asked of a store that keeps its own.
    package struct NotEmbedded: Error, CustomStringConvertible {
        let what: String
        package var description: String {
            "\(what) is for the embedded SQLite store; for PostgreSQL use pg_dump or pg_basebackup (docs/backup.md)"
        }
    }

    /// The SQLite file of a location; PostgreSQL is refused with where to look instead.
    package static func sqlitePath(_ location: StoreLocation, _ what: String) throws(NotEmbedded) -> String {
        switch location {
        case .sqlite(let path): return path
        case .postgres: throw NotEmbedded(what: what)
        }
    }
}
