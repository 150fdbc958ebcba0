import Aggregation
import DomainKernel
import Foundation
import ReportVerification
import Storage

/// The aggregate counters: counts per (layer, area, kind, status, basis, day, group), changed in
/// the same transaction as the report change that moves them, so every replica reading the
/// database sees numbers that match the reports.
extension SQLiteStore: CounterStore {
    /// Adds counter changes inside the caller's transaction. Each changed cell is stamped with
    /// the data version of the transaction (after its bump, if it bumps) and kept at zero rather
    /// than removed, so `counterChanges` finds every area a change touched.
    static func writeCounters(_ changes: CounterChanges, _ db: SQLiteConnection) throws {
        try upsertCounters(changes.nonZero.map { ($0.key, $0.change) }, adding: true, db)
    }

    /// Adds `cells` to the stored counts (`adding`) or sets the counts to them, stamping each
    /// cell with the current data version.
    static func upsertCounters(_ cells: [(CounterKey, Int)], adding: Bool, _ db: SQLiteConnection) throws {
        let upsert = try db.cached("""
            INSERT INTO counters (layer, basis, area_id, day, kind, status, grp, n, data_version)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT value FROM meta WHERE key = 'data_version'))
            ON CONFLICT (layer, basis, area_id, day, kind, status, grp) DO UPDATE SET n = \(adding ? "n + " : "")excluded.n,
                data_version = excluded.data_version
            """)
        for (key, n) in cells {
            try upsert.bind(.text(key.layer), .text(key.basis.rawValue), .text(key.areaID), .day(key.day), .text(key.kind.rawValue),
                            .text(key.status.rawValue), .group(key.group), .int(Int64(n))).run()
        }
    }

    public func counterSnapshot(layer: String, basis: TimeBasis) async throws -> CounterSnapshot {
        try await run { db in
            try db.cached("BEGIN").bind().run()
            defer { try? db.cached("COMMIT").bind().run() }
            let version = try Self.meta("data_version", db)
            let s = try db.cached("""
                SELECT area_id, day, kind, status, grp, n FROM counters
                WHERE layer = ? AND basis = ? AND status IN ('verified', 'pending') AND n <> 0
                """).bind(.text(layer), .text(basis.rawValue))
            var out: [(CounterKey, Int)] = []
            while try s.step() { out.append(try Self.cell(s, layer: layer, basis: basis)) }
            return CounterSnapshot(dataVersion: version, cells: out)
        }
    }

    public func counterChanges(layer: String, basis: TimeBasis, since: Int64, limit: Int) async throws -> CounterAreaChanges? {
        try await run { db in
            try db.cached("BEGIN").bind().run()
            defer { try? db.cached("COMMIT").bind().run() }
            let version = try Self.meta("data_version", db)
            guard try Self.meta("counters_rebuilt", db) <= since else { return nil }
            let changed = try db.cached("""
                SELECT DISTINCT area_id FROM counters WHERE layer = ? AND basis = ? AND data_version >= ? LIMIT ?
                """).bind(.text(layer), .text(basis.rawValue), .int(since), .int(Int64(limit) + 1))
            var areas: [String] = []
            while try changed.step() { areas.append(changed.text(0)!) }
            try changed.finish()
            guard areas.count <= limit else { return nil }
            let s = try db.cached("""
                SELECT area_id, day, kind, status, grp, n FROM counters
                WHERE layer = ? AND basis = ? AND area_id = ? AND status IN ('verified', 'pending') AND n <> 0
                """)
            var out: [(CounterKey, Int)] = []
            for area in areas {
                try s.bind(.text(layer), .text(basis.rawValue), .text(area))
                while try s.step() { out.append(try Self.cell(s, layer: layer, basis: basis)) }
            }
            return CounterAreaChanges(dataVersion: version, areaIDs: areas, cells: out)
        }
    }

    /// A `meta` value (the data version, the last rebuild's), inside the caller's transaction.
    private static func meta(_ key: String, _ db: SQLiteConnection) throws -> Int64 {
        let read = try db.cached("SELECT value FROM meta WHERE key = ?").bind(.text(key))
        defer { try? read.finish() }
        return try read.firstInt() ?? 0
    }

