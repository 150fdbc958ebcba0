import Aggregation
import DomainKernel
import Foundation
import Storage

extension PostgresStore: PublicationStore {
    public func publish(_ request: PublicationRequest) async throws -> PublicationRecord? {
        // The writer lock orders a publication against every report change and against another
        // process publishing at the same moment: the second plans from the first's ledger.
        try await pool.writeTransaction("publish") { db in
            try PostgresPublicationSteps(db: db).publish(request)
        }
    }

    public func publications(after publication: Int64) async throws -> [PublicationRecord] {
        try await pool.run("read publications") { db in
            let r = try db.query("SELECT id, day, published_at, blocks, lines_moved, k FROM publications WHERE id > $1 ORDER BY id", [.int(publication)])
            return try (0..<r.count).map { try Self.publication(r, $0) }
        }
    }

    public func publishedBlocks(after publication: Int64) async throws -> [PublishedBlock] {
        try await pool.run("read published blocks") { db in
            let r = try db.query("""
                SELECT b.publication, b.line, l.kind, l.class_key, b.day, b.value FROM publication_blocks b JOIN publication_lines l ON l.id = b.line
                WHERE b.publication > $1 ORDER BY b.publication, b.position
                """, [.int(publication)])
            return try (0..<r.count).map { i in
                guard let day = try r.day(i, 4) else { throw StorageError.unreadable("published block") }
                return PublishedBlock(publication: r.int(i, 0), line: r.int(i, 1),
                                      key: LedgerKey(kind: try r.reportKind(i, 2), areaClass: AreaClass(key: r.string(i, 3))), day: day, value: Int(r.int(i, 5)))
            }
        }
    }

    static func publication(_ r: PostgresResult, _ i: Int) throws -> PublicationRecord {
        guard let day = try r.day(i, 1) else { throw StorageError.unreadable("publication") }
        return PublicationRecord(id: r.int(i, 0), day: day, publishedAt: try Timestamp.parse(r.string(i, 2)), blocks: Int(r.int(i, 3)),
                                 linesMoved: Int(r.int(i, 4)), k: r.isNull(i, 5) ? nil : Int(r.int(i, 5)))
    }

    /// A report's area class in SQL, built exactly as `AreaClass` builds it (see the SQLite
    /// store); NULL for a report outside every area.
    static func classKey(_ reportID: String) -> String {
        """
        (SELECT string_agg(ra.layer || chr(31) || ra.area_id, chr(30) ORDER BY ra.layer)
         FROM report_areas ra JOIN layers l ON l.name = ra.layer WHERE ra.report_id = \(reportID) AND l.kind = 'areas')
        """
    }
}

/// A publication's SQL on PostgreSQL (the rule is `PublicationSteps.publish`). Rows go as text
/// arrays through `unnest`, one statement per step rather than one per row.
struct PostgresPublicationSteps: PublicationSteps {
    let db: PostgresConnection

    func latestPublication() throws -> PublicationRecord? {
        let r = try db.query("SELECT id, day, published_at, blocks, lines_moved, k FROM publications ORDER BY id DESC LIMIT 1")
        return r.count == 0 ? nil : try PostgresStore.publication(r, 0)
    }

    func ledger(lastDay: Day?) throws -> PublicationLedger {
        let r = try db.query("SELECT id, kind, class_key, accounted, carry, origin_class, origin_geography, identity FROM publication_lines")
        let lines = try (0..<r.count).map { i in
            LedgerLine(id: r.int(i, 0), key: LedgerKey(kind: try r.reportKind(i, 1), areaClass: AreaClass(key: r.string(i, 2))),
                       accounted: Int(r.int(i, 3)), carry: Int(r.int(i, 4)),
                       origin: r.isNull(i, 5) || r.isNull(i, 6) ? nil : LineOrigin(classKey: r.string(i, 5), geographyKey: r.string(i, 6)),
                       identity: r.text(i, 7))
        }
        let g = try db.query("SELECT layer, version FROM publication_geography")
        var geography: [String: Int] = [:]
        for i in 0..<g.count { geography[g.string(i, 0)] = Int(g.int(i, 1)) }
        return PublicationLedger(lines: lines, lastDay: lastDay, geography: geography)
    }

    func geography() throws -> [String: Int] {
        let r = try db.query("SELECT name, COALESCE(published_version, 0) FROM layers WHERE kind = 'areas'")
        var out: [String: Int] = [:]
        for i in 0..<r.count { out[r.string(i, 0)] = Int(r.int(i, 1)) }
        return out
    }

    func geometries(layer: String, version: Int, areas: Set<String>?) throws -> [String: String] {
        let r = try areas.map {
            try db.query("SELECT area_id, geometry FROM areas WHERE layer = $1 AND version = $2 AND area_id = ANY($3::text[])",
                         [.text(layer), .int(Int64(version)), .textArray(Array($0))])
        } ?? db.query("SELECT area_id, geometry FROM areas WHERE layer = $1 AND version = $2", [.text(layer), .int(Int64(version))])
        var out: [String: String] = [:]
        for i in 0..<r.count { out[r.string(i, 0)] = r.string(i, 1) }
        return out
    }

