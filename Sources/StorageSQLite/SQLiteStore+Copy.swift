import CSQLite
import Foundation
import Storage

extension SQLiteStore: StoreCopy {
    public func isEmpty() async throws -> Bool {
        try await run { db in
            try db.scalar("SELECT (SELECT count(*) FROM layers) + (SELECT count(*) FROM accounts) + (SELECT count(*) FROM reports) + (SELECT count(*) FROM audit)") == 0
        }
    }

    public func rows(of table: StoreTable, offset: Int, limit: Int) async throws -> [[StoredValue]] {
        try await run { db in
            let s = try db.prepare(table.pageSQL(select: table.columns, limitPlaceholder: "?", offsetPlaceholder: "?"))
                .bind(.int(Int64(limit)), .int(Int64(offset)))
            var out: [[StoredValue]] = []
            while try s.step() { out.append((0..<Int32(table.columns.count)).map { s.storedValue($0) }) }
            return out
        }
    }

    public func insert(_ rows: [[StoredValue]], into table: StoreTable) async throws {
        guard !rows.isEmpty else { return }
        try await run { db in
            try db.transaction {
                let insert = try db.prepare(table.insertSQL(rows: 1) { _ in "?" })
                for row in rows {
                    try insert.bind(values: row.map { value -> SQLiteStatement.Value in
                        switch value {
                        case .null: .null
                        case .integer(let n): .int(n)
                        case .real(let d): .double(d)
                        case .text(let t): .text(t)
                        }
                    }).run()
                }
            }
        }
    }
}

extension SQLiteStatement {
    /// A column with its stored type: a real keeps every digit (as text SQLite would give 15).
    func storedValue(_ column: Int32) -> StoredValue {
        switch columnType(column) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .integer(int(column))
        case SQLITE_FLOAT: .real(double(column))
        default: text(column).map { .text($0) } ?? .null
        }
    }
}
