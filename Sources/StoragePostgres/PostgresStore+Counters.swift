import Aggregation
import DomainKernel
import Foundation
import Storage

/// The aggregate counters, changed in the same transaction as every report change that moves
/// them (under the writer lock), so all processes read numbers that match the reports.
extension PostgresStore: CounterStore {
    /// Adds counter changes inside the caller's transaction, one statement for every cell. Each
    /// changed cell is stamped with the transaction's data version (writers hold the writer lock,
    /// so no other writer's version can commit between the stamp and the commit) and kept at zero
    /// rather than removed, so `counterChanges` finds every area a change touched.
    static func writeCounters(_ changes: CounterChanges, _ db: PostgresConnection) throws {
        try writeCells(changes.nonZero, adding: true, db)
    }

    /// Writes cells in one statement: their numbers added to the stored ones (`adding`), or
    /// put in their place (a rebuild's repair); each stamped with the current data version.
    static func writeCells(_ cells: [(key: CounterKey, change: Int)], adding: Bool, _ db: PostgresConnection) throws {
        guard !cells.isEmpty else { return }
        let keys = counterKeyArrays(cells)
        try db.query("""
            INSERT INTO counters (layer, basis, area_id, day, kind, status, grp, n, data_version)
            SELECT layer, basis, area_id, day, kind, status, grp, n::bigint, \(currentVersionSQL)
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
                 AS t (layer, basis, area_id, day, kind, status, grp, n)
            ON CONFLICT (layer, basis, area_id, day, kind, status, grp)
                DO UPDATE SET n = \(adding ? "counters.n + " : "")excluded.n, data_version = excluded.data_version
            """, keys + [.textArray(cells.map { String($0.change) })])
    }

    /// The data version a counter cell written now is stamped with.
    static let currentVersionSQL = "(SELECT value FROM meta WHERE key = 'data_version')"

    /// The cells' keys as seven `text[]` parameters, in the column order of `counters`, for
    /// statements that read them through `unnest`.
    static func counterKeyArrays(_ cells: [(key: CounterKey, change: Int)]) -> [PostgresValue] {
        [.textArray(cells.map(\.key.layer)), .textArray(cells.map(\.key.basis.rawValue)), .textArray(cells.map(\.key.areaID)),
         .textArray(cells.map(\.key.day.iso)), .textArray(cells.map(\.key.kind.rawValue)), .textArray(cells.map(\.key.status.rawValue)),
         .textArray(cells.map { BreakdownGroup.column($0.key.group) })]
    }

    /// Opens a transaction that reads the counters from one snapshot. The table is locked before
    /// the snapshot is taken (its first query): a rebuild may put a new table in the counters'
    /// place (`replaceCounters`), and a snapshot taken before that commit would find the new
    /// table empty. Locked first, the transaction waits for the swap and then sees its rows.
    static func beginReadingCounters(readOnly: Bool) -> String {
        "BEGIN ISOLATION LEVEL REPEATABLE READ\(readOnly ? " READ ONLY" : ""); LOCK TABLE counters IN ACCESS SHARE MODE"
    }

    public func counterSnapshot(layer: String, basis: TimeBasis) async throws -> CounterSnapshot {
        // One snapshot for the version and the cells: whatever carries the version holds its numbers.
        try await pool.transaction("read counters", begin: Self.beginReadingCounters(readOnly: true)) { db in
            let version = try Self.dataVersion(db)
            let s = try db.query("""
                SELECT area_id, day, kind, status, grp, n FROM counters
                WHERE layer = $1 AND basis = $2 AND status IN ('verified', 'pending') AND n <> 0
                """, [.text(layer), .text(basis.rawValue)])
            return CounterSnapshot(dataVersion: version, cells: try Self.cells(s, layer: layer, basis: basis))
        }
    }

