import DomainKernel
import Foundation
import ReportVerification
import Storage

extension SQLiteStore: AuditLog {
    private static let auditColumns = "sequence, report_id, actor, at, action, from_status, to_status, reason, hash"

    public func history(reportID: String) async throws -> [AuditEntry] {
        try await entries(where: "report_id = ?", .text(reportID))
    }

    public func verifyAuditChain() async throws -> Int? {
        try await run { db in
            let s = try db.prepare("SELECT \(Self.auditColumns) FROM audit ORDER BY sequence")
            var check = AuditChainCheck(key: db.auditKey)
            while try s.step() {
                check.check(sequence: Int(s.int(0)), Self.auditFields(s), storedHash: s.text(8)!)
                if let broken = check.firstBroken { return broken }
            }
            return nil
        }
    }

    public func recordEvent(actor: String, action: String, detail: String) async throws {
        try await run { db in
            try db.transaction {
                _ = try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: Timestamp.now(), action: action, reason: detail))
            }
        }
    }

    public func events(action: String) async throws -> [AuditEntry] {
        try await entries(where: "report_id IS NULL AND action = ?", .text(action))
    }

    private func entries(where condition: String, _ value: SQLiteStatement.Value) async throws -> [AuditEntry] {
        try await run { db in
            let s = try db.prepare("SELECT \(Self.auditColumns) FROM audit WHERE \(condition) ORDER BY sequence").bind(value)
            var out: [AuditEntry] = []
            while try s.step() {
                let f = Self.auditFields(s)
                out.append(AuditEntry(sequence: Int(s.int(0)), reportID: f.reportID, actor: f.actor, at: try Timestamp.parse(f.at), action: f.action,
                                      fromStatus: f.from, toStatus: f.to, reason: f.reason, hash: s.text(8)!))
            }
            return out
        }
    }

    /// The hashed fields of an audit row (columns as `auditColumns`).
    private static func auditFields(_ s: SQLiteStatement) -> AuditFields {
        AuditFields(reportID: s.text(1), actor: s.text(2)!, at: s.text(3)!, action: s.text(4)!,
                    from: s.text(5).flatMap(ReportStatus.init(rawValue:)), to: s.text(6).flatMap(ReportStatus.init(rawValue:)), reason: s.text(7))
    }

    public func useAuditKey(_ key: AuditKey) async throws {
        try await run { db in db.auditKey = key }
    }

    public func auditHead() async throws -> AuditTail {
        try await run { db in try Self.auditTail(db) }
    }

    public func auditHash(sequence: Int) async throws -> String? {
        try await run { db in try db.prepare("SELECT hash FROM audit WHERE sequence = ?").bind(.int(Int64(sequence))).firstText() }
    }
}
