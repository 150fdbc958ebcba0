import DomainKernel
import Foundation
import Storage
import Synchronization
import Testing
@testable import StoragePostgres

/// An import into empty tables drops their secondary indexes and keys and builds them after the
/// rows; these tests hold it to leaving the schema exactly as the migrations made it.
@Suite("PostgreSQL: an installation's first import builds the tables' indexes after the rows")
struct PostgresFirstImportTests {
    /// Every index and key of the tables an import fills, by name: its definition and its
    /// relation (an index built again is a new relation).
    struct Schema: Equatable {
        var definitions: [String: String] = [:]
        var relations: [String: String] = [:]
    }

    static func schema(_ db: PostgresConnection) throws -> Schema {
        let rows = try db.query("""
            SELECT c.relname, pg_get_indexdef(i.indexrelid), i.indexrelid::oid::text
            FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE i.indrelid IN ('reports'::regclass, 'report_areas'::regclass, 'counters'::regclass)
            UNION ALL
            SELECT conname, pg_get_constraintdef(oid), oid::text FROM pg_constraint
            WHERE conrelid IN ('reports'::regclass, 'report_areas'::regclass, 'counters'::regclass)
            """, prepare: false)
        var schema = Schema()
        for row in 0..<rows.count {
            schema.definitions[rows.string(row, 0)] = rows.string(row, 1)
            schema.relations[rows.string(row, 0)] = rows.string(row, 2)
        }
        return schema
    }

    static func records(_ prefix: String, _ count: Int) -> [ReportRecord] {
        let at = Date(timeIntervalSince1970: 1_795_000_000)
        return (0..<count).map { n in
            ReportRecord(id: "\(prefix)\(n)", kind: n % 3 == 0 ? .misconduct : .covid, status: n % 2 == 0 ? .verified : .pending, version: 1,
                         reporterID: nil, submittedAt: at.addingTimeInterval(Double(n)), updatedAt: at,
                         occurredOn: Day(year: 2026, month: 11, day: 1 + n % 20), payload: Data("{}".utf8), lon: nil, lat: nil,
                         areas: [AreaAssignment(layer: "halls", layerVersion: 1, areaID: "H0\(n % 4)"),
                                 AreaAssignment(layer: "zones", layerVersion: 1, areaID: "Z\(n % 2)")],
                         verifiedOn: n % 2 == 0 ? Day(year: 2026, month: 11, day: 22) : nil)
        }
    }

    /// Batches that stop the import with an error after handing over their first part.
    final class FailingBatches: ReportBatches {
        struct BadRow: Error {}
        private let first: ReportArrayBatches
        private let handed = Mutex(false)
        init(_ records: [ReportRecord]) { first = ReportArrayBatches(records) }
        func next() throws -> [ReportRecord]? {
            if handed.withLock({ was in defer { was = true }; return was }) { throw BadRow() }
            return first.next()
        }
    }

    @Test("the first import builds every index and key again as the migrations made it; a later import keeps them; the keys still refuse")
    func rebuiltAsMade() async throws {
        let t = try await StoreBackend.postgres.make()
        defer { t.remove() }
        let db = try PostgresConnection(location: t.location, settings: [])
        let made = try Self.schema(db)
        #expect(made.definitions["report_areas_report_id_fkey"] == "FOREIGN KEY (report_id) REFERENCES reports(id)")

        #expect(try await t.store.importReports(ReportArrayBatches(Self.records("a", 300), size: 64), actor: "test") { "rows=\($0)" } == 300)
        let first = try Self.schema(db)
        #expect(first.definitions == made.definitions)
        // Built again: the area rows' and counters' indexes and keys, the reports' status index.
        for name in ["report_areas_pkey", "report_areas_by_area", "report_areas_report_id_fkey", "reports_by_status", "counters_pkey", "counters_changed"] {
            #expect(first.relations[name] != made.relations[name], "\(name) was not built again")
        }
        // Kept: the reports' id, which other tables' keys refer to.
        #expect(first.relations["reports_pkey"] == made.relations["reports_pkey"])
        #expect(try await t.store.checkCounters().isEmpty)

        #expect(try await t.store.importReports(ReportArrayBatches(Self.records("b", 200)), actor: "test") { "rows=\($0)" } == 200)
        #expect(try Self.schema(db) == first)
        #expect(try await t.store.checkCounters().isEmpty)
        #expect(try db.query("SELECT count(*) FROM report_areas").int(0, 0) == 1000)

        // The rebuilt keys refuse what they refused before.
        #expect(throws: PostgresError.self) { try db.execute("INSERT INTO report_areas VALUES ('nobody', 'halls', 1, 'H01')") }
        #expect(throws: PostgresError.self) { try db.execute("INSERT INTO report_areas VALUES ('a1', 'halls', 1, 'H02')") }
        // A repeated id in one import is refused whole, with the reports' key kept through the COPY.
        let twice = Self.records("c", 5) + Self.records("c", 1)
        await #expect(throws: StorageError.self) { _ = try await t.store.importReports(ReportArrayBatches(twice), actor: "test") { "rows=\($0)" } }
        #expect(try db.query("SELECT count(*) FROM reports").int(0, 0) == 500)
    }