    func verifiedByClass() throws -> [VerifiedClassCount] {
        let r = try db.query("""
            SELECT kind, verified_on, class_key, ledger_line, count(*) FROM (
                SELECT r.kind, r.verified_on, r.ledger_line, \(PostgresStore.classKey("r.id")) AS class_key
                FROM reports r WHERE r.status = 'verified') AS placed
            WHERE class_key IS NOT NULL GROUP BY kind, verified_on, class_key, ledger_line
            """)
        return try (0..<r.count).map { i in
            VerifiedClassCount(key: LedgerKey(kind: try r.reportKind(i, 0), areaClass: AreaClass(key: r.string(i, 2))),
                               line: r.isNull(i, 3) ? nil : r.int(i, 3), verifiedOn: try r.day(i, 1), count: Int(r.int(i, 4)))
        }
    }

    func insert(_ record: PublicationRecord) throws {
        try db.query("INSERT INTO publications (id, day, published_at, blocks, lines_moved, k) VALUES ($1, $2, $3, $4, $5, $6)",
                     [.int(record.id), .day(record.day), .text(Timestamp.format(record.publishedAt)), .int(Int64(record.blocks)),
                      .int(Int64(record.linesMoved)), record.k.map { .int(Int64($0)) } ?? .null])
    }

    func write(lines: [LedgerLine], geography: [String: Int]?) throws {
        if !lines.isEmpty {
            try db.query("""
                INSERT INTO publication_lines (id, kind, class_key, accounted, carry, origin_class, origin_geography, identity)
                SELECT id::bigint, kind, class_key, accounted::bigint, carry::bigint, origin_class, origin_geography, identity
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
                    AS t (id, kind, class_key, accounted, carry, origin_class, origin_geography, identity)
                ON CONFLICT (id) DO UPDATE SET class_key = excluded.class_key, accounted = excluded.accounted, carry = excluded.carry,
                    origin_class = excluded.origin_class, origin_geography = excluded.origin_geography, identity = excluded.identity
                """, [.textArray(lines.map { String($0.id) }), .textArray(lines.map(\.key.kind.rawValue)), .textArray(lines.map(\.key.areaClass.key)),
                      .textArray(lines.map { String($0.accounted) }), .textArray(lines.map { String($0.carry) }),
                      .textArray(lines.map { $0.origin?.classKey }), .textArray(lines.map { $0.origin?.geographyKey }),
                      .textArray(lines.map(\.identity))])
        }
        guard let geography else { return }
        try db.query("DELETE FROM publication_geography")
        let layers = geography.sorted { $0.key < $1.key }
        try db.query("INSERT INTO publication_geography (layer, version) SELECT layer, version::integer FROM unnest($1::text[], $2::text[]) AS t (layer, version)",
                     [.textArray(layers.map(\.key)), .textArray(layers.map { String($0.value) })])
    }

    func insert(blocks: [PublishedBlock], publication: Int64) throws {
        try db.query("""
            INSERT INTO publication_blocks (publication, position, line, day, value)
            SELECT $1, position::integer, line::bigint, day, value::bigint
            FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS t (line, day, value, position)
            """, [.int(publication), .textArray(blocks.map { String($0.line) }), .textArray(blocks.map(\.day.iso)),
                  .textArray(blocks.map { String($0.value) })])
    }

    /// One pass over the reports the assignments name (those of no line yet, and those of the
    /// lines named), joined by plain equality (0 for no line) so that the join can hash: a first
    /// publication assigns every report among as many assignments as classes.
    func assign(_ assignments: [LineAssignment]) throws {
        try db.query("""
            WITH a AS (
                SELECT kind, COALESCE(from_line::bigint, 0) AS from_line, class_key, to_line::bigint AS to_line
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t (kind, from_line, class_key, to_line)),
            placed AS (
                SELECT r.id, r.kind, COALESCE(r.ledger_line, 0) AS ledger_line, \(PostgresStore.classKey("r.id")) AS class_key FROM reports r
                WHERE r.status = 'verified' AND COALESCE(r.ledger_line, 0) IN (SELECT from_line FROM a))
            UPDATE reports SET ledger_line = a.to_line, ledger_settled = false
            FROM placed p JOIN a ON a.kind = p.kind AND a.from_line = p.ledger_line AND a.class_key = p.class_key
            WHERE reports.id = p.id
            """, [.textArray(assignments.map(\.kind.rawValue)), .textArray(assignments.map { $0.from.map { String($0) } }),
                  .textArray(assignments.map(\.areaClass.key)), .textArray(assignments.map { String($0.to) })])
    }

    func bumpDataVersion() throws {
        try PostgresStore.bumpDataVersion(db)
    }
}
