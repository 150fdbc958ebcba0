import Foundation
import Storage

/// The embedded store's schema compared with the one its migrations make: a restored backup, or
/// a file edited by hand, may carry objects no migration made — a trigger that makes a
/// researcher an admin when a token is issued, one that copies each new report's phone number
/// into a public alert, an append-only trigger of the audit table dropped. Every object in
/// `sqlite_master` (table, index, trigger, view) is compared by type, name and SQL with a store
/// migrated to the same schema version in memory; SQLite's own objects (`sqlite_…`: statistics,
/// sequences, automatic indexes) and a backup's seal are left out.
public enum SQLiteSchema {
    public typealias Difference = SchemaDifference

    /// The differences between the store file at `path` and its schema version's migrations;
    /// empty for a store as the migrations made it.
    public static func differences(ofFileAt path: String) throws -> [Difference] {
        try differences(of: try SQLiteConnection(path: path, readOnly: true))
    }

    static func differences(of db: SQLiteConnection) throws -> [Difference] {
        let version = Int(try db.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") ?? 0)
        let reference = try SQLiteConnection(path: ":memory:")
        try reference.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
        for migration in SQLiteMigrations.all where migration.version <= version { try reference.execute(migration.sql) }
        var out = SchemaDifference.between(found: try objects(db), expected: try objects(reference))
        if try db.scalar("PRAGMA user_version") != 0 { out.append(Difference(type: "pragma", name: "user_version", kind: .changed)) }
        return out
    }

    /// Every object but SQLite's own and the seal's table, with its SQL (NULL for automatic ones).
    private static func objects(_ db: SQLiteConnection) throws -> [String: [String: String]] {
        // `_` is a wildcard in LIKE: escaped, so that a table named `sqliteXnotes` is not taken
        // for one of SQLite's own.
        let s = try db.prepare("""
            SELECT type, name, COALESCE(sql, '') FROM sqlite_master
            WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> ?
            """).bind(.text(SQLiteBackup.sealTable))
        var out: [String: [String: String]] = [:]
        while try s.step() { out[s.text(0)!, default: [:]][s.text(1)!] = s.text(2)! }
        return out
    }
}