    public func counterChanges(layer: String, basis: TimeBasis, since: Int64, limit: Int) async throws -> CounterAreaChanges? {
        try await pool.transaction("read counter changes", begin: Self.beginReadingCounters(readOnly: true)) { db in
            let version = try Self.dataVersion(db)
            let rebuilt = try db.query("SELECT value FROM meta WHERE key = 'counters_rebuilt'").firstInt ?? 0
            guard rebuilt <= since else { return nil }
            let changed = try db.query("""
                SELECT DISTINCT area_id FROM counters WHERE layer = $1 AND basis = $2 AND data_version >= $3 LIMIT $4
                """, [.text(layer), .text(basis.rawValue), .int(since), .int(Int64(limit) + 1)])
            guard changed.count <= limit else { return nil }
            let areas = (0..<changed.count).map { changed.string($0, 0) }
            guard !areas.isEmpty else { return CounterAreaChanges(dataVersion: version, areaIDs: [], cells: []) }
            let s = try db.query("""
                SELECT area_id, day, kind, status, grp, n FROM counters
                WHERE layer = $1 AND basis = $2 AND area_id = ANY($3::text[]) AND status IN ('verified', 'pending') AND n <> 0
                """, [.text(layer), .text(basis.rawValue), .textArray(areas)])
            return CounterAreaChanges(dataVersion: version, areaIDs: areas, cells: try Self.cells(s, layer: layer, basis: basis))
        }
    }

    /// Counter cells from rows of `area_id, day, kind, status, grp, n`.
    private static func cells(_ s: PostgresResult, layer: String, basis: TimeBasis) throws -> [(CounterKey, Int)] {
        try (0..<s.count).map { i in
            guard let day = try s.day(i, 1), let status = try s.reportStatus(i, 3) else { throw StorageError.unreadable("counter cell") }
            return (CounterKey(layer: layer, areaID: s.string(i, 0), kind: try s.reportKind(i, 2), status: status, basis: basis, day: day,
                               group: s.group(i, 4)), Int(s.int(i, 5)))
        }
    }

    /// Every placement of a report in an area with the facts its counter cells depend on.
    static let placementFactsCopy = """
        COPY (SELECT a.layer, a.area_id, r.kind, r.status, r.group_key, r.occurred_on, r.submitted_at, r.verified_on
              FROM report_areas a JOIN reports r ON r.id = a.report_id) TO STDOUT
        """

    /// The counters recounted from the reports, as `Counters.contributions` defines them: the
    /// server streams every placement with its report's facts (one join, COPY), and the columnar
    /// recount SQLite uses counts them here. A GROUP BY on the server over the three time bases,
    /// with each submitted instant's day in the campus zone, took longer than the whole of this
    /// (figures in docs/performance.md), and the days are the ones intake computes, by the same code.
    static func recountedCounters(zone: TimeZone, _ db: PostgresConnection) throws -> CounterTable {
        var columns = ReportColumns()
        var kinds: [String: Int32] = [:], statuses: [String: Int32] = [:], groups: [String: Int32] = [:], places: [AreaRef: Int32] = [:]
        func intern<T: Hashable>(_ key: T, _ index: inout [T: Int32], add: () throws -> Void) rethrows -> Int32 {
            if let i = index[key] { return i }
            let i = Int32(index.count)
            try add()
            index[key] = i
            return i
        }
        try db.copyOut(placementFactsCopy) { bytes in
            let f = CopyTextRow(bytes).fields
            guard f.count == 8, let layer = f[0], let area = f[1], let kind = f[2], let status = f[3], let group = f[4],
                  let occurred = f[5].flatMap(Day.init(iso:)), let submitted = f[6] else {
                throw StorageError.unreadable("a report's placement")
            }
            let verified = try f[7].map { text throws(StorageError) in
                guard let day = Day(iso: text) else { throw .unreadable("\"\(text)\" is not a day") }
                return Int32(day.ordinal)
            }
            let report = Int32(columns.count)
            columns.kind.append(try intern(kind, &kinds) {
                guard let value = ReportKind(rawValue: kind) else { throw StorageError.unreadable("unknown report kind") }
                columns.kinds.append(value)
            })
            columns.status.append(try intern(status, &statuses) {
                guard let value = ReportStatus(rawValue: status) else { throw StorageError.unreadable("unknown report status") }
                columns.statuses.append(value)
            })
            columns.group.append(intern(group, &groups) { columns.groups.append(BreakdownGroup(group)) })
            columns.occurredOn.append(Int32(occurred.ordinal))
            columns.submittedOn.append(Int32(Day.containing(try Timestamp.parse(submitted), in: zone).ordinal))
            columns.verifiedOn.append(verified ?? ReportColumns.noDay)
            // Each placement counts on its own, so it stands as a report with one place.
            let place = AreaRef(layer: layer, areaID: area)
            columns.placementReport.append(report)
            columns.placementPlace.append(intern(place, &places) { columns.places.append(place) })
        }
        return Counters.recount(columns).table
    }

