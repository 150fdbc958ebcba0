import Foundation

extension SQLiteStore {
    /// Records an event that concerns no single report (an export, a counter rebuild) in the
    /// audit trail, chained like every other entry.
    public func recordEvent(actor: String, action: String, detail: String) async throws {
        try await run { db in
            try db.transaction {
                _ = try Self.appendAudit(db, reportID: nil, actor: actor, at: Timestamp.now(), action: action, from: nil, to: nil, reason: detail)
            }
        }
    }

    /// The audit entries that concern no single report, oldest first (exports, rebuilds).
    public func events(action: String) async throws -> [AuditEntry] {
        try await run { db in
            let s = try db.prepare("SELECT sequence, report_id, actor, at, action, from_status, to_status, reason, hash FROM audit WHERE report_id IS NULL AND action = ? ORDER BY sequence")
                .bind(.text(action))
            var out: [AuditEntry] = []
            while try s.step() { out.append(Self.auditEntry(s)) }
            return out
        }
    }
}
