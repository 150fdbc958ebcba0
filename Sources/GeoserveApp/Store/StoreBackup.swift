import Crypto
import Foundation
import StorageSQLite
import Support

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

    /// What a backup's seal says of it.
    package enum SealCheck: Equatable {
        /// Its content is what was sealed under these keys.
        case intact
        /// It carries no seal (made before backups were sealed, or by another tool).
        case missing
        /// Its content changed since it was sealed, or it was sealed under another installation's keys.
        case changed
    }

    /// The seal of a store file's content (schema and rows) under the installation's keys.
    package static func seal(of file: String, keys: InstallationKeys) throws -> String {
        try seal(of: file, keys: keys, legacy: false)
    }

    /// `legacy`: the form of seals made before the schema was covered ("hmac-sha256:"), rows only.
    private static func seal(of file: String, keys: InstallationKeys, legacy: Bool) throws -> String {
        var mac = HMAC<SHA256>(key: keys.backupSealKey)
        try SQLiteBackup.content(of: file, legacy: legacy) { mac.update(data: $0) }
        return (legacy ? legacyPrefix : prefix) + Data(mac.finalize()).hexString
    }

    static let prefix = "hmac-sha256-schema:", legacyPrefix = "hmac-sha256:"

    /// A seal of either form is checked in its own form; what a legacy seal does not cover (the
    /// schema) `SQLiteSchema` compares with the migrations at restore.
    package static func check(_ backup: String, keys: InstallationKeys) throws -> SealCheck {
        guard let carried = try SQLiteBackup.seal(of: backup) else { return .missing }
        let legacy = !carried.hasPrefix(prefix) && carried.hasPrefix(legacyPrefix)
        return ConstantTime.equal(carried, try seal(of: backup, keys: keys, legacy: legacy)) ? .intact : .changed
    }
}
