import StorageSQLite

/// Refuses to serve or restore an embedded store whose schema holds objects its migrations did
/// not make (see `SQLiteSchema`): a trigger planted in a backup runs with every write the service
/// makes, so nothing of such a store is trusted until the object is removed.
package enum StoreSchemaCheck {
    package struct Foreign: Error, CustomStringConvertible {
        let path: String
        let differences: [SQLiteSchema.Difference]
        package var description: String {
            "\(path) holds schema objects its migrations did not make, and is not used: "
                + differences.map(\.description).joined(separator: "; ")
                + " (remove or restore them with sqlite3 after looking at what they do, or restore an earlier backup)"
        }
    }

    /// Throws `Foreign` naming every object that differs; PostgreSQL stores are not checked here.
    package static func check(_ location: StoreLocation) throws {
        guard case .sqlite(let path) = location else { return }
        let differences = try SQLiteSchema.differences(ofFileAt: path)
        guard differences.isEmpty else { throw Foreign(path: path, differences: differences) }
    }
}
