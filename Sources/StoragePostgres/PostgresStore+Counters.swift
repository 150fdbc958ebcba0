import Aggregation
import DomainKernel
import Foundation
import Storage

/// The aggregate counters, changed in the same transaction as every report change that moves
/// them (under the writer lock), so all processes read numbers that match the reports.
extension PostgresStore: CounterStore {
    /// Adds counter changes inside the caller's transaction; cells that reach zero are removed.
    static func writeCounters(_ changes: CounterChanges, _ db: PostgresConnection) throws {
        for (key, change) in changes.nonZero {
            let k: [PostgresValue] = [.text(key.layer), .text(key.basis.rawValue), .text(key.areaID), .day(key.day),
                                      .text(key.kind.rawValue), .text(key.status.rawValue), .text(key.group)]
            try db.query("""
                INSERT INTO counters (layer, basis, area_id, day, kind, status, grp, n) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (layer, basis, area_id, day, kind, status, grp) DO UPDATE SET n = counters.n + excluded.n
                """, k + [.int(Int64(change))])
            if change < 0 {
                try db.query("""
                    DELETE FROM counters WHERE layer = $1 AND basis = $2 AND area_id = $3 AND day = $4 AND kind = $5 AND status = $6 AND grp = $7 AND n = 0
                    """, k)
            }
        }
    }

    public func counterSnapshot(layer: String, basis: TimeBasis) async throws -> CounterSnapshot {
        // One snapshot for the version and the cells: whatever carries the version holds its numbers.
        try await pool.transaction("read counters", begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { db in
            let version = try db.query("SELECT value FROM meta WHERE key = 'data_version'").firstInt ?? 0
            let s = try db.query("""
                SELECT area_id, day, kind, status, grp, n FROM counters
                WHERE layer = $1 AND basis = $2 AND status IN ('verified', 'pending')
                """, [.text(layer), .text(basis.rawValue)])
            var out: [(CounterKey, Int)] = []
            out.reserveCapacity(s.count)
            for i in 0..<s.count {
                guard let day = try s.day(i, 1), let status = try s.reportStatus(i, 3) else { throw StorageError.unreadable("counter cell") }
                out.append((CounterKey(layer: layer, areaID: s.string(i, 0), kind: try s.reportKind(i, 2), status: status, basis: basis, day: day,
                                       group: s.string(i, 4)), Int(s.int(i, 5))))
            }
            return CounterSnapshot(dataVersion: version, cells: out)
        }
    }

    /// Every stored counter cell.
    static func storedCounters(_ db: PostgresConnection) throws -> CounterTable {
        let s = try db.query("SELECT layer, basis, area_id, day, kind, status, grp, n FROM counters")
        var table = CounterTable()
        for i in 0..<s.count {
            guard let basis = TimeBasis(rawValue: s.string(i, 1)), let day = try s.day(i, 3), let status = try s.reportStatus(i, 5) else {
                throw StorageError.unreadable("counter cell")
            }
            let key = CounterKey(layer: s.string(i, 0), areaID: s.string(i, 2), kind: try s.reportKind(i, 4), status: status, basis: basis, day: day,
                                 group: s.string(i, 6))
            table.counts[key, default: 0] += Int(s.int(i, 7))
        }
        return table
    }

    /// The counters recomputed from the reports and their area assignments.
    static func recomputedCounters(zone: TimeZone, _ db: PostgresConnection) throws -> CounterTable {
        let areas = try db.query("SELECT report_id, layer, area_id FROM report_areas")
        var byReport: [String: [AreaRef]] = [:]
        for i in 0..<areas.count { byReport[areas.string(i, 0), default: []].append(AreaRef(layer: areas.string(i, 1), areaID: areas.string(i, 2))) }
        let s = try db.query("SELECT id, kind, status, occurred_on, submitted_at, verified_on, group_key FROM reports")
        var all: [ReportFacts] = []
        all.reserveCapacity(s.count)
        for i in 0..<s.count {
            guard let status = try s.reportStatus(i, 2), let occurred = try s.day(i, 3) else { throw StorageError.unreadable("report \(s.string(i, 0))") }
            all.append(ReportFacts(kind: try s.reportKind(i, 1), status: status, occurredOn: occurred,
                                   submittedOn: Day.containing(Timestamp.parse(s.string(i, 4)), in: zone),
                                   verifiedOn: try s.day(i, 5), group: s.string(i, 6), areas: byReport[s.string(i, 0)] ?? []))
        }
        return CounterTable.recompute(from: all)
    }

    public func checkCounters() async throws -> [CounterDifference] {
        let zone = timeZone
        // Counters and reports from one snapshot: a commit in between would show as a difference.
        return try await pool.transaction("check counters", begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { db in
            let stored = try Self.storedCounters(db)
            let recomputed = try Self.recomputedCounters(zone: zone, db)
            return stored.differences(from: recomputed).map { CounterDifference(key: $0.key, stored: $0.mine, recomputed: $0.theirs) }
        }
    }

    @discardableResult
    public func rebuildCounters() async throws -> Int {
        let zone = timeZone
        return try await pool.transaction("rebuild counters") { db in
            try Self.lockWriter(db)
            let stored = try Self.storedCounters(db)
            let recomputed = try Self.recomputedCounters(zone: zone, db)
            let wrong = stored.differences(from: recomputed).count
            guard wrong > 0 else { return 0 }
            try db.query("DELETE FROM counters")
            for (key, n) in recomputed.counts where n != 0 {
                try db.query("INSERT INTO counters (layer, basis, area_id, day, kind, status, grp, n) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                             [.text(key.layer), .text(key.basis.rawValue), .text(key.areaID), .day(key.day), .text(key.kind.rawValue),
                              .text(key.status.rawValue), .text(key.group), .int(Int64(n))])
            }
            try Self.bumpDataVersion(db)
            return wrong
        }
    }
}
