import Aggregation
import DomainKernel
import Foundation
import ReportVerification
import Storage

/// The aggregate counters: counts per (layer, area, kind, status, basis, day, group), changed in
/// the same transaction as the report change that moves them, so every replica reading the
/// database sees numbers that match the reports.
extension SQLiteStore: CounterStore {
    /// Adds counter changes inside the caller's transaction; cells that reach zero are removed.
    static func writeCounters(_ changes: CounterChanges, _ db: SQLiteConnection) throws {
        let upsert = try db.cached("""
            INSERT INTO counters (layer, basis, area_id, day, kind, status, grp, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (layer, basis, area_id, day, kind, status, grp) DO UPDATE SET n = n + excluded.n
            """)
        let prune = try db.cached("""
            DELETE FROM counters WHERE layer = ? AND basis = ? AND area_id = ? AND day = ? AND kind = ? AND status = ? AND grp = ? AND n = 0
            """)
        for (key, change) in changes.nonZero {
            let k: [SQLiteStatement.Value] = [.text(key.layer), .text(key.basis.rawValue), .text(key.areaID), .day(key.day),
                                               .text(key.kind.rawValue), .text(key.status.rawValue), .text(key.group)]
            try upsert.bind(values: k + [.int(Int64(change))]).run()
            if change < 0 { try prune.bind(values: k).run() }
        }
    }

    public func counterSnapshot(layer: String, basis: TimeBasis) async throws -> CounterSnapshot {
        try await run { db in
            try db.cached("BEGIN").bind().run()
            defer { try? db.cached("COMMIT").bind().run() }
            let read = try db.cached("SELECT value FROM meta WHERE key = 'data_version'").bind()
            let version = try read.firstInt() ?? 0
            try read.finish()
            let s = try db.cached("""
                SELECT area_id, day, kind, status, grp, n FROM counters
                WHERE layer = ? AND basis = ? AND status IN ('verified', 'pending')
                """).bind(.text(layer), .text(basis.rawValue))
            var out: [(CounterKey, Int)] = []
            while try s.step() {
                guard let day = try s.day(1), let status = try s.reportStatus(3) else { throw StorageError.unreadable("counter cell") }
                out.append((CounterKey(layer: layer, areaID: s.text(0)!, kind: try s.reportKind(2), status: status, basis: basis, day: day,
                                       group: s.text(4)!), Int(s.int(5))))
            }
            return CounterSnapshot(dataVersion: version, cells: out)
        }
    }

    /// Every stored counter cell.
    static func storedCounters(_ db: SQLiteConnection) throws -> CounterTable {
        let s = try db.prepare("SELECT layer, basis, area_id, day, kind, status, grp, n FROM counters")
        var table = CounterTable()
        while try s.step() {
            guard let basis = TimeBasis(rawValue: s.text(1)!), let day = try s.day(3), let status = try s.reportStatus(5) else {
                throw StorageError.unreadable("counter cell")
            }
            let key = CounterKey(layer: s.text(0)!, areaID: s.text(2)!, kind: try s.reportKind(4), status: status, basis: basis, day: day, group: s.text(6)!)
            table.counts[key, default: 0] += Int(s.int(7))
        }
        return table
    }

    /// The counters recomputed from the reports and their area assignments.
    static func recomputedCounters(zone: TimeZone, _ db: SQLiteConnection) throws -> CounterTable {
        let areas = try db.prepare("SELECT report_id, layer, area_id FROM report_areas ORDER BY report_id")
        var byReport: [String: [AreaRef]] = [:]
        while try areas.step() { byReport[areas.text(0)!, default: []].append(AreaRef(layer: areas.text(1)!, areaID: areas.text(2)!)) }
        let s = try db.prepare("SELECT id, kind, status, occurred_on, submitted_at, verified_on, group_key FROM reports")
        var all: [ReportFacts] = []
        while try s.step() {
            guard let status = try s.reportStatus(2), let occurred = try s.day(3) else { throw StorageError.unreadable("report \(s.text(0) ?? "")") }
            all.append(ReportFacts(kind: try s.reportKind(1), status: status, occurredOn: occurred,
                                   submittedOn: Day.containing(Timestamp.parse(s.text(4)!), in: zone),
                                   verifiedOn: try s.day(5), group: s.text(6) ?? "", areas: byReport[s.text(0)!] ?? []))
        }
        // The columnar recount: the same cells as adding each report's contributions one by one.
        return CounterTable.recompute(from: all)
    }

    public func checkCounters() async throws -> [CounterDifference] {
        let zone = timeZone
        return try await run { db in
            let stored = try Self.storedCounters(db)
            let recomputed = try Self.recomputedCounters(zone: zone, db)
            return stored.differences(from: recomputed).map { CounterDifference(key: $0.key, stored: $0.mine, recomputed: $0.theirs) }
        }
    }

    @discardableResult
    public func rebuildCounters() async throws -> Int {
        let zone = timeZone
        return try await run { db in
            try db.transaction { try Self.rebuildCounters(zone: zone, db) }
        }
    }

    static func rebuildCounters(zone: TimeZone, _ db: SQLiteConnection) throws -> Int {
        let stored = try storedCounters(db)
        let recomputed = try recomputedCounters(zone: zone, db)
        let wrong = stored.differences(from: recomputed).count
        guard wrong > 0 else { return 0 }
        try db.execute("DELETE FROM counters")
        let insert = try db.prepare("INSERT INTO counters (layer, basis, area_id, day, kind, status, grp, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        for (key, n) in recomputed.counts where n != 0 {
            try insert.bind(.text(key.layer), .text(key.basis.rawValue), .text(key.areaID), .day(key.day), .text(key.kind.rawValue),
                            .text(key.status.rawValue), .text(key.group), .int(Int64(n))).run()
        }
        try db.execute("UPDATE meta SET value = value + 1 WHERE key = 'data_version'")
        return wrong
    }

    /// Fills the breakdown group of reports stored before groups were kept, from their payload.
    static func backfillGroups(_ db: SQLiteConnection) throws {
        let s = try db.prepare("SELECT id, payload FROM reports WHERE kind = 'covid' AND group_key = ''")
        var updates: [(String, String)] = []
        while try s.step() {
            if let report = try? JSONDecoder().decode(Report.self, from: Data(s.text(1)!.utf8)) { updates.append((s.text(0)!, report.breakdownGroup)) }
        }
        let update = try db.prepare("UPDATE reports SET group_key = ? WHERE id = ?")
        for (id, group) in updates { try update.bind(.text(group), .text(id)).run() }
    }
}
