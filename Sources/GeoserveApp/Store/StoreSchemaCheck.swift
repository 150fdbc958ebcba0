import Logging
import Storage

/// Refuses to serve or restore a store whose schema holds objects its migrations did not make
/// (`StoreAdmin.schemaDifferences`): a trigger planted in a backup or a dump runs with every
/// write the service makes, so nothing of such a store is trusted until the object is removed.
package enum StoreSchemaCheck {
    package struct Foreign: Error, CustomStringConvertible {
        let store: String
        let differences: [SchemaDifference]
        package var description: String {
            "\(store) holds schema objects its migrations did not make, and is not used: "
                + differences.map(\.description).joined(separator: "; ")
                + " (look at what they do and remove them, with sqlite3 for a file or psql for PostgreSQL, or restore an earlier backup)"
        }
    }

    /// Throws `Foreign` naming every object that differs. A store whose schema cannot be compared
    /// (a PostgreSQL role that may not create the check's reference schema) is used with a
    /// warning, when a logger is given; without one (a command), that is an error too.
    package static func check(_ store: any StoreAdmin, at location: StoreLocation, logger: Logger?) async throws {
        let differences: [SchemaDifference]
        do {
            differences = try await store.schemaDifferences()
        } catch let unavailable as SchemaCheckUnavailable {
            guard let logger else { throw unavailable }
            logger.warning("the schema was not checked against its migrations", metadata: ["why": "\(unavailable.reason)"])
            return
        }
        guard differences.isEmpty else { throw Foreign(store: location.description, differences: differences) }
    }
}
