import CSQLite
import Foundation
import Storage

/// A backup's seal: a MAC over its content under the installation's key, kept in the backup
/// itself (table `backup_seal`), so that `restore` can refuse a file changed since it was made
/// (an account made admin, a phone number rewritten, a trigger added). The MAC is over the
/// content, not the file's bytes: the whole schema (every object's type, name, table and SQL,
/// which names every column, and `user_version`), then every table but the seal's own, by name,
/// each row in key order, each value with its type and length. The same content gives the same
/// bytes whatever the file's page layout. Seals made before the schema was covered (`legacy`)
/// cover the tables' rows only; `SQLiteSchema` catches what they miss. This module writes the
/// canonical form and keeps the seal; the caller holds the key and computes the MAC.
extension SQLiteBackup {
    static let sealTable = "backup_seal"

    /// Hands the content of the store file at `path` to `consume`, in pieces, in its canonical form.
    public static func content(of path: String, legacy: Bool = false, _ consume: ([UInt8]) -> Void) throws {
        let db = try SQLiteConnection(path: path, readOnly: true)
        try content(of: db, legacy: legacy, consume)
    }

    static func content(of db: SQLiteConnection, legacy: Bool = false, _ consume: ([UInt8]) -> Void) throws {
        // The legacy form's LIKE took `_` for a wildcard, so a table named `sqliteXnotes` was left
        // out; it is kept only to check seals made with it.
        let list = try db.prepare(legacy ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> ? ORDER BY name"
                                         : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> ? ORDER BY name")
            .bind(.text(sealTable))
        var tables: [String] = []
        while try list.step() { tables.append(list.text(0)!) }
        var piece: [UInt8] = []
        func put(_ tag: UInt8, _ bytes: UnsafeRawBufferPointer) {
            piece.append(tag)
            withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { piece.append(contentsOf: $0) }
            piece.append(contentsOf: bytes)
        }
        if !legacy {
            let schema = try db.prepare("SELECT type, name, tbl_name, COALESCE(sql, '') FROM sqlite_master WHERE name <> ? ORDER BY type, name")
                .bind(.text(sealTable))
            while try schema.step() {
                piece.append(0x53)
                for column in Int32(0)..<4 { put(0x03, schema.bytes(column)) }
            }
            withUnsafeBytes(of: (try db.scalar("PRAGMA user_version") ?? 0).littleEndian) { put(0x55, $0) }
        }
        for table in tables {
            Array("table \(table)".utf8).withUnsafeBytes { put(0x54, $0) }
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let rows = try db.prepare("SELECT * FROM \(quoted) ORDER BY \(try keyOrder(of: quoted, in: db))")
            while try rows.step() {
                piece.append(0x52)
                for column in 0..<rows.columnCount {
                    switch rows.columnType(column) {
                    case SQLITE_NULL: put(0x00, UnsafeRawBufferPointer(start: nil, count: 0))
                    case SQLITE_INTEGER: withUnsafeBytes(of: rows.int(column).littleEndian) { put(0x01, $0) }
                    case SQLITE_FLOAT: withUnsafeBytes(of: rows.double(column).bitPattern.littleEndian) { put(0x02, $0) }
                    case SQLITE_TEXT: put(0x03, rows.bytes(column))
                    default: put(0x04, rows.bytes(column))
                    }
                }
                if piece.count >= 1 << 16 { consume(piece); piece.removeAll(keepingCapacity: true) }
            }
        }
        consume(piece)
    }

    /// Rows in the order of their key: the rowid, or a WITHOUT ROWID table's primary key.
    private static func keyOrder(of quoted: String, in db: SQLiteConnection) throws -> String {
        if (try? db.prepare("SELECT rowid FROM \(quoted) LIMIT 0")) != nil { return "rowid" }
        let info = try db.prepare("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk")
            .bind(.text(String(quoted.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")))
        var columns: [String] = []
        while try info.step() { columns.append("\"" + info.text(0)!.replacingOccurrences(of: "\"", with: "\"\"") + "\"") }
        return columns.isEmpty ? "1" : columns.joined(separator: ", ")
    }

    /// Writes `seal` into the file at `path`, replacing any earlier one.
    static func writeSeal(_ seal: String, into path: String) throws {
        let db = try SQLiteConnection(path: path)
        try db.execute("CREATE TABLE IF NOT EXISTS \(sealTable) (seal TEXT NOT NULL)")
        try db.execute("DELETE FROM \(sealTable)")
        try db.prepare("INSERT INTO \(sealTable) (seal) VALUES (?)").bind(.text(seal)).run()
    }

    /// The seal a backup carries; nil for one made without a seal.
    public static func seal(of path: String) throws -> String? {
        let db = try SQLiteConnection(path: path, readOnly: true)
        guard try db.scalar("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '\(sealTable)'") == 1 else { return nil }
        let s = try db.prepare("SELECT seal FROM \(sealTable)")
        return try s.step() ? s.text(0) : nil
    }

    /// Removes the seal from a restored store: it belongs to the backup file, not to the store.
    static func removeSeal(from path: String) throws {
        try SQLiteConnection(path: path).execute("DROP TABLE IF EXISTS \(sealTable)")
    }
}
