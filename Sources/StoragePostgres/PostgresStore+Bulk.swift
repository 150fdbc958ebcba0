import Aggregation
import DomainKernel
import Foundation
import Storage

extension PostgresStore: BulkReportStore {
    public func importReports(_ records: [ReportRecord], actor: String, detail: String) async throws {
        do {
            try await write("import reports") { try $0.importReports(records, actor: actor, detail: detail) }
        } catch StorageError.engine(_, _, let message) where message.hasPrefix("23505") {
            throw StorageError.conflict("a report id of the import")
        }
    }

    public func exportReports(to file: URL) async throws -> Int {
        try await pool.run("export reports") { db in
            let out = try BufferedFileWriter(creating: file)
            var count = -1  // the header line
            try db.copyOut("""
                COPY (SELECT id, kind, status, occurred_on, submitted_at, verified_on, lon, lat,
                             CASE WHEN lon IS NULL THEN (SELECT layer FROM report_areas a WHERE a.report_id = r.id ORDER BY layer LIMIT 1) END AS area_layer,
                             CASE WHEN lon IS NULL THEN (SELECT area_id FROM report_areas a WHERE a.report_id = r.id ORDER BY layer LIMIT 1) END AS area_id,
                             group_key AS "group", payload
                      FROM reports r ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)
                """) { line in
                try out.append { $0.append(contentsOf: line) }
                count += 1
            }
            try out.finish()
            return max(count, 0)
        }
    }
}

extension PostgresWrites: BulkWrites {
    func insertReports(_ records: [ReportRecord]) throws {
        // Rows stream in through COPY, a megabyte at a time: no statement per report.
        var next = 0
        try db.copyIn("COPY reports (id, kind, status, version, occurred_on, submitted_at, updated_at, lon, lat, payload, verified_on, group_key) FROM STDIN WITH (FORMAT csv)") {
            guard next < records.count else { return nil }
            var chunk: [UInt8] = []
            while next < records.count, chunk.count < 1 << 20 {
                let r = records[next]
                ReportCSV.append([r.id, r.kind.rawValue, r.status.rawValue, String(r.version), r.occurredOn.iso, Timestamp.format(r.submittedAt),
                                  Timestamp.format(r.updatedAt), r.lon.map { "\($0)" }, r.lat.map { "\($0)" },
                                  String(decoding: r.payload, as: UTF8.self), r.verifiedOn?.iso, BreakdownGroup.column(r.group)], to: &chunk)
                next += 1
            }
            return chunk
        }
        var nextArea = 0
        try db.copyIn("COPY report_areas (report_id, layer, layer_version, area_id) FROM STDIN WITH (FORMAT csv)") {
            guard nextArea < records.count else { return nil }
            var chunk: [UInt8] = []
            while nextArea < records.count, chunk.count < 1 << 20 {
                let r = records[nextArea]
                for a in r.areas { ReportCSV.append([r.id, a.layer, String(a.layerVersion), a.areaID], to: &chunk) }
                nextArea += 1
            }
            return chunk
        }
    }

    func writeBulkCounters(_ changes: CounterChanges) throws {
        // Counter changes go through a temporary table: one upsert for all cells.
        let cells = changes.nonZero
        try db.execute("CREATE TEMPORARY TABLE counter_changes (LIKE counters INCLUDING DEFAULTS) ON COMMIT DROP")
        var nextCell = 0
        try db.copyIn("COPY counter_changes (layer, basis, area_id, day, kind, status, grp, n) FROM STDIN WITH (FORMAT csv)") {
            guard nextCell < cells.count else { return nil }
            var chunk: [UInt8] = []
            while nextCell < cells.count, chunk.count < 1 << 20 {
                let (k, n) = cells[nextCell]
                ReportCSV.append([k.layer, k.basis.rawValue, k.areaID, k.day.iso, k.kind.rawValue, k.status.rawValue, BreakdownGroup.column(k.group), String(n)], to: &chunk)
                nextCell += 1
            }
            return chunk
        }
        try db.execute("""
            INSERT INTO counters SELECT layer, basis, area_id, day, kind, status, grp, n, \(PostgresStore.currentVersionSQL) FROM counter_changes
            ON CONFLICT (layer, basis, area_id, day, kind, status, grp) DO UPDATE SET n = counters.n + excluded.n,
                data_version = excluded.data_version
            """)
    }
}
