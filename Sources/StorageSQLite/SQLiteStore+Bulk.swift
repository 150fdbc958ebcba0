import CSQLite
import DomainKernel
import Foundation
import Storage

extension SQLiteStore: BulkReportStore {
    /// The export's columns (`ReportCSV.columns`), ordered by id.
    static let exportQuery = """
        SELECT id, kind, status, occurred_on, submitted_at, verified_on, lon, lat,
               CASE WHEN lon IS NULL THEN (SELECT layer FROM report_areas a WHERE a.report_id = r.id ORDER BY layer LIMIT 1) END,
               CASE WHEN lon IS NULL THEN (SELECT area_id FROM report_areas a WHERE a.report_id = r.id ORDER BY layer LIMIT 1) END,
               group_key, payload
        FROM reports r ORDER BY id
        """

    public func importReports(_ batches: any ReportBatches, actor: String, detail: @escaping @Sendable (Int) -> String) async throws -> Int {
        try await bulkWrite { try $0.importReports(batches, actor: actor, detail: detail) }
    }

    public func exportReports(to file: URL) async throws -> Int {
        try await run { db in
            let out = try BufferedFileWriter(creating: file)
            try out.append { ReportCSV.append(ReportCSV.columns, to: &$0) }
            var count = 0
            let s = try db.prepare(Self.exportQuery)
            while try s.step() {
                try out.append { buffer in
                    ReportCSV.append((0..<Int32(ReportCSV.columns.count)).map { column in
                        // Reals as Swift writes them: the shortest text that reads back to the same number.
                        s.columnType(column) == SQLITE_FLOAT ? "\(s.double(column))" : s.text(column)
                    }, to: &buffer)
                }
                count += 1
            }
            try out.finish()
            return count
        }
    }
}

extension SQLiteWrites: BulkWrites {
    func insertReports(_ batches: any ReportBatches) throws {
        let insert = try db.prepare("""
            INSERT INTO reports (id, kind, status, version, reporter_id, occurred_on, submitted_at, updated_at, lon, lat, payload, verified_on, group_key)
            VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let insertArea = try db.prepare("INSERT INTO report_areas (report_id, layer, layer_version, area_id) VALUES (?, ?, ?, ?)")
        while let records = try batches.next() {
            for r in records {
                // A Result, not do/catch: Swift 6.3 fails an ownership check on a typed catch here.
                let inserted = Result { () throws(StorageError) in
                    try insert.bind(.text(r.id), .text(r.kind.rawValue), .text(r.status.rawValue), .int(Int64(r.version)), .day(r.occurredOn),
                                    .text(Timestamp.format(r.submittedAt)), .text(Timestamp.format(r.updatedAt)), r.lon.map { .double($0) } ?? .null,
                                    r.lat.map { .double($0) } ?? .null, .text(String(decoding: r.payload, as: UTF8.self)), .day(r.verifiedOn),
                                    .group(r.group)).run()
                }
                if case .failure(let error) = inserted { throw Self.isConstraintViolation(error) ? StorageError.conflict("report \(r.id)") : error }
                for a in r.areas { try insertArea.bind(.text(r.id), .text(a.layer), .int(Int64(a.layerVersion)), .text(a.areaID)).run() }
            }
        }
    }

    func writeBulkCounters(_ changes: CounterChanges) throws { try writeCounters(changes) }

    /// The single writer's transaction holds the order from its first statement.
    func takeWriterOrder() {}

    func publishedAreaVersions() throws -> [String: Int] { try SQLiteStore.publishedAreaVersions(db) }

    /// SQLITE_CONSTRAINT: here, a report id that is taken.
    private static func isConstraintViolation(_ error: StorageError) -> Bool {
        if case .engine(_, let code, _) = error { return code & 0xff == 19 }
        return false
    }
}
