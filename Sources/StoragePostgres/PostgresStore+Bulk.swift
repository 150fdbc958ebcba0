import Aggregation
import DomainKernel
import Foundation
import Storage

extension PostgresStore: BulkReportStore {
    public func importReports(_ batches: any ReportBatches, actor: String, detail: @escaping @Sendable (Int) -> String) async throws -> Int {
        // Rows placed in known versions go in before the writer lock, which the import then holds
        // only for its counters, audit entry and placement check: a 1,000,000-report import held
        // it for its whole length, and every submission waited up to 30 s and got 503. An
        // installation's first import keeps the lock from the start instead: it builds the empty
        // tables' indexes after the rows (`IndexesBuiltAfter`) under ACCESS EXCLUSIVE, which a
        // submission holding the writer lock would wait for while the import waited for the
        // writer lock (a deadlock); `/readyz` announces that window (`exclusiveHolds`).
        let late: Bool
        if batches.placedOn != nil {
            late = try await pool.run("look for stored reports") { db in try db.query("SELECT EXISTS (SELECT 1 FROM reports)").string(0, 0) == "t" }
        } else {
            late = false
        }
        let zone = timeZone, limit = rebuildUpsertLimit
        let imported: Int
        do {
            // Never run again: the batches are a stream, and a second run would store only the rows
            // after the first run's.
            imported = try await pool.transaction("import reports", begin: late ? "BEGIN" : Self.beginWriting, retry: .never) { db in
                try PostgresWrites(db: db, zone: zone, rebuildUpsertLimit: limit, lockedFromStart: !late).importReports(batches, actor: actor, detail: detail)
            }
        } catch StorageError.engine(_, _, let message) where message.hasPrefix("23505") {
            throw StorageError.conflict("a report id of the import")
        }
        // The planner's statistics of what was loaded: right after an import of 1,000,000
        // reports, `aggregates check` ran 600 s into its timeout, and 3.5 s after an ANALYZE.
        if imported > 0 { try await pool.run("analyze the import") { db in try db.execute("ANALYZE reports, report_areas, counters") } }
        return imported
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

extension PostgresStore {
    /// Each area layer's published version from the rows of `StalePlacement.publishedVersionsSQL`
    /// (intake reads them in its pipeline, an import in its transaction).
    static func publishedAreaVersions(_ rows: PostgresResult) -> [String: Int] {
        var out: [String: Int] = [:]
        for i in 0..<rows.count { out[rows.string(i, 0)] = Int(rows.string(i, 1)) }
        return out
    }
}

extension PostgresWrites: BulkWrites {
    func insertReports(_ batches: any ReportBatches) throws {
        // Rows stream in through COPY, a part of the import at a time (no statement per report),
        // made on a thread of their own while the server stores the part before: reading,
        // checking and placing a file's rows then overlap with PostgreSQL's work. The area rows
        // are gathered on the way, for their COPY after. An installation's first import fills the
        // tables from empty and builds their indexes after the rows (`IndexesBuiltAfter`).
        let indexes = lockedFromStart ? try IndexesBuiltAfter.drop(on: ["reports", "report_areas"], db) : nil
        let reports = ChunksAhead(AreaRowChunks()) { areaRows in
            guard let records = try batches.next() else {
                areaRows.close()
                return nil
            }
            var chunk: [UInt8] = []
            chunk.reserveCapacity(records.count * 220)
            for r in records {
                ReportCSV.append([r.id, r.kind.rawValue, r.status.rawValue, String(r.version), r.occurredOn.iso, Timestamp.format(r.submittedAt),
                                  Timestamp.format(r.updatedAt), r.lon.map { "\($0)" }, r.lat.map { "\($0)" },
                                  String(decoding: r.payload, as: UTF8.self), r.verifiedOn?.iso, BreakdownGroup.column(r.group)], to: &chunk)
                areaRows.add(r)
            }
            return chunk
        }
        defer { reports.stop() }
        try db.copyIn("COPY reports (id, kind, status, version, occurred_on, submitted_at, updated_at, lon, lat, payload, verified_on, group_key) FROM STDIN WITH (FORMAT csv)",
                      reports.next)
        // What the batches threw (a file's bad rows) ends the import here; the rows copied so far
        // go with the transaction's rollback.
        var areaChunks = try reports.result().chunks.makeIterator()
        try db.copyIn("COPY report_areas (report_id, layer, layer_version, area_id) FROM STDIN WITH (FORMAT csv)") { areaChunks.next() }
        try indexes?.build(db)
    }

    func takeWriterOrder() throws {
        // Held already when the transaction began with it; taking it again would be a no-op.
        guard !lockedFromStart else { return }
        try db.execute(PostgresStore.lockWriter)
    }

    func publishedAreaVersions() throws -> [String: Int] {
        PostgresStore.publishedAreaVersions(try db.query(StalePlacement.publishedVersionsSQL))
    }

    func writeBulkCounters(_ changes: CounterChanges) throws {
        let cells = changes.nonZero
        guard !cells.isEmpty else { return }
        // Cells of layers that have no counters yet (an installation's first import) cannot
        // meet a stored cell, so they go straight into the table by COPY; other imports add
        // through a temporary table and one upsert. For 480,863 cells of 1,000,000 reports into
        // an empty table the upsert took 4.6 s, COPY 3.0 s (both writing the same two indexes).
        let layers = Array(Set(cells.map(\.key.layer))).sorted()
        let state = try db.query("SELECT EXISTS (SELECT 1 FROM counters WHERE layer = ANY($1::text[])), \(PostgresStore.currentVersionSQL)",
                                 [.textArray(layers)])
        let fresh = state.string(0, 0) == "f"
        let version = String(state.int(0, 1))
        // No counters at all: the table's indexes, too, are built after the rows.
        let indexes = fresh ? try IndexesBuiltAfter.drop(on: ["counters"], db) : nil
        if !fresh {
            try db.execute("CREATE TEMPORARY TABLE counter_changes (LIKE counters INCLUDING DEFAULTS) ON COMMIT DROP")
        }
        var nextCell = 0
        let target = fresh ? "counters (layer, basis, area_id, day, kind, status, grp, n, data_version)"
                           : "counter_changes (layer, basis, area_id, day, kind, status, grp, n)"
        try db.copyIn("COPY \(target) FROM STDIN WITH (FORMAT csv)") {
            guard nextCell < cells.count else { return nil }
            var chunk: [UInt8] = []
            while nextCell < cells.count, chunk.count < 1 << 20 {
                let (k, n) = cells[nextCell]
                ReportCSV.append([k.layer, k.basis.rawValue, k.areaID, k.day.iso, k.kind.rawValue, k.status.rawValue, BreakdownGroup.column(k.group),
                                  String(n)] + (fresh ? [version] : []), to: &chunk)
                nextCell += 1
            }
            return chunk
        }
        try indexes?.build(db)
        guard !fresh else { return }
        try db.execute("""
            INSERT INTO counters SELECT layer, basis, area_id, day, kind, status, grp, n, \(PostgresStore.currentVersionSQL) FROM counter_changes
            ON CONFLICT (layer, basis, area_id, day, kind, status, grp) DO UPDATE SET n = counters.n + excluded.n,
                data_version = excluded.data_version
            """)
    }
}

/// An import's area rows as COPY data, in chunks of about a megabyte, gathered while its reports
/// are copied.
struct AreaRowChunks: Sendable {
    private(set) var chunks: [[UInt8]] = []
    private var open: [UInt8] = []

    mutating func add(_ r: ReportRecord) {
        for a in r.areas { ReportCSV.append([r.id, a.layer, String(a.layerVersion), a.areaID], to: &open) }
        if open.count >= 1 << 20 { close() }
    }

    /// Ends the chunk being filled.
    mutating func close() {
        guard !open.isEmpty else { return }
        chunks.append(open)
        open = []
    }
}
