import Aggregation
import DomainKernel
import Foundation
import ReportVerification
import Storage

extension PostgresStore: ReportStore {
    static let reportColumns = "id, kind, status, version, reporter_id, submitted_at, updated_at, occurred_on, payload, lon, lat, verified_on, group_key"
    /// How many columns `reportColumns` names: a query may select more after them.
    static let reportColumnCount = 13

    /// `reportColumns` qualified with a table alias, for joins.
    static func reportColumns(_ alias: String) -> String {
        reportColumns.split(separator: ",").map { "\(alias)." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
    }

    /// Reads the report rows of a result (columns as `reportColumns`) with their area assignments,
    /// fetched in one query for all of them.
    static func readReports(_ r: PostgresResult, _ db: PostgresConnection) throws -> [ReportRecord] {
        guard r.count > 0 else { return [] }
        let ids = (0..<r.count).map { r.string($0, 0) }
        let areas = try db.query("SELECT report_id, layer, layer_version, area_id FROM report_areas WHERE report_id = ANY($1) ORDER BY report_id, layer",
                                 [.textArray(ids)])
        var byReport: [String: [AreaAssignment]] = [:]
        for i in 0..<areas.count {
            byReport[areas.string(i, 0), default: []].append(AreaAssignment(layer: areas.string(i, 1), layerVersion: Int(areas.int(i, 2)),
                                                                            areaID: areas.string(i, 3)))
        }
        return try (0..<r.count).map { try readReport(r, $0, areas: byReport[r.string($0, 0)] ?? []) }
    }

    /// Reads one report row whose area assignments the caller already has.
    static func readReport(_ r: PostgresResult, _ i: Int, areas: [AreaAssignment]) throws -> ReportRecord {
        guard let status = try r.reportStatus(i, 2), let occurredOn = try r.day(i, 7) else { throw StorageError.unreadable("report \(r.string(i, 0))") }
        return ReportRecord(id: r.string(i, 0), kind: try r.reportKind(i, 1), status: status, version: Int(r.int(i, 3)),
                            reporterID: r.text(i, 4), submittedAt: try Timestamp.parse(r.string(i, 5)), updatedAt: try Timestamp.parse(r.string(i, 6)),
                            occurredOn: occurredOn, payload: Data(r.string(i, 8).utf8), lon: r.double(i, 9), lat: r.double(i, 10),
                            areas: areas, verifiedOn: try r.day(i, 11), group: r.group(i, 12))
    }

    /// The report, read inside the caller's transaction; `forUpdate` locks its row until commit.
    static func loadReport(id: String, forUpdate: Bool = false, _ db: PostgresConnection) throws -> ReportRecord? {
        let sql = "SELECT \(reportColumns) FROM reports WHERE id = $1" + (forUpdate ? " FOR UPDATE" : "")
        return try readReports(db.query(sql, [.text(id)]), db).first
    }

    public func submit(_ submission: ReportSubmission) async throws -> SubmissionOutcome {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(IntakeJob(submission: submission, continuation: continuation))
        }
    }

    static func insertAreas(_ reportID: String, _ areas: [AreaAssignment], _ db: PostgresConnection) throws {
        for a in areas {
            try db.query("INSERT INTO report_areas (report_id, layer, layer_version, area_id) VALUES ($1, $2, $3, $4)",
                         [.text(reportID), .text(a.layer), .int(Int64(a.layerVersion)), .text(a.areaID)])
        }
    }

    /// Appends one audit entry, chained to the last one, inside the caller's transaction, which
    /// holds the writer lock (so no other process appends in between).
    @discardableResult
    static func appendAudit(_ db: PostgresConnection, _ fields: AuditFields) throws -> AuditTail {
        let entry = try auditTail(db).next(fields)
        try db.query("INSERT INTO audit (sequence, report_id, actor, at, action, from_status, to_status, reason, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                     [.int(Int64(entry.sequence)), .optional(fields.reportID), .text(fields.actor), .text(fields.at), .text(fields.action),
                      .optional(fields.from?.rawValue), .optional(fields.to?.rawValue), .optional(fields.reason), .text(entry.hash)])
        return entry
    }

    /// The last entry in the audit table, or the chain's start when the trail is empty.
    static func auditTail(_ db: PostgresConnection) throws -> AuditTail {
        auditTail(try db.query(auditTailSQL), db)
    }

    /// The tail from the result of `auditTailSQL`.
    static func auditTail(_ last: PostgresResult, _ db: PostgresConnection) -> AuditTail {
        last.count > 0 ? AuditTail(sequence: Int(last.int(0, 0)), hash: last.string(0, 1), key: db.auditKey) : .start(db.auditKey)
    }

    static let auditTailSQL = "SELECT sequence, hash FROM audit ORDER BY sequence DESC LIMIT 1"

    public func report(id: String) async throws -> ReportRecord? {
        try await pool.run("read a report") { db in try Self.loadReport(id: id, db) }
    }

    public func pendingAnonymousCount() async throws -> Int {
        try await pool.run("count pending anonymous reports") { db in Int(try db.query("SELECT count(*) FROM reports WHERE status = 'pending' AND reporter_id IS NULL").firstInt ?? 0) }
    }

    public func transition(reportID: String, _ transition: ReportTransition, reason: String?, actor: String,
                           expectedVersion: Int?) async throws -> ReportRecord {
        try await write("change a report's status") {
            try $0.transition(reportID: reportID, transition, reason: reason, actor: actor, expectedVersion: expectedVersion)
        }
    }
}

extension PostgresValue {
    /// A `text[]` parameter, in PostgreSQL's array literal syntax; nil elements are NULL.
    static func textArray(_ values: [String?]) -> Self {
        .text(TextArray.literal(values))
    }

    static func textArray(_ values: [String]) -> Self { textArray(values.map(Optional.some)) }
}
