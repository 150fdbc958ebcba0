import DomainKernel
import Foundation
import ReportVerification
import Storage

/// The SQL of the store's changes on PostgreSQL (the scripts that combine these steps are written
/// once, in Storage: `ReportWrites`, `LayerWrites`);
/// used inside a transaction that holds the writer lock.
struct PostgresWrites: ReportWrites {
    let db: PostgresConnection
    let zone: TimeZone
    /// Up to how many wrong cells a counter repair writes one by one rather than replacing the table.
    var rebuildUpsertLimit = PostgresStore.defaultRebuildUpsertLimit
    /// Whether the transaction took the writer lock with its `BEGIN`; false for an import that
    /// stores its rows first and takes the lock after them (`PostgresStore.importReports`).
    var lockedFromStart = true

    func report(id: String) throws -> ReportRecord? { try PostgresStore.loadReport(id: id, db) }

    func setStatus(reportID: String, version: Int, to status: ReportStatus, verifiedOn: Day?, at: String) throws {
        try db.query("UPDATE reports SET status = $1, version = version + 1, updated_at = $2, verified_on = $3 WHERE id = $4 AND version = $5",
                     [.text(status.rawValue), .text(at), .day(verifiedOn), .text(reportID), .int(Int64(version))])
    }

    func setContent(reportID: String, _ edit: ReportEdit, group: BreakdownGroup?, at: String) throws {
        try db.query("UPDATE reports SET occurred_on = $1, lon = $2, lat = $3, payload = $4, version = version + 1, updated_at = $5, group_key = $6 WHERE id = $7",
                     [.day(edit.occurredOn), .optional(edit.lon), .optional(edit.lat), .text(String(decoding: edit.payload, as: UTF8.self)),
                      .text(at), .group(group), .text(reportID)])
    }

    func clearLedgerLine(reportID: String) throws {
        try db.query("UPDATE reports SET ledger_line = NULL, ledger_settled = false WHERE id = $1", [.text(reportID)])
    }

    func replaceAreas(reportID: String, with areas: [AreaAssignment]) throws {
        try db.query("DELETE FROM report_areas WHERE report_id = $1", [.text(reportID)])
        try PostgresStore.insertAreas(reportID, areas, db)
    }

    func appendAudit(_ fields: AuditFields) throws { try PostgresStore.appendAudit(db, fields) }

    func enqueueNotification(id: String, reportID: String, kind: ReportKind, status: ReportStatus, at: String) throws {
        try db.query("INSERT INTO outbox (id, report_id, kind, status, at, next_attempt_at) VALUES ($1, $2, $3, $4, $5, $5)",
                     [.text(id), .text(reportID), .text(kind.rawValue), .text(status.rawValue), .text(at)])
    }

    func writeCounters(_ changes: CounterChanges) throws { try PostgresStore.writeCounters(changes, db) }

    func bumpDataVersion() throws { try PostgresStore.bumpDataVersion(db) }

    func revisions(reportID: String) throws -> [ReportRevision] { try PostgresStore.revisions(reportID, db) }

    func latestRevision(reportID: String) throws -> Int {
        Int(try db.query("SELECT COALESCE(MAX(revision), 0) FROM revisions WHERE report_id = $1", [.text(reportID)]).firstInt ?? 0)
    }

    func insertRevision(_ r: ReportRevision) throws {
        try db.query("INSERT INTO revisions (report_id, revision, at, actor, occurred_on, lon, lat, areas, payload) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                     [.text(r.reportID), .int(Int64(r.revision)), .text(Timestamp.format(r.at)), .text(r.actor), .day(r.occurredOn),
                      .optional(r.lon), .optional(r.lat), .text(r.areasJSON), .text(String(decoding: r.payload, as: UTF8.self))])
    }

    func deleteRevisions(reportID: String, through revision: Int) throws {
        try db.query("DELETE FROM revisions WHERE report_id = $1 AND revision <= $2", [.text(reportID), .int(Int64(revision))])
    }
}
