import Foundation
import Storage

extension PostgresStore: StoreCopy {
    public func isEmpty() async throws -> Bool {
        try await pool.run("check the store is empty") { db in
            try db.query("SELECT (SELECT count(*) FROM layers) + (SELECT count(*) FROM accounts) + (SELECT count(*) FROM reports) + (SELECT count(*) FROM audit)")
                .firstInt == 0
        }
    }

    public func rows(of table: StoreTable, offset: Int, limit: Int) async throws -> [[StoredValue]] {
        // Booleans leave as 0 or 1, as SQLite keeps them; every other value as PostgreSQL's text,
        // which for double precision is the shortest text that reads back to the same number.
        let select = table.columns.map { table.booleans.contains($0) ? "\($0)::integer" : $0 }
        return try await pool.run("read \(table.name)") { db in
            let s = try db.query(table.pageSQL(select: select, limitPlaceholder: "$1", offsetPlaceholder: "$2"), [.int(Int64(limit)), .int(Int64(offset))])
            return (0..<s.count).map { i in (0..<table.columns.count).map { s.text(i, $0).map(StoredValue.text) ?? .null } }
        }
    }

    public func insert(_ rows: [[StoredValue]], into table: StoreTable) async throws {
        guard !rows.isEmpty else { return }
        // Rows go in chunks of one multi-row INSERT each, within PostgreSQL's 65,535 parameters.
        let chunk = max(1, 30_000 / table.columns.count)
        try await pool.transaction("copy into \(table.name)") { db in
            for start in stride(from: 0, to: rows.count, by: chunk) {
                let part = rows[start..<min(start + chunk, rows.count)]
                let values: [PostgresValue] = part.flatMap { row in
                    row.map { value -> PostgresValue in
                        switch value {
                        case .null: .null
                        case .integer(let n): .int(n)
                        case .real(let d): .double(d)
                        case .text(let t): .text(t)
                        }
                    }
                }
                try db.query(table.insertSQL(rows: part.count) { "$\($0)" }, values, prepare: part.count == chunk)
            }
        }
    }
}
