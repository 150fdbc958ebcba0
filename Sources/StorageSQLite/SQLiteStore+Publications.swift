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
                let input = PublicationInput(latest: latest, ledger: try Self.ledger(lastDay: latest?.day, db), verified: try Self.verifiedByClass(db))
                let planned = try plan(input)
                let record = PublicationRecord(id: (latest?.id ?? 0) + 1, day: day, publishedAt: at, blocks: planned.blocks.count)
                try db.cached("INSERT INTO publications (id, day, published_at, blocks) VALUES (?, ?, ?, ?)")
                    .bind(.int(record.id), .day(day), .text(Timestamp.format(at)), .int(Int64(record.blocks))).run()
                let insert = try db.cached("INSERT INTO publication_blocks (publication, kind, class_key, day, value) VALUES (?, ?, ?, ?, ?)")
                for block in planned.blocks {
                    try insert.bind(.int(record.id), .text(block.key.kind.rawValue), .text(block.key.areaClass.key), .day(block.day),
                                    .int(Int64(block.value))).run()
                }
                try Self.updateLedger(planned.ledger, from: input.ledger, db)
                // Public numbers moved: caches and ETags keyed by the data version follow.
                try db.execute("UPDATE meta SET value = value + 1 WHERE key = 'data_version'")
                return record
            }
        }
    }

    public func publications(after publication: Int64) async throws -> [PublicationRecord] {
        try await run { db in
            let s = try db.cached("SELECT id, day, published_at, blocks FROM publications WHERE id > ? ORDER BY id").bind(.int(publication))
            var out: [PublicationRecord] = []
            while try s.step() { out.append(try Self.publication(s)) }
            return out
        }
    }

    public func publishedBlocks(after publication: Int64) async throws -> [PublishedBlock] {
        try await run { db in
            let s = try db.prepare("SELECT publication, kind, class_key, day, value FROM publication_blocks WHERE publication > ? ORDER BY publication")
            try s.bind(.int(publication))
            var out: [PublishedBlock] = []
            while try s.step() {
                guard let day = try s.day(3) else { throw StorageError.unreadable("published block") }
                out.append(PublishedBlock(publication: s.int(0), key: LedgerKey(kind: try s.reportKind(1), areaClass: AreaClass(key: s.text(2)!)),
                                          day: day, value: Int(s.int(4))))
            }
            return out
        }
    }

    private static func latestPublication(_ db: SQLiteConnection) throws -> PublicationRecord? {
        let s = try db.cached("SELECT id, day, published_at, blocks FROM publications ORDER BY id DESC LIMIT 1").bind()
        defer { try? s.finish() }
        return try s.step() ? try publication(s) : nil
    }

    private static func publication(_ s: SQLiteStatement) throws -> PublicationRecord {
        guard let day = try s.day(1) else { throw StorageError.unreadable("publication") }
        return PublicationRecord(id: s.int(0), day: day, publishedAt: Timestamp.parse(s.text(2)!), blocks: Int(s.int(3)))
    }

    private static func ledger(lastDay: Day?, _ db: SQLiteConnection) throws -> PublicationLedger {
        var ledger = PublicationLedger(lastDay: lastDay)
        let lines = try db.prepare("SELECT kind, class_key, accounted, carry FROM publication_ledger")
        while try lines.step() {
            ledger.entries[LedgerKey(kind: try lines.reportKind(0), areaClass: AreaClass(key: lines.text(1)!))] =
                PublicationLedger.Entry(accounted: Int(lines.int(2)), carry: Int(lines.int(3)))
        }
        return ledger
    }

    /// Writes the ledger lines that changed since `previous` (read in the same transaction).
    private static func updateLedger(_ ledger: PublicationLedger, from previous: PublicationLedger, _ db: SQLiteConnection) throws {
        let (write, remove) = ledger.changes(since: previous)
        let line = try db.cached("""
            INSERT INTO publication_ledger (kind, class_key, accounted, carry) VALUES (?, ?, ?, ?)
            ON CONFLICT (kind, class_key) DO UPDATE SET accounted = excluded.accounted, carry = excluded.carry
            """)
        for (key, entry) in write {
            try line.bind(.text(key.kind.rawValue), .text(key.areaClass.key), .int(Int64(entry.accounted)), .int(Int64(entry.carry))).run()
        }
        let drop = try db.cached("DELETE FROM publication_ledger WHERE kind = ? AND class_key = ?")
        for key in remove { try drop.bind(.text(key.kind.rawValue), .text(key.areaClass.key)).run() }
    }

    /// Verified reports by kind, verification day and area class. The class joins a report's
    /// placements in the area layers (points layers place nothing), layer by layer in name order,
    /// exactly as `AreaClass` does; a report outside every area is in no class and counts nowhere.
    private static func verifiedByClass(_ db: SQLiteConnection) throws -> [VerifiedClassCount] {
        let s = try db.prepare("""
            SELECT kind, verified_on, class_key, COUNT(*) FROM (
                SELECT r.kind, r.verified_on,
                       (SELECT group_concat(pair, char(30)) FROM (
                            SELECT ra.layer || char(31) || ra.area_id AS pair FROM report_areas ra JOIN layers l ON l.name = ra.layer
                            WHERE ra.report_id = r.id AND l.kind = 'areas' ORDER BY ra.layer)) AS class_key
                FROM reports r WHERE r.status = 'verified')
            WHERE class_key IS NOT NULL GROUP BY kind, verified_on, class_key
            """)
        var out: [VerifiedClassCount] = []
        while try s.step() {
            out.append(VerifiedClassCount(key: LedgerKey(kind: try s.reportKind(0), areaClass: AreaClass(key: s.text(2)!)),
                                          verifiedOn: try s.day(1), count: Int(s.int(3))))
        }
        return out
    }
}
