import DomainKernel
import Foundation
import ReportVerification
import Storage

extension SQLiteStore: VerificationStore {
    public func queue(_ filter: QueueFilter, limit: Int, cursor: String?) async throws -> QueuePage {
        let statuses = filter.statuses.isEmpty ? [ReportStatus.pending] : filter.statuses
        let rank = "CASE status " + statuses.enumerated().map { "WHEN '\($1.rawValue)' THEN \($0)" }.joined(separator: " ") + " END"
        var conditions = ["status IN (" + statuses.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"]
        var values: [SQLiteStatement.Value] = []
        if let kind = filter.kind { conditions.append("kind = ?"); values.append(.text(kind.rawValue)) }
        if let from = filter.from { conditions.append("occurred_on >= ?"); values.append(.day(from)) }
        if let to = filter.to { conditions.append("occurred_on <= ?"); values.append(.day(to)) }
        switch (filter.layer, filter.areaID) {
        case (let layer?, let area?):
            conditions.append("EXISTS (SELECT 1 FROM report_areas ra WHERE ra.report_id = reports.id AND ra.layer = ? AND ra.area_id = ?)")
            values += [.text(layer), .text(area)]
        case (let layer?, nil):
            conditions.append("EXISTS (SELECT 1 FROM report_areas ra WHERE ra.report_id = reports.id AND ra.layer = ?)")
            values.append(.text(layer))
        case (nil, let area?):
            conditions.append("EXISTS (SELECT 1 FROM report_areas ra WHERE ra.report_id = reports.id AND ra.area_id = ?)")
            values.append(.text(area))
        case (nil, nil):
            break
        }
        if let cursor, let c = QueueCursor(cursor) {
            conditions.append("(\(rank), submitted_at, id) > (?, ?, ?)")
            values += [.int(Int64(c.rank)), .text(c.submittedAt), .text(c.id)]
        }
        let sql = "SELECT \(Self.reportColumns), \(rank) FROM reports WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(rank), submitted_at, id LIMIT ?"
        values.append(.int(Int64(limit + 1)))
        let bound = values
        return try await run { db in
            let s = try db.prepare(sql)
            try s.bind(values: bound)
            var rows: [(report: ReportRecord, rank: Int)] = []
            while try s.step() { rows.append((try Self.readReport(s, db), Int(s.int(SQLiteStore.reportColumnCount)))) }
            return QueuePage(rows: rows, limit: limit)
        }
    }

    public func claim(reportID: String, holder: String, until expiresAt: Date, now: Date) async throws -> ReportClaim {
        try await run { db in
            try db.transaction {
                guard try Self.loadReport(id: reportID, db) != nil else { throw ClaimError.notFound }
                if let current = try Self.liveClaim(reportID, now: now, db), current.holder != holder {
                    throw ClaimError.heldByOther(current)
                }
                try db.prepare("INSERT INTO claims (report_id, holder, expires_at) VALUES (?, ?, ?) ON CONFLICT (report_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at")
                    .bind(.text(reportID), .text(holder), .text(Timestamp.format(expiresAt))).run()
                return ReportClaim(reportID: reportID, holder: holder, expiresAt: try Timestamp.parse(Timestamp.format(expiresAt)))
            }
        }
    }

    public func release(reportID: String, holder: String) async throws {
        try await run { db in
            try db.prepare("DELETE FROM claims WHERE report_id = ? AND holder = ?").bind(.text(reportID), .text(holder)).run()
        }
    }

    public func claim(reportID: String, now: Date) async throws -> ReportClaim? {
        try await run { db in try Self.liveClaim(reportID, now: now, db) }
    }

    static func liveClaim(_ reportID: String, now: Date, _ db: SQLiteConnection) throws -> ReportClaim? {
        let s = try db.prepare("SELECT holder, expires_at FROM claims WHERE report_id = ? AND expires_at > ?")
            .bind(.text(reportID), .text(Timestamp.format(now)))
        return try s.step() ? ReportClaim(reportID: reportID, holder: s.text(0)!, expiresAt: try Timestamp.parse(s.text(1)!)) : nil
    }

    public func grant(reportID: String, viewerID: String, by admin: String) async throws {
        try await run { db in
            try db.transaction {
                guard try Self.loadReport(id: reportID, db) != nil else { throw StorageError.notFound("report \(reportID)") }
                let role = try db.prepare("SELECT role FROM accounts WHERE id = ?").bind(.text(viewerID)).firstText()
                guard role == Role.viewer.rawValue else { throw StorageError.notFound("viewer account \(viewerID)") }
                try db.prepare("INSERT OR IGNORE INTO grants (report_id, viewer_id, granted_by, granted_at) VALUES (?, ?, ?, ?)")
                    .bind(.text(reportID), .text(viewerID), .text(admin), .text(Timestamp.now())).run()
                try Self.appendAudit(db, AuditFields(reportID: reportID, actor: admin, at: Timestamp.now(), action: "grant:\(viewerID)"))
            }
        }
    }

    public func revokeGrant(reportID: String, viewerID: String, by admin: String) async throws {
        try await run { db in
            try db.transaction {
                try db.prepare("DELETE FROM grants WHERE report_id = ? AND viewer_id = ?").bind(.text(reportID), .text(viewerID)).run()
                try Self.appendAudit(db, AuditFields(reportID: reportID, actor: admin, at: Timestamp.now(), action: "revoke-grant:\(viewerID)"))
            }
        }
    }

    public func isGranted(reportID: String, viewerID: String) async throws -> Bool {
        try await run { db in
            try db.prepare("SELECT 1 FROM grants WHERE report_id = ? AND viewer_id = ?").bind(.text(reportID), .text(viewerID)).firstInt() != nil
        }
    }

    public func grantedReports(viewerID: String) async throws -> [String] {
        try await run { db in
            let s = try db.prepare("SELECT report_id FROM grants WHERE viewer_id = ? ORDER BY report_id").bind(.text(viewerID))
            var out: [String] = []
            while try s.step() { out.append(s.text(0)!) }
            return out
        }
    }
}
