import Aggregation
import DomainKernel
import Foundation
import Storage

extension SQLiteStore: PublicationStore {
    public func publish(day: Day, at: Date, plan: @escaping @Sendable (PublicationInput) throws -> PublicationPlan) async throws -> PublicationRecord {
        try await run { db in
            try db.transaction {
                let latest = try Self.latestPublication(db)
                if let latest, day < latest.day { throw PublicationError.dayBeforeLatest(latest: latest.day) }
                let ledger = try Self.ledger(lastDay: latest?.day, db)
                let geography = try Self.geography(db)
                let changed = PublicationPlanner.changedLayers(from: ledger.geography, to: geography)
                let exists = try db.cached("SELECT 1 FROM areas WHERE layer = ? AND version = ? AND area_id = ?")
                let existing = try ledger.areas(in: changed).filter { ref in
                    guard let version = geography[ref.layer] else { return false }
                    try exists.bind(.text(ref.layer), .int(Int64(version)), .text(ref.areaID))
                    defer { try? exists.finish() }
                    return try exists.step()
                }
                let input = PublicationInput(latest: latest, ledger: ledger, verified: try Self.verifiedByClass(db), geography: geography,
                                             existingAreas: existing)
                let planned = try plan(input)
                let record = PublicationRecord(id: (latest?.id ?? 0) + 1, day: day, publishedAt: at, blocks: planned.blocks.count,
                                               linesMoved: planned.movedLines)
                try db.cached("INSERT INTO publications (id, day, published_at, blocks, lines_moved) VALUES (?, ?, ?, ?, ?)")
                    .bind(.int(record.id), .day(day), .text(Timestamp.format(at)), .int(Int64(record.blocks)), .int(Int64(record.linesMoved))).run()
                try Self.updateLedger(planned.ledger, from: input.ledger, db)
                let insert = try db.cached("INSERT INTO publication_blocks (publication, position, line, day, value) VALUES (?, ?, ?, ?, ?)")
                for (position, block) in planned.blocks.enumerated() {
                    try insert.bind(.int(record.id), .int(Int64(position + 1)), .int(block.line), .day(block.day), .int(Int64(block.value))).run()
                }
                try Self.assignLines(planned.assignments, db)
                // Public numbers moved: caches and ETags keyed by the data version follow.
                try db.execute("UPDATE meta SET value = value + 1 WHERE key = 'data_version'")
                return record
            }
        }
    }

    public func publications(after publication: Int64) async throws -> [PublicationRecord] {
        try await run { db in
            let s = try db.cached("SELECT id, day, published_at, blocks, lines_moved FROM publications WHERE id > ? ORDER BY id").bind(.int(publication))
            var out: [PublicationRecord] = []
            while try s.step() { out.append(try Self.publication(s)) }
            return out
        }
    }

    public func publishedBlocks(after publication: Int64) async throws -> [PublishedBlock] {
        try await run { db in
            let s = try db.prepare("""
                SELECT b.publication, b.line, l.kind, l.class_key, b.day, b.value FROM publication_blocks b JOIN publication_lines l ON l.id = b.line
                WHERE b.publication > ? ORDER BY b.publication, b.position
                """)
            try s.bind(.int(publication))
            var out: [PublishedBlock] = []
            while try s.step() {
                guard let day = try s.day(4) else { throw StorageError.unreadable("published block") }
                out.append(PublishedBlock(publication: s.int(0), line: s.int(1), key: LedgerKey(kind: try s.reportKind(2), areaClass: AreaClass(key: s.text(3)!)),
                                          day: day, value: Int(s.int(5))))
            }
            return out
        }
    }

    private static func latestPublication(_ db: SQLiteConnection) throws -> PublicationRecord? {
        let s = try db.cached("SELECT id, day, published_at, blocks, lines_moved FROM publications ORDER BY id DESC LIMIT 1").bind()
        defer { try? s.finish() }
        return try s.step() ? try publication(s) : nil
    }

    private static func publication(_ s: SQLiteStatement) throws -> PublicationRecord {
        guard let day = try s.day(1) else { throw StorageError.unreadable("publication") }
        return PublicationRecord(id: s.int(0), day: day, publishedAt: Timestamp.parse(s.text(2)!), blocks: Int(s.int(3)), linesMoved: Int(s.int(4)))
    }

    private static func ledger(lastDay: Day?, _ db: SQLiteConnection) throws -> PublicationLedger {
        var lines: [LedgerLine] = []
        let s = try db.prepare("SELECT id, kind, class_key, accounted, carry FROM publication_lines")
        while try s.step() {
            lines.append(LedgerLine(id: s.int(0), key: LedgerKey(kind: try s.reportKind(1), areaClass: AreaClass(key: s.text(2)!)),
                                    accounted: Int(s.int(3)), carry: Int(s.int(4))))
        }
        var geography: [String: Int] = [:]
        let g = try db.prepare("SELECT layer, version FROM publication_geography")
        while try g.step() { geography[g.text(0)!] = Int(g.int(1)) }
        return PublicationLedger(lines: lines, lastDay: lastDay, geography: geography)
    }

