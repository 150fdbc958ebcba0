import Aggregation
import DomainKernel
import Foundation
import ReportVerification
import Storage

extension SQLiteStore: ReportStore {
    static let reportColumns = "id, kind, status, version, reporter_id, submitted_at, updated_at, occurred_on, payload, lon, lat, verified_on, group_key"
    /// How many columns `reportColumns` names: a query may select more after them.
    static let reportColumnCount: Int32 = 13

    /// Reads a report row (columns as `reportColumns`) and its area assignments.
    static func readReport(_ s: SQLiteStatement, _ db: SQLiteConnection) throws -> ReportRecord {
        let areas = try db.cached("SELECT layer, layer_version, area_id FROM report_areas WHERE report_id = ? ORDER BY layer").bind(.text(s.text(0)!))
        var assignments: [AreaAssignment] = []
        while try areas.step() { assignments.append(AreaAssignment(layer: areas.text(0)!, layerVersion: Int(areas.int(1)), areaID: areas.text(2)!)) }
        return try readReport(s, areas: assignments)
    }

    /// Reads a report row whose area assignments the caller already has.
    static func readReport(_ s: SQLiteStatement, areas assignments: [AreaAssignment]) throws -> ReportRecord {
        guard let status = try s.reportStatus(2), let occurredOn = try s.day(7) else { throw StorageError.unreadable("report \(s.text(0) ?? "")") }
        return ReportRecord(id: s.text(0)!, kind: try s.reportKind(1), status: status, version: Int(s.int(3)),
                            reporterID: s.text(4), submittedAt: try Timestamp.parse(s.text(5)!), updatedAt: try Timestamp.parse(s.text(6)!),
                            occurredOn: occurredOn, payload: Data(s.text(8)!.utf8),
                            lon: s.isNull(9) ? nil : s.double(9), lat: s.isNull(10) ? nil : s.double(10), areas: assignments,
                            verifiedOn: try s.day(11), group: s.group(12))
    }

    static func loadReport(id: String, _ db: SQLiteConnection) throws -> ReportRecord? {
        let s = try db.prepare("SELECT \(reportColumns) FROM reports WHERE id = ?").bind(.text(id))
        return try s.step() ? try readReport(s, db) : nil
    }

