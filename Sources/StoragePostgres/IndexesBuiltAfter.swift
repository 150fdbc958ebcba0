/// The indexes and constraints of tables that a bulk write fills from empty: dropped before the
/// rows and built again after them, from the definitions the catalog held, in the same
/// transaction (a rollback puts them back as they were).
///
/// A b-tree built once from all its rows is a sort; filled row by row it is a random insert per
/// row into pages that soon no longer fit in the cache. Measured on 1,000,000 imported reports
/// (412,192 area rows, 480,863 counter cells) on a throw-away server: the three `COPY`s took
/// 5.8 + 2.7 + 2.7 s into the indexed tables, and 2.6 + 0.1 + 0.3 s without the secondary
/// indexes, their rebuild 2.5 s (the foreign key's check 0.35 s of it): 11.3 s against 5.5 s.
/// `pg_restore` loads a dump the same way.
///
/// Only empty tables qualify, and only when every lock can be had at once (`NOWAIT`): dropping
/// an index takes `ACCESS EXCLUSIVE`, so readers of these tables wait until the commit, which
/// on an installation with nothing stored yet holds them back from nothing. A reader already
/// inside one of the tables means the write keeps the indexes and goes row by row instead of
/// queueing behind it, and, taking every lock in one statement before writing, it cannot
/// deadlock with readers that wait for it.
///
/// Kept: primary and unique keys that a foreign key refers to (the reports' id, which also
/// refuses a repeated id during the `COPY` itself), and `CHECK` constraints, which cost a row
/// nothing to keep.
struct IndexesBuiltAfter {
    private let builds: [String]

    /// Drops the secondary indexes and constraints of `tables` when all of them are empty and
    /// none is in use; nil, with nothing dropped or locked, otherwise.
    static func drop(on tables: [String], _ db: PostgresConnection) throws(PostgresError) -> IndexesBuiltAfter? {
        let names = tables.map { "'\($0)'::regclass" }.joined(separator: ", ")
        let empty = tables.map { "NOT EXISTS (SELECT 1 FROM \($0))" }.joined(separator: " AND ")
        guard try db.query("SELECT \(empty)", prepare: false).string(0, 0) == "t" else { return nil }
        try db.execute("SAVEPOINT indexes_built_after")
        do {
            try db.execute("LOCK TABLE \(tables.joined(separator: ", ")) IN ACCESS EXCLUSIVE MODE NOWAIT")
        } catch where error.sqlstate == "55P03" {
            try db.execute("ROLLBACK TO SAVEPOINT indexes_built_after; RELEASE SAVEPOINT indexes_built_after")
            return nil
        }
        try db.execute("RELEASE SAVEPOINT indexes_built_after")
        // Foreign keys are dropped first and built last: a key may refer to an index of the set.
        let found = try db.query("""
            SELECT 'ALTER TABLE ' || c.conrelid::regclass || ' DROP CONSTRAINT ' || quote_ident(c.conname),
                   'ALTER TABLE ' || c.conrelid::regclass || ' ADD CONSTRAINT ' || quote_ident(c.conname) || ' ' || pg_get_constraintdef(c.oid),
                   c.contype = 'f'
            FROM pg_constraint c
            WHERE c.conrelid IN (\(names)) AND c.contype IN ('p', 'u', 'f')
              AND (c.contype = 'f' OR NOT EXISTS (SELECT 1 FROM pg_constraint r WHERE r.contype = 'f' AND r.conindid = c.conindid))
            UNION ALL
            SELECT 'DROP INDEX ' || i.indexrelid::regclass, pg_get_indexdef(i.indexrelid), false
            FROM pg_index i
            WHERE i.indrelid IN (\(names)) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
            ORDER BY 3 DESC, 1
            """, prepare: false)
        var drops: [String] = [], builds: [String] = []
        for row in 0..<found.count {
            drops.append(found.string(row, 0))
            builds.append(found.string(row, 1))
        }
        guard !drops.isEmpty else { return IndexesBuiltAfter(builds: []) }
        try db.execute(drops.joined(separator: ";\n"))
        return IndexesBuiltAfter(builds: builds.reversed())
    }

    /// Builds what `drop` took, checking the rows as it goes: a row that breaks a key fails the
    /// statement as it would have failed its `COPY`.
    func build(_ db: PostgresConnection) throws(PostgresError) {
        guard !builds.isEmpty else { return }
        try db.execute(builds.joined(separator: ";\n"))
    }
}
