import DomainKernel
import Foundation
import ReportVerification
import Storage

extension PostgresStore: VerificationStore {
    public func queue(_ filter: QueueFilter, limit: Int, cursor: String?) async throws -> QueuePage {
        let statuses = filter.statuses.isEmpty ? [ReportStatus.pending] : filter.statuses
        var values: [PostgresValue] = []
        func parameter(_ v: PostgresValue) -> String {
            values.append(v)
            return "$\(values.count)"
        }
        let rank = "CASE status " + statuses.enumerated().map { "WHEN '\($1.rawValue)' THEN \($0)" }.joined(separator: " ") + " END"
        var conditions = ["status IN (" + statuses.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"]
        if let kind = filter.kind { conditions.append("kind = \(parameter(.text(kind.rawValue)))") }
        if let from = filter.from { conditions.append("occurred_on >= \(parameter(.day(from)))") }
        if let to = filter.to { conditions.append("occurred_on <= \(parameter(.day(to)))") }
        switch (filter.layer, filter.areaID) {
        case (let layer?, let area?):
            conditions.append("EXISTS (SELECT 1 FROM report_areas ra WHERE ra.report_id = reports.id AND ra.layer = \(parameter(.text(layer))) AND ra.area_id = \(parameter(.text(area))))")
        case (let layer?, nil):
            conditions.append("EXISTS (SELECT 1 FROM report_areas ra WHERE ra.report_id = reports.id AND ra.layer = \(parameter(.text(layer))))")
        case (nil, let area?):
            conditions.append("EXISTS (SELECT 1 FROM report_areas ra WHERE ra.report_id = reports.id AND ra.area_id = \(parameter(.text(area))))")
        case (nil, nil):
            break
        }
        if let cursor, let c = QueueCursor(cursor) {
            conditions.append("(\(rank), submitted_at, id) > (\(parameter(.int(Int64(c.rank))))::integer, \(parameter(.text(c.submittedAt))), \(parameter(.text(c.id))))")
        }
        let sql = "SELECT \(Self.reportColumns), \(rank) FROM reports WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(rank), submitted_at, id LIMIT \(parameter(.int(Int64(limit + 1))))"
        let bound = values
        return try await pool.run("read the verification queue") { db in
            let s = try db.query(sql, bound, prepare: false)
            let reports = try Self.readReports(s, db)
            let rows = reports.enumerated().map { (report: $1, rank: Int(s.int($0, Self.reportColumnCount))) }
            return QueuePage(rows: rows, limit: limit)
        }
    }

    public func claim(reportID: String, holder: String, until expiresAt: Date, now: Date) async throws -> ReportClaim {
        let until = Timestamp.format(expiresAt)
        return try await pool.transaction("claim a report") { db in
            guard try db.query("SELECT 1 FROM reports WHERE id = $1", [.text(reportID)]).count > 0 else { throw ClaimError.notFound }
            // One statement decides under the claim row's lock: taken when free, expired or the
            // holder's own, so two verifiers on two processes never both hold it.
            let taken = try db.query("""
                INSERT INTO claims (report_id, holder, expires_at) VALUES ($1, $2, $3)
                ON CONFLICT (report_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
                WHERE claims.holder = excluded.holder OR claims.expires_at <= $4
                RETURNING holder
                """, [.text(reportID), .text(holder), .text(until), .text(Timestamp.format(now))])
            guard taken.count > 0 else {
                guard let current = try Self.liveClaim(reportID, now: now, db) else { throw ClaimError.notFound }
                throw ClaimError.heldByOther(current)
            }
            return ReportClaim(reportID: reportID, holder: holder, expiresAt: try Timestamp.parse(until))
        }
    }

    public func release(reportID: String, holder: String) async throws {
        try await pool.transaction("release a claim") { db in
            _ = try db.query("DELETE FROM claims WHERE report_id = $1 AND holder = $2", [.text(reportID), .text(holder)])
        }
    }

    public func claim(reportID: String, now: Date) async throws -> ReportClaim? {
        try await pool.run("read a claim") { db in try Self.liveClaim(reportID, now: now, db) }
    }

    static func liveClaim(_ reportID: String, now: Date, _ db: PostgresConnection) throws -> ReportClaim? {
        let s = try db.query("SELECT holder, expires_at FROM claims WHERE report_id = $1 AND expires_at > $2", [.text(reportID), .text(Timestamp.format(now))])
        return s.count > 0 ? ReportClaim(reportID: reportID, holder: s.string(0, 0), expiresAt: try Timestamp.parse(s.string(0, 1))) : nil
    }

    public func grant(reportID: String, viewerID: String, by admin: String) async throws {
        try await pool.writeTransaction("grant a report") { db in
            guard try db.query("SELECT 1 FROM reports WHERE id = $1", [.text(reportID)]).count > 0 else { throw StorageError.notFound("report \(reportID)") }
            let role = try db.query("SELECT role FROM accounts WHERE id = $1", [.text(viewerID)]).firstText
            guard role == Role.viewer.rawValue else { throw StorageError.notFound("viewer account \(viewerID)") }
            try db.query("INSERT INTO grants (report_id, viewer_id, granted_by, granted_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                         [.text(reportID), .text(viewerID), .text(admin), .text(Timestamp.now())])
            try Self.appendAudit(db, AuditFields(reportID: reportID, actor: admin, at: Timestamp.now(), action: "grant:\(viewerID)"))
        }
    }

    public func revokeGrant(reportID: String, viewerID: String, by admin: String) async throws {
        try await pool.writeTransaction("withdraw a grant") { db in
            try db.query("DELETE FROM grants WHERE report_id = $1 AND viewer_id = $2", [.text(reportID), .text(viewerID)])
            try Self.appendAudit(db, AuditFields(reportID: reportID, actor: admin, at: Timestamp.now(), action: "revoke-grant:\(viewerID)"))
        }
    }

    public func isGranted(reportID: String, viewerID: String) async throws -> Bool {
        try await pool.run("read a grant") { db in
            try db.query("SELECT 1 FROM grants WHERE report_id = $1 AND viewer_id = $2", [.text(reportID), .text(viewerID)]).count > 0
        }
    }

    public func grantedReports(viewerID: String) async throws -> [String] {
        try await pool.run("read grants") { db in
            let s = try db.query("SELECT report_id FROM grants WHERE viewer_id = $1 ORDER BY report_id", [.text(viewerID)])
            return (0..<s.count).map { s.string($0, 0) }
        }
    }
}