    @Test("an import leaves the planner's statistics of what it loaded (ANALYZE); a store without a statement timeout has none, and every connection checks that its client is still there")
    func analysedAndSessionSettings() async throws {
        let t = try await StoreBackend.postgres.make()
        defer { t.remove() }
        let db = try PostgresConnection(location: t.location, settings: [])
        func analysed() throws -> [String: Int] {
            let rows = try db.query("SELECT relname, analyze_count + autoanalyze_count FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname IN ('reports', 'report_areas', 'counters')",
                                    prepare: false)
            return Dictionary(uniqueKeysWithValues: (0..<rows.count).map { (rows.string($0, 0), Int(rows.string($0, 1)) ?? 0) })
        }
        let before = try analysed()
        #expect(try await t.store.importReports(ReportArrayBatches(Self.records("a", 300), size: 64), actor: "test") { "rows=\($0)" } == 300)
        // The statistics collector reports the counts a moment after the ANALYZE commits.
        let after = try await waitFor { let now = try analysed(); return now.count == 3 && now.allSatisfy { $0.value > before[$0.key, default: 0] } ? now : nil }
        #expect(after != nil, "reports, report_areas and counters analysed after \(before)")

        let bulk = PostgresStore(location: t.location, statementTimeout: .zero)
        let unbounded = try await bulk.pool.run("show") { db in try db.query("SHOW statement_timeout", prepare: false).string(0, 0) }
        #expect(unbounded == "0")
        let check = try await bulk.pool.run("show") { db in try db.query("SHOW client_connection_check_interval", prepare: false).string(0, 0) }
        #expect(check == "1s")
        let bounded = PostgresStore(location: t.location, statementTimeout: .seconds(30))
        #expect(try await bounded.pool.run("show") { db in try db.query("SHOW statement_timeout", prepare: false).string(0, 0) } == "30s")
    }

    /// Polls `read` until it gives a value, for at most 30 s.
    func waitFor<T>(_ read: () throws -> T?) async throws -> T? {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let value = try read() { return value }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    @Test("a first import that fails after storing a part, or on a repeated id, leaves the tables empty and their indexes as they were")
    func failedFirstImport() async throws {
        let t = try await StoreBackend.postgres.make()
        defer { t.remove() }
        let db = try PostgresConnection(location: t.location, settings: [])
        let made = try Self.schema(db)
        await #expect(throws: FailingBatches.BadRow.self) {
            _ = try await t.store.importReports(FailingBatches(Self.records("a", 50)), actor: "test") { "rows=\($0)" }
        }
        #expect(try Self.schema(db) == made)
        // A repeated id, refused by the reports' key, which the first import keeps.
        await #expect(throws: StorageError.self) {
            _ = try await t.store.importReports(ReportArrayBatches(Self.records("b", 20) + Self.records("b", 1)), actor: "test") { "rows=\($0)" }
        }
        #expect(try Self.schema(db) == made)
        #expect(try db.query("SELECT (SELECT count(*) FROM reports) + (SELECT count(*) FROM report_areas) + (SELECT count(*) FROM counters)").int(0, 0) == 0)
    }

    @Test("with a reader inside the tables the first import keeps the indexes and does not wait for it")
    func readerInside() async throws {
        let t = try await StoreBackend.postgres.make()
        defer { t.remove() }
        let db = try PostgresConnection(location: t.location, settings: [])
        let made = try Self.schema(db)
        let reader = try PostgresConnection(location: t.location, settings: [])
        try reader.execute("BEGIN; SELECT (SELECT count(*) FROM report_areas) + (SELECT count(*) FROM counters)")
        #expect(try await t.store.importReports(ReportArrayBatches(Self.records("a", 40)), actor: "test") { "rows=\($0)" } == 40)
        #expect(try Self.schema(db) == made)
        try reader.execute("COMMIT")
        #expect(try await t.store.checkCounters().isEmpty)
    }
}