    /// The stored counters' nonzero cells.
    static func storedCounters(_ db: PostgresConnection) throws -> CounterTable {
        var table = CounterTable()
        try db.copyOut("COPY (SELECT layer, basis, area_id, day, kind, status, grp, n FROM counters WHERE n <> 0) TO STDOUT") { bytes in
            let f = CopyTextRow(bytes).fields
            guard f.count == 8, let layer = f[0], let basis = f[1].flatMap(TimeBasis.init(rawValue:)), let area = f[2],
                  let day = f[3].flatMap(Day.init(iso:)), let kind = f[4].flatMap(ReportKind.init(rawValue:)),
                  let status = f[5].flatMap(ReportStatus.init(rawValue:)), let group = f[6], let n = f[7].flatMap({ Int($0) }) else {
                throw StorageError.unreadable("counter cell")
            }
            table.counts[CounterKey(layer: layer, areaID: area, kind: kind, status: status, basis: basis, day: day, group: BreakdownGroup(group)), default: 0] += n
        }
        return table
    }

    public func checkCounters() async throws -> [CounterDifference] {
        let zone = timeZone
        // Counters and reports from one snapshot: a commit in between would show as a difference.
        return try await pool.transaction("check counters", begin: Self.beginReadingCounters(readOnly: false)) { db in
            try PostgresWrites(db: db, zone: zone).counterDifferences().wrong
        }
    }

    @discardableResult
    public func rebuildCounters() async throws -> Int {
        try await write("rebuild counters") { try $0.rebuildCounters() }
    }

    /// Most cells wrong (emptied or lost counters): every cell written again, into a new table
    /// that then takes the old one's place.
    ///
    /// Rows copied into a fresh table without indexes, the indexes built once after, take 2.0 s
    /// for 480,000 cells where `DELETE` and `COPY` into the indexed table took 3.4–6.2 s (every row
    /// inserted into a primary key of seven text columns one by one). Readers are not stopped
    /// while it is written: the old table serves them until the swap, whose `ACCESS EXCLUSIVE`
    /// lock is held only for the drop, the renames and the commit, and waits at most
    /// `lock_timeout` for reads under way (the rebuild then fails whole and can be run again).
    /// Plans that name the table are made again by PostgreSQL against the new one.
    static func replaceCounters(with recounted: CounterTable, _ db: PostgresConnection) throws {
        let version = String(try dataVersion(db))
        try db.execute("CREATE TABLE counters_rebuilt (LIKE counters INCLUDING DEFAULTS INCLUDING CONSTRAINTS)")
        var cells = recounted.counts.makeIterator()
        try db.copyIn("COPY counters_rebuilt (layer, basis, area_id, day, kind, status, grp, n, data_version) FROM STDIN WITH (FORMAT csv)") {
            var chunk: [UInt8] = []
            while chunk.count < 1 << 20, let (k, n) = cells.next() {
                guard n != 0 else { continue }
                ReportCSV.append([k.layer, k.basis.rawValue, k.areaID, k.day.iso, k.kind.rawValue, k.status.rawValue, BreakdownGroup.column(k.group), String(n), version],
                                 to: &chunk)
            }
            return chunk.isEmpty ? nil : chunk
        }
        try db.execute("""
            ALTER TABLE counters_rebuilt ADD CONSTRAINT counters_rebuilt_pkey PRIMARY KEY (layer, basis, area_id, day, kind, status, grp);
            CREATE INDEX counters_rebuilt_changed ON counters_rebuilt (layer, basis, data_version);
            SET LOCAL lock_timeout = '5s';
            DROP TABLE counters;
            ALTER TABLE counters_rebuilt RENAME TO counters;
            ALTER INDEX counters_rebuilt_pkey RENAME TO counters_pkey;
            ALTER INDEX counters_rebuilt_changed RENAME TO counters_changed
            """)
    }
}

extension PostgresWrites: CounterWrites {
    func storedCounters() throws -> CounterTable { try PostgresStore.storedCounters(db) }

    func recountedCounters() throws -> CounterTable { try PostgresStore.recountedCounters(zone: zone, db) }

    func repair(_ wrong: [CounterDifference], recounted: CounterTable) throws {
        if wrong.count <= rebuildUpsertLimit {
            // A repair of a few cells writes those cells (zero included), in one statement.
            try PostgresStore.writeCells(wrong.map { (key: $0.key, change: $0.recomputed) }, adding: false, db)
        } else {
            try PostgresStore.replaceCounters(with: recounted, db)
        }
    }

    func markRebuilt() throws {
        try db.execute("UPDATE meta SET value = \(PostgresStore.currentVersionSQL) WHERE key = 'counters_rebuilt'")
    }
}
