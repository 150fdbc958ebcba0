import DomainKernel
import Foundation
import Storage
import Synchronization

extension PostgresStore: AuditLog {
    private static let auditColumns = "sequence, report_id, actor, at, action, from_status, to_status, reason, hash"

    public func history(reportID: String) async throws -> [AuditEntry] {
        try await entries(where: "report_id = $1", .text(reportID))
    }

    public func verifyAuditChain() async throws -> Int? {
        try await pool.run("verify the audit chain") { db in
            // In pages by sequence, so a long trail is never one result in memory.
            var check = AuditChainCheck(key: db.auditKey)
            var after: Int64 = -1
            while true {
                let s = try db.query("SELECT \(Self.auditColumns) FROM audit WHERE sequence > $1 ORDER BY sequence LIMIT 10000", [.int(after)])
                guard s.count > 0 else { return nil }
                for i in 0..<s.count {
                    check.check(sequence: Int(s.int(i, 0)), Self.auditFields(s, i), storedHash: s.string(i, 8))
                    if let broken = check.firstBroken { return broken }
                }
                after = s.int(s.count - 1, 0)
            }
        }
    }

    public func recordEvent(actor: String, action: String, detail: String) async throws {
        try await pool.writeTransaction("record an event") { db in
            _ = try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: Timestamp.now(), action: action, reason: detail))
        }
    }

    public func events(action: String) async throws -> [AuditEntry] {
        try await entries(where: "report_id IS NULL AND action = $1", .text(action))
    }

    private func entries(where condition: String, _ value: PostgresValue) async throws -> [AuditEntry] {
        try await pool.run("read the audit trail") { db in
            let s = try db.query("SELECT \(Self.auditColumns) FROM audit WHERE \(condition) ORDER BY sequence", [value])
            return try (0..<s.count).map { i in
                let f = Self.auditFields(s, i)
                return AuditEntry(sequence: Int(s.int(i, 0)), reportID: f.reportID, actor: f.actor, at: try Timestamp.parse(f.at), action: f.action,
                                  fromStatus: f.from, toStatus: f.to, reason: f.reason, hash: s.string(i, 8))
            }
        }
    }

    /// The hashed fields of an audit row (columns as `auditColumns`).
    private static func auditFields(_ s: PostgresResult, _ i: Int) -> AuditFields {
        AuditFields(reportID: s.text(i, 1), actor: s.string(i, 2), at: s.string(i, 3), action: s.string(i, 4),
                    from: s.text(i, 5).flatMap(ReportStatus.init(rawValue:)), to: s.text(i, 6).flatMap(ReportStatus.init(rawValue:)), reason: s.text(i, 7))
    }

    public func useAuditKey(_ key: AuditKey) async throws {
        pool.auditKey.withLock { $0 = key }
    }

    public func auditHead() async throws -> AuditTail {
        try await pool.run("read the audit head") { db in try Self.auditTail(db) }
    }

    public func auditHash(sequence: Int) async throws -> String? {
        try await pool.run("read an audit entry") { db in
            try db.query("SELECT hash FROM audit WHERE sequence = $1", [.int(Int64(sequence))]).firstText
        }
    }
}