    public func submit(_ submission: ReportSubmission) async throws -> SubmissionOutcome {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(IntakeJob(submission: submission, continuation: continuation))
        }
    }

    /// Stores one submission inside the drain's transaction.
    ///
    /// - Parameters:
    ///   - audit: the newest audit entry, carried from one submission of the batch to the next
    ///     so that each link of the chain is not read back from the table.
    ///
    /// Counters are left to the drain, which sums the batch's changes and writes them once.
    /// Each area layer's published version, read inside the intake transaction (see
    /// `ReportSubmission.checkPlacement`).
    static func publishedAreaVersions(_ db: SQLiteConnection) throws -> [String: Int] {
        let s = try db.cached(StalePlacement.publishedVersionsSQL)
        var out: [String: Int] = [:]
        while try s.step() { out[s.text(0)!] = Int(s.int(1)) }
        return out
    }

    static func store(_ job: IntakeJob, _ db: SQLiteConnection, audit: inout AuditTail, published: [String: Int]) throws -> SubmissionOutcome {
        let r = job.submission.record
        let scope = job.submission.idempotencyScope
        if let key = job.submission.idempotencyKey {
            let s = try db.cached("SELECT \(reportColumns), idempotency_request FROM reports WHERE idempotency_scope = ? AND idempotency_key = ?")
                .bind(.text(scope), .text(key))
            if try s.step() {
                let r = try readReport(s, db)
                let digest = s.text(reportColumnCount)
                try s.finish()
                return try job.submission.replay(of: r, request: digest)
            }
        }
        if let reporter = r.reporterID {
            let s = try db.cached("SELECT id, submitted_at, status FROM reports WHERE reporter_id = ? AND kind = ? ORDER BY submitted_at DESC LIMIT 50")
                .bind(.text(reporter), .text(r.kind.rawValue))
            var prior: [PriorReport] = []
            while try s.step() {
                prior.append(PriorReport(id: s.text(0)!, submittedAt: try Timestamp.parse(s.text(1)!), status: try s.reportStatus(2) ?? .pending))
            }
            try job.submission.checkResubmission(after: prior)
        }
        try job.submission.checkPlacement(published: published)
        let submitted = Timestamp.format(r.submittedAt)
        try db.cached("""
            INSERT INTO reports (id, kind, status, version, reporter_id, idempotency_scope, idempotency_key, idempotency_request,
                                 occurred_on, submitted_at, updated_at, lon, lat, payload, group_key)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).bind(.text(r.id), .text(r.kind.rawValue), .text(r.status.rawValue), .int(Int64(r.version)), r.reporterID.map { .text($0) } ?? .null,
                      .text(scope), job.submission.idempotencyKey.map { .text($0) } ?? .null,
                      job.submission.requestDigest.map { .text($0) } ?? .null, .day(r.occurredOn), .text(submitted),
                      .text(submitted), r.lon.map { .double($0) } ?? .null, r.lat.map { .double($0) } ?? .null,
                      .text(String(decoding: r.payload, as: UTF8.self)), .group(r.group)).run()
        let insertArea = try db.cached("INSERT INTO report_areas (report_id, layer, layer_version, area_id) VALUES (?, ?, ?, ?)")
        for a in r.areas {
            try insertArea.bind(.text(r.id), .text(a.layer), .int(Int64(a.layerVersion)), .text(a.areaID)).run()
        }
        audit = try appendAudit(db, after: audit, AuditFields(reportID: r.id, actor: r.reporterID ?? "anonymous", at: submitted,
                                                              action: "submit", to: r.status))
        return .created(r)
    }

    /// Appends one audit entry, chained to the last one. Runs inside the caller's transaction.
    /// - Parameter tail: the newest entry when the caller already knows it; read from the table otherwise.
    /// - Returns: the appended entry, the next entry's predecessor.
    @discardableResult
    static func appendAudit(_ db: SQLiteConnection, after tail: AuditTail? = nil, _ fields: AuditFields) throws -> AuditTail {
        let entry = try (tail ?? auditTail(db)).next(fields)
        try db.cached("INSERT INTO audit (sequence, report_id, actor, at, action, from_status, to_status, reason, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .bind(.int(Int64(entry.sequence)), fields.reportID.map { .text($0) } ?? .null, .text(fields.actor), .text(fields.at),
                  .text(fields.action), fields.from.map { .text($0.rawValue) } ?? .null, fields.to.map { .text($0.rawValue) } ?? .null,
                  fields.reason.map { .text($0) } ?? .null, .text(entry.hash)).run()
        return entry
    }

    /// The last entry in the audit table, or the chain's start when the trail is empty.
    static func auditTail(_ db: SQLiteConnection) throws -> AuditTail {
        let last = try db.cached("SELECT sequence, hash FROM audit ORDER BY sequence DESC LIMIT 1").bind()
        defer { try? last.finish() }
        return try last.step() ? AuditTail(sequence: Int(last.int(0)), hash: last.text(1)!, key: db.auditKey) : .start(db.auditKey)
    }

    public func report(id: String) async throws -> ReportRecord? {
        try await run { db in try Self.loadReport(id: id, db) }
    }

    public func pendingAnonymousCount() async throws -> Int {
        try await run { db in Int(try db.scalar("SELECT count(*) FROM reports WHERE status = 'pending' AND reporter_id IS NULL") ?? 0) }
    }

    public func transition(reportID: String, _ transition: ReportTransition, reason: String?, actor: String,
                           expectedVersion: Int?) async throws -> ReportRecord {
        try await write { try $0.transition(reportID: reportID, transition, reason: reason, actor: actor, expectedVersion: expectedVersion) }
    }
}
