import DomainKernel
import Foundation
import ReportVerification
import Storage

/// The SQL of the store's changes on SQLite, inside a transaction the store has opened (the
/// scripts that combine these steps are written once, in Storage: `ReportWrites`, `LayerWrites`).
struct SQLiteWrites: ReportWrites {
    let db: SQLiteConnection
    let zone: TimeZone

    func report(id: String) throws -> ReportRecord? { try SQLiteStore.loadReport(id: id, db) }

    func setStatus(reportID: String, version: Int, to status: ReportStatus, verifiedOn: Day?, at: String) throws {
        try db.prepare("UPDATE reports SET status = ?, version = version + 1, updated_at = ?, verified_on = ? WHERE id = ? AND version = ?")
            .bind(.text(status.rawValue), .text(at), .day(verifiedOn), .text(reportID), .int(Int64(version))).run()
    }

    func setContent(reportID: String, _ edit: ReportEdit, group: BreakdownGroup?, at: String) throws {
        try db.prepare("UPDATE reports SET occurred_on = ?, lon = ?, lat = ?, payload = ?, version = version + 1, updated_at = ?, group_key = ? WHERE id = ?")
            .bind(.day(edit.occurredOn), edit.lon.map { .double($0) } ?? .null, edit.lat.map { .double($0) } ?? .null,
                  .text(String(decoding: edit.payload, as: UTF8.self)), .text(at), .group(group), .text(reportID)).run()
    }

    func clearLedgerLine(reportID: String) throws {
        try db.prepare("UPDATE reports SET ledger_line = NULL, ledger_settled = 0 WHERE id = ?").bind(.text(reportID)).run()
    }

    func replaceAreas(reportID: String, with areas: [AreaAssignment]) throws {
        try db.prepare("DELETE FROM report_areas WHERE report_id = ?").bind(.text(reportID)).run()
        let insertArea = try db.cached("INSERT INTO report_areas (report_id, layer, layer_version, area_id) VALUES (?, ?, ?, ?)")
        for a in areas { try insertArea.bind(.text(reportID), .text(a.layer), .int(Int64(a.layerVersion)), .text(a.areaID)).run() }
    }

    func appendAudit(_ fields: AuditFields) throws { try SQLiteStore.appendAudit(db, fields) }

    func enqueueNotification(id: String, reportID: String, kind: ReportKind, status: ReportStatus, at: String) throws {
        try db.cached("INSERT INTO outbox (id, report_id, kind, status, at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)")
            .bind(.text(id), .text(reportID), .text(kind.rawValue), .text(status.rawValue), .text(at), .text(at)).run()
    }

    func writeCounters(_ changes: CounterChanges) throws { try SQLiteStore.writeCounters(changes, db) }

    func bumpDataVersion() throws { try SQLiteStore.bumpDataVersion(db) }

    func revisions(reportID: String) throws -> [ReportRevision] { try SQLiteStore.revisions(reportID, db) }

    func latestRevision(reportID: String) throws -> Int {
        Int(try db.prepare("SELECT COALESCE(MAX(revision), 0) FROM revisions WHERE report_id = ?").bind(.text(reportID)).firstInt() ?? 0)
    }

    func insertRevision(_ r: ReportRevision) throws {
        try db.prepare("INSERT INTO revisions (report_id, revision, at, actor, occurred_on, lon, lat, areas, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .bind(.text(r.reportID), .int(Int64(r.revision)), .text(Timestamp.format(r.at)), .text(r.actor), .day(r.occurredOn),
                  r.lon.map { .double($0) } ?? .null, r.lat.map { .double($0) } ?? .null, .text(r.areasJSON),
                  .text(String(decoding: r.payload, as: UTF8.self))).run()
    }

    func deleteRevisions(reportID: String, through revision: Int) throws {
        try db.prepare("DELETE FROM revisions WHERE report_id = ? AND revision <= ?").bind(.text(reportID), .int(Int64(revision))).run()
    }
}