    /// A counter cell from a row of `area_id, day, kind, status, grp, n`.
    private static func cell(_ s: SQLiteStatement, layer: String, basis: TimeBasis) throws -> (CounterKey, Int) {
        guard let day = try s.day(1), let status = try s.reportStatus(3) else { throw StorageError.unreadable("counter cell") }
        return (CounterKey(layer: layer, areaID: s.text(0)!, kind: try s.reportKind(2), status: status, basis: basis, day: day, group: s.group(4)),
                Int(s.int(5)))
    }

    /// Every stored counter cell.
    static func storedCounters(_ db: SQLiteConnection) throws -> CounterTable {
        let s = try db.prepare("SELECT layer, basis, area_id, day, kind, status, grp, n FROM counters WHERE n <> 0")
        var table = CounterTable()
        while try s.step() {
            guard let basis = TimeBasis(rawValue: s.text(1)!), let day = try s.day(3), let status = try s.reportStatus(5) else {
                throw StorageError.unreadable("counter cell")
            }
            let key = CounterKey(layer: s.text(0)!, areaID: s.text(2)!, kind: try s.reportKind(4), status: status, basis: basis, day: day, group: s.group(6))
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
                                   submittedOn: Day.containing(try Timestamp.parse(s.text(4)!), in: zone),
                                   verifiedOn: try s.day(5), group: s.group(6), areas: byReport[s.text(0)!] ?? []))
        }
        // The columnar recount: the same cells as adding each report's contributions one by one.
        return CounterTable.recompute(from: all)
    }

    public func checkCounters() async throws -> [CounterDifference] {
        let zone = timeZone
        return try await run { db in try SQLiteWrites(db: db, zone: zone).counterDifferences().wrong }
    }

    @discardableResult
    public func rebuildCounters() async throws -> Int {
        try await bulkWrite { try $0.rebuildCounters() }
    }

    /// Fills the empty counters of schema 8 (before cells had a data version) from the reports.
    static func fillCounters(zone: TimeZone, _ db: SQLiteConnection) throws {
        let insert = try db.prepare("INSERT INTO counters (layer, basis, area_id, day, kind, status, grp, n) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        for (key, n) in try recomputedCounters(zone: zone, db).counts {
            try insert.bind(.text(key.layer), .text(key.basis.rawValue), .text(key.areaID), .day(key.day), .text(key.kind.rawValue),
                            .text(key.status.rawValue), .group(key.group), .int(Int64(n))).run()
        }
    }

    /// Fills the breakdown group of reports stored before groups were kept, from their payload.
    static func backfillGroups(_ db: SQLiteConnection) throws {
        let s = try db.prepare("SELECT id, payload FROM reports WHERE kind = 'covid' AND group_key = ''")
        var updates: [(String, BreakdownGroup?)] = []
        while try s.step() {
            if let report = try? JSONDecoder().decode(Report.self, from: Data(s.text(1)!.utf8)) { updates.append((s.text(0)!, report.breakdownGroup)) }
        }
        let update = try db.prepare("UPDATE reports SET group_key = ? WHERE id = ?")
        for (id, group) in updates { try update.bind(.group(group), .text(id)).run() }
    }
}

extension SQLiteWrites: CounterWrites {
    func storedCounters() throws -> CounterTable { try SQLiteStore.storedCounters(db) }

    func recountedCounters() throws -> CounterTable { try SQLiteStore.recomputedCounters(zone: zone, db) }

    func repair(_ wrong: [CounterDifference], recounted: CounterTable) throws {
        try SQLiteStore.upsertCounters(wrong.map { ($0.key, $0.recomputed) }, adding: false, db)
    }

    func markRebuilt() throws {
        try db.execute("UPDATE meta SET value = (SELECT value FROM meta WHERE key = 'data_version') WHERE key = 'counters_rebuilt'")
    }
}
