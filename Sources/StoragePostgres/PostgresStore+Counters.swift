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
        let cells = changes.nonZero
        guard !cells.isEmpty else { return }
        let keys = counterKeyArrays(cells)
        try db.query("""
            INSERT INTO counters (layer, basis, area_id, day, kind, status, grp, n, data_version)
            SELECT layer, basis, area_id, day, kind, status, grp, n::bigint, \(currentVersionSQL)
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
                 AS t (layer, basis, area_id, day, kind, status, grp, n)
            ON CONFLICT (layer, basis, area_id, day, kind, status, grp) DO UPDATE SET n = counters.n + excluded.n, data_version = excluded.data_version
            """, keys + [.textArray(cells.map { String($0.change) })])
    }

    /// The data version a counter cell written now is stamped with.
    static let currentVersionSQL = "(SELECT value FROM meta WHERE key = 'data_version')"

    /// The cells' keys as seven `text[]` parameters, in the column order of `counters`, for
    /// statements that read them through `unnest`.
    static func counterKeyArrays(_ cells: [(key: CounterKey, change: Int)]) -> [PostgresValue] {
        [.textArray(cells.map(\.key.layer)), .textArray(cells.map(\.key.basis.rawValue)), .textArray(cells.map(\.key.areaID)),
         .textArray(cells.map(\.key.day.iso)), .textArray(cells.map(\.key.kind.rawValue)), .textArray(cells.map(\.key.status.rawValue)),
         .textArray(cells.map(\.key.group))]
    }

    public func counterSnapshot(layer: String, basis: TimeBasis) async throws -> CounterSnapshot {
        // One snapshot for the version and the cells: whatever carries the version holds its numbers.
        try await pool.transaction("read counters", begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { db in
            let version = try db.query("SELECT value FROM meta WHERE key = 'data_version'").firstInt ?? 0
            let s = try db.query("""
                SELECT area_id, day, kind, status, grp, n FROM counters
                WHERE layer = $1 AND basis = $2 AND status IN ('verified', 'pending') AND n <> 0
                """, [.text(layer), .text(basis.rawValue)])
            return CounterSnapshot(dataVersion: version, cells: try Self.cells(s, layer: layer, basis: basis))
        }
    }

    public func counterChanges(layer: String, basis: TimeBasis, since: Int64, limit: Int) async throws -> CounterAreaChanges? {
        try await pool.transaction("read counter changes", begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { db in
            let version = try db.query("SELECT value FROM meta WHERE key = 'data_version'").firstInt ?? 0
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
                               group: s.string(i, 4)), Int(s.int(i, 5)))
        }
    }

    /// The counters recounted from the reports by the server, as `Counters.contributions` defines
    /// them: per area, the occurred and submitted days (the submitted instant's day in the campus
    /// zone) always, the verified day while verified. One GROUP BY where the data lives, instead
    /// of every report crossing the network.
    static let recountSQL = """
        SELECT a.layer, b.basis, a.area_id, b.day, r.kind, r.status, r.group_key AS grp, count(*) AS n
        FROM reports r
        JOIN report_areas a ON a.report_id = r.id
        CROSS JOIN LATERAL (VALUES
            ('occurred', r.occurred_on),
            ('submitted', to_char(r.submitted_at::timestamptz AT TIME ZONE $1, 'YYYY-MM-DD')),
            ('verified', CASE WHEN r.status = 'verified' THEN r.verified_on END)
        ) AS b (basis, day)
        WHERE b.day IS NOT NULL
        GROUP BY a.layer, b.basis, a.area_id, b.day, r.kind, r.status, r.group_key
        """

    /// The cells where the temporary table `recount` and the stored counters disagree, as
    /// columns key…, stored n, recounted n.
    static let differencesSQL = """
        SELECT coalesce(c.layer, r.layer) AS layer, coalesce(c.basis, r.basis) AS basis, coalesce(c.area_id, r.area_id) AS area_id,
               coalesce(c.day, r.day) AS day, coalesce(c.kind, r.kind) AS kind, coalesce(c.status, r.status) AS status,
               coalesce(c.grp, r.grp) AS grp, coalesce(c.n, 0) AS stored, coalesce(r.n, 0) AS recounted
        FROM counters c FULL JOIN recount r
          ON (c.layer, c.basis, c.area_id, c.day, c.kind, c.status, c.grp) = (r.layer, r.basis, r.area_id, r.day, r.kind, r.status, r.grp)
        WHERE coalesce(c.n, 0) <> coalesce(r.n, 0)
        """

    /// Makes the temporary table `recount` (dropped at commit).
    static func makeRecount(zone: TimeZone, _ db: PostgresConnection) throws {
        try db.query("CREATE TEMPORARY TABLE recount ON COMMIT DROP AS " + recountSQL, [.text(zone.identifier)], prepare: false)
    }

    /// Makes the temporary table `recount` and returns the cells where it and the stored
    /// counters disagree.
    static func recount(zone: TimeZone, _ db: PostgresConnection) throws -> [CounterDifference] {
        try makeRecount(zone: zone, db)
        let s = try db.query(differencesSQL, prepare: false)
        return try (0..<s.count).map { i in
            guard let basis = TimeBasis(rawValue: s.string(i, 1)), let day = try s.day(i, 3), let status = try s.reportStatus(i, 5) else {
                throw StorageError.unreadable("counter cell")
            }
            let key = CounterKey(layer: s.string(i, 0), areaID: s.string(i, 2), kind: try s.reportKind(i, 4), status: status, basis: basis, day: day,
                                 group: s.string(i, 6))
            return CounterDifference(key: key, stored: Int(s.int(i, 7)), recomputed: Int(s.int(i, 8)))
        }
    }

    public func checkCounters() async throws -> [CounterDifference] {
        let zone = timeZone
        // Counters and reports from one snapshot: a commit in between would show as a difference.
        return try await pool.transaction("check counters", begin: "BEGIN ISOLATION LEVEL REPEATABLE READ") { db in
            try Self.recount(zone: zone, db)
        }
    }

    @discardableResult
    public func rebuildCounters() async throws -> Int {
        let zone = timeZone
        return try await pool.writeTransaction("rebuild counters") { db in
            try Self.makeRecount(zone: zone, db)
            let wrong = try db.query("SELECT count(*) FROM (\(Self.differencesSQL)) d", prepare: false).firstInt ?? 0
            guard wrong > 0 else { return 0 }
            // Every cell replaced from the recount where the data lives, stamped with the bumped
            // version, which is recorded as the last rebuild: live views older than it are
            // computed again whole (the cells removed here leave no zero row behind to find).
            try Self.bumpDataVersion(db)
            try db.execute("""
                DELETE FROM counters;
                INSERT INTO counters (layer, basis, area_id, day, kind, status, grp, n, data_version)
                    SELECT layer, basis, area_id, day, kind, status, grp, n, \(Self.currentVersionSQL) FROM recount;
                UPDATE meta SET value = \(Self.currentVersionSQL) WHERE key = 'counters_rebuilt'
                """)
            return Int(wrong)
        }
    }
}

