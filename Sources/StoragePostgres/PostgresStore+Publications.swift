import Aggregation
import DomainKernel
import Foundation
import Storage

extension PostgresStore: PublicationStore {
    public func publish(day: Day, at: Date, plan: @escaping @Sendable (PublicationInput) throws -> PublicationPlan) async throws -> PublicationRecord {
        // The writer lock orders a publication against every report change and against another
        // process publishing at the same moment: the second plans from the first's ledger.
        try await pool.writeTransaction("publish") { db in
            let latest = try Self.latestPublication(db)
            if let latest, day < latest.day { throw PublicationError.dayBeforeLatest(latest: latest.day) }
            let input = PublicationInput(latest: latest, ledger: try Self.ledger(lastDay: latest?.day, db), verified: try Self.verifiedByClass(db))
            let planned = try plan(input)
            let record = PublicationRecord(id: (latest?.id ?? 0) + 1, day: day, publishedAt: at, blocks: planned.blocks.count)
            try db.query("INSERT INTO publications (id, day, published_at, blocks) VALUES ($1, $2, $3, $4)",
                         [.int(record.id), .day(day), .text(Timestamp.format(at)), .int(Int64(record.blocks))])
            if !planned.blocks.isEmpty {
                try db.query("""
                    INSERT INTO publication_blocks (publication, kind, class_key, day, value)
                    SELECT $1, kind, class_key, day, value::bigint FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS t (kind, class_key, day, value)
                    """, [.int(record.id), .textArray(planned.blocks.map(\.key.kind.rawValue)), .textArray(planned.blocks.map(\.key.areaClass.key)),
                          .textArray(planned.blocks.map(\.day.iso)), .textArray(planned.blocks.map { String($0.value) })])
            }
            try Self.updateLedger(planned.ledger, from: input.ledger, db)
            try Self.bumpDataVersion(db)
            return record
        }
    }

    public func publications(after publication: Int64) async throws -> [PublicationRecord] {
        try await pool.run("read publications") { db in
            let r = try db.query("SELECT id, day, published_at, blocks FROM publications WHERE id > $1 ORDER BY id", [.int(publication)])
            return try (0..<r.count).map { try Self.publication(r, $0) }
        }
    }

    public func publishedBlocks(after publication: Int64) async throws -> [PublishedBlock] {
        try await pool.run("read published blocks") { db in
            let r = try db.query("SELECT publication, kind, class_key, day, value FROM publication_blocks WHERE publication > $1 ORDER BY publication",
                                 [.int(publication)])
            return try (0..<r.count).map { i in
                guard let day = try r.day(i, 3) else { throw StorageError.unreadable("published block") }
                return PublishedBlock(publication: r.int(i, 0), key: LedgerKey(kind: try r.reportKind(i, 1), areaClass: AreaClass(key: r.string(i, 2))),
                                      day: day, value: Int(r.int(i, 4)))
            }
        }
    }

    private static func latestPublication(_ db: PostgresConnection) throws -> PublicationRecord? {
        let r = try db.query("SELECT id, day, published_at, blocks FROM publications ORDER BY id DESC LIMIT 1")
        return r.count == 0 ? nil : try publication(r, 0)
    }

    private static func publication(_ r: PostgresResult, _ i: Int) throws -> PublicationRecord {
        guard let day = try r.day(i, 1) else { throw StorageError.unreadable("publication") }
        return PublicationRecord(id: r.int(i, 0), day: day, publishedAt: Timestamp.parse(r.string(i, 2)), blocks: Int(r.int(i, 3)))
    }

    private static func ledger(lastDay: Day?, _ db: PostgresConnection) throws -> PublicationLedger {
        var ledger = PublicationLedger(lastDay: lastDay)
        let lines = try db.query("SELECT kind, class_key, accounted, carry FROM publication_ledger")
        for i in 0..<lines.count {
            ledger.entries[LedgerKey(kind: try lines.reportKind(i, 0), areaClass: AreaClass(key: lines.string(i, 1)))] =
                PublicationLedger.Entry(accounted: Int(lines.int(i, 2)), carry: Int(lines.int(i, 3)))
        }
        return ledger
    }

    /// Writes the ledger lines that changed since `previous` (read in the same transaction).
    private static func updateLedger(_ ledger: PublicationLedger, from previous: PublicationLedger, _ db: PostgresConnection) throws {
        let (write, remove) = ledger.changes(since: previous)
        if !write.isEmpty {
            try db.query("""
                INSERT INTO publication_ledger (kind, class_key, accounted, carry)
                SELECT kind, class_key, accounted::bigint, carry::bigint FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t (kind, class_key, accounted, carry)
                ON CONFLICT (kind, class_key) DO UPDATE SET accounted = excluded.accounted, carry = excluded.carry
                """, [.textArray(write.map(\.key.kind.rawValue)), .textArray(write.map(\.key.areaClass.key)),
                      .textArray(write.map { String($0.entry.accounted) }), .textArray(write.map { String($0.entry.carry) })])
        }
        if !remove.isEmpty {
            try db.query("""
                DELETE FROM publication_ledger l USING unnest($1::text[], $2::text[]) AS t (kind, class_key)
                WHERE (l.kind, l.class_key) = (t.kind, t.class_key)
                """, [.textArray(remove.map(\.kind.rawValue)), .textArray(remove.map(\.areaClass.key))])
        }
    }

    /// Verified reports by kind, verification day and area class, the class built exactly as
    /// `AreaClass` builds it (see the SQLite store).
    private static func verifiedByClass(_ db: PostgresConnection) throws -> [VerifiedClassCount] {
        let r = try db.query("""
            SELECT kind, verified_on, class_key, count(*) FROM (
                SELECT r.kind, r.verified_on,
                       (SELECT string_agg(ra.layer || chr(31) || ra.area_id, chr(30) ORDER BY ra.layer)
                        FROM report_areas ra JOIN layers l ON l.name = ra.layer
                        WHERE ra.report_id = r.id AND l.kind = 'areas') AS class_key
                FROM reports r WHERE r.status = 'verified') AS placed
            WHERE class_key IS NOT NULL GROUP BY kind, verified_on, class_key
            """)
        return try (0..<r.count).map { i in
            VerifiedClassCount(key: LedgerKey(kind: try r.reportKind(i, 0), areaClass: AreaClass(key: r.string(i, 2))),
                               verifiedOn: try r.day(i, 1), count: Int(r.int(i, 3)))
        }
    }
}
