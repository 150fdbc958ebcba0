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

    public func importReports(_ records: [ReportRecord], actor: String, detail: String) async throws {
        let zone = timeZone
        try await run { db in
            try db.transaction {
                let insert = try db.prepare("""
                    INSERT INTO reports (id, kind, status, version, reporter_id, occurred_on, submitted_at, updated_at, lon, lat, payload, verified_on, group_key)
                    VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                let insertArea = try db.prepare("INSERT INTO report_areas (report_id, layer, layer_version, area_id) VALUES (?, ?, ?, ?)")
                var counters = CounterChanges(zone: zone)
                for r in records {
                    let submitted = Timestamp.format(r.submittedAt)
                    do {
                        try insert.bind(.text(r.id), .text(r.kind.rawValue), .text(r.status.rawValue), .int(Int64(r.version)), .day(r.occurredOn),
                                        .text(submitted), .text(Timestamp.format(r.updatedAt)), r.lon.map { .double($0) } ?? .null,
                                        r.lat.map { .double($0) } ?? .null, .text(String(decoding: r.payload, as: UTF8.self)), .day(r.verifiedOn),
                                        .text(r.group)).run()
                    } catch StorageError.engine(_, let code, _) where code & 0xff == 19 {
                        // SQLITE_CONSTRAINT: the id is taken.
                        throw StorageError.conflict("report \(r.id)")
                    }
                    for a in r.areas { try insertArea.bind(.text(r.id), .text(a.layer), .int(Int64(a.layerVersion)), .text(a.areaID)).run() }
                    counters.add(from: nil, to: r)
                }
                try Self.writeCounters(counters, db)
                try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: Timestamp.now(), action: "import-reports", reason: detail))
                try SQLiteStore.bumpDataVersion(db)
            }
        }
    }

    public func exportReports(to file: URL) async throws -> Int {
        try await run { db in
            guard FileManager.default.createFile(atPath: file.path, contents: nil), let out = FileHandle(forWritingAtPath: file.path) else {
                throw StorageError.cannotOpen("\(file.path): cannot be written")
            }
            defer { try? out.close() }
            var buffer: [UInt8] = []
            ReportCSV.append(ReportCSV.columns, to: &buffer)
            var count = 0
            let s = try db.prepare(Self.exportQuery)
            while try s.step() {
                ReportCSV.append((0..<Int32(ReportCSV.columns.count)).map { column in
                    // Reals as Swift writes them: the shortest text that reads back to the same number.
                    s.columnType(column) == SQLITE_FLOAT ? "\(s.double(column))" : s.text(column)
                }, to: &buffer)
                count += 1
                if buffer.count >= 1 << 20 {
                    try out.write(contentsOf: buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try out.write(contentsOf: buffer)
            return count
        }
    }
}
