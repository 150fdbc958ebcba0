import Aggregation
import DomainKernel
import Foundation
import Storage

extension SQLiteStore: PublicationStore {
    /// A first publication after a bulk import writes a ledger line for every report (69 MB of
    /// log for 400,000): the log is emptied after it, as after the other bulk changes.
    public func publish(_ request: PublicationRequest) async throws -> PublicationRecord? {
        let record = try await run { db in
            try db.transaction { try SQLitePublicationSteps(db: db).publish(request) }
        }
        try await run { Self.emptyLog($0) }
        return record
    }

    public func publications(after publication: Int64) async throws -> [PublicationRecord] {
        try await run { db in
            let s = try db.cached("SELECT id, day, published_at, blocks, lines_moved, k FROM publications WHERE id > ? ORDER BY id").bind(.int(publication))
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
}

extension SQLiteStore {
    static func publication(_ s: SQLiteStatement) throws -> PublicationRecord {
        guard let day = try s.day(1) else { throw StorageError.unreadable("publication") }
        return PublicationRecord(id: s.int(0), day: day, publishedAt: try Timestamp.parse(s.text(2)!), blocks: Int(s.int(3)), linesMoved: Int(s.int(4)),
                                 k: s.isNull(5) ? nil : Int(s.int(5)))
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
}

/// A publication's SQL on SQLite (the rule is `PublicationSteps.publish`).
struct SQLitePublicationSteps: PublicationSteps {
    let db: SQLiteConnection

    func latestPublication() throws -> PublicationRecord? {
        let s = try db.cached("SELECT id, day, published_at, blocks, lines_moved, k FROM publications ORDER BY id DESC LIMIT 1").bind()
        defer { try? s.finish() }
        return try s.step() ? try SQLiteStore.publication(s) : nil
    }

    func ledger(lastDay: Day?) throws -> PublicationLedger {
        var lines: [LedgerLine] = []
        let s = try db.prepare("SELECT id, kind, class_key, accounted, carry, origin_class, origin_geography, identity FROM publication_lines")
        while try s.step() {
            let origin = s.isNull(5) || s.isNull(6) ? nil : LineOrigin(classKey: s.text(5)!, geographyKey: s.text(6)!)
            lines.append(LedgerLine(id: s.int(0), key: LedgerKey(kind: try s.reportKind(1), areaClass: AreaClass(key: s.text(2)!)),
                                    accounted: Int(s.int(3)), carry: Int(s.int(4)), origin: origin, identity: s.text(7)))
        }
        var geography: [String: Int] = [:]
        let g = try db.prepare("SELECT layer, version FROM publication_geography")
        while try g.step() { geography[g.text(0)!] = Int(g.int(1)) }
        return PublicationLedger(lines: lines, lastDay: lastDay, geography: geography)
    }

    func geography() throws -> [String: Int] {
        var out: [String: Int] = [:]
        let s = try db.prepare("SELECT name, COALESCE(published_version, 0) FROM layers WHERE kind = 'areas'")
        while try s.step() { out[s.text(0)!] = Int(s.int(1)) }
        return out
    }

    func geometries(layer: String, version: Int, areas: Set<String>?) throws -> [String: String] {
        var out: [String: String] = [:]
        guard let areas else {
            let s = try db.prepare("SELECT area_id, geometry FROM areas WHERE layer = ? AND version = ?").bind(.text(layer), .int(Int64(version)))
            while try s.step() { out[s.text(0)!] = s.text(1)! }
            return out
        }
        let s = try db.cached("SELECT geometry FROM areas WHERE layer = ? AND version = ? AND area_id = ?")
        for area in areas {
            try s.bind(.text(layer), .int(Int64(version)), .text(area))
            defer { try? s.finish() }
            if try s.step() { out[area] = s.text(0) }
        }
        return out
    }

    func verifiedByClass() throws -> [VerifiedClassCount] {
        let s = try db.prepare("""
            SELECT kind, verified_on, class_key, ledger_line, COUNT(*) FROM (
                SELECT r.kind, r.verified_on, r.ledger_line, \(SQLiteStore.classKey("r.id")) AS class_key
                FROM reports r WHERE r.status = 'verified')
            WHERE class_key IS NOT NULL GROUP BY kind, verified_on, class_key, ledger_line
            """)
        var out: [VerifiedClassCount] = []
        while try s.step() {
            out.append(VerifiedClassCount(key: LedgerKey(kind: try s.reportKind(0), areaClass: AreaClass(key: s.text(2)!)),
                                          line: s.isNull(3) ? nil : s.int(3), verifiedOn: try s.day(1), count: Int(s.int(4))))
        }
        return out
    }

    func insert(_ record: PublicationRecord) throws {
        try db.cached("INSERT INTO publications (id, day, published_at, blocks, lines_moved, k) VALUES (?, ?, ?, ?, ?, ?)")
            .bind(.int(record.id), .day(record.day), .text(Timestamp.format(record.publishedAt)), .int(Int64(record.blocks)),
                  .int(Int64(record.linesMoved)), record.k.map { .int(Int64($0)) } ?? .null).run()
    }

    func write(lines: [LedgerLine], geography: [String: Int]?) throws {
        let line = try db.cached("""
            INSERT INTO publication_lines (id, kind, class_key, accounted, carry, origin_class, origin_geography, identity) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET class_key = excluded.class_key, accounted = excluded.accounted, carry = excluded.carry,
                origin_class = excluded.origin_class, origin_geography = excluded.origin_geography, identity = excluded.identity
            """)
        for l in lines {
            try line.bind(.int(l.id), .text(l.key.kind.rawValue), .text(l.key.areaClass.key), .int(Int64(l.accounted)), .int(Int64(l.carry)),
                          l.origin.map { .text($0.classKey) } ?? .null, l.origin.map { .text($0.geographyKey) } ?? .null,
                          l.identity.map { .text($0) } ?? .null).run()
        }
        guard let geography else { return }
        try db.execute("DELETE FROM publication_geography")
        let layer = try db.cached("INSERT INTO publication_geography (layer, version) VALUES (?, ?)")
        for (name, version) in geography { try layer.bind(.text(name), .int(Int64(version))).run() }
    }

    func insert(blocks: [PublishedBlock], publication: Int64) throws {
        let insert = try db.cached("INSERT INTO publication_blocks (publication, position, line, day, value) VALUES (?, ?, ?, ?, ?)")
        for (position, block) in blocks.enumerated() {
            try insert.bind(.int(publication), .int(Int64(position + 1)), .int(block.line), .day(block.day), .int(Int64(block.value))).run()
        }
    }

    /// Each verified report probes the assignments by kind and line (0 for none), and only one
    /// that finds its line there computes its class to probe on: a first publication assigns
    /// every report (400,000 at 100,000 areas) among as many assignments as classes, so a probe
    /// must be one index lookup, not a scan of the assignments.
    func assign(_ assignments: [LineAssignment]) throws {
        try db.execute("""
            CREATE TEMP TABLE IF NOT EXISTS line_assignments (
                kind TEXT NOT NULL, from_line INTEGER NOT NULL, class_key TEXT NOT NULL, to_line INTEGER NOT NULL,
                PRIMARY KEY (kind, from_line, class_key)) WITHOUT ROWID
            """)
        try db.execute("DELETE FROM line_assignments")
        let insert = try db.cached("INSERT INTO line_assignments (kind, from_line, class_key, to_line) VALUES (?, ?, ?, ?)")
        for a in assignments {
            try insert.bind(.text(a.kind.rawValue), .int(a.from ?? 0), .text(a.areaClass.key), .int(a.to)).run()
        }
        try db.execute("""
            UPDATE reports SET ledger_line = m.to_line, ledger_settled = 0 FROM (
                SELECT c.id, a.to_line FROM (
                    SELECT r.id, r.kind, COALESCE(r.ledger_line, 0) AS from_line, \(SQLiteStore.classKey("r.id")) AS class_key FROM reports r
                    WHERE r.status = 'verified'
                      AND EXISTS (SELECT 1 FROM line_assignments x WHERE x.kind = r.kind AND x.from_line = COALESCE(r.ledger_line, 0))
                    ) AS c
                JOIN line_assignments a ON a.kind = c.kind AND a.from_line = c.from_line AND a.class_key = c.class_key) AS m
            WHERE reports.id = m.id
            """)
        try db.execute("DELETE FROM line_assignments")
    }

    func bumpDataVersion() throws {
        try SQLiteStore.bumpDataVersion(db)
    }
}