    /// The published version of each area layer (0 for one without a published version).
    private static func geography(_ db: SQLiteConnection) throws -> [String: Int] {
        var out: [String: Int] = [:]
        let s = try db.prepare("SELECT name, COALESCE(published_version, 0) FROM layers WHERE kind = 'areas'")
        while try s.step() { out[s.text(0)!] = Int(s.int(1)) }
        return out
    }

    /// Writes the lines that changed since `previous` (read in the same transaction) and the
    /// geography the ledger saw.
    private static func updateLedger(_ ledger: PublicationLedger, from previous: PublicationLedger, _ db: SQLiteConnection) throws {
        let line = try db.cached("""
            INSERT INTO publication_lines (id, kind, class_key, accounted, carry) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET class_key = excluded.class_key, accounted = excluded.accounted, carry = excluded.carry
            """)
        for l in ledger.changes(since: previous) {
            try line.bind(.int(l.id), .text(l.key.kind.rawValue), .text(l.key.areaClass.key), .int(Int64(l.accounted)), .int(Int64(l.carry))).run()
        }
        guard ledger.geography != previous.geography else { return }
        try db.execute("DELETE FROM publication_geography")
        let layer = try db.cached("INSERT INTO publication_geography (layer, version) VALUES (?, ?)")
        for (name, version) in ledger.geography { try layer.bind(.text(name), .int(Int64(version))).run() }
    }

    /// Records which line each verified report is accounted to now, and whether it is settled.
    /// Each verified report probes the assignments by kind and line (0 for none), and only one
    /// that finds its line there computes its class to probe on: a first publication assigns
    /// every report (400,000 at 100,000 areas) among as many assignments as classes, so a probe
    /// must be one index lookup, not a scan of the assignments.
    private static func assignLines(_ assignments: [LineAssignment], _ db: SQLiteConnection) throws {
        guard !assignments.isEmpty else { return }
        try db.execute("""
            CREATE TEMP TABLE IF NOT EXISTS line_assignments (
                kind TEXT NOT NULL, from_line INTEGER NOT NULL, class_key TEXT NOT NULL, to_line INTEGER NOT NULL, settle INTEGER NOT NULL,
                PRIMARY KEY (kind, from_line, class_key)) WITHOUT ROWID
            """)
        try db.execute("DELETE FROM line_assignments")
        let insert = try db.cached("INSERT INTO line_assignments (kind, from_line, class_key, to_line, settle) VALUES (?, ?, ?, ?, ?)")
        for a in assignments {
            try insert.bind(.text(a.kind.rawValue), .int(a.from ?? 0), .text(a.areaClass.key), .int(a.to), .int(a.settle ? 1 : 0)).run()
        }
        try db.execute("""
            UPDATE reports SET ledger_line = m.to_line, ledger_settled = m.settle FROM (
                SELECT c.id, a.to_line, a.settle FROM (
                    SELECT r.id, r.kind, COALESCE(r.ledger_line, 0) AS from_line, \(classKey("r.id")) AS class_key FROM reports r
                    WHERE r.status = 'verified'
                      AND EXISTS (SELECT 1 FROM line_assignments x WHERE x.kind = r.kind AND x.from_line = COALESCE(r.ledger_line, 0))
                    ) AS c
                JOIN line_assignments a ON a.kind = c.kind AND a.from_line = c.from_line AND a.class_key = c.class_key) AS m
            WHERE reports.id = m.id
            """)
        try db.execute("DELETE FROM line_assignments")
    }

    /// A report's area class in SQL: its placements in the area layers (points layers place
    /// nothing), layer by layer in name order, joined exactly as `AreaClass` joins them; NULL for
    /// a report outside every area.
    static func classKey(_ reportID: String) -> String {
        """
        (SELECT group_concat(pair, char(30)) FROM (
            SELECT ra.layer || char(31) || ra.area_id AS pair FROM report_areas ra JOIN layers l ON l.name = ra.layer
            WHERE ra.report_id = \(reportID) AND l.kind = 'areas' ORDER BY ra.layer))
        """
    }

    /// Verified reports by kind, verification day, area class and the line they were accounted
    /// to; a report outside every area is in no class and counts nowhere.
    private static func verifiedByClass(_ db: SQLiteConnection) throws -> [VerifiedClassCount] {
        let s = try db.prepare("""
            SELECT kind, verified_on, class_key, ledger_line, ledger_settled, COUNT(*) FROM (
                SELECT r.kind, r.verified_on, r.ledger_line, r.ledger_settled, \(classKey("r.id")) AS class_key
                FROM reports r WHERE r.status = 'verified')
            WHERE class_key IS NOT NULL GROUP BY kind, verified_on, class_key, ledger_line, ledger_settled
            """)
        var out: [VerifiedClassCount] = []
        while try s.step() {
            out.append(VerifiedClassCount(key: LedgerKey(kind: try s.reportKind(0), areaClass: AreaClass(key: s.text(2)!)),
                                          line: s.isNull(3) ? nil : s.int(3), settled: s.int(4) != 0, verifiedOn: try s.day(1), count: Int(s.int(5))))
        }
        return out
    }
}
